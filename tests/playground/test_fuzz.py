"""Fuzzing the doors of the model with hypothesis, for a bounded time: the expression parser,
`parse_value`, `GraphSpec.from_json`, `share.decode` and the display options of a link.

The promise checked: whatever comes in, the answer is a result or a SpecError, never another
exception; what is accepted evaluates (or is refused with a SpecError) within the budget, and
reads back the same. Inputs are built from the language's own pieces (names, numbers,
operators, functions, brackets, keywords) and from valid documents and links changed at random,
so the search reaches past the first syntax error. Each crash hypothesis found is a regression
case at the end of this file.
"""

from __future__ import annotations

import base64
import json
import math
import os
import zlib

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from playground import GraphSpec, SpecError, budget, limits, parse, presets, share, view
from playground.evaluate import evaluate
from playground.expr import parse_value
from playground.registry import OPS
from playground.spec import GENERATORS

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "250")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
"""Each fuzz test tries 250 inputs in the suite (a few seconds); FUZZ_EXAMPLES=5000 searches
longer, by hand."""

NAMES = ["x", "y", "w", "b", "h1", "_t", "tanh", "sum", "const", "output", "randn", "zeros",
         "__class__", "__import__", "eval", "lambda", "None", "True", "e", "pi", "nan", "inf"]
TOKENS = [*NAMES, *list(OPS)[:30], *GENERATORS, "=", "+", "-", "*", "/", "**", "@", "//", "%",
          "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=", "==", ":=", "->", "'", '"', "#",
          "\n", " ", "\t", "\\", "0", "1", "2.5", "-1", "1e308", "1e400", "10**10", "0x1f", "1_0",
          "axis=", "keepdims=", "shape=", "seed=", "value=", "True", "...", "*", "**", "lambda",
          "import", "def", "f'", "\u00a0", "\ufeff", "ｅ", "\x00"]


@st.composite
def programs(draw):
    """Text made of the language's pieces, mostly shaped like `name = expression` lines."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 4)):
            target = draw(st.sampled_from(NAMES[:6]))
            rhs = draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12))
            lines.append(f"{target} = {' '.join(rhs)}")
        else:
            lines.append("".join(draw(st.lists(st.sampled_from(TOKENS), max_size=15))))
    return "\n".join(lines)


@st.composite
def valid_programs(draw):
    """Programs that parse: a few inputs and ops of the registry applied to them."""
    lines = ["x = [1.0, -2.0, 3.0]", "y = 0.5", "W = randn(3, 3, seed=1)"]
    names = ["x", "y", "W"]
    unary = ["tanh", "exp", "log", "sqrt", "relu", "sigmoid", "sum", "mean", "softmax", "neg"]
    for i in range(draw(st.integers(1, 8))):
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        form = draw(st.integers(0, 3))
        if form == 0:
            rhs = f"{draw(st.sampled_from(unary))}({a})"
        elif form == 1:
            rhs = f"{a} {draw(st.sampled_from(['+', '-', '*', '/', '@', '**']))} {b}"
        elif form == 2:
            rhs = f"{a} ** {draw(st.sampled_from(['2', '0.5', '-1', '1000', '3.5']))}"
        else:
            rhs = f"sum({a}, axis={draw(st.sampled_from(['0', '1', '-1', '(0, 1)']))})"
        lines.append(f"n{i} = {rhs}")
        names.append(f"n{i}")
    return "\n".join(lines) + "\n"


def _either(make):
    """`make()`, or None when it raises SpecError; any other exception fails the test."""
    try:
        return make()
    except SpecError as err:
        assert str(err) and len(str(err)) < 2_000
        str(err).encode("utf-8")  # every message can be sent to a browser
        return None


def _evaluates_or_refuses(spec: GraphSpec) -> None:
    if len(spec):
        _either(lambda: budget.check_evaluation(spec) and evaluate(spec))


@FUZZ
@given(programs())
@example("x = 1.0\ny = x ** 10 ** 10")
@example("x = [1.0]\ny = x[0, 0, 0]")
def test_any_program_of_the_languages_pieces_parses_or_is_refused(text):
    spec = _either(lambda: parse(text))
    if spec is not None:
        assert parse(spec.to_text()) == spec
        _evaluates_or_refuses(spec)


@FUZZ
@given(valid_programs())
def test_valid_programs_evaluate_or_are_refused_and_read_back_the_same(text):
    spec = parse(text)
    assert parse(spec.to_text()) == spec
    assert GraphSpec.from_json(spec.to_json()) == spec
    _evaluates_or_refuses(spec)


@FUZZ
@given(st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join))
def test_any_value_of_the_languages_pieces_reads_or_is_refused(text):
    value = _either(lambda: parse_value(text))
    if value is not None:
        assert parse_value(json.dumps(value) if not isinstance(value, dict) else text) == value


JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=False), st.text(max_size=8),
                        st.sampled_from(["input", "const", "op", "tanh", "randn", "x", "y"]))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["name", "kind", "op", "operands", "attrs", "value", "fn",
                                     "shape", "seed", "version", "nodes", "output", "axis"]),
                    inner, max_size=5)), max_leaves=20)
DOCUMENTS = [p.spec.to_dict() for p in presets.PRESETS]


@st.composite
def changed_documents(draw):
    """A preset's document with one field somewhere replaced by any JSON value."""
    doc = json.loads(json.dumps(draw(st.sampled_from(DOCUMENTS))))
    target = doc
    for _ in range(draw(st.integers(0, 3))):
        if isinstance(target, dict) and target:
            key = draw(st.sampled_from(sorted(target)))
            if not isinstance(target[key], dict | list) or draw(st.booleans()):
                target[key] = draw(JSON_VALUES)
                break
            target = target[key]
        elif isinstance(target, list) and target:
            i = draw(st.integers(0, len(target) - 1))
            if not isinstance(target[i], dict | list) or draw(st.booleans()):
                target[i] = draw(JSON_VALUES)
                break
            target = target[i]
    return json.dumps(doc)


