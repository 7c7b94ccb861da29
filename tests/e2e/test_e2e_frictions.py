"""Frictions a class met, measured in a real Chromium: Gradient check fits a 1280-pixel screen
(no metric cut short, the table's last column whole), and Step through's step buttons are
announced by their words, not their icons' names.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from e2e_helpers import expect, shoot

from playground import presets, share

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 800}

CUT = """() => ({
  metrics: [...document.querySelectorAll('[data-testid=stMetricValue]')].map((m) => {
    const t = m.querySelector('div') || m;
    return {text: m.textContent, cut: t.scrollWidth > t.clientWidth + 1
            || m.scrollWidth > m.clientWidth + 1};
  }),
  tables: [...document.querySelectorAll('[data-testid=stDataFrame] .dvn-scroller')].map(
    (s) => ({scrollWidth: s.scrollWidth, clientWidth: s.clientWidth})),
})"""


def settle(laptop) -> None:
    expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
    laptop.wait_for_timeout(800)


def test_gradient_check_fits_a_1280_pixel_screen(laptop, app_url, artifacts_dir):
    laptop.goto(f"{app_url}/gradient_check")
    expect(laptop.get_by_role("heading", name="Gradient check", level=1)).to_be_visible()
    expect(laptop.get_by_test_id("stMetricValue").first).to_be_visible()
    settle(laptop)
    measured = laptop.evaluate(CUT)
    shoot(laptop, artifacts_dir, "gradient-check-1280")
    print(measured)
    assert len(measured["metrics"]) == 3 and not [m for m in measured["metrics"] if m["cut"]]
    assert measured["tables"] and all(t["scrollWidth"] <= t["clientWidth"] + 1
                                      for t in measured["tables"]), measured


def test_step_buttons_are_announced_by_their_words(laptop, app_url):
    laptop.goto(f"{app_url}/backprop")
    expect(laptop.get_by_role("heading", name="Step through", level=1)).to_be_visible()
    settle(laptop)
    for word in ("First", "Back", "Next", "Last"):
        expect(laptop.get_by_role("button", name=word, exact=True)).to_have_count(1)
    names = laptop.evaluate("""() => [
        ...document.querySelectorAll('[class*=st-key-w_step_] button')
    ].map((b) => b.textContent)""")
    assert not [n for n in names if "chevron" in n or "page" in n], names


def test_the_old_step_through_address_opens_step_through(laptop, app_url):
    link = urlencode({"graph": share.encode(presets.get("neuron").spec)})
    laptop.goto(f"{app_url}/step_through?{link}")
    expect(laptop.get_by_role("heading", name="Step through", level=1)).to_be_visible()
    expect(laptop).to_have_url(re.compile(r"/backprop\?(.*&)?graph="))
    settle(laptop)
    assert "graph=" + share.encode(presets.get("neuron").spec) in laptop.url
