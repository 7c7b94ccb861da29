"""Server time of every case of the hostile corpus (tests/app/hostile_corpus.py), by door.

Each case goes through its door in AppTest, which runs the app's script in this process as the
server would; the time of that request's run is the case's server time. The baseline, timed in
the same run between the cases, is an ordinary edit: applying a two-line expression. Target:
every case answered (refused with its message, or accepted) in under one second.

    python benchmarks/hostile.py [--door expression] [--slowest 10]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (str(HERE), str(ROOT), str(ROOT / "tests" / "app")):
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)

from _timing import print_table  # noqa: E402
from hostile_corpus import CASES, DEFAULT, DOORS, NEW_SESSION_DOORS, fresh_session  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--door", help="only the cases of this door")
    parser.add_argument("--slowest", type=int, default=8, help="list this many slowest cases")
    args = parser.parse_args()

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
