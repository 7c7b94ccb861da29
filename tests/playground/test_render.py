"""DOT, ASCII and SVG drawings of evaluated graphs."""

import re
import shutil

import numpy as np
import pytest

from playground import evaluate, parse
from playground.evaluate import NodeResult, Result
from playground.presets import PRESETS, get
from playground.render import (
    HIGHLIGHT,
    OKABE_ITO,
    formula,
    record_escape,
    shape_count,
    tint,
    to_ascii,
    to_dot,
    to_svg,
    tooltip,
)


def _node(name, kind, value, grad=None, op=None, operands=(), attrs=None, flag=None):
    return NodeResult(name=name, kind=kind, op=op, operands=tuple(operands), attrs=attrs or {},
                      value=np.asarray(value, dtype=float),
                      grad=None if grad is None else np.asarray(grad, dtype=float), flag=flag)


def classic_result(flag=None):
    """d = a*b + a with a=2, b=3, built by hand so these tests do not need the engine."""
    nodes = (
        _node("a", "input", 2.0, 4.0),
        _node("b", "input", 3.0, 2.0),
        _node("c", "op", 6.0, 1.0, op="mul", operands=("a", "b")),
        _node("d", "op", 8.0, 1.0, op="add", operands=("c", "a"), flag=flag),
    )
    return Result(spec=None, output="d", seeded_with_ones=False, nodes=nodes,
                  flags={"d": flag} if flag else {})


def _statement(dot, node_id):
    """The attribute list of one node statement in DOT source."""
    match = re.search(r'^  "' + re.escape(node_id) + r'" \[(.*)\]$', dot, re.MULTILINE)
    assert match, f"no statement for {node_id!r} in\n{dot}"
    return match.group(1)


def _attr(statement, name):
    """One attribute's quoted value in a node statement (the label, the tooltip, a colour)."""
    match = re.search(r"(?<![a-z])" + name + r'="((?:[^"\\]|\\.)*)"', statement)
    assert match, f"no {name} in {statement}"
    return match.group(1)


def test_each_tensor_is_a_record_with_name_shape_value_and_grad():
    dot = to_dot(classic_result(), rankdir="TB")
    assert 'label="{ a | scalar | value 2.0000 | grad 4.0000 }"' in _statement(dot, "a")
    assert 'label="{ c | scalar | value 6.0000 | grad 1.0000 }"' in _statement(dot, "c")


def test_a_record_reads_from_the_top_in_either_direction():
    # Graphviz stacks a record's top-level fields when the graph goes across and sets them side
    # by side when it goes down; braces turn them, so only the downward record is braced
    across = to_dot(classic_result(), rankdir="LR")
    assert 'label="a | scalar | value 2.0000 | grad 4.0000"' in _statement(across, "a")
    svg = to_svg(across)
    if svg is not None:  # stacked: the name's text sits above the grad's, at the same x
        texts = re.findall(r'<text[^>]*x="([0-9.]+)" y="(-?[0-9.]+)"[^>]*>([^<]*)</text>', svg)
        where = {text: (float(x), float(y)) for x, y, text in texts}
        assert where["a"][0] == pytest.approx(where["grad 4.0000"][0], abs=1)
        assert where["a"][1] < where["grad 4.0000"][1]


def test_every_text_of_the_drawing_has_the_font_size():
    dot = to_dot(classic_result(), font_size=20)
    assert "fontsize" not in _statement(dot, "c#op")  # the ovals' text is the records' size
    assert re.search(r"edge \[[^]]*fontsize=20", dot)  # Step through's numbers on edges


def test_each_op_is_an_oval_between_its_operands_and_its_result():
    dot = to_dot(classic_result())
    assert 'shape=ellipse' in _statement(dot, "c#op")
    assert 'label="mul"' in _statement(dot, "c#op")
    assert '"a" -> "c#op"' in dot and '"b" -> "c#op"' in dot and '"c#op" -> "c"' in dot
    assert '"c" -> "d#op"' in dot and '"a" -> "d#op"' in dot


def test_layout_is_left_to_right_by_default_and_top_to_bottom_on_request():
    assert "rankdir=LR" in to_dot(classic_result())
    assert "rankdir=TB" in to_dot(classic_result(), rankdir="TB")


