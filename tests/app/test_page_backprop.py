"""The Step through page in AppTest: stepping in each mode shows the engine's numbers, Play
reaches the end, a node reached twice accumulates, the trace table, and exercises (check,
reveal, score, the pages closed until revealed, and the exercise in a share link)."""

from __future__ import annotations

import shutil
from urllib.parse import parse_qsl, urlparse

import pytest
from app_helpers import (
    BACKPROP,
    GRADIENTS,
    ROOT,
    drawing_of,
    new_app,
    open_page,
    run,
    share_link_of,
    spec_of,
    start,
)

from autograd.format import number
from pages.ui import keys
from playground import evaluate, presets, share, traces, view
from playground.errors import from_markdown
from playground.steps import backward_steps, tangents

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is missing")


def step_page(query=None):
    return run(new_app(query, page=BACKPROP))


def latex(at) -> str:
    """The page's LaTeX bodies (st.latex wraps each in $$ … $$), one per line."""
    return "\n".join(e.value.strip().strip("$").strip() for e in at.latex)


def first_line(at) -> str:
    """The step's own equation: the first LaTeX beside the drawing."""
    return at.latex[0].value.strip().strip("$").strip()


def heading(at) -> str:
    return from_markdown(next(m.value for m in at.markdown if m.value.startswith("**Step ")))


def choose_mode(at, mode: str):
    at.segmented_control(key=keys.STEP_MODE_WIDGET).set_value(mode)
    return run(at)


def press(at, name: str):
    at.button(key=keys.STEP_BUTTON + name).click()
    return run(at)


def test_the_page_opens_on_reverse_mode_at_step_0_with_the_seed():
    at = step_page()
    assert at.title[0].value == "Step through"
    assert heading(at) == "**Step 0 of 2: backward starts at d with gradient 1**"
    assert at.slider(key=keys.STEP_SLIDER).value == 0
    assert not at.error


@needs_dot
def test_reverse_mode_step_by_step_shows_the_engines_contributions_and_blanks():
    spec = presets.get("classic").spec
    backward = backward_steps(spec)
    at = step_page()
    assert drawing_of(at).texts("a")[-1] == "grad ?"
    for k in range(1, backward.count + 1):
        at = press(at, "next")
        assert heading(at).startswith(f"**Step {k} of {backward.count}")
        for c in backward.steps[k - 1].contributions:
            assert f"= {number(c.value)}" in latex(at)
    drawn = drawing_of(at)
    result = evaluate(spec)
    for name in ("a", "b", "c", "d"):
        assert number(result.grad(name)) in drawn.texts(name)[-1]
    at = press(at, "back")
    assert heading(at).startswith("**Step 1 of 2")
    at = press(at, "first")
    assert at.slider(key=keys.STEP_SLIDER).value == 0
    at = press(at, "last")
    assert at.slider(key=keys.STEP_SLIDER).value == 2


@needs_dot
def test_a_node_reached_along_two_paths_shows_its_partial_sum_then_the_total():
    at = press(step_page(), "next")
    assert drawing_of(at).texts("a")[-1] == "grad 1.0000 + ? = …"
    assert r"= 1.0000 + \text{?}" in latex(at)
    at = press(at, "next")
    assert drawing_of(at).texts("a")[-1] == "grad 1.0000 + 3.0000 = 4.0000"
    assert "= 1.0000 + 3.0000 \\\\ &= 4.0000" in latex(at)


def test_the_forward_pass_shows_each_value_as_it_is_computed():
    at = choose_mode(step_page(), "forward")
    result = evaluate(presets.get("classic").spec)
    assert heading(at) == "**Step 0 of 2: the inputs and constants are given**"
    for k, name in enumerate(("c", "d"), start=1):
        at.slider(key=keys.STEP_SLIDER).set_value(k)
        at = run(at)
        assert heading(at).startswith(f"**Step {k} of 2: compute {name} =")
        assert first_line(at).endswith(f"= {number(result.value(name))}\\end{{aligned}}")


def test_forward_mode_shows_each_tangent_of_the_chosen_input():
    spec = presets.get("classic").spec
    result = evaluate(spec)
    at = choose_mode(step_page(), "tangent")
    at.selectbox(key=keys.STEP_WRT_WIDGET).set_value("b")
    at = run(at)
    moved = tangents(spec, result, "b")
    for name in ("c", "d"):
        at = press(at, "next")
        assert first_line(at).endswith(f"= {number(moved.values[name])}\\end{{aligned}}")
    passes = next(c.value for c in at.caption if c.value.startswith("**Passes"))
    assert "forward mode needs **2**" in passes and "reverse mode needs **1**" in passes


def test_play_advances_a_step_per_run_and_stops_at_the_end():
    at = step_page({"graph": share.encode(presets.get("neuron").spec)})
    count = backward_steps(presets.get("neuron").spec).count
    at = press(at, "play")
    assert at.session_state[keys.STEP_PLAYING]
    seen = [at.slider(key=keys.STEP_SLIDER).value]
    for _ in range(count + 3):
        if not at.session_state[keys.STEP_PLAYING]:
            break
        at = run(at)  # what the one-second timer does
        seen.append(at.slider(key=keys.STEP_SLIDER).value)
    assert seen[-1] == count and not at.session_state[keys.STEP_PLAYING]
    assert seen == sorted(seen)
    assert at.button(key=keys.STEP_BUTTON + "play").label == "Play"


