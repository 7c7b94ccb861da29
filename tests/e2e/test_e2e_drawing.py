"""The drawing in a real Chromium: its text follows Font size, it zooms, pans and fits, it follows
the dark theme, its nodes have hover text and, on Gradients, open in the detail; a phone gets a
collapsed sidebar and readable text. Measured on the rendered page, not read from the DOT."""

from __future__ import annotations

import re

import pytest
from e2e_helpers import DRAWING, add_input, expect, node_box, shoot, wait_for_app

pytestmark = pytest.mark.e2e

PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DRAWING_PAGES = ("", "graph", "gradients")  # Build, Graph, Gradients: every page that draws


def text_height(page, name: str = "a") -> float:
    """The rendered height in CSS pixels of the first line (the name) of node `name`'s record."""
    box = node_box(page, name).locator("text").first.bounding_box()
    assert box is not None, f"node {name} is not on screen"
    return box["height"]


def zoom(page, button: str) -> None:
    """Press one of the drawing's buttons and wait until the view has moved."""
    stage = page.get_by_test_id(DRAWING).locator(".stage")
    before = stage.get_attribute("style")
    page.get_by_test_id(DRAWING).get_by_role("button", name=button).click()
    expect(stage).not_to_have_attribute("style", before)


def luminance(css_colour: str) -> float:
    """Luminance (0 black .. 1 white) of a computed colour: `rgb(r, g, b)` in 0..255, or
    `color(srgb r g b)` in 0..1 (what a `color-mix()` computes to)."""
    scale = 1 if css_colour.startswith("color(srgb") else 255
    r, g, b = (float(c) / scale for c in re.findall(r"[0-9.]+", css_colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.fixture
def context_of(browser):
    """Browser contexts of a given viewport and colour scheme, closed after the test."""
    made = []

    def make(viewport, **options):
        made.append(browser.new_context(viewport=viewport, device_scale_factor=1, **options))
        made[-1].set_default_timeout(20_000)
        return made[-1].new_page()

    yield make
    for context in made:
        context.close()


def test_font_size_sets_the_rendered_text_height_on_every_page_that_draws(
    context_of, app_url, artifacts_dir
):
    heights = {}
    for font in (14, 28):
        tab = context_of(PROJECTOR)
        for path in DRAWING_PAGES:
            tab.goto(f"{app_url}/{path}?font={font}")
            wait_for_app(tab)
            heights[font, path] = text_height(tab)
        if font == 28:
            tab.goto(f"{app_url}/graph?font=28")
            wait_for_app(tab)
            shoot(tab, artifacts_dir, "projector-font-28")
    for path in DRAWING_PAGES:
        assert heights[14, path] >= 16, heights  # 14 pt is 18.7 px: drawn at full size
        assert heights[28, path] / heights[14, path] >= 1.8, heights


def test_the_buttons_and_the_wheel_zoom_and_fit_brings_back_the_starting_view(
    context_of, app_url, artifacts_dir
):
    tab = context_of(LAPTOP)
    tab.goto(f"{app_url}/graph")
    wait_for_app(tab)
    tab.evaluate("""() => {  // the whole drawing in view, just below Streamlit's header
        const drawing = document.querySelector("[data-testid=stBidiComponentIsolated]");
        document.querySelector("[data-testid=stMain]").scrollTop +=
            drawing.getBoundingClientRect().top - 70;
    }""")
    shoot(tab, artifacts_dir, "laptop")
    start = text_height(tab)
    zoom(tab, "Zoom in")
    assert text_height(tab) == pytest.approx(start * 1.4, rel=0.05)
    zoom(tab, "Zoom out")
    zoom(tab, "Zoom out")
    assert text_height(tab) == pytest.approx(start / 1.4, rel=0.05)
    zoom(tab, "Show the whole drawing")
    assert text_height(tab) == pytest.approx(start, rel=0.02)

    stage = tab.get_by_test_id(DRAWING).locator(".stage")
    viewport = tab.get_by_test_id(DRAWING).locator(".viewport").bounding_box()
    fitted = stage.get_attribute("style")
    tab.mouse.move(viewport["x"] + viewport["width"] / 2, viewport["y"] + 100)
    tab.mouse.wheel(0, -400)
    expect(stage).not_to_have_attribute("style", fitted)
    assert text_height(tab) > start * 1.05
    left = node_box(tab, "a").bounding_box()["x"]
    tab.mouse.move(viewport["x"] + 200, viewport["y"] + 150)
    tab.mouse.down()
    tab.mouse.move(viewport["x"] + 320, viewport["y"] + 150, steps=5)
    tab.mouse.up()
    assert node_box(tab, "a").bounding_box()["x"] == pytest.approx(left + 120, abs=3)
    zoom(tab, "Show the whole drawing")
    assert text_height(tab) == pytest.approx(start, rel=0.02)


def test_a_phone_gets_a_collapsed_sidebar_readable_text_and_a_usable_build_form(
    context_of, app_url, artifacts_dir
):
    tab = context_of(PHONE, is_mobile=True, has_touch=True)
    tab.goto(app_url)
    wait_for_app(tab)
    sidebar = tab.get_by_test_id("stSidebar")
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    drawing = tab.get_by_test_id(DRAWING).locator(".viewport").bounding_box()
    assert drawing["x"] >= 0 and drawing["x"] + drawing["width"] <= PHONE["width"]
    assert text_height(tab) >= 11
    shoot(tab, artifacts_dir, "phone")

    add_input(tab, "e", "5")
    expect(node_box(tab, "e")).to_contain_text("value 5.0000")
    button = tab.get_by_role("button", name="Add node").bounding_box()
    assert button["x"] + button["width"] <= PHONE["width"]
    assert text_height(tab, "e") >= 11


def test_the_drawing_follows_the_dark_theme(context_of, app_url):
    tab = context_of(LAPTOP, color_scheme="dark")
    tab.goto(f"{app_url}/graph")
    wait_for_app(tab)
    page_background = tab.evaluate(
        "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor")
    assert luminance(page_background) < 0.1, "the dark theme was not applied"
    drawing = tab.get_by_test_id(DRAWING)
    background = drawing.locator(".viewport").evaluate("e => getComputedStyle(e).backgroundColor")
    text = node_box(tab, "a").locator("text").first.evaluate("e => getComputedStyle(e).fill")
    fill = node_box(tab, "a").locator("polygon").first.evaluate("e => getComputedStyle(e).fill")
    assert background == page_background  # no white box on a dark page
    assert luminance(text) > 0.7 and luminance(fill) < 0.25, (text, fill)


def test_hovering_a_node_shows_its_formula_full_value_and_gradient(context_of, app_url):
    tab = context_of(LAPTOP)
    tab.goto(f"{app_url}/graph")
    wait_for_app(tab)
    box = node_box(tab, "c").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tab.mouse.move(x, y)
    hover_text = tab.evaluate(
        """([x, y]) => {
            const host = document.elementFromPoint(x, y);
            const hovered = host.shadowRoot.elementFromPoint(x, y);
            return hovered.closest('a').querySelector(':scope > title').textContent;
        }""", [x, y])
    assert hover_text.splitlines() == [
        "c = mul(a, b)", "shape scalar", "value 6.0000", "grad 1.0000"]


def test_clicking_a_node_on_gradients_opens_it_in_the_detail(context_of, app_url):
    tab = context_of(LAPTOP)
    tab.goto(f"{app_url}/gradients")
    wait_for_app(tab)
    node_box(tab, "c").click()
    expect(tab.get_by_test_id("stMarkdown").filter(has_text="= mul(a, b)")).to_be_visible()
    expect(node_box(tab, "c")).to_have_class(re.compile(r"\bselected\b"))
    formula = tab.locator(".katex-mathml annotation").filter(has_text=r"\partial \mathit{c}")
    expect(formula.first).to_contain_text(r"\mathit{b} = 3.0000")


def test_without_graphviz_the_browser_draws_the_graph_with_the_font_size(
    context_of, app_url_without_graphviz
):
    heights = {}
    for font in (14, 28):
        tab = context_of(LAPTOP)
        tab.goto(f"{app_url_without_graphviz}/graph?font={font}")
        chart = tab.get_by_test_id("stGraphVizChart")
        name = chart.locator("svg g.node").filter(
            has=tab.locator("title", has_text=re.compile(r"^a$"))).locator("text").first
        expect(name).to_be_visible(timeout=30_000)
        expect(chart).to_contain_text("grad 4.0000")
        heights[font] = name.bounding_box()["height"]
    assert heights[28] / heights[14] >= 1.8, heights
