"""The expression language: what each construct becomes, generated names, errors, and to_text."""

import json

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground import limits
from playground.errors import SpecError
from playground.expr import parse, parse_value, to_text
from playground.spec import GraphSpec, Node

ISSUE_EXAMPLE = """\
x = 2.0                # an input (leaf that requires grad)
w = [[0.5, -1.0], [2.0, 0.1]]
b = const(0.1)         # a constant leaf
h = tanh(w @ [x, x] + b)
L = sum(h ** 2)        # the last assignment is the output, unless one is chosen
"""


def describe(spec):
    """Each node as a short tuple: (name, kind, op or value, operands, attrs)."""
    return [
        (n.name, n.kind, n.value if n.is_leaf else n.op, n.operands, n.attrs) for n in spec.nodes
    ]


def test_the_issue_example_becomes_every_step_of_the_chain():
    assert describe(parse(ISSUE_EXAMPLE)) == [
        ("x", "input", 2.0, (), {}),
        ("w", "input", [[0.5, -1.0], [2.0, 0.1]], (), {}),
        ("b", "const", 0.1, (), {}),
        ("stack_1", "op", "stack", ("x", "x"), {}),
        ("matmul_1", "op", "matmul", ("w", "stack_1"), {}),
        ("add_1", "op", "add", ("matmul_1", "b"), {}),
        ("h", "op", "tanh", ("add_1",), {}),
        ("c_1", "const", 2.0, (), {}),
        ("pow_1", "op", "pow", ("h", "c_1"), {}),
        ("L", "op", "sum", ("pow_1",), {}),
    ]
    assert parse(ISSUE_EXAMPLE).output is None


def test_an_empty_program_or_only_comments_is_an_empty_graph():
    assert parse("") == GraphSpec.empty()
    assert parse("# nothing yet\n\n") == GraphSpec.empty()


def test_numbers_lists_and_generators_on_their_own_are_inputs():
    spec = parse("a = 3\nb = -1.5\nc = [1, -2]\nd = randn(2, 3, seed=4)\ne = randn(2)\nf = +2")
    assert describe(spec) == [
        ("a", "input", 3.0, (), {}),
        ("b", "input", -1.5, (), {}),
        ("c", "input", [1.0, -2.0], (), {}),
        ("d", "input", {"fn": "randn", "shape": [2, 3], "seed": 4}, (), {}),
        ("e", "input", {"fn": "randn", "shape": [2], "seed": 0}, (), {}),
        ("f", "input", 2.0, (), {}),
    ]


def test_const_wraps_numbers_lists_and_generators():
    spec = parse(
        "a = const(1)\nb = const([[1, 2]])\nc = const(rand(2, seed=9))\nd = zeros(3)\n"
        "e = const(full(2, value=0.5))\nf = ones()"
    )
    assert describe(spec) == [
        ("a", "const", 1.0, (), {}),
        ("b", "const", [[1.0, 2.0]], (), {}),
        ("c", "const", {"fn": "rand", "shape": [2], "seed": 9}, (), {}),
        ("d", "input", {"fn": "zeros", "shape": [3]}, (), {}),
        ("e", "const", {"fn": "full", "shape": [2], "value": 0.5}, (), {}),
        ("f", "input", {"fn": "ones", "shape": []}, (), {}),
    ]


def test_literals_inside_expressions_become_numbered_constants():
    spec = parse("x = 1.0\ny = 2 * x - -3 + [1, 2] * randn(2, seed=1)")
    assert describe(spec) == [
        ("x", "input", 1.0, (), {}),
        ("c_1", "const", 2.0, (), {}),
        ("mul_1", "op", "mul", ("c_1", "x"), {}),
        ("c_2", "const", -3.0, (), {}),
        ("sub_1", "op", "sub", ("mul_1", "c_2"), {}),
        ("c_3", "const", [1.0, 2.0], (), {}),
        ("c_4", "const", {"fn": "randn", "shape": [2], "seed": 1}, (), {}),
        ("mul_2", "op", "mul", ("c_3", "c_4"), {}),
        ("y", "op", "add", ("sub_1", "mul_2"), {}),
    ]