def test_play_says_its_pace_which_is_slower_under_reduced_motion():
    at = step_page()
    play = at.button(key=keys.STEP_BUTTON + "play")
    assert play.help == "Advance one step every 1 s, to the end."
    at.session_state[keys.REDUCED_MOTION] = True  # as pages/ui/motion.py's report sets it
    at = run(at)
    assert at.button(key=keys.STEP_BUTTON + "play").help == (
        "Advance one step every 3 s, to the end (slower: your system asks for reduced motion).")


def test_the_trace_table_holds_the_adjoint_trace_and_highlights_the_step():
    at = press(step_page(), "next")
    table = at.dataframe[0].value
    result = evaluate(presets.get("classic").spec)
    rows = traces.adjoint_trace(result, backward_steps(presets.get("classic").spec))
    assert list(table["equation"]) == [r.equation.text for r in rows]
    assert list(table["value"]) == [r.value for r in rows]
    assert "v̄₋₁ += v̄₁ · ∂v₁/∂v₋₁ = 1.0000 · 3.0000 = 3.0000" in list(table["equation"])


def load_exercise(at, key: str):
    at.selectbox(key=keys.EXERCISE_PRESET).set_value(key)
    return run(at)


def guess(at, name: str, text: str):
    exercise = at.session_state[keys.EXERCISE]
    at.text_input(key=keys.guess(exercise, name)).input(text)


def check(at):
    next(b for b in at.button if b.label == "Check").click()
    return run(at)


def answer(at, answers: dict[str, str]):
    """Types each guess and presses Check once."""
    for name, text in answers.items():
        guess(at, name, text)
    return check(at)


