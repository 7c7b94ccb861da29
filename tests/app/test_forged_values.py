"""Forged widget and selection values, as a hand-made websocket message can send them (any type,
any size, in any widget's or chart's state): each is checked before use (playground.selection),
so the page changes nothing and shows no exception. The browser's own widgets never send them.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from app_helpers import GRADIENTS, TRAIN, new_app, run, start
from streamlit.proto.WidgetStates_pb2 import WidgetState

from pages.ui import keys
from playground.training import TrainSettings


def _element(at, key: str):
    for node in at._tree:
        if getattr(node, "key", None) == key and getattr(node, "proto", None) is not None:
            return node
    raise AssertionError(f"no element with key {key!r}")


def forge(at, key: str, **value):
    """Rerun with widget `key`'s state replaced by `value` (one WidgetState field, such as
    string_value='...'), as a forged websocket message would carry it."""
    widget_id = _element(at, key).proto.id
    states = at._tree.get_widget_states()
    kept = [w for w in states.widgets if w.id != widget_id]
    del states.widgets[:]
    states.widgets.extend(kept)
    state = WidgetState(id=widget_id)
    for field, v in value.items():
        if field.endswith("array_value"):
            getattr(state, field).data.extend(v)
        else:
            setattr(state, field, v)
    states.widgets.append(state)
    at._run(states)
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_train():
    """A session on the Train page drawn whole (its first run draws the controls alone)."""
    return run(start(page=TRAIN))


def _pick(points: str) -> str:
    return '{"selection": {"pick": ' + points + "}}"


FORGED_PICKS = {
    "index text": _pick('[{"split": "train", "index": "abc"}]'),
    "index 1e999": _pick('[{"split": "train", "index": 1e999}]'),
    "index NaN": _pick('[{"split": "train", "index": NaN}]'),
    "index list": _pick('[{"split": "train", "index": [1]}]'),
    "index 10**6": _pick('[{"split": "train", "index": 1000000}]'),
    "index -1": _pick('[{"split": "train", "index": -1}]'),
    "index true": _pick('[{"split": "train", "index": true}]'),
    "index 2.5": _pick('[{"split": "train", "index": 2.5}]'),
    "split zzz": _pick('[{"split": "zzz", "index": 0}]'),
    "split test, hidden": _pick('[{"split": "test", "index": 0}]'),
    "split list": _pick('[{"split": ["train"], "index": 0}]'),
    "no split": _pick('[{"index": 0}]'),
    "pick text": _pick('"x"'),
    "pick number": _pick("[5]"),
    "pick object": _pick('{"split": "train", "index": 3}'),
    "selection a list": '{"selection": []}',
    "no selection": "[1]",
}


@pytest.mark.parametrize("forged", list(FORGED_PICKS))
def test_a_forged_point_selection_on_the_train_chart_changes_nothing(forged):
    at = open_train()
    forge(at, keys.TRAIN_BOUNDARY, string_value=FORGED_PICKS[forged])
    assert at.session_state[keys.TRAIN_SAMPLE] == ("train", 0)
    at.button(key=keys.TRAIN_OPEN_GRAPH).click()
    run(at)


def test_a_real_point_selection_chooses_the_point():
    at = open_train()
    forge(at, keys.TRAIN_BOUNDARY, string_value=_pick('[{"split": "train", "index": 3.0}]'))
    assert at.session_state[keys.TRAIN_SAMPLE] == ("train", 3)


@pytest.mark.parametrize("index", [10**6, -5])
def test_a_point_number_outside_the_set_changes_nothing(index):
    at = open_train()
    forge(at, keys.TRAIN_SAMPLE_INDEX, int_value=index)
    assert at.session_state[keys.TRAIN_SAMPLE] == ("train", 0)
    at.button(key=keys.TRAIN_OPEN_GRAPH).click()
    run(at)


FORGED_SETTINGS = {
    "data set zzz": (keys.train_setting("dataset"), {"string_value": "zzz"}),
    "activation <script>": (keys.train_setting("activation"),
                            {"string_value": "<script>alert(1)</script>"}),
    "loss []": (keys.train_setting("loss"), {"string_value": "[]"}),
}
"""Values that reach the page's callbacks outside their choices: nothing changes."""
CLAMPED_SETTINGS = {
    "noise 10**9": (keys.train_setting("noise"), {"double_array_value": [1e9]}),
    "seed -1": (keys.train_setting("seed"), {"int_value": -1}),
    "hidden layers 10**12": (keys.train_setting("layers"), {"int_value": 10**12}),
    "hidden layers -3": (keys.train_setting("layers"), {"int_value": -3}),
    "units 10**6": (keys.train_setting("units_0"), {"int_value": 10**6}),
}
"""Values Streamlit itself brings back within the widget's bounds before the page sees them."""
UNREADABLE = {
    "seed NaN": (TRAIN, keys.train_setting("seed"), {"double_value": float("nan")}),
    "units NaN": (TRAIN, keys.train_setting("units_0"), {"double_value": float("nan")}),
    "chart selection text": (TRAIN, keys.TRAIN_BOUNDARY,
                             {"string_value": '{"selection": "pick"}'}),
    "output 2**62": (None, keys.OUTPUT, {"int_value": 2**62}),
    "output NaN": (None, keys.OUTPUT, {"double_value": float("nan")}),
    "output a list of strings": (None, keys.OUTPUT, {"string_array_value": ["a", "b"]}),
}
"""Values Streamlit cannot read into the widget's type: it raises before any page code runs."""


