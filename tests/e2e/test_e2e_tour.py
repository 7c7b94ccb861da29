"""The README's teacher tour and Train lesson, followed in Chromium word by word: each test quotes
the sentence it checks, does what it says with the mouse and the keyboard, and reads the numbers
off the screen (the drawing's records, the page's text). tests/app/test_app_tour.py follows the
same words through AppTest, which cannot see the drawing's layout, the text sizes or the links."""

from __future__ import annotations

import re
from pathlib import Path

from e2e_helpers import DRAWING, expect, node_box, open_page, wait_for_app

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
TOUR = README.split("## A one-minute tour for a teacher")[1].split("\n## ")[0]
TRAIN = README.split("## A lesson on training: the Train page")[1].split("\n## ")[0]


def words(text: str, n: int | None = None) -> str:
    """Step `n` of a numbered README list (or all of `text`) as one line."""
    if n is not None:
        text = re.search(rf"^{n}\. (.*?)(?=^\d+\. |\Z)", text, re.M | re.S).group(1)
    return " ".join(text.split())


def record(tab, name: str):
    """The text lines of node `name`'s record in the drawing."""
    return node_box(tab, name).locator("text")


def idle(tab) -> None:
    expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)


def choose(tab, where, label: str, option: str) -> None:
    """Pick `option` in the selectbox labelled `label` inside `where`."""
    where.get_by_test_id("stSelectbox").filter(has_text=label).click()
    tab.get_by_role("option", name=option, exact=True).click()
    idle(tab)


def centres(tab, names: str) -> dict[str, tuple[float, float]]:
    boxes = {n: node_box(tab, n).bounding_box() for n in names}
    return {n: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for n, b in boxes.items()}


def test_step_1_the_first_screen_shows_a_gradient_of_4(laptop, app_url):
    assert "its gradient is 4" in words(TOUR, 1) and "contributing `b = 3`" in words(TOUR, 1)
    laptop.goto(app_url)
    wait_for_app(laptop)
    expect(record(laptop, "a")).to_have_text(["a", "scalar", "value 2.0000", "grad 4.0000"])
    expect(record(laptop, "b")).to_contain_text(["value 3.0000"])
    expect(record(laptop, "d")).to_contain_text(["grad 1.0000"])


def test_step_2_font_size_grows_the_drawing_the_page_goes_across_or_down(browser, app_url):
    said = words(TOUR, 2)
    assert "the classic graph goes across on a laptop or a projector, down on a phone" in said
    assert "On a phone the sidebar starts folded away" in said
    assert "*Show on each node* hides the gradients" in said
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(30_000)
    tab = context.new_page()
    tab.goto(f"{app_url}/graph")
    wait_for_app(tab)
    tab.wait_for_timeout(600)
    small = node_box(tab, "a").locator("text").first.bounding_box()["height"]
    at = centres(tab, "abd")
    assert at["d"][0] - at["a"][0] > abs(at["d"][1] - at["a"][1])  # across
    thumb = tab.get_by_test_id("stSidebar").get_by_role("slider")
    thumb.focus()
    for _ in range(15, 21):  # "raise Font size to 20 or more", as quickly as a teacher does
        thumb.press("ArrowRight")
        tab.wait_for_timeout(150)
    idle(tab)
    tab.wait_for_timeout(1500)
    expect(thumb).to_have_value("20")  # no press lost to a run that was still drawing
    assert "font=20" in tab.evaluate("location.search")
    large = node_box(tab, "a").locator("text").first.bounding_box()["height"]
    assert large > 1.25 * small, (small, large)  # 20/14 of the text, less the fit's rounding
    sidebar = tab.get_by_test_id("stSidebar").bounding_box()["width"]
    assert sidebar <= 1920 / 3 + 1

    tab.get_by_test_id("stSidebar").get_by_role("radio", name="Values").click()
    idle(tab)
    expect(record(tab, "a")).to_have_text(["a", "scalar", "value 2.0000"])
    expect(tab.get_by_test_id(DRAWING)).not_to_contain_text("grad")
    context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    phone.set_default_timeout(30_000)
    tab = phone.new_page()
    tab.goto(f"{app_url}/graph")
    wait_for_app(tab)
    tab.wait_for_timeout(600)
    assert tab.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "true"
    at = centres(tab, "abd")
    assert at["d"][1] - at["a"][1] > abs(at["d"][0] - at["a"][0])  # down
    phone.close()


