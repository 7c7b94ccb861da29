"""The view model: display options, their URL parameters, the layout rule and the share query."""

import itertools
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground import GraphSpec, Node, limits, parse, presets, share, view
from playground.view import Options, options_from_query

ALL_OPTIONS = [
    Options(show, rankdir, font, compact)
    for show, rankdir, font, compact in itertools.product(
        view.SHOW_LABELS, view.RANKDIR_LABELS, (view.FONT_SIZES[0], 14, 22, view.FONT_SIZES[1]),
        (False, True),
    )
]


def test_default_options_write_no_parameters():
    assert Options().to_query() == {}


def test_only_options_that_differ_from_the_defaults_get_a_parameter():
    assert Options(show="grad", font_size=22).to_query() == {"show": "grad", "font": "22"}
    assert Options(rankdir="TB", compact=True).to_query() == {"dir": "TB", "compact": "1"}


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=repr)
def test_every_options_value_reads_back_from_its_parameters(options):
    assert options_from_query(options.to_query()) == (options, [])


def test_absent_parameters_take_their_defaults():
    assert options_from_query({}) == (Options(), [])
    assert options_from_query(dict.fromkeys(view.QUERY_KEYS)) == (Options(), [])


@pytest.mark.parametrize(("key", "value", "advice"), [
    ("font", "900", "font='900' (use a whole number from 10 to 40)"),
    ("font", "9", "font='9'"),
    ("font", "²", "font='²'"),  # str.isdigit() says yes, int() says no
    ("font", "１４", "font='１４'"),  # full-width digits: int() reads them, a link should not
    ("font", "-14", "font='-14'"),
    ("font", "14.0", "font='14.0'"),
    ("font", "", "font=''"),
    ("dir", "sideways", "dir='sideways' (use auto, LR, TB)"),
    ("show", "everything", "show='everything' (use one of both, value, grad)"),
    ("compact", "yes", "compact='yes' (use 0 or 1)"),
])
def test_a_parameter_that_is_not_allowed_keeps_the_default_and_says_what_is(key, value, advice):
    options, ignored = options_from_query({key: value})
    assert options == Options()
    assert len(ignored) == 1 and ignored[0].startswith(advice), ignored


def test_a_huge_parameter_is_refused_and_quoted_short():
    for key in ("font", "show", "dir", "compact"):
        options, ignored = options_from_query({key: "9" * 5_000})
        assert options == Options()
        assert len(ignored[0]) < view.ECHO_CHARS + 60, ignored[0]
        assert "…" in ignored[0]


def test_good_parameters_are_kept_beside_bad_ones():
    options, ignored = options_from_query({"font": "²", "dir": "TB", "show": "nope"})
    assert options == Options(rankdir="TB")
    assert [line.split("=")[0] for line in ignored] == ["show", "font"]


@given(st.dictionaries(st.sampled_from(view.QUERY_KEYS), st.text(max_size=200)))
def test_reading_any_parameters_never_raises(query):
    options, ignored = options_from_query(query)
    assert view.FONT_SIZES[0] <= options.font_size <= view.FONT_SIZES[1]
    assert options.show in view.SHOW_LABELS and options.rankdir in view.RANKDIR_LABELS
    assert all(isinstance(line, str) for line in ignored)


@pytest.mark.parametrize(("options", "n_nodes", "variants"), [
    # auto: both directions, full drawings first, then their compact forms for the browser to
    # fall back on when the full drawing's text would be too small once fitted
    (Options(), 4, (("LR", False), ("TB", False), ("LR", True), ("TB", True))),
    (Options(font_size=40), 4, (("LR", False), ("TB", False), ("LR", True), ("TB", True))),
    (Options(rankdir="LR"), 50, (("LR", False), ("LR", True))),  # a chosen direction is kept
    (Options(rankdir="TB", compact=True), 1, (("TB", True),)),  # so is a chosen compact
    (Options(), view.LARGE_GRAPH + 1, (("LR", True), ("TB", True))),  # crowded: compact only
])
def test_auto_layout_offers_both_directions_full_then_compact(options, n_nodes, variants):
    assert options.variants(n_nodes) == variants
    assert options.layouts() == tuple(dict.fromkeys(r for r, _ in variants))


