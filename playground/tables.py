"""pandas tables of an evaluated graph: one row per node, or one row per element of a node;
and any tensor as the long (row, column, number) table a heatmap draws.

Numbers a page may sort or plot stay numeric (grad_norm, the element values); the columns meant
only for reading (value, gradient) are strings formatted like the drawing's.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from autograd.format import array_text, shape_text
from playground.evaluate import Result
from playground.render import not_used, not_used_text


def node_table(result: Result) -> pd.DataFrame:
    """One row per node in spec order: name, kind, op, shape, value, gradient, grad_norm, flag.

    grad_norm is the Euclidean norm of the gradient (NaN for nodes without one, such as
    constants, and for nodes the output is not computed from, whose gradient reads "not used by
    <output>"); flag is the NaN/inf message or an empty string.
    """
    unused = not_used(result)
    rows = [
        {
            "name": n.name,
            "kind": n.kind,
            "op": n.op or "",
            "shape": shape_text(n.shape),
            "value": array_text(n.value),
            "gradient": not_used_text(result) if n.name in unused else array_text(n.grad),
            "grad_norm": np.nan if n.grad is None or n.name in unused
            else float(np.linalg.norm(n.grad.ravel())),
            "flag": n.flag or "",
        }
        for n in result.nodes
    ]
    columns = ["name", "kind", "op", "shape", "value", "gradient", "grad_norm", "flag"]
    return pd.DataFrame(rows, columns=columns).astype({"grad_norm": "float64"})


def element_table(result: Result, name: str) -> pd.DataFrame:
    """One row per element of node `name`, in NumPy's order: its position as one whole-number
    column per axis (axis_0, axis_1, ...; none for a scalar), then value and grad as floats.

    Integer positions sort as numbers (row 10 after row 2). grad is NaN throughout when the node
    has no gradient (a constant).
    """
    n = result.node(name)
    value = np.asarray(n.value, dtype=np.float64)
    grad = None if n.grad is None else np.broadcast_to(np.asarray(n.grad, np.float64), value.shape)
    positions = np.indices(value.shape).reshape(value.ndim, value.size)
    columns = {f"axis_{k}": positions[k] for k in range(value.ndim)}
    columns["value"] = value.ravel()
    columns["grad"] = np.full(value.size, np.nan) if grad is None else grad.ravel()
    return pd.DataFrame(columns)


def matrix_frame(array: np.ndarray) -> pd.DataFrame:
    """A tensor as a long table for a heatmap: one row per element with columns row, column
    (whole numbers) and number (float), in NumPy's order.

    A matrix is laid out as it prints. A scalar is one row of one cell and a vector one row. A
    tensor of more than two axes is drawn as (rows, last axis): the rows run through its leading
    axes in order, the last of them fastest, so row r of a (2, 3, 4) tensor is x[r // 3, r % 3].
    Such a frame says so in ``attrs["note"]``, a sentence a page can show under the drawing.
    """
    a = np.asarray(array, dtype=np.float64)
    grid = a.reshape(1, -1) if a.ndim < 2 else a.reshape(math.prod(a.shape[:-1]), a.shape[-1])
    rows, cols = np.indices(grid.shape)
    frame = pd.DataFrame({"row": rows.ravel(), "column": cols.ravel(), "number": grid.ravel()})
    if a.ndim > 2:
        frame.attrs["note"] = (
            f"The {shape_text(a.shape)} tensor is drawn as {grid.shape[0]} rows of "
            f"{grid.shape[1]}: the rows run through its leading axes "
            f"{shape_text(a.shape[:-1])} in order, the last of them fastest; the columns are "
            "its last axis."
        )
    return frame
