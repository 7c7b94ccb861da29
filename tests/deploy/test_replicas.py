"""deploy/serve.sh: two Streamlit replicas behind Debian's nginx, as the README's recipe runs it.

Replicas share nothing (every graph lives in the session and the link), so a share link made on
one replica opens on the other; nginx keeps each browser on one replica by its cookie, serves
Streamlit's static files itself (gzipped, cached a year) and carries the websocket.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

from playground import presets, share  # noqa: E402
from tests.deploy import serving  # noqa: E402


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    """deploy/serve.sh 2 on free loopback ports: (nginx URL, [replica URLs], run folder)."""
    run = tmp_path_factory.mktemp("replicas")
    with serving.serve(run, 2, 31_000 + os.getpid() % 1_000 * 2) as (url, urls):
        yield url, urls, run


def _get(url: str, cookie: str = "", gzip: bool = False):
    headers = {"Cookie": cookie} if cookie else {}
    if gzip:
        headers["Accept-Encoding"] = "gzip"
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
        return r.status, dict(r.headers), r.read()


async def _apply_program(url: str, program: str) -> str:
    """On the server at `url`: open the default graph, apply `program`, return the link the
    address bar then holds."""
    outcome = load.Outcome()
    session = load.Session(url, outcome)
    await session.connect()
    await session.rerun(page="")
    await session.rerun(widgets=[load._text(session.widget("w_expr_text"), program),
                                 load._trigger(session.widget("w_expr_apply"))])
    await session.close()
    assert not outcome.exceptions, outcome.errors
    return dict(urllib.parse.parse_qsl(session.query))["graph"]


async def _drawing_of_link(url: str, link: str) -> str:
    outcome = load.Outcome()
    session = load.Session(url, outcome)
    await session.connect()
    session.query = urllib.parse.urlencode({"graph": link})
    await session.rerun(page="graph")
    await session.close()
    assert not outcome.exceptions, outcome.errors
    return "\n".join(session.drawings)


def test_a_share_link_made_on_replica_1_opens_on_replica_2(replicas):
    _, (first, second), _ = replicas
    program = "made_on_one = [1.5, -2.0]\nopened_on_two = tanh(sum(made_on_one))\n"
    link = asyncio.run(_apply_program(first, program))
    assert share.decode(link).names == ("made_on_one", "sum_1", "opened_on_two")
    drawing = asyncio.run(_drawing_of_link(second, link))
    assert "opened_on_two" in drawing and "made_on_one" in drawing


def _served_by(run: Path, key: str, requests: int) -> set[str]:
    """The replicas that served the browser with cookie `key` (nginx's upstream.log: the
    answers themselves do not say)."""
    deadline = time.monotonic() + 5
    while True:
        lines = [line.split() for line in (run / "upstream.log").read_text().splitlines()]
        found = [addr for k, addr in lines if k == key]
        if len(found) >= requests or time.monotonic() > deadline:
            return set(found)
        time.sleep(0.1)


def test_nginx_keeps_a_browser_on_its_replica_and_spreads_browsers_over_both(replicas):
    url, _, run = replicas
    seen = {}
    for key in range(12):
        cookie = f"playground_replica=browser{key}"
        for _ in range(3):
            assert "X-Replica" not in _get(f"{url}/", cookie)[1]
        first = _served_by(run, f"browser{key}", 3)
        assert len(first) == 1, "one browser, one replica"
        seen[key] = first.pop()
    assert len(set(seen.values())) == 2


def test_a_browser_without_the_cookie_is_given_one(replicas):
    url, _, _ = replicas
    _, headers, _ = _get(f"{url}/graph")
    assert headers["Set-Cookie"].startswith("playground_replica=")


def test_nginx_serves_streamlits_static_files_gzipped_and_cached_for_a_year(replicas):
    url, _, _ = replicas
    _, _, index = _get(f"{url}/")
    script = next(part.split('"')[0] for part in index.decode().split('src="./')[1:]
                  if part.startswith("static/js/"))
    status, headers, body = _get(f"{url}/{script}", gzip=True)
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "X-Replica" not in headers
    assert body[:2] == b"\x1f\x8b"


def test_a_class_through_nginx_completes_its_visit(replicas):
    url, _, _ = replicas
    link = share.encode(presets.get("mlp").spec)
    outcomes = asyncio.run(asyncio.wait_for(
        load.run_class(url, link, 6, join=1.0, heavy=0, static=[], baseline=False), timeout=180))
    assert not [e for o in outcomes for e in o.errors]
    assert all(len(o.times) == len(load.ACTIONS) and not o.foreign for o in outcomes)
