"""State across pages and sessions: the URL carries the graph and options; broken links say why."""

from urllib.parse import parse_qsl, urlsplit

from app_helpers import dot_of, errors_of, new_app, open_page, run, spec_of

from playground import edits, parse, presets, share

OTHER = parse("x = 3.0\nw = -2.0\ny = tanh(x * w)\n")


def test_a_graph_survives_switching_through_every_page(app):
    app.text_area(key="expr_text").input("x = 3.0\nw = -2.0\ny = tanh(x * w)\n")
    app.button(key="expr_apply").click()
    run(app)
    for page in ("pages/graph.py", "pages/gradients.py", "pages/gradient_check.py",
                 "pages/build.py"):
        open_page(app, page)
        assert spec_of(app) == OTHER
    assert '"y"' in dot_of(app)


def test_the_url_always_holds_the_current_graph(app):
    assert share.decode(app.query_params["graph"]) == spec_of(app)
    app.selectbox(key="w_output").set_value("c")
    run(app)
    assert share.decode(app.query_params["graph"]).output == "c"


def test_a_share_link_opens_the_same_graph_in_a_new_session():
    at = run(new_app(query={"graph": share.encode(OTHER)}))
    assert spec_of(at) == OTHER
    assert '"y"' in dot_of(at)


def test_a_share_link_opens_on_any_page():
    at = run(new_app(query={"graph": share.encode(OTHER)}, page="pages/graph.py"))
    assert at.title[0].value == "Graph"
    assert spec_of(at) == OTHER


def test_a_share_link_reproduces_output_and_display_options():
    chosen = edits.set_output(OTHER, "x")  # not the last node
    query = {"graph": share.encode(chosen), "show": "grad", "dir": "TB", "font": "22"}
    at = run(new_app(query=query, page="pages/graph.py"))
    assert spec_of(at).output == "x"
    dot = dot_of(at)
    assert "rankdir=TB" in dot and "fontsize=22" in dot and "value " not in dot
    assert at.segmented_control(key="w_show").value == "grad"


def test_changing_display_options_writes_them_into_the_url(app):
    app.segmented_control(key="w_show").set_value("grad")
    app.toggle(key="w_compact").set_value(True)
    run(app)
    assert app.query_params["show"] == "grad"
    assert app.query_params["compact"] == "1"
    copy = run(new_app(query=dict(app.query_params)))
    assert copy.session_state["pg_options"] == app.session_state["pg_options"]


def test_a_broken_link_says_what_is_wrong_and_falls_back_to_the_default_graph():
    at = run(new_app(query={"graph": "not-a-real-link"}))
    assert spec_of(at) == presets.get(presets.DEFAULT_KEY).spec
    assert any("could not be opened" in e for e in errors_of(at)), errors_of(at)
    assert share.decode(at.query_params["graph"]) == spec_of(at)  # the URL is repaired


def test_bad_display_options_in_a_link_are_ignored_with_a_warning():
    at = run(new_app(query={"graph": share.encode(OTHER), "font": "900", "dir": "sideways"}))
    assert spec_of(at) == OTHER
    assert any("font='900'" in w.value and "dir='sideways'" in w.value for w in at.warning)
    assert at.session_state["pg_options"].font_size == 14


def test_the_sidebar_copy_link_reopens_the_same_graph_and_view(app):
    app.selectbox(key="w_output").set_value("c")
    app.segmented_control(key="w_rankdir").set_value("TB")
    run(app)
    link = app.sidebar.code[0].value
    query = dict(parse_qsl(urlsplit(link).query))
    copy = run(new_app(query=query))
    assert spec_of(copy) == spec_of(app)
    assert copy.session_state["pg_options"].rankdir == "TB"
