"""Whole derivatives of a function: ``jacobian`` and ``hessian`` (PyTorch's
``torch.autograd.functional``).

A Jacobian takes one reverse pass per output element, or one forward pass per input element
(``strategy="forward-mode"``): the same numbers, and a lesson in which mode is cheaper when.
"""

import numpy as np

from . import func
from .engine import grad
from .tensor import Tensor


def jacobian(f, inputs, strategy="reverse-mode"):
    """d f / d inputs, of shape ``f(x).shape + x.shape``; a tuple of them for a tuple of inputs.

    ``strategy`` is "reverse-mode" (one backward pass per output element) or "forward-mode"
    (one forward pass per input element).
    """
    many = isinstance(inputs, (tuple, list))
    inputs = tuple(inputs) if many else (inputs,)
    if strategy == "reverse-mode":
        blocks = _by_rows(f, inputs)
    elif strategy == "forward-mode":
        blocks = _by_columns(f, inputs)
    else:
        raise ValueError(f'strategy must be "reverse-mode" or "forward-mode", got {strategy!r}')
    blocks = tuple(Tensor._make(b, False, None) for b in blocks)
    return blocks if many else blocks[0]


def hessian(f, inputs):
    """The second derivatives of a scalar function: the Jacobian of its gradient, of shape
    ``x.shape + x.shape`` (reverse mode over reverse mode)."""
    many = isinstance(inputs, (tuple, list))
    inputs = tuple(inputs) if many else (inputs,)

    def gradient(*xs):
        out = f(*xs)
        if out.size != 1:
            raise ValueError(f"hessian needs a function with one output value, got shape "
                             f"{out.shape}")
        return grad(out, list(xs), create_graph=True, allow_unused=True)

    rows = [jacobian(lambda *xs, i=i: gradient(*xs)[i], inputs) for i in range(len(inputs))]
    if not many:
        return rows[0][0]
    return tuple(tuple(row) for row in rows)


def _by_rows(f, inputs):
    out, vjp_fn = func.vjp(f, *inputs)
    blocks = [np.zeros(out.shape + x.shape, dtype=_gradient_dtype(x)) for x in inputs]
    for index in np.ndindex(out.shape):
        seed = np.zeros(out.shape, dtype=out.dtype)
        seed[index] = 1.0
        for block, g in zip(blocks, vjp_fn(Tensor._make(seed, False, None))):
            block[index] = g.data
    return blocks


def _by_columns(f, inputs):
    out = f(*[Tensor._make(np.asarray(getattr(x, "data", x), dtype=np.float64), False, None)
              for x in inputs])
    blocks = []
    for position, x in enumerate(inputs):
        shape = np.shape(getattr(x, "data", x))
        block = np.zeros(out.shape + shape, dtype=_gradient_dtype(x))
        for index in np.ndindex(shape):
            tangents = [np.zeros(np.shape(getattr(y, "data", y))) for y in inputs]
            tangents[position][index] = 1.0
            _, pushed = func.jvp(f, inputs, tangents)
            block[(...,) + index] = pushed.data
        blocks.append(block)
    return blocks


def _gradient_dtype(x):
    """A Jacobian block's dtype: its input's, as PyTorch's (float64 for a non-float input)."""
    dtype = np.asarray(getattr(x, "data", x)).dtype
    return dtype if dtype.kind == "f" else np.dtype(np.float64)
