"""The Build page in AppTest: the default graph, the add-node form, the expression editor, edits."""

import numpy as np
import pytest
from app_helpers import dot_of, errors_of, open_page, run, spec_of, start

from pages import _widgets
from playground import parse, presets, share
from playground.evaluate import evaluate
from playground.registry import ATTR_TYPES, OPS


def _add(at, kind):
    at.segmented_control(key="add_kind").set_value(kind)
    run(at)
    return at


def _submit_add(at, name):
    at.text_input(key="add_name").input(name)
    at.button(key="add_go").click()
    return run(at)


def test_app_opens_on_the_default_preset_with_a_gradient_of_4_on_a(app):
    assert spec_of(app) == presets.get(presets.DEFAULT_KEY).spec
    dot = dot_of(app)
    assert '"a" [shape=record, label="{ a | scalar | value 2.0000 | grad 4.0000 }"' in dot
    assert '"b" [shape=record, label="{ b | scalar | value 3.0000 | grad 2.0000 }"' in dot
    assert app.title[0].value == "Build"


def test_default_graph_gradients_are_the_tutorials_numbers(app):
    result = evaluate(spec_of(app))
    assert result.output == "d"
    assert result.grad("a") == pytest.approx(4.0)
    assert result.grad("b") == pytest.approx(2.0)
    assert result.value("d") == pytest.approx(8.0)


def test_adding_an_input_with_a_number_puts_it_in_the_graph(app):
    _add(app, "input")
    app.number_input(key="add_value_number").set_value(5.5)
    _submit_add(app, "e")
    node = spec_of(app)["e"]
    assert (node.kind, node.value) == ("input", 5.5)
    assert '"e"' in dot_of(app)


def test_adding_an_input_with_a_nested_list_keeps_its_shape(app):
    _add(app, "input")
    app.segmented_control(key="add_value_mode").set_value("list")
    run(app)
    app.text_input(key="add_value_list").input("[[1, 2], [3, 4]]")
    _submit_add(app, "W")
    node = spec_of(app)["W"]
    assert node.value == [[1.0, 2.0], [3.0, 4.0]]
    assert node.shape == (2, 2)


def test_a_list_that_is_not_a_value_is_refused_with_its_column_and_the_typing_stays(app):
    before = spec_of(app)
    _add(app, "input")
    app.segmented_control(key="add_value_mode").set_value("list")
    run(app)
    app.text_input(key="add_value_list").input("[[1, 2], [3, x]]")
    _submit_add(app, "W")
    assert spec_of(app) == before
    assert any(e.startswith("line 1, column 14: `x` — this is not a number")
               for e in errors_of(app)), errors_of(app)
    assert app.text_input(key="add_value_list").value == "[[1, 2], [3, x]]"
    assert app.text_input(key="add_name").value == "W"


def test_adding_a_seeded_generator_input_builds_the_chosen_shape(app):
    _add(app, "input")
    app.segmented_control(key="add_value_mode").set_value("generator")
    run(app)
    app.selectbox(key="add_value_fn").set_value("randn")
    app.number_input(key="add_value_shape_n").set_value(2)
    run(app)
    app.number_input(key="add_value_shape_0").set_value(3)
    app.number_input(key="add_value_shape_1").set_value(2)
    app.number_input(key="add_value_seed").set_value(7)
    _submit_add(app, "R")
    assert spec_of(app)["R"].value == {"fn": "randn", "shape": [3, 2], "seed": 7}
    assert evaluate(spec_of(app)).value("R").shape == (3, 2)


def test_adding_a_constant_gives_a_node_without_gradient(app):
    _add(app, "const")
    app.number_input(key="add_value_number").set_value(10.0)
    _submit_add(app, "k")
    assert spec_of(app)["k"].kind == "const"
    assert evaluate(spec_of(app)).grad("k") is None


def test_adding_a_binary_operation_uses_the_chosen_operands(app):
    app.selectbox(key="add_op").set_value("mul")
    run(app)
    app.selectbox(key="add_operand_2_0").set_value("d")
    app.selectbox(key="add_operand_2_1").set_value("b")
    _submit_add(app, "L")
    spec = spec_of(app)
    assert (spec["L"].op, spec["L"].operands) == ("mul", ("d", "b"))
    result = evaluate(spec)
    assert result.output == "L"
    assert result.value("L") == pytest.approx(24.0)  # d * b = 8 * 3
    assert result.grad("a") == pytest.approx(12.0)  # b * (b + 1)


