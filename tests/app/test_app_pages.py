"""The Graph, Gradients and Gradient check pages in AppTest, on the default graph and presets."""

import shutil
import sys

import pytest
from app_helpers import (
    GRADIENT_CHECK,
    GRADIENTS,
    GRAPH,
    GRAPH_PAGES,
    PAGES,
    ROOT,
    TIMEOUT_S,
    drawing_of,
    new_app,
    open_page,
    run,
    spec_of,
    start,
)
from streamlit.testing.v1 import AppTest

from pages.ui import frame, keys
from playground import limits, parse, presets, share
from playground.evaluate import evaluate

PRESET_KEYS = [p.key for p in presets.PRESETS]


@pytest.mark.parametrize("page", GRAPH_PAGES)
def test_every_graph_page_draws_the_default_graph_without_errors(page):
    at = run(new_app(page=page))
    assert spec_of(at) == presets.get(presets.DEFAULT_KEY).spec
    assert not at.error
    assert at.title[0].value in ("Build", "Graph", "Gradients", "Gradient check")


def test_the_first_run_in_a_process_imports_every_page_module_and_freezes_and_later_runs_do_not(
        monkeypatch):
    frame.prepare_process.clear()
    calls = []
    monkeypatch.setattr(frame, "freeze_shared_objects", lambda: calls.append(1))
    run(new_app())
    run(new_app(page=GRAPH))
    assert calls == [1]
    assert {"pages.ui.training", "playground.training.pace", "playground.registry.losses"} <= set(
        sys.modules)
    frame.prepare_process.clear()


@pytest.mark.parametrize(("page", "title"),
                         list(zip(PAGES, [t for _, t, _ in frame.PAGES], strict=True)))
def test_every_page_runs_through_the_entry_script(monkeypatch, page, title):
    """Every run, also a session's first on a page other than the default one (which Streamlit's
    legacy mode starts with the page file alone), draws the page from `navigation.py`."""
    entered = []
    run_app = frame.run_app
    monkeypatch.setattr(frame, "run_app", lambda: (entered.append(True), run_app()))
    at = run(new_app(page=page))
    assert entered and at.title[0].value == title
    entered.clear()
    run(at)
    assert entered and at.title[0].value == title
    assert len(at.title) == 1  # drawn once, not once alone and once inside the frame


def test_a_page_file_given_as_the_main_script_draws_its_frame_without_rerunning_forever():
    at = AppTest.from_file(str(ROOT / GRAPH), default_timeout=TIMEOUT_S)
    for _ in range(2):
        run(at)
        assert [t.value for t in at.title] == ["Graph"]
        assert spec_of(at) == presets.get(presets.DEFAULT_KEY).spec
        assert "grad 4.0000" in drawing_of(at).text


def test_the_only_scripts_in_pages_are_the_apps_pages():
    """Streamlit's legacy mode lists every script directly in pages/ as a page (on a fresh
    server's first request): helpers live in pages/ui/, where it does not look."""
    scripts = sorted(p.name for p in frame.PAGE_DIR.glob("*.py"))
    assert scripts == sorted(file for file, _, _ in frame.PAGES)


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


@pytest.mark.parametrize("key", PRESET_KEYS)
def test_gradient_check_passes_on_every_preset_that_stays_finite(key):
    preset = presets.get(key)
    at = run(new_app(query={"graph": share.encode(preset.spec)}, page=GRADIENT_CHECK))
    table = at.dataframe[0].value
    assert len(table) == sum(n.array().size for n in preset.spec.nodes if n.kind == "input")
    if evaluate(preset.spec).flags:  # the naive softmax overflows on purpose: NaN fails
        assert not table["passed"].any()
        assert "differ from the finite-difference estimate" in at.error[0].value
    else:
        assert table["passed"].all(), table[~table["passed"]]
        assert at.success[0].value.startswith(f"All {len(table)} elements match")


def test_a_too_large_epsilon_fails_the_check_with_truncation_error():
    neuron = share.encode(presets.get("neuron").spec)
    at = start(query={"graph": neuron}, page=GRADIENT_CHECK)
    assert at.dataframe[0].value["passed"].all()
    at.select_slider(key=keys.EPS_WIDGET).set_value(1e-1)
    run(at)
    assert at.session_state[keys.EPS] == 1e-1
    table = at.dataframe[0].value
    assert table["abs_error"].max() > 1e-3  # tanh's curvature over a step of 0.1
    assert not table["passed"].all()
    assert "differ from the finite-difference estimate" in at.error[0].value


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
