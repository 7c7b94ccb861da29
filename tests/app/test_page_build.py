"""The Build page in AppTest: the default graph, the add-node form (its operation list grouped by
family), the expression editor, edits, and Undo bringing back what a delete took."""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import (
    BUILD,
    GRADIENT_CHECK,
    GRADIENTS,
    GRAPH,
    drawing_of,
    errors_of,
    new_graph,
    open_page,
    run,
    spec_of,
    start,
)

from pages.ui import keys, node_widgets
from playground import parse, presets, share
from playground.errors import from_markdown
from playground.evaluate import evaluate
from playground.registry import ATTR_TYPES, BY_FAMILY, FAMILY, OPS

VALUE_MODE, VALUE_NUMBER, VALUE_LIST, VALUE_FN, VALUE_SHAPE, VALUE_SEED = (
    keys.value_part(keys.ADD_VALUE, part)
    for part in ("mode", "number", "list", "fn", "shape", "seed")
)


DEFAULT = presets.get(presets.DEFAULT_KEY).spec


def _add(at, kind):
    at.segmented_control(key=keys.ADD_KIND).set_value(kind)
    run(at)
    return at


def _submit_add(at, name):
    at.text_input(key=keys.ADD_NAME).input(name)
    at.button(key=keys.ADD_GO).click()
    return run(at)


def test_app_opens_on_the_default_preset_with_a_gradient_of_4_on_a(app):
    assert spec_of(app) == presets.get(presets.DEFAULT_KEY).spec
    drawn = drawing_of(app)
    assert drawn.texts("a") == ["a", "scalar", "value 2.0000", "grad 4.0000"]
    assert drawn.texts("b") == ["b", "scalar", "value 3.0000", "grad 2.0000"]
    assert app.title[0].value == "Build"


def test_default_graph_gradients_are_the_tutorials_numbers(app):
    result = evaluate(spec_of(app))
    assert result.output == "d"
    assert result.grad("a") == pytest.approx(4.0)
    assert result.grad("b") == pytest.approx(2.0)
    assert result.value("d") == pytest.approx(8.0)


def test_adding_an_input_with_a_number_puts_it_in_the_graph(app):
    _add(app, "input")
    app.number_input(key=VALUE_NUMBER).set_value(5.5)
    _submit_add(app, "e")
    node = spec_of(app)["e"]
    assert (node.kind, node.value) == ("input", 5.5)
    assert "e" in drawing_of(app).names


def test_adding_an_input_with_a_nested_list_keeps_its_shape(app):
    _add(app, "input")
    app.segmented_control(key=VALUE_MODE).set_value("list")
    run(app)
    app.text_input(key=VALUE_LIST).input("[[1, 2], [3, 4]]")
    _submit_add(app, "W")
    node = spec_of(app)["W"]
    assert node.value == [[1.0, 2.0], [3.0, 4.0]]
    assert node.shape == (2, 2)


def test_a_list_that_is_not_a_value_is_refused_with_its_column_and_the_typing_stays(app):
    before = spec_of(app)
    _add(app, "input")
    app.segmented_control(key=VALUE_MODE).set_value("list")
    run(app)
    app.text_input(key=VALUE_LIST).input("[[1, 2], [3, x]]")
    _submit_add(app, "W")
    assert spec_of(app) == before
    assert any(e.startswith("line 1, column 14: `x` — this is not a number")
               for e in errors_of(app)), errors_of(app)
    assert app.text_input(key=VALUE_LIST).value == "[[1, 2], [3, x]]"
    assert app.text_input(key=keys.ADD_NAME).value == "W"


def test_adding_a_seeded_generator_input_builds_the_chosen_shape(app):
    _add(app, "input")
    app.segmented_control(key=VALUE_MODE).set_value("generator")
    run(app)
    app.selectbox(key=VALUE_FN).set_value("randn")
    app.number_input(key=keys.count(VALUE_SHAPE)).set_value(2)
    run(app)
    app.number_input(key=keys.entry(VALUE_SHAPE, 0)).set_value(3)
    app.number_input(key=keys.entry(VALUE_SHAPE, 1)).set_value(2)
    app.number_input(key=VALUE_SEED).set_value(7)
    _submit_add(app, "R")
    assert spec_of(app)["R"].value == {"fn": "randn", "shape": [3, 2], "seed": 7}
    assert evaluate(spec_of(app)).value("R").shape == (3, 2)


