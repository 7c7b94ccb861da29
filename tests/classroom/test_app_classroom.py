"""The Live class page, driven through Streamlit's AppTest: a teacher's session and students'
sessions side by side on one database (a fresh SQLite file per test). A student's follower
fragment runs on a timer in a browser; here each `run()` of the student's session is one tick."""

from __future__ import annotations

from pathlib import Path

import pytest
from classroom_helpers import exercise_link, link
from streamlit.testing.v1 import AppTest

from pages.ui import classroom_state as cs
from pages.ui import classroom_student as student_ui
from pages.ui import classroom_teacher as teacher_ui
from pages.ui import frame, keys
from playground import presets
from playground.classroom import database
from playground.errors import from_markdown

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/class.py"


@pytest.fixture(autouse=True)
def fresh_database(tmp_path, monkeypatch):
    """Every test on its own SQLite file: the page's cached Classroom is opened anew."""
    monkeypatch.setenv(database.DATA_ENV, str(tmp_path))
    monkeypatch.delenv(database.URL_ENV, raising=False)
    cs.classroom.clear()
    yield
    cs.classroom().engine.dispose()
    cs.classroom.clear()


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def session(query: dict[str, str] | None = None) -> AppTest:
    """A new browser tab on the Live class page."""
    at = AppTest.from_file(str(ROOT / "navigation.py"), default_timeout=60)
    at.query_params.update(query or {})
    run(at)  # the first run registers the pages (the class page's url path is "class")
    at.switch_page(PAGE)
    return run(at)


def texts(at: AppTest) -> str:
    """Everything the page wrote, as text (the Markdown escapes of `as_markdown` taken out)."""
    written = ([m.value for m in at.markdown] + [c.value for c in at.caption]
               + [s.value for s in at.subheader] + [e.value for e in at.error]
               + [i.value for i in at.info] + [s.value for s in at.success])
    return "\n".join(from_markdown(w) for w in written)


def teacher_with_exercise() -> tuple[AppTest, str]:
    """A teacher who opened a room and added the classic graph's gradient exercise (opened from
    its link, as the sidebar's Share link gives it) as the first step."""
    query = dict(p.split("=", 1) for p in exercise_link().split("?", 1)[1].split("&"))
    from urllib.parse import unquote

    at = session({k: unquote(v) for k, v in query.items()})
    at.button(key=student_ui.OPEN_ROOM).click()
    run(at)
    at.selectbox(key=teacher_ui.ADD_PAGE).select("backprop")
    at.button(key=teacher_ui.ADD_VIEW).click()
    run(at)
    return at, at.session_state[cs.TEACHER].code


def join(code: str, nickname: str = "") -> AppTest:
    at = session({cs.JOIN_PARAM: code})
    assert at.text_input(key=student_ui.JOIN_CODE).value == code  # the link fills it in
    at.text_input(key=student_ui.NICKNAME).input(nickname)
    at.button(key="FormSubmitter:" + student_ui.W + "join_form-Join").click()
    return run(at)


def test_the_page_is_in_the_navigation_at_class():
    assert ("class.py", "Live class", ":material/co_present:") in frame.PAGES
    assert cs.PAGE_PATH == "class"  # the file's name: a fresh server's first request finds it


def test_a_teacher_opens_a_room_with_a_code_a_qr_code_and_a_private_link():
    at = session()
    assert "Join a class" in texts(at) and "Teach a class" in texts(at)
    at.button(key=student_ui.OPEN_ROOM).click()
    run(at)
    room = at.session_state[cs.TEACHER]
    assert room.code in texts(at)
    codes_shown = [c.value for c in at.code]
    assert f"/class?join={room.code}" in codes_shown[0]
    assert any(f"room={room.code}&key={room.key}" in c for c in codes_shown)
    assert len(at.get("image")) == 1  # the QR code
    assert "key" not in at.query_params


def test_the_teacher_link_opens_the_room_in_another_browser_and_leaves_the_address_bar():
    teacher, code = teacher_with_exercise()
    key = teacher.session_state[cs.TEACHER].key
    again = session({cs.ROOM_PARAM: code, cs.KEY_PARAM: key})
    assert again.session_state[cs.TEACHER].code == code
    assert cs.KEY_PARAM not in again.query_params and cs.ROOM_PARAM not in again.query_params
    assert "Step 1 of 1" in texts(again)
    forged = session({cs.ROOM_PARAM: code, cs.KEY_PARAM: key[:-2] + "xx"})
    assert cs.TEACHER not in forged.session_state
    assert "does not open a class" in texts(forged)


