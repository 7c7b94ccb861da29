"""Pure edits of a spec and the undo/redo history."""

import pytest

from playground import limits
from playground.edits import (
    History,
    add_node,
    delete,
    dependents,
    fresh_name,
    rename,
    set_output,
    set_value,
)
from playground.errors import SpecError
from playground.expr import parse
from playground.spec import GraphSpec, Node

# a=2, b=3, c=a*b, d=c+a, e=tanh(b) — d depends on a twice (directly and through c).
BASE = parse("a = 2.0\nb = 3.0\nc = a * b\nd = c + a\ne = tanh(b)")


def test_add_node_appends_and_leaves_the_original_alone():
    spec = add_node(BASE, Node.operation("f", "mul", "d", "e"))
    assert spec.names == ("a", "b", "c", "d", "e", "f")
    assert BASE.names == ("a", "b", "c", "d", "e")


def test_add_node_refuses_a_taken_name_and_suggests_a_free_one():
    with pytest.raises(SpecError, match="the name `c` is taken; try `c_1`"):
        add_node(BASE, Node.input("c", 1.0))


def test_add_node_refuses_an_operand_that_is_not_there():
    with pytest.raises(SpecError, match="operand `z` is not a node"):
        add_node(BASE, Node.operation("f", "neg", "z"))


def test_rename_updates_every_operand_and_the_output():
    spec = rename(set_output(BASE, "c"), "c", "product")
    assert spec.names == ("a", "b", "product", "d", "e")
    assert spec["d"].operands == ("product", "a")
    assert spec.output == "product"


def test_rename_to_the_same_name_changes_nothing():
    assert rename(BASE, "a", "a") is BASE


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ("a", "b", "the name `b` is taken by another node"),
        ("a", "1a", "`1a` is not a valid name"),
        ("a", "tanh", "`tanh` is an op"),
        ("z", "y", "there is no node named `z`"),
    ],
)
def test_rename_refuses_bad_names(old, new, fragment):
    with pytest.raises(SpecError) as info:
        rename(BASE, old, new)
    assert fragment in str(info.value)


def test_set_value_changes_a_leaf_and_checks_the_value():
    spec = set_value(BASE, "a", [1, 2])
    assert spec["a"].value == [1.0, 2.0]
    with pytest.raises(SpecError, match="node `a`: the nested list is ragged"):
        set_value(BASE, "a", [[1], [1, 2]])


def test_set_value_on_an_op_node_explains_why_not():
    with pytest.raises(SpecError, match="`c` is an op node; its value comes from its operands"):
        set_value(BASE, "c", 1.0)


def test_set_output_chooses_and_clears():
    assert set_output(BASE, "c").output == "c"
    assert set_output(set_output(BASE, "c"), None).output is None
    with pytest.raises(SpecError, match="there is no node named `q`"):
        set_output(BASE, "q")


def test_dependents_are_transitive_and_in_graph_order():
    assert dependents(BASE, "a") == ("c", "d")
    assert dependents(BASE, "b") == ("c", "d", "e")
    assert dependents(BASE, "d") == ()


def test_delete_without_dependents_removes_one_node():
    assert delete(BASE, "e").names == ("a", "b", "c", "d")


def test_delete_names_the_dependents_unless_cascading():
    with pytest.raises(SpecError) as info:
        delete(BASE, "b")
    assert str(info.value) == (
        "node `b`: `c`, `d`, `e` use this node; delete them too (cascade) or change their "
        "operands first"
    )
    assert info.value.node == "b"
    assert delete(BASE, "b", cascade=True).names == ("a",)


def test_delete_clears_a_deleted_output():
    assert delete(set_output(BASE, "d"), "d").output is None
    assert delete(set_output(BASE, "a"), "e").output == "a"


def test_fresh_name_numbers_like_the_parser_and_avoids_taken_and_reserved_names():
    spec = add_node(BASE, Node.operation("tanh_1", "neg", "a"))
    assert fresh_name(spec, "tanh") == "tanh_2"
    assert fresh_name(spec, "x") == "x_1"
    assert fresh_name(spec, "my node!") == "my_node__1"
    assert fresh_name(spec, "2nd") == "n2nd_1"
    assert fresh_name(spec, "") == "node_1"
    Node.input(fresh_name(spec, "é" * 100), 1.0)


def test_history_undoes_and_redoes_in_order():
    one, two, three = BASE, delete(BASE, "e"), delete(delete(BASE, "e"), "d")
    history = History(one).push(two).push(three)
    assert history.current == three and history.can_undo and not history.can_redo
    history = history.undo()
    assert history.current == two and history.can_redo
    history = history.undo()
    assert history.current == one and not history.can_undo
    assert history.undo() is history
    history = history.redo().redo()
    assert history.current == three and not history.can_redo
    assert history.redo() is history


def test_pushing_after_undo_drops_the_redo_branch():
    history = History(BASE).push(delete(BASE, "e")).undo().push(set_output(BASE, "a"))
    assert not history.can_redo
    assert history.undo().current == BASE


def test_pushing_the_current_spec_records_nothing():
    history = History(BASE)
    assert history.push(parse(BASE.to_text())) is history


def test_history_keeps_a_bounded_number_of_steps():
    history = History(GraphSpec.empty())
    for i in range(limits.MAX_HISTORY + 20):
        history = history.push(GraphSpec([Node.input("x", float(i))]))
    assert len(history.past) == limits.MAX_HISTORY
    while history.can_undo:
        history = history.undo()
    assert history.current["x"].value == 19.0


def test_an_input_used_only_as_a_loss_target_is_named():
    from playground import parse
    from playground.edits import inputs_used_as_targets

    typed = "x = [1.0, 2.0, 3.0]\ny = [1.0, 0.0, 0.0]\nL = mse_loss(softmax(x, axis=-1), y)"
    assert inputs_used_as_targets(parse(typed)) == ("y",)
    assert inputs_used_as_targets(parse(typed.replace("y = [", "y = const(["
                                                      ).replace("0.0]\n", "0.0])\n"))) == ()
    assert inputs_used_as_targets(parse(typed + " + sum(y)")) == ()  # used otherwise too
