"""Fixtures for the browser tests: a real `streamlit run` server and a real Chromium.

The server is started once per test session on a free port with the interpreter running pytest,
and stopped at the end; `fresh_app_url` starts one for a single test. Chromium is Debian's
(/usr/bin/chromium) driven by Playwright's sync API.
In CI (env CI set) a missing browser is a failure, never a skip: these tests must run there.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STARTUP_TIMEOUT_S = 60


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(reason: str) -> None:
    """Fail loudly in CI, skip with the reason elsewhere."""
    if _in_ci():
        pytest.fail(f"{reason} (CI is set, so browser tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """tests/artifacts/ (gitignored): screenshots and the server log land here."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@contextmanager
def serve(log_path: Path, **env_changes: str) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free port, logging to `log_path`: its base URL.
    `env_changes` set environment variables for the server (PATH without Graphviz, say)."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false", **env_changes}
    command = [
        sys.executable, "-m", "streamlit", "run", "streamlit_app.py",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--server.fileWatcherType", "none",
    ]
    with log_path.open("w") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not _healthy(url):
                if server.poll() is not None:
                    pytest.fail(f"streamlit exited with code {server.returncode}; see {log_path}")
                if time.monotonic() > deadline:
                    pytest.fail(f"streamlit unhealthy after {STARTUP_TIMEOUT_S} s; see {log_path}")
                time.sleep(0.2)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)


@pytest.fixture(scope="session")
def app_url(artifacts_dir: Path):
    """One server for the whole test session; yields its base URL and stops it at the end."""
    with serve(artifacts_dir / "streamlit-server.log") as url:
        yield url


@pytest.fixture(scope="module")
def app_url_without_graphviz(artifacts_dir: Path, tmp_path_factory):
    """A server whose PATH has no `dot` program, as on a machine without Graphviz."""
    empty = tmp_path_factory.mktemp("no-graphviz")
    with serve(artifacts_dir / "streamlit-server-no-graphviz.log", PATH=str(empty)) as url:
        yield url


@pytest.fixture(scope="module")
def class_url(artifacts_dir: Path, tmp_path_factory):
    """A server of the module's own with an empty SQLite database, for a live class."""
    data = tmp_path_factory.mktemp("class-data")
    with serve(artifacts_dir / "streamlit-server-classroom.log",
               AUTOGRAD_PLAYGROUND_DATA=str(data)) as url:
        yield url


@pytest.fixture
def fresh_app_url(artifacts_dir: Path, request):
    """A server of this test's own, just started, so the test's first request is the server's
    first: the request Streamlit answers in its legacy multipage mode (a Cloud app waking up)."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)
    with serve(artifacts_dir / f"streamlit-server-{slug}.log") as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium under Playwright; skipped outside CI when it is missing."""
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        _unavailable(f"Chromium not found at {CHROMIUM}; install it: `apt-get install chromium`")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing (pip install -r requirements-dev.txt)")
    from playwright.sync_api import expect
    # Assertions wait as long as the contexts' actions (30 s), not Playwright's 5 s: on two
    # cores running the suite a drawing's redraw can take longer than 5 s; a wrong value still
    # fails, only later.
    expect.set_options(timeout=30_000)
    executable = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def laptop(browser):
    """A fresh browser context at a laptop's 1280×800, one tab, generous waits for a loaded
    machine."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def tab(browser):
    """A fresh browser context (its own cookies and Streamlit session) at 1600×1000 with one tab,
    for a test that chooses its server itself."""
    context = browser.new_context(viewport={"width": 1600, "height": 1000}, device_scale_factor=1)
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def page(tab, app_url):
    """A fresh tab (`tab`) once the shared app server is up."""
    return tab
