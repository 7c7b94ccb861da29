"""The model's results, cached per graph: every key is the spec's JSON text (plus view options).

`st.cache_data` hands each caller its own copy and is keyed on the arguments, so two people
with the same graph share the work and never each other's objects. Nothing here is kept in
`st.cache_resource` (shared, mutable, and so no place for a user's graph). Errors are not
cached: a `SpecError` reaches the caller every time.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from playground import GraphSpec, checks, export, presets, render, tables, view
from playground.evaluate import Result
from playground.evaluate import evaluate as _evaluate

ENTRIES = 128  # graphs remembered per function; a 200-node result is a few hundred kB


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def evaluate(spec_json: str) -> Result:
    """Forward and backward pass of the graph, from its chosen output."""
    spec = GraphSpec.from_json(spec_json)
    return _evaluate(spec, output=spec.output)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def dot(spec_json: str, show: str, rankdir: str, font_size: int, compact: bool) -> str:
    """The drawing's Graphviz source."""
    return render.to_dot(
        evaluate(spec_json), show=show, rankdir=rankdir, font_size=font_size, compact=compact
    )


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def svg(dot_source: str) -> str | None:
    """The drawing as SVG, or None where the `dot` program is not installed."""
    return render.to_svg(dot_source)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def node_table(spec_json: str) -> pd.DataFrame:
    return tables.node_table(evaluate(spec_json))


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def element_table(spec_json: str, name: str) -> pd.DataFrame:
    return tables.element_table(evaluate(spec_json), name)


@st.cache_data(max_entries=ENTRIES, show_spinner="Comparing with finite differences…")
def gradient_check(spec_json: str, eps: float) -> pd.DataFrame:
    spec = GraphSpec.from_json(spec_json)
    return checks.gradient_check(spec, output=spec.output, eps=eps)


@st.cache_data(max_entries=ENTRIES, show_spinner="Sweeping epsilon…")
def epsilon_sweep(spec_json: str) -> pd.DataFrame:
    spec = GraphSpec.from_json(spec_json)
    return checks.epsilon_sweep(spec, output=spec.output)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def pytorch_code(spec_json: str) -> str:
    spec = GraphSpec.from_json(spec_json)
    return export.to_pytorch(spec, output=spec.output)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def expression_text(spec_json: str) -> str:
    return GraphSpec.from_json(spec_json).to_text()


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def share_query(spec_json: str, options: view.Options) -> dict[str, str]:
    """`playground.view.share_query`: the URL parameters of this graph and view."""
    return view.share_query(GraphSpec.from_json(spec_json), options)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def preset_key_of(spec_json: str) -> str | None:
    """The key of the preset this graph is (unchanged), or None."""
    return next((p.key for p in presets.PRESETS if p.spec.to_json() == spec_json), None)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def ascii_drawing(spec_json: str) -> str:
    return render.to_ascii(evaluate(spec_json))
