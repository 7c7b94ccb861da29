"""Hostile input: code execution attempts, huge sizes, deep nesting, broken documents and links.

Each is refused with a SpecError that says what is wrong; nothing is ever run, and no other
exception escapes. Fuzz tests check that last promise on text nobody wrote by hand.
"""

import base64
import builtins
import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground import limits
from playground.errors import SpecError
from playground.expr import parse, parse_value
from playground.share import decode, encode
from playground.spec import GraphSpec, Node

EXPRESSIONS = [
    ("x = __import__('os').system('touch /tmp/pwned')", "attribute access is not allowed"),
    ("x = __import__('os')", "names with two underscores are not allowed"),
    ("x = ().__class__.__bases__", "attribute access is not allowed"),
    ("().__class__.__bases__[0].__subclasses__()", "a line must be an assignment"),
    ("x = __builtins__", "names with two underscores are not allowed"),
    ("__x = 1.0", "starts with two underscores"),
    ("x = eval('1')", "`eval` — not a function of the language"),
    ("x = exec('import os')", "`exec` — not a function of the language"),
    ("x = open('f')", "`open` — not a function of the language"),
    ("x = getattr(y, 'z')", "`getattr` — not a function of the language"),
    ("import os", "imports are not allowed"),
    ("from os import system", "imports are not allowed"),
    ("x = lambda: 0", "lambdas are not allowed"),
    ("x = [i for i in range(9)]", "comprehensions are not allowed"),
    ("x = {i: i for i in range(9)}", "comprehensions are not allowed"),
    ("x = sum(i for i in range(9))", "comprehensions are not allowed"),
    ("x = 1.0\ny = x.real", "attribute access is not allowed"),
    ("x = 1.0\ny = tanh.__call__(x)", "attribute access is not allowed"),
    ("x = 1.0\ny = x[::2]", "slices are not supported"),
    ("x = 1.0\ny = x[0:1]", "slices are not supported"),
    ("x = 1.0\ny = x[...]", "index with whole numbers"),
    ("x = 1.0\ny = sum(x, **{'axis': 0})", "`**` unpacking is not allowed"),
    ("x = 1.0\ny = sum(*[x])", "`*` unpacking is not allowed"),
    ("x = 1.0\ny = (z := x)", "`:=` is not allowed"),
    ("x = f'{1}'", "text in quotes is not a value"),
    ("x = b'1'", "text in quotes is not a value"),
    ("x = ...", "this is not a number"),
    ("x = 1.0\ny = x(x)", "`x` — not a function of the language"),
    ("x = 1.0\ny = (x)(x)", "`x` — not a function of the language"),
    ("x = 1.0\ny = [tanh][0](x)", "only functions called by name are allowed"),
    ("class A: pass", "defining classes is not allowed"),
    ("with open('f') as f: pass", "`with` blocks are not allowed"),
    ("try:\n    x = 1\nexcept: pass", "`try` blocks are not allowed"),
    ("global x", "`global` is not part of the language"),
    ("x = 1.0\nassert x", "`assert` is not part of the language"),
    ("async def f(): pass", "defining functions is not allowed"),
    ("x = 1.0\ny = x ** 1e308", "constant exponents are limited"),
    ("x = 1e400", "not a finite number"),
    ("x = " + "9" * 5000, "not valid syntax (Exceeds the limit (4300 digits)"),
    ("x = randn(1000, 1001)", "1,001,000 elements, more than the limit of 1,000,000"),
    ("x = zeros(100000, 100000, 100000)", "more than the limit"),
    ("x = ones(" + ", ".join(["1"] * 9) + ")", "more than 8 dimensions"),
    ("x = randn(3, seed=-1)", "the seed of randn must be a whole number"),
    ("x = randn(3, seed=2 ** 64)", "the value of `seed` must be written out"),
    ("x = 1.0\ny = sum(x, axis=10 ** 100)", "the value of `axis` must be written out"),
    ("x = 1.0\ny = x[10 ** 100]", "index with whole numbers written out"),
    ("x = 1.0\ny = x[" + "9" * 30 + "]", "far outside any tensor"),
    ("x = 1.0\ny = broadcast_to(x, shape=(99999, 99999))", "more than 1,000,000 elements"),
    ("y = " + "(" * 10_000 + "1" + ")" * 10_000, "brackets are nested more than 40 deep"),
    ("y = " + "[" * 41 + "]" * 41, "brackets are nested more than 40 deep"),
    ("y = " + "+".join(["x"] * 20_000), "nested too deeply to read"),
    ("y = " + "-" * 40_000 + "x", "nested too deeply to read"),
    ("y = " + "**".join(["x"] * 10_000), "nested too deeply to read"),
    ("x = 1.0\ny = " + "+".join(["x"] * 150), "line 2, column 1: this line is nested more than"),
    ("x = 1.0\ny = " + "tanh(" * 39 + "x" + ")" * 39 + " + x" * 70, "nested more than 100"),
    ("x = 1.0\n" * 7_000, "56,000 characters, more than the limit of 50,000"),
    ("#" * 1_000_000, "1,000,000 characters, more than the limit of 50,000"),
    ("x = 1\x00", "not valid syntax"),
    ("x = 1.0\ny = x\u2028+ 1", "not valid syntax"),
    ("\ufeffx = 'é'", "text in quotes is not a value"),
    (b"x = 1.0", "the program must be text, not bytes"),
    (None, "the program must be text, not NoneType"),
]