def test_every_operator_maps_to_its_op():
    spec = parse(
        "a = 1.0\nb = 2.0\np = a + b\nq = a - b\nr = a * b\ns = a / b\nt = a ** b\n"
        "u = a @ b\nv = -a\nw = +a * 1.0"
    )
    ops = {n.name: n.op for n in spec.nodes if not n.is_leaf}
    assert ops == {
        "p": "add",
        "q": "sub",
        "r": "mul",
        "s": "div",
        "t": "pow",
        "u": "matmul",
        "v": "neg",
        "w": "mul",
    }
    assert spec["w"].operands == ("a", "c_1")


def test_functions_take_operands_by_position_and_attributes_by_keyword():
    spec = parse(
        "x = [[1.0, 2.0], [3.0, 4.0]]\n"
        "s = sum(x, axis=0, keepdims=True)\n"
        "m = mean(x, axis=(0, 1))\n"
        "n = max(x, axis=[1])\n"
        "r = reshape(x, shape=(4, -1))\n"
        "l = leaky_relu(x, negative_slope=0.2)\n"
        "k = clip(x, min=0, max=2.5)\n"
        "t = transpose(x)\n"
        "j = concatenate(x, x, axis=1)\n"
        "e = cross_entropy(x, const([0, 1]))\n"
    )
    assert {n.name: n.attrs for n in spec.nodes if not n.is_leaf and n.attrs} == {
        "s": {"axis": 0, "keepdims": True},
        "m": {"axis": (0, 1)},
        "n": {"axis": (1,)},
        "r": {"shape": (4, -1)},
        "l": {"negative_slope": 0.2},
        "k": {"min": 0.0, "max": 2.5},
        "j": {"axis": 1},
    }
    assert spec["j"].operands == ("x", "x")
    assert spec["e"].operands == ("x", "c_1")


def test_plain_indexing_is_the_index_op():
    spec = parse("x = [[1.0, 2.0], [3.0, 4.0]]\na = x[0]\nb = x[1, -1]\nc = tanh(x)[0][1]")
    assert describe(spec)[1:] == [
        ("a", "op", "index", ("x",), {"index": (0,)}),
        ("b", "op", "index", ("x",), {"index": (1, -1)}),
        ("tanh_1", "op", "tanh", ("x",), {}),
        ("index_1", "op", "index", ("tanh_1",), {"index": (0,)}),
        ("c", "op", "index", ("index_1",), {"index": (1,)}),
    ]


def test_lists_of_expressions_are_stacked():
    spec = parse("a = 1.0\nb = 2.0\nv = [a, b * 2]\nm = [[a, b], [b, 1.0]]")
    assert describe(spec)[2:] == [
        ("c_1", "const", 2.0, (), {}),
        ("mul_1", "op", "mul", ("b", "c_1"), {}),
        ("v", "op", "stack", ("a", "mul_1"), {}),
        ("stack_1", "op", "stack", ("a", "b"), {}),
        ("c_2", "const", 1.0, (), {}),
        ("stack_2", "op", "stack", ("b", "c_2"), {}),
        ("m", "op", "stack", ("stack_1", "stack_2"), {}),
    ]


def test_generated_names_skip_names_the_program_assigns_later():
    spec = parse("x = 1.0\ny = tanh(tanh(x))\ntanh_1 = x * 3\nc_1 = 2.0")
    assert spec.names == ("x", "tanh_2", "y", "c_2", "tanh_1", "c_1")


def test_output_chooses_the_output_node():
    spec = parse("a = 1.0\nb = a * a\noutput(a)\nc = b + a")
    assert spec.output == "a"
    assert spec.effective_output == "a"


def test_comments_blank_lines_and_semicolons_are_fine():
    spec = parse("# a comment\n\na = 1.0  # trailing ( [ {\nb = 2.0; c = a * b\n")
    assert spec.names == ("a", "b", "c")