@pytest.mark.parametrize("forged", list(FORGED_SETTINGS))
def test_a_forged_setting_outside_its_choices_changes_nothing(forged):
    key, value = FORGED_SETTINGS[forged]
    at = open_train()
    forge(at, key, **value)
    assert at.session_state[keys.TRAIN_SETTINGS] == TrainSettings()


@pytest.mark.parametrize("forged", list(CLAMPED_SETTINGS))
def test_a_setting_out_of_bounds_is_brought_within_them(forged):
    key, value = CLAMPED_SETTINGS[forged]
    at = open_train()
    forge(at, key, **value)
    current = at.session_state[keys.TRAIN_SETTINGS]
    assert replace(current) == current  # a valid setting (TrainSettings checks each field)


@pytest.mark.parametrize("forged", list(UNREADABLE))
def test_a_value_streamlit_cannot_read_shows_no_error_details(forged):
    """client.showErrorDetails = "none": the generic message only; no exception type, message,
    traceback or file path of the server reaches the browser (the server logs them)."""
    page, key, value = UNREADABLE[forged]
    at = open_train() if page == TRAIN else start(page=page)
    widget_id = _element(at, key).proto.id
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=widget_id, **{
        k: v for k, v in value.items() if not k.endswith("array_value")}))
    for k, v in value.items():
        if k.endswith("array_value"):
            getattr(states.widgets[-1], k).data.extend(v)
    at._run(states)
    assert at.exception, "Streamlit read the value after all: move the case to another test"
    for shown in at.exception:
        proto = shown.proto
        assert not proto.type and not list(proto.stack_trace), (proto.type, proto.stack_trace)
        assert proto.message.startswith("This app has encountered an error."), proto.message
        assert "/" not in proto.message.split("(if you")[0] and ".py" not in proto.message


def _gradients():
    return run(new_app(page=GRADIENTS))


@pytest.mark.parametrize("rows", ['["abc"]', "[1e999]", "[1000000]", '[["a"]]'])
def test_a_forged_table_selection_on_gradients_changes_nothing(rows):
    at = _gradients()
    before = at.session_state[keys.DETAIL_NODE]
    forge(at, keys.NODE_TABLE, string_value='{"selection": {"rows": ' + rows
          + ', "columns": [], "cells": []}}')
    assert at.session_state[keys.DETAIL_NODE] == before


def test_forged_gradient_table_rows_reach_the_page_as_sent():
    """The forge above really reaches the page's callback (so the test above can fail)."""
    at = _gradients()
    forge(at, keys.NODE_TABLE, string_value=json.dumps(
        {"selection": {"rows": [0], "columns": [], "cells": []}}))
    assert at.session_state[keys.DETAIL_NODE] == at.session_state[keys.HISTORY].current.names[0]
