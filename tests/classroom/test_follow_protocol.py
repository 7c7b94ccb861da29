"""A student's screen follows the teacher on a real server, spoken to on Streamlit's websocket
protocol as a browser tab does (benchmarks/room_load.py's tab): the beat answers, the follower's
fragment reruns, and that one fragment run draws the new step, without the page around it."""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import load
import pytest
import room_load
from classroom_helpers import exercise_link, link

from playground.classroom import Classroom, database


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app as the README starts it (streamlit_app.py, with the beat), on its own SQLite
    file, and the Classroom of that file."""
    env = {database.DATA_ENV: str(tmp_path_factory.mktemp("follow"))}
    server = load.Server(room_load.APP, [], env=env)
    room = Classroom.open(database.database_url(env))
    try:
        yield server.url, room
    finally:
        server.stop()
        room.engine.dispose()


def test_a_step_change_reruns_only_the_followed_step(served):
    url, room = served
    teacher = room.create_room()
    room.add_step(teacher.code, teacher.key, link())
    room.add_step(teacher.code, teacher.key, exercise_link())
    ada = room.join(teacher.code, "Ada")

    async def scenario():
        tab = room_load.Tab(url, load.Outcome())
        await tab.connect()
        try:
            tab.query = urlencode({"join": teacher.code, "me": ada.token})
            await tab.rerun(page="class")
            first, data = [text for _, text, _ in tab.page], tab.follower[2]
            await asyncio.to_thread(room.advance, teacher.code, teacher.key)
            moved = await room_load._follower(tab, 10.0)
            return first, data, moved, [text for _, text, _ in tab.texts], tab
        finally:
            await tab.close()

    first, data, moved, texts, tab = asyncio.run(scenario())
    assert "Live class" in first and any(t.startswith("Step 1 of 2") for t in first)
    # the follower's data is a list (Streamlit looks through each value of a dict for a
    # dataframe on every run; a list it sends as it is): the beat, the version, the page's pace
    beat, version, fallback_ms, server = data
    assert beat.startswith("/api/class/beat?") and f"join={teacher.code}" in beat
    assert version == room.version(teacher.code) - 1 and fallback_ms == 1000
    assert len(server) == 16  # the process, which the beat names too (a restart reloads)
    assert moved
    assert any(t.startswith("Step 2 of 2") for t in texts)
    assert "Live class" not in texts  # the page's title, frame and caption did not run again
    assert not any(t.startswith("Step 1 of 2") for _, t, _ in tab.page)
    assert tab.outcome.errors == [] and tab.outcome.exceptions == 0
