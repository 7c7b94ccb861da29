"""The frictions a class met, each fixed or explained on the page (the issue "In front of a
class"): one test each."""

from __future__ import annotations

from app_helpers import (
    BUILD,
    GRADIENT_CHECK,
    GRADIENTS,
    GRAPH,
    drawing_of,
    open_page,
    run,
    start,
)

from pages.ui import keys
from playground import parse, presets, share
from playground.registry import BY_FAMILY, FAMILY, OPS

BACKPROP = "pages/backprop.py"


def test_the_operation_list_is_grouped_by_family_and_searchable_by_it(app):
    open_page(app, BUILD)
    box = app.selectbox(key=keys.ADD_OP)
    labels = box.options
    assert len(labels) == len(OPS)
    assert "activation · tanh — " in next(label for label in labels if " · tanh — " in label)
    families = [label.split(" · ")[0] for label in labels]
    assert families == [FAMILY[name] for name in BY_FAMILY]
    assert families[:1] == ["arithmetic"] and sorted(set(families)) == sorted(set(FAMILY.values()))
    # one family's ops sit together, so the list reads as groups
    assert all(families.index(f) + families.count(f) - 1 == len(families) - 1
               - families[::-1].index(f) for f in set(families))
    box.set_value("tanh")
    run(app)
    assert app.selectbox(key=keys.ADD_OP).value == "tanh"


def _exercise_on_step_through(app):
    open_page(app, BACKPROP)
    app.selectbox(key=keys.EXERCISE_PRESET).set_value("paths_meet")
    return run(app)


def _guess(at, answers: dict[str, str]):
    exercise = at.session_state[keys.EXERCISE]
    for name, text in answers.items():
        at.text_input(key=keys.guess(exercise, name)).input(text)
    next(b for b in at.button if b.label == "Check").click()
    return run(at)


def _score(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Score:"))


def test_no_score_before_the_first_check(app):
    at = _exercise_on_step_through(app)
    assert "0 of" not in _score(at) and "Check" in _score(at)
    at = _guess(at, {"a": "4"})
    assert "1 of 3 correct" in _score(at)


def test_reveal_shows_the_first_wrong_answer_not_one_already_right(app):
    at = _guess(_exercise_on_step_through(app), {"a": "4", "b": "5"})  # a right, b wrong
    at.button(key=keys.EXERCISE_REVEAL).click()
    at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("b",)
    at.button(key=keys.EXERCISE_REVEAL).click()  # then the first not guessed yet
    at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("b", "c")


def test_answering_everything_right_opens_the_closed_pages(app):
    at = _exercise_on_step_through(app)
    open_page(at, GRADIENTS)
    assert any("stays closed" in i.value for i in at.info)
    open_page(at, BACKPROP)
    at = _guess(at, {"a": "4", "b": "2", "c": "1"})
    assert "3 of 3 correct" in _score(at)
    open_page(at, GRADIENTS)
    assert not any("stays closed" in i.value for i in at.info)
    assert at.title[0].value == "Gradients" and len(at.dataframe) >= 1


def test_a_student_with_the_exercise_link_does_not_see_the_teachers_set_up(app):
    teacher = _exercise_on_step_through(app)
    assert teacher.button(key=keys.EXERCISE_CLEAR)  # the teacher can still clear it
    query = {k: v for k, v in teacher.query_params.items()}
    student = start({k: v[0] if isinstance(v, list) else v for k, v in query.items()},
                    page=BACKPROP)
    assert student.session_state[keys.EXERCISE].nodes == ("a", "b", "c")
    assert not [b for b in student.button if b.key == keys.EXERCISE_CLEAR]
    assert not [s for s in student.selectbox if s.key == keys.EXERCISE_PRESET]
    assert any("came with the link" in c.value for c in student.caption)


def test_a_label_typed_as_a_list_is_named_on_build_as_an_input_with_a_gradient():
    spec = parse("x = [1.0, 2.0, 3.0]\ny = [1.0, 0.0, 0.0]\nL = mse_loss(softmax(x, axis=-1), y)")
    at = start({"graph": share.encode(spec)})
    note = next(i.value for i in at.info if "loss's target" in i.value)
    assert note.startswith("`y` is an input") and "const(" in note


def test_the_epsilon_slider_runs_small_to_large_as_the_charts_axis():
    at = start(page=GRADIENT_CHECK)
    slider = at.select_slider(key=keys.EPS_WIDGET)
    assert list(slider.options) == sorted(slider.options, key=float)
    assert slider.options[0] == "1e-10" and slider.options[-1] == "1e-01"


def test_showing_values_only_hides_every_gradient_on_the_graph_page():
    at = start({"graph": share.encode(presets.get("classic").spec), "show": "value"},
               page=GRAPH)
    assert "grad" not in drawing_of(at).svg  # records and hover text alike
    text = next(t.value for t in at.text if "value 8.0000" in t.value)  # the graph as text
    assert "grad" not in text
    sidebar = " ".join(c.value for c in at.sidebar.caption)
    assert "∂d/∂a" not in sidebar and "Values" in sidebar


def test_a_revealed_value_shows_in_the_drawing_before_its_step():
    at = start({"graph": share.encode(presets.get("classic").spec), "ex": "value:c,d"},
               page=BACKPROP)
    assert drawing_of(at).texts("d")[-1] == "value ?"  # step 0: hidden, and not computed yet
    for _ in range(2):
        at.button(key=keys.EXERCISE_REVEAL).click()
        at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("c", "d")
    assert drawing_of(at).texts("d")[-1] == "value 8.0000"
    assert drawing_of(at).texts("c")[-1] == "value 6.0000"