# --- Errors point at line and column -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "col", "fragment"),
    [
        ("x = 1.0\nx = 2.0", 2, 1, "`x` is already defined on line 1; names cannot be reassigned"),
        ("y = x * 2\nx = 1.0", 1, 5, "`x` is used before it is defined on line 2"),
        ("value = 1.0\ny = vlue * 2", 2, 5, "`vlue` is not defined; did you mean `value`?"),
        ("y = q", 1, 5, "`q` is not defined; define it on an earlier line"),
        ("x = 1.0\ny = x", 2, 1, "this only gives `x` a second name; use it directly"),
        ("x = 1.0\ny = +x", 2, 1, "second name"),
        ("x = 1.0\ny = tanh", 2, 5, "`tanh` is a function; call it, such as tanh(x)"),
        ("x = 1.0\ny = sinc(x)", 2, 5, "`sinc` — not a function of the language; did you mean"),
        ("x = 1.0\ny = x.T", 2, 5, "`x.T` — attribute access is not allowed"),
        ("x = 1.0\ny = x[::2]", 2, 7, "`::2` — slices are not supported"),
        ("x = 1.0\ny = x[x]", 2, 7, "index with whole numbers written out"),
        ("x = 1.0\ny = x[0.5]", 2, 7, "index with whole numbers"),
        ("x = 1.0\ny = tanh(x, x)", 2, 5, "tanh takes 1 operand, got 2; settings go by name"),
        ("x = 1.0\ny = reshape(x, (2, 3))", 2, 5, "for example reshape(x, shape=(2, 3))"),
        ("x = 1.0\ny = reshape(x)", 2, 5, "reshape needs the attribute `shape`"),
        ("x = 1.0\ny = sum(x, axes=0)", 2, 5, "sum has no attribute `axes`"),
        ("x = 1.0\ny = sum(x, axis=x)", 2, 17, "the value of `axis` must be written out"),
        ("x = 1.0\ny = sum(x, axis='0')", 2, 5, "attribute `axis` of sum must be"),
        ("x = 1.0\ny = sum(x, keepdims=1)", 2, 5, "must be True or False"),
        ("x = [[1, 2], [3]]", 1, 5, "ragged"),
        ("x = True", 1, 5, "True and False are not numbers here"),
        ("x = 'text'", 1, 5, "text in quotes is not a value"),
        ("x = 1j", 1, 5, "complex numbers are not supported"),
        ("x = None", 1, 5, "None is not a value"),
        ("x = 1e999", 1, 5, "not a finite number"),
        ("x = " + "9" * 400, 1, 5, "too large for a float"),
        ("x = []", 1, 5, "an empty list is not a value"),
        ("x = (1, 2)", 1, 5, "write a list in square brackets"),
        ("x = {1, 2}", 1, 5, "sets are not values"),
        ("x = randn(2.5)", 1, 11, "the sizes of randn are whole numbers"),
        ("x = randn(2, mean=1)", 1, 14, "randn takes the sizes and seed="),
        ("x = zeros(2, seed=1)", 1, 14, "zeros takes the sizes and no settings"),
        ("x = full(2)", 1, 5, "full needs a number to fill with"),
        ("x = randn(-2)", 1, 11, "sizes of randn are whole numbers"),
        ("x = randn(0)", 1, 5, "sizes of at least 1"),
        ("x = const()", 1, 5, "const(...) takes one number, list or generator"),
        ("x = 1.0\ny = const(x)", 2, 5, "const(...) takes one number"),
        ("x = 1.0\ny = x + output(x)", 2, 9, "output(name) is a line of its own"),
        ("x = 1.0\noutput(x)\noutput(x)", 3, 1, "the output is already chosen on line 2"),
        ("x = 1.0\noutput(y)", 2, 8, "`y` is not defined"),
        ("x = 1.0\noutput(x + x)", 2, 1, "write output(name)"),
        ("x = 1.0\nx + 1", 2, 1, "`x + 1` — a line must be an assignment"),
        ("x = 1.0\nx += 1", 2, 1, "names cannot be reassigned, so `+=`"),
        ("x: float = 1.0", 1, 1, "type annotations are not part of the language"),
        ("a = b = 1.0", 1, 1, "assign one name per line"),
        ("a, b = 1.0, 2.0", 1, 1, "only a plain name can be assigned"),
        ("x = 1.0\nx[0] = 2.0", 2, 1, "only a plain name can be assigned"),
        ("x = 1.0\ny = x // 2", 2, 5, "floor division"),
        ("x = 1.0\ny = x % 2", 2, 5, "remainder"),
        ("x = 1.0\ny = x ^ 2", 2, 5, "for powers write x ** 2"),
        ("x = 1.0\ny = ~x", 2, 5, "bit operation"),
        ("x = 1.0\ny = x > 0", 2, 5, "comparisons are not differentiable"),
        ("x = 1.0\ny = x if x else x", 2, 5, "use maximum, minimum, relu or clip"),
        ("x = 1.0\ny = x and x", 2, 5, "`and` / `or` are not available"),
        ("x = 1.0\ny = x ** 5000", 2, 10, "constant exponents are limited to ±1,000"),
        ("x = 1.0\ny = x ** -1001.0", 2, 10, "constant exponents"),
        ("sum = 1.0", 1, 1, "`sum` is an op in the expression language; pick another name"),
        ("output = 1.0", 1, 1, "reserved word"),
        ("α = 1.0", 1, 1, "`α` is not a valid name"),
        ("x = 1.0\ny = x +", 2, 8, "this is not valid syntax"),
        ("x = (1.0", 1, 5, "not valid syntax ('(' was never closed)"),
        ("pass", 1, 1, "`pass` is not part of the language"),
        ("def f(): pass", 1, 1, "defining functions is not allowed"),
        ("for i in [1]: pass", 1, 1, "loops are not allowed"),
        ("del x", 1, 1, "`del` is not allowed"),
        ("return 1", 1, 1, "choose the output with output(name)"),
    ],
)
def test_a_bad_program_names_the_line_column_and_problem(text, line, col, fragment):
    with pytest.raises(SpecError) as info:
        parse(text)
    err = info.value
    assert fragment in str(err)
    assert (err.line, err.col) == (line, col)
    assert str(err).startswith(f"line {line}, column {col}: ")


