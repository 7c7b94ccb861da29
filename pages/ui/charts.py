"""Altair charts (Altair ships with Streamlit): tensor heatmaps, drawn from the tables of
`playground.tables.matrix_frame`, and the epsilon-sweep curve of `playground.checks`."""

from __future__ import annotations

import altair as alt
import pandas as pd

from playground.render import OKABE_ITO

CELL_TEXT_LIMIT = 64  # heatmaps up to this many cells print their numbers on the cells
MAX_HEATMAP_WIDTH = 560  # pixels; larger tensors get thinner cells
HEATMAP_MAX_CELLS = 4_096  # beyond this a heatmap is too slow to draw and too dense to read


def heatmap(data: pd.DataFrame, title: str) -> alt.LayerChart | alt.Chart:
    """One cell per row of `data` (a `matrix_frame`: row, column, number), red for negative and
    blue for positive around a white zero (ColorBrewer's RdBu, safe for colour-blind readers);
    the numbers, signs included, are written on the cells of small tensors (white on the
    darkest cells)."""
    n_cols = int(data["column"].max()) + 1
    labelled = len(data) <= CELL_TEXT_LIMIT
    step = 44 if labelled else max(4, min(28, MAX_HEATMAP_WIDTH // n_cols))
    base = alt.Chart(data, title=title).encode(
        x=alt.X("column:O", title="column"),
        y=alt.Y("row:O", title="row"),
        tooltip=["row", "column", alt.Tooltip("number:Q", format=".4g")],
    )
    cells = base.mark_rect(stroke="#9ca3af", strokeWidth=0.5).encode(
        color=alt.Color("number:Q", scale=alt.Scale(scheme="redblue", domainMid=0),
                        legend=alt.Legend(title=None))
    )
    chart = cells
    if labelled:
        # The colour scale runs from min through 0 to max, so a cell is dark when it is near
        # the extreme of its own sign; Vega works that out in the browser.
        dark = ("(datum.number > 0 && datum.number > 0.6 * datum.hi) || "
                "(datum.number < 0 && datum.number < 0.6 * datum.lo)")
        text = base.transform_joinaggregate(
            hi="max(number)", lo="min(number)"
        ).mark_text(fontSize=12).encode(
            text=alt.Text("number:Q", format=".3g"),
            color=alt.condition(dark, alt.value("#ffffff"), alt.value("#111111")),
        )
        chart = cells + text
    return chart.properties(width=alt.Step(step), height=alt.Step(step))


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
        color=alt.Color("error:N", title=None, legend=alt.Legend(orient="bottom"),
                        scale=alt.Scale(range=[OKABE_ITO["blue"], OKABE_ITO["orange"]])),
        shape=alt.Shape("error:N", legend=alt.Legend(orient="bottom", title=None)),
        tooltip=[
            alt.Tooltip("eps:Q", format=".0e"), "error:N", alt.Tooltip("size:Q", format=".3e")
        ],
    )
    rule = alt.Chart(pd.DataFrame({"eps": [chosen_eps]})).mark_rule(
        strokeDash=[6, 4], strokeWidth=2, color=OKABE_ITO["reddish_purple"]
    ).encode(x="eps:Q")
    return (lines + rule).properties(height=360)
