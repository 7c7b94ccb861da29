"""How often each running trainer updates, so that a class training at once leaves the server's
core to everybody else.

Every Train page that trains reports the CPU time of each update (``Pace.report``). All of them
then wait the same interval between updates: what the active trainers' updates cost together,
divided by the share of one core that training may use (``share``), never below ``base_s`` and
never above ``max_s``. An update's cost is its script thread's CPU time times ``overhead``, for
the work Streamlit does outside that thread to send the pictures (about as much again, measured
with ``benchmarks/load.py --trainers``). CPU time rather than wall time, so that waiting for the
other sessions does not count as cost. One student alone updates every 0.4 s, as before; a class
of thirty slows down instead of slowing everybody else down. A trainer that has not reported for
``stale_s`` (paused, closed, gone) no longer counts.

The server, not the browser's timer, holds each trainer to its pace: ``take`` hands out the steps
a trainer may take now, accrued at its chosen steps per ``base_s`` of wall-clock time, so a client
that reruns the page as fast as it can (ignoring its timer) trains no faster than one that waits.

One ``Pace`` serves the whole server (the page keeps it with ``st.cache_resource``): it is the
one piece of state that sessions share on purpose, and it holds only timings. Thread-safe; plain
Python, no Streamlit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Pace:
    """The shared update interval of the trainers running in one server process."""

    def __init__(self, base_s: float = 0.4, share: float = 0.5, overhead: float = 2.0,
                 max_s: float = 4.0, stale_s: float = 10.0, first_guess_s: float = 0.1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not 0 < base_s <= max_s < stale_s:
            raise ValueError("Pace needs 0 < base_s <= max_s < stale_s, so that a trainer "
                             "waiting the longest interval still counts as active")
        self.base_s, self.share, self.overhead = base_s, share, overhead
        self.max_s, self.stale_s, self.first_guess_s = max_s, stale_s, first_guess_s
        self._clock = clock
        self._lock = threading.Lock()
        self._costs: dict[str, tuple[float, float]] = {}  # trainer -> (seconds, reported at)
        self._allowed: dict[str, tuple[float, float]] = {}  # trainer -> (steps due, as of)

    def report(self, trainer: str, cpu_seconds: float | None = None) -> float:
        """Record that ``trainer`` (a key unique to one session) just spent ``cpu_seconds`` of
        its thread on one update, or, with None, that it starts (counted at the others' mean
        cost, or ``first_guess_s``, until it reports: a class pressing Start together is paced
        from its first update on); return the interval it should wait before the next."""
        now = self._clock()
        with self._lock:
            self._drop_stale(now)
            previous = self._costs.get(trainer)
            if cpu_seconds is None:
                if previous is not None:
                    return self._current(now)
                known = [cost for cost, _ in self._costs.values()]
                smooth = sum(known) / len(known) if known else self.first_guess_s
            else:
                cost = cpu_seconds * self.overhead
                smooth = cost if previous is None else 0.5 * (previous[0] + cost)
            self._costs[trainer] = (smooth, now)
            return self._current(now)

    def interval(self) -> float:
        """The interval a trainer starting now would get."""
        with self._lock:
            return self._current(self._clock())

    def out_of_step(self, timer_s: float, floor_s: float = 0.0) -> bool:
        """True when the shared interval (or ``floor_s``, the longest a trainer's page waits
        anyway, if longer) has moved more than a quarter away from ``timer_s``, the interval a
        trainer's timer was set to: time to set it anew."""
        return abs(max(self.interval(), floor_s) - timer_s) > 0.25 * timer_s

    def steps(self, steps_per_base: int, timer_s: float) -> int:
        """The steps an update of a trainer waiting ``timer_s`` takes, so that training keeps
        ``steps_per_base`` steps per ``base_s``: a busy server updates less often, not slower."""
        return max(1, round(steps_per_base * timer_s / self.base_s))

    def take(self, trainer: str, steps_per_base: int) -> int:
        """The steps ``trainer`` may take now, taken from what it has accrued: ``steps_per_base``
        for every ``base_s`` of wall-clock time, however often it asks. At most one update's
        worth (``steps`` at the current interval) at once, and up to one more kept in hand, so
        a timer firing a little early still gets a whole update. A trainer new to the pace (or
        back after ``stale_s``) starts with both."""
        now = self._clock()
        with self._lock:
            update = self.steps(steps_per_base, self._current(now))
            due, since = self._allowed.get(trainer, (2 * update, now))
            due = min(2 * update, due + steps_per_base * (now - since) / self.base_s)
            granted = min(update, int(due))
            self._allowed[trainer] = (due - granted, now)
            return granted

    def give_back(self, trainer: str, steps: int) -> None:
        """Return steps ``take`` granted that ``trainer`` did not take (its time ran out)."""
        with self._lock:
            if trainer in self._allowed:
                due, since = self._allowed[trainer]
                self._allowed[trainer] = (due + steps, since)

    def active(self) -> int:
        """How many trainers count now."""
        with self._lock:
            self._drop_stale(self._clock())
            return len(self._costs)

    def _current(self, now: float) -> float:
        self._drop_stale(now)
        total = sum(cost for cost, _ in self._costs.values())
        return min(self.max_s, max(self.base_s, total / self.share))

    def _drop_stale(self, now: float) -> None:
        for table in (self._costs, self._allowed):
            for trainer in [t for t, (_, at) in table.items() if now - at > self.stale_s]:
                del table[trainer]
