"""A short run of every benchmark script, so that each keeps working: tests never time anything
(the scripts print the figures), but a script that crashes, or finds two engines disagreeing
before it times them, fails here. benchmarks/load.py has its own smoke run
(tests/app/test_load_smoke.py) and benchmarks/hostile.py's corpus runs in
tests/app/test_hostile_corpus.py."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# (script and its shortest arguments, a line each table must print)
RUNS = [
    (["engine.py", "--quick", "--engine-only"], "op overhead (2,000-op chain)"),
    (["conv.py", "--quick"], "conv2d forward+backward"),
    pytest.param(["models.py", "--quick"], "transformer training step",
                 marks=pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                          reason="models.py checks every step against PyTorch")),
    (["train.py", "--repeats", "1", "--steps", "5"], "mean squared error"),
    (["playground.py", "--repeats", "1"], "share encode+decode"),
    (["app.py", "--repeats", "1"], "slowest fragment rerun"),
    (["server_gc.py", "--quick"], "op overhead chain"),
    (["page_clicks.py", "--repeats", "1", "--pages", "Step through,Live class"],
     "Step through: Next"),
    (["train_clicks.py", "--repeats", "1"], "Pause (training)"),
    (["flood.py", "--reruns", "20", "--students", "2", "--join", "0.5", "--sessions", "3"],
     "class p95 per click s, flooded"),
]


@pytest.mark.parametrize(("command", "expected"), RUNS,
                         ids=["engine", "conv", "models", "train", "playground", "app",
                              "server_gc", "page_clicks", "train_clicks", "flood"])
def test_each_benchmark_script_runs_and_prints_its_table(command, expected):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / command[0]), *command[1:]],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert expected in done.stdout
    assert "check failed" not in done.stdout + done.stderr


def test_the_engine_table_gives_every_timed_row_a_verdict_and_lists_full_collections():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "engine.py"), "--quick",
                           "--engine-only", "--only", "overhead,fanin"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines()
            if line.startswith(("op overhead (", "fan-in (sum"))]
    assert len(rows) == 2
    assert all(("PASS" in row or "MISS" in row) and "×" in row for row in rows)
    assert "Full collections (generation 2) inside our timed calls" in done.stdout
    assert "  op overhead (2,000-op chain): " in done.stdout


def test_a_live_class_of_three_survives_a_kill_9_of_its_server(tmp_path):
    """benchmarks/room_load.py: a teacher and three students through the 5-step lesson on the
    websocket protocol, the server killed with SIGKILL on the first exercise and restarted:
    every answer a student saw accepted is in the database, and everybody is back."""
    out = tmp_path / "room.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "room_load.py"),
                           "--students", "3", "--join", "1", "--think", "1.5",
                           "--kill-server-at", "1", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "every student back, s after the restart" in done.stdout
    figures = json.loads(out.read_text())
    assert figures["students"] == 3
    assert figures["answers_accepted"] == 3 * (3 + 2)  # two exercises hiding 3 and 2 numbers
    assert figures["lost_answers"] == 0
    assert figures["errors"] == 0, done.stdout[-3000:]
    for name in ("p95_follow_s", "p95_answer_visible_s", "server_cpu_s_per_student",
                 "back_in_room_s"):
        assert figures[name] > 0, name
