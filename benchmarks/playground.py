"""Playground benchmarks: the model layer's cost over the engine and Python's own parser.

Run from the repository root:
    python benchmarks/playground.py [--repeats N]

Every number is the median of several repeats, and each row's baseline is measured in the same
run, interleaved with it, so a slow moment of the machine hurts both alike:
- evaluate of a 500-node graph against the same graph written directly with the engine (every
  intermediate keeping its gradient, as evaluate's do), target well under 100 ms;
- parse of a 10,000-character program against ``ast.parse`` of the same text (parse calls
  ast.parse and then checks and converts every node);
- gradient_check of the MLP preset against one evaluate of it;
- gradient_check of a 55-node chain against the naive check that reruns the whole graph for
  every perturbed element (gradient_check reruns only the steps after the moved input);
- share encode + decode of the MLP preset against a JSON round trip with the same validation;
- to_dot of the 500-node result against the evaluate that produced it.
"""

import argparse
import ast
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# The repository first, so `playground` is the package and not this script of the same name;
# benchmarks/ after it, for _timing.
sys.path.insert(0, str(HERE.parent))
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

from _timing import Case, median_seconds, print_table  # noqa: E402

import autograd as ag  # noqa: E402
from playground import GraphSpec, evaluate, gradient_check, parse  # noqa: E402
from playground.evaluate import apply_node, forward  # noqa: E402
from playground.presets import get  # noqa: E402
from playground.render import to_dot  # noqa: E402
from playground.share import decode, encode  # noqa: E402

NODES = 500
LAYERS = 99  # x, then 5 nodes per layer, then 4 for the loss: 1 + 5 * 99 + 4 = 500
WIDTH = 16
PROGRAM_CHARS = 10_000
TARGET_MS = 100.0


def chain_program(layers: int) -> str:
    """h_i = tanh(h_{i-1} * w_i + b_i) on WIDTH-vectors, then L = sqrt(sum((h - x)^2))."""
    lines = [f"x = randn({WIDTH}, seed=0)"]
    h = "x"
    for i in range(1, layers + 1):
        lines += [
            f"w{i} = randn({WIDTH}, seed={i})",
            f"b{i} = randn({WIDTH}, seed={1000 + i})",
            f"m{i} = {h} * w{i}",
            f"a{i} = m{i} + b{i}",
            f"h{i} = tanh(a{i})",
        ]
        h = f"h{i}"
    lines += [f"d = {h} - x", "sq = d * d", "s = sum(sq)", "L = sqrt(s)"]
    return "\n".join(lines) + "\n"


def engine_chain(layers: int):
    """The same graph written directly with the engine: no spec, no registry, no Result."""
    x = ag.tensor(np.random.default_rng(0).standard_normal(WIDTH), requires_grad=True)
    leaves, kept = [x], []
    h = x
    for i in range(1, layers + 1):
        w = ag.tensor(np.random.default_rng(i).standard_normal(WIDTH), requires_grad=True)
        b = ag.tensor(np.random.default_rng(1000 + i).standard_normal(WIDTH), requires_grad=True)
        m = h * w
        a = m + b
        h = ag.tanh(a)
        leaves += [w, b]
        kept += [m, a, h]
    d = h - x
    sq = d * d
    s = ag.sum(sq)
    loss = ag.sqrt(s)
    kept += [d, sq, s, loss]
    for t in kept:
        t.retain_grad()
    loss.backward()
    return leaves, kept


def long_program(chars: int) -> str:
    """A program of at least ``chars`` characters, written the way a student writes: nested
    expressions whose steps become generated nodes."""
    lines, i = ["x = randn(8, seed=0)"], 0
    while sum(len(line) + 1 for line in lines) < chars:
        i += 1
        prev = "x" if i == 1 else f"h{i - 1}"
        lines += [f"w{i} = randn(8, seed={i})", f"h{i} = tanh({prev} * w{i} + 0.1) ** 2"]
    return "\n".join(lines) + "\n"


