"""Every built-in operation: one Function class per op, in a module per family (arithmetic,
elementwise, linalg, reduce, shape, …), each listed in ``FAMILIES`` below.

An op marked with ``@exposed("name")`` (see ``exposed.py``) becomes ``autograd.name`` and, unless
``method=False``, the Tensor method ``x.name``; every Function class is importable from here
(``autograd.ops.Mul``). The stubs ``__init__.pyi`` and ``../tensor.pyi`` list them all, with their
signatures, for editors and type checkers (``python -m autograd.ops.stubs`` writes them again, and
a test fails when they are out of date).
"""

from ..function import Function
from ..tensor import Tensor
from . import (
    activations,
    aliases,
    arithmetic,
    conv,
    conv_transpose,
    decomp,
    elementwise,
    indexing,
    inplace,
    linalg,
    ordering,
    rearrange,
    reduce,
    shape,
    special,
)
from .arithmetic import Add, Div, Mul, Neg, Pow, Sub  # the Tensor operators' ops, bound once
from .elementwise import Cast
from .exposed import public_function
from .inplace import Copy
from .linalg import MatMul, linear
from .shape import Index, shape_arg

FAMILIES = (activations, aliases, arithmetic, conv, conv_transpose, decomp, elementwise, indexing,
            inplace, linalg, ordering, rearrange, reduce, shape, special)
"""The op families, one module each; a new family is added here."""


def _defined_in(module):
    """The objects ``module`` itself defines, in definition order."""
    return [v for v in vars(module).values() if getattr(v, "__module__", None) == module.__name__]


CLASSES = {value.__name__: value for module in FAMILIES for value in _defined_in(module)
           if isinstance(value, type) and issubclass(value, Function)}
"""Class name -> Function class, for every built-in op."""

PUBLIC = {value.exposed_as[0]: public_function(value) for module in FAMILIES
          for value in _defined_in(module) if hasattr(value, "exposed_as")}
"""Public name -> function, for every exposed op: what ``autograd`` re-exports."""

METHODS = tuple(value.exposed_as[0] for module in FAMILIES for value in _defined_in(module)
                if getattr(value, "exposed_as", (None, False))[1])
"""The names that are also Tensor methods."""

for _name in METHODS:  # ../tensor.pyi lists these methods with their signatures
    setattr(Tensor, _name, PUBLIC[_name])
__all__ = list(PUBLIC)


def __getattr__(name):
    """``autograd.ops.<name>``: an exposed op's function, or any op's Function class."""
    found = PUBLIC.get(name) or CLASSES.get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


def __dir__():
    return sorted(set(globals()) | set(PUBLIC) | set(CLASSES))
