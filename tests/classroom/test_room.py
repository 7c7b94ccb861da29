"""The room's rules, on SQLite and on a real PostgreSQL (the `room` fixture runs each test on
both): the lesson, answers, expiry, rate limits and isolation."""

from __future__ import annotations

import csv
import io

import pytest
from classroom_helpers import exercise_link, link, vector_exercise_link
from sqlalchemy import event, func, select

from playground import limits
from playground.classroom import Closed, NotAllowed, NotFound, Refused, TooMany, codes
from playground.classroom.schema import answers, rate_counters, rooms, steps, students


def _count(room, table) -> int:
    with room.engine.connect() as conn:
        return conn.scalar(select(func.count()).select_from(table))


@pytest.fixture
def lesson(room):
    """A room with an exercise step (current) and a plain graph step, and two students."""
    teacher = room.create_room("10.0.0.1")
    first = room.add_step(teacher.code, teacher.key, exercise_link())
    second = room.add_step(teacher.code, teacher.key, link("graph"))
    ada = room.join(teacher.code, "Ada", "10.0.0.2")
    bo = room.join(teacher.code, None, "10.0.0.3")
    return teacher, first, second, ada, bo


# --- rooms, codes and keys ------------------------------------------------------------------------


def test_a_room_has_a_readable_code_and_a_key_kept_only_hashed(room, clock):
    teacher = room.create_room("10.0.0.1")
    assert len(teacher.code) == 6 and set(teacher.code) <= set(codes.ALPHABET)
    assert not set(teacher.code) & set("0O1I")
    assert teacher.expires_ms == int(clock() * 1000) + limits.ROOM_SECONDS * 1000
    with room.engine.connect() as conn:
        stored = conn.execute(select(rooms)).one()
    assert stored.teacher_hash == codes.digest(teacher.key) != teacher.key
    assert teacher.key not in repr(tuple(stored))


def test_a_code_is_read_as_typed_on_a_phone(room):
    teacher = room.create_room()
    typed = f" {teacher.code[:3].lower()}-{teacher.code[3:].lower()} "
    assert room.join(typed, "Ada").code == teacher.code
    with pytest.raises(Refused, match="never 0, O, 1 or I"):
        room.join("OI01AB")


def test_the_first_step_added_becomes_current_and_steps_keep_their_order(room):
    teacher = room.create_room()
    first = room.add_step(teacher.code, teacher.key, exercise_link())
    second = room.add_step(teacher.code, teacher.key, link("graph"))
    third = room.add_step(teacher.code, teacher.key, link("train").split("?")[0]
                          + "?data=spiral&layers=8,8")
    state = room.room_state(teacher.code, teacher.key)
    assert [s.id for s in state.steps] == [first.id, second.id, third.id]
    assert [s.position for s in state.steps] == [0, 1, 2]
    assert state.current == first and first.exercise and not second.exercise
    assert third.page == "train" and "data=spiral" in third.query
    assert first.title.startswith("Step through: Gradients add where paths meet")


def test_reorder_remove_and_move_through_the_lesson(lesson, room):
    teacher, first, second, *_ = lesson
    third = room.add_step(teacher.code, teacher.key, link("gradients"))
    room.move_step(teacher.code, teacher.key, third.id, 0)
    order = [s.id for s in room.room_state(teacher.code, teacher.key).steps]
    assert order == [third.id, first.id, second.id]
    room.move_step(teacher.code, teacher.key, third.id, 99)  # clamped to the end
    assert [s.id for s in room.room_state(teacher.code, teacher.key).steps] == [
        first.id, second.id, third.id]
    assert room.advance(teacher.code, teacher.key).id == second.id
    assert room.advance(teacher.code, teacher.key).id == third.id
    assert room.advance(teacher.code, teacher.key).id == third.id  # stays at the end
    assert room.advance(teacher.code, teacher.key, -1).id == second.id
    room.remove_step(teacher.code, teacher.key, second.id)  # the current one: its successor
    state = room.room_state(teacher.code, teacher.key)
    assert [s.position for s in state.steps] == [0, 1] and state.current.id == third.id
    room.go_to(teacher.code, teacher.key, 0)
    assert room.room_state(teacher.code, teacher.key).current.id == first.id


