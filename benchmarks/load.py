"""A class on one link: simulated students speaking Streamlit's websocket protocol, with figures.

Each simulated student is an asyncio task with one websocket, speaking Streamlit's own protobuf
messages (BackMsg out, ForwardMsg in) as a browser tab does, so 30 to 100 of them cost the
machine little beside the server. Each one

  1. opens a share link on the Graph page (optionally first fetching Streamlit's static files
     as a cold browser does, `--cold`): the script runs and the drawing arrives;
  2. switches to Gradients, then to Gradient check, and moves the epsilon slider;
  3. switches to Build, applies a short expression of its own and presses Undo.

Students join evenly spread over `--join` seconds. `--heavy N` adds N students who keep
submitting the heaviest graphs the limits allow (new seeds each time, so no cache helps) and
open Gradient check on them, until the class is done; `--trainers N` adds N who press Start on
the Train page and keep its timed fragment running as a browser does, then press Pause (their
rows: each update's time, the time between updates, the Pause click). Every student also
checks that it only ever sees its own graph (its node names, not another student's).

The table gives, per action, the median and 95th percentile from request to "script finished"
(for the first action, from joining to the drawing), with exceptions shown by the app and
disconnects; then the server's CPU seconds per student (from /proc) and peak memory (VmHWM),
and the load client's own CPU, against a baseline measured in the same run: the same steps on
a three-line Streamlit app that draws one graphviz chart, with the same .streamlit/config.toml.

By default it starts `streamlit run streamlit_app.py` on a free loopback port with the shipped
.streamlit/config.toml (`--server-arg` adds command-line options, to measure one setting), and
stops it at the end; `--serve K` starts deploy/serve.sh instead (K replicas behind nginx, the
replicas' and nginx's CPU and memory added up). `--url` points it at a running server instead
(loopback only; `--pids` names the processes to measure). Bounded: `--students` at most
200, and the whole run stops itself after `--max-seconds`.

    python benchmarks/load.py                          # 30 students joining within 10 s
    python benchmarks/load.py --students 60 --heavy 1 --cold
    python benchmarks/load.py --trainers 30            # and 30 more training on the Train page
    python benchmarks/load.py --server-arg=--server.fileWatcherType=auto
    python benchmarks/load.py --serve 2 --cold             # through nginx, 2 replicas
    python benchmarks/load.py --url http://127.0.0.1:8080 --pids 1234,1235
    python benchmarks/load.py --compare-browser        # one real Chromium vs one simulated
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
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (str(HERE), str(ROOT)):
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)

import websockets  # noqa: E402  (a dependency of Streamlit)
from _timing import print_table  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from pages.ui.admission import SESSIONS_ENV  # noqa: E402
from playground import parse, presets, share  # noqa: E402

MAX_STUDENTS = 200
ACTIONS = ("open link", "Gradients", "Gradient check", "move ε", "Build", "apply", "Undo")
TARGETS = {"open link": 3.0, "other": 1.0}  # p95 seconds, the targets on this machine
HEAVY_ACTIONS = ("heavy apply", "heavy check")
TRAINER_ACTIONS = ("train update", "train period", "Pause")
DRAWING_TYPES = ("graphviz_chart", "component_instance", "bidi_component", "html", "imgs")
"""Element types that carry the drawing (the graphviz chart, or a custom SVG component)."""
DRAWN = "[data-testid='graph-drawing'] svg g.node, [data-testid='stGraphVizChart'] svg"
"""The drawing in a real browser: the app's component (its shadow root), or the fallback."""

BASELINE_APP = '''\
import streamlit as st

st.graphviz_chart("digraph { a -> c; b -> c; c -> d }")
'''
"""The three-line app the issue compares with: one graphviz chart."""


def write_baseline_app(folder: Path) -> Path:
    """BASELINE_APP in `folder`, with the app's own .streamlit/config.toml: its script's path."""
    script = folder / "three_lines.py"
    script.write_text(BASELINE_APP)
    (folder / ".streamlit").mkdir()  # the same server settings as the app's
    (folder / ".streamlit" / "config.toml").write_text(
        (ROOT / ".streamlit" / "config.toml").read_text())
    return script


