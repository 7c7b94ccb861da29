"""The Graph page in AppTest: the drawing's numbers and output, its downloads, display options,
layout and font size, and the browser's own layout where Graphviz is missing."""

from __future__ import annotations

import shutil

import pytest
from app_helpers import (
    GRAPH,
    drawing_of,
    new_app,
    open_page,
    run,
    start,
)

from pages.ui import keys
from playground import limits, parse, presets, share


def test_graph_page_draws_values_and_gradients_and_highlights_the_output(app):
    open_page(app, GRAPH)
    drawn = drawing_of(app)
    assert drawn.texts("d") == ["d", "scalar", "value 8.0000", "grad 1.0000"]
    assert drawn.role("d") == "output"
    assert "grad 4.0000" in drawn.texts("a")


def test_graph_page_offers_every_download_made_only_when_pressed():
    at = run(new_app(page=GRAPH))
    labels = {b.label: b for b in at.get("download_button")}
    assert set(labels) == {"DOT", "JSON", "Expression", "PyTorch"}
    assert all(b.proto.deferred_file_id and not b.proto.url for b in labels.values())


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot program")
def test_the_svg_file_is_laid_out_only_when_asked_for():
    at = run(new_app(page=GRAPH))
    at.button(key=keys.DOWNLOAD + "make_svg").click()
    run(at)
    svg = {b.label: b for b in at.get("download_button")}["SVG"]
    assert svg.proto.url and not svg.proto.disabled


@pytest.mark.parametrize(("show", "present", "absent"), [
    ("value", "value 2.0000", "grad 4.0000"),
    ("grad", "grad 4.0000", "value 2.0000"),
])
def test_display_option_picks_the_numbers_on_each_node(app, show, present, absent):
    open_page(app, GRAPH)
    app.segmented_control(key=keys.SHOW).set_value(show)
    run(app)
    assert present in drawing_of(app).text
    assert absent not in drawing_of(app).text


def test_layout_and_font_size_reach_the_drawing(app):
    open_page(app, GRAPH)
    app.segmented_control(key=keys.RANKDIR).set_value("TB")
    app.slider(key=keys.FONT).set_value(24)
    run(app)
    assert drawing_of(app).layouts == ("TB",)
    assert drawing_of(app).font_size == 24


def test_auto_layout_sends_both_directions_full_then_compact_for_the_browser_to_fit():
    mlp = share.encode(presets.get("mlp").spec)
    small = run(new_app(page=GRAPH))
    assert drawing_of(small).layouts == ("LR", "TB")  # the browser keeps the one that fits
    assert drawing_of(small).variants == (("LR", False), ("TB", False), ("LR", True),
                                          ("TB", True))
    large = run(new_app(query={"graph": mlp}, page=GRAPH))  # across may fit a wide screen
    assert drawing_of(large).layouts == ("LR", "TB")
    chosen = run(new_app(query={"graph": mlp, "dir": "LR"}, page=GRAPH))
    assert drawing_of(chosen).layouts == ("LR",)


def test_a_bigger_font_keeps_both_layouts_and_reaches_every_record(app):
    open_page(app, GRAPH)
    app.slider(key=keys.FONT).set_value(24)
    run(app)
    assert drawing_of(app).layouts == ("LR", "TB") and drawing_of(app).font_size == 24
    app.segmented_control(key=keys.RANKDIR).set_value("LR")
    run(app)
    assert drawing_of(app).layouts == ("LR",) and drawing_of(app).font_size == 24


def test_without_graphviz_the_browser_draws_the_dot_source(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda _: None)
    unseen = parse("no_dot = 1.5\nsquared = no_dot * no_dot\n")  # an SVG nobody cached yet
    at = run(new_app(query={"graph": share.encode(unseen)}, page=GRAPH))
    charts = at.get("graphviz_chart")
    assert len(charts) == 1 and not at.main.get("bidi_component")
    assert "rankdir=TB" in charts[0].proto.spec and "grad 3.0000" in charts[0].proto.spec


def test_a_drawing_over_the_servers_share_is_laid_out_by_the_browser(monkeypatch):
    monkeypatch.setattr(limits, "MAX_DRAWN_SHAPES", 5)  # the default graph has 6 shapes
    at = run(new_app(page=GRAPH))
    assert len(at.get("graphviz_chart")) == 1 and not at.main.get("bidi_component")


def test_showing_values_only_hides_every_gradient_on_the_graph_page():
    at = start({"graph": share.encode(presets.get("classic").spec), "show": "value"},
               page=GRAPH)
    assert "grad" not in drawing_of(at).svg  # records and hover text alike
    text = next(t.value for t in at.text if "value 8.0000" in t.value)  # the graph as text
    assert "grad" not in text
    sidebar = " ".join(c.value for c in at.sidebar.caption)
    assert "∂d/∂a" not in sidebar and "Values" in sidebar
