"""A cache of immutable results, bounded by the memory they take, shared by every session.

The app serves a whole class from one process, and thirty students opening the same link ask
for the same graph's results at the same moment. ``Memo.get`` computes each key once (the others
wait for that computation instead of repeating it), keeps results until their total size passes
``max_bytes`` (dropping the least recently used first), and never keeps one result larger than
``max_bytes // 4``. Errors are not kept: they reach every caller that waits for them, and the
next request computes again.

Only immutable results belong here (strings, tuples, read-only arrays, frozen dataclasses): every
caller gets the same object. Thread-safe; plain Python, no Streamlit.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import TypeVar

import numpy as np

from .interrupt import checkpoint

V = TypeVar("V")


class Memo:
    """A thread-safe least-recently-used cache bounded by bytes and by entries."""

    def __init__(self, max_bytes: int, max_entries: int = 10_000) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
        self._pending: dict[Hashable, Future] = {}
        self._bytes = 0

    def get(self, key: Hashable, compute: Callable[[], V], size: Callable[[V], int] | None = None
            ) -> V:
        """The value kept for ``key``, else ``compute()`` (run once however many ask at once),
        kept if it fits. ``size(value)`` is its size in bytes (``size_of`` by default). Each call
        is an ``interrupt.checkpoint``: a run nobody waits for stops here."""
        checkpoint()
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key][0]
            waiting = self._pending.get(key)
            if waiting is None:
                waiting = self._pending[key] = Future()
                owner = True
            else:
                owner = False
        if not owner:
            try:
                return waiting.result()
            except _Abandoned:  # the computing thread was stopped (a rerun): compute here
                return self.get(key, compute, size)
        try:
            value = compute()
        except BaseException as error:
            with self._lock:
                del self._pending[key]
            # An Exception (a SpecError) is the answer for everybody who waits; anything else
            # (Streamlit stopping this thread for a rerun) is this thread's alone.
            waiting.set_exception(error if isinstance(error, Exception) else _Abandoned())
            raise
        nbytes = (size or size_of)(value) + size_of(key)
        with self._lock:
            del self._pending[key]
            if nbytes <= self.max_bytes // 4:
                self._entries[key] = (value, nbytes)
                self._bytes += nbytes
                while self._bytes > self.max_bytes or len(self._entries) > self.max_entries:
                    _, (_, dropped) = self._entries.popitem(last=False)
                    self._bytes -= dropped
        waiting.set_result(value)
        return value

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    @property
    def nbytes(self) -> int:
        """Bytes of the results kept now (as ``size`` measured them)."""
        with self._lock:
            return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


class _Abandoned(Exception):
    """The thread computing a value stopped without an answer; a waiting thread computes it."""


def size_of(value: object) -> int:
    """Bytes a result takes, counting arrays' buffers and DataFrames' columns: a close estimate,
    not an exact count (shared objects are counted each time they appear)."""
    total = 0
    stack = [value]
    seen = 0
    while stack and seen < 100_000:
        item = stack.pop()
        seen += 1
        if isinstance(item, np.ndarray):
            total += item.nbytes + 112
        elif isinstance(item, str | bytes):
            total += sys.getsizeof(item)
        elif isinstance(item, dict):
            total += sys.getsizeof(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            total += sys.getsizeof(item)
            stack.extend(item)
        elif hasattr(item, "memory_usage") and hasattr(item, "columns"):  # a DataFrame
            total += int(item.memory_usage(index=True, deep=True).sum())
        elif hasattr(item, "nbytes") and hasattr(item, "schema"):  # an Arrow table
            total += int(item.nbytes)
        elif hasattr(item, "__dataclass_fields__"):
            total += sys.getsizeof(item)
            stack.extend(getattr(item, name) for name in item.__dataclass_fields__)
        else:
            total += sys.getsizeof(item)
    return total
