"""The engine and the playground inside the server's process, with and without the objects the
modules left behind frozen out of the garbage collector's sight (playground.collector).

Run from the repository root:
    python benchmarks/server_gc.py [--quick]

The process first imports what the Streamlit server holds once the app has run (Streamlit,
pandas, Altair, graphviz, the playground and the pages' helpers; not torch, which the app never
imports), then times, with the collector on:
- the op-overhead chain of benchmarks/engine.py (2,000 ops, then backward), the engine alone;
- evaluate of the MLP preset, what a page asks for when a graph changes.
Each runs first as before, then after ``playground.collector.freeze_shared_objects()`` (what the
app's first run calls), in the same process one after the other: not interleaved, because
freezing and unfreezing between repeats would reset the collector's counts and hide the very
collections measured here. The spread is max(slowest / median, median / fastest) over repeats;
its target, as in engine.py, is 1.30x.
"""

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the repository first: `playground` is the package
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

sys.modules.setdefault("torch", None)  # engine.py's optional baseline: not in the server

import altair  # noqa: E402, F401
import graphviz  # noqa: E402, F401
import pandas  # noqa: E402, F401
from _timing import Case, print_table, time_cases  # noqa: E402
from engine import CHAIN_OPS, CHAIN_SHAPE, _spread_cell, chain_case, ours_leaf  # noqa: E402

from pages.ui.frame import import_page_modules  # noqa: E402
from playground import evaluate  # noqa: E402
from playground.collector import freeze_shared_objects  # noqa: E402
from playground.presets import get  # noqa: E402

# (repeats, calls per repeat, warm-up calls): the chain as in engine.py; evaluate takes 0.3 ms.
FULL = {"chain": (15, 5, 2), "evaluate": (15, 50, 5)}
QUICK = {"chain": (2, 1, 1), "evaluate": (2, 1, 1)}


def _full_collection_ms():
    start = time.perf_counter()
    gc.collect()
    return (time.perf_counter() - start) * 1e3


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else FULL

    import_page_modules()  # what the app's first run imports (and then freezes)
    mlp = get("mlp").spec
    workloads = {
        f"op overhead chain ({CHAIN_OPS:,} ops), per op": (
            chain_case(ours_leaf, CHAIN_SHAPE, CHAIN_OPS), config["chain"], CHAIN_OPS, 1e6, "µs"),
        "evaluate, MLP preset": (Case(lambda _: evaluate(mlp)), config["evaluate"], 1, 1e3, "ms"),
    }
    gc.collect()
    objects = len(gc.get_objects())
    timings, pauses = {}, {"before": _full_collection_ms()}
    for state in ("before", "frozen"):
        if state == "frozen":
            freeze_shared_objects()
        for label, (case, (repeats, number, warmup), *_) in workloads.items():
            timings[label, state] = time_cases({state: case}, repeats, number, warmup)[state]
    pauses["frozen"] = _full_collection_ms()
    gc.unfreeze()

    rows = [["full collection", "ms", f"{pauses['before']:.1f}", f"{pauses['frozen']:.2f}", "",
             ""]]
    for label, (_, _, per, scale, unit) in workloads.items():
        cells = [label, unit]
        cells += [f"{timings[label, state].median / per * scale:.2f}"
                  for state in ("before", "frozen")]
        cells += [_spread_and_pauses(timings[label, state]) for state in ("before", "frozen")]
        rows.append(cells)
    print(f"objects the collector tracks after the server's imports: {objects:,}; "
          f"(repeats, calls per repeat, warm-ups) {config}\n")
    print_table(["workload", "unit", "as before", "frozen", "spread as before", "spread frozen"],
                rows)


def _spread_and_pauses(timing):
    """The spread with its verdict (engine.py's cell), and the full collections inside the
    timed calls."""
    full = timing.full_collection_seconds
    pauses = f", {len(full)} full ({statistics.median(full) * 1e3:.0f} ms)" if full else ""
    return _spread_cell(timing.spread) + pauses


if __name__ == "__main__":
    main()
