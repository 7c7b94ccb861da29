"""The graph's drawing, as the Build and Graph pages show it, and the legend that explains it."""

from __future__ import annotations

import streamlit as st

from pages.ui import cached
from pages.ui import session as state


def drawing_source(spec_json: str) -> str:
    """The DOT source of the drawing, with the sidebar's display options."""
    opts = state.options()
    rankdir = opts.layout_for(len(state.spec().names_of("op")))
    return cached.dot(spec_json, opts.show, rankdir, opts.font_size, opts.compact)


def drawing(spec_json: str) -> None:
    """The graph drawn in the browser, with a hint when it is too big to read."""
    opts, n_nodes, n_ops = state.options(), len(state.spec()), len(state.spec().names_of("op"))
    if opts.crowded(n_nodes):
        st.info(f"This graph has {n_nodes} nodes: turn on **Compact drawing** in the sidebar to "
                "keep it legible.", icon=":material/info:")
    elif opts.shrinks_across(n_ops):
        st.caption("A wide drawing shrinks to fit the page: the **Down** layout in the sidebar "
                   "keeps its text large.")
    st.graphviz_chart(drawing_source(spec_json),
                      alt="Computation graph with values and gradients")


def legend() -> None:
    """What the shapes and colours of the drawing mean."""
    st.markdown(
        "**Reading the drawing**\n\n"
        "- :blue-background[input]: a leaf that requires grad; backward fills in its gradient\n"
        "- :gray-background[constant]: a leaf without gradient\n"
        "- :orange-background[oval]: the operation that made the record it points to\n"
        "- :green-background[output]: where backward starts, with gradient 1\n"
        "- :red-background[flagged]: NaN or infinity first appears here\n\n"
        "Each record reads *name | shape | value | grad*. A gradient is d(output)/d(node): "
        "how much the output moves per unit change of that node."
    )
