"""The Gradients page in AppTest: every node's gradient in a table, heatmaps for matrices and
stacked rows for 3-d tensors, a node clicked in the drawing opened in detail, each local
derivative in words."""

from app_helpers import (
    GRADIENTS,
    drawing_of,
    new_app,
    open_page,
    run,
    start,
)

from pages.ui import keys
from playground import formulas, parse, presets, share
from playground.errors import from_markdown


def test_gradients_page_tables_every_node_with_its_gradient(app):
    open_page(app, GRADIENTS)
    table = app.dataframe[0].value
    assert list(table["name"]) == ["a", "b", "c", "d"]
    assert table.set_index("name").loc["a", "gradient"] == "4.0000"
    assert len(app.latex) >= 2  # the chosen node's derivative and one per op kind


def test_gradients_page_shows_heatmaps_for_a_matrix_node():
    at = start(query={"graph": share.encode(presets.get("mlp").spec)}, page=GRADIENTS)
    at.selectbox(key=keys.DETAIL_WIDGET).set_value("W1")
    run(at)
    charts = [e for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    assert len(charts) == 2  # value and gradient of the (3, 5) weight matrix
    assert any(m.value.startswith("**W1**: input, (3, 5)") for m in at.markdown)


def test_gradients_page_draws_a_3d_tensor_as_stacked_rows_and_says_so():
    cube = parse("T = randn(2, 3, 4, seed=0)\nL = sum(T * T)\n")
    at = start(query={"graph": share.encode(cube)}, page=GRADIENTS)
    at.selectbox(key=keys.DETAIL_WIDGET).set_value("T")
    run(at)
    charts = [e for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    assert len(charts) == 2
    assert any(c.value.startswith("The (2, 3, 4) tensor is drawn as 6 rows of 4")
               for c in at.caption)
    elements = at.dataframe[1].value
    assert list(elements.columns) == ["axis_0", "axis_1", "axis_2", "value", "grad"]
    assert len(elements) == 24 and elements["axis_2"].max() == 3


def test_a_node_clicked_in_the_drawing_opens_in_the_gradients_detail():
    at = run(new_app(page=GRADIENTS))
    drawn = drawing_of(at)
    assert drawn.clickable and drawn.selected == "a"  # the first input, by default
    at.session_state[keys.DETAIL_NODE] = "c"  # what the component's click callback sets
    run(at)
    assert drawing_of(at).selected == "c"
    assert at.selectbox(key=keys.DETAIL_WIDGET).value == "c"
    assert any(r"\frac{\partial \mathit{c}}{\partial \mathit{a}} = \mathit{b} = 3.0000" in x.value
               for x in at.latex)


def test_a_huge_tensor_is_tabled_not_drawn_as_a_heatmap():
    big = parse("W = randn(100, 100, seed=0)\nL = sum(W * W)\n")
    at = start(query={"graph": share.encode(big)}, page=GRADIENTS)
    assert not [e for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    assert any("10,000 elements are too many" in i.value for i in at.info)
    assert len(at.dataframe[1].value) == 10_000


def test_the_gradients_page_says_each_local_derivative_in_words():
    at = run(new_app(page="pages/gradients.py"))
    captions = [from_markdown(c.value) for c in at.caption]
    for op in ("mul", "add"):  # in the rules' operand names, u and v (formulas.rule_sentence)
        assert formulas.rule_sentence(op) in captions
    assert "nudging u moves u*v by v." in " ".join(captions)