def test_adding_a_constant_gives_a_node_without_gradient(app):
    _add(app, "const")
    app.number_input(key=VALUE_NUMBER).set_value(10.0)
    _submit_add(app, "k")
    assert spec_of(app)["k"].kind == "const"
    assert evaluate(spec_of(app)).grad("k") is None


def test_adding_a_binary_operation_uses_the_chosen_operands(app):
    app.selectbox(key=keys.ADD_OP).set_value("mul")
    run(app)
    app.selectbox(key=keys.add_operand(2, 0)).set_value("d")
    app.selectbox(key=keys.add_operand(2, 1)).set_value("b")
    _submit_add(app, "L")
    spec = spec_of(app)
    assert (spec["L"].op, spec["L"].operands) == ("mul", ("d", "b"))
    result = evaluate(spec)
    assert result.output == "L"
    assert result.value("L") == pytest.approx(24.0)  # d * b = 8 * 3
    assert result.grad("a") == pytest.approx(12.0)  # b * (b + 1)


def test_adding_a_reduction_passes_its_axis_attribute(app):
    app.text_area(key=keys.EXPR_TEXT).input("W = [[1.0, 2.0], [3.0, 4.0]]\n")
    app.button(key=keys.EXPR_APPLY).click()
    run(app)
    app.selectbox(key=keys.ADD_OP).set_value("sum")
    run(app)
    app.selectbox(key=keys.add_operand(1, 0)).set_value("W")
    app.multiselect(key=keys.attr(keys.ADD_ATTR, "sum", "axis")).set_value([0])
    app.checkbox(key=keys.attr(keys.ADD_ATTR, "sum", "keepdims")).check()
    _submit_add(app, "s")
    node = spec_of(app)["s"]
    assert node.attrs == {"axis": 0, "keepdims": True}
    np.testing.assert_allclose(evaluate(spec_of(app)).value("s"), [[4.0, 6.0]])


def test_adding_an_op_with_a_bad_shape_shows_the_error_and_keeps_the_graph(app):
    before = spec_of(app)
    app.selectbox(key=keys.ADD_OP).set_value("reshape")
    run(app)
    app.number_input(key=keys.entry(keys.attr(keys.ADD_ATTR, "reshape", "shape"), 0)).set_value(3)
    _submit_add(app, "r")
    assert spec_of(app) == before
    assert any("reshape" in e for e in errors_of(app)), errors_of(app)


def test_a_valid_expression_replaces_the_graph(app):
    app.text_area(key=keys.EXPR_TEXT).input("x = 3.0\ny = x * x\n")
    app.button(key=keys.EXPR_APPLY).click()
    run(app)
    result = evaluate(spec_of(app))
    assert spec_of(app).names == ("x", "y")
    assert result.grad("x") == pytest.approx(6.0)
    assert "grad 6.0000" in drawing_of(app).text


def test_an_invalid_expression_shows_line_and_column_and_keeps_the_last_graph(app):
    before = spec_of(app)
    app.text_area(key=keys.EXPR_TEXT).input("x = 3.0\ny = x *\n")
    app.button(key=keys.EXPR_APPLY).click()
    run(app)
    assert spec_of(app) == before
    assert any(e.startswith("line 2") for e in errors_of(app)), errors_of(app)
    assert app.text_area(key=keys.EXPR_TEXT).value == "x = 3.0\ny = x *\n"  # the typing stays
    assert "a" in drawing_of(app).names


def test_undo_and_redo_step_through_edits(app):
    _add(app, "input")
    _submit_add(app, "e")
    assert "e" in spec_of(app)
    app.button(key=keys.UNDO).click()
    run(app)
    assert "e" not in spec_of(app)
    app.button(key=keys.REDO).click()
    run(app)
    assert "e" in spec_of(app)


def test_renaming_a_node_renames_its_uses(app):
    app.selectbox(key=keys.EDIT_NODE).set_value("c")
    run(app)
    app.text_input(key=keys.EDIT_NEW_NAME).input("product")
    app.button(key=keys.EDIT_RENAME).click()
    run(app)
    spec = spec_of(app)
    assert "c" not in spec
    assert spec["d"].operands == ("product", "a")


def test_changing_a_value_changes_the_gradients(app):
    app.selectbox(key=keys.EDIT_NODE).set_value("b")
    run(app)
    app.number_input(key=keys.value_part(keys.edit_value("b"), "number")).set_value(5.0)
    app.button(key=keys.EDIT_SET_VALUE).click()
    run(app)
    assert evaluate(spec_of(app)).grad("a") == pytest.approx(6.0)  # b + 1