def test_columns_count_characters_not_bytes():
    text = 'y = sum(x, keepdims="ü", axis=x.b)'
    with pytest.raises(SpecError) as info:
        parse("x = 1.0\n" + text)
    assert info.value.col == text.index("x.b") + 1


def test_a_program_may_not_make_more_nodes_than_the_limit():
    text = "".join(f"x{i} = {i}\n" for i in range(limits.MAX_NODES + 1))
    with pytest.raises(SpecError) as info:
        parse(text)
    assert info.value.line == limits.MAX_NODES + 1
    assert "more than 2,000 nodes" in str(info.value)


def test_intermediate_nodes_count_towards_the_node_limit():
    text = "x = 1.0\n" + "".join(f"y{i} = tanh(tanh(x))\n" for i in range(1000))
    with pytest.raises(SpecError, match="intermediate steps count too"):
        parse(text)


# --- Printing back -----------------------------------------------------------------------------


def test_to_text_writes_one_line_per_node_with_generated_names():
    assert parse(ISSUE_EXAMPLE).to_text() == (
        "x = 2.0\n"
        "w = [[0.5, -1.0], [2.0, 0.1]]\n"
        "b = const(0.1)\n"
        "stack_1 = stack(x, x)\n"
        "matmul_1 = w @ stack_1\n"
        "add_1 = matmul_1 + b\n"
        "h = tanh(add_1)\n"
        "c_1 = const(2.0)\n"
        "pow_1 = h ** c_1\n"
        "L = sum(pow_1)\n"
    )


def test_to_text_writes_generators_attributes_indexing_and_output():
    spec = GraphSpec(
        [
            Node.input("w", {"fn": "randn", "shape": [3, 2], "seed": 5}),
            Node.const("z", {"fn": "full", "shape": [], "value": -1.5}),
            Node.operation("s", "sum", "w", axis=[0], keepdims=True),
            Node.operation("r", "reshape", "w", shape=[6]),
            Node.operation("i", "index", "w", index=[2, -1]),
            Node.operation("n", "neg", "i"),
            Node.operation("k", "clip", "w", min=-1),
        ],
        output="s",
    )
    assert to_text(spec) == (
        "w = randn(3, 2, seed=5)\n"
        "z = const(full(value=-1.5))\n"
        "s = sum(w, axis=(0,), keepdims=True)\n"
        "r = reshape(w, shape=(6,))\n"
        "i = w[2, -1]\n"
        "n = -i\n"
        "k = clip(w, min=-1.0)\n"
        "output(s)\n"
    )
    assert parse(to_text(spec)) == spec


def test_text_round_trip_keeps_the_issue_example():
    spec = parse(ISSUE_EXAMPLE)
    assert parse(spec.to_text()) == spec
    assert parse(spec.to_text()).to_text() == spec.to_text()


def test_windows_line_endings_and_a_byte_order_mark_are_read_like_plain_text():
    with pytest.raises(SpecError) as info:
        parse("\ufeffa = 1.0\r\nb = a.x\r\n")
    assert (info.value.line, info.value.col) == (2, 5)
    assert parse("\ufeffa = 1.0\r\nb = a * a\r\n").names == ("a", "b")


