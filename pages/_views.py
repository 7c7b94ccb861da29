"""Pieces of page drawn on more than one page: the drawing, the result's notes, error snippets."""

from __future__ import annotations

import streamlit as st

from pages import _cache
from pages import _state as state
from playground import SpecError
from playground.evaluate import Result
from playground.render import format_array

LARGE_GRAPH = 60  # nodes above which the full drawing gets crowded


def result_notes(result: Result) -> None:
    """What a reader must know before trusting the numbers: output, seeding, NaN/inf flags."""
    note = f"Gradients are d(**{result.output}**)/d(node)."
    if result.seeded_with_ones:
        note += (f" `{result.output}` is not a scalar, so backward started from a gradient of "
                 "ones: each gradient is that of the sum of its elements.")
    st.caption(note)
    for name, message in result.flags.items():
        st.warning(f"Node `{name}`: {message}", icon=":material/warning:")


def drawing_source(spec_json: str) -> str:
    """The DOT source of the drawing, with the sidebar's display options."""
    opts = state.options()
    rankdir = opts.layout_for(len(state.spec().names_of("op")))
    return _cache.dot(spec_json, opts.show, rankdir, opts.font_size, opts.compact)


def drawing(spec_json: str) -> None:
    """The graph drawn in the browser, with a hint when it is too big to read."""
    opts, n_nodes, n_ops = state.options(), len(state.spec()), len(state.spec().names_of("op"))
    if n_nodes > LARGE_GRAPH and not opts.compact:
        st.info(f"This graph has {n_nodes} nodes: turn on **Compact drawing** in the sidebar to "
                "keep it legible.", icon=":material/info:")
    elif opts.rankdir == "LR" and (n_ops > state.AUTO_LR_MAX_OPS
                                   or opts.font_size > state.AUTO_LR_MAX_FONT):
        st.caption("A wide drawing shrinks to fit the page: the **Down** layout in the sidebar "
                   "keeps its text large.")
    st.graphviz_chart(drawing_source(spec_json),
                      alt="Computation graph with values and gradients")


def error_snippet(err: SpecError, text: str) -> None:
    """The error with the offending line of `text` and a caret under its column."""
    st.error(str(err), icon=":material/error:")
    lines = text.splitlines()
    if err.line is not None and 1 <= err.line <= len(lines):
        line = lines[err.line - 1]
        caret = " " * max((err.col or 1) - 1, 0) + "^"
        st.code(f"{err.line:>3} | {line}\n    | {caret}", language=None)


def index_text(index: tuple[int, ...]) -> str:
    """An element's position as NumPy would index it: [0, 1], or "scalar"."""
    return "[" + ", ".join(str(i) for i in index) + "]" if index else "scalar"


def value_text(result: Result, name: str) -> str:
    """A node's value on one line, formatted as in the drawing."""
    return " ".join(line.strip() for line in format_array(result.value(name)))


def require_nodes() -> None:
    """Stop the page with a pointer to the Build page when the graph is empty."""
    if not len(state.spec()):
        st.info("The graph is empty: build one on the Build page or load a preset from the "
                "sidebar.", icon=":material/info:")
        st.page_link("pages/build.py", label="Go to Build", icon=":material/construction:")
        st.stop()


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
