"""Step through: the engine's recorded backward adds up to evaluate's gradients bit for bit, and
the engine's forward mode gives the Jacobian-vector product the gradients predict."""

import numpy as np
import pytest

from playground import evaluate, parse, presets
from playground.errors import SpecError
from playground.steps import backward_steps, local_partials, passes, summed_axes, tangents
from tests.playground.op_cases.nn_functions import NN_FUNCTIONS
from tests.playground.op_cases.nn_more import NN_MORE
from tests.playground.op_cases.rearranging import REARRANGING
from tests.playground.op_cases.resizing import RESIZING

GRAPHS = {p.key: p.spec for p in presets.PRESETS} | {
    f"exercise_{p.key}": p.spec for p in presets.EXERCISES} | {
    # composite ops that read an operand several times
    "nn_functions": parse(NN_FUNCTIONS), "nn_more": parse(NN_MORE),
    "rearranging": parse(REARRANGING), "resizing": parse(RESIZING)}


def program(text: str):
    return parse("\n".join(line.strip() for line in text.strip().splitlines()) + "\n")


@pytest.mark.parametrize("key", GRAPHS)
def test_the_contributions_at_the_last_step_are_evaluates_gradients_bit_for_bit(key):
    spec = GRAPHS[key]
    result = evaluate(spec)
    backward = backward_steps(spec)
    final = backward.gradients(backward.count)
    for n in result.nodes:
        if n.grad is None:
            assert n.name not in final
            continue
        got = final[n.name]
        assert got.complete, n.name
        assert got.value.dtype == n.grad.dtype and got.value.shape == n.grad.shape
        assert got.value.tobytes() == n.grad.tobytes(), n.name


@pytest.mark.parametrize("key", GRAPHS)
def test_forward_mode_tangents_at_the_last_step_are_the_jvp_of_the_gradients(key):
    spec = GRAPHS[key]
    result = evaluate(spec)
    for n in (n for n in result.nodes if n.kind == "input"):
        for element in sorted({0, n.value.size - 1}):
            moved = tangents(spec, result, n.name, element)
            output = moved.values[result.output]
            # the output's gradient is d sum(output) / d input, so sum(tangent) is its element
            expected = result.grad(n.name).reshape(-1)[element]
            np.testing.assert_allclose(np.sum(output), expected, rtol=1e-9, atol=1e-12,
                                       equal_nan=True, err_msg=f"{n.name}[{element}]")


def test_classic_a_receives_1_at_step_1_then_3_at_step_2_and_ends_at_4():
    spec = presets.get("classic").spec
    backward = backward_steps(spec)
    assert [(s.node, s.function) for s in backward.steps] == [("d", "Add"), ("c", "Mul")]
    assert backward.gradients(0)["a"].value is None
    after_one = backward.gradients(1)["a"]
    assert [float(t.value) for t in after_one.terms] == [1.0]
    assert after_one.expected == 2 and not after_one.complete
    after_two = backward.gradients(2)["a"]
    assert [(t.source, float(t.value)) for t in after_two.terms] == [("d", 1.0), ("c", 3.0)]
    assert after_two.complete and float(after_two.value) == 4.0
    assert backward.gradients(0)["d"].value == 1.0  # the seed


def test_an_operand_used_twice_gets_two_contributions_on_two_slots():
    backward = backward_steps(presets.get("shared").spec)  # z = y + y, y = x * x
    first = backward.steps[0]
    assert [(c.target, c.slot) for c in first.contributions] == [("y", 0), ("y", 1)]
    assert float(backward.gradients(2)["x"].value) == 12.0


def test_an_op_made_of_several_functions_has_a_step_for_each():
    spec = program("""
        p = [1.0, 2.0]
        t = const([0.0, 4.0])
        L = mse_loss(p, t)
    """)
    backward = backward_steps(spec)
    assert backward.count > 1
    assert backward.steps[0].node == "L" and not backward.steps[0].inner
    assert all(s.node == "L" for s in backward.steps)
    assert any(s.inner for s in backward.steps)
    np.testing.assert_array_equal(backward.gradients(backward.count)["p"].value,
                                  evaluate(spec).grad("p"))


def test_a_node_off_the_path_to_the_output_gets_zero_and_no_term():
    spec = program("""
        a = 2.0
        b = 3.0
        c = a * 2.0
        d = b * 4.0
        output(c)
    """)
    final = backward_steps(spec).gradients(1)
    assert final["b"].value == 0.0 and final["b"].expected == 0 and final["b"].complete
    assert final["d"].value == 0.0


def test_an_output_that_is_a_leaf_has_no_steps_and_constants_have_no_seed():
    leaf = program("a = 2.0\nb = a * 3.0\noutput(a)")
    backward = backward_steps(leaf)
    assert backward.count == 0 and backward.gradients(0)["a"].value == 1.0
    constant = program("k = const(2.0)\nm = k * 3.0")
    assert backward_steps(constant).seed is None


def test_broadcast_axes_are_named_only_for_broadcasting_ops():
    assert summed_axes("add", (3, 1), (3, 4)) == (1,)
    assert summed_axes("mul", (4,), (3, 4)) == (0,)
    assert summed_axes("add", (1, 4), (1, 4)) == ()
    assert summed_axes("sum", (3, 4), ()) == ()
    assert summed_axes("concatenate", (1, 4), (3, 4)) == ()  # not a broadcast
    assert summed_axes("matmul", (2, 1), (2, 3)) == ()


def test_local_partials_come_from_the_engine_for_scalars_only():
    result = evaluate(presets.get("classic").spec)
    assert local_partials(result, "c") == {0: 3.0, 1: 2.0}
    assert local_partials(result, "a") == {}
    assert local_partials(evaluate(presets.get("vectors").spec), "c") == {}


def test_passes_count_one_forward_per_input_element_and_one_backward_per_output_element():
    assert passes(evaluate(presets.get("classic").spec)) == (2, 1)
    assert passes(evaluate(presets.get("vectors").spec)) == (6, 2)


def test_forward_mode_refuses_a_node_that_is_not_an_input_and_an_element_out_of_range():
    spec = presets.get("vectors").spec
    result = evaluate(spec)
    with pytest.raises(SpecError, match="not an input"):
        tangents(spec, result, "c")
    with pytest.raises(SpecError, match="from 0 to 1"):
        tangents(spec, result, "a", 2)
