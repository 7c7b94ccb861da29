"""Every built-in operation: one Function class per op, in a module per family (arithmetic,
elementwise, linalg, reduce, shape, …; a new family module is picked up without edits here).

An op marked with ``@exposed("name")`` (see ``exposed.py``) becomes ``autograd.name`` and, unless
``method=False``, the Tensor method ``x.name``; every Function class is importable from here
(``autograd.ops.Mul``).
"""

import importlib
import pkgutil

from ..function import Function
from ..tensor import Tensor
from .exposed import public_function
from .linalg import linear
from .shape import shape_arg

_HELPERS = {"array_or_tensor", "exposed"}
_FAMILIES = [importlib.import_module(f"{__name__}.{info.name}")
             for info in pkgutil.iter_modules(__path__) if info.name not in _HELPERS]


def _defined_in(module):
    """The objects ``module`` itself defines, in definition order."""
    return [v for v in vars(module).values() if getattr(v, "__module__", None) == module.__name__]


CLASSES = {value.__name__: value for module in _FAMILIES for value in _defined_in(module)
           if isinstance(value, type) and issubclass(value, Function)}
"""Class name -> Function class, for every built-in op."""

PUBLIC = {value.exposed_as[0]: public_function(value) for module in _FAMILIES
          for value in _defined_in(module) if hasattr(value, "exposed_as")}
"""Public name -> function, for every exposed op: what ``autograd`` re-exports."""

METHODS = tuple(value.exposed_as[0] for module in _FAMILIES for value in _defined_in(module)
                if getattr(value, "exposed_as", (None, False))[1])
"""The names that are also Tensor methods."""

for _name in METHODS:
    setattr(Tensor, _name, PUBLIC[_name])
globals().update(CLASSES)
globals().update(PUBLIC)
__all__ = list(PUBLIC)
