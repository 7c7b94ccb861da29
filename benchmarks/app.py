"""Server-side time of a full rerun of each page, measured with Streamlit's AppTest.

For every preset and for a 200-node graph, each page is opened through its share link (a new
session) and run once, cold: the model's results are computed and cached. Then the four pages
and the baseline are rerun interleaved and the table shows each one's median. The baseline,
measured in the same process on the same graph, is the bare model work a page sits on:
`evaluate(spec)` plus `to_dot(result)`, uncached. Target: every page reruns in under 300 ms for
the 200-node graph.

The Train page is measured while it trains (`--only train` measures just that): for a few lessons
opened by their share links, a session presses Start and reruns; each rerun trains one chunk and
draws every picture. The table shows the whole rerun and, separately, its fragment (the part
`st.fragment(run_every=...)` reruns on its own, timed by wrapping `st.fragment`), against the bare
model work of one chunk in the same process: `Trainer.run` plus every picture's tables and
Vega-Lite spec. Target: a fragment rerun under 150 ms for every lesson.

    python benchmarks/app.py [--repeats 7] [--only graphs|train]
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# _timing beside us, and the repository's packages ahead of benchmarks/playground.py
for path in (str(HERE), str(ROOT)):
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)

import streamlit as st  # noqa: E402
from _timing import Case, Timing, median_seconds, print_table, time_cases  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from pages.ui import keys, training  # noqa: E402
from playground import GraphSpec, Node, presets, share  # noqa: E402
from playground.evaluate import evaluate  # noqa: E402
from playground.render import to_dot  # noqa: E402
from playground.training import Trainer, charts, pictures, settings_from_query  # noqa: E402

# AppTest outside a server warns "missing ScriptRunContext" once per session: not news here.
logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    lambda record: "missing ScriptRunContext" not in record.getMessage()
)

PAGES = ("pages/build.py", "pages/graph.py", "pages/gradients.py", "pages/gradient_check.py")
TARGET_MS = 300.0
BIG_NODES = 200
TRAIN_TARGET_MS = 150.0
TRAIN_LESSONS = {  # a name -> its share-link query
    "circles 2-4-2-1, batch 10": {},
    "moons 2-16-16-1, full batch": {"data": "moons", "layers": "16,16", "batch": "all",
                                    "opt": "adam", "lr": "0.01"},
    "spiral 7-16x4-1, full batch": {"data": "spiral", "layers": "16,16,16,16", "batch": "all",
                                    "features": "x1,x2,x1sq,x2sq,x1x2,sinx1,sinx2",
                                    "reg": "l2", "test": "1"},
}


def chain_spec(n_nodes: int) -> GraphSpec:
    """A deep tanh chain on 8-vectors, h = tanh(h * w_i) with a fresh input w_i per layer."""
    nodes = [Node.input("x", {"fn": "randn", "shape": [8], "seed": 0})]
    h = "x"
    layer = 0
    while len(nodes) + 3 < n_nodes:
        layer += 1
        nodes += [
            Node.input(f"w{layer}", {"fn": "randn", "shape": [8], "seed": layer}),
            Node.operation(f"m{layer}", "mul", h, f"w{layer}"),
            Node.operation(f"h{layer}", "tanh", f"m{layer}"),
        ]
        h = f"h{layer}"
    while len(nodes) < n_nodes - 1:
        nodes.append(Node.operation(f"n{len(nodes)}", "neg", h))
        h = nodes[-1].name
    nodes.append(Node.operation("L", "sum", h))
    return GraphSpec(nodes)


def opened(spec: GraphSpec, page: str) -> tuple[AppTest, float]:
    """A new session on `page` through the graph's share link, and its cold first run in ms."""
    at = AppTest.from_file(str(ROOT / "navigation.py"), default_timeout=300)
    at.query_params["graph"] = share.encode(spec)
    at.switch_page(page)
    start = time.perf_counter()
    at.run()
    cold = (time.perf_counter() - start) * 1000
    if at.exception:
        raise RuntimeError(f"{page} raised: {at.exception[0].value}")
    return at, cold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", choices=("graphs", "train"))
    args = parser.parse_args()
    if args.only != "train":
        graph_pages(args.repeats)
    if args.only != "graphs":
        train_page(args.repeats)


