"""deploy/: the answers nginx gives the internet. Every page runs in Chromium under the
Content-Security-Policy (no violation reported), every answer carries the security headers and
none names a replica's address, the affinity cookie is HttpOnly and SameSite=Strict,
/_stcore/metrics is not public, addresses and uploads are bounded as the app bounds them, one
address gets a bounded rate of requests, and a replica refuses a websocket for a host name it does
not serve (TLS: test_tls.py)."""

from __future__ import annotations

import base64
import http.client
import os
import socket
import threading
import time
import tomllib
import urllib.parse
from pathlib import Path

import pytest

from playground.classroom import lesson
from tests.deploy import serving

ROOT = Path(__file__).resolve().parents[2]

MAX_UPLOAD_BYTES = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())[
    "server"]["maxUploadSize"] * 2**20
"""Streamlit's server.maxUploadSize (MB, as 2**20 bytes) as it checks a request's length."""
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


def _raw(url: str, head: str, body_bytes: int = 0) -> tuple[int, bytes]:
    """Status and body of the answer to the request `head` (then `body_bytes` zero bytes), sent
    over a plain socket so that an answer before the body is read too."""
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as connection:
        connection.sendall(f"{head}Host: {parts.netloc}\r\nConnection: close\r\n\r\n".encode())
        if body_bytes:
            connection.sendall(bytes(body_bytes))
        answer = b""
        while chunk := connection.recv(65_536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split(b" ")[1]), rest.partition(b"\r\n\r\n")[2]


def test_the_affinity_cookie_is_httponly_and_strict(served):
    url, _, _ = served
    _, headers = _get(url + "/")
    name, *flags = headers["Set-Cookie"].split("; ")
    assert name.startswith("playground_replica=")
    assert sorted(flags) == ["HttpOnly", "Path=/", "SameSite=Strict"]  # Secure under TLS


def test_an_address_as_long_as_the_apps_longest_link_passes_and_a_longer_one_does_not(served):
    """The longest link the app opens (a pasted lesson link, MAX_LINK_CHARS) reaches Streamlit;
    nginx answers 414 to an address past its 40k buffer, before any replica reads it."""
    url, _, _ = served
    path = "/graph?graph=v1."
    path += "A" * (lesson.MAX_LINK_CHARS - len(path))
    assert _raw(url, f"GET {path} HTTP/1.1\r\n")[0] == 200
    status, body = _raw(url, f"GET {path + 'A' * 14_000} HTTP/1.1\r\n")
    assert status == 414 and b"nginx" in body


def test_an_upload_as_large_as_the_apps_limit_passes_and_a_larger_one_does_not(served):
    """An upload of server.maxUploadSize (4 MiB, the whole body, as Streamlit counts it) reaches
    Streamlit, which refuses it only for its unknown session; a byte more gets nginx's 413
    before the body is sent."""
    url, _, _ = served
    _, headers = _get(url + "/_stcore/health")
    xsrf = next(c.split(";")[0].split("=", 1)[1] for c in headers.get_all("Set-Cookie")
                if c.startswith("_streamlit_xsrf="))
    head = ("PUT /_stcore/upload_file/no-session/no-file HTTP/1.1\r\nContent-Length: {}\r\n"
            f"Cookie: _streamlit_xsrf={xsrf}\r\nX-Xsrftoken: {xsrf}\r\n")
    status, body = _raw(url, head.format(MAX_UPLOAD_BYTES + 1))
    assert status == 413 and b"nginx" in body
    status, body = _raw(url, head.format(MAX_UPLOAD_BYTES), body_bytes=MAX_UPLOAD_BYTES)
    assert status == 400 and body.startswith(b"Invalid session_id"), (status, body[:200])


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
    url, _, _ = served
    serving.every_page_runs_under_the_csp(url)
