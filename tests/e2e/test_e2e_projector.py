"""Projector mode, measured in a real Chromium: the sidebar's Font size scales the page's text,
not only the drawing's.

At 1920×1080 with font 28, a caption, a step sentence, a table's cells, a metric and the
sidebar's text are at least 1.8 times their size at the default font (14), on the pages that
show them; at 1280×800 with the default font no page scrolls sideways, nor at 1920×1080 with
font 28.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from e2e_helpers import expect, shoot, wait_for_app

from playground import presets, view

pytestmark = pytest.mark.e2e

PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 800}
RATIO = 1.8

SIZES = """() => {
  const px = (e) => e ? parseFloat(getComputedStyle(e).fontSize) : null;
  const q = (s) => document.querySelector(s);
  const gridStyle = q('[data-testid=stDataFrame] [style*="--gdg-base-font-style"]');
  const cell = gridStyle ? gridStyle.style.getPropertyValue('--gdg-base-font-style') : null;
  return {
    caption: px(q('[data-testid=stMain] [data-testid=stCaptionContainer]')),
    markdown: px(q('[data-testid=stMain] [data-testid=stMarkdownContainer] p')),
    metric: px(q('[data-testid=stMetricValue]')),
    metricLabel: px(q('[data-testid=stMetricLabel] p')),
    cell: cell ? parseFloat(cell.match(/([0-9.]+)px/)[1]) : null,
    sidebarLabel: px(q('[data-testid=stSidebar] [data-testid=stWidgetLabel] p')),
    sidebarNav: px(q('[data-testid=stSidebarNav] a span')),
    sidebarCaption: px(q('[data-testid=stSidebar] [data-testid=stCaptionContainer]')),
    title: px(q('h1')),
  };
}"""

SIDEWAYS = """() => {
  const over = (e) => e && e.scrollWidth > e.clientWidth + 1;
  return {document: over(document.scrollingElement),
          main: over(document.querySelector('[data-testid=stMain]')),
          sidebar: over(document.querySelector('[data-testid=stSidebarContent]'))};
}"""


def link(font: int, key: str = "classic") -> str:
    return urlencode(view.share_query(presets.get(key).spec, view.Options(font_size=font)))


@pytest.fixture
def tab_of(browser):
    made = []

    def make(viewport):
        made.append(browser.new_context(viewport=viewport, device_scale_factor=1))
        made[-1].set_default_timeout(30_000)
        return made[-1].new_page()

    yield make
    for context in made:
        context.close()


def settle(tab, drawn: bool = True) -> None:
    if drawn:
        wait_for_app(tab)
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
    tab.wait_for_timeout(600)


def sizes_at(tab, app_url: str, path: str, font: int) -> dict:
    tab.goto(f"{app_url}/{path}?{link(font)}")
    settle(tab)
    return tab.evaluate(SIZES)


def test_font_28_scales_the_page_text_on_a_projector(tab_of, app_url, artifacts_dir):
    tab = tab_of(PROJECTOR)
    report = {}
    for path, wanted in (("gradients", ("caption", "cell", "metric", "metricLabel",
                                        "sidebarLabel", "sidebarNav", "sidebarCaption")),
                         ("backprop", ("caption", "markdown")),
                         ("", ("caption", "markdown", "sidebarLabel"))):
        small = sizes_at(tab, app_url, path, 14)
        large = sizes_at(tab, app_url, path, 28)
        shoot(tab, artifacts_dir, f"projector-font-28-{path or 'build'}")
        for what in wanted:
            report[(path or "build", what)] = (small[what], large[what])
    print(report)
    low = {k: v for k, v in report.items()
           if v[0] is None or v[1] is None or v[1] < RATIO * v[0]}
    assert not low, low


PAGES = ("", "graph", "gradients", "gradient_check", "backprop", "train", "class")


def sideways(tab, app_url: str, path: str, font: int) -> dict:
    tab.goto(f"{app_url}/{path}?{link(font)}")
    settle(tab, drawn=path in ("", "graph", "gradients", "backprop"))
    return tab.evaluate(SIDEWAYS)


@pytest.mark.parametrize(("viewport", "font"), [(LAPTOP, 14), (PROJECTOR, 28)],
                         ids=["laptop-font-14", "projector-font-28"])
def test_no_page_scrolls_sideways(tab_of, app_url, artifacts_dir, viewport, font):
    tab = tab_of(viewport)
    report = {path or "build": sideways(tab, app_url, path, font) for path in PAGES}
    shoot(tab, artifacts_dir, f"projector-sideways-{viewport['width']}-font-{font}")
    print(report)
    assert not [p for p, over in report.items() if any(over.values())], report


def test_changing_the_font_in_a_session_redraws_the_table_larger(tab_of, app_url):
    """The table reads the text size when it is drawn: a new Font size draws it afresh."""
    tab = tab_of(PROJECTOR)
    before = sizes_at(tab, app_url, "gradients", 14)
    thumb = tab.get_by_test_id("stSidebar").get_by_role("slider")
    for value in range(15, 29):  # one step at a time: each one is a run of the app
        thumb.focus()
        thumb.press("ArrowRight")
        expect(thumb).to_have_value(str(value))
        expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
    tab.wait_for_timeout(1500)
    after = tab.evaluate(SIZES)
    print(before, after)
    assert after["cell"] >= RATIO * before["cell"], (before, after)
    assert after["caption"] >= RATIO * before["caption"], (before, after)
