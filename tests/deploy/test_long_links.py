"""The longest link the app opens reaches a server started as the README starts it (no nginx in
front: a local run, Streamlit Community Cloud), however the network cuts the request up.

Streamlit serves through uvicorn, whose default HTTP parser (h11) refused any request head over
16 kB that arrived in more than one piece (400 Bad Request): a share link between 16,000 and
32,000 characters opened on the laptop that made it, over loopback, and nowhere else.
requirements.txt brings httptools, which uvicorn then uses."""

from __future__ import annotations

import socket
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

from playground import limits  # noqa: E402
from playground.classroom.lesson import MAX_LINK_CHARS  # noqa: E402

SEGMENT = 1_400
"""Bytes per piece: a TCP segment on an Ethernet link."""


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    running = load.Server(ROOT / "streamlit_app.py", [],
                          log=tmp_path_factory.mktemp("long-links") / "server.log")
    try:
        yield running.url
    finally:
        running.stop()


def _status_in_pieces(url: str, path: str) -> int:
    parts = urllib.parse.urlsplit(url)
    request = f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n"
    data = request.encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for start in range(0, len(data), SEGMENT):
            connection.sendall(data[start:start + SEGMENT])
            time.sleep(0.002)  # each piece its own read on the server
        answer = connection.recv(200)
    return int(answer.split(b" ")[1])


@pytest.mark.parametrize("length", [limits.MAX_SHARE_CHARS, MAX_LINK_CHARS],
                         ids=["share link", "lesson link"])
def test_the_longest_link_passes_when_it_arrives_in_pieces(url, length):
    path = "/graph?graph=v1."
    path += "A" * (length - len(path))
    assert _status_in_pieces(url, path) == 200
