"""The drawing fits the screen it opens on, measured in a real Chromium.

On every page that draws the graph (Build, Graph, Gradients, Step through), at a laptop's, a
projector's (font 14 and 28), a small laptop's and a phone's size, every drawn node of the
default graph and of a few presets lies inside the window and inside the drawing's visible area
when the page opens, without scrolling; its smallest text is at least 12 px at 1280×800, also for
a 23-node layer of two neurons; and Step through keeps the nodes in focus on screen at every step.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from e2e_helpers import DRAWING, expect, shoot, wait_for_app

from playground import parse, presets, view

pytestmark = pytest.mark.e2e

SIZES = {  # name -> (viewport, font size)
    "laptop": ({"width": 1280, "height": 800}, 14),
    "projector": ({"width": 1920, "height": 1080}, 14),
    "projector-font-28": ({"width": 1920, "height": 1080}, 28),
    "small-laptop": ({"width": 1366, "height": 768}, 14),
    "phone": ({"width": 390, "height": 844}, 14),
}
PAGES = ("", "graph", "gradients", "backprop")  # Build, Graph, Gradients, Step through
LEGIBLE_PX = 12
LAYER = parse("x1 = 2.0\nx2 = -1.0\nw11 = 0.5\nw12 = -0.3\nw21 = 0.8\nw22 = 0.1\nb1 = 0.2\n"
              "b2 = -0.4\nh1 = tanh(x1 * w11 + x2 * w12 + b1)\n"
              "h2 = tanh(x1 * w21 + x2 * w22 + b2)\nv1 = 1.5\nv2 = -2.0\n"
              "y = h1 * v1 + h2 * v2\n")
"""A hidden layer of two tanh neurons and a linear output: 23 nodes, the size a teacher builds."""

MEASURE = """() => {
  const root = [...document.querySelectorAll('*')]
    .find((e) => e.shadowRoot?.querySelector('[data-testid=graph-drawing]')).shadowRoot;
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const texts = [...root.querySelectorAll('svg text')]
    .map((t) => t.getBoundingClientRect().height).filter((h) => h > 0);
  return {
    window: {left: 0, top: 0, right: innerWidth, bottom: innerHeight},
    drawing: box(root.querySelector('.viewport')),
    nodes: [...root.querySelectorAll('svg g.node')].map((g) => ({name: g.dataset.name,
      focus: [...g.querySelectorAll('[stroke]')].some((s) =>
        s.getAttribute('stroke').toLowerCase() === '#cc79a7'), ...box(g)})),
    smallest_text: Math.min(...texts),
    rankdir: root.querySelector('.stage').dataset.rankdir,
  };
}"""


def measure(tab) -> dict:
    return tab.evaluate(MEASURE)


def outside(measured: dict, names=None) -> list[str]:
    """The nodes (of `names`, or all) not wholly inside both the window and the drawing's
    visible area (1 px of slack for anti-aliased borders)."""
    win, area = measured["window"], measured["drawing"]
    left, top = max(win["left"], area["left"]) - 1, max(win["top"], area["top"]) - 1
    right, bottom = min(win["right"], area["right"]) + 1, min(win["bottom"], area["bottom"]) + 1
    return [n["name"] for n in measured["nodes"]
            if (names is None or n["name"] in names)
            and not (n["left"] >= left and n["top"] >= top and n["right"] <= right
                     and n["bottom"] <= bottom)]


def link(spec, font: int) -> str:
    return urlencode(view.share_query(spec, view.Options(font_size=font)))


@pytest.fixture
def tab_of(browser):
    made = []

    def make(viewport):
        phone = viewport["width"] < 500
        made.append(browser.new_context(viewport=viewport, device_scale_factor=1,
                                        is_mobile=phone, has_touch=phone))
        made[-1].set_default_timeout(30_000)
        return made[-1].new_page()

    yield make
    for context in made:
        context.close()


def settle(tab) -> None:
    """The app has drawn and the drawing has fitted itself (the fit follows the page's layout,
    which Streamlit finishes a moment after its last element arrives)."""
    wait_for_app(tab)
    expect(tab.get_by_test_id(DRAWING).locator("svg g.node").first).to_be_visible()
    tab.wait_for_timeout(400)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_drawing_is_on_screen_when_each_page_opens(tab_of, app_url, artifacts_dir,
                                                             size):
    viewport, font = SIZES[size]
    tab = tab_of(viewport)
    cases = [("classic", path) for path in PAGES]
    cases += [("neuron", "graph"), ("mlp", "graph"), ("attention", "")]
    report = []
    for key, path in cases:
        tab.goto(f"{app_url}/{path}?{link(presets.get(key).spec, font)}")
        settle(tab)
        measured = measure(tab)
        report.append((key, path or "build", measured["rankdir"],
                       round(measured["smallest_text"], 1), outside(measured)))
        if key == "classic" and path in ("", "graph"):
            shoot(tab, artifacts_dir, f"fit-{size}-{path or 'build'}")
    print(size, report)
    assert all(not off for *_, off in report), report
    if size == "laptop":  # the whole drawing and its text no smaller than 12 px
        assert all(text >= LEGIBLE_PX for _, _, _, text, _ in report), report
    if size == "projector-font-28":  # the projector's font reaches the screen nearly whole
        assert all(text >= 28 * 4 / 3 * 0.75 for key, path, _, text, _ in report
                   if key == "classic" and path != "backprop"), report


def test_a_23_node_graph_opens_whole_with_legible_text_at_1280x800(tab_of, app_url,
                                                                  artifacts_dir):
    tab = tab_of(SIZES["laptop"][0])
    report = []
    for path in ("", "graph", "gradients"):
        tab.goto(f"{app_url}/{path}?{link(LAYER, 14)}")
        settle(tab)
        measured = measure(tab)
        report.append((path or "build", len(measured["nodes"]),
                       round(measured["smallest_text"], 1), outside(measured)))
    shoot(tab, artifacts_dir, "fit-laptop-23-nodes")
    print(report)
    assert all(text >= LEGIBLE_PX and not off for _, _, text, off in report), report


def test_step_through_keeps_the_nodes_in_focus_on_screen_at_every_step(tab_of, app_url,
                                                                      artifacts_dir):
    """The 23-node graph does not fit Step through's column at a legible size: the drawing
    shows part of it, and follows the step."""
    tab = tab_of(SIZES["laptop"][0])
    tab.goto(f"{app_url}/backprop?{link(LAYER, 14)}")
    settle(tab)
    forward = tab.locator(".st-key-w_step_next button").first
    report = []
    for step in range(6):
        measured = measure(tab)
        focus = [n["name"] for n in measured["nodes"] if n["focus"]]
        assert focus, f"no node in focus at step {step}"
        report.append((step, focus, round(measured["smallest_text"], 1),
                       outside(measured, focus)))
        if step == 0:
            shoot(tab, artifacts_dir, "fit-laptop-step-through")
        forward.click()
        expect(tab.get_by_text(f"Step {step + 1} of", exact=False).first).to_be_visible()
        settle(tab)
    print(report)
    assert all(not off and text >= LEGIBLE_PX for _, _, text, off in report), report