@pytest.mark.parametrize(("text", "fragment"), EXPRESSIONS)
def test_hostile_expressions_are_refused_with_a_clear_error(text, fragment):
    with pytest.raises(SpecError) as info:
        parse(text)
    assert fragment in str(info.value)


@pytest.fixture
def no_eval(monkeypatch):
    """eval and exec fail the test if called, so a test proves user text never reaches them."""

    def forbidden(*args, **kwargs):
        raise AssertionError("user text reached eval or exec")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)


def test_nothing_a_program_says_is_ever_run(tmp_path, no_eval):
    marker = tmp_path / "pwned"
    for text, _ in EXPRESSIONS[:12]:
        if isinstance(text, str):
            with pytest.raises(SpecError):
                parse(text.replace("/tmp/pwned", str(marker)))
    assert parse("x = 1.0\ny = tanh(x) * 2").names == ("x", "tanh_1", "c_1", "y")
    assert not marker.exists()


VALUES = [
    ("__import__('os').system('touch /tmp/pwned')", "this is not a number, a list or a generator"),
    ("eval('1')", "this is not a number, a list or a generator"),
    ("open('f')", "this is not a number, a list or a generator"),
    ("().__class__.__bases__", "this is not a number, a list or a generator"),
    ("[i for i in range(9)]", "this is not a number, a list or a generator"),
    ("lambda: 0", "this is not a number, a list or a generator"),
    ("[1] * 10 ** 9", "this is not a number, a list or a generator"),
    ("import os", "type just one value"),
    ("[1]\nimport os", "type just one value"),
    ("x = [1]", "type just one value"),
    ("[" * 41 + "]" * 41, "brackets are nested more than 40 deep"),
    ("-" * 40_000 + "1", "nested too deeply to read"),
    ("-" * 150 + "1", "nested more than 100 levels deep"),
    ("9" * 5000, "not valid syntax (Exceeds the limit (4300 digits)"),
    ("randn(1000, 1001)", "1,001,000 elements, more than the limit of 1,000,000"),
    ("[" + "0, " * 20_000 + "0]", "60,003 characters, more than the limit of 50,000"),
    (b"[1]", "the value must be text, not bytes"),
    (None, "the value must be text, not NoneType"),
]


@pytest.mark.parametrize(("text", "fragment"), VALUES)
def test_hostile_values_are_refused_with_a_clear_error(text, fragment):
    with pytest.raises(SpecError) as info:
        parse_value(text)
    assert fragment in str(info.value)


def test_nothing_a_typed_value_says_is_ever_run(tmp_path, no_eval):
    marker = tmp_path / "pwned"
    for text, _ in VALUES[:10]:
        with pytest.raises(SpecError):
            parse_value(text.replace("/tmp/pwned", str(marker)))
    assert parse_value("[[1, 2], [3, 4]]") == [[1.0, 2.0], [3.0, 4.0]]
    assert not marker.exists()


def test_list_arithmetic_is_elementwise_maths_not_python_list_repetition():
    spec = parse("x = [0] * 10 ** 9")
    assert [(n.name, n.kind, n.op or n.value) for n in spec.nodes] == [
        ("c_1", "const", [0.0]),
        ("c_2", "const", 10.0),
        ("c_3", "const", 9.0),
        ("pow_1", "op", "pow"),
        ("x", "op", "mul"),
    ]


