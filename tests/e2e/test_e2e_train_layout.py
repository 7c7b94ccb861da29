"""The Train page on a laptop, a projector and a phone, in Chromium: every picture inside its
column and the window, none over another, the Inputs buttons inside the sidebar, each chart's
axis labels readable (several, apart, in the theme's colour, contrast at least 4.5:1 on the dark
theme as on the light one), and on a phone the output plane on the first screen, close under
Start. Screenshots of each size land in tests/artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

SLOW = 30_000
CHARTS = ("plane", "network", "loss", "accuracy", "gradients")
"""The Train page's charts, in the page's order (on a phone, the output plane comes first)."""
WIDE = "?layers=8,8&features=x1,x2,x1sq,x2sq,x1x2,sinx1,sinx2&test=1"
"""Every input and two layers of 8: the widest rows of tiles a lesson of the README draws."""

BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY}; };
  const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map(c => {
    const drawn = c.querySelector('svg.marks, canvas.marks') || c.querySelector('svg, canvas');
    const column = c.closest('[data-testid="stColumn"]')
      || c.closest('[data-testid="stMainBlockContainer"]');
    const labels = [...c.querySelectorAll('.role-axis-label text')].map(t => ({
      text: t.textContent, fill: getComputedStyle(t).fill, ...box(t)}));
    const tiles = [...c.querySelectorAll('.mark-image image')].map(box);
    return {drawn: box(drawn), column: box(column), labels, tiles};
  });
  const sidebar = document.querySelector('[data-testid="stSidebarContent"]');
  const inputs = document.querySelector('[data-testid="stSidebar"] [data-testid="stButtonGroup"]');
  const pills = [...inputs.querySelectorAll('button')].map(b => ({text: b.innerText, ...box(b)}));
  const start = [...document.querySelectorAll('button')].find(
    b => b.innerText.trim().endsWith('Start'));
  return {charts, pills, sidebar: sidebar ? box(sidebar) : null, start: box(start),
          width: innerWidth, scrollWidth: document.documentElement.scrollWidth,
          background: getComputedStyle(document.querySelector('[data-testid="stApp"]'))
            .backgroundColor};
}"""


def open_train(tab, app_url: str, query: str) -> None:
    tab.goto(f"{app_url}/train{query}")
    expect(tab.get_by_role("heading", name="Train", level=1)).to_be_visible(timeout=SLOW)
    expect(tab.get_by_test_id("stVegaLiteChart")).to_have_count(5, timeout=SLOW)
    expect(tab.locator('[data-testid="stVegaLiteChart"] .mark-image image')).to_have_count(
        1 + 7 + 8 + 8 + 1, timeout=SLOW)  # the plane and every tile
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
    tab.mouse.move(0, 0)
    tab.wait_for_timeout(500)


def luminance(css: str) -> float:
    """Relative luminance (WCAG 2) of an rgb(...) colour."""
    channels = [int(float(c)) / 255 for c in css[css.index("(") + 1:-1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def inside(inner: dict, outer: dict, slack: float = 1.0) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack)


def apart(a: dict, b: dict) -> bool:
    return (a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"]
            or b["bottom"] <= a["top"])


def check_readable_axes(chart: dict, background: str, name: str) -> None:
    labels = [label for label in chart["labels"] if label["text"]]
    assert len({label["text"] for label in labels}) >= 2, (name, labels)
    for i, a in enumerate(labels):
        assert contrast(a["fill"], background) >= 4.5, (name, a, background)
        for b in labels[i + 1:]:
            assert apart(a, b), (name, a["text"], b["text"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1366, 768), (1920, 1080)])
def test_every_picture_fits_its_column_and_reads(browser, app_url, artifacts_dir, width, height,
                                                 scheme):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=1, color_scheme=scheme)
    context.set_default_timeout(SLOW)
    tab = context.new_page()
    try:
        open_train(tab, app_url, WIDE)
        tab.get_by_role("button", name="Step", exact=True).click()  # a history to draw
        expect(tab.get_by_test_id("stMetric").filter(has_text="Step")
               .get_by_test_id("stMetricValue")).to_have_text("1", timeout=SLOW)
        expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
        tab.wait_for_timeout(500)
        tab.screenshot(path=artifacts_dir / f"screenshot-train-{width}x{height}-{scheme}.png")
        page = tab.evaluate(BOXES)
        assert page["scrollWidth"] <= page["width"], "the page scrolls sideways"
        plane, network, *_ = page["charts"]
        for name, chart in zip(CHARTS, page["charts"], strict=True):
            assert inside(chart["drawn"], chart["column"]), (name, chart["drawn"], chart["column"])
            assert chart["drawn"]["right"] <= page["width"], name
        assert apart(network["drawn"], plane["drawn"])
        assert len(network["tiles"]) == 7 + 8 + 8 + 1
        for tile in network["tiles"]:
            assert inside(tile, network["drawn"]) and inside(tile, network["column"]), tile
        pills = [pill for pill in page["pills"] if pill["text"].strip()]
        assert len(pills) == 7
        for pill in pills:
            assert inside(pill, page["sidebar"]), pill
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_axis_label_reads(browser, app_url, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  device_scale_factor=1, color_scheme=scheme)
    context.set_default_timeout(SLOW)
    tab = context.new_page()
    try:
        open_train(tab, app_url, WIDE)
        tab.get_by_role("button", name="Step", exact=True).click()
        expect(tab.get_by_test_id("stMetric").filter(has_text="Step")
               .get_by_test_id("stMetricValue")).to_have_text("1", timeout=SLOW)
        expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SLOW)
        page = tab.evaluate(BOXES)
        for name, chart in zip(CHARTS, page["charts"], strict=True):
            check_readable_axes(chart, page["background"], name)
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_output_follows_start_on_the_first_screen(browser, app_url, artifacts_dir,
                                                                 scheme):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, color_scheme=scheme)
    context.set_default_timeout(SLOW)
    tab = context.new_page()
    try:
        open_train(tab, app_url, WIDE)
        tab.screenshot(path=artifacts_dir / f"screenshot-train-phone-{scheme}.png",
                       full_page=True)
        page = tab.evaluate(BOXES)
        plane = page["charts"][0]["drawn"]
        assert plane["top"] - page["start"]["bottom"] < 450, (page["start"], plane)
        assert plane["top"] < 844 - 100, plane  # its top 100 pixels at least, without scrolling
        assert page["scrollWidth"] <= page["width"]
    finally:
        context.close()
