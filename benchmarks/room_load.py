"""A live class on Streamlit's websocket protocol: one teacher and N students in one room.

The teacher and every student are asyncio tasks speaking Streamlit's own messages, with the
client of `benchmarks/load.py` (`load.Session`), on the Live class page (`/class`):

  1. the teacher opens a room and pastes the five links of a lesson (two of them exercises);
  2. the students join with the code and a nickname, spread over `--join` seconds (10 s);
  3. the teacher presses Next four times; on each exercise step every student sends an answer
     after a short think (within `--think` seconds; a third of them a recognisable wrong one)
     and, once the count says all have answered, the teacher reveals.

Each page runs as a browser runs it: a student's follower script waits on the beat address
(pages/ui/classroom_beat.py) and reruns its fragment when the teacher moved (where the server
has no beat address, deploy/serve.sh's replicas, once a second), and the teacher's projector
redraws on its `st.fragment` timer. Figures, per run:

- follow: the teacher's click on Next to the student's page showing the new step;
- answer visible: the student's Send to the first projector frame computed after the answer was
  accepted, which therefore counts it (an upper bound: the count may have included it a frame
  earlier);
- reveal seen: the teacher's Reveal to the answers on the student's page;
- join: a student opening the link to being in the room; answer accepted: Send to the mark;
- lost answers: answers a student saw accepted (its mark came back) that the database does not
  hold at the end; errors: exceptions and error messages on any page, dropped connections (other
  than the kill), students who did not reach every step or whose answers were never accepted;
- the server's CPU seconds per student over the class, from /proc, and its peak memory; and
  per Next, the server's CPU from the click until every student showed the step, per student
  (the median over the four Nexts): what one student's redraw costs the server.

`--kill-server-at S` kills the server with SIGKILL S seconds after the teacher's first Next and
starts it again on the same port (one process only). Every page reconnects as Streamlit's browser
client does (`RECONNECT_FIRST_S`: a try at once, then after 0.1 s, twice as long each time up to
4 s); a student's address keeps their pass, so they are back in the room;
the teacher reopens the private teacher link, as a teacher would. It reports how long after the
restart every student was back. A student whose Send got no mark sends again.

By default it starts `streamlit run streamlit_app.py` on a free loopback port with a fresh SQLite
database in a temporary folder; `--serve K` starts deploy/serve.sh (K replicas behind
nginx); `--postgres` gives the server(s) a throwaway PostgreSQL (`benchmarks/_postgres.py`),
`--database-url` an existing database; `--url` uses a running server (loopback; lost answers
then need `--database-url`). `--repeats R` runs the class R times, each on a fresh server and
database, and the table gives each figure's spread over the runs. Bounded: at most 300
students (`limits.MAX_ROOM_STUDENTS`), and every run stops itself after `--max-seconds`.

    python benchmarks/room_load.py --students 100 --repeats 3
    python benchmarks/room_load.py --students 300 --serve 2 --postgres
    python benchmarks/room_load.py --students 100 --kill-server-at 2 --json kill.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import load  # noqa: E402  (puts the repository first on the path too)
import websockets  # noqa: E402  (a dependency of Streamlit)
from _postgres import PostgresServer  # noqa: E402
from _timing import print_table  # noqa: E402
from sqlalchemy import select  # noqa: E402
from streamlit.components.v2.bidi_component.main import _make_trigger_id  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from playground import limits, presets, share  # noqa: E402
from playground.classroom import database, lesson  # noqa: E402
from playground.classroom.schema import answers, rooms, steps, students  # noqa: E402

ROOT = HERE.parent
APP = ROOT / "streamlit_app.py"
"""The app as the README starts it, with the Live class's beat address."""
FIGURES = ("follow", "answer visible", "reveal seen", "join", "answer accepted")
RECONNECT_FIRST_S, RECONNECT_MAX_S = 0.1, 4.0
"""How Streamlit's browser client looks for a server that went away (its `pingServer`, function
`VD` of streamlit/static/static/js/index.DormvYxC.js in Streamlit 1.67, with `sD=4e3`): it asks
the health address at once, then after 100 ms, then after twice as long each time, at most 4 s,
less up to 30 % at random; once the server answers, it opens the websocket and runs the page."""
STEP_HEADING = re.compile(r"Step (\d+) of (\d+)")
IN_ROOM = re.compile(r"You are \*\*(.+?)\*\* in class")