def test_step_3_set_b_to_5_choose_c_as_the_output_undo_and_redo(laptop, app_url):
    said = words(TOUR, 3)
    assert "give `b` the value 5 and press *Set value*: `a`'s gradient becomes 6" in said
    assert "now `a`'s gradient is 5 (∂c/∂a = b), `b`'s is 2" in said
    assert "is greyed with a dotted border and reads *not used by c*" in said
    laptop.goto(app_url)
    wait_for_app(laptop)
    main = laptop.get_by_test_id("stMain")
    laptop.get_by_role("tab", name="Edit a node").click()
    choose(laptop, main, "Node", "b")
    number = main.get_by_label("Number", exact=True)
    number.fill("5")
    number.press("Enter")
    idle(laptop)
    main.get_by_role("button", name="Set value").click()
    idle(laptop)
    expect(record(laptop, "b")).to_contain_text(["value 5.0000"])
    expect(record(laptop, "a")).to_contain_text(["grad 6.0000"])

    choose(laptop, laptop.get_by_test_id("stSidebar"), "Output", "c")
    expect(record(laptop, "a")).to_contain_text(["grad 5.0000"])
    expect(record(laptop, "b")).to_contain_text(["grad 2.0000"])
    expect(record(laptop, "d")).to_have_text(["d", "scalar", "value 12.0000", "not used by c"])
    outline = node_box(laptop, "d").locator("path, polygon").first
    assert outline.get_attribute("stroke-dasharray") or "dotted" in (
        outline.get_attribute("style") or ""), "d's border is not dotted"

    laptop.get_by_test_id("stSidebar").get_by_role("button", name="Undo").click()
    idle(laptop)
    expect(record(laptop, "a")).to_contain_text(["grad 6.0000"])
    laptop.get_by_test_id("stSidebar").get_by_role("button", name="Redo").click()
    idle(laptop)
    expect(record(laptop, "a")).to_contain_text(["grad 5.0000"])


NEURON = """x = [2.0, 0.0]
w = [-3.0, 1.0]
b = 6.8813735870195432
o = tanh(sum(x * w) + b)"""


def test_step_4_type_a_neuron_and_a_typo(laptop, app_url):
    said = words(TOUR, 4)
    assert " ".join(NEURON.split()) in said
    assert "A typo shows its line and column; the last graph that worked stays on screen" in said
    laptop.goto(app_url)
    wait_for_app(laptop)
    laptop.get_by_role("tab", name="Expression").click()
    text = laptop.get_by_test_id("stMain").get_by_role("textbox")
    text.fill(NEURON)
    laptop.get_by_role("button", name="Apply").click()
    idle(laptop)
    expect(record(laptop, "o")).to_contain_text(["value 0.7071", "grad 1.0000"])
    expect(record(laptop, "w")).to_contain_text(["grad [1.0000, 0.0000]"])

    text.fill(NEURON.replace("sum(x * w)", "sum(x * * w)"))
    laptop.get_by_role("button", name="Apply").click()
    idle(laptop)
    error = laptop.get_by_test_id("stMain").get_by_test_id("stAlert").first
    expect(error).to_contain_text(re.compile(r"line 4.*column \d+", re.S))
    expect(record(laptop, "o")).to_contain_text(["value 0.7071"])  # the last graph that worked


def test_step_5_a_node_clicked_in_the_drawing_shows_its_local_derivative(laptop, app_url):
    assert "(`∂c/∂a = b = 3.0000`)" in words(TOUR, 5)
    laptop.goto(f"{app_url}/gradients")
    wait_for_app(laptop)
    node_box(laptop, "c").click()
    idle(laptop)
    latex = laptop.locator(".katex annotation")
    expect(latex.filter(has_text=re.compile(
        r"\\frac\{\\partial \\mathit\{c\}\}\{\\partial \\mathit\{a\}\} = \\mathit\{b\} = "
        r"3\.0000"))).not_to_have_count(0)


def test_step_6_every_gradient_matches_its_finite_difference(laptop, app_url):
    assert "compares every gradient with a central finite difference" in words(TOUR, 6)
    laptop.goto(f"{app_url}/gradient_check")
    expect(laptop.get_by_role("heading", name="Gradient check", level=1)).to_be_visible()
    idle(laptop)
    expect(laptop.get_by_text("All 2 elements match the finite-difference estimate.")
           ).to_be_visible()
    expect(laptop.get_by_role("slider", name=re.compile("Step ε"))).to_be_visible()


def test_step_7_the_chain_rule_in_numbers_at_steps_1_and_2(laptop, app_url):
    said = words(TOUR, 7)
    assert "at step 1 of the classic graph `∂d/∂a += ∂d/∂d · ∂(c + a)/∂a = 1 · 1 = 1`" in said
    assert "at step 2 `a` collects its second term, `∂d/∂a = 1 + 3 = 4`" in said
    laptop.goto(f"{app_url}/backprop")
    wait_for_app(laptop)
    laptop.get_by_role("button", name="Next", exact=True).click()
    idle(laptop)
    expect(record(laptop, "a")).to_contain_text(["grad 1.0000 + ? = …"])
    expect(record(laptop, "b")).to_contain_text(["grad ?"])
    laptop.get_by_role("button", name="Next", exact=True).click()
    idle(laptop)
    expect(record(laptop, "a")).to_contain_text(["grad 1.0000 + 3.0000 = 4.0000"])
    expect(laptop.locator(".katex annotation").filter(has_text="= 1.0000 + 3.0000")
           ).not_to_have_count(0)


