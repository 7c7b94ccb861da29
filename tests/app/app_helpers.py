"""AppTest helpers: run the real entry script headless and read what the pages drew.

Imported by the tests in this folder (pytest puts the folder on sys.path).
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from playground import GraphSpec

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "streamlit_app.py"
PAGES = ("pages/build.py", "pages/graph.py", "pages/gradients.py", "pages/gradient_check.py")
TIMEOUT_S = 60


def new_app(query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    """A fresh session of the app (as a new browser tab would start one), not yet run."""
    at = AppTest.from_file(str(ENTRY), default_timeout=TIMEOUT_S)
    at.query_params.update(query or {})
    if page is not None:
        at.switch_page(page)
    return at


def start(query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    """A new session that has run twice, so its widgets can be driven.

    With a folder named `pages/`, AppTest enters every run through Streamlit's legacy multipage
    wrapper, and the first run of a session files the page's widgets under another script hash
    than later runs; values set between the first and second run would be dropped. A real
    server takes that path only on the first run of its process.
    """
    return run(run(new_app(query, page)))


def run(at: AppTest) -> AppTest:
    """Rerun and fail on any exception the script raised (AppTest records, never raises, them)."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page)
    return run(at)


def spec_of(at: AppTest) -> GraphSpec:
    return at.session_state["pg_history"].current


def dot_of(at: AppTest) -> str:
    """The DOT source of the drawing on the current page."""
    charts = at.get("graphviz_chart")
    assert len(charts) == 1, f"expected one drawing, found {len(charts)}"
    return charts[0].proto.spec


def errors_of(at: AppTest) -> list[str]:
    return [e.value for e in at.error]