def test_students_join_follow_answer_and_the_teacher_sees_who_understood():
    teacher, code = teacher_with_exercise()
    ada, bo = join(code, "Ada"), join(code)
    for at, name in ((ada, "Ada"), (bo, "Student 2")):
        assert f"You are **{name}** in class **{code}**" in texts(at)
        assert "Step 1 of 1" in texts(at)
        # the step is this session's graph now, with its exercise (Step through hides them)
        assert at.session_state[keys.EXERCISE].nodes == ("a", "b", "c")
        assert at.query_params[cs.PASS_PARAM] == at.session_state[cs.STUDENT].token
    step_id = ada.session_state[cs.LOADED][0]
    for node, guess in (("a", "4"), ("b", "2"), ("c", "1")):
        ada.text_input(key=student_ui.answer_key(step_id, node)).input(guess)
    bo.text_input(key=student_ui.answer_key(step_id, "a")).input("2")
    for at in (ada, bo):
        at.button(key=f"FormSubmitter:{student_ui.W}answers_{step_id}-Send").click()
        run(at)
    assert "right (you sent 4)" in texts(ada) and "not yet (you sent 2)" in texts(bo)
    assert "4.0000" not in texts(bo)  # no answer shown before the reveal

    run(teacher)  # the projector fragment's next tick
    metrics = {m.label: m.value for m in teacher.metric}
    assert metrics == {"Joined": "2", "Answered": "2", "All right": "50%"}
    assert len(teacher.get("vega_lite_chart")) == 3  # one chart per hidden number
    assert "**2** · 1 student · the value of a" in texts(teacher)  # a recognised mistake

    teacher.button(key=teacher_ui.REVEAL).click()
    run(teacher)
    run(bo)  # the follower's tick: the teacher revealed
    assert "**Answer: 4.0000**" in texts(bo)


def test_the_class_follows_the_teacher_to_the_next_step():
    teacher, code = teacher_with_exercise()
    ada = join(code, "Ada")
    teacher.text_input(key=teacher_ui.PASTE).input(link("graph", font="28", dir="LR"))
    teacher.button(key=teacher_ui.ADD_PASTED).click()
    run(teacher)
    teacher.button(key=teacher_ui.NEXT).click()
    run(teacher)
    title = "Graph: " + presets.get(presets.DEFAULT_KEY).title
    assert f"Step 2 of 2: {title}" in texts(teacher)
    run(ada)
    assert f"Step 2 of 2: {title}" in texts(ada)
    assert ada.session_state[keys.EXERCISE] is None  # this step hides nothing
    assert ada.session_state[keys.OPTIONS].rankdir == "LR"  # and carries its view
    assert ada.session_state[keys.OPTIONS].font_size == 14  # but not the projector's text size
    assert len(ada.get("page_link")) >= 1
    teacher.button(key=teacher_ui.PREVIOUS).click()
    run(teacher)
    run(ada)
    assert "Step 1 of 2" in texts(ada)


def test_a_locked_step_takes_no_answers_and_a_forged_pass_is_no_student():
    teacher, code = teacher_with_exercise()
    ada = join(code, "Ada")
    teacher.button(key=teacher_ui.LOCK).click()
    run(teacher)
    run(ada)
    assert "closed the answers" in texts(ada)
    step_id = ada.session_state[cs.LOADED][0]
    assert ada.text_input(key=student_ui.answer_key(step_id, "a")).disabled
    forged = session({cs.JOIN_PARAM: code, cs.PASS_PARAM: "not-a-pass"})
    assert cs.STUDENT not in forged.session_state and "Join a class" in texts(forged)


def test_a_wrong_code_and_a_bad_nickname_say_what_is_wrong():
    at = join("ZZZZZZ", "Ada")
    assert "no class has this join code" in texts(at)
    teacher, code = teacher_with_exercise()
    at = join(code, "<b>x</b>")
    assert "letters, digits, spaces" in texts(at) and cs.STUDENT not in at.session_state


def test_the_lesson_reorders_and_removes_steps_from_the_page():
    teacher, code = teacher_with_exercise()
    teacher.selectbox(key=teacher_ui.ADD_PAGE).select("graph")
    teacher.button(key=teacher_ui.ADD_VIEW).click()
    run(teacher)
    steps = cs.classroom().room_state(code, teacher.session_state[cs.TEACHER].key).steps
    teacher.button(key=f"{teacher_ui.W}up_{steps[1].id}").click()
    run(teacher)
    teacher_pass = teacher.session_state[cs.TEACHER]
    moved = cs.classroom().room_state(code, teacher_pass.key).steps
    assert [s.id for s in moved] == [steps[1].id, steps[0].id]
    teacher.button(key=f"{teacher_ui.W}remove_{steps[1].id}").click()
    run(teacher)
    assert [s.id for s in cs.classroom().room_state(code, teacher_pass.key).steps] == [
        steps[0].id]


def test_the_csv_download_holds_the_answers():
    teacher, code = teacher_with_exercise()
    ada = join(code, "Ada")
    step_id = ada.session_state[cs.LOADED][0]
    ada.text_input(key=student_ui.answer_key(step_id, "a")).input("4")
    ada.button(key=f"FormSubmitter:{student_ui.W}answers_{step_id}-Send").click()
    run(ada)
    run(teacher)
    assert [b.label for b in teacher.get("download_button")] == [
        "Lesson file (JSON)", "The class's answers (CSV)"]
    text = cs.classroom().export_csv(code, teacher.session_state[cs.TEACHER].key)
    assert ",Ada,a,4,yes," in text