def graph_pages(repeats: int) -> None:
    """Every graph page on every preset and on the 200-node chain."""
    graphs = [(p.key, p.spec) for p in presets.PRESETS]
    graphs.append((f"chain-{BIG_NODES}", chain_spec(BIG_NODES)))
    rows, slowest_big = [], 0.0
    for key, spec in graphs:
        sessions = {Path(page).stem: opened(spec, page) for page in PAGES}
        cases = {name: Case(run=lambda _, at=at: at.run()) for name, (at, _) in sessions.items()}
        cases["baseline"] = Case(run=lambda _, spec=spec: to_dot(evaluate(spec)))
        medians = median_seconds(cases, repeats, warmup=0)
        baseline_ms = medians["baseline"] * 1000
        for name, (_, cold) in sessions.items():
            rerun_ms = medians[name] * 1000
            rows.append([key, len(spec), name, f"{cold:.1f}", f"{rerun_ms:.1f}",
                         f"{baseline_ms:.2f}", f"{rerun_ms / baseline_ms:.1f}x"])
            if len(spec) >= BIG_NODES:
                slowest_big = max(slowest_big, rerun_ms)

    print_table(["graph", "nodes", "page", "cold ms", "rerun ms", "baseline ms",
                 "rerun/baseline"], rows)
    verdict = "met" if slowest_big < TARGET_MS else "MISSED"
    print(f"\nslowest rerun of the {BIG_NODES}-node graph: {slowest_big:.1f} ms "
          f"(target < {TARGET_MS:.0f} ms: {verdict})")
    print("baseline = evaluate(spec) + to_dot(result) on the same graph, uncached; the pages "
          "reuse cached results, so a rerun can cost less than the baseline.")


@contextmanager
def timed_fragments():
    """Collect the seconds of every fragment body the script runs (st.fragment wrapped)."""
    seconds: list[float] = []
    real = st.fragment

    def fragment(func=None, **options):
        def wrap(body):
            @functools.wraps(body)
            def timed(*args, **kwargs):
                start = time.perf_counter()
                try:
                    return body(*args, **kwargs)
                finally:
                    seconds.append(time.perf_counter() - start)
            return real(timed, **options)
        return wrap(func) if func is not None else wrap

    st.fragment = fragment
    try:
        yield seconds
    finally:
        st.fragment = real


def training_session(query: dict[str, str]) -> tuple[AppTest, float]:
    """A new session on the Train page through the lesson's link, pressed Start; its cold first
    run in ms."""
    at = AppTest.from_file(str(ROOT / "navigation.py"), default_timeout=300)
    at.query_params.update(query)
    at.switch_page("pages/train.py")
    start = time.perf_counter()
    at.run()
    cold = (time.perf_counter() - start) * 1000
    at.button(key=keys.TRAIN_START).click()
    at.run()
    if at.exception or not at.session_state[keys.TRAIN_RUNNING]:
        raise RuntimeError(f"the Train page did not start training: {at.exception}")
    return at, cold


def chunk_work(trainer: Trainer) -> None:
    """The model work of one fragment rerun: a chunk of training, every table and spec."""
    trainer.run(training.DEFAULT_SPEED, budget_s=training.BUDGET_S)
    points = pictures.points_frame(trainer, trainer.settings.show_test)
    history = pictures.history_frames(trainer)
    charts.network(pictures.network_picture(trainer))
    charts.boundary(pictures.boundary_frame(pictures.boundary_values(trainer)), points,
                    points.iloc[:1], trainer.settings.regression)
    charts.loss(history["loss"])
    charts.accuracy(history["accuracy"])
    charts.gradient_norms(history["gradients"])


def train_page(repeats: int) -> None:
    """The Train page while it trains: whole reruns, their fragment, the bare model work."""
    rows, slowest = [], 0.0
    for name, query in TRAIN_LESSONS.items():
        with timed_fragments() as fragment_seconds:
            at, cold = training_session(query)
            trainer = Trainer(settings_from_query(query)[0])
            cases = {"rerun": Case(run=lambda _, at=at: at.run()),
                     "baseline": Case(run=lambda _, trainer=trainer: chunk_work(trainer))}
            steps_before = at.session_state[keys.TRAINER].steps
            fragment_seconds.clear()
            timings = time_cases(cases, repeats, warmup=0)
            steps = (at.session_state[keys.TRAINER].steps - steps_before) / repeats
            if at.exception:
                raise RuntimeError(f"the Train page raised: {at.exception[0].value}")
        fragment = Timing(list(fragment_seconds))
        baseline_ms = timings["baseline"].median * 1000
        slowest = max(slowest, fragment.median * 1000)
        rows.append([name, f"{steps:.0f}", f"{cold:.0f}",
                     f"{timings['rerun'].median * 1000:.1f}", f"{timings['rerun'].spread:.2f}x",
                     f"{fragment.median * 1000:.1f}", f"{fragment.spread:.2f}x",
                     f"{baseline_ms:.1f}", f"{fragment.median * 1000 / baseline_ms:.2f}x"])
    print()
    print_table(["lesson (while training)", "steps/rerun", "cold ms", "rerun ms", "spread",
                 "fragment ms", "spread", "baseline ms", "fragment/baseline"], rows)
    verdict = "met" if slowest < TRAIN_TARGET_MS else "MISSED"
    print(f"\nslowest fragment rerun: {slowest:.1f} ms (target < {TRAIN_TARGET_MS:.0f} ms: "
          f"{verdict})")
    print("rerun = the whole page (frame, sidebar, settings, fragment); fragment = what a rerun "
          "on the fragment's timer runs; baseline = Trainer.run of one chunk (at most "
          f"{training.DEFAULT_SPEED} steps or {training.BUDGET_S * 1000:.0f} ms) plus every "
          "picture's tables and spec, without Streamlit.")


if __name__ == "__main__":
    main()
