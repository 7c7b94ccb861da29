"""A live class in a real Chromium: a teacher at a projector's 1920×1080 and two students on
phones (390×844), three browser contexts side by side on one server with its own database.

The teacher opens a room and adds a ready lesson; the students join with the code; the teacher
presses Next and both phones show the new step (the step changed, whatever it took); the
students answer, one right, one with a mistake the projector names; the teacher sees the count,
the share right and a chart per hidden number, and reveals; the phones show the answers. The
screenshots (tests/artifacts/, and docs/ with UPDATE_SCREENSHOTS=1) are the README's.
"""

from __future__ import annotations

import re

import pytest
from e2e_helpers import answer, expect, join, shoot

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