# --- One value on its own (the node editor's value box) ----------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2", 2.0),
        ("-2.5", -2.5),
        ("+3", 3.0),
        ("1e3", 1000.0),
        ("[1., 2.]", [1.0, 2.0]),
        ("[-1, -0.5]", [-1.0, -0.5]),
        ("[[1, 2], [3, 4]]", [[1.0, 2.0], [3.0, 4.0]]),
        ("[[[1]]]", [[[1.0]]]),
        ("randn(3, 2, seed=4)", {"fn": "randn", "shape": [3, 2], "seed": 4}),
        ("randn(3)", {"fn": "randn", "shape": [3], "seed": 0}),
        ("full(2, value=-1)", {"fn": "full", "shape": [2], "value": -1.0}),
        ("  [1, 2]  # a comment\n", [1.0, 2.0]),
        ("\n[1,\n -2]\n", [1.0, -2.0]),
        ("\ufeff7", 7.0),
    ],
)
def test_parse_value_reads_numbers_lists_and_generators_in_canonical_form(text, value):
    assert parse_value(text) == value
    assert Node("x", "input", value=value).value == parse_value(text)


def test_parse_value_gives_floats_even_for_whole_numbers():
    assert type(parse_value("2")) is float
    assert [type(x) for x in parse_value("[1, -2]")] == [float, float]


@pytest.mark.parametrize(
    ("text", "line", "col", "fragment"),
    [
        ("[1.0, 2.0", 1, 1, "not valid syntax ('[' was never closed)"),
        ("[1, x]", 1, 5, "`x` — this is not a number, a list or a generator"),
        ("  [1, x]", 1, 7, "`x` — this is not a number"),
        ("\n  [1, q,\n 2]", 2, 7, "`q` — this is not a number"),
        ("[1,\n  q]", 2, 3, "`q` — this is not a number"),
        ("[[1, 2], [3]]", 1, 1, "the nested list is ragged"),
        ("[]", 1, 1, "an empty list is not a value"),
        ("[[1], []]", 1, 7, "`[]` — an empty list is not a value"),
        ("[randn(2)]", 1, 2, "a generator stands on its own, not inside a list"),
        ("x = [1, 2]", 1, 1, "`x = [1, 2]` — type just one value"),
        ("1; 2", 1, 4, "type just one value"),
        ("(1, 2)", 1, 1, "this is not a number, a list or a generator"),
        ("1 + 2", 1, 1, "this is not a number, a list or a generator"),
        ("nan", 1, 1, "this is not a number, a list or a generator"),
        ("True", 1, 1, "True and False are not numbers here"),
        ("[1, 'a']", 1, 5, "text in quotes is not a value"),
        ("1e400", 1, 1, "not a finite number"),
        ("randn(2.5)", 1, 7, "the sizes of randn are whole numbers"),
        ("[" * 9 + "1" + "]" * 9, 1, 1, "nested more than 8 lists deep"),
        ("zeros(1000, 1001)", 1, 1, "1,001,000 elements, more than the limit of 1,000,000"),
    ],
)
def test_parse_value_names_the_line_column_and_problem(text, line, col, fragment):
    with pytest.raises(SpecError) as info:
        parse_value(text)
    assert fragment in str(info.value)
    assert (info.value.line, info.value.col) == (line, col)


@pytest.mark.parametrize("text", ["", "  ", "\n# only a comment\n"])
def test_parse_value_asks_for_a_value_when_there_is_none(text):
    with pytest.raises(SpecError, match="type a value: a number such as -2.5"):
        parse_value(text)


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=4, max_side=3),
                  elements=st.floats(-1e300, 1e300, allow_nan=False)))
def test_parse_value_reads_back_the_json_of_any_list_value(array):
    value = array.tolist()
    assert parse_value(json.dumps(value)) == value


def test_a_transpose_by_attribute_is_refused_with_the_call_that_works():
    with pytest.raises(SpecError, match=r"for W\.T write transpose\(W\)"):
        parse("W = [[1.0, 2.0], [3.0, 4.0]]\nx = [1.0, 2.0]\nz = x @ W.T")
    with pytest.raises(SpecError, match=r"for x\.sum\(\.\.\.\) write sum\(x, \.\.\.\)"):
        parse("x = [1.0, 2.0]\ny = x.sum()")
    assert "transpose_1" in parse("W = [[1.0, 2.0], [3.0, 4.0]]\nx = [1.0, 2.0]\n"
                                  "z = x @ transpose(W)").names
