"""The app's door: who the client is, and whether its address may open one more session.

`client_address` is the address every per-client bound counts (these sessions, and the live
class's rate limits): the browser's, or behind a proxy we trust (nginx on this machine, as
deploy/serve.sh runs it, or the addresses in `$AUTOGRAD_PLAYGROUND_TRUSTED_PROXIES`) the one that
proxy put last in X-Forwarded-For. `admit_or_stop` runs first in every run (pages/ui/frame.py):
an address holding `limits.MAX_SESSIONS_PER_ADDRESS` open sessions (or
`$AUTOGRAD_PLAYGROUND_SESSIONS_PER_ADDRESS`: a class behind one school router shares one address)
gets a short page saying so instead of the app, until one of its tabs closes. The count holds
only sessions the server still has open (`Runtime.is_active_session`), so a closed tab makes room
at once.
"""

from __future__ import annotations

import os

import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from pages.ui import keys
from playground import limits
from playground.admission import Admissions
from playground.classroom import codes

SESSIONS_ENV = "AUTOGRAD_PLAYGROUND_SESSIONS_PER_ADDRESS"
PROXIES_ENV = "AUTOGRAD_PLAYGROUND_TRUSTED_PROXIES"
REFUSED = ("Too many open tabs from your address: this server keeps at most {limit} at once for "
           "one address. Close some and reload this page.")


def client_address() -> str:
    """This browser's address (`st.context.ip_address` is None on loopback: a local proxy)."""
    headers = st.context.headers or {}
    return codes.client_address(st.context.ip_address or "127.0.0.1",
                                headers.get("X-Forwarded-For"), os.environ.get(PROXIES_ENV, ""))


def sessions_per_address() -> int:
    """The limit: the environment's, when it holds a whole number of at least 1."""
    text = os.environ.get(SESSIONS_ENV, "").strip()
    return int(text) if text.isdigit() and int(text) >= 1 else limits.MAX_SESSIONS_PER_ADDRESS


@st.cache_resource(show_spinner=False)
def admissions() -> Admissions:
    """The server's one count of open sessions per address (playground/admission.py)."""
    return Admissions(runtime.get_instance().is_active_session)


def admit_or_stop() -> None:
    """Let this session run, or draw the refusal and stop the run. A refused session is not
    counted, and asks again at its next run (reloading the tab makes a new session that asks)."""
    if st.session_state.get(keys.ADMITTED) or not runtime.exists():
        return
    ctx = get_script_run_ctx()
    limit = sessions_per_address()
    if ctx is not None and not admissions().admit(client_address(), ctx.session_id, limit):
        st.warning(REFUSED.format(limit=limit), icon=":material/tab:")
        st.stop()
    st.session_state[keys.ADMITTED] = True