def lesson_links() -> list[str]:
    """The lesson: a graph, an exercise, another page, a second exercise, a bigger graph."""
    def step(page: str, key: str, ex: str | None = None, exercise: bool = False) -> str:
        spec = (next(p for p in presets.EXERCISES if p.key == key) if exercise
                else presets.get(key)).spec
        query = {"graph": share.encode(spec), **({"ex": ex} if ex else {})}
        return f"{page}?{urllib.parse.urlencode(query, safe=':,')}"

    return [step("graph", "classic"),
            step("backprop", "paths_meet", "grad:a,b,c", exercise=True),
            step("gradients", "neuron"),
            step("backprop", "tanh_chain", "grad:n,w", exercise=True),
            step("graph", "mlp")]


def answer_sheet(links: list[str]) -> dict[int, dict[str, tuple[str, str]]]:
    """Step number (1-based) -> hidden number -> (right answer, a wrong one: its sign flipped,
    or 1 for a zero), from the steps' own answer keys."""
    sheet = {}
    for number, link in enumerate(links, 1):
        made = lesson.read_link(link)
        if made.answer_key is None:
            continue
        key = lesson.read_key(made.answer_key)
        sheet[number] = {}
        for node in key.nodes:
            right = float(key.answers[node].reshape(-1)[0])
            sheet[number][node] = (f"{right:.6g}", f"{-right:.6g}" if right else "1")
    return sheet


# --- a browser tab on the Live class page ----------------------------------------------------


class Tab(load.Session):
    """A tab that also reads what the page writes (headings, text, alerts, metrics, code), each
    with the time it arrived and the fragment that wrote it; `page` keeps what the page shows
    (the last whole run's, with each fragment's part as its last run drew it), `texts` the last
    run's."""

    def __init__(self, url: str, outcome: load.Outcome) -> None:
        super().__init__(url, outcome)
        self.texts: list[tuple[float, str, str]] = []  # (arrived, text, fragment id)
        self.page: list[tuple[float, str, str]] = []
        self.ids: list[tuple[str, str]] = []  # (widget id, fragment id) the page shows
        self.run_ids: list[tuple[str, str]] = []
        self.follower: tuple[str, str, list] | None = None  # (id, fragment id, data)
        self.beat: Beat | None = None  # the follower's script's wait on the beat address

    async def rerun(self, page=None, widgets=None, fragment=None) -> list[tuple[float, str, str]]:
        self.texts, self.run_ids = [], []
        await super().rerun(page, widgets, fragment)
        if fragment is not None:  # what the browser does: the fragment's part drawn anew
            self.page = [t for t in self.page if t[2] != fragment] + self.texts
            self.ids = [i for i in self.ids if i[1] != fragment] + self.run_ids
        elif any(text == "Live class" for _, text, _ in self.texts):  # the whole page ran
            self.page, self.ids = self.texts, self.run_ids
        return self.texts

    def _delta(self, delta):
        found = super()._delta(delta)
        if delta.WhichOneof("type") != "new_element":
            return found
        element = delta.new_element
        kind = element.WhichOneof("type")
        now = time.perf_counter()
        proto = getattr(element, kind, None)
        if getattr(proto, "id", ""):
            self.run_ids.append((proto.id, delta.fragment_id))
        if kind == "bidi_component" and proto.component_name.endswith("class_follower"):
            self.follower = (proto.id, delta.fragment_id, json.loads(proto.json))
        text = (proto.body if kind in ("heading", "markdown", "alert")
                else f"{proto.label}: {proto.body}" if kind == "metric"
                else proto.code_text if kind == "code" else None)
        if text is not None:
            self.texts.append((now, text, delta.fragment_id))
        if kind == "alert":
            mark = "(you sent" in proto.body
            if proto.format == proto.ERROR and not mark or proto.format == proto.WARNING:
                self.outcome.errors.append(proto.body[:200])
        return found

    def find(self, pattern: re.Pattern | str, texts=None) -> tuple[float, re.Match] | None:
        """The first text of the last whole run (or of ``texts``) matching ``pattern``."""
        for at, text, _ in self.page if texts is None else texts:
            found = re.search(pattern, text)
            if found:
                return at, found
        return None

    def widget_id(self, key: str) -> str | None:
        """The id of the last whole run's widget whose key is ``key``."""
        return next((i for i, _ in self.ids if i.endswith("-" + key)), None)

    def fragment_of(self, widget: str) -> str | None:
        """The fragment the page shows ``widget`` in (a press of it reruns that fragment)."""
        return next((f or None for i, f in self.ids if i == widget), None)


# --- the class -------------------------------------------------------------------------------