def test_a_tower_of_powers_is_a_graph_of_floats_not_a_python_computation():
    spec = parse("x = 2 ** 10 ** 10")
    assert [(n.name, n.op or n.value) for n in spec.nodes] == [
        ("c_1", 2.0),
        ("c_2", 10.0),
        ("c_3", 10.0),
        ("pow_1", "pow"),
        ("x", "pow"),
    ]
    assert spec["x"].operands == ("c_1", "pow_1")


def doc(*nodes, **top):
    return json.dumps({"version": 1, "nodes": list(nodes), **top})


LEAF = {"name": "a", "kind": "input", "value": 1.0}

DOCUMENTS = [
    ("", "not valid JSON: Expecting value"),
    ("{", "not valid JSON"),
    ('{"version": 1, "nodes": [}', "not valid JSON"),
    ("{'version': 1}", "not valid JSON"),
    ("null", "must be a JSON object"),
    ("\"__import__('os')\"", "must be a JSON object"),
    ('{"version": 0, "nodes": []}', "has version 0, but this playground reads version 1"),
    ('{"version": 99, "nodes": []}', "has version 99"),
    ('{"version": 1.0, "nodes": []}', "version 1.0"),
    (doc({"name": "a", "kind": "op", "op": "system", "operands": []}), "unknown op `system`"),
    (doc({"name": "a", "kind": "op", "op": "__import__", "operands": []}), "unknown op"),
    (doc({"name": "__class__", "kind": "input", "value": 1}), "two underscores"),
    (doc({"name": "a b", "kind": "input", "value": 1}), "`a b` is not a valid name"),
    (doc(LEAF, LEAF), "the name `a` is used by two nodes"),
    (doc({"name": "b", "kind": "op", "op": "neg", "operands": ["zz"]}), "operand `zz` is not"),
    (
        doc(
            {"name": "b", "kind": "op", "op": "neg", "operands": ["c"]},
            {"name": "c", "kind": "op", "op": "neg", "operands": ["b"]},
        ),
        "the graph has a cycle b → c → b",
    ),
    (doc(LEAF, {"name": "b", "kind": "op", "op": "add", "operands": ["a"]}), "takes 2 operands"),
    (
        doc(LEAF, {"name": "b", "kind": "op", "op": "sum", "operands": ["a"], "attrs": []}),
        "must be a mapping",
    ),
    (
        doc(LEAF, {"name": "b", "kind": "op", "op": "sum", "operands": ["a"], "attrs": {"f": 1}}),
        "sum has no attribute `f`",
    ),
    (doc({"name": "a", "kind": "input", "value": [1, [2]]}), "ragged"),
    (doc({"name": "a", "kind": "input", "value": [[1, 2], [3, "x"]]}), "the list holds 'x'"),
    (
        doc({"name": "a", "kind": "input", "value": {"fn": "eval", "shape": []}}),
        "unknown generator",
    ),
    (
        doc({"name": "a", "kind": "input", "value": {"fn": "randn", "shape": [10**9]}}),
        "more than the limit of 1,000,000",
    ),
    ('{"version": 1, "nodes": [{"name": "a", "kind": "input", "value": NaN}]}', "holds NaN"),
    ('{"version": 1, "nodes": [{"name": "a", "kind": "input", "value": Infinity}]}', "Infinity"),
    (doc(*[{"name": f"a{i}", "kind": "input", "value": 1} for i in range(2001)]), "2,001 nodes"),
    ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
    (" " * (limits.MAX_JSON_CHARS + 1), "more than the limit of 4,000,000"),
]


@pytest.mark.parametrize(("text", "fragment"), DOCUMENTS)
def test_hostile_documents_are_refused_with_a_clear_error(text, fragment):
    with pytest.raises(SpecError) as info:
        GraphSpec.from_json(text)
    assert fragment in str(info.value)


GOOD_LINK = encode(
    GraphSpec.from_json(doc(LEAF, {"name": "b", "kind": "op", "op": "tanh", "operands": ["a"]}))
)


def link(raw: bytes) -> str:
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def flipped(text: str, position: int) -> str:
    replacement = "A" if text[position] != "A" else "B"
    return text[:position] + replacement + text[position + 1 :]