def test_adding_a_reduction_passes_its_axis_attribute(app):
    app.text_area(key="expr_text").input("W = [[1.0, 2.0], [3.0, 4.0]]\n")
    app.button(key="expr_apply").click()
    run(app)
    app.selectbox(key="add_op").set_value("sum")
    run(app)
    app.selectbox(key="add_operand_1_0").set_value("W")
    app.multiselect(key="add_attr_sum_axis").set_value([0])
    app.checkbox(key="add_attr_sum_keepdims").check()
    _submit_add(app, "s")
    node = spec_of(app)["s"]
    assert node.attrs == {"axis": 0, "keepdims": True}
    np.testing.assert_allclose(evaluate(spec_of(app)).value("s"), [[4.0, 6.0]])


def test_adding_an_op_with_a_bad_shape_shows_the_error_and_keeps_the_graph(app):
    before = spec_of(app)
    app.selectbox(key="add_op").set_value("reshape")
    run(app)
    app.number_input(key="add_attr_reshape_shape_0").set_value(3)
    _submit_add(app, "r")
    assert spec_of(app) == before
    assert any("reshape" in e for e in errors_of(app)), errors_of(app)


def test_a_valid_expression_replaces_the_graph(app):
    app.text_area(key="expr_text").input("x = 3.0\ny = x * x\n")
    app.button(key="expr_apply").click()
    run(app)
    result = evaluate(spec_of(app))
    assert spec_of(app).names == ("x", "y")
    assert result.grad("x") == pytest.approx(6.0)
    assert "grad 6.0000" in dot_of(app)


def test_an_invalid_expression_shows_line_and_column_and_keeps_the_last_graph(app):
    before = spec_of(app)
    app.text_area(key="expr_text").input("x = 3.0\ny = x *\n")
    app.button(key="expr_apply").click()
    run(app)
    assert spec_of(app) == before
    assert any(e.startswith("line 2") for e in errors_of(app)), errors_of(app)
    assert app.text_area(key="expr_text").value == "x = 3.0\ny = x *\n"  # the typing stays
    assert '"a"' in dot_of(app)


def test_undo_and_redo_step_through_edits(app):
    _add(app, "input")
    _submit_add(app, "e")
    assert "e" in spec_of(app)
    app.button(key="w_undo").click()
    run(app)
    assert "e" not in spec_of(app)
    app.button(key="w_redo").click()
    run(app)
    assert "e" in spec_of(app)


def test_renaming_a_node_renames_its_uses(app):
    app.selectbox(key="edit_target").set_value("c")
    run(app)
    app.text_input(key="edit_new_name").input("product")
    app.button(key="edit_rename").click()
    run(app)
    spec = spec_of(app)
    assert "c" not in spec
    assert spec["d"].operands == ("product", "a")


def test_changing_a_value_changes_the_gradients(app):
    app.selectbox(key="edit_target").set_value("b")
    run(app)
    app.number_input(key="edit_value_b_number").set_value(5.0)
    app.button(key="edit_set_value").click()
    run(app)
    assert evaluate(spec_of(app)).grad("a") == pytest.approx(6.0)  # b + 1


def test_deleting_a_used_node_names_its_dependents_and_needs_consent(app):
    app.selectbox(key="edit_target").set_value("a")
    run(app)
    assert any("`c`, `d`" in w.value for w in app.warning)
    assert app.button(key="edit_delete").disabled
    app.checkbox(key="edit_cascade").check()
    run(app)
    app.button(key="edit_delete").click()
    run(app)
    assert spec_of(app).names == ("b",)


def test_choosing_another_output_changes_the_gradients(app):
    app.selectbox(key="w_output").set_value("c")
    run(app)
    assert spec_of(app).output == "c"
    assert evaluate(spec_of(app)).grad("a") == pytest.approx(3.0)  # dc/da = b
    assert "grad 3.0000" in dot_of(app)


def test_loading_a_preset_from_the_sidebar_replaces_the_graph(app):
    other = next(p for p in presets.PRESETS if p.key != presets.DEFAULT_KEY)
    app.selectbox(key="w_preset").set_value(other.key)
    run(app)
    assert spec_of(app) == other.spec
    assert app.selectbox(key="w_preset").value is None  # the picker is a menu, not a state


