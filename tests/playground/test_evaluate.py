"""evaluate: every node's value and gradient, NaN/inf flags where they start, and clear errors."""

import math
import warnings

import numpy as np
import pytest

from playground import GraphSpec, evaluate, limits, parse, registry
from playground.errors import SpecError
from playground.evaluate import forward
from playground.presets import get


def test_a_power_has_value_x_cubed_and_gradient_three_x_squared():
    result = evaluate(parse("x = 2.0\ny = x ** 3.0"))
    assert result.value("y") == 8.0
    assert result.grad("x") == 12.0


def test_a_product_of_exp_and_sin_follows_the_product_rule():
    result = evaluate(parse("x = 0.5\ny = exp(x) * sin(x)"))
    assert result.value("y") == pytest.approx(math.exp(0.5) * math.sin(0.5), abs=1e-15)
    assert result.grad("x") == pytest.approx(
        math.exp(0.5) * (math.sin(0.5) + math.cos(0.5)), abs=1e-15
    )


def test_matmul_gradients_are_the_outer_product_and_the_transpose():
    result = evaluate(parse("W = [[1.0, 2.0], [3.0, 4.0]]\nv = [1.0, -1.0]\n"
                            "y = W @ v\nL = sum(y * y)"))
    assert result.value("y").tolist() == [-1.0, -1.0]
    assert result.value("L") == 2.0
    assert result.grad("y").tolist() == [-2.0, -2.0]
    assert result.grad("W").tolist() == [[-2.0, 2.0], [-2.0, 2.0]]
    assert result.grad("v").tolist() == [-8.0, -12.0]


def test_a_mean_over_an_axis_spreads_its_gradient_over_that_axis():
    result = evaluate(parse("x = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]\n"
                            "m = mean(x, axis=0)\nL = sum(m * m)"))
    assert result.value("m").tolist() == [2.5, 3.5, 4.5]
    assert result.grad("m").tolist() == [5.0, 7.0, 9.0]
    assert result.grad("x").tolist() == [[2.5, 3.5, 4.5], [2.5, 3.5, 4.5]]


def test_every_node_reports_its_shape_kind_op_and_local_derivative():
    result = evaluate(parse("x = [1.0, 2.0]\nh = tanh(x)\nL = sum(h)"))
    assert [(n.name, n.kind, n.op, n.operands, n.shape) for n in result.nodes] == [
        ("x", "input", None, (), (2,)),
        ("h", "op", "tanh", ("x",), (2,)),
        ("L", "op", "sum", ("h",), ()),
    ]
    assert result.node("x").derivative is None
    assert result.node("h").derivative == registry.OPS["tanh"].derivative
    assert result.node("L").attrs == {}


def test_a_vector_output_is_seeded_with_ones_and_the_result_says_so():
    result = evaluate(parse("x = [1.0, 2.0, 3.0]\ny = x * x"))
    assert result.seeded_with_ones
    assert result.grad("y").tolist() == [1.0, 1.0, 1.0]
    assert result.grad("x").tolist() == [2.0, 4.0, 6.0]


def test_a_scalar_output_is_not_seeded_with_ones():
    assert not evaluate(parse("x = [1.0, 2.0]\ny = sum(x)")).seeded_with_ones


def test_constants_and_ops_on_constants_have_no_gradient():
    result = evaluate(parse("a = const(2.0)\nb = const(3.0)\nc = a * b\nx = 1.0\ny = c * x"))
    assert result.grad("a") is None and result.grad("b") is None
    assert result.grad("c") is None
    assert result.grad("x") == 6.0


def test_inputs_and_steps_the_output_does_not_use_get_zero_gradients():
    result = evaluate(parse("x = 1.0\nu = [1.0, 2.0]\nv = u * 2.0\ny = x * 3.0"))
    assert result.grad("u").tolist() == [0.0, 0.0]
    assert result.grad("v").tolist() == [0.0, 0.0]
    assert result.grad("x") == 3.0


def test_a_graph_of_constants_only_evaluates_without_gradients():
    result = evaluate(parse("a = const(2.0)\nb = a * 3.0"))
    assert result.value("b") == 6.0
    assert all(n.grad is None for n in result.nodes)