# --- the server -----------------------------------------------------------------------------

ONE_ADDRESS = {SESSIONS_ENV: "1000"}
"""Every simulated student connects from this machine's loopback address: as a class behind one
school router, the server is told to let one address hold that many sessions (the shipped
limit, playground.limits.MAX_SESSIONS_PER_ADDRESS, is for addresses of one person or a few)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


class Server:
    """`streamlit run <script>` on a free loopback port, or processes already running."""

    def __init__(self, script: Path | None, extra_args: list[str], url: str | None = None,
                 pids: list[int] | None = None, log: Path | None = None,
                 port: int | None = None, env: dict[str, str] | None = None) -> None:
        """``port`` (default: a free one) lets a restarted server answer at the same address;
        ``env`` adds to the server's environment (its database, say)."""
        self.process = None
        if url is not None:
            self.url, self.pids = url.rstrip("/"), list(pids or [])
            return
        port = port or _free_port()
        self.url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port",
                   str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
                   *extra_args]
        env = {**os.environ, **ONE_ADDRESS, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
               **(env or {})}
        self.log = open(log or os.devnull, "a")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(command, cwd=script.parent, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        self.pids = [self.process.pid]
        deadline = time.monotonic() + 60
        while not _healthy(self.url):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start: {' '.join(command)}")
            time.sleep(0.2)

    def measured(self) -> list[int]:
        """The measured processes and their children (nginx's workers, say)."""
        children: dict[int, list[int]] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        found, todo = [], list(self.pids)
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found

    def cpu_seconds(self) -> float:
        """User and system CPU seconds of the measured processes so far: their own, their
        living children's (nginx's workers) and their finished children's (Graphviz's dot)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in self.measured():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += sum(int(f) for f in fields[11:15]) / ticks
        return total

    def peak_mib(self) -> float:
        """Peak resident memory of the measured processes together (VmHWM), in MiB."""
        total = 0
        for pid in self.measured():
            with contextlib.suppress(OSError, AttributeError):  # gone, or a zombie (no VmHWM)
                status = Path(f"/proc/{pid}/status").read_text()
                total += int(re.search(r"VmHWM:\s+(\d+)", status).group(1))
        return total / 1024

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.log.close()
        self.process = None


class Replicas(Server):
    """`deploy/serve.sh K`: K replicas behind nginx on free loopback ports; measures them all."""

    def __init__(self, k: int, log: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        port = _free_port()
        base = random.randrange(20_000, 30_000)
        self.run = Path(tempfile.mkdtemp(prefix="load-replicas-"))
        env = {**os.environ, **ONE_ADDRESS, "RUN_DIR": str(self.run), "BASE_PORT": str(base),
               "PYTHON": sys.executable, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
               **(env or {})}
        self.url = f"http://127.0.0.1:{port}"
        self.log = open(log or os.devnull, "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(["bash", str(ROOT / "deploy" / "serve.sh"), str(k),
                                         str(port)], env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while not ((self.run / "pids").exists() and _healthy(self.url)):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"deploy/serve.sh {k} did not start; see {self.run}")
            time.sleep(0.3)
        self.pids = [int(p) for p in (self.run / "pids").read_text().split()]


# --- one student -------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one student measured."""

    times: dict[str, list[float]] = field(default_factory=dict)
    exceptions: int = 0
    disconnects: int = 0
    foreign: int = 0  # drawings that showed another student's node names
    errors: list[str] = field(default_factory=list)

    def add(self, action: str, seconds: float) -> None:
        self.times.setdefault(action, []).append(seconds)


class Session:
    """One browser tab's websocket: sends reruns, reads ForwardMsgs until the script finishes."""

    def __init__(self, url: str, outcome: Outcome, headers: dict[str, str] | None = None) -> None:
        """`headers` go with the websocket's opening request (an X-Forwarded-For, say)."""
        self.base = url
        self.headers = dict(headers or {})
        self.outcome = outcome
        # As a browser keeps the cookie nginx's first answer set (deploy/): one replica a tab.
        self.cookie = f"playground_replica={random.getrandbits(64):016x}"
        self.ws = None
        self.pages: dict[str, str] = {}  # url path ("" for the default page) -> script hash
        self.widgets: dict[str, str] = {}  # user key -> widget id
        self.query = ""
        self.page_hash = ""
        self.drawings: list[str] = []
        self.alerts: list[str] = []  # the texts of the last run's warnings, errors and notes
        self.timer: tuple[float, str] | None = None  # (seconds, fragment id) of a run_every

    async def connect(self) -> None:
        parts = urllib.parse.urlsplit(self.base)
        stream = f"ws://{parts.netloc}{parts.path}/_stcore/stream"
        self.ws = await websockets.connect(stream, subprotocols=["streamlit"],
                                           origin=f"http://{parts.netloc}", max_size=2**26,
                                           compression=None, open_timeout=60,
                                           additional_headers={"Cookie": self.cookie,
                                                               **self.headers})

    async def rerun(self, page: str | None = None, widgets: list | None = None,
                    fragment: str | None = None) -> float | None:
        """Ask for a rerun (of `page`, a url path, when switching; of one fragment, as its
        run_every timer does in a browser) and wait for its end.

        Returns when the drawing arrived (a `time.perf_counter()`), if it did."""
        await self.send_rerun(page, widgets, fragment)
        return await self.finished()

    async def send_rerun(self, page: str | None = None, widgets: list | None = None,
                         fragment: str | None = None) -> None:
        """Send the rerun request `rerun` sends, without waiting for anything."""
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        if fragment is not None:
            state.fragment_id = fragment
            state.is_auto_rerun = True
        if page is not None:
            state.page_name = page
            state.page_script_hash = self.pages.get(page, "")
        else:
            state.page_script_hash = self.page_hash
        for widget in widgets or ():
            state.widget_states.widgets.append(widget)
        await self.ws.send(msg.SerializeToString())

    async def finished(self) -> float | None:
        """Read ForwardMsgs until a run finishes (not one cut short by a newer rerun); returns
        when the drawing arrived (a `time.perf_counter()`), if it did."""
        self.drawings, self.alerts = [], []
        drawn = None
        while True:
            data = await self.ws.recv()
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind == "delta":
                drawn = self._delta(fwd.delta) or drawn
            elif kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in fwd.navigation.app_pages}
                self.page_hash = fwd.navigation.page_script_hash
            elif kind == "auto_rerun":
                self.timer = (fwd.auto_rerun.interval, fwd.auto_rerun.fragment_id)
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "new_session":
                self.page_hash = fwd.new_session.page_script_hash or self.page_hash
            elif kind == "script_finished":
                if fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    return drawn

    def _delta(self, delta) -> float | None:
        if delta.WhichOneof("type") != "new_element":
            return None
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.outcome.exceptions += 1
            self.outcome.errors.append(element.exception.message[:200])
            return None
        proto = getattr(element, kind, None)
        if kind == "alert":
            self.alerts.append(proto.body)
        widget_id = getattr(proto, "id", "")
        if widget_id and "-" in widget_id:
            self.widgets[widget_id.rsplit("-", 1)[1]] = widget_id
        if kind in DRAWING_TYPES:
            self.drawings.append(str(proto)[:200_000])
            return time.perf_counter()
        return None

    def widget(self, key: str) -> str:
        if key not in self.widgets:
            raise RuntimeError(f"the page has no widget with key {key!r}")
        return self.widgets[key]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def _trigger(widget_id: str):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    state = WidgetState()
    state.id = widget_id
    state.trigger_value = True
    return state


