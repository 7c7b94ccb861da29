"""Markdown injection in a real Chromium: links that quote a tracking pixel, a link, raw HTML and
an autolink in every message box that quotes them (a Train page parameter, a graph document's
node name that fails validation, a display option) render none of them, and the attacker's
server (a loopback stand-in) never hears from the browser."""

from __future__ import annotations

import base64
import http.server
import json
import threading
import urllib.parse
import zlib

import pytest
from playwright.sync_api import expect

from playground import presets, share

pytestmark = pytest.mark.e2e
SLOW = 30_000


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self):  # noqa: N802 - http.server's name
        self.seen.append(self.path)
        body = base64.b64decode("R0lGODlhAQABAAAAACH5BAEAAAAALAAAAAABAAEAAAIBAAA=")  # 1x1 GIF
        self.send_response(200)
        self.send_header("Content-Type", "image/gif")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def attacker():
    """A server on a free loopback port that records every request: the attacker's stand-in."""
    _Recorder.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.seen
    server.shutdown()
    server.server_close()


def _payload(origin: str, tag: str) -> str:
    return (f"x\n\n![p]({origin}/{tag}.png) [click]({origin}/{tag}-link) "
            f"<img src={origin}/{tag}-html.png> <{origin}/{tag}-auto> {origin}/{tag}-bare")


def _link_of(document: dict) -> str:
    packed = zlib.compress(json.dumps(document).encode(), 9)
    return "v1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _urls(app_url: str, origin: str) -> dict[str, str]:
    bad_name = {"version": 1, "nodes": [{"name": _payload(origin, "name"), "kind": "input",
                                         "value": 1.0, "extra": 1}]}
    default = share.encode(presets.get(presets.DEFAULT_KEY).spec)
    show = f"![p]({origin}/show.png)"
    return {
        "train": f"{app_url}/train?" + urllib.parse.urlencode({"data": f"![p]({origin}/t.png)"}),
        "document": f"{app_url}/graph?" + urllib.parse.urlencode({"graph": _link_of(bad_name)}),
        "show": f"{app_url}/graph?" + urllib.parse.urlencode({"graph": default, "show": show}),
        "exercise": f"{app_url}/?" + urllib.parse.urlencode(
            {"graph": default, "ex": "grad:" + _payload(origin, "ex")}),
    }


@pytest.mark.parametrize("door", ["train", "document", "show", "exercise"])
def test_a_link_quoting_markdown_renders_no_link_image_or_html_in_the_apps_boxes(
        door, page, app_url, attacker):
    origin, seen = attacker
    page.goto(_urls(app_url, origin)[door])
    alerts = page.get_by_test_id("stAlert").filter(has_text="127.0.0.1")
    expect(alerts.first).to_be_visible(timeout=SLOW)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
    for i in range(alerts.count()):
        box = alerts.nth(i)
        assert box.locator("a").count() == 0, box.inner_html()
        assert box.locator("img").count() == 0, box.inner_html()
        assert box.locator("h1, h2, h3, table, ul, ol, pre, blockquote").count() == 0
        shown = box.inner_text().replace("\u2060", "")  # as_markdown's invisible word joiner
        assert origin.removeprefix("http://") in shown, shown
    page.wait_for_timeout(1_000)  # time for an image request, had any image been drawn
    assert seen == [], f"the browser asked the attacker's server for {seen}"
