"""playground.selection: what a browser sends back is checked before use, and never raises."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground import selection

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8)
SIZES = {"train": 140, "test": 60}


@pytest.mark.parametrize("value, expected", [
    (3, 3), (3.0, 3), (-2, -2), (True, None), (2.5, None), (math.nan, None), (math.inf, None),
    ("3", None), ([3], None), (None, None), (10**30, 10**30),
])
def test_whole_number(value, expected):
    assert selection.whole_number(value) == expected


@pytest.mark.parametrize("points, expected", [
    ([{"split": "train", "index": 3}], ("train", 3)),
    ([{"split": "test", "index": 59.0}], ("test", 59)),
    ([{"split": "test", "index": 60}], None),
    ([{"split": "train", "index": -1}], None),
    ([{"split": "train", "index": "abc"}], None),
    ([{"split": "train", "index": 1e999}], None),
    ([{"split": "train", "index": [1]}], None),
    ([{"split": "train", "index": 10**6}], None),
    ([{"split": "zzz", "index": 0}], None),
    ([{"split": ["train"], "index": 0}], None),
    ([{"index": 0}], None), ([], None), ("train", None), ([5], None), ({"split": "train"}, None),
])
def test_chosen_point(points, expected):
    assert selection.chosen_point(points, SIZES) == expected


def test_rows_names_options_and_clicks():
    assert selection.chosen_row([2], 3) == 2
    assert selection.chosen_row([3], 3) is None
    assert selection.chosen_row(["abc"], 3) is None
    assert selection.chosen_row("0", 3) is None
    assert selection.chosen_name("a", ["a", "b"]) == "a"
    assert selection.chosen_name(["a"], ["a", "b"]) is None
    assert selection.chosen_option(25, (1, 25)) == 25
    assert selection.chosen_option(25.0, (1, 25)) is None
    assert selection.chosen_option(True, (1, 25)) is None
    assert selection.chosen_option([1], (1, 25)) is None
    assert selection.drawn_node({"node": "b"}, {"a", "b"}) == "b"
    assert selection.drawn_node({"node": ["b"]}, {"a", "b"}) is None
    assert selection.drawn_node("b", {"a", "b"}) is None


@given(JSONISH)
def test_nothing_a_browser_sends_makes_a_check_raise(value):
    selection.chosen_point(value, SIZES)
    selection.chosen_point([value], SIZES)
    selection.chosen_point([{"split": "train", "index": value}], SIZES)
    selection.chosen_row(value, 5)
    selection.chosen_name(value, {"a"})
    selection.chosen_option(value, (1, 5, "a"))
    selection.drawn_node(value, {"a"})
    selection.drawn_node({"node": value}, {"a"})
