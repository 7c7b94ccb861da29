"""An answer the server acknowledged survives `kill -9` of the process that wrote it (on both
databases), and the app rides out a PostgreSQL restart and crash without being restarted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from classroom_helpers import exercise_link
from sqlalchemy import select

from playground.classroom import Classroom
from playground.classroom.schema import answers, students

ROOT = Path(__file__).resolve().parents[2]
ACKS_BEFORE_KILL = 25

WRITER = textwrap.dedent("""
    import sys
    from playground import limits
    from playground.classroom import Classroom

    limits.JOINS_PER_CLIENT_PER_MINUTE = limits.JOINS_PER_ROOM_PER_MINUTE = 10 ** 6
    url, code, key = sys.argv[1:4]
    room = Classroom.open(url)
    step = room.room_state(code, key).current.id
    for i in range(2_000):  # bounded: the test kills it long before
        student = room.join(code, None, "10.8.0.1")
        room.submit_answer(code, student.token, step, "a", str(student.number))
        print("ack", student.number, flush=True)  # only after the commit returned
""")


def test_an_acknowledged_answer_survives_kill_9_of_its_writer(db_url):
    room = Classroom.open(db_url)
    try:
        teacher = room.create_room()
        room.add_step(teacher.code, teacher.key, exercise_link())
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, db_url, teacher.code, teacher.key],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        acked = []
        try:
            for line in writer.stdout:
                acked.append(int(line.split()[1]))
                if len(acked) == ACKS_BEFORE_KILL:
                    os.kill(writer.pid, signal.SIGKILL)  # in the middle of its next write
                    break
        finally:
            writer.kill()
            _, err = writer.communicate(timeout=30)
        assert len(acked) == ACKS_BEFORE_KILL, err
        assert writer.returncode == -signal.SIGKILL
        room.engine.dispose()
        reopened = Classroom.open(db_url)  # as a new server process would
        try:
            with reopened.engine.connect() as conn:
                stored = {number: text for number, text in conn.execute(
                    select(students.c.number, answers.c.text)
                    .join(answers, answers.c.student_id == students.c.id))}
            assert all(stored.get(n) == str(n) for n in acked), (acked, stored)
        finally:
            reopened.engine.dispose()
    finally:
        room.engine.dispose()


@pytest.mark.parametrize("how", ["restart", "crash"])
def test_the_app_reconnects_by_itself_after_postgresql_restarts(pg_server, how):
    room = Classroom.open(pg_server.new_database())
    try:
        teacher = room.create_room()
        step = room.add_step(teacher.code, teacher.key, exercise_link())
        ada = room.join(teacher.code, "Ada")
        room.submit_answer(teacher.code, ada.token, step.id, "a", "4")
        if how == "restart":
            pg_server.restart()
        else:  # the server dies without a shutdown: recovery replays its write-ahead log
            pg_server.stop("immediate")
            pg_server.start()
        # the pool's connections died with the server; pool_pre_ping replaces them unseen
        assert room.student_view(teacher.code, ada.token).mine == {"a": ("4", True)}
        room.submit_answer(teacher.code, ada.token, step.id, "b", "2")
        assert room.room_summary(teacher.code, teacher.key).step_summary.nodes[1].correct == 1
    finally:
        room.engine.dispose()
