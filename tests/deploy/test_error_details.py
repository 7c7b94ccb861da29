"""A real `streamlit run` with the shipped .streamlit/config.toml, driven over its websocket as a
forged client would: a sidebar selectbox given 2**62, NaN or a list of strings makes Streamlit
raise inside st.selectbox, and the browser gets only the generic message (client.showErrorDetails
= "none"): no exception type, message, traceback or path of the server's files. The server's
log has the details."""

from __future__ import annotations

import asyncio
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from pages.ui import keys  # noqa: E402

FORGED = {
    "2**62": lambda w: setattr(w, "int_value", 2**62),
    "NaN": lambda w: setattr(w, "double_value", math.nan),
    "a list of strings": lambda w: w.string_array_value.data.extend(["a", "b"]),
}


class _Watching(load.Session):
    """A session that keeps every exception element the server sends."""

    def __init__(self, url: str) -> None:
        super().__init__(url, load.Outcome())
        self.shown = []

    def _delta(self, delta):
        if (delta.WhichOneof("type") == "new_element"
                and delta.new_element.WhichOneof("type") == "exception"):
            self.shown.append(delta.new_element.exception)
        return super()._delta(delta)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("error-details") / "server.log"
    running = load.Server(ROOT / "streamlit_app.py", [], log=log)
    try:
        yield running.url, log
    finally:
        running.stop()


async def _forge(url: str, setter) -> list:
    session = _Watching(url)
    await session.connect()
    try:
        await session.rerun(page="")
        state = WidgetState(id=session.widget(keys.OUTPUT))
        setter(state)
        await session.rerun(widgets=[state])
    finally:
        await session.close()
    return session.shown


@pytest.mark.parametrize("forged", list(FORGED))
def test_a_forged_sidebar_value_shows_no_error_details(server, forged):
    url, log = server
    shown = asyncio.run(_forge(url, FORGED[forged]))
    assert shown, "the forged value raised nothing: pick a value Streamlit cannot read"
    for exception in shown:
        assert not exception.type and not list(exception.stack_trace), exception
        assert exception.message.startswith("This app has encountered an error.")
        assert str(ROOT) not in str(exception) and ".py" not in str(exception)
    assert "TypeError" in log.read_text()  # the details stay on the server