def test_every_change_students_see_moves_the_beat(lesson, room):
    teacher, first, second, ada, _ = lesson
    seen = [room.beat(teacher.code, ada.token).version]
    for change in (lambda: room.advance(teacher.code, teacher.key),
                   lambda: room.reveal(teacher.code, teacher.key),
                   lambda: room.lock(teacher.code, teacher.key),
                   lambda: room.reset_step(teacher.code, teacher.key),
                   lambda: room.add_step(teacher.code, teacher.key, link("graph"))):
        change()
        seen.append(room.beat(teacher.code, ada.token).version)
        assert room.version(teacher.code) == seen[-1]
    assert seen == sorted(set(seen))
    assert room.beat(teacher.code, teacher.key).step_id == second.id


def test_a_lesson_has_at_most_its_steps(room):
    teacher = room.create_room()
    for _ in range(limits.MAX_ROOM_STEPS):
        room.add_step(teacher.code, teacher.key, link("graph"))
    with pytest.raises(Refused, match=f"at most {limits.MAX_ROOM_STEPS} steps"):
        room.add_step(teacher.code, teacher.key, link("graph"))


def test_a_link_the_app_would_not_open_is_refused_and_nothing_is_added(room):
    teacher = room.create_room()
    for bad in ("https://x/admin?graph=v1.AAAA", link("graph")[:-12] + "!!!", "",
                exercise_link("grad:nosuchnode"), "https://x/graph?font=999&graph=v1.x" * 1000):
        with pytest.raises(Refused):
            room.add_step(teacher.code, teacher.key, bad)
    assert room.room_state(teacher.code, teacher.key).steps == ()


# --- students and answers -----------------------------------------------------------------------


def test_answers_are_marked_by_the_server_and_the_latest_counts(lesson, room):
    teacher, first, _, ada, bo = lesson
    assert not room.submit_answer(teacher.code, ada.token, first.id, "a", "3").correct
    assert room.submit_answer(teacher.code, ada.token, first.id, "a", " 4.0 ").correct
    room.submit_answer(teacher.code, ada.token, first.id, "b", "2")
    room.submit_answer(teacher.code, ada.token, first.id, "c", "1")
    room.submit_answer(teacher.code, bo.token, first.id, "a", "2")  # a's value: a known mistake
    view = room.student_view(teacher.code, ada.token)
    assert view.mine == {"a": ("4.0", True), "b": ("2", True), "c": ("1", True)}
    assert view.labels == {"a": "∂d/∂a", "b": "∂d/∂b", "c": "∂d/∂c"}
    summary = room.room_summary(teacher.code, teacher.key)
    s = summary.step_summary
    assert (s.joined, s.answered, s.all_correct, s.share_correct) == (2, 2, 1, 0.5)
    a = s.nodes[0]
    assert (a.node, a.answered, a.correct) == ("a", 2, 1)
    assert {(b.answer, b.count, b.correct) for b in a.bars} == {("4", 1, True), ("2", 1, False)}
    assert [(w.answer, w.recognised) for w in a.wrong] == [("2", "the value of a")]
    assert _count(room, answers) == 4


def test_a_tensor_answer_is_typed_as_a_list(room):
    teacher = room.create_room()
    step = room.add_step(teacher.code, teacher.key, vector_exercise_link())
    student = room.join(teacher.code)
    assert room.submit_answer(teacher.code, student.token, step.id, "x", "[3, -1]").correct
    with pytest.raises(Refused, match="shape"):
        room.submit_answer(teacher.code, student.token, step.id, "x", "[3, -1, 0]")


