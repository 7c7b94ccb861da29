"""Each limit of a live class, one past its value, is refused with the message the README's
Limits table quotes (tests/playground/test_limits.py keeps the table's values in step)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from classroom_helpers import exercise_link, link

from playground import limits, parse
from playground.classroom import Classroom, ClassroomError, database

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "playground"))
from test_limits import _quoted, _table  # noqa: E402

CLASSROOM_LIMITS = ("ROOM_SECONDS", "MAX_ROOM_STEPS", "MAX_ROOM_STUDENTS", "MAX_NICKNAME_CHARS",
                    "MAX_STEP_TITLE_CHARS", "MAX_STEP_HIDDEN_ELEMENTS",
                    "JOINS_PER_ROOM_PER_MINUTE", "JOINS_PER_CLIENT_PER_MINUTE",
                    "WRONG_CODES_PER_CLIENT_PER_HOUR", "ROOMS_PER_CLIENT_PER_HOUR",
                    "ANSWERS_PER_STUDENT_PER_MINUTE")


@pytest.fixture
def room(tmp_path, clock):
    classroom = Classroom.open(database.database_url({database.DATA_ENV: str(tmp_path)}), clock)
    yield classroom
    classroom.engine.dispose()


def _refusal(room, clock, name) -> str:
    """Go one past limit ``name`` (small copies of the big ones) and return the message."""
    t = room.create_room("10.0.0.1")
    with pytest.raises(ClassroomError) as caught:
        if name == "ROOM_SECONDS":
            clock.advance(limits.ROOM_SECONDS + 1)
            room.join(t.code)
        elif name == "MAX_ROOM_STEPS":
            for _ in range(limits.MAX_ROOM_STEPS + 1):
                room.add_step(t.code, t.key, link())
        elif name == "MAX_ROOM_STUDENTS":
            for i in range(limits.MAX_ROOM_STUDENTS + 1):
                room.join(t.code, None, f"10.1.{i // 250}.{i % 250}")
        elif name == "MAX_NICKNAME_CHARS":
            room.join(t.code, "n" * (limits.MAX_NICKNAME_CHARS + 1))
        elif name == "MAX_STEP_TITLE_CHARS":
            room.add_step(t.code, t.key, link(), "t" * (limits.MAX_STEP_TITLE_CHARS + 1))
        elif name == "MAX_STEP_HIDDEN_ELEMENTS":
            big = parse(f"x = randn({limits.MAX_STEP_HIDDEN_ELEMENTS + 1}, seed=0)\nL = sum(x)")
            room.add_step(t.code, t.key, link("backprop", big, ex="grad:x"))
        elif name in ("JOINS_PER_ROOM_PER_MINUTE", "JOINS_PER_CLIENT_PER_MINUTE"):
            clock.now -= clock.now % 60
            per_room = name == "JOINS_PER_ROOM_PER_MINUTE"
            for i in range(getattr(limits, name) + 1):
                room.join(t.code, None, f"10.2.0.{i}" if per_room else "10.2.0.1")
        elif name == "WRONG_CODES_PER_CLIENT_PER_HOUR":
            clock.now -= clock.now % 3600
            for i in range(limits.WRONG_CODES_PER_CLIENT_PER_HOUR + 1):
                try:
                    room.join("ZZZZ" + "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"[i % 32] * 2, None,
                              "10.3.0.1")
                except ClassroomError as err:
                    if "wrong join codes" in str(err):
                        raise
        elif name == "ROOMS_PER_CLIENT_PER_HOUR":
            clock.now -= clock.now % 3600
            for _ in range(limits.ROOMS_PER_CLIENT_PER_HOUR + 1):
                room.create_room("10.4.0.1")
        elif name == "ANSWERS_PER_STUDENT_PER_MINUTE":
            clock.now -= clock.now % 60
            step = room.add_step(t.code, t.key, exercise_link())
            student = room.join(t.code)
            for _ in range(limits.ANSWERS_PER_STUDENT_PER_MINUTE + 1):
                room.submit_answer(t.code, student.token, step.id, "a", "4")
    return str(caught.value)


@pytest.mark.parametrize("name", CLASSROOM_LIMITS)
def test_a_classroom_limit_one_past_its_value_is_refused_with_the_tables_message(
        room, clock, monkeypatch, name):
    if name in ("MAX_ROOM_STUDENTS", "JOINS_PER_ROOM_PER_MINUTE",
                "WRONG_CODES_PER_CLIENT_PER_HOUR"):  # only the limit under test may refuse
        monkeypatch.setattr(limits, "JOINS_PER_CLIENT_PER_MINUTE", 10**6)
    if name == "MAX_ROOM_STUDENTS":
        monkeypatch.setattr(limits, "JOINS_PER_ROOM_PER_MINUTE", 10**6)
    quoted = _quoted(_table()[name][2])
    assert quoted, f"the README gives no message for {name}"
    message = _refusal(room, clock, name)
    assert re.sub(r"\s+", " ", quoted) in message, (name, message)