@dataclass
class Pupil:
    """What one simulated student measured."""

    number: int
    outcome: load.Outcome = field(default_factory=load.Outcome)
    joined: float | None = None  # seconds from opening the link to being in the room
    seen: dict[int, float] = field(default_factory=dict)  # step -> when the page showed it
    revealed: dict[int, float] = field(default_factory=dict)  # step -> when it showed answers
    sent: dict[int, float] = field(default_factory=dict)  # step -> the accepted Send's time
    accepted: dict[int, float] = field(default_factory=dict)  # step -> when its marks came
    acked: dict[tuple[int, str], str] = field(default_factory=dict)  # (step, node) -> answer
    back: float | None = None  # when the page was in the room again after the restart

    @property
    def nickname(self) -> str:
        return f"sim{self.number}"


@dataclass
class Lesson:
    """The run's shared state (one asyncio loop, so no locks): the room, the teacher's clicks
    and projector frames, and the server's kill and restart."""

    url: str
    links: list[str]
    sheet: dict[int, dict[str, tuple[str, str]]]
    students: int
    think: float
    code: str | None = None
    room_ready: asyncio.Event = field(default_factory=asyncio.Event)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False
    clicks: dict[int, float] = field(default_factory=dict)  # step -> when Next was sent
    reveals: dict[int, float] = field(default_factory=dict)  # step -> when Reveal was sent
    frames: list[tuple[float, float, int, int]] = field(default_factory=list)
    """Projector frames: (asked, arrived, step, students answered)."""
    down: bool = False  # the server was killed and is not back yet
    killed: float | None = None
    restarted: float | None = None
    pupils: list[Pupil] = field(default_factory=list)
    teacher_outcome: load.Outcome = field(default_factory=load.Outcome)
    teacher_back: float | None = None
    server_cpu: Callable[[], float] = lambda: 0.0  # the server's CPU seconds so far
    redraw_cpu: list[float] = field(default_factory=list)
    """Per Next: the server's CPU seconds from the click until every student showed the step,
    per student (not measured across a kill)."""