def test_a_bad_answer_is_refused_with_what_to_type_and_nothing_is_stored(lesson, room):
    teacher, first, _, ada, _ = lesson
    for node, text in (("a", ""), ("a", "4 +"), ("a", "x" * 3000), ("z", "4"), (None, "4"),
                       ("a", 4), ("a", "__import__('os')")):
        with pytest.raises(Refused):
            room.submit_answer(teacher.code, ada.token, first.id, node, text)
    assert _count(room, answers) == 0


def test_only_the_current_unlocked_exercise_step_takes_answers(lesson, room):
    teacher, first, second, ada, _ = lesson
    room.lock(teacher.code, teacher.key)
    with pytest.raises(Closed, match="closed"):
        room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    room.lock(teacher.code, teacher.key, on=False)
    room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    room.advance(teacher.code, teacher.key)
    with pytest.raises(Closed, match="moved on"):
        room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    with pytest.raises(Refused, match="hides no numbers"):
        room.submit_answer(teacher.code, ada.token, second.id, "a", "4")


def test_reveal_shows_the_answers_to_students_and_reset_forgets_the_step(lesson, room):
    teacher, first, _, ada, _ = lesson
    room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    assert room.student_view(teacher.code, ada.token).revealed == {}
    room.reveal(teacher.code, teacher.key)
    assert room.student_view(teacher.code, ada.token).revealed == {
        "a": "4.0000", "b": "2.0000", "c": "1.0000"}
    room.lock(teacher.code, teacher.key)
    room.reset_step(teacher.code, teacher.key)
    view = room.student_view(teacher.code, ada.token)
    assert (view.revealed, view.mine, view.step.locked, view.step.revealed) == ({}, {}, False,
                                                                                False)
    assert room.room_summary(teacher.code, teacher.key).step_summary.answered == 0


def test_the_csv_has_every_answer_of_the_lesson_and_no_formula(lesson, room):
    teacher, first, _, ada, bo = lesson
    evil = room.join(teacher.code, "-cmd", "10.0.0.4")
    room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    room.submit_answer(teacher.code, bo.token, first.id, "a", "-2")
    room.submit_answer(teacher.code, evil.token, first.id, "b", "2")
    rows = list(csv.DictReader(io.StringIO(room.export_csv(teacher.code, teacher.key))))
    assert [(r["student"], r["nickname"], r["hidden_number"], r["answer"], r["correct"])
            for r in rows] == [("1", "Ada", "a", "4", "yes"), ("2", "", "a", "-2", "no"),
                               ("3", "'-cmd", "b", "2", "yes")]


def test_a_room_takes_at_most_its_students(room, monkeypatch):
    monkeypatch.setattr(limits, "MAX_ROOM_STUDENTS", 3)
    teacher = room.create_room()
    numbers = [room.join(teacher.code, None, f"10.1.0.{i}").number for i in range(3)]
    assert numbers == [1, 2, 3]
    with pytest.raises(Closed, match="already has 3 students"):
        room.join(teacher.code, None, "10.1.0.9")


def test_a_nickname_is_bounded_and_plain(room):
    teacher = room.create_room()
    assert room.join(teacher.code, "  Ada   Lovelace ").nickname == "Ada Lovelace"
    assert room.join(teacher.code, "   ").nickname is None
    for bad in ("x" * (limits.MAX_NICKNAME_CHARS + 1), "<script>", "**bold**", "a\nb" * 20, 7):
        with pytest.raises(Refused):
            room.join(teacher.code, bad)


# --- expiry ---------------------------------------------------------------------------------------


def test_an_expired_room_is_gone_with_everything_it_held(lesson, room, clock):
    teacher, first, _, ada, _ = lesson
    room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    clock.advance(limits.ROOM_SECONDS - 1)
    assert room.student_view(teacher.code, ada.token).step.id == first.id
    clock.advance(2)
    for act in (lambda: room.join(teacher.code), lambda: room.student_view(teacher.code, ada.token),
                lambda: room.room_state(teacher.code, teacher.key),
                lambda: room.beat(teacher.code, teacher.key)):
        with pytest.raises(NotFound):
            act()
    assert room.version(teacher.code) is None  # what the beat address waits on ends too
    assert room.purge_expired() == 1
    assert [_count(room, t) for t in (rooms, steps, students, answers)] == [0, 0, 0, 0]