def naive_numeric(spec: GraphSpec) -> list[float]:
    """Central differences that rerun every op of the graph for each perturbed element."""
    output = spec.effective_output
    slopes = []
    with ag.no_grad():
        tensors = forward(spec)

        def rerun() -> float:
            for node in spec.nodes:
                if node.kind == "op":
                    tensors[node.name] = apply_node(node, [tensors[o] for o in node.operands])
            return float(np.sum(tensors[output].data))

        for name in spec.names_of("input"):
            array = tensors[name].data  # moved in place: every op reads it afresh
            for index in np.ndindex(*array.shape):
                original = array[index]
                array[index] = original + 1e-6
                plus = rerun()
                array[index] = original - 1e-6
                minus = rerun()
                array[index] = original
                slopes.append((plus - minus) / 2e-6)
    return slopes


def check_agreement(spec: GraphSpec) -> None:
    """Stop when evaluate and the hand-written engine code disagree: never time a wrong answer."""
    result = evaluate(spec)
    leaves, kept = engine_chain(LAYERS)
    ours = [result.grad(n) for n in spec.names_of("input")] + [
        result.grad(n) for n in spec.names_of("op")
    ]
    theirs = [t.grad.data for t in leaves + kept]
    for got, want in zip(ours, theirs, strict=True):
        if not np.allclose(got, want, rtol=1e-12, atol=1e-12):
            sys.exit("check failed: evaluate and the engine disagree on the 500-node graph")


def ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 100 else f"{value:,.0f}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)

    chain = parse(chain_program(LAYERS))
    if len(chain) != NODES:
        sys.exit(f"the chain graph has {len(chain)} nodes, not {NODES}")
    check_agreement(chain)
    program = long_program(PROGRAM_CHARS)
    mlp = get("mlp").spec
    short_chain = parse(chain_program(10))
    if not np.allclose(gradient_check(short_chain)["numeric"], naive_numeric(short_chain),
                       rtol=1e-9, atol=1e-9):
        sys.exit("check failed: gradient_check and the naive check disagree")
    chain_result = evaluate(chain)

    groups = [
        ("evaluate, 500 nodes", "engine directly", {
            "ours": Case(lambda _: evaluate(chain)),
            "base": Case(lambda _: engine_chain(LAYERS)),
        }),
        (f"parse, {len(program):,} chars ({len(parse(program))} nodes)", "ast.parse", {
            "ours": Case(lambda _: parse(program)),
            "base": Case(lambda _: ast.parse(program)),
        }),
        (f"gradient_check, MLP preset ({len(gradient_check(mlp))} elements)", "evaluate", {
            "ours": Case(lambda _: gradient_check(mlp)),
            "base": Case(lambda _: evaluate(mlp)),
        }),
        (f"gradient_check, {len(short_chain)}-node chain "
         f"({len(gradient_check(short_chain))} elements)", "full rerun per side", {
            "ours": Case(lambda _: gradient_check(short_chain)),
            "base": Case(lambda _: naive_numeric(short_chain)),
        }),
        (f"share encode+decode, MLP ({len(encode(mlp))} chars)", "JSON round trip", {
            "ours": Case(lambda _: decode(encode(mlp))),
            "base": Case(lambda _: GraphSpec.from_json(mlp.to_json())),
        }),
        ("to_dot, 500-node result", "its evaluate", {
            "ours": Case(lambda _: to_dot(chain_result)),
            "base": Case(lambda _: evaluate(chain)),
        }),
    ]
    rows = []
    for label, baseline, cases in groups:
        medians = median_seconds(cases, args.repeats)
        ours, base = medians["ours"], medians["base"]
        target, verdict = "—", "—"
        if label.startswith("evaluate"):
            target = f"< {TARGET_MS:.0f} ms"
            verdict = "PASS" if ours * 1000 < TARGET_MS else "MISS"
        rows.append([label, ms(ours), baseline, ms(base), f"{ours / base:.2f}×", target, verdict])
    print(f"medians of {args.repeats} interleaved repeats, times in ms\n")
    print_table(["case", "ours ms", "baseline", "baseline ms", "ratio", "target", "result"], rows)


if __name__ == "__main__":
    main()
