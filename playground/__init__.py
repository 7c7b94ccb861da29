"""The playground's model: graph specs, the expression language, evaluation, drawings, checks.

Importable without Streamlit; the pages only call it. Every error caused by what a person typed,
pasted or clicked is a SpecError (a ValueError) that names the line or node and the problem.
"""

from .checks import gradient_check
from .errors import SpecError
from .evaluate import evaluate
from .expr import parse
from .render import to_dot
from .spec import GraphSpec, Node

__all__ = ["GraphSpec", "Node", "SpecError", "evaluate", "gradient_check", "parse", "to_dot"]