def test_opening_a_room_purges_the_expired_ones(room, clock):
    old = room.create_room()
    room.join(old.code)
    clock.advance(limits.ROOM_SECONDS + 1)
    room.create_room()
    assert _count(room, rooms) == 1 and _count(room, students) == 0


# --- rate limits, kept in the database ------------------------------------------------------------


def test_joins_per_address_are_limited_and_the_window_opens_again(room, clock, monkeypatch):
    monkeypatch.setattr(limits, "JOINS_PER_CLIENT_PER_MINUTE", 3)
    teacher = room.create_room()
    clock.now -= clock.now % 60  # the start of a minute
    for _ in range(3):
        room.join(teacher.code, None, "10.2.0.1")
    with pytest.raises(TooMany, match="too many joins from this address") as refused:
        room.join(teacher.code, None, "10.2.0.1")
    assert 0 < refused.value.retry_after <= 60
    room.join(teacher.code, None, "10.2.0.2")  # another address is not held up
    clock.advance(61)
    room.join(teacher.code, None, "10.2.0.1")


def test_wrong_codes_per_address_are_limited_so_codes_cannot_be_enumerated(room, monkeypatch):
    monkeypatch.setattr(limits, "WRONG_CODES_PER_CLIENT_PER_HOUR", 5)
    teacher = room.create_room()
    wrong = [c for c in ("ABCDEF", "BCDEFG", "CDEFGH", "DEFGHJ", "EFGHJK", "FGHJKL")
             if c != teacher.code][:5]
    for code in wrong:
        with pytest.raises(NotFound):
            room.join(code, None, "10.3.0.1")
    with pytest.raises(TooMany, match="wrong join codes"):
        room.join(teacher.code, None, "10.3.0.1")  # even the right code: no more guesses
    room.join(teacher.code, None, "10.3.0.2")


def test_joins_per_room_are_limited(room, monkeypatch):
    monkeypatch.setattr(limits, "JOINS_PER_ROOM_PER_MINUTE", 2)
    teacher, other = room.create_room(), room.create_room()
    room.join(teacher.code, None, "10.4.0.1")
    room.join(teacher.code, None, "10.4.0.2")
    with pytest.raises(TooMany, match="joining this class"):
        room.join(teacher.code, None, "10.4.0.3")
    room.join(other.code, None, "10.4.0.3")


def test_answers_per_student_and_rooms_per_address_are_limited(lesson, room, monkeypatch):
    teacher, first, _, ada, bo = lesson
    monkeypatch.setattr(limits, "ANSWERS_PER_STUDENT_PER_MINUTE", 2)
    room.submit_answer(teacher.code, ada.token, first.id, "a", "1")
    room.submit_answer(teacher.code, ada.token, first.id, "a", "2")
    with pytest.raises(TooMany, match="answers in a minute"):
        room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    room.submit_answer(teacher.code, bo.token, first.id, "a", "4")
    monkeypatch.setattr(limits, "ROOMS_PER_CLIENT_PER_HOUR", 2)
    room.create_room("10.5.0.1")
    room.create_room("10.5.0.1")
    with pytest.raises(TooMany, match="rooms opened from this address"):
        room.create_room("10.5.0.1")


def test_the_rate_counters_hold_across_processes_sharing_the_database(db_url, clock,
                                                                      monkeypatch):
    """Two Classroom objects on one database (two replicas) count together."""
    from playground.classroom import Classroom

    monkeypatch.setattr(limits, "JOINS_PER_CLIENT_PER_MINUTE", 2)
    one, two = Classroom.open(db_url, clock), Classroom.open(db_url, clock)
    try:
        teacher = one.create_room()
        one.join(teacher.code, None, "10.6.0.1")
        two.join(teacher.code, None, "10.6.0.1")
        with pytest.raises(TooMany):
            one.join(teacher.code, None, "10.6.0.1")
        with one.engine.connect() as conn:
            buckets = list(conn.scalars(select(rate_counters.c.bucket)))
        assert not any("10.6.0.1" in b for b in buckets)  # addresses are kept hashed
    finally:
        one.engine.dispose()
        two.engine.dispose()


