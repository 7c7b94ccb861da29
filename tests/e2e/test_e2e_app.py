"""The app in a real Chromium: build, see the drawing, share the link, photograph every page."""

from __future__ import annotations

import re

import pytest
from e2e_helpers import add_input, expect, node_box, open_page, shoot, wait_for_app

from playground import presets

pytestmark = pytest.mark.e2e


def add_operation(page, name: str) -> None:
    """The form's default operation (`add`) applied to the last two nodes."""
    page.get_by_role("radio", name="Operation", exact=True).click()
    name_box = page.get_by_label("Name (optional)")
    name_box.fill(name)
    name_box.press("Enter")
    page.get_by_role("button", name="Add node").click()


def test_the_app_opens_on_the_default_graph_with_a_gradient_of_4(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    expect(node_box(page, "a")).to_contain_text("grad 4.0000")
    expect(node_box(page, "d")).to_contain_text("value 8.0000")


def test_a_node_added_in_the_form_is_drawn_with_value_and_gradient_and_shared(
    browser, page, app_url, artifacts_dir
):
    page.goto(app_url)
    wait_for_app(page)
    add_input(page, "e", "5")
    expect(node_box(page, "e")).to_contain_text("value 5.0000")
    add_operation(page, "L")
    expect(node_box(page, "L")).to_contain_text("value 13.0000")  # d + e = 8 + 5
    expect(node_box(page, "e")).to_contain_text("grad 1.0000")
    expect(node_box(page, "a")).to_contain_text("grad 4.0000")

    expect(page).to_have_url(re.compile(r"[?&]graph="))
    link = page.url
    fresh = browser.new_context(viewport={"width": 1600, "height": 1000})
    try:
        other = fresh.new_page()
        other.goto(link)
        wait_for_app(other)
        expect(node_box(other, "L")).to_contain_text("value 13.0000")
        expect(node_box(other, "e")).to_contain_text("grad 1.0000")
        open_page(other, "Graph")
        expect(node_box(other, "L")).to_contain_text("grad 1.0000")
        other.screenshot(path=artifacts_dir / "shared-link-graph.png")
    finally:
        fresh.close()


def load_preset(page, title: str) -> None:
    """Pick a preset from the sidebar's menu, as a person would."""
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(
        has_text="Load a preset").click()
    page.get_by_role("option", name=title, exact=True).click()
    expect(page.get_by_test_id("stSidebar")).to_contain_text(title)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)


def test_screenshots_of_every_page(page, app_url, artifacts_dir):
    page.goto(app_url)
    wait_for_app(page)
    expect(page.get_by_role("button", name="Add node")).to_be_visible()
    shoot(page, artifacts_dir, "build")

    open_page(page, "Graph")
    wait_for_app(page)
    expect(page).to_have_url(re.compile(r"/graph\?(.*&)?graph="))  # survives the switch
    expect(page.get_by_test_id("stDownloadButton")).to_have_count(4)
    page.get_by_role("button", name="Make SVG").click()  # laid out only when asked for
    expect(page.get_by_test_id("stDownloadButton")).to_have_count(5)
    for label in ("DOT", "SVG", "JSON", "Expression", "PyTorch"):
        expect(page.get_by_test_id("stDownloadButton").filter(has_text=label)).to_be_visible()
    shoot(page, artifacts_dir, "graph")

    open_page(page, "Gradients")
    load_preset(page, presets.get("mlp").title)
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(2)  # W1's heatmaps
    expect(page.locator(".katex").first).to_be_visible()
    shoot(page, artifacts_dir, "gradients")

    open_page(page, "Gradient check")
    load_preset(page, presets.get("neuron").title)
    expect(page.get_by_text("All 5 elements match")).to_be_visible()
    expect(page.get_by_test_id("stVegaLiteChart")).to_be_visible()
    shoot(page, artifacts_dir, "gradient-check")


def test_the_dark_theme_keeps_the_drawing_readable(browser, app_url, artifacts_dir):
    dark = browser.new_context(viewport={"width": 1600, "height": 1000}, color_scheme="dark")
    try:
        tab = dark.new_page()
        tab.goto(f"{app_url}/graph")
        wait_for_app(tab)
        background = tab.evaluate(
            "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor")
        assert background != "rgb(255, 255, 255)", "the dark theme was not applied"
        expect(node_box(tab, "a")).to_contain_text("grad 4.0000")
        tab.screenshot(path=artifacts_dir / "screenshot-graph-dark.png")
    finally:
        dark.close()