def _text(widget_id: str, value: str):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    state = WidgetState()
    state.id = widget_id
    state.string_value = value
    return state


def _choice(widget_id: str, value: str):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    state = WidgetState()
    state.id = widget_id
    state.string_array_value.data[:] = [value]
    return state


async def fetch_static(url: str, paths: list[str], cookie: str = "", connections: int = 6) -> int:
    """GET `paths` from the server over `connections` keep-alive connections, as a cold browser
    does (gzip accepted); returns the bytes received."""
    parts = urllib.parse.urlsplit(url)
    queue = list(paths)
    received = 0

    async def worker():
        nonlocal received
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        try:
            while queue:
                path = queue.pop()
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nCookie: {cookie}\r\n"
                             "Accept-Encoding: gzip\r\n\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
                received += len(await reader.readexactly(length))
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(min(connections, len(paths)))))
    return received


@contextlib.asynccontextmanager
async def _visit(session: Session, who: str):
    """Around one simulated visit: a dropped connection, or a page without the widget the visit
    needs, is counted in the session's outcome instead of stopping the class; the websocket
    is closed in any case."""
    outcome = session.outcome
    try:
        yield
    except (websockets.ConnectionClosed, OSError, asyncio.IncompleteReadError) as error:
        outcome.disconnects += 1
        outcome.errors.append(f"{who}: {type(error).__name__}: {error}")
    except RuntimeError as error:
        outcome.errors.append(f"{who}: {error}")
    finally:
        with contextlib.suppress(Exception):
            await session.close()


