"""The address a student's page asks whether the teacher moved, outside Streamlit's reruns.

`GET /api/class/beat?join=CODE&me=PASS&seen=VERSION` answers `{"version": V}` as soon as the
room's version differs from `seen`, or after `WAIT_S` with the same one (a long poll); 404 when
the room has ended, 403 for a pass that is not of this room. The follower on the student's page
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
import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from playground.classroom import Classroom, ClassroomError, NotFound

PATH = "/api/class/beat"
WAIT_S = 20.0
"""How long a request waits for a change before it answers the same version (well below the 60
s after which nginx and browsers give up on a silent request)."""
REFRESH_S = 0.2
"""How often the process reads a waited-for room's version: the most a student's page lags."""
MAX_PARAM_CHARS = 200
"""Longer parameters are refused unread (a code is 6 characters, a pass 43)."""


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


def routes(versions: Versions) -> list[Route]:
    """The beat's route over ``versions`` (one per process, made by streamlit_app.py)."""

    async def beat(request: Request) -> JSONResponse:
        params = request.query_params
        code, token, seen = (params.get(k, "") for k in ("join", "me", "seen"))
        if max(len(code), len(token), len(seen)) > MAX_PARAM_CHARS:
            return JSONResponse({"error": "parameters too long"}, status_code=400)
        try:
            version = await versions.changed(code, token,
                                             int(seen) if seen.isdigit() else None)
        except NotFound as err:
            return JSONResponse({"error": str(err)}, status_code=404)
        except ClassroomError as err:
            return JSONResponse({"error": str(err)}, status_code=403)
        return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})

    return [Route(PATH, beat, methods=["GET"])]
