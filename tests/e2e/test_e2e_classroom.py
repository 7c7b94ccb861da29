"""A live class in a real Chromium: a teacher at a projector's 1920×1080 and two students on
phones (390×844), three browser contexts side by side on one server with its own database.

The teacher opens a room and adds a ready lesson; the students join with the code; the teacher
presses Next and both phones show the new step (the step changed, whatever it took); the
students answer, one right, one with a mistake the projector names; the teacher sees the count,
the share right and a chart per hidden number, and reveals; the phones show the answers. The
screenshots (tests/artifacts/, and docs/ with UPDATE_SCREENSHOTS=1) are the README's.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest
from e2e_helpers import answer, expect, join, shoot

from playground.classroom import Classroom, database

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import load  # noqa: E402  (benchmarks/: the server a benchmark starts and kills)
import room_load  # noqa: E402

pytestmark = pytest.mark.e2e

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WAIT = 30_000


@pytest.fixture
def tab_of(browser):
    made = []

    def make(viewport, phone: bool = False):
        made.append(browser.new_context(viewport=viewport, device_scale_factor=1,
                                        is_mobile=phone, has_touch=phone))
        made[-1].set_default_timeout(WAIT)
        return made[-1].new_page()

    yield make
    for context in made:
        context.close()


def settled(tab) -> None:
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=WAIT)


def main(tab):
    return tab.get_by_test_id("stMain")


def test_a_teacher_and_two_students_side_by_side(class_url, tab_of, artifacts_dir):
    teacher = tab_of(PROJECTOR)
    ada, bo = tab_of(PHONE, phone=True), tab_of(PHONE, phone=True)

    teacher.goto(f"{class_url}/class")
    teacher.get_by_role("button", name="Open a room").click()
    code_box = main(teacher).locator("div", has_text=re.compile(r"^[2-9A-HJ-NP-Z]{6}$")).last
    expect(code_box).to_be_visible(timeout=WAIT)
    code = code_box.inner_text().strip()
    teacher.get_by_role("button", name="Add its 6 steps").click()
    expect(main(teacher)).to_contain_text("Step 1 of 6: Look: a reaches d along two paths",
                                          timeout=WAIT)
    settled(teacher)
    text_size = teacher.get_by_test_id("stSidebar").get_by_role("slider")
    for size in ("18", "22", "28"):  # one notch at a time, as a teacher would
        text_size.focus()
        text_size.press("ArrowRight")
        expect(text_size).to_have_attribute("aria-valuetext", size, timeout=WAIT)
        settled(teacher)
    root_px = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    teacher.wait_for_function(f"{root_px} >= 28", timeout=WAIT)  # the page's text doubled

    join(ada, class_url, code, "Ada")
    join(bo, class_url, code, "Bo")
    for phone in (ada, bo):
        expect(main(phone)).to_contain_text("Step 1 of 6", timeout=WAIT)
        assert phone.evaluate(root_px) < 20  # the phones keep their own text size
    expect(teacher.get_by_test_id("stMetric").filter(has_text="Joined")).to_contain_text(
        "2", timeout=WAIT)
    teacher.evaluate("window.scrollTo(0, 0)")
    main(teacher).evaluate("e => e.scrollTo(0, 0)")
    settled(teacher)
    shoot(teacher, artifacts_dir, "class-projector-room")

    teacher.get_by_role("button", name="Next").click()
    for phone in (ada, bo):  # the phones follow by themselves
        expect(main(phone)).to_contain_text("Step 2 of 6: Your turn", timeout=WAIT)
        expect(phone.get_by_role("textbox", name="∂d/∂a", exact=True)).to_be_visible(timeout=WAIT)
    settled(ada)
    shoot(ada, artifacts_dir, "class-phone-exercise")
    ada.get_by_role("textbox", name="∂d/∂a", exact=True).evaluate(
        "e => e.scrollIntoView({block: 'center'})")

    answer(ada, {"∂d/∂a": "4", "∂d/∂b": "2", "∂d/∂c": "1"})
    answer(bo, {"∂d/∂a": "3", "∂d/∂b": "2", "∂d/∂c": "1"})  # forgets a's direct path
    expect(main(ada)).to_contain_text("right (you sent 4)", timeout=WAIT)
    expect(main(bo)).to_contain_text("not yet (you sent 3)", timeout=WAIT)

    metrics = teacher.get_by_test_id("stMetric")
    expect(metrics.filter(has_text="Answered")).to_contain_text("2", timeout=WAIT)
    expect(metrics.filter(has_text="All right")).to_contain_text("50%", timeout=WAIT)
    expect(main(teacher).get_by_test_id("stVegaLiteChart")).to_have_count(3, timeout=WAIT)
    expect(main(teacher)).to_contain_text("∂d/∂a: 1 of 2 right (50%)", timeout=WAIT)
    expect(main(teacher)).to_contain_text("3 · 1 student · the value of b", timeout=WAIT)
    teacher.get_by_role("button", name="Next").evaluate(
        "e => e.scrollIntoView({block: 'start'})")  # the counts and a chart, as projected
    settled(teacher)
    shoot(teacher, artifacts_dir, "class-projector-answers")

    teacher.get_by_role("button", name="Reveal the answers").click()
    expect(main(teacher)).to_contain_text("answers revealed", timeout=WAIT)
    for phone in (ada, bo):
        expect(main(phone)).to_contain_text("Answer: 4.0000", timeout=WAIT)
    settled(bo)
    shoot(bo, artifacts_dir, "class-phone-revealed")


def test_a_students_phone_follows_again_after_the_server_is_killed(tab_of, tmp_path):
    """kill -9 of the server while a phone follows the lesson, and a restart on the same port:
    Streamlit's client finds the server again by itself, the pass in the phone's address makes
    it the same student, and its screen follows the teacher's next step."""
    env = {database.DATA_ENV: str(tmp_path)}
    server = load.Server(room_load.APP, [], env=env)
    room = Classroom.open(database.database_url(env))
    try:
        teacher = room.create_room()
        for link in room_load.lesson_links()[:3:2]:  # a graph, then the Gradients page
            room.add_step(teacher.code, teacher.key, link)
        ada = room.join(teacher.code, "Ada")
        phone = tab_of(PHONE, phone=True)
        phone.goto(f"{server.url}/class?join={teacher.code}&me={ada.token}")
        expect(main(phone).get_by_text(re.compile(r"^Step 1 of 2"))).to_be_visible()
        # the page link's script, which the browser loads when the link is first drawn, is in
        # (a chunk the browser fails to load while the server is away stays failed on the page)
        expect(main(phone).get_by_role("link", name=re.compile("Open it on"))).to_be_visible()
        settled(phone)
        port = int(server.url.rsplit(":", 1)[1])
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait()
        server.log.close()
        server.process = None
        server = load.Server(room_load.APP, [], port=port, env=env)
        room.advance(teacher.code, teacher.key)
        expect(main(phone).get_by_text(re.compile(r"^Step 2 of 2"))).to_be_visible(
            timeout=60_000)
        expect(main(phone)).to_contain_text(f"You are Ada in class {teacher.code}")
    finally:
        server.stop()
        room.engine.dispose()
