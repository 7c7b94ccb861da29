"""The shared cache: bounded by bytes, least recently used out first, one computation per key
however many threads ask at once, errors never kept."""

import threading
import time

import numpy as np
import pandas as pd
import pytest

from playground import presets
from playground.errors import SpecError
from playground.evaluate import evaluate
from playground.memo import Memo, size_of


def test_a_kept_result_is_returned_without_computing_again():
    memo, calls = Memo(10_000), []
    first = memo.get("k", lambda: calls.append(1) or "value")
    second = memo.get("k", lambda: calls.append(1) or "other")
    assert first == second == "value"
    assert calls == [1]


def test_the_least_recently_used_results_go_first_when_the_bytes_run_out():
    memo = Memo(max_bytes=4_000)
    for key in "abc":
        memo.get(key, lambda: np.zeros(100))  # 800 bytes and a little more each
    memo.get("a", lambda: pytest.fail("a is kept"))
    memo.get("d", lambda: np.zeros(100))
    memo.get("e", lambda: np.zeros(100))
    assert "a" in memo and "b" not in memo
    assert memo.nbytes <= 4_000


def test_a_result_larger_than_a_quarter_of_the_budget_is_returned_but_not_kept():
    memo = Memo(max_bytes=4_000)
    big = memo.get("big", lambda: np.zeros(1_000))
    assert big.shape == (1_000,)
    assert "big" not in memo and memo.nbytes == 0


def test_errors_reach_the_caller_and_are_not_kept():
    memo, calls = Memo(10_000), []

    def refuse():
        calls.append(1)
        raise SpecError("no")

    for _ in range(2):
        with pytest.raises(SpecError, match="no"):
            memo.get("k", refuse)
    assert calls == [1, 1]


def test_thirty_threads_asking_for_one_key_at_once_compute_it_once():
    memo, calls, results = Memo(10_000), [], []
    gate = threading.Barrier(30)

    def slow():
        calls.append(1)
        time.sleep(0.05)
        return "shared"

    def ask():
        gate.wait()
        results.append(memo.get("graph", slow))

    threads = [threading.Thread(target=ask) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert calls == [1]
    assert results == ["shared"] * 30


def test_a_waiting_thread_computes_itself_when_the_computing_thread_is_stopped():
    class Stopped(BaseException):
        """Like Streamlit's StopException: not an error, the thread just ends."""

    memo, started = Memo(10_000), threading.Event()
    release = threading.Event()
    outcome = {}

    def stopped():
        started.set()
        release.wait()
        raise Stopped

    def owner():
        try:
            memo.get("k", stopped)
        except Stopped:
            outcome["owner"] = "stopped"

    def waiter():
        started.wait()
        outcome["waiter"] = memo.get("k", lambda: "computed by the waiter")

    threads = [threading.Thread(target=owner), threading.Thread(target=waiter)]
    for thread in threads:
        thread.start()
    started.wait()
    time.sleep(0.05)
    release.set()
    for thread in threads:
        thread.join()
    assert outcome == {"owner": "stopped", "waiter": "computed by the waiter"}


def test_size_of_counts_array_buffers_and_table_columns():
    result = evaluate(presets.get("mlp").spec)
    arrays = sum(n.value.nbytes + (0 if n.grad is None else n.grad.nbytes) for n in result.nodes)
    assert arrays <= size_of(result) <= arrays + 200_000
    frame = pd.DataFrame({"x": np.zeros(10_000)})
    assert 80_000 <= size_of(frame) <= 81_000
