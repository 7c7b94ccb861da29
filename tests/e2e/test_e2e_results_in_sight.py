"""Results in sight, measured in a real Chromium at 1280×800: after an edit from Build's form
(below the drawing) the changed drawing is on screen, and a node clicked on Gradients has its
detail on screen and its row selected in the table.
"""

from __future__ import annotations

import pytest
from e2e_helpers import add_input, expect, node_box, shoot, wait_for_app

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 800}

SELECTED_ROWS = """() => [...document.querySelectorAll(
    '[data-testid=stDataFrame] [role=row][aria-selected=true]')].map((r) => r.textContent)"""


def on_screen(locator) -> bool:
    box = locator.bounding_box()
    return (box is not None and box["y"] >= 0 and box["x"] >= 0
            and box["y"] + box["height"] <= LAPTOP["height"] + 1
            and box["x"] + box["width"] <= LAPTOP["width"] + 1)


def settle(laptop) -> None:
    expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
    laptop.wait_for_timeout(500)


def test_after_add_node_and_set_value_the_new_drawing_is_on_screen(laptop, app_url, artifacts_dir):
    laptop.goto(app_url)
    wait_for_app(laptop)
    add_input(laptop, "e", "5")  # the form is below the drawing: the page is scrolled down to it
    expect(node_box(laptop, "e")).to_contain_text("value 5.0000")
    settle(laptop)
    assert on_screen(node_box(laptop, "e")) and on_screen(node_box(laptop, "d"))

    laptop.get_by_role("tab", name="Edit a node").click()  # down to the form again
    settle(laptop)
    node = laptop.get_by_label("Node", exact=True).filter(visible=True)
    node.click()
    node.press_sequentially("a")  # the selectbox searches its options as one types
    laptop.get_by_role("option", name="a", exact=True).click()
    expect(laptop.get_by_text("Input with value", exact=False).filter(visible=True)).to_be_visible()
    settle(laptop)
    value = laptop.get_by_label("Number", exact=True).filter(visible=True)
    value.fill("7")
    value.press("Enter")
    laptop.get_by_role("button", name="Set value").click()
    expect(node_box(laptop, "a")).to_contain_text("value 7.0000")
    settle(laptop)
    shoot(laptop, artifacts_dir, "in-sight-build-after-set-value")
    assert on_screen(node_box(laptop, "a")) and on_screen(node_box(laptop, "d"))


def test_a_node_clicked_on_gradients_has_its_detail_in_sight_and_its_row_selected(
        laptop, app_url, artifacts_dir):
    laptop.goto(f"{app_url}/gradients")
    wait_for_app(laptop)
    node_box(laptop, "c").click()
    detail = laptop.get_by_test_id("stMarkdown").filter(has_text="= mul(a, b)")
    expect(detail).to_be_visible()
    settle(laptop)
    shoot(laptop, artifacts_dir, "in-sight-gradients-after-click")
    assert on_screen(detail)
    assert on_screen(laptop.get_by_role("heading", name="Node detail"))
    rows = laptop.evaluate(SELECTED_ROWS)
    assert len(rows) == 1 and rows[0].startswith("c"), rows
