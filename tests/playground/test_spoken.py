"""The step-through's chain-rule lines in words (playground.spoken), as a screen reader says
them: the README tour's step 1 and 2 of the classic graph, a hidden number, forward mode."""

from __future__ import annotations

from playground import presets, spoken, step_view, steps
from playground.evaluate import evaluate
from playground.notation import NodeNames

CLASSIC = presets.get("classic").spec


def reverse(k: int, hide=step_view.show_all) -> step_view.StepView:
    result = evaluate(CLASSIC)
    return step_view.view(result, "reverse", k, backward=steps.backward_steps(CLASSIC),
                          hide=hide)


def test_step_two_says_the_chain_rule_and_the_sum_at_a_in_words():
    assert reverse(2).spoken == (
        "Step 2 of 2: backward through c equals a times b",
        "the gradient of d by a gains the gradient of d by c times the derivative of c by a, "
        "that is 1.0000 times 3.0000, which is 3.0000",
        "the gradient of d by b gains the gradient of d by c times the derivative of c by b, "
        "that is 1.0000 times 2.0000, which is 2.0000",
        "the gradient of d by a equals 1.0000 plus 3.0000, which is 4.0000",
    )


def test_step_one_names_the_outputs_own_formula_and_a_term_still_to_come():
    said = reverse(1).spoken
    assert said[0] == "Step 1 of 2: backward through d equals c plus a"
    assert said[2] == ("the gradient of d by a gains the gradient of d by d times the "
                       "derivative of (c plus a) by a, that is 1.0000 times 1.0000, "
                       "which is 1.0000")
    assert said[3] == "the gradient of d by a equals 1.0000 plus unknown"
    assert reverse(0).spoken == ("Step 0 of 2: backward starts at d with gradient 1",
                                 "the gradient of d by d equals 1")


def test_a_number_an_exercise_hides_is_said_as_unknown():
    said = reverse(2, lambda quantity, name: quantity == "grad" and name in ("a", "b", "c")).spoken
    assert said[1] == ("the gradient of d by a gains the gradient of d by c times the "
                       "derivative of c by a, that is unknown times 3.0000, which is unknown")
    assert "3.0000, which is 3.0000" not in " ".join(said)


def test_forward_and_tangent_lines_in_words():
    result = evaluate(CLASSIC)
    assert step_view.view(result, "forward", 1).spoken == (
        "Step 1 of 2: compute c equals a times b",
        "c equals a times b, that is 2.0000 times 3.0000, which is 6.0000")
    names = NodeNames("d")
    text = f"{names.dot('c').text} = ∂c/∂a · {names.dot('a').text} = 3.0000 · 1.0000 = 3.0000"
    assert spoken.words(text, "") == ("the tangent of c equals the derivative of c by a times "
                                      "the tangent of a, that is 3.0000 times 1.0000, which is "
                                      "3.0000")