def test_step_8_the_readme_exercise_link_hides_then_checks_and_reveals(laptop, app_url):
    said = words(TOUR, 8)
    link = re.search(r"https://<your-app>\.streamlit\.app(/backprop\?\S+)", TOUR).group(1)
    assert "This link hides ∂d/∂a, ∂d/∂b and ∂d/∂c of the classic graph" in said
    assert "(✔ within 0.1 %, and a score such as 2 of 3 correct)" in said
    laptop.goto(app_url + link)
    wait_for_app(laptop)
    laptop.get_by_role("button", name="Last", exact=True).click()
    idle(laptop)
    for name in "abc":
        expect(record(laptop, name)).to_contain_text(["grad ?"])
    laptop.get_by_label("∂d/∂a").fill("4.003")  # within 0.1 % of 4
    laptop.get_by_label("∂d/∂b").fill("2")
    laptop.get_by_label("∂d/∂c").fill("2")  # wrong: it is 1
    laptop.get_by_role("button", name="Check").click()
    idle(laptop)
    expect(laptop.get_by_text("2 of 3 correct")).to_be_visible()
    open_page(laptop, "Build")  # closed until every answer is revealed
    expect(laptop.get_by_test_id("stMain")).to_contain_text("exercise")
    expect(laptop.get_by_test_id(DRAWING)).to_have_count(0)


def test_step_9_the_sidebar_link_opens_the_same_graph_and_output(browser, laptop, app_url):
    assert "it opens the same graph, output and view in any browser, on any page" in words(
        TOUR, 9)
    laptop.goto(app_url)
    wait_for_app(laptop)
    choose(laptop, laptop.get_by_test_id("stSidebar"), "Output", "c")
    expect(record(laptop, "a")).to_contain_text(["grad 3.0000"])
    box = laptop.get_by_test_id("stSidebar").get_by_role("textbox", name="Link to this graph")
    link = box.input_value()
    assert link.startswith(app_url + "?graph="), link
    laptop.context.grant_permissions(["clipboard-read", "clipboard-write"])
    laptop.get_by_test_id("stSidebar").get_by_role("button", name="Copy").click()
    expect(laptop.get_by_test_id("stSidebar").get_by_role("status")).to_have_text("Copied.")
    assert laptop.evaluate("navigator.clipboard.readText()") == link
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    other.set_default_timeout(30_000)
    tab = other.new_page()
    tab.goto(link)
    wait_for_app(tab)
    expect(record(tab, "a")).to_contain_text(["grad 3.0000"])
    expect(record(tab, "d")).to_contain_text(["not used by c"])
    other.close()


def metric(tab, label: str):
    return tab.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


def test_the_train_lessons_spiral_link_fits_and_opens_one_samples_graph(laptop, app_url):
    said = words(TRAIN)
    link = re.search(r"https://<your-app>\.streamlit\.app(/train\?\S+?)`", TRAIN).group(1)
    assert "the test accuracy is about 90 % by step 1,000" in said
    laptop.goto(app_url + link)
    laptop.get_by_role("button", name="Start").click()
    expect(laptop.get_by_role("button", name="Pause")).to_be_visible()

    def step() -> int:
        return int(metric(laptop, "Step").inner_text().replace(",", ""))
    deadline = 240_000  # the page's pace on a shared, loaded machine: far below it in class
    laptop.wait_for_function(
        """() => { const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
                   .find(m => m.innerText.startsWith('Step'));
                   return m && parseInt(m.querySelector('[data-testid="stMetricValue"]')
                                         .innerText.replace(/,/g, '')) >= 1000; }""",
        timeout=deadline, polling=500)
    laptop.get_by_role("button", name="Pause").click()
    expect(laptop.get_by_role("button", name="Start")).to_be_visible()
    idle(laptop)
    accuracy = metric(laptop, "Test accuracy").inner_text()
    # wherever Pause lands after step 1,000: "moving between 80 and 92 % from one step to the
    # next" (tests/playground/test_train_lessons.py checks every step of the trainer itself)
    assert "moving between 80 and 92 % from one step to the next" in said
    assert step() >= 1000 and float(accuracy.rstrip(" %")) >= 80, (step(), accuracy)

    assert "press *Open one sample's graph*" in said and "(`W1`, `b1`, …)" in said
    laptop.get_by_role("button", name="Open one sample's graph").click()
    expect(laptop.get_by_role("heading", name="Graph", level=1)).to_be_visible()
    wait_for_app(laptop)
    for name in ("W1", "b1"):
        expect(node_box(laptop, name)).to_have_count(1)
