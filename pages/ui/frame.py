"""The frame around every page: page config, navigation, the graph state, the shared sidebar.

`navigation.py` (the script every session runs) calls `run_app`: it draws the frame and runs
the chosen page inside it.

A page file can also be started without the entry script. With a folder called `pages/` beside
the entry script, Streamlit starts in its legacy multipage mode, which runs a deep-linked page file
by itself, until some session calls `st.navigation` (streamlit/runtime/pages_manager.py sets
`PagesManager.uses_pages_directory` from the folder, runtime/scriptrunner/script_runner.py then
runs `_mpa_v1`, and commands/navigation.py clears the flag). That happens on the first request
of a freshly started server, and on every AppTest run (AppTest sets the flag afresh before each
run, testing/v1/app_test.py). So every page file begins with `route_through_entry_script()`,
which turns the legacy mode off and reruns through the entry script: every page always runs the
way `st.navigation` runs it, with the same widget identities, on its first run as on any other.
"""

from __future__ import annotations

import importlib
import pkgutil
from contextvars import ContextVar
from pathlib import Path

import streamlit as st

import playground
from pages import ui
from pages.ui import admission, first_paint, keys, notes, run_control, session, sidebar
from playground import view
from playground.collector import freeze_shared_objects
from playground.view import Options

PAGE_DIR = Path(__file__).resolve().parents[1]
"""The folder of the page files (absolute, so they are found wherever the entry script runs)."""
PAGES = (  # (file in PAGE_DIR, title, icon); the first one is the default page at "/"
    ("build.py", "Build", ":material/construction:"),
    ("graph.py", "Graph", ":material/account_tree:"),
    ("gradients.py", "Gradients", ":material/table_chart:"),
    ("gradient_check.py", "Gradient check", ":material/rule:"),
    ("backprop.py", "Step through", ":material/timeline:"),
    ("train.py", "Train", ":material/model_training:"),
    ("class.py", "Live class", ":material/co_present:"),
)
FAVICON = Path(__file__).resolve().with_name("favicon.png")
"""The browser tab's icon, served by the app itself: a ":material/…" page icon makes every
browser fetch an SVG from fonts.gstatic.com, which an offline classroom or a strict CSP loses."""

STYLE_SETTLE_S = 0.3
"""How long a run pauses after sending a new page stylesheet (`_page_style`)."""

OWN_SIDEBAR = ("train", "class")
"""Pages (by url path) whose sidebar holds their own settings instead of the graph's controls:
the Train page trains a network of its own and has no use for presets, undo or the drawing; on
Live class the teacher's lesson sets the graph (a run of the page for a whole class is
cheaper without them)."""

FOCUS_RING = "#2f81f7"
"""The keyboard focus outline: at least 3:1 against the page and the sidebar in both themes
(3.75:1 on white, 3.43:1 on the light sidebar, 5.04:1 and 4.40:1 on the dark ones; WCAG
2.4.7, 1.4.11). Streamlit's own focus marks are a half-transparent shadow of the primary colour
or a change of border colour alone."""
PRIMARY_BUTTON = ("#0b5cc9", "#0a4fae")
"""A primary button's colour and its colour under the pointer, in both themes: Streamlit writes
its text in white on the theme's primary colour, and the dark theme's (#58a6ff, which its
chosen pills and slider values need as text on the dark page) gave 2.53:1; white on these is
6.20:1 and 7.66:1."""
ACCESSIBLE_STYLE = f"""<style>
:focus-visible {{ outline: 2px solid {FOCUS_RING} !important; outline-offset: 2px; }}
button[data-testid^="stBaseButton-primary"] {{
  background-color: {PRIMARY_BUTTON[0]}; border-color: {PRIMARY_BUTTON[0]}; color: #ffffff; }}
button[data-testid^="stBaseButton-primary"]:is(:hover, :active, :focus-visible) {{
  background-color: {PRIMARY_BUTTON[1]}; border-color: {PRIMARY_BUTTON[1]}; color: #ffffff; }}
[data-testid="stVegaLiteChart"] {{ max-width: 100%; overflow-x: auto; }}
@media (prefers-reduced-motion: reduce) {{
  *, *::before, *::after {{ animation-duration: 0.01ms !important;
    animation-iteration-count: 1 !important; transition-duration: 0.01ms !important;
    scroll-behavior: auto !important; }}
}}
</style>"""
"""Sent with every page (`_page_style`): the focus outline, primary buttons legible in the dark
theme, a chart wider than a narrow screen scrolling in its own box rather than the page (WCAG
1.4.10), and no animation for readers who asked their system for less motion (WCAG 2.3.3)."""

_IN_FRAME: ContextVar[bool] = ContextVar("autograd_playground_in_frame", default=False)


