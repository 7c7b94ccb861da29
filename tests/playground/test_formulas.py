"""Local derivatives written with the node's own names, and its numbers where they are scalars."""

import numpy as np
import pytest

from playground import evaluate, parse, registry
from playground.formulas import local_derivative
from playground.presets import PRESETS, get


def test_the_classic_product_names_its_operands_and_substitutes_their_values():
    result = evaluate(get("classic").spec)  # c = a * b with a = 2, b = 3
    assert local_derivative(result, "c") == (
        r"\begin{gathered}"
        r"\frac{\partial \mathit{c}}{\partial \mathit{a}} = \mathit{b} = 3.0000 \\ "
        r"\frac{\partial \mathit{c}}{\partial \mathit{b}} = \mathit{a} = 2.0000"
        r"\end{gathered}"
    )


def test_a_constant_derivative_is_not_repeated_as_a_number():
    latex = local_derivative(evaluate(get("classic").spec), "d")  # d = c + a
    assert r"\frac{\partial \mathit{d}}{\partial \mathit{c}} = 1 \\" in latex
    assert "1.0000" not in latex


def test_a_unary_op_gets_the_value_of_its_slope():
    result = evaluate(parse("n = 0.5\no = tanh(n)\n"))
    slope = 1 - np.tanh(0.5) ** 2
    assert local_derivative(result, "o") == (
        rf"\frac{{d\mathit{{o}}}}{{d\mathit{{n}}}} = 1 - \tanh^2 \mathit{{n}} = {slope:.4f}")


def test_names_with_underscores_are_escaped_and_the_divisor_is_named():
    result = evaluate(parse("top = 3.0\nh_pre = 2.0\nq = top / h_pre\n"))
    latex = local_derivative(result, "q")
    assert r"\partial \mathit{h\_pre}} = -\frac{\mathit{top}}{\mathit{h\_pre}^2} = -0.7500" in latex


def test_tensors_get_names_but_no_numbers():
    result = evaluate(parse("W = [[1.0, 2.0], [3.0, 4.0]]\nx = [1.0, 1.0]\nh = W @ x\n"))
    latex = local_derivative(result, "h")
    assert r"\bar{\mathit{W}} = \bar{\mathit{h}} \mathit{x}^{\top}" in latex
    assert r"\bar{\mathit{x}} = \mathit{W}^{\top} \bar{\mathit{h}}" in latex
    assert "0000" not in latex


def test_the_three_operands_of_where_keep_their_own_names():
    result = evaluate(parse("cond = 1.0\np = 2.0\nq = 5.0\nr = where(cond, p, q)\n"))
    latex = local_derivative(result, "r")
    assert r"\frac{\partial \mathit{r}}{\partial \mathit{p}} = \mathbb{1}[\mathit{cond} \ne 0]"\
        r" = 1.0000" in latex
    assert r"\frac{\partial \mathit{r}}{\partial \mathit{q}} = \mathbb{1}[\mathit{cond} = 0]"\
        r" = 0.0000" in latex


def test_words_inside_text_and_operator_names_are_left_alone():
    result = evaluate(parse("a = 1.0\nb = 2.0\nm = maximum(a, b)\n"))
    assert r"\text{(ties shared)}" in local_derivative(result, "m")


def test_leaves_have_no_local_derivative():
    assert local_derivative(evaluate(get("classic").spec), "a") is None


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_every_op_node_of_every_preset_names_its_result_and_no_generic_result(preset):
    result = evaluate(preset.spec)
    for node in result.nodes:
        if node.op is None:
            continue
        latex = local_derivative(result, node.name)
        assert r"\mathit{" + node.name.replace("_", r"\_") + "}" in latex, (node.name, latex)
        generic = registry.get(node.op).derivative
        assert latex != generic


def test_the_rules_panel_names_the_operands_u_and_v_not_a_graphs_a_and_b():
    from playground.formulas import rule, rule_sentence

    assert rule("mul") == (r"\frac{\partial y}{\partial \mathit{u}} = \mathit{v},\quad"
                           r"\frac{\partial y}{\partial \mathit{v}} = \mathit{u}")
    assert rule("tanh") == r"\frac{dy}{dx} = 1 - \tanh^2 x"  # one operand: x already
    assert rule_sentence("mul").endswith("nudging u moves u*v by v.")
    assert rule_sentence("div") == ("Dividing by v scales u's gradient by 1/v; v's gradient is "
                                    "-u/v², so small denominators make large gradients.")
    assert rule_sentence("outer").startswith("Each u[i] scaled a whole row")
    assert rule_sentence("pow").endswith("which needs u > 0.")
