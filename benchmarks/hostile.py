"""Server time of every case of the hostile corpus (tests/app/hostile_corpus.py), by door.

Each case goes through its door in AppTest, which runs the app's script in this process as the
server would; the time of that request's run is the case's server time. The baseline, timed in
the same run between the cases, is an ordinary edit: applying a two-line expression. Target:
every case answered (refused with its message, or accepted) in under one second.

``--heavy`` measures the costliest links a student can share instead, each opened by a new
session: the CPU time of that first run, the peak of Python's memory during it and what the
session still holds after it (freed when the session goes), and the memory of one session that
opens several such links in turn (its undo history).

    python benchmarks/hostile.py [--door expression] [--slowest 10]
    python benchmarks/hostile.py --heavy [--links 10]
"""

from __future__ import annotations

import argparse
import gc
import logging
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (str(HERE), str(ROOT), str(ROOT / "tests" / "app")):
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)

from _timing import print_table  # noqa: E402
from app_helpers import errors_of, new_app  # noqa: E402
from hostile_corpus import (  # noqa: E402
    CASES,
    DEFAULT,
    DOORS,
    EDGE_BOMB,
    LINK,
    NEW_SESSION_DOORS,
    fresh_session,
    literal_link,
)

from pages.ui import keys  # noqa: E402

logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    lambda record: "missing ScriptRunContext" not in record.getMessage()
)
TARGET_S = 1.0
BASELINE = "x = 1.0\ny = x * 2.0\n"


def _session_state():
    return {"at": None}


def timed_case(case, holder) -> float:
    """Seconds of the run that answers `case` (the request carrying the payload)."""
    if case.door in NEW_SESSION_DOORS:
        at = NEW_SESSION_DOORS[case.door](case.payload)
        start = time.perf_counter()
        at.run()
        return time.perf_counter() - start
    at = holder["at"]
    if at is None or at.session_state[keys.HISTORY].current != DEFAULT or at.exception:
        at = holder["at"] = fresh_session()
    at.session_state[keys.ERRORS] = {}
    DOORS[case.door](at, case.payload)
    start = time.perf_counter()
    at.run()
    return time.perf_counter() - start


def timed_baseline(holder) -> float:
    at = fresh_session()
    DOORS["expression"](at, BASELINE)
    start = time.perf_counter()
    at.run()
    return time.perf_counter() - start


MIB = 2**20
TRACED_TIMEOUT_S = 900
"""A run under tracemalloc takes several times longer."""


def _outcome(at) -> str:
    errors = errors_of(at)
    if errors:
        return "refused: " + errors[0].split(". ", 1)[-1][:70]
    return f"accepted ({len(at.session_state[keys.HISTORY].current):,} nodes)"


def _traced(links: list[str]) -> tuple[float, float]:
    """Peak MiB of Python's memory while one session opens ``links`` in turn, and the MiB it
    holds afterwards (what is freed when it goes)."""
    gc.collect()
    tracemalloc.start()
    try:
        at = new_app(query={"graph": links[0]})
        at.run(timeout=TRACED_TIMEOUT_S)
        for link in links[1:]:
            at.query_params["graph"] = link
            at.run(timeout=TRACED_TIMEOUT_S)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        peak = tracemalloc.get_traced_memory()[1]
        del at
        gc.collect()
        return peak / MIB, (held - tracemalloc.get_traced_memory()[0]) / MIB
    finally:
        tracemalloc.stop()


def heavy(count: int) -> None:
    """The table of the heavy links (CPU and wall time untraced, memory in a second run)."""
    cases = {
        f"ordinary link ({len(LINK) / 1000:.1f} kB, the default graph)": [LINK],
        f"literal link ({len(literal_link()) / 1000:.1f} kB, 999,000 numbers)": [literal_link()],
        f"edge link ({len(EDGE_BOMB) / 1000:.1f} kB, 800,000 edges)": [EDGE_BOMB],
        f"one session, {count} links of 999,000 numbers":
            [literal_link(first=i) for i in range(count)],
        f"one session, {count} links of 100,000 numbers":
            [literal_link(100_000, first=i) for i in range(count)],
    }
    new_app(query={"graph": LINK}).run()  # imports and caches warm, as on a running server
    rows = []
    for name, links in cases.items():
        at = new_app(query={"graph": links[0]})
        cpu, wall = time.process_time(), time.perf_counter()
        at.run()
        for link in links[1:]:
            at.query_params["graph"] = link
            at.run()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        outcome = _outcome(at)
        del at
        peak, held = _traced(links)
        rows.append([name, f"{cpu:.2f}", f"{wall:.2f}", f"{peak:.1f}", f"{held:.1f}", outcome])
    print_table(["case", "CPU s", "wall s", "peak MiB", "session holds MiB", "outcome"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--door", help="only the cases of this door")
    parser.add_argument("--slowest", type=int, default=8, help="list this many slowest cases")
    parser.add_argument("--heavy", action="store_true", help="only the heavy links' table")
    parser.add_argument("--links", type=int, default=10,
                        help="links the --heavy session opens in turn")
    args = parser.parse_args()
    if args.heavy:
        heavy(args.links)
        return

    cases = [c for c in CASES if args.door in (None, c.door)]
    holder = _session_state()
    times: dict[str, list[float]] = {}
    each: list[tuple[float, str]] = []
    baseline: list[float] = []
    for i, case in enumerate(cases):
        if i % 25 == 0:
            baseline.append(timed_baseline(holder))
        seconds = timed_case(case, holder)
        times.setdefault(case.door, []).append(seconds)
        each.append((seconds, case.id))

    base = statistics.median(baseline)
    rows = []
    for door, values in times.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        rows.append([door, str(len(values)), f"{statistics.median(values) * 1000:.0f}",
                     f"{p95 * 1000:.0f}", f"{ordered[-1] * 1000:.0f}",
                     f"{ordered[-1] / base:.1f}x"])
    print_table(["door", "cases", "median ms", "p95 ms", "max ms", "max/baseline"], rows)
    print(f"\nbaseline (apply a two-line expression): median {base * 1000:.0f} ms over "
          f"{len(baseline)} runs, spread {min(baseline) * 1000:.0f}-{max(baseline) * 1000:.0f} ms")
    print(f"\nslowest {args.slowest} cases:")
    for seconds, case_id in sorted(each, reverse=True)[: args.slowest]:
        print(f"  {seconds * 1000:7.0f} ms  {case_id}")
    worst = max(s for s, _ in each)
    print(f"\n{len(each)} cases, slowest {worst:.2f} s (target < {TARGET_S:g} s: "
          f"{'met' if worst < TARGET_S else 'MISSED'})")


if __name__ == "__main__":
    main()