def test_an_emptied_graph_leaves_every_page_usable(app):
    for name in ("a", "b"):
        app.selectbox(key="edit_target").set_value(name)
        run(app)
        if name == "a":
            app.checkbox(key="edit_cascade").check()
            run(app)
        app.button(key="edit_delete").click()
        run(app)
    assert len(spec_of(app)) == 0
    assert any("empty" in i.value for i in app.info)
    for page in ("pages/graph.py", "pages/gradients.py", "pages/gradient_check.py"):
        open_page(app, page)
        assert any("empty" in i.value for i in app.info)
    open_page(app, "pages/build.py")
    _add(app, "input")
    _submit_add(app, "x")
    assert spec_of(app).names == ("x",)


def test_the_value_editor_starts_from_the_nodes_value_and_refuses_a_broken_list():
    at = start(query={"graph": share.encode(presets.get("vectors").spec)})
    at.selectbox(key="edit_target").set_value("a")
    run(at)
    box = at.text_input(key="edit_value_a_list")
    assert box.value == "[2.0, 3.0]"
    box.input("[1.0, 2.0")
    at.button(key="edit_set_value").click()
    run(at)
    assert spec_of(at)["a"].value == [2.0, 3.0]
    assert any("column 1: this is not valid syntax ('[' was never closed)" in e
               for e in errors_of(at)), errors_of(at)
    assert at.text_input(key="edit_value_a_list").value == "[1.0, 2.0"  # the typing stays
    at.text_input(key="edit_value_a_list").input("[1.0, 1.0]")
    at.button(key="edit_set_value").click()
    run(at)
    assert spec_of(at)["a"].value == [1.0, 1.0]
    assert not errors_of(at)
    np.testing.assert_allclose(evaluate(spec_of(at)).grad("a"), [12.0, 10.0])  # b * w


TWO_MATRICES = "t = const([0.0, 1.0])\nA = [[0.2, 0.7], [0.4, 0.9]]\nB = [[0.1, 0.5], [0.3, 0.6]]\n"
NOT_DEFAULTS = {  # the ops whose default operands do not make a valid node, and the fix
    "cross_entropy": ("selectbox", "add_operand_2_1", "t"),  # class indices, not a matrix
}


@pytest.mark.parametrize("op", list(OPS))
def test_every_registry_op_can_be_added_through_the_form(op):
    at = start(query={"graph": share.encode(parse(TWO_MATRICES))})
    at.selectbox(key="add_op").set_value(op)
    run(at)
    if op in NOT_DEFAULTS:
        widget, key, value = NOT_DEFAULTS[op]
        getattr(at, widget)(key=key).set_value(value)
        run(at)
    _submit_add(at, "new")
    assert not errors_of(at), errors_of(at)
    node = spec_of(at)["new"]
    assert node.op == op
    assert "A" in node.operands or "B" in node.operands
    assert evaluate(spec_of(at)).value("new").size > 0


def test_every_attribute_type_of_the_registry_has_a_widget():
    assert set(_widgets._ATTR_WIDGETS) == set(ATTR_TYPES)


def test_the_clip_form_starts_from_the_unit_interval_and_adds_a_valid_node():
    at = start(query={"graph": share.encode(parse("x = [-1.0, 0.5, 2.0]\n"))})
    at.selectbox(key="add_op").set_value("clip")
    run(at)
    assert at.checkbox(key="add_attr_clip_min_on").value
    assert at.checkbox(key="add_attr_clip_max_on").value
    _submit_add(at, "y")
    assert not errors_of(at), errors_of(at)
    assert spec_of(at)["y"].attrs == {"min": 0.0, "max": 1.0}
    np.testing.assert_array_equal(evaluate(spec_of(at)).value("y"), [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(evaluate(spec_of(at)).grad("x"), [0.0, 1.0, 0.0])


def test_clip_with_both_bounds_unset_is_refused_in_the_form_with_the_reason():
    at = start(query={"graph": share.encode(parse("x = [-1.0, 0.5, 2.0]\n"))})
    at.selectbox(key="add_op").set_value("clip")
    run(at)
    at.checkbox(key="add_attr_clip_min_on").uncheck()
    at.checkbox(key="add_attr_clip_max_on").uncheck()
    run(at)
    _submit_add(at, "y")
    assert "y" not in spec_of(at)
    assert any("clip needs at least one of `min` and `max`" in e for e in errors_of(at)), (
        errors_of(at)
    )
