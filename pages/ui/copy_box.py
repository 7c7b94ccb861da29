"""A link to copy: the text in a read-only box and a *Copy* button (copy_box/).

`st.code` had the copy icon, but drawing it loads Streamlit's syntax highlighter, whose
1.5 MB script took about 1.5 s of the browser's main thread on every page's first visit and
held the graph's drawing back by as much (benchmarks/page_clicks.py's first paint).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_ASSETS = Path(__file__).with_name("copy_box")
_COMPONENT = st.components.v2.component(
    "copy_box",
    css=_ASSETS.with_name("component_buttons.css").read_text(encoding="utf-8") + "\n"
    + (_ASSETS / "copy.css").read_text(encoding="utf-8"),
    js=(_ASSETS / "copy.js").read_text(encoding="utf-8"),
)


def copy_box(text: str, label: str, key: str) -> None:
    """Show `text` (a link) with a Copy button; `label` names the box for screen readers."""
    _COMPONENT(key=key, data={"text": text, "label": label, "button": "Copy",
                              "copied": "Copied."})
