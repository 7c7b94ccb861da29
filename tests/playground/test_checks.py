"""Finite differences against the engine's gradients: the element table and the epsilon sweep."""

import inspect
import math
import re

import numpy as np
import pytest

import autograd as ag
from autograd.gradcheck import close
from playground import gradient_check, limits, parse
from playground.checks import (
    ATOL,
    COLUMNS,
    EPSILONS,
    PASS_RULE,
    RTOL,
    _Probe,
    _row,
    epsilon_sweep,
)
from playground.errors import SpecError
from playground.presets import get

TANH = parse("x = 1.5\ny = tanh(x)")


def test_the_table_has_one_row_per_input_element_with_the_agreed_columns():
    table = gradient_check(parse("W = [[1.0, 2.0], [3.0, 4.0]]\nv = [1.0, -1.0]\n"
                                 "b = const([0.5, 0.5])\ny = W @ v + b\nL = sum(y * y)"))
    assert list(table.columns) == COLUMNS
    assert list(zip(table["node"], table["index"], strict=True)) == [
        ("W", (0, 0)), ("W", (0, 1)), ("W", (1, 0)), ("W", (1, 1)), ("v", (0,)), ("v", (1,)),
    ]
    assert table["passed"].all()
    assert table["analytic"].tolist() == [-1.0, 1.0, -1.0, 1.0, -4.0, -6.0]
    np.testing.assert_allclose(table["numeric"], table["analytic"], atol=1e-8)


def test_the_numeric_slope_of_tanh_is_one_minus_tanh_squared():
    row = gradient_check(TANH).iloc[0]
    expected = 1 / math.cosh(1.5) ** 2
    assert row["analytic"] == pytest.approx(expected, abs=1e-15)
    assert row["numeric"] == pytest.approx(expected, abs=1e-9)
    assert row["abs_error"] == pytest.approx(abs(row["analytic"] - row["numeric"]), abs=0)
    assert row["rel_error"] < 1e-8 and row["passed"]


def test_the_micrograd_neuron_numbers_agree_with_finite_differences():
    table = gradient_check(get("neuron").spec).set_index("node")
    expected = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}
    for name, grad in expected.items():
        assert table.loc[name, "numeric"] == pytest.approx(grad, abs=1e-8), name


def test_a_vector_output_is_checked_through_its_sum():
    table = gradient_check(get("vectors").spec)
    assert table.attrs["objective"] == "sum(d)"
    assert table.attrs["eps"] == 1e-6
    a = table[table["node"] == "a"]
    np.testing.assert_allclose(a["numeric"], [12.0, 10.0], atol=1e-7)


def test_the_table_states_its_pass_rule():
    assert gradient_check(TANH).attrs["rule"] == PASS_RULE
    atol, rtol = re.fullmatch(r"\|analytic - numeric\| <= (\S+) \+ (\S+) \* \|numeric\|",
                              PASS_RULE).groups()
    assert (float(atol), float(rtol)) == (ATOL, RTOL)


def test_the_page_and_ag_gradcheck_share_one_pass_rule_and_its_tolerances():
    assert inspect.signature(ag.gradcheck).parameters["atol"].default == ATOL
    assert inspect.signature(ag.gradcheck).parameters["rtol"].default == RTOL


def test_a_graph_the_page_failed_and_ag_gradcheck_passed_now_passes_both():
    # y = x**3 at x = 0.3 with eps = 1e-2: the central difference is off by exactly eps**2 =
    # 1e-4 (truncation), more than the page's old 1e-6 + 1e-4 * 0.27 but within gradcheck's
    # 1e-5 + 1e-3 * 0.27. Before, the page said "differs" where ag.gradcheck said True.
    row = gradient_check(parse("x = 0.3\ny = x ** 3"), eps=1e-2).iloc[0]
    assert row["abs_error"] == pytest.approx(1e-4, rel=1e-6)
    assert row["abs_error"] > 1e-6 + 1e-4 * abs(row["analytic"])  # the old page rule failed it
    x = ag.tensor(0.3, requires_grad=True)
    assert ag.gradcheck(lambda t: t**3, (x,), eps=1e-2)
    assert row["passed"]


@pytest.mark.parametrize(("text", "fn"), [
    ("x = 0.3\ny = x ** 3", lambda x: x**3),
    ("x = 0.0\ny = relu(x)", ag.relu),
    ("x = 1.5\ny = tanh(x)", ag.tanh),
    ("x = [1.0, 0.0]\ny = sqrt(x)\nz = sum(y)", lambda x: ag.sqrt(x).sum()),
])
@pytest.mark.parametrize("eps", [1e-1, 1e-2, 1e-6])
def test_the_page_passes_a_graph_exactly_when_ag_gradcheck_passes_the_same_function(
    text, fn, eps
):
    spec = parse(text)
    x = ag.tensor(spec["x"].array(), requires_grad=True)
    with np.errstate(all="ignore"):
        engine_says = ag.gradcheck(fn, (x,), eps=eps, raise_exception=False)
    assert bool(gradient_check(spec, eps=eps)["passed"].all()) == engine_says


@pytest.mark.parametrize(("analytic", "numeric"), [
    (3.0, 3.0 + 2e-3), (3.0, 3.0 + 4e-3), (0.0, 5e-6), (0.0, 2e-5), (1e6, 1e6 + 900.0),
    (math.nan, 1.0), (1.0, math.inf), (math.inf, math.inf),
])
def test_each_row_passes_exactly_when_close_says_so(analytic, numeric):
    assert _row("x", (), analytic, numeric)["passed"] is bool(close(analytic, numeric))


