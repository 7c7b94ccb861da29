"""The frame around every page: page config, navigation, the graph state, the shared sidebar.

`streamlit_app.py` draws the frame and then runs the chosen page inside it. A page file also
draws the frame itself when Streamlit ran it without the entry script: with a folder called
`pages/` next to the entry script, Streamlit's legacy multipage mode runs a deep-linked page
file directly until some session has called `st.navigation` (the first run of a fresh server
process, and every AppTest run). Either way every page has its state, its URL and its sidebar.
"""

from __future__ import annotations

from contextvars import ContextVar

import streamlit as st

from pages import _sidebar, _state

PAGES = (  # (file, title, icon); the first one is the default page at "/"
    ("pages/build.py", "Build", ":material/construction:"),
    ("pages/graph.py", "Graph", ":material/account_tree:"),
    ("pages/gradients.py", "Gradients", ":material/table_chart:"),
    ("pages/gradient_check.py", "Gradient check", ":material/rule:"),
)

_IN_FRAME: ContextVar[bool] = ContextVar("autograd_playground_in_frame", default=False)


def draw():
    """Page config, navigation, state from the session or the URL, the sidebar; the chosen page."""
    st.set_page_config(
        page_title="Autograd Playground",
        page_icon=":material/hub:",
        layout="wide",
        initial_sidebar_state="expanded",
    )
    page = st.navigation(
        [st.Page(path, title=title, icon=icon, default=i == 0)
         for i, (path, title, icon) in enumerate(PAGES)]
    )
    _state.ensure_state()
    _state.sync_url()
    _sidebar.render()
    _state.show_notices()
    return page


def run_app() -> None:
    """The entry script's whole job: draw the frame, then run the chosen page inside it."""
    page = draw()
    token = _IN_FRAME.set(True)
    try:
        page.run()
    finally:
        _IN_FRAME.reset(token)


def ensure() -> None:
    """Called first by every page: draw the frame unless the entry script did in this run."""
    if not _IN_FRAME.get():
        draw()
