"""Shared helpers for the benchmark scripts: interleaved medians, memory probes, a table printer.

Benchmarks compare engines on a noisy shared machine, so the cases of one comparison run
interleaved (A, B, C, A, B, C, ...) rather than back to back: a slow patch of the machine then
hurts every engine alike instead of one of them.
"""

import argparse
import ctypes
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def engine_arguments(doc):
    """The command line the engine comparisons (engine.py, conv.py, models.py) share: --quick for
    a smoke run and --threads, the same BLAS and PyTorch threads for both; `doc` is the script's
    docstring, whose first line describes it. Each script adds its own options."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS and PyTorch threads, the same for both (default 1)")
    return parser


@dataclass
class Case:
    """One thing to time: ``run(state)``, with ``state = setup()`` built untimed before each run."""

    run: Callable[[Any], Any]
    setup: Callable[[], Any] | None = None


@dataclass
class Timing:
    """The seconds per call of one case over the repeats: their median and spread, and the full
    collections (garbage collector generation 2) that ran inside its timed calls."""

    samples: list[float]
    # per repeat, the seconds each full collection took
    full_collections: list[list[float]] = field(default_factory=list)

    @property
    def median(self):
        return statistics.median(self.samples)

    @property
    def spread(self):
        """How far the slowest and the fastest repeat stray from the median, as a factor >= 1."""
        return _spread(self.samples)

    @property
    def full_collection_seconds(self):
        """Every full collection's seconds, over all repeats."""
        return [seconds for repeat in self.full_collections for seconds in repeat]

    def spread_without_full_collections(self, number):
        """The spread once each repeat's full collections are taken out (``number`` calls per
        repeat): how much of the spread the collections of the whole process explain."""
        return _spread([sample - sum(collections) / number
                        for sample, collections in zip(self.samples, self.full_collections)])


def _spread(samples):
    median = statistics.median(samples)
    return max(max(samples) / median, median / min(samples))


class _FullCollections:
    """A garbage collector callback that times the full collections running while ``into`` is
    a list (the current repeat's), and ignores the others."""

    def __init__(self):
        self.into = None
        self._start = None

    def __call__(self, phase, info):
        if info["generation"] != 2 or self.into is None:
            return
        if phase == "start":
            self._start = time.perf_counter()
        elif self._start is not None:
            self.into.append(time.perf_counter() - self._start)
            self._start = None


def time_cases(cases, repeats, number=1, warmup=1, freeze_gc=False):
    """Seconds per call of each case (a Timing), repeats interleaved across cases.

    ``cases`` maps a name to a Case. Each repeat times ``number`` calls in a row (each with its own
    untimed setup) and divides by ``number``.

    By default the garbage collector runs as it does in a user's program (a notebook, the
    Streamlit server): enabled, seeing every object the process holds, including the 100,000 that
    modules such as torch create, and never collected by hand between calls, so a repeat pays for
    the collections its allocations trigger, full ones included (each Timing lists those).
    ``freeze_gc`` measures instead as earlier versions did: the objects alive before timing are
    frozen out of the collector's sight (gc.freeze) and ``gc.collect()`` runs before every timed
    call, so each collection costs only what the workload's own objects cost.
    """
    for case in cases.values():
        for _ in range(warmup):
            case.run(case.setup() if case.setup else None)
    samples = {name: [] for name in cases}
    full = {name: [] for name in cases}
    watch = _FullCollections()
    gc.collect()
    if freeze_gc:
        gc.freeze()
    gc.callbacks.append(watch)
    try:
        for _ in range(repeats):
            for name, case in cases.items():
                total = 0.0
                collections = []
                for _ in range(number):
                    state = case.setup() if case.setup else None
                    if freeze_gc:
                        gc.collect()
                    watch.into = collections
                    start = time.perf_counter()
                    case.run(state)
                    total += time.perf_counter() - start
                    watch.into = None
                samples[name].append(total / number)
                full[name].append(collections)
    finally:
        gc.callbacks.remove(watch)
        if freeze_gc:
            gc.unfreeze()
    return {name: Timing(samples[name], full[name]) for name in cases}


def median_seconds(cases, repeats, number=1, warmup=1, freeze_gc=True):
    """Median seconds per call of each case (see ``time_cases``; the collector frozen by
    default, as the other benchmark scripts expect)."""
    timings = time_cases(cases, repeats, number, warmup, freeze_gc)
    return {name: timing.median for name, timing in timings.items()}


def traced_peak_bytes(case):
    """Peak bytes that Python and NumPy allocate during one ``case.run`` (tracemalloc).

    Setup runs before tracing starts, so only the run's own allocations count. Allocators that
    bypass Python's hooks (PyTorch's, for one) are invisible here: use ``malloc_in_use`` for them.
    """
    state = case.setup() if case.setup else None
    gc.collect()
    tracemalloc.start()
    try:
        case.run(state)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]


def malloc_in_use():
    """Bytes currently allocated through glibc's malloc (all arenas), or None where unavailable.

    This sees C++ allocators built on malloc, such as PyTorch's CPU allocator, which tracemalloc
    cannot; it does not see Python's small-object arenas, which are mapped directly.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallinfo2 = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def print_table(headers, rows):
    """Print rows of strings under headers, first column left-aligned, the others right-aligned."""
    table = [list(headers)] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(headers))]

    def line(row):
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        return "  ".join(cells).rstrip()

    print(line(table[0]))
    print("  ".join("-" * width for width in widths))
    for row in table[1:]:
        print(line(row))
