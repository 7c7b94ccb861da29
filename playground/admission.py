"""How many sessions one address may hold open at once.

Every open tab is a session the server keeps (its graph, its undo history, its script runs), so
one client opening hundreds of them takes what a class needs. ``Admissions.admit`` lets an
address hold ``limit`` sessions; the next one is refused until one of them closes. A session is
admitted once, on its first run, and counted until it closes (``is_open``, asked of the server).

One ``Admissions`` serves the whole server (the app keeps it with ``st.cache_resource``): like
``training.pace.Pace`` it is state that sessions share on purpose, and it holds only addresses
and session ids, nothing a student typed. It stays bounded: an address's closed sessions are
forgotten whenever that address is counted, and every address's every ``sweep_every``
admissions, so it never holds more than the open sessions and those closed since the last sweep.
Thread-safe; plain Python, no Streamlit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Admissions:
    """The open sessions of each address, up to a limit per address."""

    def __init__(self, is_open: Callable[[str], bool], sweep_every: int = 256) -> None:
        self._is_open = is_open
        self._sweep_every = sweep_every
        self._lock = threading.Lock()
        self._sessions: dict[str, set[str]] = {}
        self._since_sweep = 0

    def admit(self, address: str, session: str, limit: int) -> bool:
        """Whether `session` from `address` may run: yes if it was admitted before or the
        address holds fewer than `limit` open sessions (then it is counted from now on)."""
        with self._lock:
            held = self._sessions.setdefault(address, set())
            if session in held:
                return True
            self._forget_closed(address)
            held = self._sessions.setdefault(address, set())
            if len(held) >= limit:
                return False
            held.add(session)
            self._since_sweep += 1
            if self._since_sweep >= self._sweep_every:
                self._since_sweep = 0
                for other in list(self._sessions):
                    self._forget_closed(other)
            return True

    def open_sessions(self, address: str) -> int:
        """The sessions `address` holds open now."""
        with self._lock:
            self._forget_closed(address)
            return len(self._sessions.get(address, ()))

    def __len__(self) -> int:
        """Sessions counted, open or closed since they were last looked at."""
        with self._lock:
            return sum(len(held) for held in self._sessions.values())

    def _forget_closed(self, address: str) -> None:
        held = {s for s in self._sessions.get(address, ()) if self._is_open(s)}
        if held:
            self._sessions[address] = held
        else:
            self._sessions.pop(address, None)