def score(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Score:"))


def paths_meet_exercise(app):
    """The "paths_meet" exercise loaded on the Step through page of a started session."""
    return load_exercise(open_page(app, BACKPROP), "paths_meet")


@needs_dot
def test_an_exercise_hides_checks_scores_and_reveals_one_node_at_a_time():
    at = load_exercise(step_page(), "paths_meet")
    assert at.info[0].value.startswith("**Exercise: Gradients add where paths meet.**")
    at = press(at, "last")
    assert drawing_of(at).texts("a")[-1] == "grad ?"
    assert "4.0000" not in latex(at)
    guess(at, "a", "4")
    guess(at, "b", "2.001")
    guess(at, "c", "7")
    at = check(at)
    assert at.session_state[keys.EXERCISE_MARKS] == {"a": True, "b": True, "c": False}
    assert any("2 of 3 correct" in m.value for m in at.markdown)
    assert [from_markdown(s.value).strip("✔ ") for s in at.success] == ["right (∂d/∂a)",
                                                                  "right (∂d/∂b)"]
    # a guess found right shows in the drawing; the next answer revealed is the wrong one
    assert drawing_of(at).texts("a")[-1] == "grad 1.0000 + 3.0000 = 4.0000"
    assert drawing_of(at).texts("c")[-1] == "grad ?"
    at.button(key=keys.EXERCISE_REVEAL).click()
    at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("c",)
    assert drawing_of(at).texts("c")[-1] != "grad ?"
    assert at.button(key=keys.EXERCISE_REVEAL).disabled  # nothing left: all found or revealed


def test_a_bad_guess_says_what_to_type_and_keeps_the_graph():
    at = load_exercise(step_page(), "broadcast_sum")
    guess(at, "col", "[3, 3]")
    at = check(at)
    assert "shape (2, 1)" in from_markdown(at.warning[0].value)
    assert spec_of(at) == presets.EXERCISES[2].spec


def test_the_exercise_survives_a_share_link_but_the_guesses_do_not():
    at = load_exercise(step_page(), "count_passes")
    guess(at, "f", "2")
    at = check(at)
    link = {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}
    assert link[view.EXERCISE_PARAM] == "tangent@x:xy,s,f"
    assert "2" not in link.values()  # the guess stays in the student's browser
    student = step_page(link)
    exercise = student.session_state[keys.EXERCISE]
    assert exercise.to_param() == "tangent@x:xy,s,f"
    assert student.session_state[keys.STEP_MODE] == "tangent"
    assert student.text_input(key=keys.guess(exercise, "f")).value == ""
    assert student.info[0].value.startswith("**Exercise: Forward or reverse mode")


def test_the_sidebar_link_carries_the_exercise():
    at = load_exercise(step_page(), "paths_meet")
    query = dict(parse_qsl(urlparse(share_link_of(at)).query))
    assert query["ex"] == "grad:a,b,c"
    assert start(query, page=BACKPROP).session_state[keys.EXERCISE].nodes == ("a", "b", "c")


def test_a_link_with_a_broken_exercise_warns_and_opens_without_it():
    at = step_page({"ex": "grad:nope"})
    assert at.session_state[keys.EXERCISE] is None
    assert any("exercise" in w.value for w in at.warning)


@pytest.mark.parametrize("key", [p.key for p in presets.PRESETS])
def test_every_preset_steps_to_its_end_in_every_mode(key):
    at = step_page({"graph": share.encode(presets.get(key).spec)})
    for mode in ("reverse", "forward", "tangent"):
        at = choose_mode(at, mode)
        if not at.button(key=keys.STEP_BUTTON + "last").disabled:
            at = press(at, "last")
        assert not at.exception and not at.error, (mode, [e.value for e in at.error])


def test_the_readmes_exercise_link_opens_the_exercise_with_its_note():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    link = next(line.strip() for line in readme.splitlines() if "&ex=" in line)
    at = step_page(dict(parse_qsl(urlparse(link).query)))
    assert at.session_state[keys.EXERCISE].to_param() == "grad:a,b,c"
    assert at.info[0].value.startswith("**Exercise: Gradients add where paths meet.**")


@pytest.mark.parametrize(("page", "title"), [("pages/build.py", "Build"),
                                             ("pages/graph.py", "Graph"),
                                             ("pages/gradients.py", "Gradients"),
                                             ("pages/gradient_check.py", "Gradient check")])
def test_the_pages_that_would_show_an_exercises_answers_stay_closed_until_revealed(page, title):
    link = {"graph": share.encode(presets.EXERCISES[0].spec), "ex": "grad:a,b,c"}
    at = run(new_app(link, page=page))
    assert at.title[0].value == title
    assert from_markdown(at.info[0].value).startswith(
        "**An exercise hides the gradients of a, b, c.**")
    assert not at.main.get("bidi_component") and not at.dataframe and not at.metric  # no numbers
    at.button(key=keys.EXERCISE_REVEAL_ALL).click()
    at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("a", "b", "c")
    assert not any(from_markdown(i.value).startswith("**An exercise hides") for i in at.info)
    assert at.main.get("bidi_component") or at.dataframe  # the drawing, or the check's table
    assert not at.exception and not at.error


def test_a_page_reopens_once_step_through_revealed_every_hidden_node():
    at = load_exercise(step_page(), "paths_meet")
    at.session_state[keys.EXERCISE_REVEALED] = ("a", "b")
    at.switch_page("pages/gradients.py")
    at = run(at)
    assert at.info[0].value.startswith("**An exercise hides the gradients of c.**")
    at.session_state[keys.EXERCISE_REVEALED] = ("a", "b", "c")
    at = run(at)
    assert at.title[0].value == "Gradients" and at.dataframe


def test_the_sidebar_keeps_a_presets_explanation_back_while_it_would_give_answers_away():
    at = load_exercise(step_page(), "paths_meet")  # the graph of the "classic" preset
    captions = [c.value for c in at.sidebar.caption]
    assert not any("= 4" in c for c in captions)
    assert any("shows once the exercise's answers are revealed" in c for c in captions)
    at.session_state[keys.EXERCISE_REVEALED] = ("a", "b", "c")
    at = run(at)
    assert any("∂d/∂a = b + 1 = 4" in c.value for c in at.sidebar.caption)


def test_no_score_before_the_first_check(app):
    at = paths_meet_exercise(app)
    assert "0 of" not in score(at) and "Check" in score(at)
    at = answer(at, {"a": "4"})
    assert "1 of 3 correct" in score(at)


def test_reveal_shows_the_first_wrong_answer_not_one_already_right(app):
    at = answer(paths_meet_exercise(app), {"a": "4", "b": "5"})  # a right, b wrong
    at.button(key=keys.EXERCISE_REVEAL).click()
    at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("b",)
    at.button(key=keys.EXERCISE_REVEAL).click()  # then the first not guessed yet
    at = run(at)
    assert at.session_state[keys.EXERCISE_REVEALED] == ("b", "c")


def test_answering_everything_right_opens_the_closed_pages(app):
    at = paths_meet_exercise(app)
    open_page(at, GRADIENTS)
    assert any("stays closed" in i.value for i in at.info)
    open_page(at, BACKPROP)
    at = answer(at, {"a": "4", "b": "2", "c": "1"})
    assert "3 of 3 correct" in score(at)
    open_page(at, GRADIENTS)
    assert not any("stays closed" in i.value for i in at.info)
    assert at.title[0].value == "Gradients" and len(at.dataframe) >= 1


def test_a_student_with_the_exercise_link_does_not_see_the_teachers_set_up(app):
    teacher = paths_meet_exercise(app)
    assert teacher.button(key=keys.EXERCISE_CLEAR)  # the teacher can still clear it
    query = {k: v for k, v in teacher.query_params.items()}
    student = start({k: v[0] if isinstance(v, list) else v for k, v in query.items()},
                    page=BACKPROP)
    assert student.session_state[keys.EXERCISE].nodes == ("a", "b", "c")
    assert not [b for b in student.button if b.key == keys.EXERCISE_CLEAR]
    assert not [s for s in student.selectbox if s.key == keys.EXERCISE_PRESET]
    assert any("came with the link" in c.value for c in student.caption)


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
