"""Messages on a page: notes on the result, refused edits, one-off notices, the empty graph.

Every message that may quote what a person typed or put in a link goes through
`playground.errors.as_markdown` before Streamlit renders it as Markdown: no link, image, HTML or
LaTeX a student or a link wrote is ever rendered, only shown as text.
"""

from __future__ import annotations

import streamlit as st

from pages.ui import frame, session
from playground import SpecError
from playground.errors import as_markdown
from playground.evaluate import Result


def result_notes(result: Result) -> None:
    """What a reader must know before trusting the numbers: output, seeding, NaN/inf flags."""
    note = f"Gradients are d(**{as_markdown(result.output)}**)/d(node)."
    if result.seeded_with_ones:
        note += (f" `{result.output}` is not a scalar, so backward started from a gradient of "
                 "ones: each gradient is that of the sum of its elements.")
    st.caption(note)
    for name, message in result.flags.items():
        st.warning(as_markdown(f"Node `{name}`: {message}"), icon=":material/warning:")


def error_snippet(err: SpecError, text: str) -> None:
    """The error with the offending line of `text` and a caret under its column."""
    st.error(as_markdown(str(err)), icon=":material/error:")
    lines = text.splitlines()
    if err.line is not None and 1 <= err.line <= len(lines):
        line = lines[err.line - 1]
        caret = " " * max((err.col or 1) - 1, 0) + "^"
        st.text(f"{err.line:>3} | {line}\n    | {caret}")


def show_error(form: str) -> None:
    """The error of the last refused edit from `form`, if any, right where the form is."""
    err = session.error_for(form)
    if err is not None:
        st.error(as_markdown(str(err)), icon=":material/error:")


def show_notices() -> None:
    """The queued one-off messages (a broken link, ignored settings), once, at the top."""
    for level, message in session.take_notices():
        getattr(st, level)(as_markdown(message))


def info(err: SpecError) -> None:
    """A refusal that is not an error of the student's (a budget, an empty check) as a note."""
    st.info(as_markdown(str(err)), icon=":material/info:")


def stop_if_empty() -> None:
    """Stop the page with a pointer to the Build page when the graph is empty."""
    if not len(session.spec()):
        st.info("The graph is empty: build one on the Build page or load a preset from the "
                "sidebar.", icon=":material/info:")
        st.page_link(frame.page("build.py"), label="Go to Build", icon=":material/construction:")
        st.stop()