def test_deleting_a_used_node_names_its_dependents_and_needs_consent(app):
    app.selectbox(key=keys.EDIT_NODE).set_value("a")
    run(app)
    assert any("`c`, `d`" in from_markdown(w.value) for w in app.warning)
    assert app.button(key=keys.EDIT_DELETE).disabled
    app.checkbox(key=keys.EDIT_CASCADE).check()
    run(app)
    app.button(key=keys.EDIT_DELETE).click()
    run(app)
    assert spec_of(app).names == ("b",)


def test_choosing_another_output_changes_the_gradients(app):
    app.selectbox(key=keys.OUTPUT).set_value("c")
    run(app)
    assert spec_of(app).output == "c"
    assert evaluate(spec_of(app)).grad("a") == pytest.approx(3.0)  # dc/da = b
    assert "grad 3.0000" in drawing_of(app).text


def test_loading_a_preset_from_the_sidebar_replaces_the_graph(app):
    other = next(p for p in presets.PRESETS if p.key != presets.DEFAULT_KEY)
    app.selectbox(key=keys.PRESET).set_value(other.key)
    run(app)
    assert spec_of(app) == other.spec
    assert app.selectbox(key=keys.PRESET).value is None  # the picker is a menu, not a state


def test_an_emptied_graph_leaves_every_page_usable(app):
    for name in ("a", "b"):
        app.selectbox(key=keys.EDIT_NODE).set_value(name)
        run(app)
        if name == "a":
            app.checkbox(key=keys.EDIT_CASCADE).check()
            run(app)
        app.button(key=keys.EDIT_DELETE).click()
        run(app)
    assert len(spec_of(app)) == 0
    assert any("empty" in i.value for i in app.info)
    for page in (GRAPH, GRADIENTS, GRADIENT_CHECK):
        open_page(app, page)
        assert any("empty" in i.value for i in app.info)
    open_page(app, BUILD)
    _add(app, "input")
    _submit_add(app, "x")
    assert spec_of(app).names == ("x",)


def test_the_value_editor_starts_from_the_nodes_value_and_refuses_a_broken_list():
    at = start(query={"graph": share.encode(presets.get("vectors").spec)})
    at.selectbox(key=keys.EDIT_NODE).set_value("a")
    run(at)
    a_list = keys.value_part(keys.edit_value("a"), "list")
    box = at.text_input(key=a_list)
    assert box.value == "[2.0, 3.0]"
    box.input("[1.0, 2.0")
    at.button(key=keys.EDIT_SET_VALUE).click()
    run(at)
    assert spec_of(at)["a"].value == [2.0, 3.0]
    assert any("column 1: this is not valid syntax ('[' was never closed)" in e
               for e in errors_of(at)), errors_of(at)
    assert at.text_input(key=a_list).value == "[1.0, 2.0"  # the typing stays
    at.text_input(key=a_list).input("[1.0, 1.0]")
    at.button(key=keys.EDIT_SET_VALUE).click()
    run(at)
    assert spec_of(at)["a"].value == [1.0, 1.0]
    assert not errors_of(at)
    np.testing.assert_allclose(evaluate(spec_of(at)).grad("a"), [12.0, 10.0])  # b * w