def quietly(spec):
    """evaluate with every NumPy warning turned into an error, to show none escapes."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return evaluate(spec)


def test_log_of_a_negative_number_is_flagged_on_the_log_only():
    result = quietly(parse("x = -1.0\ny = log(x)\nz = y * 2.0\nL = z + 1.0"))
    assert list(result.flags) == ["y"]
    assert "log gives NaN" in result.flags["y"] and "negative" in result.flags["y"]
    assert np.isnan(result.value("L"))
    assert result.node("y").flag == result.flags["y"]
    assert result.node("z").flag is None and result.node("L").flag is None


def test_division_by_zero_is_flagged_on_the_division_only():
    result = quietly(parse("x = 1.0\nz = const(0.0)\ny = x / z\nL = y * 2.0"))
    assert result.flags == {"y": "div gives inf: division by zero"}
    assert np.isinf(result.value("L"))
    assert np.isinf(result.grad("x"))


def test_exp_overflow_is_flagged_on_the_exp_with_the_fix():
    result = quietly(parse("x = 800.0\ny = exp(x)\nL = y - y"))
    assert list(result.flags) == ["y"]
    assert "overflows" in result.flags["y"] and "subtract the max" in result.flags["y"]
    assert np.isnan(result.value("L"))


def test_sqrt_at_zero_is_flagged_where_its_gradient_becomes_inf():
    result = quietly(parse("x = 0.0\ny = sqrt(x)\nL = y * 2.0"))
    assert result.value("L") == 0.0
    assert np.isinf(result.grad("x"))
    assert list(result.flags) == ["x"]
    assert "gradient becomes inf" in result.flags["x"] and "through y" in result.flags["x"]


def test_a_finite_graph_has_no_flags():
    result = quietly(get("mlp").spec)
    assert result.flags == {}
    assert all(n.flag is None for n in result.nodes)


def test_a_shape_mismatch_names_the_node_the_op_and_the_shapes():
    with pytest.raises(SpecError) as caught:
        evaluate(parse("a = [1.0, 2.0, 3.0]\nb = [1.0, 2.0]\nc = a + b"))
    assert caught.value.node == "c"
    assert str(caught.value).startswith("node `c`: add failed on operands a (3,), b (2,)")


def test_a_matmul_of_incompatible_shapes_names_the_node_the_op_and_the_shapes():
    with pytest.raises(SpecError) as caught:
        evaluate(parse("A = [[1.0, 2.0, 3.0]]\nB = [[1.0, 2.0]]\nC = A @ B"))
    assert caught.value.node == "C"
    message = str(caught.value)
    assert "matmul failed on operands A (1, 3), B (1, 2)" in message
    assert "inner sizes differ" in message


def test_a_bad_axis_names_the_node_and_the_op():
    with pytest.raises(SpecError, match=r"node `s`: sum failed on operands x \(2,\).*axis 3"):
        evaluate(parse("x = [1.0, 2.0]\ns = sum(x, axis=3)"))


def test_a_bad_axis_error_says_which_axes_exist():
    with pytest.raises(SpecError, match=r"axis of sum here must lie between -1 and 0"):
        evaluate(parse("x = [1.0, 2.0]\ns = sum(x, axis=3)"))
    with pytest.raises(SpecError, match=r"x is a scalar: it has no axis to choose"):
        evaluate(parse("x = 2.0\ns = softmax(x, axis=1)"))


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ("a = [1.0, 2.0, 3.0]\nb = [1.0, 2.0]\nc = stack(a, b)",
         "stack needs operands of one shape"),
        ("a = [1.0, 2.0, 3.0]\nc = stack(a, a, axis=3)",
         "axis of stack here must lie between -2 and 1"),
        ("a = [[1.0, 2.0, 3.0]]\nb = [[1.0, 2.0]]\nc = concatenate(a, b)",
         "same sizes on every axis but the one joined (axis 0)"),
        ("a = [1.0, 2.0, 3.0]\nc = broadcast_to(a, shape=[2, 2])",
         "the target shape is (2, 2): a's sizes must each equal the target's last sizes or be 1"),
        ("a = [1.0, 2.0, 3.0]\nc = squeeze(a, axis=3)", "axis 3 is out of range"),
        ("a = [[1.0, 2.0], [3.0, 4.0]]\nc = transpose(a, axes=[0, 0, 1])",
         "axes must list each of 0..1 exactly once, e.g. [1, 0]"),
        ("a = [1.0, 2.0, 3.0]\nc = a[5]", "run from 0 to n - 1 (or -n to -1); a has shape (3,)"),
    ],
)
def test_an_op_error_ends_with_a_fix(text, fix):
    with pytest.raises(SpecError) as caught:
        evaluate(parse(text))
    assert caught.value.node == "c"
    assert fix in str(caught.value)


def test_a_broadcast_beyond_the_element_limit_is_refused_before_it_is_computed():
    with pytest.raises(SpecError) as caught:
        evaluate(parse("a = zeros(1000, 1)\nb = zeros(2000)\nc = a + b"))
    assert caught.value.node == "c"
    assert "would broadcast its operands to shape (1000, 2000) (2,000,000 elements)" in str(
        caught.value
    )
    assert f"{limits.MAX_ELEMENTS:,}" in str(caught.value)


def test_evaluating_twice_gives_identical_arrays():
    spec = get("mlp").spec
    first, second = evaluate(spec), evaluate(spec)
    for a, b in zip(first.nodes, second.nodes, strict=True):
        assert np.array_equal(a.value, b.value)
        assert (a.grad is None and b.grad is None) or np.array_equal(a.grad, b.grad)


def test_a_chosen_output_is_differentiated_instead_of_the_last_node():
    spec = get("classic").spec
    result = evaluate(spec, output="c")
    assert result.output == "c"
    assert result.grad("a") == 3.0 and result.grad("b") == 2.0
    assert result.grad("d") == 0.0


def test_the_output_chosen_in_the_spec_is_the_default():
    result = evaluate(parse("a = 2.0\nb = 3.0\nc = a * b\nd = c + a\noutput(c)"))
    assert result.output == "c"
    assert result.grad("a") == 3.0


def test_an_unknown_output_or_an_empty_graph_is_refused():
    with pytest.raises(SpecError, match="'nope' is not a node"):
        evaluate(get("classic").spec, output="nope")
    with pytest.raises(SpecError, match="the graph is empty"):
        evaluate(GraphSpec.empty())


def test_asking_for_an_unknown_node_of_a_result_is_refused():
    with pytest.raises(SpecError, match="no node called 'z'"):
        evaluate(get("classic").spec).value("z")


def test_forward_builds_every_node_by_name_and_only_inputs_require_grad():
    tensors = forward(parse("x = 2.0\nc = const(3.0)\ny = x * c"))
    assert list(tensors) == ["x", "c", "y"]
    assert [t.name for t in tensors.values()] == ["x", "c", "y"]
    assert (tensors["x"].requires_grad, tensors["c"].requires_grad) == (True, False)
    assert tensors["y"].item() == 6.0 and tensors["y"].requires_grad
