"""Nothing lost in AppTest: Undo brings back what a delete took, dependents included, and a
failed edit keeps the graph (the browser, reload, restart and back: tests/e2e)."""

from app_helpers import errors_of, run, spec_of, start

from pages.ui import keys
from playground import presets

DEFAULT = presets.get(presets.DEFAULT_KEY).spec


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
