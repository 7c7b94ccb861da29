"""The README's teacher tour and the Train lesson with the keyboard alone (issue 26), in
Chromium: each main action is reached with Tab from the page's start and done with Enter, Space
or the arrows; every Tab stop on the way shows its focus with an outline of at least 3:1
against the background behind it (computed styles, WCAG 2.4.7 and 1.4.11); Shift+Tab goes back
and Tab leaves the drawing (no trap); the drawing zooms and pans from the keyboard and, on
Gradients, its node is picked with Enter.

The Tab stops each action takes are printed (`-s`) for the README's Accessibility section.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from e2e_helpers import (
    DRAWING,
    answer,
    contrast,
    expect,
    join,
    rgba,
    shoot,
    wait_for_app,
    wait_for_app_style,
)
from test_e2e_axe import SCREENS, start_lesson, tab_of

from playground import presets, share

pytestmark = pytest.mark.e2e

MAX_STOPS = 120
"""A main action further than this many Tab stops from the page's start counts as unreachable."""
MIN_FOCUS_CONTRAST = 3.0
EXERCISE = "backprop?" + urlencode({"graph": share.encode(presets.get("classic").spec),
                                    "ex": "grad:a,b,c"}, safe=":,")

FOCUSED = """() => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  // The background the outline is drawn on: the nearest opaque ancestor whose box holds the
  // outline's (a slider's thumb sits on its narrow track, the ring around it on the page).
  const grow = parseFloat(s.outlineOffset || 0) + parseFloat(s.outlineWidth || 0);
  const ring = e.getBoundingClientRect();
  const holds = (n) => { const r = n.getBoundingClientRect();
    return r.left <= ring.left - grow && r.right >= ring.right + grow
      && r.top <= ring.top - grow && r.bottom >= ring.bottom + grow; };
  const parent = (n) => n.parentElement ?? n.getRootNode().host ?? null;
  const opaque = (c) => c && c !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(c);
  let behind = parent(e);
  while (behind && !(opaque(getComputedStyle(behind).backgroundColor) && holds(behind))) {
    behind = parent(behind);
  }
  return {
    tag: e.tagName.toLowerCase(), role: e.getAttribute('role'),
    label: (e.getAttribute('aria-label') || e.innerText || e.value || '').trim().slice(0, 80),
    outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 ? s.outlineColor
      : null,
    shadow: s.boxShadow !== 'none' ? s.boxShadow : null,
    behind: behind ? getComputedStyle(behind).backgroundColor : 'rgb(255, 255, 255)',
    inDrawing: Boolean(e.closest('[data-testid="graph-drawing"]')),
  };
}"""

def mark_contrast(mark: str, behind: str) -> float:
    """Contrast of a focus mark's colour, laid over `behind` as the browser paints it (a
    half-transparent mark is blended), against `behind`."""
    *fg, alpha = rgba(mark)
    bg = rgba(behind)
    return contrast([alpha * f + (1 - alpha) * b for f, b in zip(fg, bg)], bg)


def focus_colour(stop: dict) -> str | None:
    """The colour the focused element is marked with: its outline, else its box-shadow's."""
    if stop["outline"]:
        return stop["outline"]
    if stop["shadow"]:
        return re.match(r"rgba?\([^)]*\)", stop["shadow"]).group(0)
    return None


def tab_to(page, found, what: str, stops: list[dict] | None = None) -> int:
    """Press Tab until `found(stop)`; every stop on the way must show its focus at 3:1 or more.
    Returns the number of presses."""
    stops = [] if stops is None else stops
    wait_for_app_style(page)
    for presses in range(1, MAX_STOPS + 1):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED)
        if stop is None:
            continue
        colour = focus_colour(stop)
        assert colour is not None, f"no visible focus on {stop}"
        ratio = mark_contrast(colour, stop["behind"])
        assert ratio >= MIN_FOCUS_CONTRAST, f"focus {colour} on {stop['behind']}: {ratio:.2f}:1 " \
            f"at {stop}"
        stops.append({**stop, "contrast": round(ratio, 2)})
        if found(stop):
            ratios = [s["contrast"] for s in stops]
            print(f"{what}: {presses} Tab stops; focus contrast {min(ratios):.2f}-"
                  f"{max(ratios):.2f}")
            return presses
    raise AssertionError(f"{what} not reached in {MAX_STOPS} Tab stops; the last: {stops[-3:]}")


def named(label: str):
    return lambda stop: stop["label"].endswith(label) and stop["tag"] == "button"


