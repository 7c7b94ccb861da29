"""Lessons on the Live class page, through AppTest: the teacher adds a ready lesson and the class
follows it through every step, a lesson link opens a room with its steps, and the teacher's
Step through position becomes a step the class sees."""

from __future__ import annotations

import pytest
from test_app_classroom import fresh_database, join, run, session, texts  # noqa: F401

from pages.ui import classroom_lessons as lessons_ui
from pages.ui import classroom_state as cs
from pages.ui import classroom_student as student_ui
from pages.ui import classroom_teacher as teacher_ui
from pages.ui import keys
from playground.classroom import lesson, lessons
from playground.errors import from_markdown


def teacher_with(ready: str):
    at = session()
    at.button(key=student_ui.OPEN_ROOM).click()
    run(at)
    at.selectbox(key=lessons_ui.READY).select(ready)
    run(at)
    at.button(key=lessons_ui.ADD_READY).click()
    return run(at), at.session_state[cs.TEACHER]


@pytest.mark.parametrize("ready", [r.key for r in lessons.READY])
def test_the_class_follows_a_ready_lesson_through_every_step(ready):
    chosen = lessons.ready(ready)
    teacher, room = teacher_with(ready)
    count = len(chosen.steps)
    assert f"{count} steps added" in texts(teacher)
    ada = join(room.code, "Ada")
    for number, (_, title) in enumerate(chosen.steps, 1):
        if number > 1:
            teacher.button(key=teacher_ui.NEXT).click()
            run(teacher)
        assert f"Step {number} of {count}: {title}" in texts(teacher)
        run(ada)  # the follower's tick
        assert f"Step {number} of {count}: {title}" in texts(ada)
        step = cs.classroom().student_view(room.code, ada.session_state[cs.STUDENT].token).step
        content = lesson.open_step(step.page, step.query)
        if content.exercise is not None:  # a box for each hidden number
            for node in content.exercise.nodes:
                assert ada.text_input(key=student_ui.answer_key(step.id, node))
        if content.position is not None:  # the step of Step through, with its chain rule
            assert ada.session_state[keys.STEP_MODE] == content.position.mode
            assert ada.session_state[keys.STEPS] == {"reverse": content.position.step}
            assert len(ada.latex) >= 1
        if content.page == "train":
            assert ada.get("link_button")[0].proto.url.endswith("/train?data=xor")
    assert teacher.button(key=teacher_ui.NEXT).disabled  # the end of the lesson


def test_a_lesson_link_opens_a_room_with_its_steps():
    _, room = teacher_with("softmax_xent")
    saved = cs.classroom().room_state(room.code, room.key).steps
    param = lessons.to_param([(s.target, s.title) for s in saved])
    visitor = session({lessons.PARAM: param})
    assert f"This link holds a lesson of {len(saved)} steps" in texts(visitor)
    visitor.button(key=student_ui.OPEN_ROOM).click()
    run(visitor)
    mine = visitor.session_state[cs.TEACHER]
    assert mine.code != room.code and lessons.PARAM not in visitor.query_params
    assert [(s.target, s.title) for s in cs.classroom().room_state(mine.code, mine.key).steps] \
        == [(s.target, s.title) for s in saved]
    # the teacher's own page gives the same link back
    assert any(f"?lesson={param}" in c.value for c in visitor.code)


def test_a_damaged_lesson_link_says_why_and_the_room_opens_empty():
    visitor = session({lessons.PARAM: "l1.AAAA"})
    assert "The lesson of this link does not open: the lesson link is damaged" in \
        from_markdown(visitor.warning[0].value)
    visitor.button(key=student_ui.OPEN_ROOM).click()
    run(visitor)
    mine = visitor.session_state[cs.TEACHER]
    assert cs.classroom().room_state(mine.code, mine.key).steps == ()
    assert "was not added: the lesson link is damaged" in texts(visitor)


def test_a_lesson_link_pasted_into_a_room_adds_its_steps():
    teacher, room = teacher_with("paths_meet")
    param = lessons.to_param(lessons.ready("tanh_chain").steps)
    teacher.text_input(key=lessons_ui.LINK).input(f"https://class.example/class?lesson={param}")
    teacher.button(key=lessons_ui.ADD_LINK).click()
    run(teacher)
    steps = cs.classroom().room_state(room.code, room.key).steps
    assert len(steps) == len(lessons.ready("paths_meet").steps) + 5
    assert steps[-1].title == "Train tanh units on XOR"
    assert teacher.text_input(key=lessons_ui.LINK).value == ""


def test_the_teachers_step_through_position_is_a_step_the_class_sees():
    at = session()
    at.button(key=student_ui.OPEN_ROOM).click()
    run(at)
    at.session_state[keys.STEP_MODE] = "reverse"  # as the Step through page leaves them
    at.session_state[keys.STEPS] = {"reverse": 1}
    run(at)
    at.selectbox(key=teacher_ui.ADD_PAGE).select("backprop")
    run(at)
    assert "reverse mode, step 1" in at.checkbox(key=teacher_ui.ADD_AT).label
    at.checkbox(key=teacher_ui.ADD_AT).check()
    at.button(key=teacher_ui.ADD_VIEW).click()
    run(at)
    room = at.session_state[cs.TEACHER]
    step = cs.classroom().room_state(room.code, room.key).steps[0]
    assert "at=reverse:1" in step.query and step.title.endswith("reverse mode, step 1")
    ada = join(room.code, "Ada")
    assert ada.session_state[keys.STEPS] == {"reverse": 1}
    assert "Step 1 of 2" in texts(ada)  # the drawing's heading: backward step 1 of the 2