TWO_MATRICES = (
    "R = randn(4, 1, 3, seed=2)\n"  # rows of 3: cross; 4 first: unflatten to (2, 2), 4 channels
    "K4 = [[[[0.5]], [[-1.0]]], [[[0.2]], [[0.3]]]]\ncols = randn(1, 8, 4, seed=5)\n"
    "v = [0.5, -1.0]\nS = [[[0.2, 0.7], [0.4, 0.9]], [[0.1, 0.5], [0.3, 0.6]]]\n"
    "I = const([[1.0, 0.0], [0.0, 1.0]])\n"  # before t, A and B: the defaults stay theirs
    "t = const([0.0, 1.0])\nA = [[0.2, 0.7], [0.4, 0.9]]\nB = [[0.1, 0.5], [0.3, 0.6]]\n"
)
CHOSEN = {"A", "B", "v", "S", "K4", "cols", "R"}
"""The nodes an op is added on (t and I are constants that only index, mask or shift)."""
NOT_DEFAULTS = {  # the ops whose default operands do not make a valid node: operand choices
    "cross_entropy": {keys.add_operand(2, 1): "t"},  # class indices, not a matrix
    "nll_loss": {keys.add_operand(2, 1): "t"},
    "scaled_dot_product_attention": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "B",
                                     keys.add_operand(3, 2): "B"},  # (L, E), (S, E), (S, Ev)
    "prelu": {keys.add_operand(2, 1): "t"},  # a weight per channel: 1-D
    "linear": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "B",
               keys.add_operand(3, 2): "t"},  # x, W, and a bias b of W's rows
    "bmm": {keys.add_operand(2, 0): "S", keys.add_operand(2, 1): "S"},  # 3-D batches
    "mv": {keys.add_operand(2, 0): "A", keys.add_operand(2, 1): "v"},  # a matrix and a vector
    "baddbmm": {keys.add_operand(3, 0): "S", keys.add_operand(3, 1): "S",
                keys.add_operand(3, 2): "S"},
    "dot": {keys.add_operand(2, 0): "v", keys.add_operand(2, 1): "v"},  # vectors
    "outer": {keys.add_operand(2, 0): "v", keys.add_operand(2, 1): "v"},
    "gather": {keys.add_operand(2, 1): "I"},  # an index of whole numbers
    "masked_fill": {keys.add_operand(2, 1): "I"},  # a mask of 0s and 1s
    "scatter_add": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "I",
                    keys.add_operand(3, 2): "B"},
    # images: S is one 2 x 2 image of 2 channels, K4 two 1 x 1 filters, cols unfold's columns
    "conv1d": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "S",
               keys.add_operand(3, 2): "v"},  # A: 2 channels of length 2, S: 2 filters
    "conv2d": {keys.add_operand(3, 0): "S", keys.add_operand(3, 1): "K4",
               keys.add_operand(3, 2): "v"},
    **{op: {keys.add_operand(1, 0): "S"} for op in ("max_pool2d", "avg_pool2d",
                                                    "adaptive_avg_pool2d", "unfold")},
    "fold": {keys.add_operand(1, 0): "cols"},
    "conv_transpose2d": {keys.add_operand(3, 0): "S", keys.add_operand(3, 1): "K4",
                         keys.add_operand(3, 2): "v"},  # S: 2 channels; K4: 2 in, 2 out
    "conv_transpose1d": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "S",
                         keys.add_operand(3, 2): "v"},  # A: 2 channels; S: 2 in, 2 out, k 2
    "cosine_embedding_loss": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "B",
                              keys.add_operand(3, 2): "t"},  # rows of A and B, one target each
    "gaussian_nll_loss": {keys.add_operand(3, 0): "A", keys.add_operand(3, 1): "B",
                          keys.add_operand(3, 2): "B"},  # B's positive entries as variances
    "index_select": {keys.add_operand(2, 1): "t"},  # a 1-D index
    "take_along_dim": {keys.add_operand(2, 1): "I"},
    "unflatten": {keys.add_operand(1, 0): "R"},  # the form offers sizes (2, 2), B's shape
    "cross": {keys.add_operand(2, 0): "R", keys.add_operand(2, 1): "R"},
    "pixel_shuffle": {keys.add_operand(1, 0): "R"},  # 4 channels: 2² per output channel
    **{op: {keys.add_operand(1, 0): "S"} for op in ("interpolate", "pixel_unshuffle",
                                                    "instance_norm", "local_response_norm")},
}


@pytest.mark.parametrize("op", list(OPS))
def test_every_registry_op_can_be_added_through_the_form(op):
    at = start(query={"graph": share.encode(parse(TWO_MATRICES))})
    at.selectbox(key=keys.ADD_OP).set_value(op)
    run(at)
    if op in NOT_DEFAULTS:
        for key, operand in NOT_DEFAULTS[op].items():
            at.selectbox(key=key).set_value(operand)
        run(at)
    _submit_add(at, "new")
    assert not errors_of(at), errors_of(at)
    node = spec_of(at)["new"]
    assert node.op == op
    assert CHOSEN & set(node.operands)
    assert evaluate(spec_of(at)).value("new").size > 0


def test_every_attribute_type_of_the_registry_has_a_widget():
    assert set(node_widgets.ATTR_WIDGETS) == set(ATTR_TYPES)


