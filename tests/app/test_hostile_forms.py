"""Stale and forged form requests: a form's fields changed in the same request as its button.

A browser sends every changed widget together with a button press, so a stale page (two tabs, a
slow connection) or a forged request can press "Add node" for a form the page no longer shows.
Each gets the form's own message, never a traceback, and the graph stays as it was.
"""

import pytest
from app_helpers import errors_of, run, spec_of, start

from pages.ui import keys

STALE = "the form changed as its button was pressed"
VALUE = keys.ADD_VALUE


def _changed_with_the_press(at, change, button):
    """Apply `change` to the widgets and press `button` in one request, as a browser would."""
    before = spec_of(at)
    change(at)
    at.button(key=button).click()
    run(at)
    assert spec_of(at) == before
    return errors_of(at)


def _input_kind(at):
    at.segmented_control(key=keys.ADD_KIND).set_value("input")
    run(at)


def _kind(kind):
    """A change of the Add form's kind of node to `kind` (input, op, const)."""
    return lambda at: at.segmented_control(key=keys.ADD_KIND).set_value(kind)


def _op(op):
    """A change of the Add form's operation to `op`."""
    return lambda at: at.selectbox(key=keys.ADD_OP).set_value(op)


def _mode(mode):
    """A change of how the Add form's value is given to `mode` (number, list, generator)."""
    return lambda at: at.segmented_control(key=keys.value_part(VALUE, "mode")).set_value(mode)


def _edited(name):
    """A change of the Edit form's node to `name`."""
    return lambda at: at.selectbox(key=keys.EDIT_NODE).set_value(name)


def _generator_value(at):
    _input_kind(at)
    at.segmented_control(key=keys.value_part(VALUE, "mode")).set_value("generator")
    run(at)


CASES = {
    "kind from operation to input": (
        None, _kind("input"),
        keys.ADD_GO, "the kind of node"),
    "kind from input to operation": (
        _input_kind, _kind("op"),
        keys.ADD_GO, "the kind of node"),
    "kind from input to constant": (
        _input_kind, _kind("const"),
        keys.ADD_GO, "the kind of node"),
    "operation from add to sum": (
        None, _op("sum"),
        keys.ADD_GO, "the operation"),
    "operation from add to reshape": (
        None, _op("reshape"),
        keys.ADD_GO, "the operation"),
    "operation from add to stack": (
        None, _op("stack"),
        keys.ADD_GO, "the operation"),
    "value from number to list": (
        _input_kind, _mode("list"),
        keys.ADD_GO, "the nested list"),
    "value from number to generator": (
        _input_kind, _mode("generator"),
        keys.ADD_GO, "the generator"),
    "shape count from 2 to 4": (
        _generator_value,
        lambda at: at.number_input(key=keys.count(keys.value_part(VALUE, "shape"))).set_value(4),
        keys.ADD_GO, "shape[2]"),
    "generator from randn to full": (
        _generator_value,
        lambda at: at.selectbox(key=keys.value_part(VALUE, "fn")).set_value("full"),
        keys.ADD_GO, "the fill value"),
    "edited node from a to d, then Set value": (
        lambda at: (at.selectbox(key=keys.EDIT_NODE).set_value("a"), run(at)),
        _edited("d"),
        keys.EDIT_SET_VALUE, "the node"),
    "edited node from d to a, then Delete": (
        None, _edited("a"),
        keys.EDIT_DELETE, "the node"),
    "edited node from d to b, then Rename": (
        None,
        lambda at: (at.selectbox(key=keys.EDIT_NODE).set_value("b"),
                    at.text_input(key=keys.EDIT_NEW_NAME).input("bee")),
        keys.EDIT_RENAME, "the node"),
    "edited node from d to c, then Make output": (
        lambda at: (at.selectbox(key=keys.EDIT_NODE).set_value("a"), run(at)),
        _edited("c"),
        keys.EDIT_OUTPUT, "the node"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_form_changed_with_its_button_press_gets_the_forms_message(case):
    prepare, change, button, what = CASES[case]
    at = start()
    if prepare is not None:
        prepare(at)
    errors = _changed_with_the_press(at, change, button)
    assert errors == [f"{STALE} ({what} is not what the page showed); check the fields and press "
                      "the button again"]


def test_after_the_stale_message_the_form_works_on_the_next_press():
    at = start()
    at.segmented_control(key=keys.ADD_KIND).set_value("input")
    at.button(key=keys.ADD_GO).click()
    run(at)
    at.number_input(key=keys.value_part(VALUE, "number")).set_value(7.0)
    at.text_input(key=keys.ADD_NAME).input("seven")
    at.button(key=keys.ADD_GO).click()
    run(at)
    assert spec_of(at)["seven"].value == 7.0
    assert not errors_of(at)