def test_moving_an_input_recomputes_only_the_steps_between_it_and_the_output():
    probe = _Probe(get("mlp").spec, "L")
    assert [node.name for node in probe.steps["W2"]] == ["matmul_2", "logits", "L"]
    assert [node.name for node in probe.steps["b2"]] == ["logits", "L"]
    assert len(probe.steps["W1"]) == len(probe.steps["W2"]) + 3


def test_an_input_the_output_does_not_use_has_numeric_gradient_zero():
    table = gradient_check(parse("x = 1.0\nu = 2.0\nv = exp(u)\ny = x * 3.0"), output="y")
    assert table.set_index("node").loc["u", "numeric"] == 0.0
    assert table["passed"].all()


def test_a_chosen_output_is_checked():
    table = gradient_check(get("classic").spec, output="c")
    assert table.attrs["objective"] == "c"
    np.testing.assert_allclose(table["numeric"], [3.0, 2.0], atol=1e-8)


def test_a_kink_fails_the_check_with_the_errors_shown():
    row = gradient_check(parse("x = 0.0\ny = relu(x)")).iloc[0]
    assert row["analytic"] == 0.0
    assert row["numeric"] == pytest.approx(0.5)
    assert row["abs_error"] == pytest.approx(0.5)
    assert row["rel_error"] == pytest.approx(1.0)
    assert not row["passed"]


def test_a_nan_gradient_fails_the_check():
    table = gradient_check(get("softmax_naive").spec)
    assert not table["passed"].any()


def test_a_nan_gradient_has_a_nan_relative_error_not_zero():
    table = gradient_check(get("softmax_naive").spec)
    assert len(table) == 3
    assert table["analytic"].isna().all() and table["numeric"].isna().all()
    assert table["abs_error"].isna().all()
    assert table["rel_error"].isna().all()


@pytest.mark.parametrize(("analytic", "numeric", "abs_error"), [
    (1.0, math.nan, math.nan),
    (0.0, math.nan, math.nan),
    (math.inf, 1.0, math.inf),
    (math.inf, math.inf, math.nan),
])
def test_a_non_finite_gradient_on_either_side_fails_with_a_nan_relative_error(
    analytic, numeric, abs_error
):
    row = _row("x", (), analytic, numeric)
    assert list(row) == COLUMNS
    assert math.isnan(row["rel_error"])
    np.testing.assert_equal(row["abs_error"], abs_error)  # NaN equals NaN here
    assert row["passed"] is False


def test_two_zero_gradients_agree_with_a_relative_error_of_zero():
    row = gradient_check(parse("x = 1.0\nc = const(2.0)\ny = c * c + x * 0.0")).iloc[0]
    assert (row["analytic"], row["numeric"], row["abs_error"]) == (0.0, 0.0, 0.0)
    assert row["rel_error"] == 0.0 and row["passed"]


def test_the_check_leaves_the_spec_unchanged():
    spec = get("neuron").spec
    before = spec.to_json()
    gradient_check(spec)
    assert spec.to_json() == before


def test_too_many_input_elements_are_refused_with_the_limit():
    with pytest.raises(SpecError, match="4 elements in all, more than the 3"):
        gradient_check(parse("x = [1.0, 2.0, 3.0, 4.0]\ny = sum(x)"), max_elements=3)
    with pytest.raises(SpecError, match=f"more than the {limits.FD_MAX_ELEMENTS:,}"):
        gradient_check(parse("x = randn(50, 50, seed=0)\ny = sum(x)"))


def test_a_graph_without_inputs_has_nothing_to_check():
    with pytest.raises(SpecError, match="there is no input to check"):
        gradient_check(parse("a = const(2.0)\nb = a * 3.0"))


@pytest.mark.parametrize("eps", [0.0, -1e-6, 1.0, 2.0, float("nan"), "1e-6", True, None])
def test_epsilon_must_be_a_number_between_0_and_1(eps):
    with pytest.raises(SpecError, match="epsilon must lie between 0 and 1"):
        gradient_check(TANH, eps=eps)


def test_the_sweep_has_one_row_per_epsilon_from_1e_1_to_1e_10():
    sweep = epsilon_sweep(TANH)
    assert list(sweep.columns) == ["eps", "max_abs_error", "max_rel_error"]
    assert len(sweep) == 10
    assert sweep["eps"].tolist() == list(EPSILONS)
    assert EPSILONS[0] == 0.1 and EPSILONS[-1] == pytest.approx(1e-10, rel=1e-12)


def test_the_sweep_error_is_smallest_near_1e_6_and_grows_at_both_ends():
    errors = epsilon_sweep(TANH)["max_abs_error"].to_numpy()
    best = int(np.argmin(errors))
    assert best in (4, 5, 6)  # eps of 1e-5, 1e-6 or 1e-7
    assert errors[0] > 1e4 * errors[best]  # truncation: about eps**2
    assert errors[-1] > 1e2 * errors[best]  # round-off: about 1e-16 / eps
    assert np.all(np.diff(errors[: best + 1]) < 0)


def test_the_sweep_samples_at_most_its_element_limit():
    sweep = epsilon_sweep(parse("x = randn(10, 10, seed=0)\ny = sum(tanh(x))"))
    assert sweep.attrs["elements"] == limits.SWEEP_MAX_ELEMENTS
    assert sweep.attrs["objective"] == "y"


def test_the_sweep_refuses_a_bad_epsilon():
    with pytest.raises(SpecError, match="epsilon must lie between 0 and 1"):
        epsilon_sweep(TANH, epsilons=(1e-3, 0.0))


def test_epsilon_sweep_reports_nan_when_any_element_is_nan():
    # the first element's errors are finite, the second's (sqrt at 0) are not
    sweep = epsilon_sweep(parse("x = [1.0, 0.0]\ny = sqrt(x)\nz = sum(y)"))
    assert sweep["max_rel_error"].isna().all()
