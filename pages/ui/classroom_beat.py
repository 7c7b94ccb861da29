"""The address a student's page asks whether the teacher moved, outside Streamlit's reruns.

`GET /api/class/beat?join=CODE&me=PASS&seen=VERSION&drawn=SERVER` answers `{"version": V,
"server": SERVER}` as soon as the room's version differs from `seen` (at once when `drawn`, the
process that drew the page, is not this one), or after `WAIT_S` with the same one (a long
poll); 404 when
the room has ended, 403 for a pass that is not of this room. Under `server.baseUrlPath` it is
there too, as every address of the app is (`/BASE/api/class/beat`).

It is bounded like the joins: a pass may ask `ASKS_PER_PASS_PER_MINUTE` times a minute, an
address may be refused `REFUSALS_PER_CLIENT_PER_MINUTE` times (so passes cannot be tried by the
thousand), both counted by this process (one event loop, so no lock; each replica counts its
own); over either, 429 with the seconds to wait. A process holds at most `MAX_WAITING` requests
waiting at once; more get 503 at once. The follower waits and asks again, it does not rerun
the page. The follower on the student's page
(`classroom_student._follow`, its script in classroom_follow/) asks it again at once after each
answer, and only when the version moved does it rerun the page: an unchanged second costs
the server nothing, where a one-second `st.fragment` timer cost every student a rerun (about 5 ms
of the server's core each, half a core for a class of 100).

The pass is checked once per request (`Classroom.beat`); then the request waits on the
`Versions` of this process, which reads each waited-for room's version once every `REFRESH_S`
however many students wait on it. Every process behind nginx reads the same database, so a
student learns of the teacher's step whichever replica serves either of them.

Streamlit serves this route from the `st.App` in streamlit_app.py; a server started from the
page script alone (`streamlit run navigation.py`, or AppTest) has no such address, and the
follower's script then asks the page itself once a second, as a timer would.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from streamlit import config

from pages.ui.admission import PROXIES_ENV
from playground.classroom import Classroom, ClassroomError, NotFound, codes

PATH = "/api/class/beat"
WAIT_S = 20.0
"""How long a request waits for a change before it answers the same version (well below the 60
s after which nginx and browsers give up on a silent request)."""
REFRESH_S = 0.2
"""How often the process reads a waited-for room's version: the most a student's page lags."""
MAX_PARAM_CHARS = 200
"""Longer parameters are refused unread (a code is 6 characters, a pass 43)."""
ASKS_PER_PASS_PER_MINUTE = 60
"""A follower asks once per `WAIT_S` while nothing moves and once per change of the room: a
few times a minute; sixty is a page gone wrong or a client hammering the address."""
REFUSALS_PER_CLIENT_PER_MINUTE = 30
"""Requests from one address the beat may refuse (no such room, not a pass of it) in a minute;
a class behind one router refused that often is being probed, and its addresses wait."""
SERVER = secrets.token_hex(8)
"""This process, as the beat names it in each answer and the page in its follower's data: a page
drawn by another process (before a restart, or by a replica that went away) belongs to a
session that is gone, whose fragments Streamlit no longer reruns (runtime/app_session.py drops a
rerun of a fragment it does not hold), so the follower reloads the page instead, which the pass
in its address makes the same student again."""
MAX_WAITING = 2_000
"""Requests one process holds waiting at once (each a socket and a coroutine): a room holds
at most 300 students, so this is several full rooms per process."""


class Allowance:
    """Requests counted per minute and key (a pass, an address's refusals), by this process
    only (the counts start again each minute, so they take memory for one minute's keys), and
    the requests waiting now."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._minute = -1
        self._counts: dict[tuple[str, ...], int] = {}
        self._waiting = 0

    def enter(self) -> bool:
        """One more request waiting, unless `MAX_WAITING` are."""
        if self._waiting >= MAX_WAITING:
            return False
        self._waiting += 1
        return True

    def leave(self) -> None:
        self._waiting -= 1

    def _now(self) -> float:
        now = self._clock()
        if int(now // 60) != self._minute:
            self._minute, self._counts = int(now // 60), {}
        return now

    def count(self, key: tuple[str, ...]) -> int:
        """One more request of ``key`` this minute; how many that makes."""
        self._now()
        self._counts[key] = self._counts.get(key, 0) + 1
        return self._counts[key]

    def seen(self, key: tuple[str, ...]) -> int:
        """How many requests of ``key`` this minute."""
        self._now()
        return self._counts.get(key, 0)

    def wait_s(self) -> int:
        """Seconds until the counts start again."""
        return max(1, int(60 - self._now() % 60))


class Versions:
    """The rooms' versions as this process last read them, each at most `REFRESH_S` old. Used
    only on the server's event loop (one thread), so it needs no lock; the database is read in
    a worker thread, once per room however many requests wait on it."""

    def __init__(self, open_classroom: Callable[[], Classroom] = Classroom.open) -> None:
        self._open = open_classroom
        self._opening: asyncio.Future | None = None  # the one opening of the database
        self._read: dict[str, tuple[float, asyncio.Future]] = {}  # code -> (when, version)

    async def classroom(self) -> Classroom:
        """The process's database, opened (and migrated) once, by the first request: a class
        reconnecting to a restarted server asks at the same moment, and each opening would
        migrate under the database's write lock."""
        if self._opening is None or (self._opening.done() and self._opening.exception()):
            self._opening = asyncio.ensure_future(asyncio.to_thread(self._open))
        return await asyncio.shield(self._opening)

    async def check(self, code: str, token: str) -> int:
        """The room's version, if ``token`` is a pass of it (or its teacher key)."""
        classroom = await self.classroom()
        return (await asyncio.to_thread(classroom.beat, code, token)).version

    async def version(self, code: str) -> int | None:
        """The room's version at most `REFRESH_S` ago; None once it has ended."""
        now = time.monotonic()
        when, read = self._read.get(code, (0.0, None))
        if read is None or now - when > REFRESH_S:
            classroom = await self.classroom()
            read = asyncio.ensure_future(asyncio.to_thread(classroom.version, code))
            self._read = {c: r for c, r in self._read.items() if now - r[0] < WAIT_S}
            self._read[code] = (now, read)
        return await asyncio.shield(read)

    async def changed(self, code: str, token: str, seen: int | None) -> int | None:
        """The room's version once it differs from ``seen`` or after `WAIT_S`."""
        version = await self.check(code, token)
        end = time.monotonic() + WAIT_S
        while version == seen and time.monotonic() < end:
            await asyncio.sleep(REFRESH_S)
            version = await self.version(code)
        return version


def path(base_url_path: str | None = None) -> str:
    """The beat's address under ``base_url_path`` (default: the server's `server.baseUrlPath`,
    under which Streamlit serves every address of its own; an st.App's routes it mounts as
    they are given)."""
    base = (config.get_option("server.baseUrlPath") if base_url_path is None
            else base_url_path) or ""
    return f"/{base.strip('/')}{PATH}" if base.strip("/") else PATH


def routes(versions: Versions, allowance: Allowance | None = None,
           base_url_path: str | None = None) -> list[Route]:
    """The beat's route over ``versions`` (one per process, made by streamlit_app.py)."""
    allowance = allowance or Allowance()

    def refused(status: int, text: str, wait_s: int | None = None) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status,
                            headers={"Retry-After": str(wait_s)} if wait_s else None)

    async def beat(request: Request) -> JSONResponse:
        params = request.query_params
        code, token, seen, drawn = (params.get(k, "") for k in ("join", "me", "seen", "drawn"))
        if max(len(code), len(token), len(seen), len(drawn)) > MAX_PARAM_CHARS:
            return refused(400, "parameters too long")
        client = codes.client_address(request.client.host if request.client else None,
                                      request.headers.get("X-Forwarded-For"),
                                      os.environ.get(PROXIES_ENV, ""))
        if allowance.seen(("refused", client)) >= REFUSALS_PER_CLIENT_PER_MINUTE or \
                allowance.count(("pass", client, token)) > ASKS_PER_PASS_PER_MINUTE:
            return refused(429, "too many requests from this address; wait a little",
                           allowance.wait_s())
        if not allowance.enter():
            return refused(503, "the server is busy; ask again in a moment", 1)
        try:
            version = await versions.changed(  # a page of another process hears at once
                code, token, int(seen) if seen.isdigit() and drawn in ("", SERVER) else None)
        except ClassroomError as err:
            allowance.count(("refused", client))
            return refused(404 if isinstance(err, NotFound) else 403, str(err))
        finally:
            allowance.leave()
        return JSONResponse({"version": version, "server": SERVER},
                            headers={"Cache-Control": "no-store"})

    return [Route(path(base_url_path), beat, methods=["GET"])]
