"""A browser tab's first run draws what a reader looks at first and stops there; the browser
asks for the rest of the page `FIRST_PAINT_S` after it has drawn that run.

A fresh tab is busiest while it loads Streamlit's own code: every element sent in its first run is
laid out before the rest of the page's own work gets its turn, so the Train page's charts held
back its *Start*. The Train page calls `stop_here` right after its controls;
benchmarks/train_clicks.py measures *Start*'s first appearance. A tab that has drawn a page is
warm: its later runs and pages are drawn whole at once.

Build and Gradients draw whole even first, though their drawings would come earlier (Gradients'
first paint 3,566 -> 3,217 ms median, 8 interleaved pairs at load 4-5): a form filled or a key
pressed while the follow-up run was on its way was lost on a loaded machine (browser tests of
Build's form and of Gradients' Font size failed).
"""

import streamlit as st

from pages.ui import keys

FIRST_PAINT_S = 0.3
"""Seconds between the browser drawing a tab's first run and its asking for the rest."""
PENDING = "first_paint_pending"
"""The key of the (empty) block a first run leaves on the page until the rest is drawn: the
browser tests wait for it to go (class ``st-key-first_paint_pending``)."""


def stop_here() -> None:
    """On the session's first run, have the browser ask for the rest of the page once it has
    drawn this run, and stop the run here; on later runs, nothing."""
    if st.session_state.get(keys.PAINTED):
        return
    st.session_state[keys.PAINTED] = True
    _rest_follows()
    st.stop()


def painted() -> None:
    """The session has drawn a page (called after every run): no later run is a first one."""
    st.session_state[keys.PAINTED] = True


def _rest_follows() -> None:
    """Rerun the whole page `FIRST_PAINT_S` after the browser has drawn this run: a fragment on
    the browser's timer, whose own first call (in this run) does nothing."""
    calls = []

    @st.fragment(run_every=FIRST_PAINT_S)
    def rest_of_the_page() -> None:
        calls.append(None)
        if len(calls) > 1:
            st.rerun()

    with st.container(key=PENDING):
        rest_of_the_page()
