"""A class of 30 on one real server, briefly: the load client of benchmarks/load.py drives 30
concurrent sessions through the whole visit (share link, Gradients, Gradient check, epsilon,
Build, an expression of each student's own, Undo), while one heavy student submits the heaviest
graphs the limits allow and two train on the Train page (its timer, then Pause).

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
                       baseline=False, trainers=2),
        timeout=240))
    students, heavy, trainers = (outcomes[:STUDENTS], outcomes[STUDENTS:STUDENTS + 1],
                                 outcomes[STUDENTS + 1:])
    errors = [e for o in outcomes for e in o.errors]
    assert not errors, errors[:5]
    assert all(len(o.times) == len(load.ACTIONS) for o in students)
    assert sum(o.foreign for o in students) == 0
    assert sum(o.exceptions + o.disconnects for o in outcomes) == 0
    assert heavy and heavy[0].times.get("heavy apply")
    assert len(trainers) == 2
    assert all(o.times.get("train update") and o.times.get("Pause") for o in trainers)


def _state(widget_id: str, **value):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    state = WidgetState(id=widget_id)
    for field, v in value.items():
        if field.endswith("array_value"):
            getattr(state, field).data[:] = v
        else:
            setattr(state, field, v)
    return state


FORGED = [  # (widget key, the value a tampered client sends)
    ("w_preset", {"string_value": "no_such_preset"}),
    ("w_output", {"string_value": "no_such_node"}),
    ("w_show", {"string_array_value": ["<script>alert(1)</script>"]}),
    ("w_rankdir", {"string_array_value": ["sideways"]}),
    ("w_font", {"double_array_value": [1e9]}),
    ("w_font", {"double_array_value": [float("nan")]}),
    ("w_compact", {"string_value": "yes"}),
    ("w_add_kind", {"string_array_value": ["evil"]}),
    ("w_add_op", {"string_value": "__import__"}),
    ("w_expr_text", {"string_value": "x = 1.0\n" * 200_000}),
    ("w_undo", {"trigger_value": True}),
    ("w_redo", {"trigger_value": True}),
    ("w_expr_apply", {"trigger_value": True}),
]


def test_forged_widget_values_from_a_tampered_client_change_nothing_and_raise_nothing(server):
    """Values no widget of the page would send, straight on the websocket: each is ignored or
    refused with the form's message; the page never shows an exception and keeps the graph."""
    link = share.encode(presets.get("mlp").spec)

    async def visit() -> load.Outcome:
        outcome = load.Outcome()
        session = load.Session(server.url, outcome)
        await session.connect()
        session.query = f"graph={link}"
        await session.rerun(page="build")
        for key, value in FORGED:
            await session.rerun(widgets=[_state(session.widget(key), **value)])
            await session.rerun(widgets=[_state("$$ID-forged-none", trigger_value=True)])
        await session.rerun(page="graph")
        assert "logits" in "\n".join(session.drawings)
        await session.close()
        return outcome

    outcome = asyncio.run(asyncio.wait_for(visit(), timeout=120))
    assert outcome.exceptions == 0 and not outcome.disconnects, outcome.errors
