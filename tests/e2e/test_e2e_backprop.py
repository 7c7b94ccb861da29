"""The Step through page in Chromium: the default graph's backward pass stepped to its middle,
Play running to the end on its own, hover text that keeps the answers of later steps, the
evaluation traces of a two-input function, and an exercise link."""

from __future__ import annotations

from urllib.parse import urlencode

from e2e_helpers import DRAWING, expect, node_box, open_page, shoot, wait_for_app

from playground import parse, share

BAYDIN = parse("x1 = 2.0\nx2 = 5.0\nv1 = log(x1)\nv2 = x1 * x2\nv3 = sin(x2)\n"
               "v4 = v1 + v2\ny = v4 - v3\n")
"""Baydin et al.'s example of forward and reverse mode: y = ln(x1) + x1·x2 − sin(x2) at (2, 5)."""


def step_button(page, name: str):
    return page.locator(f".st-key-w_step_{name} button").first


def heading(page, text: str):
    """The step's heading on the page (the drawing's live region says it again, in words)."""
    return page.get_by_test_id("stMain").locator("strong").get_by_text(text, exact=False)


def test_the_backward_pass_of_the_default_graph_stepped_to_its_middle(page, app_url,
                                                                      artifacts_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(app_url)
    wait_for_app(page)
    open_page(page, "Step through")
    wait_for_app(page)
    expect(node_box(page, "a")).to_contain_text("grad ?")
    step_button(page, "next").click()
    expect(heading(page, "Step 1 of 2: backward through d = c + a")).to_be_visible()
    expect(node_box(page, "a")).to_contain_text("grad 1.0000 + ? = …")
    expect(node_box(page, "b")).to_contain_text("grad ?")
    carried = page.get_by_test_id(DRAWING).locator("svg g.edge.carry")
    expect(carried).to_have_count(2)
    expect(carried.first).to_contain_text("1.0000")
    # the hover text says what is known at this step, not the final answer
    hover = node_box(page, "a").locator("a title")
    expect(hover).to_contain_text("1 of 2 terms so far")
    expect(page.locator(".katex").first).to_be_visible()
    page.get_by_text("Forward pass", exact=True).evaluate("e => e.scrollIntoView()")
    page.mouse.move(1200, 500)
    page.mouse.wheel(0, 80)  # the step's controls at the top, the whole drawing below them
    page.wait_for_timeout(500)
    shoot(page, artifacts_dir, "step-through")


def test_play_runs_to_the_last_step_by_itself(page, app_url):
    page.goto(f"{app_url}/backprop")
    wait_for_app(page)
    step_button(page, "play").click()
    expect(heading(page, "Step 2 of 2")).to_be_visible(timeout=15_000)
    expect(node_box(page, "a")).to_contain_text("grad 1.0000 + 3.0000 = 4.0000")
    expect(step_button(page, "play")).to_contain_text("Play", timeout=10_000)


def test_the_evaluation_traces_of_a_two_input_function(page, app_url, artifacts_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{app_url}/backprop?{urlencode({'graph': share.encode(BAYDIN)})}")
    wait_for_app(page)
    page.get_by_text("Forward mode", exact=True).click()
    expect(page.get_by_text("Tangent trace", exact=False).first).to_be_visible()
    step_button(page, "last").click()
    expect(node_box(page, "y")).to_contain_text("tangent 5.5000")  # 1/x1 + x2 = 5.5
    table = page.get_by_test_id("stDataFrame")
    expect(table).to_contain_text("v̇₋₁ = 1")
    trace = page.get_by_text("Evaluation trace: tangent trace")
    trace.scroll_into_view_if_needed()
    shoot(page, artifacts_dir, "evaluation-trace")
    page.get_by_text("Reverse mode", exact=True).click()
    expect(page.get_by_text("Evaluation trace: adjoint trace")).to_be_visible()
    expect(table).to_contain_text("v̄₅ = 1")


def test_an_exercise_link_hides_the_gradients_until_revealed(page, app_url):
    link = {"graph": share.encode(parse("a = 2.0\nb = 3.0\nc = a * b\nd = c + a\n")),
            "ex": "grad:a,b,c"}
    page.goto(f"{app_url}/backprop?{urlencode(link)}")
    wait_for_app(page)
    expect(page.get_by_text("Exercise: Gradients add where paths meet")).to_be_visible()
    step_button(page, "last").click()
    expect(node_box(page, "a")).to_contain_text("grad ?")
    page.get_by_label("∂d/∂a").fill("4")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_text("1 of 3 correct")).to_be_visible()
    expect(node_box(page, "a")).to_contain_text("grad 1.0000 + 3.0000 = 4.0000")  # found
    expect(node_box(page, "b")).to_contain_text("grad ?")
    page.get_by_role("button", name="Reveal the next answer").click()  # b: a is right already
    expect(node_box(page, "b")).to_contain_text("grad 2.0000")
    expect(node_box(page, "c")).to_contain_text("grad ?")
    open_page(page, "Gradients")
    expect(page.get_by_text("An exercise hides the gradients of c.")).to_be_visible()
    page.get_by_role("button", name="Reveal every answer").click()
    expect(page.get_by_text("Node detail")).to_be_visible()
