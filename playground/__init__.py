"""The playground's model: graph specs, the expression language, evaluation, drawings, checks.

Importable without Streamlit; the pages only call it. Every error caused by what a person typed,
pasted or clicked is a SpecError (a ValueError) that names the line or node and the problem.

``evaluate``, ``gradient_check`` and ``to_dot`` are imported on first use, so parsing and
checking a spec never pulls in pandas or the drawing code.
"""

from importlib import import_module

from .errors import SpecError
from .expr import parse
from .spec import GraphSpec, Node

__all__ = ["GraphSpec", "Node", "SpecError", "evaluate", "gradient_check", "parse", "to_dot"]

_LAZY = {"evaluate": ".evaluate", "gradient_check": ".checks", "to_dot": ".render"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