def student_program(number: int) -> str:
    """The short expression student `number` applies: node names of its own."""
    return (f"s{number}_x = [{number % 7}.0, 1.0]\ns{number}_w = [0.5, -1.5]\n"
            f"s{number}_y = tanh(sum(s{number}_x * s{number}_w))\n")


async def student(url: str, link: str, number: int, start_at: float,
                  static: tuple[list[str], list[str]] | list, baseline: bool) -> Outcome:
    """One student's visit, as in the module docstring; `baseline` runs the same number of
    reruns on the three-line app (no pages or widgets there)."""
    outcome = Outcome()
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    joined = time.perf_counter()
    session = Session(url, outcome)
    async with _visit(session, f"student {number}"):
        first, later = static if static else ([], [])
        if first:
            await fetch_static(url, first, session.cookie)
        await session.connect()
        session.query = "" if baseline else urllib.parse.urlencode({"graph": link})
        drawn = await session.rerun(page="" if baseline else "graph")
        outcome.add("open link", (drawn or time.perf_counter()) - joined)
        lazily = asyncio.create_task(fetch_static(url, later, session.cookie)) if later else None
        steps = [("Gradients", "gradients", None), ("Gradient check", "gradient_check", None)]
        for action, page, _ in steps:
            t = time.perf_counter()
            await session.rerun(page=None if baseline else page)
            outcome.add(action, time.perf_counter() - t)
        t = time.perf_counter()
        await session.rerun(widgets=None if baseline else
                            [_choice(session.widget("w_eps"), "1e-04")])
        outcome.add("move ε", time.perf_counter() - t)
        t = time.perf_counter()
        await session.rerun(page=None if baseline else "build")
        outcome.add("Build", time.perf_counter() - t)
        t = time.perf_counter()
        program = student_program(number)
        await session.rerun(widgets=None if baseline else [
            _text(session.widget("w_expr_text"), program),
            _trigger(session.widget("w_expr_apply"))])
        outcome.add("apply", time.perf_counter() - t)
        if not baseline:
            _check_own_drawing(session, outcome, number, expect_own=True)
        t = time.perf_counter()
        await session.rerun(widgets=None if baseline else [_trigger(session.widget("w_undo"))])
        outcome.add("Undo", time.perf_counter() - t)
        if not baseline:
            _check_own_drawing(session, outcome, number, expect_own=False)
        if lazily is not None:
            await lazily
    return outcome


def _check_own_drawing(session: Session, outcome: Outcome, number: int, expect_own: bool):
    """After Apply the drawing shows this student's nodes; after Undo the link's graph; never
    another student's."""
    drawing = "\n".join(session.drawings)
    others = set(re.findall(r"\bs(\d+)_[xwy]\b", drawing)) - {str(number)}
    own = f"s{number}_y" in drawing
    if others or own != expect_own:
        outcome.foreign += 1


