"""Whole lessons: the three ready ones (every step opens, and their exercises hide the numbers
the lesson is about), a lesson saved as a JSON file or a link and loaded again, what a damaged or
hostile lesson gets, and a Step through position as a step. Rooms on SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import json
import zlib

import numpy as np
import pytest
from classroom_helpers import CLASSIC, exercise_link, link

from playground import limits, presets
from playground.classroom import Refused, lesson, lessons

READY_KEYS = [r.key for r in lessons.READY]


def _answers(made: lesson.StepLink) -> dict[str, list[float]]:
    key = lesson.read_key(made.answer_key)
    return {node: [round(float(x), 4) for x in key.answers[node].reshape(-1)] for node in key.nodes}


def test_three_ready_lessons_named_as_the_issue_asks():
    assert [r.title for r in lessons.READY] == [
        "Gradients add where paths meet", "The chain rule through tanh",
        "Softmax + cross-entropy gives p − y"]
    for ready in lessons.READY:
        assert 5 <= len(ready.steps) <= limits.MAX_ROOM_STEPS
        assert all(len(title) <= limits.MAX_STEP_TITLE_CHARS for _, title in ready.steps)


def test_the_ready_lessons_exercises_hide_the_numbers_they_teach():
    paths, tanh, softmax = (lessons.read_steps(r.steps) for r in lessons.READY)
    assert [m.page for m in paths] == ["graph", "backprop", "backprop", "backprop", "backprop",
                                       "backprop"]
    assert _answers(paths[1]) == {"a": [4.0], "b": [2.0], "c": [1.0]}  # 1 + b, a, 1
    assert _answers(paths[4]) == {"a": [3.0]}  # (a + 3) + (a * 2): 1 + 2
    assert _answers(paths[5]) == {"x": [12.0], "y": [2.0]}  # z = y + y, y = x * x, x = 3
    assert _answers(tanh[2]) == {"n": [0.5], "xw": [0.5], "b": [0.5], "x": [-1.5], "w": [1.0]}
    assert _answers(tanh[3]) == {"w1": [1.0], "w2": [0.0]}  # x2 = 0: w2 does not learn
    assert tanh[4].page == "train" and tanh[4].query == "data=xor"  # tanh is the default
    p = np.exp([2.0, 1.0, 0.1]) / np.exp([2.0, 1.0, 0.1]).sum()
    assert _answers(softmax[1]) == {"z": [round(p[0] - 1, 4), round(p[1], 4), round(p[2], 4)]}
    q = np.exp([0.0, 1.0, 2.0]) / np.exp([0.0, 1.0, 2.0]).sum()
    assert _answers(softmax[3]) == {"z": [round(q[0], 4), round(q[1], 4), round(q[2] - 1, 4)]}
    assert softmax[4].page == "gradients"


@pytest.mark.parametrize("key", READY_KEYS)
def test_each_ready_lesson_loads_into_a_room_and_each_step_opens(room, key):
    ready = lessons.ready(key)
    teacher = room.create_room()
    added = room.add_steps(teacher.code, teacher.key, list(lessons.read_steps(ready.steps)))
    ada = room.join(teacher.code, "Ada")
    assert [s.position for s in added] == list(range(len(ready.steps)))
    assert [s.title for s in added] == [title for _, title in ready.steps]
    for step in added:
        room.go_to(teacher.code, teacher.key, step.position)
        seen = room.student_view(teacher.code, ada.token)
        assert seen.step.id == step.id and seen.count == len(ready.steps)
        content = lesson.open_step(seen.step.page, seen.step.query)
        assert content.page == step.page
        if step.page == "train":
            assert content.train_query
        else:
            assert content.spec is not None
        assert bool(seen.labels) == step.exercise == (content.exercise is not None)
        if f"{lesson.POSITION_PARAM}=" in step.query:
            assert content.position is not None and content.position.mode == "reverse"


def test_the_first_ready_lesson_walks_backward_one_step_at_a_time():
    steps = lessons.read_steps(lessons.ready("paths_meet").steps)
    at = [lesson.open_step(s.page, s.query).position for s in steps]
    assert at == [None, None, lesson.Position("reverse", 1), lesson.Position("reverse", 2),
                  None, None]


# --- saving and loading -----------------------------------------------------------------------


def test_a_lesson_saved_as_a_file_or_a_link_loads_the_same_steps(room):
    teacher = room.create_room()
    for text in (link("graph", font="24"), exercise_link(),
                 link("backprop", at="reverse:1"), "train?act=relu&lr=0.1"):
        room.add_step(teacher.code, teacher.key, text)
    room.add_step(teacher.code, teacher.key, link("gradients"), "A title of my own")
    saved = [(s.target, s.title) for s in room.room_state(teacher.code, teacher.key).steps]

    from_file = lessons.read_json(lessons.to_json(saved))
    from_link = lessons.read_param(lessons.to_param(saved))
    assert from_file == from_link
    assert [(m.target, m.title) for m in from_file] == saved
    assert json.loads(lessons.to_json(saved))["format"] == "autograd-playground-lesson"

    again = room.create_room()
    room.add_steps(again.code, again.key, list(from_link))
    copied = room.room_state(again.code, again.key).steps
    assert [(s.target, s.title, s.exercise) for s in copied] == [
        (s.target, s.title, s.exercise) for s in room.room_state(teacher.code, teacher.key).steps]
    assert copied[4].title == "A title of my own"


def test_a_whole_address_with_the_lesson_reads_as_its_parameter():
    param = lessons.to_param([(exercise_link(), "x")])
    address = f"https://class.example/class?lesson={param}&other=1"
    assert lessons.read_param(address) == lessons.read_param(param)


def test_a_lesson_is_added_all_or_nothing_and_within_the_step_limit(room):
    teacher = room.create_room()
    room.add_steps(teacher.code, teacher.key,
                   list(lessons.read_steps([(link("graph"), None)] * (limits.MAX_ROOM_STEPS - 2))))
    ready = list(lessons.read_steps(lessons.ready("tanh_chain").steps))
    with pytest.raises(Refused, match=f"at most {limits.MAX_ROOM_STEPS} steps"):
        room.add_steps(teacher.code, teacher.key, ready)
    assert len(room.room_state(teacher.code, teacher.key).steps) == limits.MAX_ROOM_STEPS - 2


def _packed(document: str | bytes) -> str:
    raw = document.encode() if isinstance(document, str) else document
    return lessons.PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def _doc(steps) -> str:
    return json.dumps({"format": lessons.FORMAT, "version": 1, "steps": steps})


@pytest.mark.parametrize(("text", "says"), [
    ("not json {", "not a JSON document"),
    ("[" * 100_000 + "]" * 100_000, "not a JSON document"),
    (json.dumps({"steps": []}), "is not a lesson"),
    (json.dumps({"format": lessons.FORMAT, "version": 7, "steps": []}), "another version"),
    (_doc([]), "has no steps"),
    (_doc([{"link": link("graph")}] * (limits.MAX_ROOM_STEPS + 1)), "at most 50 steps"),
    (_doc([{"link": link("graph")}, {"title": "no link"}]), "step 2 of the lesson has no link"),
    (_doc([{"link": link("graph")}, {"link": "https://evil.example/admin"}]),
     "step 2 of the lesson: 'admin' is not a page of this app"),
    (_doc([{"link": exercise_link("grad:zz")}]), "step 1 of the lesson: the link's exercise"),
    (_doc([{"link": link("graph"), "title": "t" * 81}]), "longer than 80 characters"),
    (_doc([{"link": link("graph"), "title": ["list"]}]), "a step's title is text"),
    (b"\xff\xfe not utf-8", "not text (UTF-8)"),
    ("x" * (lessons.MAX_FILE_CHARS + 1), "more than the limit of 1,700,000"),
])
def test_a_damaged_or_hostile_lesson_file_is_refused_saying_why(text, says):
    with pytest.raises(Refused) as caught:
        lessons.read_json(text)
    assert says in str(caught.value)


@pytest.mark.parametrize(("text", "says"), [
    ("", "paste the lesson link"),
    ("v1.abc", "this is not a lesson link"),
    ("l1.abc$%", "this is not a lesson link"),
    ("l1.AAAA", "damaged"),
    (_packed("not json"), "not a JSON document"),
    (_packed(b"\x00" * (lessons.MAX_FILE_CHARS + 10)), "unpacks to more than 1,700,000 bytes"),
    ("l1." + "A" * (lessons.MAX_LINK_CHARS + 1), "save the lesson as a file instead"),
    (_packed(_doc([{"link": link("graph", spec=CLASSIC, font="999")}])),
     "step 1 of the lesson: the link's display settings"),
])
def test_a_damaged_or_hostile_lesson_link_is_refused_saying_why(text, says):
    with pytest.raises(Refused) as caught:
        lessons.read_param(text)
    assert says in str(caught.value)


def test_a_lesson_bomb_is_cut_off_while_unpacking():
    """A link of 34,000 characters can pack gigabytes of zeros: unpacking stops at the limit."""
    bomb = _packed(b" " * 20_000_000)
    assert len(bomb) < lessons.MAX_LINK_CHARS
    with pytest.raises(Refused, match="unpacks to more than"):
        lessons.read_param(bomb)


# --- a Step through position ------------------------------------------------------------------


@pytest.mark.parametrize(("at", "expected", "title"), [
    ("reverse:0", lesson.Position("reverse", 0), "reverse mode, step 0"),
    ("reverse:2", lesson.Position("reverse", 2), "reverse mode, step 2"),
    ("forward:2", lesson.Position("forward", 2), "forward pass, step 2"),
    ("tangent:1:b:0", lesson.Position("tangent", 1, ("b", 0)), "forward mode along b, step 1"),
])
def test_a_step_through_position_is_a_step(at, expected, title):
    made = lesson.read_link(link("backprop", at=at))
    assert f"at={at}" in made.query
    assert made.title == f"Step through: {presets.get('classic').title}, {title}"
    assert lesson.open_step(made.page, made.query).position == expected


@pytest.mark.parametrize(("at", "says"), [
    ("reverse", "a mode and a step"),
    ("backward:1", "a mode and a step"),
    ("reverse:-1", "a mode and a step"),
    ("reverse:3", "Reverse mode has 2 steps through this graph, not 3"),
    ("forward:3", "Forward pass has 2 steps through this graph, not 3"),
    ("tangent:1", "forward mode names the input that moves"),
    ("reverse:1:a:0", "only forward mode names an input"),
    ("tangent:1:c:0", "forward mode moves an input of the graph (a, b)"),
    ("tangent:1:a:1", "a has 1 element, numbered from 0"),
    ("reverse:" + "9" * 300, "a mode and a step"),
])
def test_a_position_the_graph_does_not_have_is_refused_saying_why(at, says):
    with pytest.raises(Refused) as caught:
        lesson.read_link(link("backprop", at=at))
    assert says in str(caught.value)


def test_a_position_belongs_to_step_through():
    with pytest.raises(Refused, match="needs a graph on the Step through page"):
        lesson.read_link(link("graph", at="reverse:1"))


def test_a_position_counts_the_steps_as_step_through_does():
    """Reverse mode steps through the engine's backward Functions (cross_entropy is one), the
    forward pass and forward mode through the operations."""
    spec = next(p for p in presets.EXERCISES if p.key == "softmax_xent").spec
    assert lesson.step_count(spec, "reverse") == 1 and lesson.step_count(spec, "forward") == 1
    neuron = presets.get("neuron").spec
    assert lesson.step_count(neuron, "reverse") == 5 and lesson.step_count(neuron, "forward") == 5
    made = lesson.read_link(link("backprop", neuron, at="reverse:5"))
    assert made.answer_key is None and made.title.endswith("reverse mode, step 5")