async def _healthy(base: str) -> bool:
    """Whether the server answers its health address (the browser waits up to 15 s for it)."""
    parts = urllib.parse.urlsplit(base)
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(parts.hostname, parts.port), 15)
    except (OSError, asyncio.TimeoutError):
        return False
    try:
        writer.write(f"GET {parts.path}/_stcore/health HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                     "Connection: close\r\n\r\n".encode())
        return b" 200 " in await asyncio.wait_for(reader.readline(), 15)
    except (OSError, asyncio.TimeoutError):
        return False
    finally:
        writer.close()


async def _reconnect(tab: Tab, lesson_: Lesson, query: str) -> None:
    """Connect again as a browser does after the server went away (`RECONNECT_FIRST_S`), until
    the page runs."""
    attempt = 0
    while True:
        if await _healthy(tab.base):
            with contextlib.suppress(OSError, websockets.WebSocketException,
                                     asyncio.TimeoutError):
                await tab.connect()
                tab.query = query
                await tab.rerun(page="class")
                return
        attempt += 1
        wait = min(RECONNECT_MAX_S, RECONNECT_FIRST_S * 2 ** (attempt - 1))
        await asyncio.sleep(wait if attempt == 1 else wait * random.uniform(0.7, 1.0))


async def _tick(tab: Tab, due: float) -> float:
    """One run of the page's timed fragment when it is due; returns when the next one is."""
    await asyncio.sleep(max(0.0, due - time.perf_counter()))
    if tab.timer is None:
        raise RuntimeError("the Live class page set no one-second timer")
    interval, fragment = tab.timer
    sent = time.perf_counter()
    await tab.rerun(fragment=fragment)
    return sent + interval


async def pupil(lesson_: Lesson, me: Pupil, start_at: float) -> None:
    """One student: join, follow every step, answer the exercises once each."""
    await lesson_.room_ready.wait()
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    tab = Tab(lesson_.url, me.outcome)
    opened = time.perf_counter()
    try:
        await tab.connect()
        tab.query = urllib.parse.urlencode({"join": lesson_.code})
        await tab.rerun(page="class")
        await tab.rerun(widgets=[load._text(tab.widget("w_class_join_code"), lesson_.code),
                                 load._text(tab.widget("w_class_nickname"), me.nickname),
                                 load._trigger(tab.widget("Join"))])
        if tab.find(IN_ROOM) is None:
            raise RuntimeError(f"student {me.number} could not join: {_said(tab)}")
        me.joined = time.perf_counter() - opened
        await _follow(lesson_, me, tab)
    except (websockets.ConnectionClosed, OSError, RuntimeError) as error:
        me.outcome.errors.append(f"student {me.number}: {type(error).__name__}: {error}")
    finally:
        with contextlib.suppress(Exception):
            await tab.close()


def _said(tab: Tab) -> str:
    return " | ".join(text[:80] for _, text, _ in tab.page[-4:])


async def _follow(lesson_: Lesson, me: Pupil, tab: Tab) -> None:
    """The student's tab until the lesson ends: the follower's script, and Send once per
    exercise step after a think; reconnects after a kill."""
    answer_at: dict[int, float] = {}
    while not lesson_.finished:
        try:
            _read_page(lesson_, me, tab, answer_at)
            step = _step_shown(tab)
            send_at = answer_at.get(step) if step not in me.accepted else None
            wait = 1.0 if send_at is None else send_at - time.perf_counter()
            moved = await _follower(tab, max(0.0, min(wait, 1.0)))  # 1 s: is the lesson over?
            if not moved and send_at is not None and time.perf_counter() >= send_at:
                await _send(lesson_, me, tab, step)
                if step not in me.accepted:  # refused, or the page went away: a while later
                    answer_at[step] = time.perf_counter() + 2.0
        except (websockets.ConnectionClosed, OSError) as error:
            if tab.beat is not None:
                tab.beat.cancel()
                tab.beat = None
            if not lesson_.down and lesson_.restarted is None:  # not the kill, nor a reload
                me.outcome.disconnects += 1
                me.outcome.errors.append(f"student {me.number}: {type(error).__name__}")
            await _reconnect(tab, lesson_, tab.query)
            if tab.find(IN_ROOM) is not None and lesson_.restarted is not None:
                me.back = time.perf_counter()
    if tab.beat is not None:
        tab.beat.cancel()


class Beat:
    """What the follower's script (pages/ui/classroom_follow/follow.js) does in a browser: one
    request to the beat address, which answers when the room's version differs from the one the
    page drew; where the server has none, a wait of the page's own pace instead."""

    def __init__(self, base: str, data: list) -> None:
        self.version = data[1]
        self.task = asyncio.ensure_future(self._ask(base, data))

    async def _ask(self, base: str, data: list) -> bool:
        """True once the version moved; False when the server has no beat address (after
        waiting the page's pace)."""
        parts = urllib.parse.urlsplit(base)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        path = f"{data[0]}&seen={self.version}&drawn={data[3]}"
        try:
            while True:
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
                length = re.search(r"(?i)content-length:\s*(\d+)", head)
                body = await reader.readexactly(int(length.group(1)) if length else 0)
                if "application/json" not in head.lower():
                    await asyncio.sleep(data[2] / 1000)
                    return False
                if head.split(" ", 2)[1] in ("429", "503"):  # the beat's limits: ask later
                    wait = re.search(r"(?i)retry-after:\s*(\d+)", head)
                    await asyncio.sleep(int(wait.group(1)) if wait else 1)
                    continue
                answer = json.loads(body)
                if answer.get("server") != data[3]:
                    raise ConnectionResetError("another process drew the page: it reloads")
                if answer.get("version") != self.version:
                    return True
        finally:
            writer.close()

    def cancel(self) -> None:
        self.task.cancel()


async def _follower(tab: Tab, within: float) -> bool:
    """Wait for the follower's script to rerun its fragment (as a browser's does, which runs the
    page when the teacher moved), at most ``within`` seconds; False when the time ran out
    first."""
    if tab.follower is None:
        raise RuntimeError("the Live class page has no follower")
    widget, fragment, data = tab.follower
    if tab.beat is None or tab.beat.version != data[1]:
        if tab.beat is not None:
            tab.beat.cancel()
        tab.beat = Beat(tab.base, data)
    done, _ = await asyncio.wait([tab.beat.task], timeout=within)
    if not done:
        return False
    try:
        tab.beat.task.result()
    except asyncio.IncompleteReadError as error:  # the server went away mid-answer
        raise ConnectionResetError("the beat's connection closed") from error
    tab.beat = None
    moved = WidgetState(id=_make_trigger_id(widget, "events"),
                        json_trigger_value=json.dumps([{"event": "moved", "value": 1}]))
    await tab.rerun(widgets=[moved], fragment=fragment)
    return True


def _step_shown(tab: Tab) -> int | None:
    found = tab.find(STEP_HEADING)
    return int(found[1].group(1)) if found else None


def _read_page(lesson_: Lesson, me: Pupil, tab: Tab, answer_at: dict[int, float]) -> None:
    """Note when the page first showed each step and its answers; plan the Send of a new
    exercise step."""
    found = tab.find(STEP_HEADING)
    if found is None:
        return
    at, match = found
    step = int(match.group(1))
    me.seen.setdefault(step, at)
    if step in lesson_.sheet:
        answer_at.setdefault(step, at + random.uniform(0.3, lesson_.think))
        revealed = tab.find(r"^\*\*Answer: ")
        if revealed is not None:
            me.revealed.setdefault(step, revealed[0])


async def _send(lesson_: Lesson, me: Pupil, tab: Tab, step: int) -> None:
    """Type every hidden number's answer and press Send; the marks that come back are the
    server's acknowledgement."""
    wrong = me.number % 3 == 0
    typed = {node: pair[1 if wrong else 0] for node, pair in lesson_.sheet[step].items()}
    form = next((re.search(r"w_class_answers_(\d+)-Send$", i) for i, _ in tab.ids
                 if i.endswith("-Send")), None)
    if form is None:
        raise RuntimeError(f"step {step} has no Send button")
    step_id = form.group(1)
    states = []
    for node, text in typed.items():
        widget = tab.widget_id(f"w_class_answer_{step_id}_{node}")
        if widget is None:
            raise RuntimeError(f"step {step} has no answer box for {node}")
        states.append(load._text(widget, text))
    submit = tab.widget_id(f"FormSubmitter:w_class_answers_{step_id}-Send")
    sent = time.perf_counter()
    await tab.rerun(widgets=[*states, load._trigger(submit)], fragment=tab.fragment_of(submit))
    marks = [t for _, t, _ in tab.page if "(you sent" in t]
    if len(marks) == len(typed):
        me.sent[step], me.accepted[step] = sent, time.perf_counter()
        for node, text in typed.items():
            me.acked[(step, node)] = text


async def teacher(lesson_: Lesson, join_s: float) -> None:
    """Open the room, add the lesson, wait for the class, then Next, answers, Reveal, Next..."""
    tab = Tab(lesson_.url, lesson_.teacher_outcome)
    try:
        await tab.connect()
        await tab.rerun(page="class")
        await tab.rerun(widgets=[load._trigger(tab.widget("w_class_open"))])
        link = tab.find(r"\?room=([A-Z0-9]{6})&key=([\w\-]+)")
        if link is None:
            raise RuntimeError(f"the teacher's room did not open: {_said(tab)}")
        code, key = link[1].group(1), link[1].group(2)
        for step_link in lesson_.links:
            await tab.rerun(widgets=[load._text(tab.widget("w_class_paste"), step_link),
                                     load._trigger(tab.widget("w_class_add_pasted"))])
        lesson_.code = code
        lesson_.room_ready.set()
        teach = _Teaching(lesson_, tab, code, key)
        await teach.until(lambda: teach.joined >= lesson_.students, join_s + 30)
        for step in range(2, len(lesson_.links) + 1):
            lesson_.clicks[step] = time.perf_counter()
            cpu = lesson_.server_cpu()
            await teach.click("w_class_next")
            lesson_.started.set()
            await teach.until(lambda s=step: all(s in p.seen for p in lesson_.pupils), 60)
            if lesson_.restarted is None and not lesson_.down:
                lesson_.redraw_cpu.append((lesson_.server_cpu() - cpu) / lesson_.students)
            if step in lesson_.sheet:
                await teach.until(lambda s=step: teach.answered.get(s, 0) >= lesson_.students, 60)
                lesson_.reveals[step] = time.perf_counter()
                await teach.click("w_class_reveal")
                await teach.until(lambda s=step: all(s in p.revealed for p in lesson_.pupils),
                                  60)
            await teach.until(lambda: False, 1.0)  # a second on the step
    except (websockets.ConnectionClosed, OSError, RuntimeError) as error:
        lesson_.teacher_outcome.errors.append(f"teacher: {type(error).__name__}: {error}")
    finally:
        lesson_.finished = True
        with contextlib.suppress(Exception):
            await tab.close()


class _Teaching:
    """The teacher's tab while teaching: clicks, and the projector's timer between them."""

    def __init__(self, lesson_: Lesson, tab: Tab, code: str, key: str) -> None:
        self.lesson, self.tab, self.code, self.key = lesson_, tab, code, key
        self.due = time.perf_counter() + 1.0
        self.joined = 0
        self.answered: dict[int, int] = {}

    async def click(self, widget: str) -> None:
        while True:
            try:
                await self.tab.rerun(widgets=[load._trigger(self.tab.widget(widget))])
                return
            except (websockets.ConnectionClosed, OSError):
                await self._back()

    async def until(self, done, timeout: float) -> None:
        """Keep the projector live until ``done()`` or ``timeout`` seconds."""
        end = time.perf_counter() + timeout
        while not done() and time.perf_counter() < end:
            try:
                asked = max(self.due, time.perf_counter())
                self.due = await _tick(self.tab, self.due)
                self._read(asked)
            except (websockets.ConnectionClosed, OSError):
                await self._back()

    def _read(self, asked: float) -> None:
        texts = self.tab.texts
        joined = self.tab.find(r"^Joined: (\d+)", texts)
        answered = self.tab.find(r"^Answered: (\d+)", texts)
        step = self.tab.find(STEP_HEADING, self.tab.page)
        if joined:
            self.joined = int(joined[1].group(1))
        if answered and step:
            number = int(step[1].group(1))
            count = int(answered[1].group(1))
            self.answered[number] = count
            self.lesson.frames.append((asked, answered[0], number, count))

    async def _back(self) -> None:
        """After the server went away: reconnect and reopen the private teacher link."""
        if not self.lesson.down:
            self.tab.outcome.disconnects += 1
        await _reconnect(self.tab, self.lesson,
                         urllib.parse.urlencode({"room": self.code, "key": self.key}))
        self.lesson.teacher_back = time.perf_counter()
        self.due = time.perf_counter() + 1.0


# --- a run -----------------------------------------------------------------------------------


class Killer:
    """Kills the one-process server with SIGKILL at a moment of the lesson and starts it again
    on the same port; keeps the CPU seconds the killed process had used."""

    def __init__(self, server: load.Server, restart) -> None:
        self.server, self.restart = server, restart
        self.cpu_before = 0.0

    async def run(self, lesson_: Lesson, after_s: float) -> None:
        await lesson_.started.wait()
        await asyncio.sleep(after_s)
        self.cpu_before += self.server.cpu_seconds()
        lesson_.down = True
        lesson_.killed = time.perf_counter()
        os.killpg(self.server.process.pid, signal.SIGKILL)
        await asyncio.to_thread(self.server.process.wait)
        self.server.log.close()
        self.server.process = None
        self.server = await asyncio.to_thread(self.restart)
        lesson_.restarted = time.perf_counter()
        lesson_.down = False


async def run_lesson(url: str, students: int, join_s: float, think: float,
                     killer: Killer | None, kill_at: float | None,
                     server_cpu: Callable[[], float]) -> Lesson:
    links = lesson_links()
    lesson_ = Lesson(url, links, answer_sheet(links), students, think, server_cpu=server_cpu)
    lesson_.pupils = [Pupil(i + 1) for i in range(students)]
    start = time.perf_counter()
    tasks = [asyncio.create_task(teacher(lesson_, join_s))]
    await lesson_.room_ready.wait()
    start = time.perf_counter()
    tasks += [asyncio.create_task(pupil(lesson_, p, start + join_s * i / max(students, 1)))
              for i, p in enumerate(lesson_.pupils)]
    if killer is not None:
        tasks.append(asyncio.create_task(killer.run(lesson_, kill_at)))
    await asyncio.gather(*tasks)
    return lesson_


def lost_answers(url: str, code: str, pupils: list[Pupil]) -> int:
    """Answers a student saw accepted that the database does not hold (as they were sent)."""
    engine = database.make_engine(url)
    try:
        with engine.connect() as conn:
            stored = {(nick, position + 1, node): text for nick, position, node, text in
                      conn.execute(select(students.c.nickname, steps.c.position, answers.c.node,
                                          answers.c.text)
                                   .select_from(answers.join(steps, answers.c.step_id == steps.c.id)
                                                .join(students,
                                                      answers.c.student_id == students.c.id)
                                                .join(rooms, rooms.c.id == steps.c.room_id))
                                   .where(rooms.c.code == code))}
    finally:
        engine.dispose()
    return sum(1 for p in pupils for (step, node), text in p.acked.items()
               if stored.get((p.nickname, step, node)) != text)


def figures(lesson_: Lesson) -> dict[str, list[float]]:
    """Each figure's samples, in seconds (see the module's docstring)."""
    out = {name: [] for name in FIGURES}
    for p in lesson_.pupils:
        if p.joined is not None:
            out["join"].append(p.joined)
        for step, clicked in lesson_.clicks.items():
            if step in p.seen:
                out["follow"].append(p.seen[step] - clicked)
        for step, revealed in lesson_.reveals.items():
            if step in p.revealed:
                out["reveal seen"].append(p.revealed[step] - revealed)
        for step, sent in p.sent.items():
            out["answer accepted"].append(p.accepted[step] - sent)
            frame = next((f for f in lesson_.frames
                          if f[2] == step and f[0] >= p.accepted[step]), None)
            if frame is not None:
                out["answer visible"].append(frame[1] - sent)
    return out


def errors(lesson_: Lesson) -> list[str]:
    """Everything that went wrong for anybody (see the module's docstring)."""
    found = list(lesson_.teacher_outcome.errors)
    found += [f"teacher: exception {e}" for e in range(lesson_.teacher_outcome.exceptions)]
    steps_ = range(2, len(lesson_.links) + 1)
    for p in lesson_.pupils:
        found += p.outcome.errors
        found += [f"student {p.number}: exception"] * p.outcome.exceptions
        missing = [s for s in steps_ if s not in p.seen]
        if missing:
            found.append(f"student {p.number} never saw step(s) {missing}")
        unanswered = [s for s in lesson_.sheet if s not in p.accepted]
        if unanswered:
            found.append(f"student {p.number}'s answers to step(s) {unanswered} were not "
                         "accepted")
    return found


def one_run(args, database_url: str | None) -> dict:
    """One class on a fresh server (or the given one): its figures and counts."""
    folder = Path(tempfile.mkdtemp(prefix="room-load-"))
    env = {database.URL_ENV: database_url} if database_url else {database.DATA_ENV: str(folder)}
    url_for_db = database_url or database.database_url({database.DATA_ENV: str(folder)})
    log = folder / "server.log"
    if args.serve:
        server = load.Replicas(args.serve, log=log, env=env)
    else:
        server = load.Server(APP, [], args.url, args.pids, log=log,
                             env=env)
    killer = None
    if args.kill_server_at is not None:
        port = urllib.parse.urlsplit(server.url).port
        killer = Killer(server, lambda: load.Server(APP, [], log=log,
                                                    port=port, env=env))
    try:
        client_before = resource.getrusage(resource.RUSAGE_SELF)
        cpu_before = server.cpu_seconds()
        wall = time.perf_counter()
        lesson_ = asyncio.run(asyncio.wait_for(
            run_lesson(server.url, args.students, args.join, args.think, killer,
                       args.kill_server_at,
                       lambda: (killer.server if killer else server).cpu_seconds()),
            timeout=args.max_seconds))
        wall = time.perf_counter() - wall
        running = killer.server if killer else server
        cpu = running.cpu_seconds() + (killer.cpu_before if killer else 0.0) - cpu_before
        client = resource.getrusage(resource.RUSAGE_SELF)
        result = {
            "figures": figures(lesson_),
            "errors": errors(lesson_),
            "lost": (lost_answers(url_for_db, lesson_.code, lesson_.pupils)
                     if (database_url or not args.url) and lesson_.code else None),
            "accepted": sum(len(p.acked) for p in lesson_.pupils),
            "cpu_per_student": cpu / args.students,
            "redraw_ms": 1000 * statistics.median(lesson_.redraw_cpu) if lesson_.redraw_cpu
            else float("nan"),
            "peak_mib": running.peak_mib(),
            "client_cpu": (client.ru_utime + client.ru_stime
                           - client_before.ru_utime - client_before.ru_stime),
            "wall": wall,
            "back": None,
        }
        if lesson_.restarted is not None:
            back = [p.back for p in lesson_.pupils]
            result["back"] = (max(b - lesson_.restarted for b in back)
                              if all(b is not None for b in back) else float("inf"))
            result["teacher_back"] = (lesson_.teacher_back - lesson_.restarted
                                      if lesson_.teacher_back else float("inf"))
            result["restart"] = lesson_.restarted - lesson_.killed
        return result
    finally:
        (killer.server if killer else server).stop()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


# --- the table -------------------------------------------------------------------------------


def _spread(values: list[float], digits: int = 2) -> str:
    """One figure over the runs: its value, or the lowest and highest."""
    finite = [v for v in values if v == v]
    if not finite:
        return "-"
    low, high = min(finite), max(finite)
    return f"{low:.{digits}f}" if len(finite) == 1 or round(low, digits) == round(high, digits) \
        else f"{low:.{digits}f}–{high:.{digits}f}"


def report(args, runs: list[dict]) -> dict:
    """Print the tables; return the JSON summary (the worst run's figures)."""
    rows = []
    for name in FIGURES:
        per_run = [r["figures"][name] for r in runs]
        stats = [(statistics.median(v), load._p95(v), max(v)) if v else (float("nan"),) * 3
                 for v in per_run]
        rows.append([name, _spread([len(v) for v in per_run], 0),
                     *(_spread([s[i] for s in stats]) for i in range(3))])
    print_table(["figure (seconds)", "n", "median", "p95", "worst"], rows)
    print()
    lost = [r["lost"] for r in runs]
    counts = [
        ["answers accepted", _spread([r["accepted"] for r in runs], 0)],
        ["lost answers", "-" if None in lost else _spread(lost, 0)],
        ["errors", _spread([len(r["errors"]) for r in runs], 0)],
        ["server CPU s per student", _spread([r["cpu_per_student"] for r in runs])],
        ["server CPU ms per student per Next", _spread([r["redraw_ms"] for r in runs], 1)],
        ["server peak memory MiB", _spread([r["peak_mib"] for r in runs], 0)],
        ["load client CPU s", _spread([r["client_cpu"] for r in runs], 1)],
        ["wall s", _spread([r["wall"] for r in runs], 1)],
    ]
    if args.kill_server_at is not None:
        counts.append(["every student back, s after the restart",
                       _spread([r["back"] for r in runs])])
        counts.append(["teacher back, s after the restart",
                       _spread([r["teacher_back"] for r in runs])])
        counts.append(["restart: the kill to the new server's health, s",
                       _spread([r["restart"] for r in runs])])
    print_table(["measure", "over the runs"], counts)
    for error in [e for r in runs for e in r["errors"]][:10]:
        print("  error:", error)

    def worst_p95(name: str) -> float | None:
        values = [load._p95(r["figures"][name]) for r in runs if r["figures"][name]]
        return round(max(values), 3) if values else None

    return {
        "students": args.students,
        "p95_follow_s": worst_p95("follow"),
        "p95_answer_visible_s": worst_p95("answer visible"),
        "lost_answers": None if None in lost else sum(lost),
        "answers_accepted": sum(r["accepted"] for r in runs),
        "errors": sum(len(r["errors"]) for r in runs),
        "server_cpu_s_per_student": round(max(r["cpu_per_student"] for r in runs), 3),
        "server_cpu_ms_per_student_per_next": round(max(r["redraw_ms"] for r in runs), 1),
        "back_in_room_s": (None if args.kill_server_at is None
                           else round(max(r["back"] for r in runs), 3)),
        "runs": [{"p95": {n: (round(load._p95(r["figures"][n]), 3) if r["figures"][n]
                              else None) for n in FIGURES},
                  "lost_answers": r["lost"], "errors": len(r["errors"]),
                  "server_cpu_s_per_student": round(r["cpu_per_student"], 3),
                  "back_in_room_s": r["back"]} for r in runs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--join", type=float, default=10.0, help="seconds over which they join")
    parser.add_argument("--think", type=float, default=3.0,
                        help="each student answers within this many seconds of the step")
    parser.add_argument("--repeats", type=int, default=1, help="runs, each on a fresh server")
    parser.add_argument("--url", help="a running server (loopback only) instead of starting one")
    parser.add_argument("--pids", default="", help="processes to measure with --url, a,b,c")
    parser.add_argument("--serve", type=int, default=0, metavar="K",
                        help="run the app as deploy/serve.sh K: K replicas behind nginx")
    parser.add_argument("--postgres", action="store_true",
                        help="give the server a throwaway PostgreSQL instead of SQLite")
    parser.add_argument("--database-url", help="the server's database (as DATABASE_URL)")
    parser.add_argument("--kill-server-at", type=float, metavar="S",
                        help="SIGKILL the server S seconds after the first Next, and restart it")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="per run")
    parser.add_argument("--keep", action="store_true", help="keep each run's folder and log")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not 1 <= args.students <= limits.MAX_ROOM_STUDENTS:
        parser.error(f"--students must be 1 to {limits.MAX_ROOM_STUDENTS}")
    if args.url and urllib.parse.urlsplit(args.url).hostname not in ("127.0.0.1", "localhost"):
        parser.error("--url must be on loopback (127.0.0.1 or localhost)")
    if args.kill_server_at is not None and (args.url or args.serve):
        parser.error("--kill-server-at kills a server it started itself: one process, no --url "
                     "or --serve")
    if args.postgres and args.database_url:
        parser.error("--postgres starts its own database: leave out --database-url")
    args.pids = [int(p) for p in args.pids.split(",") if p]
    signal.alarm(int(args.max_seconds * args.repeats + 300))  # stops itself, whatever happens

    with contextlib.ExitStack() as stack:
        postgres = stack.enter_context(PostgresServer()) if args.postgres else None
        runs = []
        for _ in range(args.repeats):
            url = postgres.new_database() if postgres else args.database_url
            runs.append(one_run(args, url))
    served = args.url or (f"deploy/serve.sh {args.serve} (nginx)" if args.serve
                          else "streamlit run streamlit_app.py")
    store = "PostgreSQL" if args.postgres or (args.database_url or "").startswith("postgres") \
        else "SQLite"
    print(f"\n{args.students} students joining within {args.join:g} s, a 5-step lesson with 2 "
          f"exercises, {args.repeats} run(s); server {served} on {store}"
          + (f"; killed {args.kill_server_at:g} s after the first Next" if args.kill_server_at
             is not None else "") + f"; load average {os.getloadavg()[0]:.2f}\n")
    summary = report(args, runs)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