def test_a_large_graph_is_crowded_until_the_drawing_is_compact():
    assert not Options().crowded(view.LARGE_GRAPH)
    assert Options().crowded(view.LARGE_GRAPH + 1)
    assert not Options(compact=True).crowded(view.LARGE_GRAPH + 1)


def test_the_share_query_holds_the_graph_and_the_options_that_differ():
    spec = parse("x = 3.0\ny = x * x\n")
    query = view.share_query(spec, Options(show="grad"))
    assert set(query) == {"graph", "show"}
    assert share.decode(query["graph"]) == spec
    assert options_from_query(query) == (Options(show="grad"), [])


def test_a_graph_whose_link_no_one_could_open_is_left_out_of_the_share_query():
    numbers = np.random.default_rng(0).standard_normal(20_000).tolist()
    spec = GraphSpec([Node.input("x", numbers)])
    assert len(share.encode(spec)) > limits.MAX_SHARE_CHARS
    assert view.share_query(spec, Options(show="grad")) == {"show": "grad"}
    assert "longer than the 32,000 characters a link may have" in view.LINK_TOO_LONG
    fits = GraphSpec([Node.input("x", numbers[:500])])
    assert share.decode(view.share_query(fits, Options())["graph"]) == fits


def test_the_apps_parameters_are_picked_out_of_a_url_query():
    params = {"graph": "v1.x", "font": "20", "utm_source": "mail"}
    assert view.app_query(params) == {
        "graph": "v1.x", "show": None, "dir": None, "font": "20", "compact": None, "ex": None
    }


def test_a_url_is_a_new_link_only_when_it_differs_from_what_the_app_wrote():
    written = view.app_query(view.share_query(presets.get(presets.DEFAULT_KEY).spec, Options()))
    assert not view.is_new_link(written, written)
    assert not view.is_new_link(view.app_query({}), written)  # a page switch dropped them
    other = view.app_query({**written, "font": "22"})
    assert view.is_new_link(other, written)
    assert view.is_new_link(other, None)  # nothing written yet


def test_query_updates_touch_only_what_differs():
    params = {"graph": "v1.a", "font": "20", "show": "grad", "utm_source": "mail"}
    wanted = {"graph": "v1.a", "dir": "TB"}
    updates, removals = view.query_updates(params, wanted)
    assert updates == {"dir": "TB"}
    assert sorted(removals) == ["font", "show"]  # never someone else's parameter
    assert view.query_updates(wanted, wanted) == ({}, [])


@pytest.mark.parametrize(("field", "value"), [
    ("show", "evil"), ("show", None), ("rankdir", "sideways"), ("font_size", 1000),
    ("font_size", 9), ("font_size", True), ("font_size", 20.5), ("compact", "1"),
    ("compact", None), ("zoom", 3),
])
def test_a_forged_option_value_leaves_the_options_as_they_were(field, value):
    assert view.changed(Options(), field, value) == Options()


@pytest.mark.parametrize(("field", "value"), [
    ("show", "grad"), ("rankdir", "TB"), ("font_size", 40), ("font_size", 10), ("compact", True),
])
def test_an_allowed_option_value_is_taken(field, value):
    assert getattr(view.changed(Options(), field, value), field) == value


def test_the_page_text_grows_with_the_font_size_above_the_default_only():
    assert view.page_scale(14) == 1.0
    assert view.page_scale(10) == 1.0  # a small drawing font never shrinks the page's text
    assert view.page_scale(28) == 2.0
    assert view.page_style(14) == view.page_style(10) == ""
    style = view.page_style(28)
    assert "html:root { font-size: 32.0px; }" in style
    assert "min(600px, 33vw)" in style  # the sidebar widens with its text


def test_the_page_style_is_a_fixed_sheet_of_numbers_for_every_allowed_font_size():
    """Nothing from a link reaches it: only allowed Font sizes, and each gives a stylesheet
    whose only variable parts are numbers."""
    for font in range(view.FONT_SIZES[0], view.FONT_SIZES[1] + 1):
        style = view.page_style(font)
        skeleton = re.sub(r"[0-9.]+", "N", style)
        assert skeleton in ("", re.sub(r"[0-9.]+", "N", view.page_style(view.FONT_SIZES[1])))
    for bad in (9, 41, "28", 28.0, True, None):
        with pytest.raises(ValueError):
            view.page_style(bad)
