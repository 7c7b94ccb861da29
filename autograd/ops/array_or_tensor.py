"""Functions a built-in backward needs besides operators, written once for an ndarray or a Tensor.

A built-in op's backward runs on NumPy arrays when no graph of the backward is needed (fast) and on
Tensors under ``create_graph=True`` (differentiable). Operators and methods such as ``sum``,
``reshape`` and ``swapaxes`` already work on both; these functions dispatch on the argument's type
so each derivative is written once. ``Op``, the base of every built-in op, says so to the engine.
"""

import numpy as np

from ..function import Function
from ..tensor import Tensor


class Op(Function):
    """A built-in op: its backward is written with operators, methods and this module's functions,
    so the engine runs it on NumPy arrays, and on Tensors only when it is itself differentiated
    (see ``Function``). A student's own op subclasses ``Function``, whose backward gets Tensors,
    as in PyTorch."""

    __slots__ = ()
    backward_runs_on_arrays = True


def exp(x):
    return x.exp() if isinstance(x, Tensor) else np.exp(x)


def log(x):
    return x.log() if isinstance(x, Tensor) else np.log(x)


def sin(x):
    return x.sin() if isinstance(x, Tensor) else np.sin(x)


def cos(x):
    return x.cos() if isinstance(x, Tensor) else np.cos(x)


def tanh(x):
    return x.tanh() if isinstance(x, Tensor) else np.tanh(x)


def sigmoid(x):
    if isinstance(x, Tensor):
        return x.sigmoid()
    with np.errstate(over="ignore"):  # exp(-x) = inf far below 0 gives 1 / inf = 0, as it should
        return 1 / (1 + np.exp(-x))


def concatenate(parts, axis):
    if any(isinstance(p, Tensor) for p in parts):
        from .shape import Concatenate

        return Concatenate.apply(*parts, axis=axis)
    return np.concatenate(parts, axis=axis)


def sign(x):
    return x.sign() if isinstance(x, Tensor) else np.sign(x)


def positive(x):
    """1 where x > 0, else 0. On Tensors it is sign(relu(x)), recorded with derivative 0, so a
    backward that uses it stays connected to x: the second derivative of relu is 0, as in
    PyTorch, not an error."""
    return x.relu().sign() if isinstance(x, Tensor) else x > 0


def where(condition, x, y):
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        from .elementwise import where as tensor_where

        return tensor_where(condition, x, y)
    return np.where(condition, x, y)


def broadcast_to(x, shape):
    return x.broadcast_to(shape) if isinstance(x, Tensor) else np.broadcast_to(x, shape)


def index_add(grad, key, shape):
    """Scatter ``grad`` into zeros of ``shape`` at ``key``, adding where indices repeat."""
    if isinstance(grad, Tensor):
        from .shape import IndexAdd

        return IndexAdd.apply(grad, key=key, shape=shape)
    return _index_add_array(grad, key, shape)


def _index_add_array(grad, key, shape):
    out = np.zeros(shape, dtype=grad.dtype)
    if is_basic_index(key):
        out[key] = grad
    else:
        np.add.at(out, key, grad)
    return out


def is_basic_index(key):
    """True for keys made of ints, slices, None and Ellipsis: they never select an element twice."""
    parts = key if isinstance(key, tuple) else (key,)
    return all(
        isinstance(part, (int, np.integer, slice)) or part is None or part is Ellipsis
        for part in parts
    )
