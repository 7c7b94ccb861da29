"""The Train page in a real Chromium at laptop size: training, pausing, clicking a point, and
the screenshot the README shows."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
LAPTOP = {"width": 1440, "height": 900}
SLOW = 30_000
"""Milliseconds to wait for a rerun on a busy machine."""


@pytest.fixture
def laptop(browser):
    """A fresh session in a laptop-sized tab."""
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def open_train(tab, app_url: str, query: str = "") -> None:
    tab.goto(f"{app_url}/train{query}")
    expect(tab.get_by_role("heading", name="Train", level=1)).to_be_visible(timeout=SLOW)
    expect(tab.get_by_test_id("stVegaLiteChart")).to_have_count(5, timeout=SLOW)
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)


def metric(tab, label: str):
    return tab.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


def test_start_is_on_the_screen_before_the_rest_of_the_page(laptop, app_url):
    """The session's first run draws the heading and Start, Step, Reset alone; the browser asks
    for the rest once it has drawn them (sent together, Start waited for every chart's code)."""
    laptop.goto(f"{app_url}/train?data=spiral", wait_until="commit")
    first = laptop.wait_for_function(
        """() => [...document.querySelectorAll('button')].some(b => b.innerText.endsWith('Start'))
                 && {charts: document.querySelectorAll('[data-testid="stVegaLiteChart"]').length,
                     sidebar: document.querySelectorAll(
                       '[data-testid="stSidebar"] [data-testid="stSelectbox"]').length}""",
        polling="raf", timeout=SLOW).json_value()
    assert first == {"charts": 0, "sidebar": 0}
    expect(laptop.get_by_test_id("stVegaLiteChart")).to_have_count(5, timeout=SLOW)
    expect(laptop.get_by_test_id("stSidebar").get_by_test_id("stSelectbox")).not_to_have_count(0)


def test_fifty_steps_on_moons_at_laptop_size(laptop, app_url, artifacts_dir):
    open_train(laptop, app_url, "?data=moons")
    before = float(metric(laptop, "Training loss").inner_text())
    for step in range(1, 51):
        laptop.get_by_role("button", name="Step", exact=True).click()
        expect(metric(laptop, "Step")).to_have_text(str(step), timeout=SLOW)
    expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
    assert float(metric(laptop, "Training loss").inner_text()) < before
    expect(metric(laptop, "Epoch")).to_have_text("2.5")  # 50 batches of 10 of 200 points
    laptop.mouse.move(0, LAPTOP["height"] - 1)  # no tooltip in the picture
    laptop.wait_for_timeout(500)
    path = artifacts_dir / "screenshot-train.png"
    laptop.screenshot(path=path)
    assert path.stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        shutil.copyfile(path, DOCS / "screenshot-train.png")


def test_start_trains_on_its_own_and_pause_stops_it(laptop, app_url):
    open_train(laptop, app_url)
    laptop.get_by_role("button", name="Start").click()
    expect(metric(laptop, "Step")).not_to_have_text(re.compile(r"^(0|25)$"), timeout=SLOW)
    # On a loaded server a Pause click made while the timed fragment redraws was seen to be
    # lost (cause not pinned down; see the closing note of issue 18): like a person, click again.
    start = laptop.get_by_role("button", name="Start")
    for _ in range(5):
        laptop.get_by_role("button", name="Pause").click(force=True)
        try:
            expect(start).to_be_visible(timeout=6_000)
            break
        except AssertionError:
            continue
    expect(start).to_be_visible(timeout=SLOW)
    expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
    paused_at = metric(laptop, "Step").inner_text()
    laptop.wait_for_timeout(1500)  # several timer periods
    expect(metric(laptop, "Step")).to_have_text(paused_at)


def test_a_clicked_point_opens_its_graph_with_the_weights(laptop, app_url):
    open_train(laptop, app_url, "?data=moons&reg=l2")
    point = laptop.locator("g.mark-symbol").first.locator("path").nth(17)
    expect(point).to_have_attribute("aria-label", re.compile(r"set: train; point: 17;"))
    point.dispatch_event("click")  # the point itself, even where a neighbour overlaps it
    expect(laptop.get_by_label("Point", exact=True)).to_have_value("17", timeout=SLOW)
    laptop.get_by_role("button", name="Open one sample's graph").click()
    expect(laptop.get_by_role("heading", name="Graph", level=1)).to_be_visible(timeout=SLOW)
    expect(laptop).to_have_url(re.compile(r"/graph\?(.*&)?graph="))
    expect(laptop.get_by_text("d(total)/d(node)")).to_be_visible()


PRESS_PAUSE = """async (delay) => {
  await new Promise(r => setTimeout(r, delay));
  const pause = [...document.querySelectorAll('button')].find(
    b => b.innerText.trim().endsWith('Pause'));
  pause.click();
}"""
"""Click Pause after `delay` ms, at once, as a hurried student does: no wait for the page to
settle first (Playwright's own click waits for that, and missed the race this test is for)."""


def test_pause_stops_training_at_once_twenty_times_in_a_row(laptop, app_url):
    """Start, let the timed fragment redraw, press Pause once at a different moment of the
    fragment's timer each time: the button reads Start again and the step counter stops, every
    time (the button is never pressed twice). A click the browser delivered twice (with the
    timer's rerun, then on its own) used to start training again."""
    open_train(laptop, app_url)
    step = metric(laptop, "Step")
    start = laptop.get_by_role("button", name="Start")
    for attempt in range(20):
        before = step.inner_text()
        start.click()
        expect(step).not_to_have_text(before, timeout=SLOW)  # training runs
        laptop.evaluate(PRESS_PAUSE, 150 + 37 * attempt)  # 0.15 s to 0.85 s: the whole timer
        expect(start).to_be_visible(timeout=SLOW)
        expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
        paused_at = step.inner_text()
        laptop.wait_for_timeout(1200)  # three timer periods
        expect(step).to_have_text(paused_at)
        expect(start).to_be_visible()
        expect(laptop.get_by_role("button", name="Pause")).to_have_count(0)
