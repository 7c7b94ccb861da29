"""A run stops its heavy work once a newer rerun or a closed tab has made it useless.

A newer rerun request waits for the running script on its thread (`runner.fastReruns = false`
in .streamlit/config.toml; Streamlit's default starts a new thread for each request and tells the
old one to stop), and a closed tab tells the running one to stop. A script thread only notices
either inside Streamlit's own calls (each `st.*` that sends something,
runtime/scriptrunner/script_runner.py's `_maybe_handle_execution_control_request`), and the heavy
stages of a run (reading a link, evaluating a graph, a gradient check) make none for up to
seconds: a client sending 300 reruns, each with a new heavy link, had up to 160 threads working
at once, gigabytes and seconds of CPU after it left. `install()`, at the start of every run,
hands `stop_if_superseded` to `playground.interrupt`, whose checkpoints sit between the steps of
that work (every op of an evaluation, every pass of a check, every cached computation): the same
check Streamlit makes, raising Streamlit's own exceptions, so the abandoned thread ends there
(`RerunException` for a queued request, `StopException` for a closed tab).
`pause` is a wait that ends the same way. benchmarks/flood.py measures it.

Widget callbacks are left to finish: a callback cut short would lose the edit it makes (the
browser sends a button's press once), and Streamlit checks right after them anyway.
"""

from __future__ import annotations

import time

from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
from streamlit.runtime.scriptrunner_utils.script_run_context import (
    RunLocation,
    ThreadState,
    get_script_run_ctx,
)

from playground import interrupt

PAUSE_STEP_S = 0.02
"""How often `pause` looks for a newer request."""


def pause(seconds: float) -> None:
    """Wait `seconds` (for the browser, say), but stop waiting as soon as a newer request or a
    closed tab makes this run useless (`stop_if_superseded`): a run asleep for a new page
    stylesheet must not hold back the click that follows it."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        stop_if_superseded()
        time.sleep(min(left, PAUSE_STEP_S))


def install() -> None:
    """Make this run's heavy work stop where `playground.interrupt` has its checkpoints."""
    interrupt.interrupt_with(stop_if_superseded)


def stop_if_superseded() -> None:
    """Raise what Streamlit raises at its own calls when the session has a newer rerun waiting
    or is closing; nothing otherwise, nothing inside a widget callback, and nothing off the
    script's own thread (a parallel fragment's worker may not take the script's requests)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return
    where = ThreadState.get()
    if where.run_location is RunLocation.CALLBACK or where.is_parallel_worker:
        return
    request = ctx.script_requests.on_scriptrunner_yield()
    if request is None:
        return
    if request.type is ScriptRequestType.RERUN:
        raise RerunException(request.rerun_data)
    raise StopException()
