"""Nothing lost, in a real Chromium: the graph survives a browser reload, a server restart and
the back button, because the address bar always holds it (the URL is the share link).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from e2e_helpers import expect, node_box, wait_for_app

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _server(port: int, log: Path):
    """`streamlit run` on `port` (the same port again after a restart)."""
    command = [sys.executable, "-m", "streamlit", "run", "streamlit_app.py", "--server.port",
               str(port), "--server.address", "127.0.0.1", "--server.headless", "true"]
    with log.open("a") as out:
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
                    break
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline, log.read_text()
                    time.sleep(0.2)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=20)


def _apply(tab, program: str) -> None:
    tab.get_by_role("tab", name="Expression").click()
    tab.get_by_test_id("stMain").locator("textarea").first.fill(program)  # the Expression box
    tab.get_by_role("button", name="Apply").click()
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)


def test_the_graph_survives_a_reload_a_server_restart_and_the_back_button(tab, artifacts_dir):
    tab.set_default_timeout(30_000)  # waits across a server restart
    port, log = _free_port(), artifacts_dir / "streamlit-server-nothing-lost.log"
    with _server(port, log) as url:
        tab.goto(url)
        wait_for_app(tab)
        _apply(tab, "kept = 3.0\nalso_kept = kept * kept\n")
        expect(node_box(tab, "also_kept")).to_contain_text("value 9.0000")

        tab.reload()
        wait_for_app(tab)
        expect(node_box(tab, "also_kept")).to_contain_text("value 9.0000")

        _apply(tab, "second = 2.0\nthen = second + second\n")
        expect(node_box(tab, "then")).to_contain_text("value 4.0000")
        tab.go_back()
        wait_for_app(tab)
        expect(node_box(tab, "also_kept")).to_contain_text("value 9.0000")
        tab.get_by_test_id("stSidebar").get_by_role("button", name="Undo").click()
        expect(node_box(tab, "then")).to_contain_text("value 4.0000")

    with _server(port, log):  # the same address, a new server that knows no session
        tab.reload()
        wait_for_app(tab)
        expect(node_box(tab, "then")).to_contain_text("value 4.0000")