def test_apply_an_expression_with_the_keyboard(laptop, app_url, artifacts_dir: Path):
    laptop.goto(app_url)
    wait_for_app(laptop)
    tab_to(laptop, lambda s: s["role"] == "tab" and s["label"] == "Add a node", "the tabs")
    laptop.keyboard.press("ArrowRight")  # Streamlit's tabs: the arrows move between them
    laptop.keyboard.press("Enter")
    expect(laptop.get_by_role("tab", name="Expression")).to_have_attribute("aria-selected",
                                                                           "true")
    tab_to(laptop, lambda s: s["tag"] == "textarea", "the expression box")
    laptop.keyboard.press("ControlOrMeta+a")
    laptop.keyboard.type("x = 2.0\ny = 3.0\nr = x * y\n")  # r and c: typed, not shortcuts
    presses = tab_to(laptop, named("Apply"), "Apply")
    laptop.keyboard.press("Enter")
    expect(laptop.get_by_test_id(DRAWING)).to_contain_text("value 6.0000")
    shoot(laptop, artifacts_dir, "keyboard-apply", folder="a11y")
    assert presses <= 3  # from the expression box


def test_next_step_with_the_keyboard(laptop, app_url):
    laptop.goto(f"{app_url}/backprop")
    wait_for_app(laptop)
    presses = tab_to(laptop, lambda s: s["label"] == "Next" or s["label"].endswith("Next"),
                     "next step")
    laptop.keyboard.press("Enter")
    expect(laptop.get_by_test_id(DRAWING).get_by_role("status")).to_contain_text("Step 1 of 2")
    laptop.keyboard.press("Space")
    expect(laptop.get_by_test_id(DRAWING).get_by_role("status")).to_contain_text("Step 2 of 2")
    assert presses < MAX_STOPS


def test_the_drawing_walks_zooms_pans_and_picks_a_node_with_the_keyboard(laptop, app_url,
                                                                          artifacts_dir: Path):
    laptop.goto(f"{app_url}/gradients")
    wait_for_app(laptop)
    stops: list[dict] = []
    tab_to(laptop, lambda s: s["role"] == "graphics-symbol", "the drawing", stops)
    chosen = laptop.get_by_test_id(DRAWING).locator("g.node.selected[role='graphics-symbol']")
    assert laptop.evaluate(FOCUSED)["label"] == chosen.get_attribute("aria-label")  # in detail
    stage = laptop.get_by_test_id(DRAWING).locator(".stage")
    before = stage.evaluate("e => e.style.transform")
    laptop.keyboard.press("Home")
    assert laptop.evaluate(FOCUSED)["label"].startswith("a (input)")
    laptop.keyboard.press("ArrowRight")
    laptop.keyboard.press("ArrowRight")
    assert laptop.evaluate(FOCUSED)["label"].startswith("c = mul(a, b)")
    assert stage.evaluate("e => e.style.transform") == before  # shown whole: nothing moves
    assert laptop.get_by_test_id(DRAWING).locator(".viewport").evaluate(
        "e => [e.scrollTop, e.scrollLeft]") == [0, 0]
    shoot(laptop, artifacts_dir, "keyboard-drawing-focus", folder="a11y")
    laptop.keyboard.press("+")
    zoomed = stage.evaluate("e => e.style.transform")
    assert zoomed != before
    laptop.keyboard.press("Shift+ArrowLeft")
    assert stage.evaluate("e => e.style.transform") != zoomed
    laptop.keyboard.press("0")  # the whole drawing again
    laptop.keyboard.press("Enter")
    expect(laptop.get_by_role("combobox", name="Node")).to_have_value("c")
    expect(chosen).to_have_attribute("data-name", "c")
    assert laptop.evaluate(FOCUSED)["label"].startswith("c = mul(a, b)")  # focus kept
    # No trap: Tab leaves the drawing, Shift+Tab comes back to the node.
    laptop.keyboard.press("Tab")
    assert not laptop.evaluate(FOCUSED)["inDrawing"]
    laptop.keyboard.press("Shift+Tab")
    assert laptop.evaluate(FOCUSED)["label"].startswith("c = mul(a, b)")


def test_start_training_with_the_keyboard(laptop, app_url):
    laptop.goto(f"{app_url}/train")
    expect(laptop.get_by_test_id("stVegaLiteChart")).to_have_count(5, timeout=30_000)
    tab_to(laptop, named("Start"), "Start training")
    step = laptop.get_by_test_id("stMetric").filter(has_text="Step").get_by_test_id(
        "stMetricValue")
    for _ in range(2):  # Start, Pause, and again: the focus stays on the control (WCAG 2.4.3)
        laptop.keyboard.press("Space")
        expect(step).not_to_have_text(re.compile(r"^(0|25)$"))
        expect(laptop.get_by_role("button", name="Pause")).to_be_focused()
        assert focus_colour(laptop.evaluate(FOCUSED)) is not None  # and visibly so
        laptop.keyboard.press("Space")
        expect(laptop.get_by_role("button", name="Start")).to_be_focused()
        paused_at = step.inner_text()
        laptop.wait_for_timeout(1_500)  # paused: no more steps
        expect(step).to_have_text(paused_at)


def test_check_an_answer_with_the_keyboard(laptop, app_url):
    laptop.goto(f"{app_url}/{EXERCISE}")
    wait_for_app(laptop)
    tab_to(laptop, lambda s: s["tag"] == "input"
           and laptop.get_by_label("∂d/∂a").evaluate("e => e === document.activeElement"),
           "the guess of ∂d/∂a")
    laptop.keyboard.type("4")
    tab_to(laptop, named("Check"), "Check")
    laptop.keyboard.press("Enter")
    expect(laptop.get_by_role("status").filter(has_text="right")).to_contain_text(
        "right (∂d/∂a)")


