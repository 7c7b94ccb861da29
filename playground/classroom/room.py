"""The live class: rooms, lesson steps, students and answers, on SQLite or PostgreSQL.

A ``Classroom`` holds one SQLAlchemy engine (one per server process: pages keep it in
Streamlit's resource cache) and is otherwise stateless, so any number of threads, processes and
replicas share a room through the database alone. Every method is one short transaction.

Who may do what is decided by secrets, never by what a request says about itself:

- the teacher's key (given once by ``create_room``; the database keeps its SHA-256) for every
  change to the lesson and for the room's summary and CSV;
- a student's pass (given once by ``join``; hashed too) for that student's own answers and view
  in that room only: a pass never works with another room's code;
- the join code only lets a student join, within rate limits kept in the database (so they hold
  across replicas): per address and per room, and per address for codes that name no room.

Rooms live ``limits.ROOM_SECONDS`` (12 hours); an expired room answers as if it never existed
and ``purge_expired`` (run when a room is opened) deletes it with everything it held.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine, bindparam, case, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from .. import limits
from . import codes, database, lesson, migrations
from .errors import ClassroomError, Closed, NotAllowed, NotFound, Refused, TooMany
from .schema import answers, rate_counters, rooms, steps, students
from .summary import AnswerRow, StepSummary, summarise, to_csv

MINUTE_MS, HOUR_MS = 60_000, 3_600_000
_NO_ROOM = "no class has this join code (check it with your teacher; a class ends after 12 hours)"


@dataclass(frozen=True)
class TeacherPass:
    code: str
    key: str
    expires_ms: int


@dataclass(frozen=True)
class StudentPass:
    code: str
    token: str
    number: int
    nickname: str | None

    @property
    def name(self) -> str:
        return self.nickname or f"Student {self.number}"


@dataclass(frozen=True)
class Step:
    id: int
    position: int
    page: str
    query: str
    title: str
    exercise: bool
    revealed: bool
    locked: bool

    @property
    def target(self) -> str:
        return self.page + (f"?{self.query}" if self.query else "")


@dataclass(frozen=True)
class Beat:
    """What a follower polls: it changes whenever the teacher changes what students see."""

    version: int
    step_id: int | None


@dataclass(frozen=True)
class RoomState:
    """The teacher's view of the lesson."""

    code: str
    expires_ms: int
    version: int
    joined: int
    steps: tuple[Step, ...]
    current: Step | None


@dataclass(frozen=True)
class StudentView:
    """Everything one student may see: the current step, their own answers and marks, and the
    answers once the teacher reveals them. Never another student's answers, never the key."""

    code: str
    number: int
    nickname: str | None
    version: int
    count: int
    step: Step | None
    labels: dict[str, str]  # hidden number -> how the page names it
    mine: dict[str, tuple[str, bool]]  # hidden number -> (my latest answer, right?)
    revealed: dict[str, str]  # hidden number -> its answer, once revealed

    @property
    def name(self) -> str:
        return self.nickname or f"Student {self.number}"


@dataclass(frozen=True)
class Summary:
    """The projector's numbers for the current step."""

    code: str
    step: Step | None
    count: int
    step_summary: StepSummary
    answers: dict[str, str]  # hidden number -> its answer (the teacher decides when to show it)


def _student_view_statement():
    """``Classroom.student_view``'s read, built once: the room, the student of a pass, the
    current step (its columns named ``step_*``) and the lesson's length, in one statement."""
    current = steps.alias("current")
    count = (select(func.count()).where(steps.c.room_id == rooms.c.id)
             .scalar_subquery().label("count"))
    return (select(rooms.c.code, rooms.c.version, students.c.id.label("student"),
                   students.c.number, students.c.nickname, count,
                   *(c.label(f"step_{c.name}") for c in current.c))
            .select_from(rooms.join(students, (students.c.room_id == rooms.c.id)
                                    & (students.c.pass_hash == bindparam("digest")))
                         .outerjoin(current, (current.c.id == rooms.c.current_step_id)
                                    & (current.c.room_id == rooms.c.id)))
            .where(rooms.c.code == bindparam("code"), rooms.c.expires_ms > bindparam("now")))