def test_show_value_or_grad_leaves_out_the_other_number():
    values_only = _attr(_statement(to_dot(classic_result(), show="value"), "a"), "label")
    grads_only = _attr(_statement(to_dot(classic_result(), show="grad"), "a"), "label")
    assert "value 2.0000" in values_only and "grad" not in values_only
    assert "grad 4.0000" in grads_only and "value" not in grads_only


def test_bad_show_or_rankdir_is_refused():
    with pytest.raises(ValueError, match="show"):
        to_dot(classic_result(), show="everything")
    with pytest.raises(ValueError, match="rankdir"):
        to_dot(classic_result(), rankdir="diagonal")


def test_inputs_output_and_flagged_nodes_have_distinct_fills():
    dot = to_dot(classic_result())
    fills = {name: re.search(r'fillcolor="([^"]+)"', _statement(dot, name)).group(1)
             for name in ("a", "c", "d")}
    assert len(set(fills.values())) == 3
    flagged = to_dot(classic_result(flag="division by zero gives inf"))
    flagged_fill = re.search(r'fillcolor="([^"]+)"', _statement(flagged, "d")).group(1)
    assert flagged_fill not in fills.values()


def test_every_fill_is_light_and_every_text_dark_for_both_themes():
    dot = to_dot(classic_result(flag="log of a negative number gives NaN"))

    def luminance(hex_color):
        r, g, b = (int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    fills = re.findall(r'fillcolor="(#[0-9a-f]{6})"', dot)
    assert fills and min(luminance(c) for c in fills) > 0.8
    assert luminance(re.search(r'fontcolor="(#[0-9a-f]{6})"', dot).group(1)) < 0.2
    assert 'bgcolor="transparent"' in dot


def test_flagged_node_carries_its_message_in_the_record_and_tooltip():
    dot = to_dot(classic_result(flag="division by zero gives inf"))
    statement = _statement(dot, "d")
    assert "⚠ division by zero gives inf" in _attr(statement, "label")
    assert _attr(statement, "tooltip").endswith(r"\n⚠ division by zero gives inf")


def test_every_node_has_a_tooltip_with_its_formula_full_value_and_gradient():
    dot = to_dot(classic_result())
    assert _attr(_statement(dot, "c"), "tooltip") == (
        r"c = mul(a, b)\nshape scalar\nvalue 6.0000\ngrad 1.0000")
    assert _attr(_statement(dot, "d"), "tooltip").startswith(r"d = add(c, a)  (the output)\n")
    assert _attr(_statement(dot, "a"), "tooltip").startswith(r"a (input)\n")
    assert _attr(_statement(dot, "c#op"), "tooltip") == "c = mul(a, b)"


def test_a_tooltip_lists_every_entry_the_record_summarises():
    nodes = (_node("x", "input", np.arange(20.0), np.ones(20)),)
    result = Result(spec=None, output="x", seeded_with_ones=True, nodes=nodes)
    record, hover = _attr(_statement(to_dot(result), "x"), "label"), tooltip(nodes[0], result)
    assert "18.0000" not in record and "18.0000, 19.0000]" in hover and "min" not in hover


def test_formula_names_the_op_its_operands_and_its_settings():
    s = _node("s", "op", 3.0, 1.0, op="sum", operands=("x",), attrs={"axis": 0, "keepdims": None})
    assert formula(s) == "s = sum(x, axis=0)"
    assert formula(_node("k", "const", 1.0)) == "k (constant)"


def test_font_size_is_passed_to_graphviz_for_projectors():
    assert "fontsize=24" in to_dot(classic_result(), font_size=24)


def test_compact_mode_drops_op_ovals_and_names_the_op_in_the_record():
    dot = to_dot(classic_result(), compact=True)
    assert "ellipse" not in dot
    assert '"a" -> "c"' in dot
    assert "c = mul" in _statement(dot, "c")


def test_compact_mode_keeps_only_the_shape_of_large_tensors():
    nodes = (_node("x", "input", np.arange(12.0).reshape(3, 4), np.ones((3, 4))),)
    result = Result(spec=None, output="x", seeded_with_ones=True, nodes=nodes)
    statement = _attr(_statement(to_dot(result, compact=True), "x"), "label")
    assert "(3, 4)" in statement and "value" not in statement and "grad" not in statement


def test_large_tensor_is_summarised_with_min_mean_max_and_first_entries():
    nodes = (_node("x", "input", np.arange(100.0).reshape(10, 10), np.zeros((10, 10))),)
    result = Result(spec=None, output="x", seeded_with_ones=True, nodes=nodes)
    statement = _statement(to_dot(result), "x")
    assert "(10, 10)" in statement
    assert "min 0.0000  mean 49.5000  max 99.0000" in statement
    assert "[0.0000, 1.0000, 2.0000, 3.0000, …]" in statement
    assert "99.0000," not in statement


def test_small_matrix_prints_row_by_row_left_aligned():
    nodes = (_node("w", "input", [[0.5, -1.0], [2.0, 0.1]], [[1.0, 1.0], [1.0, 1.0]]),)
    result = Result(spec=None, output="w", seeded_with_ones=True, nodes=nodes)
    assert r"value\l[[0.5000, -1.0000]\l [2.0000, 0.1000]]\l" in to_dot(result)


def test_record_special_characters_are_escaped():
    assert record_escape('{a|b} <c> "d" \\') == r'\{a\|b\} \<c\> \"d\" \\'


def test_escaped_labels_survive_graphviz(tmp_path):
    flag = 'weird {flag} | with <angles> and "quotes" \\ backslash'
    dot = to_dot(classic_result(flag=flag))
    svg = to_svg(dot)
    if shutil.which("dot") is None:
        assert svg is None
        pytest.skip("the dot program is not installed")
    assert svg is not None and svg.lstrip().startswith(("<?xml", "<svg"))
    assert "&lt;angles&gt;" in svg


def test_svg_contains_every_node_name_role_and_tooltip():
    if shutil.which("dot") is None:
        pytest.skip("the dot program is not installed")
    svg = to_svg(to_dot(classic_result()))
    for name in ("a", "b", "c", "d"):
        assert f"<title>{name}</title>" in svg
    assert 'class="node input"' in svg and 'class="node output"' in svg
    assert 'xlink:title="c = mul(a, b)&#10;shape scalar&#10;value 6.0000' in svg


def test_shape_count_counts_records_and_op_ovals():
    assert shape_count(to_dot(classic_result())) == 6  # a, b, c, d and two ovals
    assert shape_count(to_dot(classic_result(), compact=True)) == 4


def test_svg_is_none_when_dot_is_missing(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda _: None)
    assert to_svg("digraph G { a -> b }") is None


def test_ascii_tree_shows_every_path_from_output_to_leaves():
    text = to_ascii(classic_result())
    assert text.splitlines() == [
        "d = add(c, a)  scalar  value 8.0000  grad 1.0000  [output]",
        "├── c = mul(a, b)  scalar  value 6.0000  grad 1.0000",
        "│   ├── a  scalar  value 2.0000  grad 4.0000  [input]",
        "│   └── b  scalar  value 3.0000  grad 2.0000  [input]",
        "└── a  scalar  value 2.0000  grad 4.0000  [input]",
    ]


def test_ascii_tree_does_not_expand_a_shared_subexpression_twice():
    nodes = (
        _node("x", "input", 1.0, 2.0),
        _node("y", "op", 2.0, 2.0, op="exp", operands=("x",)),
        _node("z", "op", 4.0, 1.0, op="add", operands=("y", "y")),
        _node("unused", "const", 5.0),
    )
    result = Result(spec=None, output="z", seeded_with_ones=False, nodes=nodes)
    lines = to_ascii(result).splitlines()
    assert lines[3] == "└── y (see above)"
    assert lines[-2:] == ["not used by the output:",
                          "  unused  scalar  value 5.0000  grad none  [const]"]


def test_ascii_of_a_long_chain_does_not_recurse():
    nodes = [_node("n0", "input", 0.0, 1.0)]
    nodes += [_node(f"n{i}", "op", 0.0, 1.0, op="neg", operands=(f"n{i - 1}",))
              for i in range(1, 1500)]
    result = Result(spec=None, output="n1499", seeded_with_ones=False, nodes=tuple(nodes))
    assert len(to_ascii(result).splitlines()) == 1500


def test_an_op_with_attributes_shows_them_in_its_oval():
    dot = to_dot(evaluate(parse("x = [[1.0, 2.0]]\ns = sum(x, axis=0, keepdims=True)")))
    assert 'label="sum (axis=0, keepdims=True)"' in _statement(dot, "s#op")


def test_an_evaluated_flag_and_output_get_their_styles():
    result = evaluate(get("softmax_naive").spec)
    dot = to_dot(result)
    assert 'class="flag"' in _statement(dot, "e")
    assert "⚠ exp gives inf" in _attr(_statement(dot, "e"), "label")
    assert 'class="output"' in _statement(dot, "L")
    assert 'class="flag"' not in _statement(dot, "p")


def test_every_colour_that_carries_meaning_is_okabe_ito_and_never_colour_alone():
    dot = to_dot(classic_result(flag="division by zero gives inf"))
    looks = {}
    for node_id, role in (("a", "input"), ("c", "op"), ("c#op", "oval"), ("d", "flag")):
        statement = _statement(dot, node_id)
        assert _attr(statement, "class") == role
        looks[role] = (_attr(statement, "color"), _attr(statement, "style"),
                       re.search(r"penwidth=([0-9.]+)", statement).group(1))
        assert _attr(statement, "fillcolor") == tint(looks[role][0])
    output = _statement(to_dot(classic_result()), "d")
    looks["output"] = (_attr(output, "color"), _attr(output, "style"),
                       re.search(r"penwidth=([0-9.]+)", output).group(1))
    for role in ("input", "oval", "flag", "output"):
        assert looks[role][0] in OKABE_ITO.values(), role
    assert HIGHLIGHT in OKABE_ITO.values()
    # green output and vermillion flag also differ in border style and width, and a flag says ⚠
    assert looks["flag"][1:] != looks["output"][1:] and "dashed" in looks["flag"][1]
    assert len({look[1:] for look in looks.values()} | {("rounded",)}) >= 4


def test_tint_mixes_a_colour_with_white():
    assert tint("#000000", 0.2) == "#cccccc"
    assert tint("#0072b2", 1.0) == "#0072b2" and tint("#0072b2", 0.0) == "#ffffff"


@pytest.mark.parametrize("compact", [False, True])
def test_every_preset_draws_every_node_and_graphviz_accepts_it(compact):
    for preset in PRESETS:
        dot = to_dot(evaluate(preset.spec), compact=compact)
        for name in preset.spec.names:
            _statement(dot, name)
        if shutil.which("dot") is not None:
            assert to_svg(dot) is not None, preset.key


def test_a_node_the_output_does_not_use_shows_no_gradient_but_says_so():
    from playground import edits
    from playground.render import not_used
    from playground.tables import node_table

    result = evaluate(edits.set_output(get("classic").spec, "c"))
    assert not_used(result) == {"d"}
    statement = _statement(to_dot(result, rankdir="TB"), "d")
    assert 'label="{ d | scalar | value 8.0000 | not used by c }"' in statement
    assert 'class="unused"' in statement and "dotted" in statement
    assert "grad not used by c" in _attr(statement, "tooltip")
    table = node_table(result).set_index("name")
    assert table.loc["d", "gradient"] == "not used by c" and np.isnan(table.loc["d", "grad_norm"])
    assert table.loc["a", "gradient"] == "3.0000"  # ∂c/∂a = b


def test_showing_values_only_hides_the_gradients_in_hover_text_and_the_text_drawing():
    from playground import presets
    from playground.render import to_ascii, to_dot

    result = evaluate(presets.get("classic").spec)
    assert "grad" not in to_ascii(result, "value") and "value 8.0000" in to_ascii(result, "value")
    assert "grad 4.0000" in to_ascii(result) and "value" not in to_ascii(result, "grad")
    tooltips = re.findall(r'tooltip="([^"]*)"', to_dot(result, show="value"))
    assert tooltips and not [t for t in tooltips if "grad" in t]
    assert any("grad" in t for t in re.findall(r'tooltip="([^"]*)"', to_dot(result)))
