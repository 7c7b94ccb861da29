"""Server-side time of a full rerun of each page, measured with Streamlit's AppTest.

For every preset and for a 200-node graph, each page is opened through its share link (a new
session), run once (cold: the model's results are computed and cached), then rerun REPEATS
times; the table shows the cold run and the median rerun. The baseline, measured in the same
process, is the bare model work the page sits on: `evaluate(spec)` plus `to_dot(result)`.
Target: a rerun of any page under 300 ms for the 200-node graph.

    python benchmarks/app.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from playground import GraphSpec, Node, presets, share  # noqa: E402
from playground.evaluate import evaluate  # noqa: E402
from playground.render import to_dot  # noqa: E402

# AppTest outside a server warns "missing ScriptRunContext" once per session: not news here.
logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    lambda record: "missing ScriptRunContext" not in record.getMessage()
)

PAGES = ("pages/build.py", "pages/graph.py", "pages/gradients.py", "pages/gradient_check.py")
TARGET_MS = 300.0
BIG_NODES = 200


def chain_spec(n_nodes: int) -> GraphSpec:
    """A deep tanh chain on 8-vectors: h = tanh(h * w_i) with a fresh input w_i per layer."""
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
        nodes.append(Node.operation(f"s{len(nodes)}", "neg", h))
        h = nodes[-1].name
    nodes.append(Node.operation("L", "sum", h))
    return GraphSpec(nodes)


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def page_times(spec: GraphSpec, page: str, repeats: int) -> tuple[float, float]:
    """(cold run, median rerun) in ms for one page opened through the graph's share link."""
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    at.query_params["graph"] = share.encode(spec)
    at.switch_page(page)
    start = time.perf_counter()
    at.run()
    cold = (time.perf_counter() - start) * 1000
    if at.exception:
        raise RuntimeError(f"{page} raised: {at.exception[0].value}")
    return cold, median_ms(at.run, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    graphs = [(p.key, p.spec) for p in presets.PRESETS]
    graphs.append((f"chain-{BIG_NODES}", chain_spec(BIG_NODES)))
    header = (f"{'graph':<26}{'nodes':>6}  {'page':<20}{'cold ms':>9}{'rerun ms':>10}"
              f"{'baseline ms':>13}{'ratio':>8}")
    print(header)
    print("-" * len(header))
    worst_big = 0.0
    for key, spec in graphs:
        baseline = median_ms(lambda spec=spec: to_dot(evaluate(spec)), args.repeats)
        for page in PAGES:
            cold, rerun = page_times(spec, page, args.repeats)
            name = Path(page).stem
            print(f"{key:<26}{len(spec):>6}  {name:<20}{cold:>9.1f}{rerun:>10.1f}"
                  f"{baseline:>13.1f}{rerun / baseline:>8.1f}")
            if len(spec) >= BIG_NODES:
                worst_big = max(worst_big, rerun)
    verdict = "met" if worst_big < TARGET_MS else "MISSED"
    print(f"\nslowest rerun of a {BIG_NODES}-node graph: {worst_big:.1f} ms "
          f"(target < {TARGET_MS:.0f} ms: {verdict})")
    print("ratio = median rerun / baseline (bare evaluate + to_dot of the same graph)")


if __name__ == "__main__":
    main()
