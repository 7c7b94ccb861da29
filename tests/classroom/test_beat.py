"""The beat address a student's page waits on (pages/ui/classroom_beat.py), on SQLite and on a
real PostgreSQL: it answers when the teacher moves, not before, and only to a pass of the room.
Requests go through Starlette's own routing, as the st.App of streamlit_app.py serves them."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from classroom_helpers import exercise_link, link
from starlette.applications import Starlette

from pages.ui import classroom_beat


@pytest.fixture
def lesson(room):
    teacher = room.create_room()
    room.add_step(teacher.code, teacher.key, link())
    room.add_step(teacher.code, teacher.key, exercise_link())
    return teacher, room.join(teacher.code, "Ada")


async def get(app, **params) -> tuple[int, dict]:
    """One GET of the beat address through ``app``, as an ASGI server would send it."""
    status, _, body = await ask(app, classroom_beat.PATH, **params)
    return status, body


async def ask(app, path: str, **params) -> tuple[int, dict, dict]:
    """One GET of ``path`` through ``app``: status, headers and the JSON body."""
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": b"",
             "query_string": urlencode(params).encode(), "headers": [], "root_path": "",
             "http_version": "1.1", "scheme": "http", "server": ("test", 80),
             "client": ("127.0.0.1", 5000)}
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return sent[0]["status"], headers, json.loads(body) if body.startswith(b"{") else {}


def test_the_beat_answers_once_the_teacher_moves_and_not_before(room, lesson, monkeypatch):
    teacher, ada = lesson
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room)))
    seen = room.version(teacher.code)

    async def scenario():
        waiting = asyncio.ensure_future(get(app, join=teacher.code, me=ada.token, seen=seen))
        await asyncio.sleep(0.6)
        assert not waiting.done()  # nothing moved: the request waits
        moved = time.monotonic()
        await asyncio.to_thread(room.advance, teacher.code, teacher.key)
        answer = await asyncio.wait_for(waiting, 5)
        return answer, time.monotonic() - moved

    (status, body), lag = asyncio.run(scenario())
    assert status == 200 and body == {"version": seen + 1, "server": classroom_beat.SERVER}
    assert lag < 1.0  # a reading every REFRESH_S (0.2 s), not a second's timer


def test_the_beat_answers_the_same_version_after_its_wait(room, lesson, monkeypatch):
    teacher, ada = lesson
    monkeypatch.setattr(classroom_beat, "WAIT_S", 0.5)
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room)))
    seen = room.version(teacher.code)
    assert asyncio.run(get(app, join=teacher.code, me=ada.token, seen=seen)) == \
        (200, {"version": seen, "server": classroom_beat.SERVER})
    # a page that drew another version (or none) hears the current one at once
    assert asyncio.run(get(app, join=teacher.code, me=ada.token, seen="")) == \
        (200, {"version": seen, "server": classroom_beat.SERVER})


def test_the_beat_speaks_only_to_a_pass_of_the_room(room, lesson, clock):
    teacher, ada = lesson
    other = room.create_room()
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room)))
    for params, status in (({"join": other.code, "me": ada.token}, 403),
                           ({"join": teacher.code, "me": ada.token + "x"}, 403),
                           ({"join": teacher.code}, 403),
                           ({"join": "K7M2QX", "me": ada.token}, 404),
                           ({"join": teacher.code, "me": "x" * 10_000}, 400)):
        code, body = asyncio.run(get(app, **params, seen=0))
        assert code == status and "version" not in body, params
    clock.advance(10**7)  # the room ended
    code, body = asyncio.run(get(app, join=teacher.code, me=ada.token, seen=0))
    assert code == 404 and "version" not in body


def test_a_class_waiting_on_one_room_reads_it_once_per_refresh(room, lesson, monkeypatch):
    teacher, ada = lesson
    monkeypatch.setattr(classroom_beat, "WAIT_S", 1.0)
    reads = []
    real = room.version
    monkeypatch.setattr(room, "version", lambda code: reads.append(threading.get_ident())
                        or real(code))
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room)))
    seen = real(teacher.code)

    async def class_of_thirty():
        return await asyncio.gather(*(get(app, join=teacher.code, me=ada.token, seen=seen)
                                      for _ in range(30)))

    assert all(answer == (200, {"version": seen, "server": classroom_beat.SERVER}) for answer in asyncio.run(class_of_thirty()))
    assert len(reads) <= 1.0 / classroom_beat.REFRESH_S + 2  # not 30 students x 5 a second


def test_a_class_reconnecting_at_once_opens_the_database_once(room, lesson):
    """After a restart every page asks at the same moment; each opening of the database would
    migrate under its write lock (a class was back 25 s late when each request opened it)."""
    teacher, ada = lesson
    opened = []

    def open_classroom():
        opened.append(1)
        time.sleep(0.2)  # as a migration check takes its time
        return room

    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(open_classroom)))

    async def class_of_twenty():
        return await asyncio.gather(*(get(app, join=teacher.code, me=ada.token, seen="")
                                      for _ in range(20)))

    seen = room.version(teacher.code)
    assert all(answer == (200, {"version": seen, "server": classroom_beat.SERVER}) for answer in asyncio.run(class_of_twenty()))
    assert len(opened) == 1


def test_a_pass_asking_too_often_waits_and_so_does_an_address_refused_too_often(
        room, lesson, monkeypatch):
    teacher, ada = lesson
    monkeypatch.setattr(classroom_beat, "WAIT_S", 0.0)
    now = [600.0]
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room),
                                                 classroom_beat.Allowance(lambda: now[0])))
    seen = room.version(teacher.code)

    async def asks(n: int, **params):
        return [await ask(app, classroom_beat.PATH, **params) for _ in range(n)]

    answers = asyncio.run(asks(classroom_beat.ASKS_PER_PASS_PER_MINUTE + 1, join=teacher.code,
                               me=ada.token, seen=seen))
    assert all(status == 200 for status, _, _ in answers[:-1])
    status, headers, body = answers[-1]
    assert status == 429 and headers["retry-after"] == "60" and "version" not in body
    now[0] += 45  # the same minute: still waiting, 15 s more
    assert asyncio.run(asks(1, join=teacher.code, me=ada.token, seen=seen))[0][:2] == \
        (429, {**headers, "retry-after": "15"})
    now[0] += 15  # the next minute
    assert asyncio.run(asks(1, join=teacher.code, me=ada.token, seen=seen))[0][0] == 200
    # trying passes: refused 30 times, then the address waits, even with a good pass
    tries = asyncio.run(asks(classroom_beat.REFUSALS_PER_CLIENT_PER_MINUTE, join=teacher.code,
                             me="guess", seen=seen))
    assert [status for status, _, _ in tries] == [403] * len(tries)
    assert asyncio.run(asks(1, join=teacher.code, me=ada.token, seen=seen))[0][0] == 429


def test_a_process_holds_at_most_max_waiting_requests(room, lesson, monkeypatch):
    teacher, ada = lesson
    monkeypatch.setattr(classroom_beat, "MAX_WAITING", 3)
    monkeypatch.setattr(classroom_beat, "WAIT_S", 1.0)
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room)))
    seen = room.version(teacher.code)

    async def five_at_once():
        return await asyncio.gather(*(ask(app, classroom_beat.PATH, join=teacher.code,
                                          me=ada.token, seen=seen) for _ in range(5)))

    statuses = sorted(status for status, _, _ in asyncio.run(five_at_once()))
    assert statuses == [200, 200, 200, 503, 503]


def test_the_beat_is_under_the_servers_base_url_path(room, lesson, monkeypatch):
    """A server started with `server.baseUrlPath` serves every address of its own under it, and
    the student's page asks the beat there; Streamlit mounts an App's routes as they are given."""
    teacher, ada = lesson
    seen = room.version(teacher.code)
    monkeypatch.setattr(classroom_beat, "WAIT_S", 0.0)
    for base, there, not_there in (("", "/api/class/beat", "/sub/api/class/beat"),
                                   ("/sub/", "/sub/api/class/beat", "/api/class/beat")):
        app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room),
                                                     base_url_path=base))
        assert classroom_beat.path(base) == there
        assert asyncio.run(ask(app, there, join=teacher.code, me=ada.token, seen=seen))[0] == 200
        assert asyncio.run(ask(app, not_there, join=teacher.code, me=ada.token,
                               seen=seen))[0] == 404
    monkeypatch.setattr(classroom_beat.config, "get_option",
                        lambda name: "class/room" if name == "server.baseUrlPath" else None)
    assert classroom_beat.path() == "/class/room/api/class/beat"


def test_the_beat_names_its_process_so_a_page_of_another_one_reloads(room, lesson, monkeypatch):
    """After a restart the page's session is gone with its fragments (Streamlit drops a rerun
    of a fragment it does not hold): the follower compares the process the beat names with the
    one that drew the page, and reloads the page when they differ."""
    teacher, ada = lesson
    monkeypatch.setattr(classroom_beat, "WAIT_S", 0.0)
    app = Starlette(routes=classroom_beat.routes(classroom_beat.Versions(lambda: room)))
    _, body = asyncio.run(get(app, join=teacher.code, me=ada.token, seen=""))
    assert re.fullmatch(r"[0-9a-f]{16}", body["server"]) and body["server"] == classroom_beat.SERVER
    script = (Path(classroom_beat.__file__).with_name("classroom_follow") / "follow.js").read_text()
    assert "body.server !== follower.server" in script and "window.location.reload()" in script
    monkeypatch.setattr(classroom_beat, "WAIT_S", 30.0)
    seen = room.version(teacher.code)
    started = time.monotonic()  # a page drawn by another process hears at once, not in 30 s
    assert asyncio.run(get(app, join=teacher.code, me=ada.token, seen=seen, drawn="0" * 16)) \
        == (200, {"version": seen, "server": classroom_beat.SERVER})
    assert time.monotonic() - started < 5
