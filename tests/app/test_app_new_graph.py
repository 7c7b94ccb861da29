"""New graph: the sidebar's button empties the graph as an edit Undo takes back, every page says
what to do with an empty graph instead of failing, and the Build form grows a neuron from it
alone (not beside the classic graph)."""

from __future__ import annotations

from app_helpers import BUILD, GRADIENT_CHECK, GRADIENTS, GRAPH, open_page, run, spec_of

from pages.ui import keys
from playground import presets

BACKPROP, TRAIN = "pages/backprop.py", "pages/train.py"


def new_graph(at):
    at.button(key=keys.NEW_GRAPH).click()
    return run(at)


def test_new_graph_empties_the_graph_and_undo_brings_the_last_one_back(app):
    new_graph(app)
    assert len(spec_of(app)) == 0
    infos = " ".join(i.value for i in app.info)
    assert "The graph is empty" in infos and "Undo" in infos
    assert app.button(key=keys.NEW_GRAPH).disabled  # already empty
    app.button(key=keys.UNDO).click()
    run(app)
    assert spec_of(app) == presets.get(presets.DEFAULT_KEY).spec
    app.button(key=keys.REDO).click()
    run(app)
    assert len(spec_of(app)) == 0


def test_every_page_handles_the_empty_graph_with_a_message_not_an_error(app):
    new_graph(app)
    for page in (GRAPH, GRADIENTS, GRADIENT_CHECK, BACKPROP, TRAIN, BUILD):
        open_page(app, page)  # run() fails on any exception the page raised
        assert not app.error, (page, [e.value for e in app.error])
        messages = " ".join(i.value for i in app.info) + " ".join(m.value for m in app.markdown)
        if page != TRAIN:  # Train trains its own models, whatever the graph
            assert "empty" in messages, page


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