_STUDENT_VIEW = _student_view_statement()
_BEAT = (select(rooms.c.version, rooms.c.current_step_id, rooms.c.teacher_hash,
                students.c.id.label("student"))
         .select_from(rooms.outerjoin(students, (students.c.room_id == rooms.c.id)
                                      & (students.c.pass_hash == bindparam("digest"))))
         .where(rooms.c.code == bindparam("code"), rooms.c.expires_ms > bindparam("now")))
"""``Classroom.beat``'s read: the room's version and whether the secret is a pass of it."""
_VERSION = select(rooms.c.version).where(rooms.c.code == bindparam("code"),
                                          rooms.c.expires_ms > bindparam("now"))
_ANSWERS_OF = (select(answers.c.node, answers.c.text, answers.c.correct)
               .where(answers.c.step_id == bindparam("step"),
                      answers.c.student_id == bindparam("student")))
"""A student's answers to a step (``student_view``)."""


def _step(row, prefix: str = "") -> Step:
    """The step of a row of the steps table (its columns named with ``prefix``)."""
    def get(name: str):
        return getattr(row, prefix + name)

    return Step(get("id"), get("position"), get("page"), get("query"), get("title"),
                get("answer_key") is not None, bool(get("revealed")), bool(get("locked")))


class Classroom:
    """The classroom's API over one engine; ``clock`` gives seconds (tests move it)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time):
        self.engine = engine
        self.clock = clock
        self._writer = engine.execution_options(immediate=True)
        self._insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    @classmethod
    def open(cls, url: str | None = None, clock: Callable[[], float] = time.time) -> Classroom:
        """The classroom on ``url`` (default: ``database.database_url()``), migrated and purged."""
        engine = database.make_engine(url)
        migrations.migrate(engine)
        room = cls(engine, clock)
        room.purge_expired()
        return room

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # --- rate limits --------------------------------------------------------------------------

    def _hit(self, bucket: str, limit: int, window_ms: int, what: str) -> None:
        """Count one request in ``bucket`` in a transaction of its own (committed even when
        refused); TooMany over ``limit`` in the current window."""
        with self._writer.begin() as conn:
            refused = self._over(conn, bucket, limit, window_ms, what)
        if refused is not None:
            raise refused

    def _over(self, conn, bucket: str, limit: int, window_ms: int, what: str, count: int = 1
              ) -> TooMany | None:
        """Count ``count`` requests in ``bucket`` within ``conn``'s transaction; the refusal to
        raise once the transaction is committed (so the count stays), when over ``limit``."""
        now = self.now_ms()
        start = now - now % window_ms
        c = rate_counters.c
        statement = self._insert(rate_counters).values(bucket=bucket, window_ms=start,
                                                        count=count)
        statement = statement.on_conflict_do_update(
            index_elements=[c.bucket],
            set_={"count": case((c.window_ms == start, c.count + count), else_=count),
                  "window_ms": start},
        ).returning(c.count)
        if conn.execute(statement).scalar_one() <= limit:
            return None
        wait = (start + window_ms - now) / 1000
        return TooMany(f"{what}; try again in {max(1, round(wait))} s", wait)

    # --- rooms --------------------------------------------------------------------------------

    def create_room(self, client: str | None = None) -> TeacherPass:
        """A new room; the teacher key is in the returned pass only, never again."""
        self._hit(f"room:{codes.client_bucket(client)}", limits.ROOMS_PER_CLIENT_PER_HOUR,
                  HOUR_MS, f"more than {limits.ROOMS_PER_CLIENT_PER_HOUR} rooms opened from "
                  "this address in an hour")
        self.purge_expired()
        key = codes.new_key()
        now = self.now_ms()
        expires = now + limits.ROOM_SECONDS * 1000
        for _ in range(20):  # a clash among a billion codes is rare; a few are possible
            code = codes.new_code()
            try:
                with self._writer.begin() as conn:
                    conn.execute(rooms.insert().values(
                        code=code, teacher_hash=codes.digest(key), created_ms=now,
                        expires_ms=expires, current_step_id=None, version=0,
                        students_joined=0))
                return TeacherPass(code, key, expires)
            except IntegrityError:
                continue
        raise Refused("could not find a free join code; try again")  # pragma: no cover

    def purge_expired(self) -> int:
        """Delete expired rooms with their steps, students and answers (foreign keys cascade),
        and rate counters older than a day; returns the number of rooms deleted."""
        now = self.now_ms()
        with self._writer.begin() as conn:
            gone = conn.execute(delete(rooms).where(rooms.c.expires_ms <= now)).rowcount
            conn.execute(delete(rate_counters)
                         .where(rate_counters.c.window_ms < now - 24 * HOUR_MS))
        return gone

    def _room(self, conn, code: object, lock: bool = False):
        code = codes.normalise_code(code)
        query = select(rooms).where(rooms.c.code == code, rooms.c.expires_ms > self.now_ms())
        row = conn.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise NotFound(_NO_ROOM)
        return row

    def _teacher(self, conn, code: object, key: object, lock: bool = True):
        room = self._room(conn, code, lock)
        if not codes.same_digest(room.teacher_hash, codes.digest(key)):
            raise NotAllowed("only the teacher of this class can do that (the teacher's link "
                             "holds the key)")
        return room

    def _student(self, conn, code: object, token: object):
        room = self._room(conn, code)
        student = conn.execute(select(students).where(
            students.c.room_id == room.id,
            students.c.pass_hash == codes.digest(token))).first()
        if student is None:
            raise NotAllowed("you have not joined this class: join it with its code")
        return room, student

    def _steps(self, conn, room_id: int) -> list:
        return list(conn.execute(select(steps).where(steps.c.room_id == room_id)
                                 .order_by(steps.c.position)))

    def _bump(self, conn, room_id: int, **values) -> None:
        conn.execute(update(rooms).where(rooms.c.id == room_id)
                     .values(version=rooms.c.version + 1, **values))

    # --- students -----------------------------------------------------------------------------

    def join(self, code: object, nickname: object = None, client: str | None = None
             ) -> StudentPass:
        """Join with a code and an optional nickname; the pass is returned once, never again.
        One transaction (one write to disk): the rate limits' counts, the room, the student."""
        bucket = codes.client_bucket(client)
        name = codes.normalise_nickname(nickname)
        token = codes.new_key()
        with self._writer.begin() as conn:
            refused, number = self._join(conn, code, name, bucket, token)
        if refused is not None:
            raise refused
        return StudentPass(codes.normalise_code(code), token, number, name)

    def _join(self, conn, code: object, name: str | None, bucket: str, token: str
              ) -> tuple[ClassroomError | None, int]:
        """Within ``conn``: the refusal to raise after the commit (the counts stay), or None and
        the new student's number."""
        refused = self._over(conn, f"join:{bucket}", limits.JOINS_PER_CLIENT_PER_MINUTE,
                             MINUTE_MS, "too many joins from this address in a minute")
        if refused is not None:
            return refused, 0
        misses = f"miss:{bucket}"
        now = self.now_ms()
        missed = conn.scalar(select(rate_counters.c.count).where(
            rate_counters.c.bucket == misses,
            rate_counters.c.window_ms == now - now % HOUR_MS)) or 0
        if missed >= limits.WRONG_CODES_PER_CLIENT_PER_HOUR:
            return TooMany(f"more than {limits.WRONG_CODES_PER_CLIENT_PER_HOUR} wrong join "
                           "codes from this address in an hour; try again later",
                           HOUR_MS / 1000), 0
        try:
            room = self._room(conn, code)
        except (NotFound, Refused) as err:
            return self._over(conn, misses, limits.WRONG_CODES_PER_CLIENT_PER_HOUR, HOUR_MS,
                              f"more than {limits.WRONG_CODES_PER_CLIENT_PER_HOUR} wrong join "
                              "codes from this address in an hour") or err, 0
        refused = self._over(conn, f"joinroom:{room.id}", limits.JOINS_PER_ROOM_PER_MINUTE,
                             MINUTE_MS, "too many students joining this class this minute")
        if refused is not None:
            return refused, 0
        number = conn.execute(
            update(rooms).where(rooms.c.id == room.id,
                                rooms.c.students_joined < limits.MAX_ROOM_STUDENTS)
            .values(students_joined=rooms.c.students_joined + 1)
            .returning(rooms.c.students_joined)).scalar()
        if number is None:
            return Closed(f"this class already has {limits.MAX_ROOM_STUDENTS} students, the "
                          "most a class may have"), 0
        conn.execute(students.insert().values(
            room_id=room.id, number=number, pass_hash=codes.digest(token), nickname=name,
            joined_ms=now))
        return None, number

    def student_view(self, code: object, token: object) -> StudentView:
        """What this student may see now: one indexed read of the room, the student, the
        current step and the lesson's length (and one of the student's answers on an exercise
        step), as every student of a class asks it at once when the teacher moves."""
        with self.engine.begin() as conn:
            found = conn.execute(_STUDENT_VIEW, {"code": codes.normalise_code(code),
                                                 "digest": codes.digest(token),
                                                 "now": self.now_ms()}).first()
            if found is None:
                self._student(conn, code, token)  # raises what is missing: room or student
            mine = {} if found.step_answer_key is None else {
                a.node: (a.text, bool(a.correct)) for a in conn.execute(
                    _ANSWERS_OF, {"step": found.step_id, "student": found.student})}
        if found.step_id is None:
            return StudentView(found.code, found.number, found.nickname, found.version,
                               found.count, None, {}, {}, {})
        key = lesson.read_key(found.step_answer_key) if found.step_answer_key else None
        labels = {n: key.label(n) for n in key.nodes} if key else {}
        revealed = ({n: key.answer_text(n) for n in key.nodes} if key and found.step_revealed
                    else {})
        return StudentView(found.code, found.number, found.nickname, found.version,
                           found.count, _step(found, "step_"), labels, mine, revealed)

    def submit_answer(self, code: object, token: object, step_id: object, node: object,
                      text: object) -> lesson.Graded:
        """``submit_answers`` of one hidden number; its refusal raised."""
        graded, errors = self.submit_answers(code, token, step_id, {node: text})
        if errors:
            raise next(iter(errors.values()))
        return graded[node]

    def submit_answers(self, code: object, token: object, step_id: object, texts: object
                       ) -> tuple[dict[str, lesson.Graded], dict[str, Refused]]:
        """Record a student's answers (hidden number -> text) to the current step, each
        replacing the one before, in one transaction (one write to disk), and return them
        marked, with the refusal of each that could not be read. The step must be the current
        one and not locked; the marks are the server's, from the step's answer key. A refusal of
        the whole request (rate limit, a step moved on or closed, no such student) is raised."""
        if not isinstance(texts, dict) or not texts or \
                len(texts) > limits.MAX_STEP_HIDDEN_ELEMENTS:
            raise Refused("send at least one answer")
        graded, errors = {}, {}
        with self._writer.begin() as conn:
            room, student = self._student(conn, code, token)
            refused = self._over(conn, f"ans:{student.id}",
                                 limits.ANSWERS_PER_STUDENT_PER_MINUTE, MINUTE_MS,
                                 f"more than {limits.ANSWERS_PER_STUDENT_PER_MINUTE} answers in "
                                 "a minute", count=len(texts))
            row = conn.execute(select(steps).where(steps.c.id == room.current_step_id,
                                                   steps.c.room_id == room.id)).first()
            if refused is None and (row is None or not isinstance(step_id, int)
                                    or row.id != step_id):
                refused = Closed("the teacher has moved on: this step takes no more answers")
            elif refused is None and row.locked:
                refused = Closed("the teacher has closed the answers of this step")
            elif refused is None and row.answer_key is None:
                refused = Refused("this step hides no numbers to answer")
            if refused is None:
                key = lesson.read_key(row.answer_key)
                for node, text in texts.items():
                    try:
                        graded[node] = mark = lesson.grade(key, node, text)
                    except Refused as err:
                        errors[node] = err
                        continue
                    values = {"text": mark.text, "number": mark.number,
                              "correct": mark.correct, "at_ms": self.now_ms()}
                    statement = self._insert(answers).values(
                        step_id=row.id, student_id=student.id, node=node, **values)
                    conn.execute(statement.on_conflict_do_update(
                        index_elements=[answers.c.student_id, answers.c.step_id,
                                        answers.c.node], set_=values))
        if refused is not None:
            raise refused
        return graded, errors

    # --- the teacher: the lesson --------------------------------------------------------------

    def add_step(self, code: object, key: object, link: object, title: object = None) -> Step:
        """Add the step a link opens at the end of the lesson (the first one becomes current)."""
        made = lesson.read_link(link, title)  # the graph is evaluated before any lock is taken
        return self.add_steps(code, key, [made])[0]

    def add_steps(self, code: object, key: object, made: list[lesson.StepLink]) -> list[Step]:
        """Add steps read by ``lesson.read_link`` (a whole lesson, say) at the end of the lesson,
        all or none."""
        with self._writer.begin() as conn:
            room = self._teacher(conn, code, key)
            count = conn.scalar(select(func.count()).where(steps.c.room_id == room.id))
            if count + len(made) > limits.MAX_ROOM_STEPS:
                raise Refused(f"a lesson has at most {limits.MAX_ROOM_STEPS} steps"
                              + (f" (this one has {count})" if len(made) > 1 else ""))
            new_ids = [conn.execute(steps.insert().values(
                room_id=room.id, position=count + i, page=m.page, query=m.query, title=m.title,
                answer_key=m.answer_key, revealed=False, locked=False)).inserted_primary_key[0]
                for i, m in enumerate(made)]
            current = room.current_step_id
            if current is None and new_ids:
                current = new_ids[0]
            self._bump(conn, room.id, current_step_id=current)
            return [_step(r) for r in conn.execute(select(steps).where(steps.c.id.in_(new_ids))
                                                   .order_by(steps.c.position))]

    def _own_step(self, rows: list, step_id: object):
        found = next((r for r in rows if r.id == step_id), None)
        if found is None:
            raise NotFound("this class has no such step")
        return found

    def move_step(self, code: object, key: object, step_id: object, position: object) -> None:
        """Move a step to ``position`` (0 is first; clamped to the lesson)."""
        if not isinstance(position, int) or isinstance(position, bool):
            raise Refused("a step's position is a whole number")
        with self._writer.begin() as conn:
            room = self._teacher(conn, code, key)
            rows = self._steps(conn, room.id)
            moved = self._own_step(rows, step_id)
            order = [r.id for r in rows if r.id != moved.id]
            order.insert(max(0, min(position, len(order))), moved.id)
            self._renumber(conn, order)
            self._bump(conn, room.id)

    def _renumber(self, conn, order: list[int]) -> None:
        for i, sid in enumerate(order):
            conn.execute(update(steps).where(steps.c.id == sid).values(position=i))

    def remove_step(self, code: object, key: object, step_id: object) -> None:
        """Delete a step and its answers; if it was current, the one now in its place is."""
        with self._writer.begin() as conn:
            room = self._teacher(conn, code, key)
            rows = self._steps(conn, room.id)
            gone = self._own_step(rows, step_id)
            conn.execute(delete(steps).where(steps.c.id == gone.id))
            left = [r.id for r in rows if r.id != gone.id]
            self._renumber(conn, left)
            current = room.current_step_id
            if current == gone.id:
                current = left[min(gone.position, len(left) - 1)] if left else None
            self._bump(conn, room.id, current_step_id=current)

    def go_to(self, code: object, key: object, position: object) -> Step | None:
        """Make the step at ``position`` current (clamped to the lesson)."""
        if not isinstance(position, int) or isinstance(position, bool):
            raise Refused("a step's position is a whole number")
        with self._writer.begin() as conn:
            room = self._teacher(conn, code, key)
            rows = self._steps(conn, room.id)
            if not rows:
                return None
            row = rows[max(0, min(position, len(rows) - 1))]
            if row.id != room.current_step_id:
                self._bump(conn, room.id, current_step_id=row.id)
            return _step(row)

    def advance(self, code: object, key: object, delta: int = 1) -> Step | None:
        """Next (``delta`` 1) or previous (-1) step; stays at either end."""
        with self.engine.connect() as conn:
            room = self._teacher(conn, code, key, lock=False)
            position = conn.scalar(select(steps.c.position).where(
                steps.c.id == room.current_step_id, steps.c.room_id == room.id))
        return self.go_to(code, key, 0 if position is None else position + int(delta))

    def _set_current(self, code: object, key: object, **values) -> None:
        with self._writer.begin() as conn:
            room = self._teacher(conn, code, key)
            if room.current_step_id is None:
                raise Refused("the lesson has no current step yet")
            conn.execute(update(steps).where(steps.c.id == room.current_step_id,
                                             steps.c.room_id == room.id).values(**values))
            self._bump(conn, room.id)

    def reveal(self, code: object, key: object, on: bool = True) -> None:
        """Show (or hide again) the current step's answers to the students."""
        self._set_current(code, key, revealed=bool(on))

    def lock(self, code: object, key: object, on: bool = True) -> None:
        """Close (or reopen) the current step's answers."""
        self._set_current(code, key, locked=bool(on))

    def reset_step(self, code: object, key: object) -> None:
        """Delete the current step's answers; hidden and open again."""
        with self._writer.begin() as conn:
            room = self._teacher(conn, code, key)
            if room.current_step_id is None:
                raise Refused("the lesson has no current step yet")
            conn.execute(delete(answers).where(answers.c.step_id == room.current_step_id))
            conn.execute(update(steps).where(steps.c.id == room.current_step_id)
                         .values(revealed=False, locked=False))
            self._bump(conn, room.id)

    # --- the teacher: reading -----------------------------------------------------------------

    def beat(self, code: object, secret: object) -> Beat:
        """The version a follower compares with the one it shows; needs the teacher key or a
        student pass of this room (a code alone tells nothing, so it cannot be probed)."""
        code, digest = codes.normalise_code(code), codes.digest(secret)
        with self.engine.connect() as conn:  # one indexed read: a class asks it at once
            row = conn.execute(_BEAT, {"code": code, "digest": digest,
                                       "now": self.now_ms()}).first()
        if row is None:
            raise NotFound(_NO_ROOM)
        if row.student is None and not codes.same_digest(row.teacher_hash, digest):
            raise NotAllowed("you have not joined this class: join it with its code")
        return Beat(row.version, row.current_step_id)

    def version(self, code: str) -> int | None:
        """The room's version, None once it has ended: for a server that has checked the
        caller's pass with ``beat`` and then waits for the teacher (one indexed read)."""
        with self.engine.connect() as conn:
            return conn.scalar(_VERSION, {"code": codes.normalise_code(code),
                                          "now": self.now_ms()})

    def room_state(self, code: object, key: object) -> RoomState:
        with self.engine.begin() as conn:
            room = self._teacher(conn, code, key, lock=False)
            rows = [_step(r) for r in self._steps(conn, room.id)]
        current = next((s for s in rows if s.id == room.current_step_id), None)
        return RoomState(room.code, room.expires_ms, room.version, room.students_joined,
                         tuple(rows), current)

    def room_summary(self, code: object, key: object) -> Summary:
        """Joined, answered, share correct, the answers' histogram and the common wrong answers
        of the current step."""
        with self.engine.begin() as conn:
            room = self._teacher(conn, code, key, lock=False)
            count = conn.scalar(select(func.count()).where(steps.c.room_id == room.id))
            row = conn.execute(select(steps).where(steps.c.id == room.current_step_id,
                                                   steps.c.room_id == room.id)).first()
            found = [] if row is None else list(conn.execute(
                select(answers.c.student_id, answers.c.node, answers.c.text, answers.c.number,
                       answers.c.correct).where(answers.c.step_id == row.id)))
        key_ = lesson.read_key(row.answer_key) if row is not None and row.answer_key else None
        rows = [AnswerRow(a.student_id, a.node, a.text, a.number, bool(a.correct))
                for a in found if key_ is not None and a.node in key_.shapes]
        return Summary(room.code, _step(row) if row is not None else None, count,
                       summarise(key_, rows, room.students_joined),
                       {n: key_.answer_text(n) for n in key_.nodes} if key_ else {})

    def export_csv(self, code: object, key: object) -> str:
        """Every answer of the lesson, one line each (see ``summary.CSV_COLUMNS``)."""
        with self.engine.begin() as conn:
            room = self._teacher(conn, code, key, lock=False)
            found = conn.execute(
                select(steps.c.position, steps.c.title, students.c.number, students.c.nickname,
                       answers.c.node, answers.c.text, answers.c.correct, answers.c.at_ms)
                .select_from(answers.join(steps, answers.c.step_id == steps.c.id)
                             .join(students, answers.c.student_id == students.c.id))
                .where(steps.c.room_id == room.id)
                .order_by(steps.c.position, students.c.number, answers.c.node))
            return to_csv(tuple(r) for r in found)