HEAVY_PROGRAMS = (
    # the most elements a graph may hold (4 of 4 million), its work near the limit
    "x = randn(1000, 1000, seed={seed})\nh = tanh(x)\ng = exp(h)\nL = sum(g * h)\n",
    # two 512x512 matrix products: the work limit
    "a = randn(512, 512, seed={seed})\nb = randn(512, 512, seed={seed})\nc = a @ b\n"
    "d = c @ b\nL = sum(d)\n",
    # a small input feeding a million-element step: the finite-difference budget
    "x = randn(1000, seed={seed})\na = reshape(x, shape=(1000, 1))\nb = reshape(x, shape=(1, "
    "1000))\no = a * b\nt = tanh(o)\nL = sum(t)\n",
)


async def heavy_student(url: str, link: str, stop: asyncio.Event) -> Outcome:
    """Keeps applying the heaviest graphs the limits allow and opening Gradient check on them."""
    outcome = Outcome()
    session = Session(url, outcome)
    seed = random.randrange(10**6)
    async with _visit(session, "heavy student"):
        await session.connect()
        session.query = urllib.parse.urlencode({"graph": link})
        await session.rerun(page="build")
        while not stop.is_set():
            for program in HEAVY_PROGRAMS:
                seed += 1
                t = time.perf_counter()
                await session.rerun(page="build")
                await session.rerun(widgets=[
                    _text(session.widget("w_expr_text"), program.format(seed=seed)),
                    _trigger(session.widget("w_expr_apply"))])
                outcome.add("heavy apply", time.perf_counter() - t)
                t = time.perf_counter()
                await session.rerun(page="gradient_check")
                outcome.add("heavy check", time.perf_counter() - t)
                if stop.is_set():
                    break
    return outcome


async def trainer(url: str, stop: asyncio.Event) -> Outcome:
    """Opens the Train page, presses Start, and keeps its timed fragment running as a browser's
    timer does (a fragment rerun every run_every seconds; when the server takes longer than
    that, the next one as soon as the last has ended) until the class has finished; then
    presses Pause. "train period" is the time from one update's end to the next one's."""
    outcome = Outcome()
    session = Session(url, outcome)
    async with _visit(session, "trainer"):
        await session.connect()
        await session.rerun(page="train")
        await session.rerun(widgets=[_trigger(session.widget("w_train_start"))])
        ended = due = time.perf_counter()
        while not stop.is_set():
            if session.timer is None:
                raise RuntimeError("the Train page set no timer after Start")
            interval, fragment = session.timer
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            sent = time.perf_counter()
            due = sent + interval
            await session.rerun(fragment=fragment)
            outcome.add("train update", time.perf_counter() - sent)
            outcome.add("train period", time.perf_counter() - ended)
            ended = time.perf_counter()
        sent = time.perf_counter()
        await session.rerun(widgets=[_trigger(session.widget("w_train_pause"))])
        outcome.add("Pause", time.perf_counter() - sent)
    return outcome


async def run_class(url: str, link: str, students: int, join: float, heavy: int,
                    static: tuple | list, baseline: bool, trainers: int = 0) -> list[Outcome]:
    start = time.perf_counter() + 0.2
    stop = asyncio.Event()
    busy = [asyncio.create_task(heavy_student(url, link, stop)) for _ in range(heavy)]
    busy += [asyncio.create_task(trainer(url, stop)) for _ in range(trainers)]
    if busy:
        await asyncio.sleep(2.0)  # the heavy students and trainers are at it when the class joins
    tasks = [student(url, link, i, start + (2.0 if busy else 0) + join * i / max(students, 1),
                     static, baseline) for i in range(students)]
    outcomes = await asyncio.gather(*tasks)
    stop.set()
    return [*outcomes, *await asyncio.gather(*busy)]


# --- static files as a cold browser fetches them -----------------------------------------------


