"""The model's results, cached per graph: every key is the spec's JSON text (plus view options).

One `playground.memo.Memo` per server process (made by `st.cache_resource`) keeps the results
of every session, bounded by the memory they take (`limits.CACHE_BYTES`), and computes each key
once however many students ask for it at the same moment (a class opening one link). Results
are immutable and shared: a `Result`'s arrays are read-only, text is text, and a table is copied
on its way out, so no session can change what another one sees. Errors are not kept: a
`SpecError` reaches the caller every time.

The `*_file` functions make download files when their button is pressed; they run off the
script thread, so they call the model directly and touch no Streamlit state.

What a page sends to the browser is kept ready-made too, because making it again on every
rerun was most of a session's cost: tables as Arrow tables (immutable, sent without a pandas
conversion) and charts as Vega-Lite specs (Altair's conversion validates its whole schema each
time, under a lock every session shares).
"""

from __future__ import annotations

import hashlib
import json
import threading

import altair as alt
import pandas as pd
import pyarrow as pa
import streamlit as st

from pages.ui import charts
from playground import (
    GraphSpec,
    checks,
    export,
    limits,
    presets,
    render,
    step_view,
    steps,
    steps_render,
    tables,
    traces,
    view,
)
from playground.evaluate import Result
from playground.evaluate import evaluate as _evaluate
from playground.exercises import Exercise
from playground.formatting import index_text
from playground.memo import Memo

ELEMENT_ROWS = 10_000
"""Rows of a node's element table that are kept and sent to the browser."""

try:  # Streamlit's own: Altair's theme and data transformer are global to the process
    from streamlit.elements.vega_charts import _altair_globals_lock as _ALTAIR
except ImportError:  # pragma: no cover - another Streamlit version
    _ALTAIR = threading.Lock()


@st.cache_resource(show_spinner=False)
def memo() -> Memo:
    """The process's one cache of results (its lock makes it safe to share between sessions)."""
    return Memo(limits.CACHE_BYTES)


def evaluate(spec_json: str) -> Result:
    """Forward and backward pass of the graph, from its chosen output."""

    def compute() -> Result:
        spec = GraphSpec.from_json(spec_json)
        return _evaluate(spec, output=spec.output)

    return memo().get(("evaluate", spec_json), compute)


def dot(spec_json: str, show: str, rankdir: str, font_size: int, compact: bool) -> str:
    """The drawing's Graphviz source."""
    return memo().get(
        ("dot", spec_json, show, rankdir, font_size, compact),
        lambda: render.to_dot(evaluate(spec_json), show=show, rankdir=rankdir,
                              font_size=font_size, compact=compact),
    )


def fingerprint(text: str) -> str:
    """A short stable name for a long text (a drawing), to remember which one was asked for."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


LAYOUT_BOUND = "graph [nslimit=5, nslimit1=5]"
"""Caps Graphviz's network-simplex passes at 5 x the nodes: the same drawing for every graph
tried, but a node that feeds a hundred others (a + a + ... + a) is laid out in half a second
instead of more than twenty."""


def svg(dot_source: str, seconds: float = limits.MAX_LAYOUT_SECONDS
        ) -> tuple[str | None, str | None]:
    """The drawing as SVG and None, or None and why there is none: a Graphviz layout of at most
    `limits.MAX_LAYOUT_NODES` shapes, bounded in its passes (LAYOUT_BOUND) and in `seconds`."""

    def compute() -> tuple[str | None, str | None]:
        nodes = render.shape_count(dot_source)
        if nodes > limits.MAX_LAYOUT_NODES:
            return None, (
                f"The drawing has {nodes:,} shapes, more than the {limits.MAX_LAYOUT_NODES:,} "
                "the server lays out as SVG; download the DOT file and run "
                "`dot -Tsvg graph.dot -o graph.svg` on your own computer."
            )
        made = render.to_svg(dot_source.replace("{", "{\n  " + LAYOUT_BOUND, 1),
                             timeout=seconds)
        if made is None:
            return None, (
                f"Graphviz could not lay this drawing out within {seconds:g} s "
                "(or is not installed here); download the DOT file and run "
                "`dot -Tsvg graph.dot -o graph.svg` on your own computer."
            )
        return made, None

    return memo().get(("svg", dot_source, seconds), compute)


def _arrow(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)


def node_table(spec_json: str) -> pa.Table:
    """One row per node (`playground.tables.node_table`), as the page's table shows it."""
    return memo().get(("node_table", spec_json),
                      lambda: _arrow(tables.node_table(evaluate(spec_json))))


