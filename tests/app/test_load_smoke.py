"""A class of 30 on one real server, briefly: the load client of benchmarks/load.py drives 30
concurrent sessions through the whole visit (share link, Gradients, Gradient check, epsilon,
Build, an expression of each student's own, Undo), and one heavy student submits the heaviest
graphs the limits allow meanwhile.

It checks isolation, not speed (the benchmark prints the figures): every student finishes,
no exception reaches a page, nobody is disconnected, and no session ever shows another's graph
(its node names and numbers after Apply) or another's undo history (after Undo the link's own
graph returns). `benchmarks/load.py` itself is kept working by this run.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

from playground import presets, share  # noqa: E402

STUDENTS = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("load") / "server.log"
    running = load.Server(ROOT / "streamlit_app.py", [], log=log)
    try:
        yield running
    finally:
        running.stop()


def test_thirty_concurrent_sessions_never_see_each_others_graphs(server):
    link = share.encode(presets.get("mlp").spec)
    outcomes = asyncio.run(asyncio.wait_for(
        load.run_class(server.url, link, STUDENTS, join=2.0, heavy=1, static=[],
                       baseline=False),
        timeout=240))
    students, heavy = outcomes[:STUDENTS], outcomes[STUDENTS:]
    errors = [e for o in outcomes for e in o.errors]
    assert not errors, errors[:5]
    assert all(len(o.times) == len(load.ACTIONS) for o in students)
    assert sum(o.foreign for o in students) == 0
    assert sum(o.exceptions + o.disconnects for o in outcomes) == 0
    assert heavy and heavy[0].times.get("heavy apply")
