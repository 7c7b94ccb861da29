"""Every built-in operation, one Function class per op, grouped by family.

An op marked with ``@exposed("name")`` (see ``exposed.py``) becomes ``autograd.name`` and, unless
``method=False``, the Tensor method ``x.name``; this module collects them in definition order.
"""

from ..tensor import Tensor
from . import arithmetic, elementwise, linalg, reduce, shape
from .arithmetic import Add, Div, Mul, Neg, Pow, Sub
from .elementwise import (
    Abs,
    Cast,
    Clip,
    Cos,
    Exp,
    LeakyRelu,
    Log,
    Maximum,
    Minimum,
    Relu,
    Sigmoid,
    Sign,
    Sin,
    Sqrt,
    Tanh,
    Where,
)
from .exposed import public_function
from .linalg import Linear, MatMul, linear
from .reduce import LogSoftmax, LogSumExp, Max, Mean, Min, Softmax, Sum
from .shape import BroadcastTo, Concatenate, Index, IndexAdd, Reshape, Stack, Transpose, shape_arg


def _exposed(*modules):
    """(name, function, is_method) for everything marked with @exposed in ``modules``."""
    found = []
    for module in modules:
        for value in vars(module).values():
            marked = getattr(value, "exposed_as", None)
            if marked is not None and getattr(value, "__module__", None) == module.__name__:
                name, method = marked
                found.append((name, public_function(value), method))
    return found


_FOUND = _exposed(arithmetic, elementwise, linalg, reduce, shape)

PUBLIC = {name: fn for name, fn, _ in _FOUND}
"""Public name -> function, for every exposed op: what ``autograd`` re-exports."""

METHODS = tuple(name for name, _, method in _FOUND if method)
"""The names that are also Tensor methods."""

for _name in METHODS:
    setattr(Tensor, _name, PUBLIC[_name])
globals().update(PUBLIC)
__all__ = list(PUBLIC)
