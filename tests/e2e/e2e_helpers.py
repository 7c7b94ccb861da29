"""Helpers for the browser tests: find the drawing's nodes, wait for a run, use the navigation.

Imported by the tests in this folder (pytest puts the folder on sys.path).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from pages.ui import first_paint

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture reports it: a skip there, a failure in CI
    expect = None

PAGE_TITLES = ("Build", "Graph", "Gradients", "Gradient check", "Step through", "Train",
               "Live class")
"""The sidebar's navigation, in order: the app's pages and nothing else."""
DOCS = Path(__file__).resolve().parents[2] / "docs"
"""Where the README's screenshots live."""
DRAWING = "graph-drawing"
"""The test id of the graph drawing (pages/ui/graph_drawing; Playwright looks into its shadow
root)."""


def node_box(page, name: str):
    """The drawn record of node `name` in the graph's SVG (Graphviz titles each node group)."""
    title = page.locator("title", has_text=re.compile(rf"^{re.escape(name)}$"))
    return page.get_by_test_id(DRAWING).locator("svg g.node").filter(has=title)


def wait_for_app(page) -> None:
    """The app has drawn its graph, the rest of the page after a fresh tab's first run
    (pages/ui/first_paint.py), and finished running."""
    first_node = page.get_by_test_id(DRAWING).locator("svg g.node").first
    expect(first_node).to_be_visible(timeout=30_000)
    expect(page.locator(f".st-key-{first_paint.PENDING}")).to_have_count(0, timeout=30_000)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)


def open_page(page, title: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    expect(page.get_by_role("heading", name=title, level=1)).to_be_visible()
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)


def expect_only_the_pages_in_the_navigation(page) -> None:
    """The sidebar lists exactly the app's pages (a link's text starts with its icon's name)."""
    links = page.get_by_test_id("stSidebarNav").get_by_test_id("stSidebarNavLink")
    expect(links).to_have_text([re.compile(rf"^[a-z_]*{re.escape(t)}$") for t in PAGE_TITLES])


def shoot(page, artifacts_dir: Path, slug: str, folder: str = "") -> None:
    """Screenshot into tests/artifacts/; with --update-screenshots (UPDATE_SCREENSHOTS=1), also
    refresh the copy under docs/ (or its `folder`) that the README shows, so an ordinary test
    run leaves the checkout clean."""
    name = f"{slug}.png" if folder else f"screenshot-{slug}.png"
    path = artifacts_dir / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=path)
    assert path.stat().st_size > 10_000  # a real page, not a blank frame
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        (DOCS / folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / folder / name)


def wait_for_app_style(page) -> None:
    """The app's own stylesheet (pages/ui/frame.ACCESSIBLE_STYLE: focus outline, reduced
    motion) is on the page."""
    page.wait_for_function("""() => [...document.querySelectorAll('style')].some(
      (s) => s.textContent.includes(':focus-visible { outline'))""")


def join(tab, url: str, code: str, nickname: str) -> None:
    """A student joins the live class `code` from its join link, as `nickname`."""
    tab.goto(f"{url}/class?join={code}")
    expect(tab.get_by_role("textbox", name="Join code")).to_have_value(code, timeout=30_000)
    tab.get_by_role("textbox", name="Nickname (optional)").fill(nickname)
    tab.get_by_role("button", name="Join", exact=True).click()
    expect(tab.get_by_test_id("stMain")).to_contain_text(f"You are {nickname} in class {code}",
                                                         timeout=30_000)


def answer(tab, answers: dict[str, str]) -> None:
    """A student types each answer in the box of its label and presses Send."""
    for label, text in answers.items():
        tab.get_by_role("textbox", name=label, exact=True).fill(text)
    tab.get_by_role("button", name="Send", exact=True).click()


def rgba(css: str) -> list[float]:
    """Red, green, blue (0-255) and alpha (0-1) of a computed CSS colour: rgb(), rgba(), or
    color(srgb r g b) as color-mix() computes."""
    numbers = [float(c) for c in re.findall(r"[\d.]+", css.replace("srgb", ""))]
    scale = 255 if css.startswith("color(") else 1
    return [c * scale for c in numbers[:3]] + [numbers[3] if len(numbers) > 3 else 1.0]


def contrast(a: list[float], b: list[float]) -> float:
    """WCAG 2 contrast ratio of two colours given as red, green, blue (0-255)."""
    def luminance(rgb: list[float]) -> float:
        linear = [(c / 255) / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
                  for c in rgb[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def add_input(page, name: str, number: str) -> None:
    """Add an input with the Build page's form, as a person would."""
    page.get_by_role("radio", name="Input", exact=True).click()
    number_box = page.get_by_label("Number", exact=True)
    number_box.fill(number)
    number_box.press("Enter")
    name_box = page.get_by_label("Name (optional)")
    name_box.fill(name)
    name_box.press("Enter")
    page.get_by_role("button", name="Add node").click()
