"""The limits, the README's table of them and the messages that enforce them stay in step.

Every constant of playground.limits has a row in the README's "Limits" table with its value;
each limit with a message is triggered here just past its value, and the message the student
gets holds the table's quoted text; the others are shown doing what their row says.
"""

from __future__ import annotations

import gc
import json
import re
import tracemalloc
from pathlib import Path

import pytest

from playground import GraphSpec, Node, budget, checks, edits, limits, parse, share
from playground.edits import History
from playground.errors import SpecError
from playground.evaluate import evaluate
from playground.memo import Memo

README = Path(__file__).resolve().parents[2] / "README.md"
LIMITS = {name: value for name, value in vars(limits).items() if name.isupper()}


def _table() -> dict[str, tuple[str, str, str]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Limits"):]
    section = section[: section.index("\n## ", 5)] if "\n## " in section[5:] else section
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\| `([A-Z_]+)` \| ([^|]+) \| ([^|]+) \| (.+) \|$", line)
        if match:
            rows[match.group(1)] = (match.group(2).strip(), match.group(3), match.group(4))
    return rows


def _quoted(cell: str) -> str | None:
    match = re.search(r'"([^"]+)"', cell)
    return match.group(1).replace("…", "") if match else None


def _refused(make) -> str:
    with pytest.raises(SpecError) as caught:
        make()
    return str(caught.value)


def _sum(terms: int) -> str:
    return "a = 1.0\nb = " + " + ".join(["a"] * terms)


TRIGGERS = {
    "MAX_TEXT_CHARS": lambda: parse("#" * (limits.MAX_TEXT_CHARS + 1)),
    "MAX_BRACKET_DEPTH": lambda: parse("x = " + "(" * (limits.MAX_BRACKET_DEPTH + 1) + "1"
                                       + ")" * (limits.MAX_BRACKET_DEPTH + 1)),
    "MAX_EXPR_DEPTH": lambda: parse(_sum(limits.MAX_EXPR_DEPTH + 1)),
    "MAX_CONST_EXPONENT": lambda: parse(f"x = 1.0\ny = x ** {limits.MAX_CONST_EXPONENT + 1}"),
    "MAX_EQUATION_CHARS": lambda: parse(
        "a = ones(2)\nb = einsum(a, equation='" + "i" * (limits.MAX_EQUATION_CHARS + 1) + "')"),
    "MAX_NODES": lambda: parse("x = 1.0\n" + "".join(
        f"h{i} = sin({'x' if i == 0 else f'h{i - 1}'})\n" for i in range(limits.MAX_NODES))),
    "MAX_NAME_CHARS": lambda: parse("a" * (limits.MAX_NAME_CHARS + 1) + " = 1.0"),
    "MAX_NDIM": lambda: parse("x = ones(" + ", ".join(["1"] * (limits.MAX_NDIM + 1)) + ")"),
    "MAX_ELEMENTS": lambda: parse(f"x = zeros({limits.MAX_ELEMENTS + 1})"),
    "MAX_TOTAL_ELEMENTS": lambda: GraphSpec([
        Node.input(f"x{i}", {"fn": "zeros", "shape": [limits.MAX_ELEMENTS]})
        for i in range(limits.MAX_TOTAL_ELEMENTS // limits.MAX_ELEMENTS + 1)]),
    "MAX_GRAPH_ELEMENTS": lambda: evaluate(parse("x = zeros(1000, 1000)\n" + "".join(
        f"h{i} = tanh({'x' if i == 0 else f'h{i - 1}'})\n" for i in range(4)))),
    "MAX_WORK": lambda: evaluate(parse(
        "a = randn(1000, 1000, seed=0)\nm0 = a @ a\nm1 = m0 @ a\n")),
    "MAX_LITERAL_NUMBERS": lambda: GraphSpec([
        Node.input("a", [0.5] * (limits.MAX_LITERAL_NUMBERS // 2)),
        Node.const("b", [0.5] * (limits.MAX_LITERAL_NUMBERS // 2 + 1))]),
    "MAX_OPERANDS": lambda: Node.operation("s", "stack", *["a"] * (limits.MAX_OPERANDS + 1)),
    "MAX_EDGES": lambda: GraphSpec([Node.input("a", 1.0), *[
        Node.operation(f"s{i}", "stack", *["a"] * limits.MAX_OPERANDS)
        for i in range(limits.MAX_EDGES // limits.MAX_OPERANDS)],
        Node.operation("t", "stack", *["a"] * (limits.MAX_EDGES % limits.MAX_OPERANDS + 1))]),
    "MAX_SEED": lambda: parse(f"x = randn(3, seed={limits.MAX_SEED + 1})"),
    "MAX_JSON_CHARS": lambda: GraphSpec.from_json(" " * (limits.MAX_JSON_CHARS + 1)),
    "MAX_SHARE_CHARS": lambda: share.decode("v1." + "A" * limits.MAX_SHARE_CHARS),
    "FD_MAX_ELEMENTS": lambda: checks.gradient_check(
        parse(f"x = zeros({limits.FD_MAX_ELEMENTS + 1})\nL = sum(x)")),
    "MAX_CHECK_WORK": lambda: budget.finite_difference_count(
        [limits.MAX_CHECK_WORK], 2, "the gradient check"),
}


def test_every_limit_has_a_row_with_its_value():
    table = _table()
    assert set(table) == set(LIMITS), "README's Limits table and playground/limits.py differ"
    for name, value in LIMITS.items():
        written = f"{value:,}" if isinstance(value, int) else f"{value:g}"
        assert table[name][0].startswith(written), (name, table[name][0], written)


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_a_limit_one_past_its_value_is_refused_with_the_tables_message(name):
    quoted = _quoted(_table()[name][2])
    assert quoted, f"the README gives no message for {name}"
    assert quoted in _refused(TRIGGERS[name])


def test_the_wall_clock_limit_says_its_seconds(monkeypatch):
    deadline = budget.Deadline("evaluating the graph")
    clock = iter([1e12])
    monkeypatch.setattr(budget.time, "monotonic", lambda: next(clock))
    assert _quoted(_table()["MAX_SECONDS"][2]) in _refused(deadline.check)


def test_a_sweep_samples_at_most_its_elements_and_says_how_many():
    sweep = checks.epsilon_sweep(parse(f"x = randn({limits.SWEEP_MAX_ELEMENTS * 2}, seed=0)\n"
                                       "L = sum(x * x)"))
    assert sweep.attrs["elements"] == limits.SWEEP_MAX_ELEMENTS


def test_a_check_over_its_work_compares_fewer_elements_and_says_so():
    table = checks.gradient_check(parse("x = randn(1000, seed=0)\na = reshape(x, shape=(1000, 1))"
                                        "\nb = reshape(x, shape=(1, 1000))\nL = sum(tanh(a * b))"))
    assert table.attrs["checked"] < table.attrs["elements"]


def test_the_history_forgets_its_oldest_step_silently():
    history = History(parse("x = 0.0"))
    for i in range(1, limits.MAX_HISTORY + 5):
        history = history.push(parse(f"x = {i}.0"))
    assert len(history.past) == limits.MAX_HISTORY


def _numbers(count: int, first: float) -> GraphSpec:
    return GraphSpec([Node.input("x", [first] + [0.5] * (count - 1))])


def test_the_history_keeps_at_most_its_bytes_and_forgets_the_oldest_first():
    pushed = [_numbers(50_000, i) for i in range(30)]
    assert pushed[0].nbytes == 500 + 32 * 50_000
    history = History(pushed[0])
    for spec in pushed[1:]:
        history = history.push(spec)
    kept = (*history.past, history.current)
    assert kept == tuple(pushed[-10:])  # 10 of 1,600,500 bytes fit in 16 MiB, 11 do not
    assert sum(s.nbytes for s in kept) <= limits.MAX_HISTORY_BYTES


def test_the_largest_graph_always_fits_and_three_of_them_fill_the_history():
    history = History(parse("x = 1.0"))
    for i in range(5):
        history = history.push(parse(f"x = {i}.5"))
    largest = GraphSpec([Node.input("x", [0.5] * limits.MAX_LITERAL_NUMBERS), *[
        Node.operation(f"s{i}", "stack", *["x"] * 3) for i in range(limits.MAX_NODES - 1)]])
    assert largest.nbytes == 500 * 2_000 + 8 * 5_997 + 32 * 100_000  # 4.25 MB
    versions = [edits.set_value(largest, "x", [float(i)] * 100_000) for i in range(4)]
    for spec in versions:
        history = history.push(spec)
    assert history.past == tuple(versions[1:3])  # a fourth would pass 16 MiB: the rest went
    history = history.undo().undo()
    assert history.current == versions[1] and not history.can_undo


@pytest.mark.parametrize("make", [
    lambda: parse("x = 1.0\n" + "".join(f"h{i} = sin({'x' if i == 0 else f'h{i - 1}'})\n"
                                            for i in range(1_999))),
    lambda: GraphSpec.from_json(json.dumps({"version": 1, "nodes": [
        {"name": "x", "kind": "input", "value": [[i * 0.1 + j for i in range(100)]
                                                 for j in range(1_000)]}]})),
    lambda: GraphSpec([Node.input("a", 1.0), *[Node.operation(f"s{i}", "stack", *["a"] * 200)
                                                for i in range(20)]]),
])
def test_a_graphs_estimated_bytes_are_within_a_third_of_what_it_takes(make):
    gc.collect()
    tracemalloc.start()
    try:
        spec = make()
        taken = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert 0.67 * taken <= spec.nbytes <= 1.5 * taken, (spec.nbytes, taken)


def test_the_cache_never_keeps_more_than_its_bytes():
    memo = Memo(max_bytes=limits.CACHE_BYTES // 100_000)
    for key in range(1_000):
        memo.get(key, lambda: "x" * 50)
    assert 0 < memo.nbytes <= memo.max_bytes < len(memo) * 1_000
