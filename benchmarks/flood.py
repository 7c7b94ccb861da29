"""A flooding client against a class: what one hostile socket costs.

Each flooding client opens the Graph page on one websocket, sends `--reruns` rerun requests
back-to-back, each carrying a different heavy share link (the largest graphs the limits allow,
a new seed each time, so no cache helps), and closes the socket without reading the answers.
Meanwhile a small class of simulated students (benchmarks/load.py's, with its protocol client)
goes through its visit. The run, on one server started as the README starts it
(`streamlit run streamlit_app.py` with the shipped .streamlit/config.toml):

  1. the class alone: the baseline, measured in the same run;
  2. the class again while the flooders flood, round after round, until the class is done;
  3. one last round of the flooders alone, then: the server's CPU seconds after the last socket
     closed, and the time until the server is idle (a `IDLE_WINDOW_S` window under
     `IDLE_SHARE` of one core); and one flooder that keeps its socket open until the last run
     has finished. Their CPU is also given in runs of one heavy link opened alone (measured
     first).

Peak memory is the server's VmHWM before the flood and after it, the growth shared out over the
flooding clients; the peak of the server's threads shows how many runs were alive at once.
`--sessions N` then opens N sessions from this one address and counts how many the server
accepts (finding 6).

    python benchmarks/flood.py                       # 1 flooder, 300 reruns, 10 students
    python benchmarks/flood.py --flooders 3 --json flood.json
    python benchmarks/flood.py --server-arg=--runner.fastReruns=false  # one setting's share
    git archive ed226c0 | tar -x -C /tmp/before && python benchmarks/flood.py --app /tmp/before
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (str(HERE), str(ROOT)):
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)

import load  # noqa: E402
from _timing import print_table  # noqa: E402

from playground import limits, parse, presets, share  # noqa: E402

FLOOD_PROGRAMS = (
    # half a million elements in each of five tensors (the memory limit allows four million)
    "x = randn(500, 1000, seed={seed})\nh = tanh(x)\ng = exp(h)\nL = sum(g * h)\n",
    # two 512 x 512 matrix products: the work limit
    "a = randn(512, 512, seed={seed})\nb = randn(512, 512, seed={seed})\nc = a @ b\n"
    "d = c @ b\nL = sum(d)\n",
)
IDLE_WINDOW_S = 0.5
IDLE_SHARE = 0.1
"""The server is idle once it used under this share of one core for IDLE_WINDOW_S."""
MAX_IDLE_WAIT_S = 120.0
MAX_SERVER_MIB = 8_192
"""The run stops the server once it holds more than this (the machine is shared)."""


def flood_link(number: int) -> str:
    """The `number`-th heavy share link: each one a graph of its own (a new seed)."""
    program = FLOOD_PROGRAMS[number % len(FLOOD_PROGRAMS)]
    return share.encode(parse(program.format(seed=1_000 + number)))


async def flood(url: str, links: list[str], read: bool = False) -> load.Outcome:
    """One flooding client: the Graph page, then a rerun for each of `links` back-to-back,
    then the socket closed (`read`: first read the answers until the last run finishes)."""
    outcome = load.Outcome()
    session = load.Session(url, outcome)
    async with load._visit(session, "flooder"):
        await session.connect()
        await session.rerun(page="graph")
        for link in links:
            session.query = urllib.parse.urlencode({"graph": link})
            await session.send_rerun(page="graph")
        if read:
            await session.finished()
    return outcome


@dataclass
class Probe:
    """The server's CPU seconds and threads, sampled every `every` seconds while in use as
    `async with Probe(server) as probe:`; stops the server should it pass MAX_SERVER_MIB."""

    server: load.Server
    every: float = 0.05
    samples: list[tuple[float, float, int]] = field(default_factory=list)  # (t, cpu, threads)
    _task: asyncio.Task | None = None

    async def __aenter__(self) -> Probe:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def _threads(self) -> int:
        total = 0
        for pid in self.server.measured():
            with contextlib.suppress(OSError, AttributeError):
                status = Path(f"/proc/{pid}/status").read_text()
                total += int(re.search(r"Threads:\s+(\d+)", status).group(1))
        return total

    async def _run(self) -> None:
        while True:
            self.samples.append((time.perf_counter(), self.server.cpu_seconds(), self._threads()))
            if self.server.peak_mib() > MAX_SERVER_MIB:
                self.server.stop()
                raise RuntimeError(f"the server passed {MAX_SERVER_MIB} MiB: stopped")
            await asyncio.sleep(self.every)

    def peak_threads(self) -> int:
        return max((n for _, _, n in self.samples), default=0)

    async def until_idle(self, since: float) -> tuple[float, float]:
        """CPU seconds the server spent from `since` until it went idle, and the seconds
        that took."""
        deadline = time.perf_counter() + MAX_IDLE_WAIT_S
        while time.perf_counter() < deadline:
            if self._task.done():
                self._task.result()  # the probe's own error, if it stopped
            window = [(t, c) for t, c, _ in self.samples if t >= since]
            for i, (t0, c0) in enumerate(window):
                later = [(t, c) for t, c in window[i:] if t - t0 >= IDLE_WINDOW_S]
                if later and later[0][1] - c0 <= IDLE_SHARE * (later[0][0] - t0):
                    return c0 - window[0][1], t0 - since
            await asyncio.sleep(self.every)
        raise RuntimeError(f"the server was still busy {MAX_IDLE_WAIT_S:g} s after the flood")

    async def cpu_of(self, work) -> dict[str, float]:
        """Run `work()` and wait until the server is idle: its CPU seconds in all, those after
        `work()` returned, and the seconds from then until idle."""
        await self.until_idle(time.perf_counter())
        start = self.server.cpu_seconds()
        await work()
        ended, end = time.perf_counter(), self.server.cpu_seconds()
        after, idle = await self.until_idle(ended)
        return {"cpu_s": end - start + after, "cpu_after_s": after, "idle_after_s": idle}


async def one_heavy_link(url: str, number: int) -> None:
    """Open one heavy link in a new session, as a student would, and wait for the page."""
    session = load.Session(url, load.Outcome())
    async with load._visit(session, "one heavy link"):
        await session.connect()
        session.query = urllib.parse.urlencode({"graph": flood_link(number)})
        await session.rerun(page="graph")


async def flood_with_class(args, server: load.Server, link: str) -> dict:
    """Phases 2 and 3 of the module docstring; first, the CPU of one heavy link opened alone."""
    class_done = asyncio.Event()
    rounds = [0]

    async def flooder(number: int) -> None:
        while not class_done.is_set():
            first = (number * 1_000 + rounds[0]) * args.reruns
            await flood(server.url, [flood_link(first + i) for i in range(args.reruns)])
            rounds[0] += 1

    async def last_round() -> None:
        await asyncio.gather(*(flood(server.url, [flood_link(10**6 + n * args.reruns + i)
                                                  for i in range(args.reruns)])
                               for n in range(args.flooders)))

    async with Probe(server) as probe:
        alone = await probe.cpu_of(lambda: one_heavy_link(server.url, -1))
        hwm_before = server.peak_mib()
        flooders = [asyncio.create_task(flooder(n)) for n in range(args.flooders)]
        await asyncio.sleep(0.5)  # the flood is on when the class arrives
        outcomes = await load.run_class(server.url, link, args.students, args.join, 0, [], False)
        class_done.set()
        await asyncio.gather(*flooders)
        last = await probe.cpu_of(last_round)
        reader = await probe.cpu_of(lambda: flood(server.url, [
            flood_link(2 * 10**6 + i) for i in range(args.reruns)], read=True))
    return {"outcomes": outcomes, "rounds": rounds[0], "one_link_cpu_s": alone["cpu_s"],
            "flooder_cpu_s": last["cpu_s"] / args.flooders, "reader_cpu_s": reader["cpu_s"],
            "cpu_after_close_s": last["cpu_after_s"], "idle_after_close_s": last["idle_after_s"],
            "peak_threads": probe.peak_threads(),
            "rss_growth_per_flooder_mib": (server.peak_mib() - hwm_before) / args.flooders}


async def sessions_from_one_address(url: str, count: int) -> dict:
    """Open `count` sessions at once from this address, each running the Graph page, and keep
    them open: how many the server served the page, and how many it refused."""
    outcomes = [load.Outcome() for _ in range(count)]
    sessions = [load.Session(url, o) for o in outcomes]

    async def one(session: load.Session) -> str:
        try:
            await session.connect()
            await session.rerun(page="graph")
        except (TimeoutError, OSError, load.websockets.ConnectionClosed):
            return "failed"
        return "served" if session.drawings else "refused"

    try:
        answers = await asyncio.gather(*(one(s) for s in sessions))
    finally:
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
    served, refused, failed = (answers.count(a) for a in ("served", "refused", "failed"))
    return {"sessions": count, "served": served, "refused": refused, "failed": failed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flooders", type=int, default=1, help="flooding clients")
    parser.add_argument("--reruns", type=int, default=300, help="reruns each one sends")
    parser.add_argument("--students", type=int, default=10, help="the class clicking meanwhile")
    parser.add_argument("--join", type=float, default=3.0, help="seconds over which they join")
    parser.add_argument("--sessions", type=int, default=0,
                        help="then open this many sessions from one address")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an extra `streamlit run` option")
    parser.add_argument("--app", type=Path, default=ROOT,
                        help="the app's folder (`git archive` of an older commit, say)")
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args()
    if not 1 <= args.flooders <= 20 or not 1 <= args.reruns <= 1_000:
        parser.error("--flooders must be 1 to 20 and --reruns 1 to 1000")
    for stop in (signal.SIGALRM, signal.SIGTERM):  # stop the server on the way out
        signal.signal(stop, lambda *_: sys.exit(f"stopped after {args.max_seconds:g} s or killed"))
    signal.alarm(int(args.max_seconds))  # the whole run stops itself, whatever happens
    link = share.encode(presets.get("mlp").spec)
    server = load.Server(args.app.resolve() / "streamlit_app.py", args.server_arg,
                         log=Path("/tmp/flood-server.log"),
                         env={load.SESSIONS_ENV: str(limits.MAX_SESSIONS_PER_ADDRESS)})
    try:
        asyncio.run(load.run_class(server.url, link, 1, 0, 0, [], False))  # warm
        alone = asyncio.run(load.run_class(server.url, link, args.students, args.join, 0, [],
                                           False))
        flooded = asyncio.run(flood_with_class(args, server, link))
        sessions = (asyncio.run(sessions_from_one_address(server.url, args.sessions))
                    if args.sessions else None)
    finally:
        server.stop()
    report(args, alone, flooded, sessions)


def _p95_of(outcomes: list[load.Outcome]) -> float:
    return load._p95([v for o in outcomes for values in o.times.values() for v in values])


def report(args, alone: list[load.Outcome], flooded: dict, sessions: dict | None) -> None:
    base_p95, flood_p95 = _p95_of(alone), _p95_of(flooded["outcomes"])
    one = flooded["one_link_cpu_s"]
    errors = sum(o.exceptions + o.disconnects for o in flooded["outcomes"])
    print(f"\n{args.flooders} flooder(s) x {args.reruns} reruns of heavy links, then closed; "
          f"a class of {args.students}; server streamlit run streamlit_app.py "
          + " ".join(args.server_arg) + f"; load average {os.getloadavg()[0]:.2f}\n")
    print_table(["measure", "value", "target"], [
        ["server CPU s after the last socket closed", f"{flooded['cpu_after_close_s']:.2f}",
         "<= 1"],
        ["s until the server is idle", f"{flooded['idle_after_close_s']:.2f}", "-"],
        ["server CPU s per flooder, all its reruns", f"{flooded['flooder_cpu_s']:.2f}", "-"],
        ["server CPU s of one heavy link opened alone", f"{one:.2f}", "-"],
        ["one flooder's reruns, in runs of one link", f"{flooded['flooder_cpu_s'] / one:.1f}",
         "a few"],
        ["the same, socket kept open to the last run", f"{flooded['reader_cpu_s'] / one:.1f}",
         "a few"],
        ["peak RSS growth per flooder MiB", f"{flooded['rss_growth_per_flooder_mib']:.0f}",
         "bounded"],
        ["peak server threads", str(flooded["peak_threads"]), "-"],
        ["flood rounds during the class", str(flooded["rounds"]), "-"],
        ["class p95 per click s, no flood", f"{base_p95:.2f}", "-"],
        ["class p95 per click s, flooded", f"{flood_p95:.2f}", "<= 1"],
        ["ratio flooded / no flood", f"{flood_p95 / base_p95:.1f}x", "-"],
        ["class exceptions and disconnects, flooded", str(errors), "0"],
    ])
    if sessions:
        print()
        print_table(["sessions from one address", "served", "refused", "failed"],
                    [[str(sessions["sessions"]), str(sessions["served"]),
                      str(sessions["refused"]), str(sessions["failed"])]])
    if args.json:
        Path(args.json).write_text(json.dumps({
            "flooders": args.flooders, "reruns": args.reruns, "students": args.students,
            "class_p95_s": base_p95, "class_p95_flooded_s": flood_p95,
            **{k: v for k, v in flooded.items() if k != "outcomes"}, "class_errors": errors,
            "sessions": sessions, "load_average": os.getloadavg()[0]}, indent=1))


if __name__ == "__main__":
    main()
