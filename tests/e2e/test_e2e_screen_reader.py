"""What a screen reader reads (issue 26), from Chromium's accessibility tree (the CDP
Accessibility domain, the tree screen readers are given): the drawing is a graphics-document
whose records are graphics-symbols named in the graph's order by kind, operation, inputs, value
and gradient; Step through announces each step and its chain rule in words in a live region;
an exercise's results are a status (right) and an alert (not yet), each naming its node.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from e2e_helpers import DRAWING, expect, node_box, wait_for_app

from playground import presets, share

pytestmark = pytest.mark.e2e

EXERCISE = "backprop?" + urlencode({"graph": share.encode(presets.get("classic").spec),
                                    "ex": "grad:a,b,c"}, safe=":,")
"""The README tour's exercise link: ∂d/∂a, ∂d/∂b and ∂d/∂c of the classic graph hidden."""


def accessibility_tree(page) -> list[dict]:
    """Chromium's whole accessibility tree of the page: [{role, name, live}] in document order,
    ignored nodes left out."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    return [{"role": n.get("role", {}).get("value"), "name": n.get("name", {}).get("value", ""),
             "live": next((p["value"]["value"] for p in n.get("properties", [])
                           if p["name"] == "live"), None)}
            for n in nodes if not n.get("ignored")]


def test_the_drawing_reads_as_a_graphics_document_of_named_nodes_in_graph_order(laptop, app_url):
    laptop.goto(f"{app_url}/graph")
    wait_for_app(laptop)
    tree = accessibility_tree(laptop)
    documents = [n["name"] for n in tree if n["role"] == "graphics-document"]
    assert "Computation graph with values and gradients" in documents
    symbols = [n["name"] for n in tree if n["role"] == "graphics-symbol"]
    assert symbols == [
        "a (input); shape scalar; value 2.0000; grad 4.0000",
        "b (input); shape scalar; value 3.0000; grad 2.0000",
        "c = mul(a, b); shape scalar; value 6.0000; grad 1.0000",
        "d = add(c, a) (the output); shape scalar; value 8.0000; grad 1.0000",
    ]
    # The op ovals and the edges repeat the records: not read a second time.
    assert not [n for n in tree if "#op" in n["name"] or "->" in n["name"]]
    kinds = [node_box(laptop, name).get_attribute("aria-roledescription") for name in "abcd"]
    assert kinds == ["input", "input", "operation", "output"]


def test_step_through_announces_each_step_and_its_chain_rule_in_words(laptop, app_url):
    laptop.goto(f"{app_url}/backprop")
    wait_for_app(laptop)
    said = laptop.get_by_test_id(DRAWING).get_by_role("status")
    expect(said).to_have_text("Step 0 of 2: backward starts at d with gradient 1. "
                              "the gradient of d by d equals 1")
    laptop.get_by_role("button", name="Next").click()
    expect(said).to_have_text(
        "Step 1 of 2: backward through d equals c plus a. the gradient of d by c gains the "
        "gradient of d by d times the derivative of (c plus a) by c, that is 1.0000 times "
        "1.0000, which is 1.0000. the gradient of d by a gains the gradient of d by d times the "
        "derivative of (c plus a) by a, that is 1.0000 times 1.0000, which is 1.0000. the "
        "gradient of d by a equals 1.0000 plus unknown")
    laptop.get_by_role("button", name="Next").click()
    expect(said).to_contain_text("Step 2 of 2: backward through c equals a times b. ")
    expect(said).to_contain_text("the gradient of d by a equals 1.0000 plus 3.0000, which is "
                                 "4.0000")
    live = [n for n in accessibility_tree(laptop)
            if n["role"] == "status" and n["live"] == "polite"]
    assert live, "no polite live region in Chromium's tree"


def test_an_exercises_results_are_announced_with_their_node(laptop, app_url):
    laptop.goto(f"{app_url}/{EXERCISE}")
    wait_for_app(laptop)
    laptop.get_by_label("∂d/∂a").fill("4")
    laptop.get_by_label("∂d/∂c").fill("5")
    laptop.get_by_role("button", name="Check").click()
    # Streamlit draws the leading ✔ and ✘ as the alert's icon, outside its text.
    expect(laptop.get_by_role("status").filter(has_text="right")).to_contain_text(
        "right (∂d/∂a)")
    expect(laptop.get_by_role("alert").filter(has_text="not yet")).to_contain_text(
        "not yet (∂d/∂c)")
    tree = accessibility_tree(laptop)
    assert {n["role"] for n in tree if n["live"]} >= {"status", "alert"}


def test_the_train_pages_pictures_are_named_by_what_they_show(laptop, app_url):
    laptop.goto(f"{app_url}/train")
    expect(laptop.get_by_test_id("stVegaLiteChart")).to_have_count(5)
    expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0)
    names = [n["name"] for n in accessibility_tree(laptop) if n["role"] == "graphics-document"]
    assert len(names) == 5, names
    assert [name.split(":")[0].split(" (")[0] for name in names] == [
        "Output plane", "The network", "Training loss", "Training accuracy",
        "Each layer's weight-gradient norm against the step, on a log scale, one line per layer."]
    assert "Vega visualization" not in names
    assert "probability of blue" in names[0]
    assert "the text below says in words where each colour lies" in names[0]


def test_the_output_plane_is_said_in_words_that_follow_training(laptop, app_url):
    """The plane's sentence (playground/training/words.py) is in the accessibility tree right
    after the plane, and changes as the network learns: its test accuracy is the page's."""
    laptop.goto(f"{app_url}/train")
    said = laptop.get_by_text(re.compile(r"^The network calls "))
    expect(said).to_contain_text("% of the plane orange")
    before = said.inner_text()
    laptop.get_by_role("button", name="Start").click()
    expect(said).not_to_have_text(before)  # a busy machine trains few steps per update
    laptop.get_by_role("button", name="Pause").click()
    expect(laptop.get_by_role("button", name="Start")).to_be_visible()
    expect(laptop.get_by_test_id("stStatusWidget")).to_have_count(0)
    after = said.inner_text()
    assert after != before
    in_tree = [n["name"] for n in accessibility_tree(laptop)
               if n["name"].startswith("The network calls ")]
    assert after in in_tree, in_tree
    shown = laptop.get_by_test_id("stMetric").filter(has_text="Test accuracy").get_by_test_id(
        "stMetricValue").inner_text()
    test_percent = re.search(r"and (\d+) % of the test points", after).group(1)
    assert abs(int(test_percent) - float(shown.rstrip(" %"))) <= 0.5, (after, shown)
