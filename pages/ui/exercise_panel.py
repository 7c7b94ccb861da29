"""Exercises on the Step through page: the teacher hides numbers, students guess, check and
reveal them one node at a time, and see their score. The other pages that would show the hidden
numbers (Build, Graph, Gradients, Gradient check) stay closed until they are revealed.

The exercise (which nodes, which quantity) lives in `keys.EXERCISE` and travels in the share
link (`session.share_query`); the guesses live only in their text boxes, never in the URL.
"""

from __future__ import annotations

import streamlit as st

from pages.ui import cached, frame, keys
from pages.ui import session as state
from playground import SpecError, exercises, presets
from playground.errors import as_markdown
from playground.evaluate import Result
from playground.exercises import Exercise


def stop_if_answers_hidden(title: str) -> None:
    """On a page that would show the numbers an exercise still hides: its title, what is hidden,
    the way to the exercise and a button that reveals every answer; nothing else."""
    hidden = state.still_hidden(state.exercise())
    if hidden is None:
        return
    st.title(title)
    what = exercises.QUANTITIES[hidden.quantity]
    st.info(f"**An exercise hides the {what} of {as_markdown(', '.join(hidden.nodes))}.** "
            "This page would show "
            "them, so it stays closed until they are revealed: work them out on the Step through "
            "page, check your guesses there, and reveal the answers one node at a time.",
            icon=":material/school:")
    with st.container(horizontal=True):
        st.page_link(frame.page("backprop.py"), label="Go to the exercise",
                     icon=":material/timeline:")
        st.button("Reveal every answer", icon=":material/visibility:",
                  key=keys.EXERCISE_REVEAL_ALL, on_click=_reveal, args=(list(hidden.nodes),))
    st.stop()


def matching_preset(spec_json: str, ex: Exercise | None) -> presets.ExercisePreset | None:
    """The exercise preset this graph and exercise are, unchanged, if any."""
    if ex is None:
        return None
    return next((p for p in presets.EXERCISES if p.spec.to_json() == spec_json
                 and (p.quantity, p.hidden, p.wrt) == (ex.quantity, ex.nodes, ex.wrt)), None)


def teaching_note(spec_json: str, ex: Exercise | None) -> None:
    """The preset's teaching note, above the drawing."""
    preset = matching_preset(spec_json, ex)
    if preset is not None:
        st.info(f"**Exercise: {preset.title}.** {preset.note}", icon=":material/school:")


def panel(spec_json: str, result: Result, ex: Exercise | None) -> None:
    """Set an exercise up (teacher), then guess, check and reveal (students)."""
    st.subheader("Exercise", divider="gray")
    # The set-up (with Clear) is for whoever set this exercise up in this browser tab, or for
    # anyone while none is open: a student who opened the teacher's link never sees it.
    if ex is None or st.session_state.get(keys.EXERCISE_MINE):
        with st.expander("Set up an exercise (teacher)", expanded=ex is None):
            _setup(result, ex)
    else:
        st.caption("This exercise came with the link you opened. Its set-up is the teacher's, "
                   "in the tab where they made it; the app opened without the link sets up "
                   "exercises of your own.")
    if ex is None:
        st.caption("No numbers are hidden. Set up an exercise above, or load one of the "
                   "exercise presets; the link in the sidebar then carries it to the class.")
        return
    _guesses(spec_json, result, ex)


def _setup(result: Result, ex: Exercise | None) -> None:
    st.selectbox("Load an exercise preset", [p.key for p in presets.EXERCISES], index=None,
                 format_func=lambda key: _preset(key).title, key=keys.EXERCISE_PRESET,
                 placeholder="Choose an exercise…", on_change=_load_preset)
    st.caption("Or hide numbers of this graph:")
    quantity = st.session_state.get(keys.EXERCISE_QUANTITY) or "grad"
    st.segmented_control("Hide", list(exercises.QUANTITIES), format_func=exercises.QUANTITIES.get,
                         key=keys.EXERCISE_QUANTITY, default="grad", required=True)
    st.multiselect(f"Nodes whose {exercises.QUANTITIES[quantity]} are hidden",
                   exercises.hideable(result, quantity), key=keys.EXERCISE_NODES + quantity)
    inputs = [n.name for n in result.nodes if n.kind == "input"]
    if quantity == "tangent" and inputs:
        st.selectbox("Tangents along the input", inputs, key=keys.EXERCISE_WRT,
                     help="Forward mode moves this input's first element by one.")
    row = st.container(horizontal=True)
    row.button("Hide them", key=keys.EXERCISE_SET, on_click=_set, args=(result,),
               icon=":material/visibility_off:", type="primary")
    row.button("Clear the exercise", key=keys.EXERCISE_CLEAR, on_click=state.set_exercise,
               args=(None,), disabled=ex is None, icon=":material/visibility:")
    error = state.error_for("exercise")
    if error is not None:
        st.error(as_markdown(str(error)), icon=":material/error:")


