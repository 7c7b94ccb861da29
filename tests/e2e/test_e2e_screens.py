"""Every page as it opens, at the four screens a class meets: a laptop (1280×800), a small
laptop (1366×768), a projector (1920×1080 at Font size 28) and a phone (390×844). Each shot
lands in tests/artifacts/ (docs/screens/ with --update-screenshots, listed in docs/screens.md)
and is measured: the page's title in view, nothing wider than the screen, and no text of the
page's main column smaller than the screen's floor."""

from __future__ import annotations

import pytest
from e2e_helpers import expect, shoot, wait_for_app

from playground import presets, view

pytestmark = pytest.mark.e2e

SCREENS = {  # name: (viewport, font size, smallest text allowed in the main column, px)
    "laptop": ({"width": 1280, "height": 800}, 14, 12),
    "small-laptop": ({"width": 1366, "height": 768}, 14, 12),
    "projector-font-28": ({"width": 1920, "height": 1080}, 28, 20),
    "phone": ({"width": 390, "height": 844}, 14, 12),
}
PAGES = {"build": "", "graph": "graph", "gradients": "gradients",
         "gradient-check": "gradient_check", "step-through": "backprop", "train": "train",
         "live-class": "class"}
DRAWN = ("build", "graph", "gradients", "step-through")

MEASURE = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const h1 = main.querySelector('h1').getBoundingClientRect();
  const sizes = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode, element = text.parentElement;
    const words = text.textContent.replace(/[\u200b\u2060]/g, '').trim();  // not KaTeX's struts
    if (!words || !element.checkVisibility()) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.bottom < 0 || box.top > innerHeight) continue;
    sizes.push([parseFloat(getComputedStyle(element).fontSize), words]);
  }
  sizes.sort((a, b) => a[0] - b[0]);
  return {titleTop: h1.top, titleBottom: h1.bottom,
          sideways: document.scrollingElement.scrollWidth > innerWidth + 1,
          smallest: sizes.slice(0, 3)};
}"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_page_at_each_screen(browser, app_url, artifacts_dir, screen):
    viewport, font, floor = SCREENS[screen]
    phone = viewport["width"] < 500
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=phone,
                                  has_touch=phone)
    context.set_default_timeout(30_000)
    tab = context.new_page()
    query = view.share_query(presets.get("classic").spec, view.Options(font_size=font))
    report = {}
    try:
        for name, path in PAGES.items():
            tab.goto(f"{app_url}/{path}?font={query['font']}" if font != 14
                     else f"{app_url}/{path}")
            expect(tab.get_by_role("heading", level=1).first).to_be_visible()
            if name in DRAWN:
                wait_for_app(tab)
            expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0)
            expect(tab.locator("[data-testid^=stSkeleton]")).to_have_count(0)  # all drawn
            tab.wait_for_timeout(800)  # the drawing's fit and the charts' first paint
            shoot(tab, artifacts_dir, f"{name}-{screen}", folder="screens")
            report[name] = tab.evaluate(MEASURE)
    finally:
        context.close()
    print(screen, report)
    assert all(0 <= r["titleTop"] and r["titleBottom"] <= viewport["height"]
               for r in report.values()), report
    assert not [n for n, r in report.items() if r["sideways"]], report
    small = {n: r["smallest"] for n, r in report.items() if r["smallest"][0][0] < floor}
    assert not small, small