# --- isolation ------------------------------------------------------------------------------------


def test_a_students_view_is_one_read_and_one_more_for_their_answers(lesson, room):
    """Every student of a class reads the view at the moment the teacher moves: the room, the
    student, the step and the lesson's length come in one statement, the student's own answers
    in a second one on an exercise step only."""
    teacher, first, _, ada, _ = lesson
    room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    selects: list[str] = []

    def count(_conn, _cursor, statement, *_):
        if statement.lstrip().upper().startswith("SELECT"):
            selects.append(statement)

    event.listen(room.engine, "before_cursor_execute", count)
    try:
        view = room.student_view(teacher.code, ada.token)
        assert len(selects) == 2
        assert (view.count, view.step.id, view.mine) == (2, first.id, {"a": ("4", True)})
        assert view.labels == {"a": "∂d/∂a", "b": "∂d/∂b", "c": "∂d/∂c"}
        room.advance(teacher.code, teacher.key)
        selects.clear()
        view = room.student_view(teacher.code, ada.token)
        assert len(selects) == 1
        assert (view.step.position, view.mine, view.labels) == (1, {}, {})
    finally:
        event.remove(room.engine, "before_cursor_execute", count)
    with pytest.raises(NotAllowed):
        room.student_view(teacher.code, "not a pass")
    with pytest.raises(NotFound):
        room.student_view("ZZZZZZ", ada.token)


def test_a_student_sees_only_their_own_answers_and_never_the_key(lesson, room):
    teacher, first, _, ada, bo = lesson
    room.submit_answer(teacher.code, ada.token, first.id, "a", "4")
    view = room.student_view(teacher.code, bo.token)
    assert view.mine == {} and view.revealed == {}
    assert teacher.key not in repr(view) and ada.token not in repr(view)
    assert "4.0000" not in repr(view)  # no answer before the reveal
    for teacher_only in (room.room_summary, room.room_state, room.export_csv, room.reveal,
                         room.lock, room.reset_step):
        with pytest.raises(NotAllowed):
            teacher_only(teacher.code, ada.token)


def test_a_forged_request_cannot_write_into_another_room_or_act_as_teacher(lesson, room):
    teacher, first, _, ada, _ = lesson
    other = room.create_room()
    other_step = room.add_step(other.code, other.key, exercise_link())
    eve = room.join(other.code, "Eve")
    with pytest.raises(NotAllowed):  # Ada's pass with the other room's code
        room.submit_answer(other.code, ada.token, other_step.id, "a", "4")
    with pytest.raises(Closed):  # Eve's pass in her room, naming a step of Ada's room
        room.submit_answer(other.code, eve.token, first.id, "a", "4")
    with pytest.raises(NotAllowed):  # one room's teacher key on another room
        room.add_step(teacher.code, other.key, link("graph"))
    with pytest.raises(NotFound):  # a step id of another room
        room.remove_step(other.code, other.key, first.id)
    with pytest.raises(NotFound):
        room.move_step(other.code, other.key, first.id, 0)
    for key in (None, "", 7, teacher.key[:-1], "x" * 10_000, codes.digest(teacher.key)):
        with pytest.raises(NotAllowed):
            room.advance(teacher.code, key)
    for token in (None, "", ada.token + "x", codes.digest(ada.token)):
        with pytest.raises(NotAllowed):
            room.student_view(teacher.code, token)
        with pytest.raises(NotAllowed):
            room.beat(teacher.code, token)
    assert _count(room, answers) == 0
    assert room.room_state(teacher.code, teacher.key).current.id == first.id