def record_static_paths(url: str, link: str) -> tuple[list[str], list[str]]:
    """The same-origin static paths a real, cold Chromium fetches on the student's visit: those
    before the link's drawing appears, and those the later pages add (chunks loaded lazily)."""
    from playwright.sync_api import sync_playwright

    paths: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: paths.append(urllib.parse.urlsplit(r.url).path)
                if r.url.startswith(url) and "/static/" in r.url else None)
        page.goto(f"{url}/graph?{urllib.parse.urlencode({'graph': link})}")
        page.locator(DRAWN).first.wait_for(timeout=60_000)
        first = sorted(set(paths))
        for title in ("Gradients", "Gradient check", "Build"):
            page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
            page.get_by_role("heading", name=title, level=1).wait_for()
            page.wait_for_timeout(1500)
        browser.close()
    return first, sorted(set(paths) - set(first))


# --- the Chromium check ------------------------------------------------------------------------


def browser_visit(url: str, link: str, number: int) -> None:
    """The simulated student's steps, by a real Chromium through the page's own controls."""
    from playwright.sync_api import sync_playwright

    def settled(page):
        page.wait_for_timeout(300)
        page.wait_for_selector("[data-testid='stStatusWidget']", state="detached",
                               timeout=60_000)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/graph?{urllib.parse.urlencode({'graph': link})}")
        page.locator(DRAWN).first.wait_for(timeout=60_000)
        settled(page)
        for title in ("Gradients", "Gradient check"):
            page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
            page.get_by_role("heading", name=title, level=1).wait_for()
            settled(page)
        page.get_by_test_id("stMain").get_by_role("slider").first.focus()  # epsilon
        page.keyboard.press("ArrowRight")
        settled(page)
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Build").click()
        page.get_by_role("heading", name="Build", level=1).wait_for()
        settled(page)
        page.get_by_role("tab", name="Expression").click()
        page.get_by_test_id("stMain").locator("textarea").first.fill(student_program(number))
        page.get_by_role("button", name="Apply").click()
        settled(page)
        page.get_by_role("button", name="Undo").click()
        settled(page)
        browser.close()


def compare_browser(args, link: str) -> None:
    """Server CPU of one visit by a real Chromium against one simulated student, each on a
    fresh server after one warm-up visit, repeated to show the spread."""
    rows = []
    for kind in ("Chromium", "simulated") * args.repeats:
        server = Server(ROOT / "streamlit_app.py", args.server_arg)
        try:
            asyncio.run(run_class(server.url, link, 1, 0, 0, [], False))  # warm-up
            before = server.cpu_seconds()
            t = time.perf_counter()
            if kind == "Chromium":
                browser_visit(server.url, link, 1)
            else:
                static = record_static_paths(server.url, link) if args.cold else []
                before = server.cpu_seconds()
                t = time.perf_counter()
                asyncio.run(run_class(server.url, link, 1, 0, 0, static, False))
            rows.append([kind, f"{server.cpu_seconds() - before:.2f}",
                         f"{time.perf_counter() - t:.1f}"])
        finally:
            server.stop()
    print_table(["visitor", "server CPU s", "wall s"], rows)
    print("The browser's visit includes its page loads and static files (warm after the first "
          "visit of the page); run with --cold to give the simulated student the same files.")


# --- the table ---------------------------------------------------------------------------------


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def summarise(outcomes: list[Outcome], actions) -> dict[str, tuple[float, float, int]]:
    out = {}
    for action in actions:
        values = [v for o in outcomes for v in o.times.get(action, [])]
        if values:
            out[action] = (statistics.median(values), _p95(values), len(values))
    return out


