"""Gradient checking: compare the engine's backward pass with central finite differences.

A function with many outputs is reduced to one number, ``sum(w * fn(*inputs))``, with weights ``w``
drawn once from ``np.random.default_rng(0)`` for the output's shape (``w = 1`` when the output has a
single element). A random projection checks every output element's contribution at the cost of one
backward pass, and a random seed (unlike ones) catches transposition bugs that a uniform one hides.
"""

import numpy as np

from .engine import grad
from .grad_mode import enable_grad, no_grad
from .tensor import Tensor

ATOL = 1e-5
RTOL = 1e-3
"""The default tolerances of :func:`close`, the one pass rule of ``gradcheck`` and of the
playground's Gradient check page."""

_FLOAT64_ADVICE = (
    "gradcheck needs float64 inputs: finite differences in float32 are too noisy; "
    "use .astype(np.float64) or dtype=np.float64"
)


class GradcheckError(RuntimeError):
    """The analytic gradient of an input disagrees with finite differences.

    Attributes say where: ``input_index``, ``input_name``, ``index`` (the worst element),
    ``analytic`` and ``numeric`` (its two values).
    """

    def __init__(self, message, input_index, input_name, index, analytic, numeric):
        super().__init__(message)
        self.input_index = input_index
        self.input_name = input_name
        self.index = index
        self.analytic = analytic
        self.numeric = numeric


def numerical_grad(fn, inputs, eps=1e-6):
    """Central differences of ``sum(w * fn(*inputs))``: one float64 array per input.

    ``fn`` is called under ``no_grad`` with float64 copies of the inputs (the originals are never
    modified); integer inputs such as class labels are passed unchanged and get ``None``.
    Each element costs two calls of ``fn``.
    """
    inputs = _as_tensors(inputs)
    return _numerical(fn, inputs, eps, [_is_float(t) for t in inputs])


def close(analytic, numeric, atol=ATOL, rtol=RTOL):
    """Where an analytic gradient agrees with its finite-difference estimate, elementwise.

    ``|analytic - numeric| <= atol + rtol * |numeric|`` with both finite (``torch.gradcheck``'s
    rule): absolute near zero, where relative error explodes, relative elsewhere. A NaN or inf on
    either side never agrees. A NumPy bool, or an array of them for array arguments.
    """
    a = np.asarray(analytic, dtype=np.float64)
    n = np.asarray(numeric, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.isfinite(a) & np.isfinite(n) & (np.abs(a - n) <= atol + rtol * np.abs(n))


def gradcheck(fn, inputs, eps=1e-6, atol=ATOL, rtol=RTOL, raise_exception=True):
    """Check backward against finite differences for every input that requires grad.

    Passes when :func:`close` holds for every element, i.e.
    ``|analytic - numeric| <= atol + rtol * |numeric|``; returns
    True, or raises a :class:`GradcheckError` naming the input, the worst element and both values
    (returns False instead when ``raise_exception=False``). ``.grad`` of the inputs is not touched.
    """
    inputs = _as_tensors(inputs)
    checked = [t.requires_grad for t in inputs]
    for position, t in enumerate(inputs):
        if checked[position] and t.dtype != np.float64:
            raise TypeError(f"{_describe(position, t)} has dtype {t.dtype}. {_FLOAT64_ADVICE}.")
    analytic = _analytic(fn, inputs, checked)
    numeric = _numerical(fn, inputs, eps, checked)
    for position, t in enumerate(inputs):
        if not checked[position]:
            continue
        error = _compare(position, t, analytic[position], numeric[position], atol, rtol)
        if error is not None:
            if raise_exception:
                raise error
            return False
    return True


def _as_tensors(inputs):
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    return [t if isinstance(t, Tensor) else Tensor(t) for t in inputs]


def _is_float(t):
    return np.issubdtype(t.dtype, np.floating)


def _describe(position, t):
    name = f" ({t.name!r})" if t.name else ""
    return f"input {position}{name}, shape {t.shape},"


def _projection(shape):
    """The fixed weights that reduce an output of this shape to one number."""
    if int(np.prod(shape)) == 1:
        return np.ones(shape)
    return np.random.default_rng(0).standard_normal(shape)


def _array(output):
    return output.data if isinstance(output, Tensor) else np.asarray(output)


def _projected(output, weights):
    return float(np.sum(weights * _array(output).astype(np.float64)))


def _analytic(fn, inputs, checked):
    """The engine's gradient of the projected output, one array per checked input."""
    wanted = [t for t, c in zip(inputs, checked, strict=True) if c]
    with enable_grad():
        output = fn(*inputs)
    if not isinstance(output, Tensor):
        raise TypeError(f"gradcheck: fn must return a Tensor, got {type(output).__name__}")
    if output.requires_grad and wanted:
        weights = Tensor(_projection(output.shape).astype(output.dtype))
        grads = iter(grad(output, wanted, grad_outputs=weights, allow_unused=True))
    else:
        grads = iter([None] * len(wanted))
    result = []
    for t, c in zip(inputs, checked, strict=True):
        g = next(grads) if c else None
        if c and g is None:
            g = np.zeros(t.shape)
        result.append(None if g is None else np.asarray(getattr(g, "data", g), dtype=np.float64))
    return result


def _numerical(fn, inputs, eps, wanted):
    copies = [Tensor(t.data.astype(np.float64), name=t.name) if _is_float(t) else t for t in inputs]
    with no_grad():
        weights = _projection(_array(fn(*copies)).shape)
        result = []
        for copy, want in zip(copies, wanted, strict=True):
            if not want:
                result.append(None)
                continue
            data = copy.data
            grad = np.zeros(data.shape)
            for index in np.ndindex(data.shape):
                original = data[index]
                data[index] = original + eps
                plus = _projected(fn(*copies), weights)
                data[index] = original - eps
                minus = _projected(fn(*copies), weights)
                data[index] = original
                grad[index] = (plus - minus) / (2 * eps)
            result.append(grad)
    return result


def _compare(position, t, analytic, numeric, atol, rtol):
    """A GradcheckError for the worst element of one input, or None when all agree."""
    if analytic.shape != numeric.shape:
        return GradcheckError(
            f"gradcheck: {_describe(position, t)} got a gradient of shape {analytic.shape} from "
            f"backward, but its gradient must have the input's shape {numeric.shape}.",
            position, t.name, None, analytic, numeric,
        )
    if close(analytic, numeric, atol, rtol).all():
        return None
    with np.errstate(invalid="ignore"):
        excess = np.abs(analytic - numeric) - (atol + rtol * np.abs(numeric))
    excess = np.where(np.isnan(excess), np.inf, excess)
    index = np.unravel_index(int(np.argmax(excess)), excess.shape)
    a, n = float(analytic[index]), float(numeric[index])
    index = tuple(int(i) for i in index)
    return GradcheckError(
        f"gradcheck: the gradient of {_describe(position, t)} is wrong at index {index}: "
        f"analytic (backward) {a!r}, numeric (finite differences) {n!r}; "
        f"|difference| {abs(a - n):.3g} exceeds atol + rtol * |numeric| = "
        f"{atol + rtol * abs(n):.3g}. Check the backward of the ops this input flows through.",
        position, t.name, index, a, n,
    )
