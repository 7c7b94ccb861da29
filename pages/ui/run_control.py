"""A run stops its heavy work once a newer rerun or a closed tab has made it useless.

Streamlit stops a script only inside its own calls (each `st.*` that sends something checks the
session's pending requests, runtime/scriptrunner/script_runner.py's
`_maybe_handle_execution_control_request`), and the heavy stages of a run (reading a link,
evaluating a graph, a gradient check) make none for up to seconds. `install()`, at the start of
every run, hands `stop_if_superseded` to `playground.interrupt`, whose checkpoints sit between
the steps of that work: the same check Streamlit makes, raising Streamlit's own exceptions, so
the runner reruns with the newest request (`RerunException`) or ends a closed session's run
(`StopException`) from there.

Together with `runner.fastReruns = false` (.streamlit/config.toml: a rerun goes to the session's
one script thread, where requests that arrive meanwhile coalesce into one, instead of starting a
thread per request), a client that sends 300 reruns costs a few runs, and a closed session's
work stops at the next checkpoint (benchmarks/flood.py measures both).

Widget callbacks are left to finish: a callback cut short would lose the edit it makes (the
browser sends a button's press once), and Streamlit checks right after them anyway.
"""

from __future__ import annotations

from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
from streamlit.runtime.scriptrunner_utils.script_run_context import (
    RunLocation,
    ThreadState,
    get_script_run_ctx,
)

from playground import interrupt


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