def page(file: str) -> st.Page:
    """The page of `file` (one of PAGES), as `st.navigation` and `st.page_link` take it."""
    i, title, icon = next((i, t, c) for i, (f, t, c) in enumerate(PAGES) if f == file)
    return st.Page(PAGE_DIR / file, title=title, icon=icon, default=i == 0)


ALIASES = {"step_through": "backprop.py"}
"""Addresses that open another page: /step_through (the page's title, which the README's tour
once used) opens Step through, whose address is /backprop; Streamlit sends an unknown address
to the default page, Build, without a word."""


def navigation() -> st.Page:
    """The app's pages in the sidebar (and the hidden ALIASES); returns the page the URL asks
    for."""
    aliases = [st.Page(_opener(file, alias), title=dict((f, t) for f, t, _ in PAGES)[file],
                       url_path=alias, visibility="hidden")
               for alias, file in ALIASES.items()]
    return st.navigation([page(file) for file, _, _ in PAGES] + aliases)


def _opener(file: str, alias: str):
    """A page that opens the page of `file` in its place (with the graph the URL carried, which
    the frame has read by then)."""
    def open_page() -> None:
        st.switch_page(page(file))

    open_page.__name__ = f"alias_{alias}"
    return open_page


def run_app() -> None:
    """The entry script's whole job: the frame, then the chosen page inside it. The first run in
    the process first imports what every page needs and freezes it out of the garbage
    collector's sight."""
    prepare_process()
    st.session_state[keys.ENTRY_RERUN] = False
    chosen = _draw()
    token = _IN_FRAME.set(True)
    try:
        chosen.run()
    finally:
        _IN_FRAME.reset(token)
        first_paint.painted()


@st.cache_resource(show_spinner=False)
def prepare_process() -> None:
    """Once per process (Streamlit's cache of shared resources runs it once; other sessions
    wait), before any page: import every module the pages use, then `freeze_shared_objects`.
    Two sessions arriving together on a fresh server would otherwise import them at once, and
    two threads importing modules that import each other can meet one half-initialised
    (Python's import deadlock avoidance): an ImportError on the page."""
    import_page_modules()
    freeze_shared_objects()


def import_page_modules() -> None:
    """Import every module of `pages.ui` and `playground`: what the pages can ask for."""
    for package in (ui, playground):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)


def route_through_entry_script() -> None:
    """Called first by every page file: nothing when the entry script runs it (always, but for the
    legacy first run explained above); otherwise switch to `st.navigation` and rerun this page
    through the entry script. Should that rerun not reach the entry script (a page file given to
    `streamlit run` as the main script), draw the frame here instead of rerunning again."""
    if _IN_FRAME.get():
        return
    if not st.session_state.get(keys.ENTRY_RERUN):
        st.session_state[keys.ENTRY_RERUN] = True
        page_config()  # before the navigation, whose page icon would otherwise be the favicon
        navigation()  # picks this page and turns the legacy mode off for the server's lifetime
        st.rerun()
    _draw()


def page_config() -> None:
    """The browser tab's title and icon, the wide layout, the sidebar open on wide screens."""
    st.set_page_config(
        page_title="Autograd Playground",
        page_icon=str(FAVICON),
        layout="wide",
        initial_sidebar_state="auto",  # collapsed on phones, open on wider screens
    )


def _draw() -> st.Page:
    """Page config, the door (an address with too many tabs open gets a short page instead),
    navigation, state from the session or the URL, the sidebar, the notices. From here on a
    newer rerun or a closed tab stops the run's heavy work too (`run_control`)."""
    page_config()
    admission.admit_or_stop()
    run_control.install()
    chosen = navigation()
    session.ensure_state()
    sidebar.take_skipped_option_changes()
    session.sync_url()
    _page_style()
    if chosen.url_path not in OWN_SIDEBAR:
        sidebar.render()
    notes.show_notices()
    return chosen


def _page_style() -> None:
    """The page's stylesheet, sent where it takes no room on the page: ACCESSIBLE_STYLE and, in
    projector mode, text that grows with the sidebar's Font size (`view.page_style`).

    Streamlit's tables (st.dataframe, drawn on a canvas) read the text size once, when they are
    drawn: `session.table_key` gives them a new identity at each Font size, so they are drawn
    afresh, and when the stylesheet is new to this browser tab the run pauses `STYLE_SETTLE_S`
    after sending it, so the browser applies it before any table of this run arrives (sent
    together, they reach the page in one update and the table reads the old size).
    """
    font = session.options().font_size
    style = view.page_style(font)
    st.html(ACCESSIBLE_STYLE + style)
    if view.page_style(st.session_state.get(keys.PAGE_STYLE_FONT, Options().font_size)) != style:
        run_control.pause(STYLE_SETTLE_S)
    st.session_state[keys.PAGE_STYLE_FONT] = font

