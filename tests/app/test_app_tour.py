"""The README's one-minute tour for a teacher, followed word by word: every number and claim it
makes about what the widgets and the drawing show (steps 1, 3, 5 and 7; the drawing's look on
each screen is measured in Chromium by tests/e2e/test_e2e_fit.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from app_helpers import BACKPROP, GRADIENTS, ROOT, drawing_of, open_page, run, start

from pages.ui import keys

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is missing")
TOUR = Path(ROOT / "README.md").read_text(encoding="utf-8").split(
    "## A one-minute tour for a teacher")[1].split("\n## ")[0]


def tour_step(n: int) -> str:
    """Step `n` of the tour as one line of text."""
    text = re.search(rf"^{n}\. (.*?)(?=^\d+\. |\Z)", TOUR, re.M | re.S).group(1)
    return " ".join(text.split())


def grad(at, name: str) -> str:
    """The last line of node `name`'s record: its gradient as the drawing shows it."""
    return drawing_of(at).texts(name)[-1]


def test_step_1_a_gradient_is_4_from_two_paths():
    assert "its gradient is 4" in tour_step(1) and "contributing `b = 3`" in tour_step(1)
    at = start()
    assert grad(at, "a") == "grad 4.0000"
    assert drawing_of(at).texts("b")[2] == "value 3.0000"


def test_step_3_set_b_to_5_then_choose_c_as_the_output_then_undo_and_redo():
    words = tour_step(3)
    assert "give `b` the value 5 and press *Set value*: `a`'s gradient becomes 6" in words
    assert "Choose `c` as the *Output* in the sidebar: now `a`'s gradient is 5" in words
    assert "`b`'s is 2" in words and "reads *not used by c*" in words
    at = start()  # Build: Edit a node
    at.selectbox(key=keys.EDIT_NODE).set_value("b")
    run(at)
    at.number_input(key=keys.value_part(keys.edit_value("b"), "number")).set_value(5.0)
    at.button(key=keys.EDIT_SET_VALUE).click()
    run(at)
    assert drawing_of(at).texts("b")[2] == "value 5.0000"
    assert grad(at, "a") == "grad 6.0000"

    at.selectbox(key=keys.OUTPUT).set_value("c")  # the sidebar's Output
    run(at)
    drawn = drawing_of(at)
    assert grad(at, "a") == "grad 5.0000" and grad(at, "b") == "grad 2.0000"
    assert drawn.texts("d") == ["d", "scalar", "value 12.0000", "not used by c"]  # no grad 0
    assert drawn.role("d") == "unused" and drawn.role("c") == "output"

    at.button(key=keys.UNDO).click()  # back to d as the output
    run(at)
    assert grad(at, "a") == "grad 6.0000" and grad(at, "d") == "grad 1.0000"
    at.button(key=keys.REDO).click()
    run(at)
    assert grad(at, "a") == "grad 5.0000" and grad(at, "d") == "not used by c"

    open_page(at, GRADIENTS)  # the table and the detail say the same, never a gradient of 0
    table = at.dataframe[0].value.set_index("name")
    assert table.loc["d", "gradient"] == "not used by c"
    assert table.loc["a", "gradient"] == "5.0000"


def test_step_5_the_local_derivative_in_its_own_names_and_numbers():
    assert "(`∂c/∂a = b = 3.0000`)" in tour_step(5)
    at = open_page(start(), GRADIENTS)
    at.selectbox(key=keys.DETAIL_WIDGET).set_value("c")
    run(at)
    wanted = r"\frac{\partial \mathit{c}}{\partial \mathit{a}} = \mathit{b} = 3.0000"
    assert any(wanted in x.value for x in at.latex)


def test_step_7_the_chain_rule_in_numbers_at_steps_1_and_2():
    words = tour_step(7)
    assert "at step 1 of the classic graph `∂d/∂a += ∂d/∂d · ∂(c + a)/∂a = 1 · 1 = 1`" in words
    assert "at step 2 `a` collects its second term, `∂d/∂a = 1 + 3 = 4`" in words
    at = open_page(start(), BACKPROP)
    at.button(key=keys.STEP_BUTTON + "next").click()
    run(at)
    d_by = r"\frac{\partial \mathit{d}}{\partial \mathit{%s}}"
    wanted = (d_by % "a" + r" &\mathrel{+}= " + d_by % "d" + r" \cdot "
              + r"\frac{\partial (\mathit{c} + \mathit{a})}{\partial \mathit{a}} \\ "
              + r"&= 1.0000 \cdot 1.0000 = 1.0000")
    assert any(wanted in x.value for x in at.latex), [x.value for x in at.latex]
    assert grad(at, "a") == "grad 1.0000 + ? = …"
    at.button(key=keys.STEP_BUTTON + "next").click()
    run(at)
    assert grad(at, "a") == "grad 1.0000 + 3.0000 = 4.0000"
    assert "= 1.0000 + 3.0000 \\\\ &= 4.0000" in " ".join(x.value for x in at.latex)