@FUZZ
@given(st.one_of(changed_documents(), JSON_VALUES.map(json.dumps), st.text(max_size=60)))
def test_any_document_loads_or_is_refused(text):
    spec = _either(lambda: GraphSpec.from_json(text))
    if spec is not None:
        assert GraphSpec.from_json(spec.to_json()) == spec
        _evaluates_or_refuses(spec)


LINKS = [share.encode(p.spec) for p in presets.PRESETS]


@st.composite
def changed_links(draw):
    """A preset's link cut, extended, with characters changed, or its packed bytes changed."""
    link = draw(st.sampled_from(LINKS))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return link[: draw(st.integers(0, len(link)))]
    if kind == 1:
        i = draw(st.integers(0, len(link) - 1))
        return link[:i] + draw(st.text(min_size=1, max_size=3)) + link[i + 1:]
    if kind == 2:
        body = link[3:]
        packed = bytearray(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        i = draw(st.integers(0, len(packed) - 1))
        packed[i] = draw(st.integers(0, 255))
        return "v1." + base64.urlsafe_b64encode(bytes(packed)).decode().rstrip("=")
    document = draw(st.one_of(changed_documents(), st.text(max_size=40)))
    packed = zlib.compress(document.encode("utf-8", "surrogatepass"))
    return "v1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@FUZZ
@given(st.one_of(changed_links(), st.text(max_size=40), st.text(max_size=40).map("v1.".__add__)))
def test_any_link_opens_or_is_refused(text):
    spec = _either(lambda: share.decode(text))
    if spec is not None:
        assert share.decode(share.encode(spec)) == spec
        _evaluates_or_refuses(spec)


PARAM_VALUES = st.one_of(st.none(), st.text(max_size=20), st.sampled_from(
    ["both", "value", "grad", "auto", "LR", "TB", "10", "40", "14", "0", "1", "²", "٣٠", " 20",
     "20.0", "1e1", "-0", "00014"]))


@FUZZ
@given(st.fixed_dictionaries({key: PARAM_VALUES for key in ("show", "dir", "font", "compact")}))
def test_any_display_options_in_a_link_give_valid_options_and_never_raise(query):
    options, ignored = view.options_from_query(query)
    assert options.show in view.SHOW_LABELS and options.rankdir in view.RANKDIR_LABELS
    assert view.FONT_SIZES[0] <= options.font_size <= view.FONT_SIZES[1]
    assert isinstance(options.compact, bool)
    assert all(len(line) < 200 for line in ignored)
    given_count = sum(v is not None for v in query.values())
    assert len(ignored) <= given_count
    again, none_ignored = view.options_from_query(options.to_query())
    assert again == options and not none_ignored


# --- regression cases: inputs the fuzzing above once broke -----------------------------------

REGRESSIONS = [
    # (door, input): each gives a result or a SpecError whose message a browser can receive.
    # Found by the app's hostile corpus (tests/app/hostile_corpus.py): a lone surrogate spelled
    # as a JSON escape reached a message that could not be sent.
    ("json", '{"version": 1, "nodes": [{"name": "\\ud800", "kind": "input", "value": 1.0}]}'),
    ("json", '{"version": 1, "nodes": [{"name": "y", "kind": "\\udfff", "value": 1.0}]}'),
    ("json", '{"version": 1, "nodes": [{"\\ud800": 1, "name": "y", "kind": "input"}]}'),
    ("link", "v1." + base64.urlsafe_b64encode(zlib.compress(
        b'{"version": 1, "nodes": [{"name": "\\ud83d", "kind": "input", "value": 1}]}'))
        .decode().rstrip("=")),
    # Duplicate keys were silently resolved (the last one won).
    ("json", '{"version": 1, "version": 1, "nodes": []}'),
]


@pytest.mark.parametrize(("door", "text"), REGRESSIONS)
def test_inputs_that_once_crashed_are_refused_or_accepted_cleanly(door, text):
    make = {"parse": parse, "value": parse_value, "json": GraphSpec.from_json,
            "link": share.decode}[door]
    result = _either(lambda: make(text))
    if isinstance(result, GraphSpec):
        _evaluates_or_refuses(result)


def test_the_fuzz_budget_stays_small():
    assert math.isfinite(limits.MAX_SECONDS)
    if "FUZZ_EXAMPLES" not in os.environ:
        assert FUZZ.max_examples * 7 <= 2_000


@pytest.mark.parametrize("text", [
    '{"version": 1, "version": 1, "nodes": []}',
    '{"version": 1, "nodes": [{"name": "x", "kind": "input", "value": 1, "value": 2}]}',
])
def test_a_document_that_repeats_a_key_is_refused(text):
    with pytest.raises(SpecError, match="twice in one object"):
        GraphSpec.from_json(text)
