"""Whether the reader's system asks for reduced motion (`prefers-reduced-motion: reduce`, WCAG
2.3.3): the browser knows, the server needs to, because the things that move on their own are
timers it sets (Play on Step through, the Train page's updates). A tiny component of ours
(reduced_motion/) at the end of those pages tells it, once per session, when the answer is not
the one the session holds (no rerun for a reader who did not ask).

The app's stylesheet turns the page's own animations off for these readers (frame.
ACCESSIBLE_STYLE); the pages then also move less often: Play advances a step every 3 s instead
of every second, the Train page redraws every 2 s instead of every 0.4 s.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import streamlit as st

from pages.ui import keys

_COMPONENT = st.components.v2.component(
    "reduced_motion",
    js=(Path(__file__).with_name("reduced_motion") / "motion.js").read_text(encoding="utf-8"),
)


def reduced() -> bool:
    """True when this session's browser said its reader asked for reduced motion."""
    return st.session_state.get(keys.REDUCED_MOTION, False)


def ask_browser() -> None:
    """At the end of a page that moves on a timer: the invisible element that reports the
    reader's choice when it differs from `reduced()`."""
    _COMPONENT(key=keys.MOTION_REPORTER, data={"known": reduced()}, on_reduce_change=_take)


def _take() -> None:
    """The browser's report (anything but a boolean, which only a forged request sends, is
    ignored)."""
    said = st.session_state.get(keys.MOTION_REPORTER)
    reduce = said.get("reduce") if isinstance(said, Mapping) else None
    if isinstance(reduce, bool):
        st.session_state[keys.REDUCED_MOTION] = reduce