def test_a_student_answers_with_the_keyboard(browser, class_url):
    """Issue 26's live class: on a phone, the student's answer boxes and Send by keyboard."""
    with tab_of(browser, **SCREENS["laptop"]) as teacher, \
            tab_of(browser, **SCREENS["phone"]) as student:
        start_lesson(teacher, student, class_url)
        box = student.get_by_role("textbox", name="∂d/∂a", exact=True)
        tab_to(student, lambda s: box.evaluate("e => e === document.activeElement"),
               "the student's first answer")
        student.keyboard.type("4")
        tab_to(student, named("Send"), "Send")
        student.keyboard.press("Enter")
        expect(student.get_by_test_id("stMain")).to_contain_text("right (you sent 4)")


def test_the_teacher_runs_a_lesson_with_the_keyboard(browser, class_url):
    """Issue 26's live class, the teacher's side by keyboard alone: open a room, add the ready
    lesson, move the class on, reveal and close the answers, go back to a step from the
    lesson's list and move it down; every stop with a visible focus, the focus kept on a button
    that changes its words (Reveal to Hide) while the answers update live every second, brought
    back near a button that disabled or moved itself (Next, Go, Down), and the page's Tab order
    that of its reading: move the class, then its answers, then the lesson's steps."""
    with tab_of(browser, **SCREENS["laptop"]) as teacher, \
            tab_of(browser, **SCREENS["phone"]) as student:
        teacher.goto(f"{class_url}/class")
        expect(teacher.get_by_role("button", name="Open a room")).to_be_visible()
        tab_to(teacher, named("Open a room"), "Open a room")
        teacher.keyboard.press("Enter")
        code_box = teacher.get_by_test_id("stMain").locator(
            "div", has_text=re.compile(r"^[2-9A-HJ-NP-Z]{6}$")).last
        expect(code_box).to_be_visible()
        code = code_box.inner_text().strip()
        tab_to(teacher, named("Add its 6 steps"), "Add the ready lesson")
        teacher.keyboard.press("Enter")
        expect(teacher.get_by_test_id("stMain")).to_contain_text("Step 1 of 6")
        join(student, class_url, code, "Ada")
        tab_to(teacher, named("Next"), "Next step")
        teacher.keyboard.press("Enter")
        expect(teacher.get_by_test_id("stMain")).to_contain_text("Step 2 of 6")
        expect(student.get_by_role("textbox", name="∂d/∂a", exact=True)).to_be_visible()
        expect(teacher.get_by_role("button", name="Next")).to_be_focused()
        answer(student, {"∂d/∂a": "4", "∂d/∂b": "2", "∂d/∂c": "1"})
        tab_to(teacher, named("Reveal the answers"), "Reveal")
        teacher.keyboard.press("Space")
        expect(teacher.get_by_test_id("stMain")).to_contain_text("answers revealed")
        hide = teacher.get_by_role("button", name="Hide the answers")
        expect(hide).to_be_focused()
        teacher.wait_for_timeout(2_500)  # two live updates of the answers
        expect(hide).to_be_focused()
        tab_to(teacher, named("Close answers"), "Close answers")
        teacher.keyboard.press("Enter")
        expect(teacher.get_by_test_id("stMain")).to_contain_text("closed")

        own_link = next(text for text in teacher.get_by_test_id("stCode").all_text_contents()
                        if "room=" in text and "key=" in text)  # the private teacher link
        teacher.goto(own_link)  # the page afresh, its Tab order from the top
        expect(teacher.get_by_test_id("stMain")).to_contain_text("Step 2 of 6")
        stops: list[dict] = []
        tab_to(teacher, named("The class's answers (CSV)"), "the teacher's whole page", stops)
        labels = [stop["label"] for stop in stops]
        print("teacher's Tab stops:", labels)
        places = [next(i for i, label in enumerate(labels) if words in label)
                  for words in ("Next", "Reopen answers", "The lesson's steps", "Add a step")]
        assert places == sorted(places), labels

        teacher.goto(own_link)
        expect(teacher.get_by_test_id("stMain")).to_contain_text("Step 2 of 6")
        tab_to(teacher, lambda stop: "The lesson's steps" in stop["label"], "the steps")
        teacher.keyboard.press("Enter")
        tab_to(teacher, named("Go"), "the first step's Go")
        teacher.keyboard.press("Enter")
        expect(teacher.get_by_test_id("stMain")).to_contain_text("Step 1 of 6")
        expect(teacher.get_by_role("button", name="Next")).to_be_focused()  # Go is disabled
        tab_to(teacher, named("Down"), "the first step's Down")
        teacher.keyboard.press("Enter")  # the first step becomes the second
        expect(teacher.get_by_test_id("stMain")).to_contain_text("Step 2 of 6")
        expect(teacher.locator("button:focus")).to_contain_text("Down")  # on the row it moved