LINKS = [
    ("", "this is not a share link; a share link starts with v1."),
    ("hello", "this is not a share link"),
    ("https://example.org/?g=v1.abc", "this is not a share link"),
    ("v3.eNqrVg", "made by another version of the playground (v3)"),
    ("v1.", "damaged"),
    ("v1.a", "damaged"),
    ("v1.abc$def", "holds characters that links never contain"),
    ("v1.abc def", "holds characters that links never contain"),
    ("v1.abc=", "holds characters that links never contain"),
    (GOOD_LINK[:-5], "damaged"),
    (GOOD_LINK[: len(GOOD_LINK) // 2], "damaged"),
    (flipped(GOOD_LINK, len(GOOD_LINK) // 2), "damaged"),
    (GOOD_LINK + "AAAA", "damaged"),
    (link(b"not zlib at all"), "damaged"),
    (link(zlib.compress(b"\xff\xfe\xfd")), "damaged"),
    (link(zlib.compress(b"{not json")), "not valid JSON"),
    (link(zlib.compress(b'{"version": 7, "nodes": []}')), "has version 7"),
    (
        link(zlib.compress(doc({"name": "a", "kind": "op", "op": "rm", "operands": []}).encode())),
        "unknown op `rm`",
    ),
    (link(zlib.compress(b" " * 10_000_000, 9)), "unpacks to more than 4,000,000 bytes"),
    ("v1." + "A" * (limits.MAX_SHARE_CHARS + 1),
     f"more than the limit of {limits.MAX_SHARE_CHARS:,}"),
    (12345, "a share link is text, not int"),
]


@pytest.mark.parametrize(("text", "fragment"), LINKS)
def test_hostile_share_links_are_refused_with_a_clear_error(text, fragment):
    with pytest.raises(SpecError) as info:
        decode(text)
    assert fragment in str(info.value)


def test_the_decompression_bomb_fits_in_a_link_yet_is_refused():
    bomb = link(zlib.compress(b" " * 10_000_000, 9))
    assert len(bomb) < limits.MAX_SHARE_CHARS
    with pytest.raises(SpecError, match="unpacks to more than"):
        decode(bomb)


def test_a_link_is_never_inflated_past_the_documents_bound(monkeypatch):
    inflated = []
    original = zlib.decompressobj

    class Counting:
        def __init__(self):
            self.inner = original()

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def decompress(self, data, max_length=0):
            out = self.inner.decompress(data, max_length)
            inflated.append(len(out))
            return out

    monkeypatch.setattr(zlib, "decompressobj", Counting)
    with pytest.raises(SpecError, match="unpacks to more than 4,000,000 bytes"):
        decode(link(zlib.compress(b" " * 10_000_000, 9)))
    assert sum(inflated) == limits.MAX_JSON_CHARS + 1  # of 10,000,000


# --- Costs no other limit counted (issue 28): edges and numbers written out -------------------


def compact_link(*nodes) -> str:
    return link(zlib.compress(json.dumps({"version": 1, "nodes": list(nodes)},
                                         separators=(",", ":")).encode(), 9))


def stacks(count: int, operands: int) -> list[dict]:
    return [{"name": f"s{i}", "kind": "op", "op": "stack", "operands": ["a"] * operands}
            for i in range(count)]


def built(nodes: list[dict], seen: list[str]):
    """The nodes of a document as Nodes, built one at a time as a graph reads them (each name
    goes into ``seen`` as it is built)."""
    for position, data in enumerate(nodes, 1):
        seen.append(data["name"])
        yield Node.from_dict(data, position)


def test_a_link_of_400_stacks_each_reading_one_input_2000_times_is_refused_at_its_first():
    edges = compact_link(LEAF, *stacks(400, 2_000))
    assert len(edges) < 7_000
    with pytest.raises(SpecError) as info:
        decode(edges)
    assert info.value.node == "s0"
    assert info.value.problem == (
        "stack reads 2,000 operands, more than the limit of 256 for one node")


def test_the_edges_of_a_graph_count_together_and_the_graph_stops_where_they_pass_the_limit():
    seen: list[str] = []
    with pytest.raises(SpecError) as info:
        GraphSpec(built([LEAF, *stacks(100, 250)], seen))
    assert info.value.node == "s24"  # 24 stacks read 6,000; the 25th passes the limit
    assert "read 6,250 operands together, more than the limit of 6,000 edges" in str(info.value)
    assert seen[-1] == "s24" and len(seen) == 26  # the 75 stacks after it were never built


def test_a_graph_at_every_edge_limit_is_accepted():
    last = {"name": "t", "kind": "op", "op": "stack", "operands": ["a"] * 112}
    spec = GraphSpec.from_json(doc(LEAF, *stacks(23, 256), last))
    assert sum(len(n.operands) for n in spec) == limits.MAX_EDGES
    assert max(len(n.operands) for n in spec) == limits.MAX_OPERANDS


def test_a_5_kb_link_of_999000_numbers_is_refused_from_the_lists_shape():
    numbers = compact_link({"name": "a", "kind": "input", "value": [1.5] * 999_000})
    assert len(numbers) < 6_000
    with pytest.raises(SpecError) as info:
        decode(numbers)
    assert info.value.node == "a"
    assert info.value.problem.startswith(
        "the list holds 999,000 numbers written out, more than the limit of 100,000 for one "
        "graph; use a generator such as randn(1000, 1000, seed=0)")
    # its numbers are never read: a word at the end would be named if they were
    with pytest.raises(SpecError, match="the list holds 999,000 numbers"):
        GraphSpec.from_json(json.dumps({"version": 1, "nodes": [
            {"name": "a", "kind": "input", "value": [1.5] * 998_999 + ["x"]}]},
            separators=(",", ":")))


def test_the_numbers_of_all_values_count_together_and_the_graph_stops_where_they_pass():
    seen: list[str] = []
    lists = [{"name": name, "kind": "const", "value": [[0.5] * 300] * 200} for name in "bcde"]
    with pytest.raises(SpecError) as info:
        GraphSpec(built([LEAF, *lists], seen))
    assert info.value.node == "c"
    assert ("the graph's values up to this node hold 120,001 numbers written out, more than the "
            "limit of 100,000") in str(info.value)
    assert seen == ["a", "b", "c"]


def test_numbers_at_the_limit_are_accepted_and_generators_are_not_numbers_written_out():
    spec = GraphSpec.from_json(doc({"name": "a", "kind": "input", "value": [0.5] * 99_999},
                                   {"name": "b", "kind": "const", "value": 2.0},
                                   {"name": "g", "kind": "input",
                                    "value": {"fn": "randn", "shape": [1000, 1000]}}))
    assert [n.name for n in spec] == ["a", "b", "g"]


# --- Fuzzing: whatever arrives, the answer is a GraphSpec or a SpecError -----------------------

_TOKENS = [
    "x",
    "y",
    "h",
    "=",
    "(",
    ")",
    "[",
    "]",
    ",",
    "+",
    "-",
    "*",
    "**",
    "/",
    "@",
    ".",
    ":",
    "1",
    "2.0",
    "-3",
    "1e9",
    "tanh",
    "sum",
    "const",
    "randn",
    "output",
    "axis=",
    "seed=",
    "shape=",
    "True",
    "None",
    "'s'",
    "lambda",
    "__class__",
    "\n",
    " ",
    "#",
    "for",
    "in",
    "if",
    "[0]",
]
_programs = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)
_fuzz = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # Python's tokenizer on text like "1for"
@_fuzz
@given(st.one_of(_programs, st.text(max_size=200)))
def test_any_text_parses_or_raises_spec_error(text):
    try:
        assert isinstance(parse(text), GraphSpec)
    except SpecError:
        pass


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@_fuzz
@given(st.one_of(_programs, st.text(max_size=200)))
def test_any_text_reads_as_a_value_or_raises_spec_error(text):
    try:
        assert isinstance(parse_value(text), float | list | dict)
    except SpecError:
        pass


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "version",
                    "nodes",
                    "name",
                    "kind",
                    "op",
                    "operands",
                    "attrs",
                    "value",
                    "output",
                    "fn",
                    "shape",
                    "seed",
                    "axis",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=30,
)


@_fuzz
@given(_json_values)
def test_any_json_value_loads_or_raises_spec_error(value):
    try:
        assert isinstance(GraphSpec.from_json(json.dumps(value)), GraphSpec)
    except SpecError:
        pass


@_fuzz
@given(st.integers(3, len(GOOD_LINK) - 1), st.sampled_from("AZaz09-_"))
def test_any_changed_link_decodes_or_raises_spec_error(position, char):
    changed = GOOD_LINK[:position] + char + GOOD_LINK[position + 1 :]
    try:
        assert isinstance(decode(changed), GraphSpec)
    except SpecError:
        pass
