"""A short run of every benchmark script, so that each keeps working: tests never time anything
(the scripts print the figures), but a script that crashes, or finds two engines disagreeing
before it times them, fails here. benchmarks/load.py has its own smoke run
(tests/app/test_load_smoke.py) and benchmarks/hostile.py's corpus runs in
tests/app/test_hostile_corpus.py."""

import importlib.util
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
]


@pytest.mark.parametrize(("command", "expected"), RUNS,
                         ids=["engine", "conv", "models", "train", "playground", "app",
                              "server_gc"])
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
