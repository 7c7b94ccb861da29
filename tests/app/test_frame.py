"""What every page shares (pages/ui/frame.py): navigation through the entry script, the sidebar's
New graph, state across pages and sessions (the URL carries the graph and options, broken links
say why), and every page drawing the default or an empty graph without an error."""

from __future__ import annotations

import sys
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from app_helpers import (
    BACKPROP,
    BUILD,
    GRADIENT_CHECK,
    GRADIENTS,
    GRAPH,
    GRAPH_PAGES,
    PAGES,
    ROOT,
    TIMEOUT_S,
    TRAIN,
    drawing_of,
    errors_of,
    new_app,
    new_graph,
    open_page,
    run,
    share_link_of,
    spec_of,
)
from streamlit.testing.v1 import AppTest

from pages.ui import frame, keys
from playground import GraphSpec, Node, edits, limits, parse, presets, share, view
from playground.errors import from_markdown
from playground.view import Options

OTHER = parse("x = 3.0\nw = -2.0\ny = tanh(x * w)\n")


def test_a_graph_survives_switching_through_every_page(app):
    app.text_area(key=keys.EXPR_TEXT).input("x = 3.0\nw = -2.0\ny = tanh(x * w)\n")
    app.button(key=keys.EXPR_APPLY).click()
    run(app)
    for page in (GRAPH, GRADIENTS, GRADIENT_CHECK,
                 BUILD):
        open_page(app, page)
        assert spec_of(app) == OTHER
    assert "y" in drawing_of(app).names


def test_the_url_always_holds_the_current_graph(app):
    assert share.decode(app.query_params["graph"]) == spec_of(app)
    app.selectbox(key=keys.OUTPUT).set_value("c")
    run(app)
    assert share.decode(app.query_params["graph"]).output == "c"


def test_a_share_link_opens_the_same_graph_in_a_new_session():
    at = run(new_app(query={"graph": share.encode(OTHER)}))
    assert spec_of(at) == OTHER
    assert "y" in drawing_of(at).names


def test_a_share_link_opens_on_any_page():
    at = run(new_app(query={"graph": share.encode(OTHER)}, page=GRAPH))
    assert at.title[0].value == "Graph"
    assert spec_of(at) == OTHER


def test_a_share_link_reproduces_output_and_display_options():
    chosen = edits.set_output(OTHER, "x")  # not the last node
    query = {"graph": share.encode(chosen), "show": "grad", "dir": "TB", "font": "22"}
    at = run(new_app(query=query, page=GRAPH))
    assert spec_of(at).output == "x"
    drawn = drawing_of(at)
    assert drawn.layouts == ("TB",) and drawn.font_size == 22 and "value " not in drawn.text
    assert at.segmented_control(key=keys.SHOW).value == "grad"


def test_changing_display_options_writes_them_into_the_url(app):
    app.segmented_control(key=keys.SHOW).set_value("grad")
    app.toggle(key=keys.COMPACT).set_value(True)
    run(app)
    assert app.query_params["show"] == "grad"
    assert app.query_params["compact"] == "1"
    copy = run(new_app(query=dict(app.query_params)))
    assert copy.session_state[keys.OPTIONS] == app.session_state[keys.OPTIONS]


def test_a_broken_link_says_what_is_wrong_and_falls_back_to_the_default_graph():
    at = run(new_app(query={"graph": "not-a-real-link"}))
    assert spec_of(at) == presets.get(presets.DEFAULT_KEY).spec
    assert any("could not be opened" in e for e in errors_of(at)), errors_of(at)
    assert share.decode(at.query_params["graph"]) == spec_of(at)  # the URL is repaired


def test_bad_display_options_in_a_link_are_ignored_with_a_warning():
    at = run(new_app(query={"graph": share.encode(OTHER), "font": "900", "dir": "sideways"}))
    assert spec_of(at) == OTHER
    warnings = [from_markdown(w.value) for w in at.warning]
    assert any("font='900'" in w and "dir='sideways'" in w for w in warnings)
    assert at.session_state[keys.OPTIONS].font_size == 14


