"""A deep link as the first request of a freshly started server (a Cloud app waking from sleep).

Streamlit answers that request in its legacy multipage mode, which runs a page file by itself and
lists every script in pages/ as a page. Each test here starts its own server, so its first
request really is the server's first.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from e2e_helpers import (
    DRAWING,
    expect,
    expect_only_the_pages_in_the_navigation,
    node_box,
    wait_for_app,
)

from playground import parse, presets, share

pytestmark = pytest.mark.e2e

PRODUCT = parse("p = 2.0\nq = 5.0\nr = p * q\n")


def expect_output_in_sidebar(page, name: str) -> None:
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("combobox", name="Output (differentiated)")).to_have_value(name)
    expect(sidebar.get_by_role("textbox", name="Link to this graph")).to_have_value(
        re.compile(r"graph=v1\."))


def test_a_graph_link_opens_the_graph_page_with_its_graph_and_sidebar(fresh_app_url, tab):
    query = urlencode({"graph": share.encode(PRODUCT), "font": "22"})
    tab.goto(f"{fresh_app_url}/graph?{query}")
    wait_for_app(tab)
    expect(tab.get_by_role("heading", name="Graph", level=1)).to_be_visible()
    expect(node_box(tab, "r")).to_contain_text("value 10.0000")
    expect(node_box(tab, "p")).to_contain_text("grad 5.0000")
    expect(tab.get_by_test_id(DRAWING)).not_to_contain_text("value 8.0000")  # not `d`
    expect_output_in_sidebar(tab, "r")
    expect_only_the_pages_in_the_navigation(tab)
    expect(tab).to_have_url(re.compile(r"/graph\?(.*&)?font=22"))


def test_a_gradient_check_link_opens_its_page_and_its_widgets_work(fresh_app_url, tab):
    neuron = presets.get("neuron").spec
    tab.goto(f"{fresh_app_url}/gradient_check?{urlencode({'graph': share.encode(neuron)})}")
    expect(tab.get_by_role("heading", name="Gradient check", level=1)).to_be_visible()
    expect(tab.get_by_text("All 5 elements match")).to_be_visible()
    expect_output_in_sidebar(tab, "o")
    expect_only_the_pages_in_the_navigation(tab)
    # The page's own widget answers on the next run: the largest step, 0.1 (at the right end:
    # the slider runs small to large, as the chart's axis), fails the check.
    tab.get_by_role("slider", name="Step ε of the central difference").focus()
    tab.keyboard.press("End")
    expect(tab.get_by_text("differ from the finite-difference estimate")).to_be_visible()


def test_a_helpers_old_address_shows_the_app_not_a_blank_page(fresh_app_url, tab):
    tab.goto(f"{fresh_app_url}/state")
    wait_for_app(tab)
    expect(tab.get_by_role("heading", name="Build", level=1)).to_be_visible()
    expect(node_box(tab, "a")).to_contain_text("grad 4.0000")
    expect_only_the_pages_in_the_navigation(tab)