def element_table(spec_json: str, name: str) -> tuple[pa.Table, int]:
    """The first `ELEMENT_ROWS` rows of node `name`'s element table, and how many elements it
    has in all."""

    def compute() -> tuple[pa.Table, int]:
        full = tables.element_table(evaluate(spec_json), name)
        return _arrow(full.head(ELEMENT_ROWS)), len(full)

    return memo().get(("element_table", spec_json, name), compute)


def _vega(chart: alt.TopLevelMixin) -> str:
    """A chart's Vega-Lite spec as JSON text, without Altair's default theme (as
    `st.altair_chart` converts it) and without validating it against the schema again."""
    with _ALTAIR, alt.theme.enable("none"):
        return json.dumps(chart.to_dict(validate=False))


def heatmap(spec_json: str, name: str, which: str) -> tuple[dict, str | None]:
    """The heatmap of node `name`'s "value" or "gradient" (a fresh Vega-Lite spec for
    `st.vega_lite_chart`) and the note that says how a tensor of 3+ axes is laid out."""

    def compute() -> tuple[str, str | None]:
        node = evaluate(spec_json).node(name)
        frame = tables.matrix_frame(node.value if which == "value" else node.grad)
        return _vega(charts.heatmap(frame, which)), frame.attrs.get("note")

    text, note = memo().get(("heatmap", spec_json, name, which), compute)
    return json.loads(text), note


def gradient_check(spec_json: str, eps: float) -> pd.DataFrame:
    """`playground.checks.gradient_check` of the graph at step `eps`, a copy of its own."""
    return _check(spec_json, eps).copy()


def check_table(spec_json: str, eps: float) -> pa.Table:
    """The gradient check's table as the page shows it (positions written out)."""
    return memo().get(("check_table", spec_json, eps), lambda: _arrow(
        _check(spec_json, eps).assign(index=lambda t: t["index"].map(index_text))))


def _check(spec_json: str, eps: float) -> pd.DataFrame:
    key = ("gradient_check", spec_json, eps)

    def compute() -> pd.DataFrame:
        spec = GraphSpec.from_json(spec_json)
        return checks.gradient_check(spec, output=spec.output, eps=eps)

    if key in memo():
        return memo().get(key, compute)
    with st.spinner("Comparing with finite differences…"):
        return memo().get(key, compute)


def epsilon_sweep(spec_json: str) -> pd.DataFrame:
    """`playground.checks.epsilon_sweep` of the graph, a copy of its own."""
    return _sweep(spec_json).copy()


def sweep_chart(spec_json: str, eps: float) -> dict:
    """The epsilon sweep's chart with `eps` marked (a fresh Vega-Lite spec)."""
    return json.loads(memo().get(("sweep_chart", spec_json, eps),
                                 lambda: _vega(charts.epsilon_sweep(_sweep(spec_json), eps))))


def _sweep(spec_json: str) -> pd.DataFrame:
    key = ("epsilon_sweep", spec_json)

    def compute() -> pd.DataFrame:
        spec = GraphSpec.from_json(spec_json)
        return checks.epsilon_sweep(spec, output=spec.output)

    if key in memo():
        return memo().get(key, compute)
    with st.spinner("Sweeping epsilon…"):
        return memo().get(key, compute)


