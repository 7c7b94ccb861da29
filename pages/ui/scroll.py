"""Bringing a result into sight: after an edit on Build the drawing (the top of the page), after
a click on Gradients' drawing the node's detail, scrolled to the top of the screen.

A callback asks for it (`request`); the page ends with `follow`, which on the run right after
the request only adds an invisible element that scrolls the window, so reruns, other widgets and
pages opened later never jump. It sits at the end of the page, where its room moves nothing (the
drawing fits itself to the room below its top). A tiny component of ours (scroll_anchor/),
because Streamlit itself cannot scroll the page.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages.ui import keys

TARGETS = {
    "top": "[data-testid=stMainBlockContainer]",
    "detail": ".st-key-" + keys.DETAIL_BLOCK,
}
"""Where each place is on the page, as a CSS selector (fixed text: nothing a person typed)."""
_COMPONENT = st.components.v2.component(
    "scroll_anchor",
    js=(Path(__file__).with_name("scroll_anchor") / "anchor.js").read_text(encoding="utf-8"),
)


def request(place: str) -> None:
    """Scroll to `place` (one of TARGETS) on the next run; call from a callback."""
    count = st.session_state.get(keys.SCROLL_COUNT, 0) + 1
    st.session_state[keys.SCROLL_COUNT] = count
    st.session_state[keys.SCROLL_TO] = place


def follow() -> None:
    """At the end of a page: scroll to the place the last callback asked for, if any."""
    place = st.session_state.get(keys.SCROLL_TO)
    if place is None:
        return  # no element at all on the other runs: it scrolls once, when it appears
    st.session_state[keys.SCROLL_TO] = None
    _COMPONENT(key=keys.SCROLL_ANCHOR,
               data={"nonce": st.session_state.get(keys.SCROLL_COUNT),
                     "target": TARGETS.get(place, TARGETS["top"])})
