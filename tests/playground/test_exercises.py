"""Exercises: which numbers are hidden, the link parameter, guesses, the tolerance, the score."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground import evaluate, presets, view
from playground.errors import SpecError
from playground.exercises import (
    Exercise,
    answers,
    check,
    from_param,
    hideable,
    make,
    parse_guess,
    score,
)
from playground.steps import tangents


def classic():
    return evaluate(presets.get("classic").spec)


def test_an_exercise_travels_as_one_short_parameter_and_back():
    result = classic()
    exercise = make(result, "grad", ["a", "b"])
    assert exercise.to_param() == "grad:a,b"
    assert from_param("grad:a,b", result) == (exercise, [])
    moved = make(result, "tangent", ["c", "d"], "a")
    assert moved.to_param() == "tangent@a:c,d"
    assert from_param(moved.to_param(), result) == (moved, [])


@given(st.text(max_size=300))
def test_any_parameter_text_is_read_or_ignored_with_a_reason_never_raised(text):
    exercise, ignored = from_param(text, classic())
    assert (exercise is None) == bool(ignored)


def test_a_parameter_naming_nodes_the_graph_lacks_is_ignored_with_the_reason():
    exercise, ignored = from_param("grad:a,zz", classic())
    assert exercise is None and "zz" in ignored[0]
    assert from_param(None, classic()) == (None, [])


def test_constants_have_no_gradient_to_hide_but_a_value():
    result = evaluate(presets.get("two_paths").spec)
    constants = [n.name for n in result.nodes if n.kind == "const"]
    assert not set(constants) & set(hideable(result, "grad"))
    assert set(constants) <= set(hideable(result, "value"))
    with pytest.raises(SpecError, match="constant"):
        make(result, "grad", constants[:1])


def test_a_tangent_exercise_needs_an_input_to_move():
    with pytest.raises(SpecError, match="input to move"):
        make(classic(), "tangent", ["c"], "c")
    assert make(classic(), "grad", ["a"], "a").wrt is None


def test_answers_are_the_engines_numbers():
    result = classic()
    assert answers(make(result, "grad", ["a"]), result) == {"a": result.grad("a")}
    moved = tangents(presets.get("classic").spec, result, "a").values
    assert float(answers(make(result, "tangent", ["d"], "a"), result, moved)["d"]) == 4.0


def test_a_guess_is_right_within_a_relative_1e_3_or_1e_6_near_zero():
    assert check(np.array(4.0039), np.array(4.0))
    assert not check(np.array(4.005), np.array(4.0))
    assert check(np.array(5e-7), np.array(0.0))
    assert not check(np.array(2e-6), np.array(0.0))
    assert check(np.array([1.0, -2.0]), np.array([1.0, -2.0005]))
    assert not check(np.array([1.0, 2.0]), np.array([1.0, -2.0]))
    assert check(np.array(np.nan), np.array(np.nan)) and not check(np.array(1.0), np.array(np.nan))


def test_guesses_are_read_by_the_value_reader_and_must_have_the_nodes_shape():
    assert parse_guess(" 4 ", ()) == 4.0
    assert parse_guess("[[3], [3]]", (2, 1)).tolist() == [[3.0], [3.0]]
    assert parse_guess("2.5", (1, 1)).shape == (1, 1)
    with pytest.raises(SpecError, match=r"shape \(2, 1\).*\[\[0\], \[0\]\]"):
        parse_guess("[3, 3]", (2, 1))
    with pytest.raises(SpecError, match="numbers themselves"):
        parse_guess("randn(2, seed=0)", (2,))
    with pytest.raises(SpecError):
        parse_guess("__import__('os')", ())
    with pytest.raises(SpecError, match="at most"):
        parse_guess("1" * 3000, ())
    with pytest.raises(SpecError, match="type a number"):
        parse_guess("  ", ())


def test_the_score_counts_right_guesses_out_of_every_hidden_node():
    assert score({"a": True, "b": False, "c": "not a number", "d": True}, 5) == "2 of 5 correct"


@pytest.mark.parametrize("preset", presets.EXERCISES, ids=lambda p: p.key)
def test_every_exercise_preset_is_a_valid_exercise_with_a_teaching_note(preset):
    result = evaluate(preset.spec)
    exercise = make(result, preset.quantity, preset.hidden, preset.wrt)
    assert isinstance(exercise, Exercise) and len(preset.note) > 100
    assert from_param(exercise.to_param(), result) == (exercise, [])


def test_the_exercise_parameter_is_one_of_the_apps_and_is_removed_when_cleared():
    assert view.EXERCISE_PARAM in view.QUERY_KEYS
    old_link = {"graph": "v1.abc", "show": "grad"}
    assert view.app_query(old_link)[view.EXERCISE_PARAM] is None  # old links: no exercise
    updates, removals = view.query_updates({"graph": "v1.abc", "ex": "grad:a"},
                                           {"graph": "v1.abc"})
    assert updates == {} and removals == ["ex"]


def test_no_score_before_a_check_and_the_next_answer_is_the_first_wrong_one():
    from playground.exercises import Exercise, next_to_reveal, score, still_hidden

    assert "0 of" not in score({}, 3)
    ex = Exercise("grad", ("a", "b", "c", "d"))
    marks = {"a": True, "c": False}
    assert next_to_reveal(ex, (), marks) == "c"  # not a, already right
    assert next_to_reveal(ex, ("c",), marks) == "b"  # then the first not guessed
    assert next_to_reveal(ex, ("b", "c", "d"), marks) is None
    assert still_hidden(ex, ("b",), marks).nodes == ("c", "d")
    assert still_hidden(ex, ("b", "c", "d"), marks) is None  # all found or revealed: pages open
    assert still_hidden(None, (), {}) is None
