"""Altair charts (Altair ships with Streamlit): tensor heatmaps and the epsilon-sweep curve.

Only layout happens here: arrays become long tables of (row, column, number) to draw.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

CELL_TEXT_LIMIT = 64  # heatmaps up to this many cells print their numbers on the cells


def _grid(array: np.ndarray) -> pd.DataFrame:
    """Long form of a tensor laid out as rows x columns (leading axes stacked as rows)."""
    a = np.asarray(array, dtype=np.float64)
    grid = a.reshape(1, -1) if a.ndim < 2 else a.reshape(-1, a.shape[-1])
    rows, cols = np.indices(grid.shape)
    return pd.DataFrame({"row": rows.ravel(), "column": cols.ravel(), "number": grid.ravel()})


def heatmap(array: np.ndarray, title: str, scheme: str) -> alt.Chart:
    """One colour per element, with the numbers written on the cells of small tensors."""
    data = _grid(array)
    size = 36 if len(data) <= CELL_TEXT_LIMIT else 14
    base = alt.Chart(data, title=title).encode(
        x=alt.X("column:O", title="column"),
        y=alt.Y("row:O", title="row"),
        tooltip=["row", "column", alt.Tooltip("number:Q", format=".4g")],
    )
    cells = base.mark_rect(stroke="#888888", strokeWidth=0.3).encode(
        color=alt.Color("number:Q", scale=alt.Scale(scheme=scheme), legend=alt.Legend(title=None))
    )
    chart = cells
    if len(data) <= CELL_TEXT_LIMIT:
        chart = cells + base.mark_text(fontSize=13, color="#111111").encode(
            text=alt.Text("number:Q", format=".3g")
        )
    n_rows, n_cols = data["row"].max() + 1, data["column"].max() + 1
    return chart.properties(width=min(size * n_cols, 640), height=min(size * n_rows, 480))


def epsilon_sweep(sweep: pd.DataFrame, chosen_eps: float) -> alt.LayerChart:
    """Worst error against epsilon, log-log: truncation error on the right, round-off left."""
    long = sweep.melt(
        id_vars="eps", value_vars=["max_abs_error", "max_rel_error"],
        var_name="error", value_name="size",
    )
    long["error"] = long["error"].map(
        {"max_abs_error": "largest absolute error", "max_rel_error": "largest relative error"}
    )
    long = long[long["size"] > 0]  # an exact zero has no place on a log axis
    lines = alt.Chart(long).mark_line(point=True, strokeWidth=3).encode(
        x=alt.X("eps:Q", scale=alt.Scale(type="log"), axis=alt.Axis(format="~e"),
                title="epsilon (step of the central difference)"),
        y=alt.Y("size:Q", scale=alt.Scale(type="log"), axis=alt.Axis(format="~e"),
                title="error against the analytic gradient"),
        color=alt.Color("error:N", title=None, legend=alt.Legend(orient="bottom")),
        tooltip=[
            alt.Tooltip("eps:Q", format=".0e"), "error:N", alt.Tooltip("size:Q", format=".3e")
        ],
    )
    rule = alt.Chart(pd.DataFrame({"eps": [chosen_eps]})).mark_rule(
        strokeDash=[6, 4], strokeWidth=2, color="#d97706"
    ).encode(x="eps:Q")
    return (lines + rule).properties(height=360)
