"""The shared pieces that bound one client's share of the server, without Streamlit: the count of
open sessions per address (playground.admission) and the checkpoints where the app stops work
nobody waits for (playground.interrupt, in the results cache and in every Deadline)."""

from __future__ import annotations

import threading

import pytest

from playground import budget, interrupt
from playground.admission import Admissions
from playground.memo import Memo


class _Stopped(BaseException):
    """What the app's check raises (Streamlit's StopException, in the app)."""


def test_an_address_holds_its_limit_and_a_closed_session_makes_room():
    open_ = set()
    admissions = Admissions(lambda s: s in open_)
    for session in ("a1", "a2", "a3"):
        open_.add(session)
        assert admissions.admit("198.51.100.1", session, limit=3)
    open_.add("a4")
    assert not admissions.admit("198.51.100.1", "a4", limit=3)
    assert admissions.admit("198.51.100.2", "b1", limit=3)  # another address is not counted
    assert admissions.admit("198.51.100.1", "a2", limit=3)  # admitted once, admitted again
    open_.discard("a1")
    assert admissions.admit("198.51.100.1", "a4", limit=3)
    assert admissions.open_sessions("198.51.100.1") == 3


def test_the_count_forgets_closed_sessions_of_every_address_so_it_stays_bounded():
    open_ = set()
    admissions = Admissions(lambda s: s in open_, sweep_every=10)
    for i in range(1_000):  # a thousand one-tab visitors come and go
        open_.add(f"s{i}")
        assert admissions.admit(f"203.0.113.{i % 250}", f"s{i}", limit=1)
        open_.discard(f"s{i}")
    assert len(admissions) <= 10


def test_sessions_arriving_together_get_exactly_the_limit():
    admissions = Admissions(lambda s: True)
    admitted = []
    barrier = threading.Barrier(40)

    def arrive(i: int) -> None:
        barrier.wait()
        if admissions.admit("198.51.100.1", f"s{i}", limit=30):
            admitted.append(i)

    threads = [threading.Thread(target=arrive, args=(i,)) for i in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(admitted) == 30


def _stop() -> None:
    raise _Stopped()


def test_an_installed_check_stops_an_evaluation_and_a_cached_computation_before_it_starts():
    computed = []
    memo = Memo(2**20)
    done = threading.Event()
    caught = []

    def run() -> None:
        interrupt.interrupt_with(_stop)
        for work in (lambda: budget.Deadline("evaluating the graph").check(),
                     lambda: memo.get("key", lambda: computed.append(1))):
            try:
                work()
            except _Stopped:
                caught.append(True)
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert done.is_set() and caught == [True, True] and computed == []
    # another thread has no check installed: the same work runs
    budget.Deadline("evaluating the graph").check()
    assert memo.get("key", lambda: 42) == 42


def test_without_a_check_a_checkpoint_does_nothing():
    interrupt.checkpoint()
    with pytest.raises(_Stopped):
        interrupt.interrupt_with(_stop)
        try:
            interrupt.checkpoint()
        finally:
            interrupt.interrupt_with(None)
    interrupt.checkpoint()
