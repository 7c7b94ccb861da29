"""deploy/serve.sh started for a test: N replicas behind Debian's nginx on free loopback ports."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import load  # noqa: E402

from pages.ui import frame  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CHROMIUM = Path("/usr/bin/chromium")
PAGES = ["" if i == 0 else file.removesuffix(".py") for i, (file, _, _) in enumerate(frame.PAGES)]
"""The url path of every page of streamlit_app.py's navigation."""


def _healthy(url: str) -> bool:
    """The app answers /_stcore/health at `url`, over HTTPS with any certificate."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2,
                                    context=ssl._create_unverified_context()) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def serve(run: Path, replicas: int, base_port: int, port: int | None = None,
          env: dict[str, str] | None = None) -> Iterator[tuple[str, list[str]]]:
    """`deploy/serve.sh replicas [port]` writing into `run`, with `env` added: (nginx URL, the
    replicas' URLs), stopped afterwards; the URL is HTTPS_PORT's when `env` sets TLS_CERT.
    Without nginx the test fails in CI and is skipped elsewhere."""
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx is missing; tests/run.sh installs Debian's nginx")
        pytest.skip("nginx is missing: apt-get install nginx (tests/run.sh does)")
    port = port or load._free_port()
    env = {**os.environ, "RUN_DIR": str(run), "BASE_PORT": str(base_port),
           "PYTHON": sys.executable, **(env or {})}
    with open(run / "serve.log", "w") as log:
        process = subprocess.Popen(
            ["bash", str(ROOT / "deploy" / "serve.sh"), str(replicas), str(port)], env=env,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        url = (f"https://127.0.0.1:{env['HTTPS_PORT']}" if "TLS_CERT" in env
               else f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 180
        while not ((run / "pids").exists() and _healthy(url)):
            if process.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        try:
            assert _healthy(url), (run / "serve.log").read_text()[-2000:]
            yield url, [f"http://127.0.0.1:{base_port + i}" for i in range(1, replicas + 1)]
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def every_page_runs_under_the_csp(url: str) -> None:
    """Every page at `url` in Chromium (any certificate) reports no CSP violation, and each page
    draws (a blocked script draws nothing)."""
    if not CHROMIUM.exists():
        pytest.skip("Chromium is missing")
    from conftest import CHROMIUM_ARGS
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 900},
                                          ignore_https_errors=True)
            context.add_init_script(
                "window.__csp = []; document.addEventListener('securitypolicyviolation', e =>"
                " window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
            tab = context.new_page()
            console = []
            tab.on("console", lambda m: console.append(m.text)
                   if "Content Security Policy" in m.text or "Refused to" in m.text else None)
            for path in PAGES:
                tab.goto(f"{url}/{path}")
                expect(tab.get_by_role("heading", level=1).first).to_be_visible(timeout=30_000)
                expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
                tab.wait_for_timeout(1_500)
                assert tab.evaluate("window.__csp") == [], (path, tab.evaluate("window.__csp"))
            assert not console, console
            tab.goto(f"{url}/graph")
            expect(tab.get_by_test_id("graph-drawing").locator("svg g.node").first) \
                .to_be_visible(timeout=30_000)
            tab.goto(f"{url}/train")
            expect(tab.get_by_test_id("stVegaLiteChart")).to_have_count(5, timeout=30_000)
            expect(tab.get_by_test_id("stVegaLiteChart").first.locator("canvas, svg").first) \
                .to_be_visible(timeout=30_000)
            tab.wait_for_timeout(1_500)
            assert tab.evaluate("window.__csp") == [], tab.evaluate("window.__csp")
            assert not console, console
        finally:
            browser.close()
