"""deploy/: the answers nginx gives the internet. Every page runs in Chromium under the
Content-Security-Policy (no violation reported), every answer carries the security headers and
none names a replica's address, /_stcore/metrics is not public, one address gets a bounded rate
of requests, and a replica refuses a websocket for a host name it does not serve."""

from __future__ import annotations

import base64
import http.client
import os
import socket
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from tests.deploy import serving  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
PAGES = ["", "graph", "gradients", "gradient_check", "backprop", "train", "class"]
HEADERS = {
    "Content-Security-Policy": "default-src 'self'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """deploy/serve.sh 1 on free loopback ports: (nginx URL, replica URL, run folder)."""
    run = tmp_path_factory.mktemp("served")
    with serving.serve(run, 1, 33_000 + os.getpid() % 1_000 * 2) as (url, urls):
        yield url, urls[0], run


def _get(url: str) -> tuple[int, http.client.HTTPMessage]:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        response.read()
        return response.status, response.headers
    finally:
        connection.close()


def _static_script(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", "/")
    index = connection.getresponse().read().decode()
    connection.close()
    return "/" + next(p.split('"')[0] for p in index.split('src="./')[1:]
                      if p.startswith("static/js/"))


def test_every_answer_carries_the_security_headers_and_no_replica_address(served):
    url, _, _ = served
    for path in ["/", "/graph", "/train", "/_stcore/health", _static_script(url), "/favicon.png",
                 "/nothing-here"]:
        status, headers = _get(url + path)
        assert status in (200, 404), (path, status)
        for name, start in HEADERS.items():
            assert (headers.get(name) or "").startswith(start), (path, name, headers.get(name))
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert "X-Replica" not in headers, path
        assert "127.0.0.1:" not in str(headers), (path, str(headers))
        assert headers.get("Server") == "nginx", headers.get("Server")  # no version


def test_which_replica_served_a_browser_goes_to_the_log_not_to_the_browser(served):
    url, replica, run = served
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", "/", headers={"Cookie": "playground_replica=logged"})
    connection.getresponse().read()
    connection.close()
    deadline = time.monotonic() + 5
    while "logged " not in (run / "upstream.log").read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f"logged {replica.removeprefix('http://')}" in (run / "upstream.log").read_text()


def test_streamlits_metrics_are_not_public(served):
    url, replica, _ = served
    assert _get(url + "/_stcore/metrics")[0] == 404
    assert _get(url + "/_stcore/metrics/")[0] == 404
    assert _get(replica + "/_stcore/metrics")[0] == 200  # there, for the operator


def test_one_address_gets_a_bounded_rate_of_requests(served):
    url, _, _ = served
    parts = urllib.parse.urlsplit(url)
    statuses: list[int] = []

    def hammer() -> None:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        try:
            while len(statuses) < 3_000 and 429 not in statuses:
                connection.request("GET", "/_stcore/health")
                response = connection.getresponse()
                response.read()
                statuses.append(response.status)
        finally:
            connection.close()

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert 429 in statuses, f"{len(statuses)} requests, none refused"
    assert statuses.count(200) >= 600, "a class opening the app at once must get through"


def _upgrade_status(url: str, host: str) -> int:
    """The status a replica answers a websocket handshake whose Host header is `host`."""
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as connection:
        connection.sendall((
            "GET /_stcore/stream HTTP/1.1\r\n"
            f"Host: {host}\r\nOrigin: http://{host}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            "Sec-WebSocket-Protocol: streamlit\r\n\r\n").encode())
        return int(connection.recv(1024).split(b" ", 2)[1])


def test_a_replica_refuses_a_websocket_for_a_host_it_does_not_serve(served):
    """serve.sh passes ALLOWED_HOSTS (loopback names by default) as server.allowedHosts."""
    _, replica, _ = served
    assert _upgrade_status(replica, urllib.parse.urlsplit(replica).netloc) == 101
    assert _upgrade_status(replica, "localhost:80") == 101
    assert _upgrade_status(replica, "rebound.example") != 101


def test_every_page_runs_under_the_content_security_policy(served):
    """No CSP violation on any page, and each page draws (a blocked script draws nothing)."""
    if not CHROMIUM.exists():
        pytest.skip("Chromium is missing")
    from conftest import CHROMIUM_ARGS
    from playwright.sync_api import expect, sync_playwright

    url, _, _ = served
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 900})
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
