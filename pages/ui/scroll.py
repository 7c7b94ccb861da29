"""Bringing a result into sight: after an edit on Build the drawing (the top of the page), after
a click on Gradients' drawing the node's detail, scrolled to the top of the screen. And keeping
the keyboard's place: when a button gives way to another (Train's Start to Pause), the focus
goes to the new one instead of the page's top (WCAG 2.4.3).

A callback asks for it (`request`, `keep_focus`); the page ends with `follow`, which on the run
right after the request only adds an invisible element that scrolls the window or moves the
focus, so reruns, other widgets and pages opened later never jump. It sits at the end of the
page, where its room moves nothing (the drawing fits itself to the room below its top). A tiny
component of ours (scroll_anchor/), because Streamlit itself can neither scroll the page nor
move the focus.
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
    _ask(TARGETS.get(place, TARGETS["top"]), focus=False)


def keep_focus(widget_key: str) -> None:
    """On the next run, put the keyboard focus on the button of `widget_key` if the focus was
    lost (on the page's body: the focused button was replaced); call from a callback."""
    _ask(f".st-key-{widget_key} button", focus=True)


def _ask(target: str, focus: bool) -> None:
    count = st.session_state.get(keys.SCROLL_COUNT, 0) + 1
    st.session_state[keys.SCROLL_COUNT] = count
    st.session_state[keys.SCROLL_TO] = {"target": target, "focus": focus}


def follow() -> None:
    """At the end of a page: scroll to the place, or focus the button, the last callback asked
    for, if any."""
    asked = st.session_state.get(keys.SCROLL_TO)
    if asked is None:
        return  # no element at all on the other runs: it acts once, when it appears
    st.session_state[keys.SCROLL_TO] = None
    _COMPONENT(key=keys.SCROLL_ANCHOR,
               data={"nonce": st.session_state.get(keys.SCROLL_COUNT), **asked})
