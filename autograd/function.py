"""Function: one differentiable operation, with its forward and its local derivative side by side.

``forward`` takes NumPy arrays and returns one; ``backward`` takes the gradient of the output
and returns one gradient per input (None where there is none). Call ``Op()(x, y)`` or
``Op.apply(x, y)``; keyword arguments are non-differentiable attributes passed to ``forward``.

The engine reduces any gradient that has a broadcast shape back to its input's shape, so op
authors never unbroadcast by hand. The output is held weakly, so a graph has no reference cycles
and is freed as soon as its root is dropped.
"""

import weakref

import numpy as np

from .grad_mode import _grad_enabled


class Function:
    """Base class of every operation; subclass it and define ``forward`` and ``backward``."""

    # _output: a weak reference to the result, kept when the result is saved or watched;
    # _watched: a hook, retain_grad() or grad() wants the result's gradient.
    __slots__ = ("inputs", "needs_input_grad", "_saved", "_output", "_watched", "__weakref__")

    #: Built-in ops write ``backward`` with operators and ``autograd.ops.array_or_tensor``
    #: functions only, so the engine may run it directly on NumPy arrays when no graph of the
    #: backward is needed.
    backward_runs_on_arrays = False

    @property
    def name(self):
        """The op's name as shown in drawings and reprs, e.g. "Mul"."""
        return type(self).__name__

    def __repr__(self):
        return f"<{self.name}>"

    @classmethod
    def apply(cls, *inputs, **attrs):
        """Run the op on ``inputs`` (Tensors, arrays or numbers) and record it for backward."""
        return _record(cls(), inputs, attrs)

    def __call__(self, *inputs, **attrs):
        return _record(self, inputs, attrs)

    def forward(self, *arrays, **attrs):
        raise NotImplementedError(f"{self.name} must define forward(self, *arrays)")

    def backward(self, grad_output):
        raise NotImplementedError(f"{self.name} must define backward(self, grad_output)")

    def jvp(self, *tangents):
        """Forward mode: the output's tangent from one tangent per input (arrays)."""
        raise NotImplementedError(
            f"{self.name} has no forward-mode derivative: define jvp(self, *tangents) returning "
            "the output's tangent, or use reverse mode (backward) for this op")

    def hint(self, inputs, **attrs):
        """Advice for a student when ``forward`` fails on these input Tensors (None: none)."""
        return None

    def save_for_backward(self, *values):
        """Keep arrays that ``backward`` needs; they are freed once backward has passed."""
        self._saved = values

    @property
    def saved_tensors(self):
        """The values ``forward`` saved. A custom op's backward (and every op's, under
        create_graph) sees them as Tensors, inputs and output keeping their place in the graph so
        the backward is itself differentiable; a built-in op's fast backward sees raw arrays."""
        if self._saved is None:
            raise RuntimeError(
                f"{self.name}'s saved values were freed by an earlier backward. Trying to backward "
                "through the graph a second time: pass retain_graph=True to the first backward() "
                "if you need to call it twice."
            )
        return self._saved if self.backward_runs_on_arrays else self._graph_tensors()

    def _graph_tensors(self):
        """The saved values as Tensors of this graph. They are kept, so the same objects come back
        each time, except the output, which stays weakly held (no reference cycle)."""
        if self._saved is None:
            return self.saved_tensors
        tensors = tuple(self._as_graph_tensor(value) for value in self._saved)
        out = self._output() if self._output is not None else None
        self._saved = tuple(t.data if t is out else t for t in tensors)
        return tensors

    def _as_graph_tensor(self, value):
        if isinstance(value, Tensor):
            return value
        for tensor in self.inputs:
            if tensor.data is value:
                return tensor
        if self._output is not None:
            out = self._output()
            if out is not None and out.data is value:
                return out
        return Tensor._make(np.asarray(value), False, None)


def _record(fn, inputs, attrs):
    """Forward on the inputs' arrays; if any input requires grad, link the result to ``fn``.

    This runs for every op, so it is written for speed: the common one- and two-input cases are
    spelled out, and the result is made without Tensor.__init__'s checks.
    """
    for x in inputs:
        if type(x) is not Tensor and not isinstance(x, Tensor):
            inputs = tuple(x if isinstance(x, Tensor) else as_tensor(x, like=inputs)
                           for x in inputs)
            break
    fn._saved = ()
    try:
        if len(inputs) == 2:
            a, b = inputs
            out = fn.forward(a.data, b.data, **attrs)
            needs = (a.requires_grad, b.requires_grad)
            requires_grad = needs[0] or needs[1]
        elif len(inputs) == 1:
            a = inputs[0]
            out = fn.forward(a.data, **attrs)
            needs = (a.requires_grad,)
            requires_grad = needs[0]
        else:
            out = fn.forward(*[t.data for t in inputs], **attrs)
            needs = tuple([t.requires_grad for t in inputs])
            requires_grad = any(needs)
    except (ValueError, IndexError) as error:
        message = _failure_message(fn, inputs, attrs, error)
        if message is None:
            raise
        raise type(error)(message) from None
    if type(out) is not np.ndarray:  # NumPy returns scalars for 0-d results: keep arrays
        raw, out = out, np.asarray(out)
        if fn._saved:
            fn._saved = tuple(out if saved is raw else saved for saved in fn._saved)
    result = _new_tensor(Tensor)
    result.data = out
    level = _dual_level.get()
    if level is not None:
        push_tangent(fn, inputs, result, level)
    if requires_grad and _grad_enabled.get():
        result.requires_grad = True
        result.grad_fn = fn
        fn.inputs = inputs
        fn.needs_input_grad = needs
        fn._output = None
        fn._watched = False
        for saved in fn._saved:
            if saved is out:
                fn._output = weakref.ref(result)
                break
        return result
    result.requires_grad = False
    result.grad_fn = None
    fn._saved = None
    return result


def _failure_message(fn, inputs, attrs, error):
    """The op's own advice, or the broadcasting rule, added to NumPy's terse message."""
    hint = fn.hint(inputs, **attrs)
    if hint is not None:
        return f"{fn.name}: {error}. {hint}"
    if "broadcast" in str(error):
        return _broadcast_message(fn, inputs, attrs)
    return None


def _broadcast_message(fn, inputs, attrs):
    shapes = [t.shape for t in inputs]
    if "condition" in attrs:
        shapes.append(np.shape(attrs["condition"]))
    listed = " and ".join(str(shape) for shape in shapes)
    return (
        f"{fn.name}: shapes {listed} cannot broadcast together. Sizes are compared from the last "
        "axis backwards and must be equal or 1 there; reshape or transpose an operand (for "
        "example x.reshape(-1, 1) turns a row into a column)"
    )


_new_tensor = object.__new__

# Imported last: tensor.py imports the ops, which subclass Function, so Function must exist first.
from .forward_ad import _level as _dual_level  # noqa: E402
from .forward_ad import push_tangent  # noqa: E402
from .tensor import Tensor, as_tensor  # noqa: E402