def test_the_clip_form_starts_from_the_unit_interval_and_adds_a_valid_node():
    at = start(query={"graph": share.encode(parse("x = [-1.0, 0.5, 2.0]\n"))})
    at.selectbox(key=keys.ADD_OP).set_value("clip")
    run(at)
    assert at.checkbox(key=keys.attr_on(keys.attr(keys.ADD_ATTR, "clip", "min"))).value
    assert at.checkbox(key=keys.attr_on(keys.attr(keys.ADD_ATTR, "clip", "max"))).value
    _submit_add(at, "y")
    assert not errors_of(at), errors_of(at)
    assert spec_of(at)["y"].attrs == {"min": 0.0, "max": 1.0}
    np.testing.assert_array_equal(evaluate(spec_of(at)).value("y"), [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(evaluate(spec_of(at)).grad("x"), [0.0, 1.0, 0.0])


def test_clip_with_both_bounds_unset_is_refused_in_the_form_with_the_reason():
    at = start(query={"graph": share.encode(parse("x = [-1.0, 0.5, 2.0]\n"))})
    at.selectbox(key=keys.ADD_OP).set_value("clip")
    run(at)
    at.checkbox(key=keys.attr_on(keys.attr(keys.ADD_ATTR, "clip", "min"))).uncheck()
    at.checkbox(key=keys.attr_on(keys.attr(keys.ADD_ATTR, "clip", "max"))).uncheck()
    run(at)
    _submit_add(at, "y")
    assert "y" not in spec_of(at)
    assert any("clip needs at least one of `min` and `max`" in e for e in errors_of(at)), (
        errors_of(at)
    )


def test_the_operation_list_is_grouped_by_family_and_searchable_by_it(app):
    open_page(app, BUILD)
    box = app.selectbox(key=keys.ADD_OP)
    labels = box.options
    assert len(labels) == len(OPS)
    assert "activation · tanh — " in next(label for label in labels if " · tanh — " in label)
    families = [label.split(" · ")[0] for label in labels]
    assert families == [FAMILY[name] for name in BY_FAMILY]
    assert families[:1] == ["arithmetic"] and sorted(set(families)) == sorted(set(FAMILY.values()))
    # one family's ops sit together, so the list reads as groups
    assert all(families.index(f) + families.count(f) - 1 == len(families) - 1
               - families[::-1].index(f) for f in set(families))
    box.set_value("tanh")
    run(app)
    assert app.selectbox(key=keys.ADD_OP).value == "tanh"


def test_a_label_typed_as_a_list_is_named_on_build_as_an_input_with_a_gradient():
    spec = parse("x = [1.0, 2.0, 3.0]\ny = [1.0, 0.0, 0.0]\nL = mse_loss(softmax(x, axis=-1), y)")
    at = start({"graph": share.encode(spec)})
    note = next(i.value for i in at.info if "loss's target" in i.value)
    assert note.startswith("`y` is an input") and "const(" in note


def test_a_neuron_built_after_new_graph_stands_alone(app):
    new_graph(app)
    for name, number in (("x", 2.0), ("w", -3.0)):
        app.segmented_control(key=keys.ADD_KIND).set_value("input")
        run(app)
        app.number_input(key=keys.value_part(keys.ADD_VALUE, "number")).set_value(number)
        app.text_input(key=keys.ADD_NAME).input(name)
        app.button(key=keys.ADD_GO).click()
        run(app)
    app.segmented_control(key=keys.ADD_KIND).set_value("op")
    run(app)
    app.selectbox(key=keys.ADD_OP).set_value("mul")
    run(app)
    app.text_input(key=keys.ADD_NAME).input("xw")
    app.button(key=keys.ADD_GO).click()
    run(app)
    assert spec_of(app).names == ("x", "w", "xw")  # no a, b, c, d beside it


def test_undo_brings_back_a_node_deleted_with_its_dependents():
    at = start()
    at.selectbox(key=keys.EDIT_NODE).set_value("a")
    run(at)
    at.checkbox(key=keys.EDIT_CASCADE).check()
    run(at)
    at.button(key=keys.EDIT_DELETE).click()
    run(at)
    assert spec_of(at).names == ("b",)  # c and d used a, so they went with it
    at.button(key=keys.UNDO).click()
    run(at)
    assert spec_of(at) == DEFAULT
    at.button(key=keys.REDO).click()
    run(at)
    assert spec_of(at).names == ("b",)


def test_a_delete_without_its_dependents_is_refused_and_nothing_goes():
    at = start()
    at.selectbox(key=keys.EDIT_NODE).set_value("a")
    run(at)
    assert at.button(key=keys.EDIT_DELETE).disabled  # its users must go too, or stay
    at.checkbox(key=keys.EDIT_CASCADE).check()
    run(at)
    assert not at.button(key=keys.EDIT_DELETE).disabled
    assert not errors_of(at) and spec_of(at) == DEFAULT



def test_a_fresh_tabs_first_run_draws_build_whole():
    at = start(painted=False)  # its forms are used at once: no follow-up run to wait for
    assert [t.label for t in at.tabs] == ["Add a node", "Expression", "Edit a node",
                                          "Import JSON"]