def measure(args, script: Path, link: str, baseline: bool, static: tuple | None) -> dict:
    """One run of the class on a fresh server (or the given one): timings, CPU and memory."""
    log = Path(tempfile.gettempdir()) / f"load-{'baseline' if baseline else 'app'}.log"
    if args.serve and not baseline:
        server = Replicas(args.serve, log=log)
    else:
        server = Server(script, args.server_arg, args.url, args.pids, log=log)
    try:
        if static is None:
            static = []
        for _ in range(3 * args.serve if args.serve and not baseline else 1):
            # the teacher first (with replicas, enough visits that each one has run the app)
            asyncio.run(run_class(server.url, link, 1, 0, 0, [], baseline))
        cpu_before, client_before = server.cpu_seconds(), resource.getrusage(
            resource.RUSAGE_SELF)
        wall = time.perf_counter()
        outcomes = asyncio.run(asyncio.wait_for(
            run_class(server.url, link, args.students, args.join,
                      0 if baseline else args.heavy, static, baseline,
                      0 if baseline else args.trainers),
            timeout=args.max_seconds))
        wall = time.perf_counter() - wall
        client_after = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "outcomes": outcomes,
            "cpu_per_student": (server.cpu_seconds() - cpu_before) / args.students,
            "peak_mib": server.peak_mib(),
            "client_cpu": (client_after.ru_utime + client_after.ru_stime
                           - client_before.ru_utime - client_before.ru_stime),
            "wall": wall,
        }
    finally:
        server.stop()