def expression_text(spec_json: str) -> str:
    """The graph in the expression language."""
    return memo().get(("expression_text", spec_json),
                      lambda: GraphSpec.from_json(spec_json).to_text())


def share_query(spec_json: str, options: view.Options) -> dict[str, str]:
    """`playground.view.share_query`: the URL parameters of this graph and view (a new dict)."""
    query = memo().get(("share_query", spec_json, options),
                       lambda: tuple(view.share_query(GraphSpec.from_json(spec_json),
                                                      options).items()))
    return dict(query)


def preset_key_of(spec_json: str) -> str | None:
    """The key of the preset this graph is (unchanged), or None."""
    return memo().get(
        ("preset_key_of", spec_json),
        lambda: next((p.key for p in presets.PRESETS if p.spec.to_json() == spec_json), None),
    )


def ascii_drawing(spec_json: str, show: str = "both") -> str:
    return memo().get(("ascii_drawing", spec_json, show),
                      lambda: render.to_ascii(evaluate(spec_json), show))


# --- download files, made when their button is pressed (off the script thread) -----------------


def expression_file(spec_json: str) -> str:
    return GraphSpec.from_json(spec_json).to_text()


def pytorch_file(spec_json: str) -> str:
    spec = GraphSpec.from_json(spec_json)
    return export.to_pytorch(spec, output=spec.output)


# --- the Step through page ------------------------------------------------------------------


def backward_steps(spec_json: str) -> steps.Backward:
    """The engine's backward pass through the graph, step by step (`playground.steps`)."""

    def compute() -> steps.Backward:
        spec = GraphSpec.from_json(spec_json)
        return steps.backward_steps(spec, output=spec.output)

    return memo().get(("backward_steps", spec_json), compute)


def tangents(spec_json: str, wrt: str, element: int) -> steps.Tangents:
    """Every node's tangent when input `wrt` moves along its element `element` (forward mode)."""
    return memo().get(
        ("tangents", spec_json, wrt, element),
        lambda: steps.tangents(GraphSpec.from_json(spec_json), evaluate(spec_json), wrt, element),
    )


def step(spec_json: str, mode: str, k: int, wrt: tuple[str, int] | None,
         hidden: Exercise | None, rankdir: str, font_size: int, compact: bool,
         answered: Exercise | None = None) -> tuple[step_view.StepView, str]:
    """Step `k` of `mode` and its drawing's DOT source; `wrt` is forward mode's (input,
    element), `hidden` the numbers an exercise still hides, `answered` those it revealed (or a
    student found), shown at every step."""

    def compute() -> tuple[step_view.StepView, str]:
        result = evaluate(spec_json)
        shown = step_view.view(
            result, mode, k, compact=compact,
            backward=backward_steps(spec_json) if mode == "reverse" else None,
            tangents=tangents(spec_json, *wrt) if mode == "tangent" else None,
            hide=hidden.hides if hidden else traces.show_all,
            answered=answered.hides if answered else traces.show_all)
        base = render.to_dot(result, rankdir=rankdir, font_size=font_size, compact=compact)
        return shown, steps_render.overlay_dot(base, result, shown.overlay)

    return memo().get(("step", spec_json, mode, k, wrt, hidden, rankdir, font_size, compact,
                       answered), compute)


def trace(spec_json: str, mode: str, wrt: tuple[str, int] | None, hidden: Exercise | None
          ) -> tuple[traces.Row, ...]:
    """The evaluation trace of `mode`: primal (forward), tangent or adjoint (reverse)."""

    def compute() -> tuple[traces.Row, ...]:
        result = evaluate(spec_json)
        hide = hidden.hides if hidden else traces.show_all
        if mode == "reverse":
            return tuple(traces.adjoint_trace(result, backward_steps(spec_json), hide))
        if mode == "tangent":
            return tuple(traces.tangent_trace(result, tangents(spec_json, *wrt), hide))
        return tuple(traces.primal_trace(result, hide))

    return memo().get(("trace", spec_json, mode, wrt, hidden), compute)