def _preset(key: str) -> presets.ExercisePreset:
    return next(p for p in presets.EXERCISES if p.key == key)


def _load_preset() -> None:
    key = st.session_state[keys.EXERCISE_PRESET]
    st.session_state[keys.EXERCISE_PRESET] = None
    if key is None:
        return
    preset = _preset(key)
    if state.apply_edit("exercise", lambda _: preset.spec):
        result = cached.evaluate(state.spec_json())
        _start(exercises.make(result, preset.quantity, preset.hidden, preset.wrt))


def _set(result: Result) -> None:
    quantity = st.session_state.get(keys.EXERCISE_QUANTITY) or "grad"
    nodes = st.session_state.get(keys.EXERCISE_NODES + quantity) or []
    if not nodes:
        st.session_state[keys.ERRORS]["exercise"] = SpecError(
            "pick at least one node whose numbers the students should work out")
        return
    try:
        made = exercises.make(result, quantity, nodes, st.session_state.get(keys.EXERCISE_WRT))
    except SpecError as err:
        st.session_state[keys.ERRORS]["exercise"] = err
        return
    state.clear_error("exercise")
    _start(made)


def _start(ex: Exercise) -> None:
    """Set ``ex`` and show the mode where its numbers appear; this tab set it up."""
    state.set_exercise(ex)
    st.session_state[keys.EXERCISE_MINE] = True
    st.session_state[keys.STEP_MODE] = exercises.MODE_OF[ex.quantity]
    if ex.wrt is not None:
        st.session_state[keys.STEP_WRT] = (ex.wrt, 0)


def _label(ex: Exercise, name: str, output: str) -> str:
    if ex.quantity == "grad":
        return f"∂{output}/∂{name}"
    if ex.quantity == "tangent":
        return f"tangent of {name} (along {ex.wrt})"
    return f"value of {name}"


def _answers(spec_json: str, result: Result, ex: Exercise) -> dict:
    moved = cached.tangents(spec_json, ex.wrt, 0).values if ex.quantity == "tangent" else None
    return exercises.answers(ex, result, moved)


def _guesses(spec_json: str, result: Result, ex: Exercise) -> None:
    answers = _answers(spec_json, result, ex)
    marks = st.session_state.get(keys.EXERCISE_MARKS, {})
    revealed = st.session_state.get(keys.EXERCISE_REVEALED, ())
    st.markdown(f"Work out the hidden **{exercises.QUANTITIES[ex.quantity]}** (shown as ?), type "
                "one guess per node and press **Check**. A guess is right within 0.1 % "
                "(or 1e-6 near zero); a tensor is typed as a list, such as [1, 2].")
    with st.form(keys.EXERCISE_CHECK + "_form", border=False):
        for name in ex.nodes:
            guess_col, mark_col = st.columns([3, 2], vertical_alignment="bottom")
            guess_col.text_input(_label(ex, name, result.output), key=keys.guess(ex, name),
                                 max_chars=exercises.MAX_GUESS_CHARS,
                                 placeholder="a number" if answers[name].size == 1
                                 else f"a list of shape {answers[name].shape}")
            mark = marks.get(name)
            label = as_markdown(_label(ex, name, result.output))
            if mark is True:  # a status and an alert: screen readers announce them
                mark_col.success(f"✔ right ({label})", icon=None)
            elif mark is False:
                mark_col.error(f"✘ not yet ({label})", icon=None)
            elif isinstance(mark, str):
                mark_col.warning(as_markdown(mark))
            if name in revealed:
                mark_col.markdown(f"answer: `{exercises.answer_text(answers[name])}`")
        st.form_submit_button("Check", type="primary", icon=":material/task_alt:",
                              on_click=_check, args=(ex, answers))
    row = st.container(horizontal=True, vertical_alignment="center")
    reveal = exercises.next_to_reveal(ex, revealed, marks)
    row.button("Reveal the next answer", key=keys.EXERCISE_REVEAL, on_click=_reveal,
               args=([reveal] if reveal else [],), disabled=reveal is None,
               icon=":material/lightbulb:",
               help="Shows the answer of the first node guessed wrong (or else not guessed "
               "yet), in the drawing and here.")
    row.markdown(f"**Score: {exercises.score(marks, len(ex.nodes))}**")


def _check(ex: Exercise, answers: dict) -> None:
    marks = {}
    for name in ex.nodes:
        text = st.session_state.get(keys.guess(ex, name), "")
        if not text.strip():
            continue
        try:
            guess = exercises.parse_guess(text, answers[name].shape)
        except SpecError as err:
            marks[name] = str(err)
            continue
        marks[name] = exercises.check(guess, answers[name])
    st.session_state[keys.EXERCISE_MARKS] = marks


def _reveal(names: list[str]) -> None:
    revealed = st.session_state.get(keys.EXERCISE_REVEALED, ())
    st.session_state[keys.EXERCISE_REVEALED] = (*revealed, *names)