def report(args, app: dict, base: dict) -> bool:
    """Print the table; True when every target is met."""
    students = [o for o in app["outcomes"] if any(a in o.times for a in ACTIONS)
                or not any(a in o.times for a in HEAVY_ACTIONS + TRAINER_ACTIONS)]
    ours, theirs = summarise(students, ACTIONS), summarise(base["outcomes"], ACTIONS)
    rows, met = [], True
    for action in ACTIONS:
        if action not in ours:
            rows.append([action, "-", "-", "-", "-", "-", "-"])
            met = False
            continue
        median, p95, n = ours[action]
        target = TARGETS["open link" if action == "open link" else "other"]
        b_median, b_p95, _ = theirs.get(action, (float("nan"),) * 3)
        ok = p95 < target
        met &= ok
        rows.append([action, str(n), f"{median:.2f}", f"{p95:.2f}", f"{b_p95:.2f}",
                     f"{p95 / b_p95:.1f}x" if b_p95 == b_p95 and b_p95 > 0 else "-",
                     f"< {target:g} {'met' if ok else 'MISSED'}"])
    heavy = summarise([o for o in app["outcomes"] if not any(a in o.times for a in ACTIONS)],
                      HEAVY_ACTIONS + TRAINER_ACTIONS)
    for action, (median, p95, n) in heavy.items():
        rows.append([action, str(n), f"{median:.2f}", f"{p95:.2f}", "-", "-", "(not a target)"])
    print_table(["action", "n", "median s", "p95 s", "3-line p95 s", "ratio", "target"], rows)
    exceptions = sum(o.exceptions for o in app["outcomes"])
    disconnects = sum(o.disconnects for o in app["outcomes"])
    foreign = sum(o.foreign for o in app["outcomes"])
    incomplete = sum(1 for o in students if len(o.times) < len(ACTIONS))
    cpu = app["cpu_per_student"]
    print()
    print_table(["measure", "app", "3-line app", "target"], [
        ["server CPU s per student", f"{cpu:.2f}", f"{base['cpu_per_student']:.2f}",
         f"<= 0.3 {'met' if cpu <= 0.3 else 'MISSED'}"],
        ["server peak memory MiB", f"{app['peak_mib']:.0f}", f"{base['peak_mib']:.0f}",
         f"< 1024 {'met' if app['peak_mib'] < 1024 else 'MISSED'}"],
        ["exceptions shown", str(exceptions), str(sum(o.exceptions for o in base["outcomes"])),
         "0"],
        ["disconnects", str(disconnects), str(sum(o.disconnects for o in base["outcomes"])),
         "0"],
        ["students who saw another's graph", str(foreign), "-", "0"],
        ["students who did not finish", str(incomplete), "-", "0"],
        ["load client CPU s (all students)", f"{app['client_cpu']:.1f}",
         f"{base['client_cpu']:.1f}", "-"],
        ["wall s", f"{app['wall']:.1f}", f"{base['wall']:.1f}", "-"],
    ])
    for error in [e for o in app["outcomes"] for e in o.errors][:10]:
        print("  error:", error)
    met &= cpu <= 0.3 and app["peak_mib"] < 1024
    met &= not (exceptions or disconnects or foreign or incomplete)
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--join", type=float, default=10.0, help="seconds over which they join")
    parser.add_argument("--heavy", type=int, default=0, help="students submitting heavy graphs")
    parser.add_argument("--trainers", type=int, default=0,
                        help="students training on the Train page meanwhile")
    parser.add_argument("--cold", action="store_true",
                        help="each student first fetches the static files a cold Chromium does")
    parser.add_argument("--url", help="a running server (loopback only) instead of starting one")
    parser.add_argument("--pids", default="", help="processes to measure with --url, a,b,c")
    parser.add_argument("--serve", type=int, default=0, metavar="K",
                        help="run the app as deploy/serve.sh K: K replicas behind nginx")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an extra `streamlit run` option, e.g. "
                             "--server-arg=--server.fileWatcherType=auto")
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--no-baseline", action="store_true", help="skip the three-line app")
    parser.add_argument("--compare-browser", action="store_true",
                        help="one real Chromium visit against one simulated student")
    parser.add_argument("--repeats", type=int, default=2, help="with --compare-browser")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args()
    if not 1 <= args.students <= MAX_STUDENTS:
        parser.error(f"--students must be 1 to {MAX_STUDENTS}")
    if args.url and urllib.parse.urlsplit(args.url).hostname not in ("127.0.0.1", "localhost"):
        parser.error("--url must be on loopback (127.0.0.1 or localhost)")
    args.pids = [int(p) for p in args.pids.split(",") if p]
    link = share.encode(presets.get("mlp").spec)
    assert parse(student_program(0))  # the students' programs are valid
    signal.alarm(int(args.max_seconds * 3 + 120))  # the whole run stops itself, whatever happens

    if args.compare_browser:
        compare_browser(args, link)
        return
    static = None
    if args.cold:
        probe = Server(ROOT / "streamlit_app.py", args.server_arg, args.url, args.pids)
        try:
            static = record_static_paths(probe.url, link)
        finally:
            probe.stop()
        folder = Path(__import__("streamlit").__file__).parent / "static"
        files = [folder / p.lstrip("/") for p in static[0] + static[1]]
        size = sum(f.stat().st_size for f in files if f.is_file())
        print(f"cold browsers: each student fetches {len(files)} static files, "
              f"{size / 2**20:.1f} MiB ({len(static[0])} before the first drawing)")
    app = measure(args, ROOT / "streamlit_app.py", link, False, static)
    if args.no_baseline or args.url:
        base = {"outcomes": [], "cpu_per_student": float("nan"), "peak_mib": float("nan"),
                "client_cpu": float("nan"), "wall": float("nan")}
    else:
        with tempfile.TemporaryDirectory() as folder:
            base = measure(args, write_baseline_app(Path(folder)), link, True, static)
    served = args.url or (f"deploy/serve.sh {args.serve} (nginx)" if args.serve
                          else "streamlit run streamlit_app.py")
    print(f"\n{args.students} students joining within {args.join:g} s"
          + (f", {args.heavy} heavy" if args.heavy else "")
          + (f", {args.trainers} training" if args.trainers else "") + (", cold caches" if args.cold
                                                                else ", warm caches")
          + f"; server {served} "
          + " ".join(args.server_arg) + f"; load average {os.getloadavg()[0]:.2f}\n")
    met = report(args, app, base)
    print("\nall targets met" if met else "\nsome targets MISSED")
    if args.json:
        summary = {"app": {k: v for k, v in app.items() if k != "outcomes"},
                   "actions": summarise(app["outcomes"], ACTIONS + HEAVY_ACTIONS
                                        + TRAINER_ACTIONS),
                   "baseline": summarise(base["outcomes"], ACTIONS), "met": met}
        Path(args.json).write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