def test_the_sidebar_copy_link_reopens_the_same_graph_and_view(app):
    app.selectbox(key=keys.OUTPUT).set_value("c")
    app.segmented_control(key=keys.RANKDIR).set_value("TB")
    run(app)
    link = share_link_of(app)
    query = dict(parse_qsl(urlsplit(link).query))
    copy = run(new_app(query=query))
    assert spec_of(copy) == spec_of(app)
    assert copy.session_state[keys.OPTIONS].rankdir == "TB"


def test_a_graph_too_big_for_a_link_is_offered_as_a_json_file_instead(app):
    numbers = np.random.default_rng(0).standard_normal(20_000).tolist()
    big = GraphSpec([Node.input("x", numbers), Node.operation("y", "sum", "x")])
    assert len(share.encode(big)) > limits.MAX_SHARE_CHARS
    app.text_area(key=keys.IMPORT_TEXT).set_value(big.to_json())
    app.button(key=keys.IMPORT_GO).click()
    run(app)
    assert spec_of(app) == big
    assert [i.value for i in app.sidebar.info] == [view.LINK_TOO_LONG]  # instead of the link
    assert [d.proto.label for d in app.sidebar.get("download_button")] == ["JSON"]
    assert "graph" not in app.query_params  # nor in the address bar
    app.button(key=keys.UNDO).click()
    run(app)
    assert share.decode(app.query_params["graph"]) == presets.get(presets.DEFAULT_KEY).spec
    assert not app.sidebar.info and not app.sidebar.get("download_button")


@pytest.mark.parametrize(("key", "junk"), [
    ("font", "²"),  # "²".isdigit() is True, and int("²") raises
    ("font", "9" * 5_000),  # int() refuses more than 4,300 digits
    ("show", "x" * 5_000),
    ("dir", "²"),
    ("compact", "9" * 5_000),
])
def test_junk_in_a_display_parameter_falls_back_to_the_default_and_the_session_keeps_working(
    key, junk
):
    at = run(new_app(query={"graph": share.encode(OTHER), key: junk}))
    assert spec_of(at) == OTHER
    assert at.session_state[keys.OPTIONS] == Options()
    warnings = [from_markdown(w.value) for w in at.warning]
    assert any(w.startswith(f"Ignored link settings: {key}=") for w in warnings), warnings
    assert all(len(w) < 200 for w in warnings)  # the junk is quoted short
    assert key not in at.query_params  # the address bar is a clean share link again
    at.slider(key=keys.FONT).set_value(24)
    run(at)
    assert at.session_state[keys.OPTIONS].font_size == 24
    assert drawing_of(at).font_size == 24
    assert not at.warning  # said once


def test_a_font_size_whose_change_callback_streamlit_skipped_is_taken_not_written_back():
    """Streamlit may cut a run short for a newer request before the slider's callback runs (a
    quick run of key presses): the slider then holds the user's value and the options an older
    one. The next run takes the slider's value instead of writing the older one back over it."""
    at = run(new_app())
    assert at.session_state[keys.OPTIONS].font_size == 14
    at.session_state[keys.FONT] = 22  # the widget's value moved; no callback ran
    run(at)
    assert at.slider(key=keys.FONT).value == 22
    assert at.session_state[keys.OPTIONS].font_size == 22
    assert drawing_of(at).font_size == 22
    at.session_state[keys.OPTIONS] = Options(font_size=18)  # a link or Undo moves the options
    run(at)
    assert at.slider(key=keys.FONT).value == 18  # the app's change reaches the slider


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


@pytest.mark.parametrize("page", GRAPH_PAGES)
def test_every_graph_page_draws_the_default_graph_without_errors(page):
    at = run(new_app(page=page))
    assert spec_of(at) == presets.get(presets.DEFAULT_KEY).spec
    assert not at.error
    assert at.title[0].value in ("Build", "Graph", "Gradients", "Gradient check")


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
