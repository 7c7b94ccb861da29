"""pandas tables of an evaluated graph: one row per node, or one row per element of a node.

Numbers a page may sort or plot stay numeric (grad_norm, the element values); the columns meant
only for reading (value, gradient) are strings formatted like the drawing's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from playground.evaluate import Result
from playground.render import format_array, format_shape


def _text(a: np.ndarray | None) -> str:
    if a is None:
        return ""
    return " ".join(line.strip() for line in format_array(a))


def node_table(result: Result) -> pd.DataFrame:
    """One row per node in spec order: name, kind, op, shape, value, gradient, grad_norm, flag.

    grad_norm is the Euclidean norm of the gradient (NaN for nodes without one, such as
    constants); flag is the NaN/inf message or an empty string.
    """
    rows = [
        {
            "name": n.name,
            "kind": n.kind,
            "op": n.op or "",
            "shape": format_shape(n.shape),
            "value": _text(n.value),
            "gradient": _text(n.grad),
            "grad_norm": np.nan if n.grad is None else float(np.linalg.norm(n.grad.ravel())),
            "flag": n.flag or "",
        }
        for n in result.nodes
    ]
    columns = ["name", "kind", "op", "shape", "value", "gradient", "grad_norm", "flag"]
    return pd.DataFrame(rows, columns=columns).astype({"grad_norm": "float64"})


def element_table(result: Result, name: str) -> pd.DataFrame:
    """One row per element of node `name`: index (e.g. "(0, 1)"), value and grad as floats.

    grad is NaN throughout when the node has no gradient (a constant).
    """
    n = result.node(name)
    value = np.asarray(n.value, dtype=np.float64)
    grad = None if n.grad is None else np.broadcast_to(np.asarray(n.grad, np.float64), value.shape)
    indices = list(np.ndindex(value.shape))
    return pd.DataFrame(
        {
            "index": [str(i) for i in indices],
            "value": value.ravel(),
            "grad": np.full(value.size, np.nan) if grad is None else grad.ravel(),
        },
        columns=["index", "value", "grad"],
    )
