"""A hook that lets the app stop heavy work nobody waits for any more.

A server runs a student's request on a thread of its own; when the student has already asked
for something newer, or closed the tab, the rest of the work is wasted, and a client sending
hundreds of requests would otherwise make the server do all of them. The long loops of the
model (every op of an evaluation, every pass of a gradient check, through ``budget.Deadline``)
and every computation the results cache starts (``memo.Memo.get``) call ``checkpoint()``; the app
installs, per thread, the check that raises to stop the work (pages/ui/run_control.py). Without
one installed (tests, scripts, other threads) ``checkpoint()`` does nothing.

The check lives in a context variable, so each thread (each session's run) sees only its own.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

_CHECK: ContextVar[Callable[[], None] | None] = ContextVar("playground_interrupt", default=None)


def interrupt_with(check: Callable[[], None] | None) -> None:
    """Have every ``checkpoint()`` of the current thread call ``check`` (None: nothing)."""
    _CHECK.set(check)


def checkpoint() -> None:
    """Between two steps of heavy work: the installed check raises if the work is to stop."""
    check = _CHECK.get()
    if check is not None:
        check()
