"""AppTest helpers: run the real entry script headless and read what the pages drew.

Imported by the tests in this folder (pytest puts the folder on sys.path).

One run is enough before driving widgets. AppTest turns Streamlit's legacy multipage mode back on
before every run (streamlit/testing/v1/app_test.py resets `PagesManager.uses_pages_directory`,
which runtime/pages_manager.py sets again because a `pages/` folder sits beside the entry script),
so each run of a page other than the default one starts by executing that page file alone, as a
freshly started server does on its first request. The page's first line,
`frame.route_through_entry_script()`, turns the legacy mode off and reruns through the entry
script, so every test sees the page as `st.navigation` runs it, with the same widget identities
on every run (test_every_page_runs_through_the_entry_script checks it).
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from pages.ui import keys
from playground import GraphSpec

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "streamlit_app.py"
PAGES = ("pages/build.py", "pages/graph.py", "pages/gradients.py", "pages/gradient_check.py")
BUILD, GRAPH, GRADIENTS, GRADIENT_CHECK = PAGES  # as AppTest.switch_page takes them
TIMEOUT_S = 60


def new_app(query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    """A fresh session of the app (as a new browser tab would start one), not yet run."""
    at = AppTest.from_file(str(ENTRY), default_timeout=TIMEOUT_S)
    at.query_params.update(query or {})
    if page is not None:
        at.switch_page(page)
    return at


def start(query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    """A new session that has run once, so its widgets can be driven."""
    return run(new_app(query, page))


def run(at: AppTest) -> AppTest:
    """Rerun and fail on any exception the script raised (AppTest records, never raises, them)."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page)
    return run(at)


def spec_of(at: AppTest) -> GraphSpec:
    return at.session_state[keys.HISTORY].current


def dot_of(at: AppTest) -> str:
    """The DOT source of the drawing on the current page."""
    charts = at.get("graphviz_chart")
    assert len(charts) == 1, f"expected one drawing, found {len(charts)}"
    return charts[0].proto.spec


def errors_of(at: AppTest) -> list[str]:
    return [e.value for e in at.error]
