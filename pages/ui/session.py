"""Where the app keeps the graph: plain session-state keys, mirrored into the URL.

This module only moves values between `st.session_state`, `st.query_params` and the view model
(`playground.view`: the display `Options`, the URL parameters and what they mean).

The truth is two plain `st.session_state` entries, never widget keys (Streamlit drops a widget's
value when its page is not rendered): the undo `History` of graph specs and the display `Options`.
The URL mirrors both. Opening any page by URL starts a new session, which rebuilds everything
from the link; a broken link says what is wrong and falls back to the default graph.

Edits run in widget callbacks, before the script, so every part of a rerun sees the same graph.
An edit whose graph cannot be evaluated is refused with its error shown next to the form that
asked for it, and the last good graph stays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import streamlit as st

from pages.ui import cached, keys, scroll
from playground import GraphSpec, SpecError, exercises, presets, share, view
from playground.edits import History
from playground.exercises import Exercise
from playground.view import Options


def show_in_widget(key: str, value) -> None:
    """Give widget `key` the app's `value` for this run, writing only when it differs: any write
    sends the value to the browser, where one that left during a quick run of key presses
    would undo the newer value the user has just chosen (a Font size pressed up to 24 ended at
    23). What was shown is kept for `take_skipped_changes`."""
    if st.session_state.get(key) != value:
        st.session_state[key] = value
    st.session_state[keys.SHOWN + key] = value


def take_skipped_changes(callbacks: Mapping[str, Callable[[], None]]) -> None:
    """Call the change callback of each widget whose value moved since the app last showed it.
    Streamlit skips a callback when it cuts the run that should have called it short for a
    newer request (quick key presses on Font size, with or without runner.fastReruns), and the
    app's older value would then be written back over the user's choice. Each callback must be
    harmless to call twice (it copies the widget's value into the app's state)."""
    state = st.session_state
    for key, callback in callbacks.items():
        shown = keys.SHOWN + key
        if key in state and shown in state and state[key] != state[shown]:
            callback()
            state[shown] = state[key]


def default_spec() -> GraphSpec:
    return presets.get(presets.DEFAULT_KEY).spec


# --- reading the state --------------------------------------------------------------------------


def history() -> History:
    return st.session_state[keys.HISTORY]


def spec() -> GraphSpec:
    return history().current


def spec_json() -> str:
    """The current spec's JSON (the key of every cached result), computed once per spec."""
    current = spec()
    memo = st.session_state.get(keys.JSON_MEMO)
    if memo is None or memo[0] is not current:
        memo = (current, current.to_json())
        st.session_state[keys.JSON_MEMO] = memo
    return memo[1]


BUILD_FORMS = ("add", "edit", "expr", "import")
"""The Build page's forms, below the drawing: after an edit from one, the page scrolls to its
top, where the drawing is."""


def table_key(name: str) -> str:
    """The key of the table `name` at this Font size: a new Font size gives the table a new
    identity, so Streamlit draws it afresh with the page's new text size (frame._page_style)."""
    font = options().font_size
    return name if view.page_scale(font) == 1 else f"{name}_at_font_{font}"


def options() -> Options:
    return st.session_state[keys.OPTIONS]


def set_options(**changes) -> None:
    st.session_state[keys.OPTIONS] = replace(options(), **changes)


# --- start of every rerun: state from the session or from the URL --------------------------------


def ensure_state() -> None:
    """Make sure the graph and options exist; a new session (or a new link) reads them from the URL.

    In a running session the URL only matters when it brings a new link (`view.is_new_link`).
    """
    state = st.session_state
    state.setdefault(keys.NOTICES, [])
    state.setdefault(keys.ERRORS, {})
    incoming = view.app_query(st.query_params)
    if keys.HISTORY not in state:
        linked = _linked_spec(incoming[view.GRAPH_PARAM], fallback="the default graph is shown")
        state[keys.HISTORY] = History(linked or default_spec())
        _load_options(incoming)
        _load_exercise(incoming)
    elif view.is_new_link(incoming, state.get(keys.URL_WRITTEN)):
        linked = _linked_spec(incoming[view.GRAPH_PARAM], fallback="the graph you had stays")
        if linked is not None:
            state[keys.HISTORY] = history().push(linked)
        _load_options(incoming)
        _load_exercise(incoming)


def _linked_spec(token: str | None, fallback: str) -> GraphSpec | None:
    """The graph a link carries, if it has one that opens; a notice says why when it does not."""
    if not token:
        return None
    try:
        linked = share.decode(token)
        cached.evaluate(linked.to_json())
    except SpecError as err:
        notice("error", f"This link's graph could not be opened, so {fallback}. {err}")
        return None
    return linked


def _load_options(query: dict[str, str | None]) -> None:
    loaded, ignored = view.options_from_query(query)
    st.session_state[keys.OPTIONS] = loaded
    if ignored:
        notice("warning", "Ignored link settings: " + "; ".join(ignored) + ".")


def _load_exercise(query: dict[str, str | None]) -> None:
    loaded, ignored = exercises.from_param(query[view.EXERCISE_PARAM],
                                           cached.evaluate(spec_json()))
    set_exercise(loaded)
    if ignored:
        notice("warning", "Ignored the link's exercise: " + "; ".join(ignored) + ".")


def exercise() -> Exercise | None:
    """The exercise on the current graph, if any; one whose nodes the graph no longer has
    (after an edit or a new graph) is dropped."""
    current = st.session_state.get(keys.EXERCISE)
    if current is None:
        return None
    try:
        return exercises.make(cached.evaluate(spec_json()), current.quantity, current.nodes,
                              current.wrt)
    except SpecError:
        set_exercise(None)
        return None


def set_exercise(new: Exercise | None) -> None:
    """Hide these numbers (None: none); marks and revealed answers start afresh."""
    st.session_state[keys.EXERCISE] = new
    st.session_state[keys.EXERCISE_MARKS] = {}
    st.session_state[keys.EXERCISE_REVEALED] = ()


def still_hidden(ex: Exercise | None) -> Exercise | None:
    """The exercise without the nodes revealed or guessed right so far (None when nothing is
    hidden any more), `exercises.still_hidden`."""
    return exercises.still_hidden(ex, st.session_state.get(keys.EXERCISE_REVEALED, ()),
                                  st.session_state.get(keys.EXERCISE_MARKS, {}))


def answered(ex: Exercise | None) -> Exercise | None:
    """The exercise's nodes revealed or guessed right so far (`exercises.answered`)."""
    return exercises.answered(ex, st.session_state.get(keys.EXERCISE_REVEALED, ()),
                              st.session_state.get(keys.EXERCISE_MARKS, {}))


def sync_url() -> None:
    """Write the current graph and options into the URL, so the address bar is a share link."""
    wanted = share_query()
    updates, removals = view.query_updates(st.query_params, wanted)
    for key, value in updates.items():
        st.query_params[key] = value
    for key in removals:
        del st.query_params[key]
    st.session_state[keys.URL_WRITTEN] = view.app_query(wanted)


def share_query() -> dict[str, str]:
    """The URL parameters that reproduce this graph, output and view (`view.share_query`), and
    the exercise on it when the graph is there (which numbers are hidden; never a student's
    guesses)."""
    query = cached.share_query(spec_json(), options())
    current = exercise() if view.GRAPH_PARAM in query and len(spec()) else None
    if current is not None:
        query[view.EXERCISE_PARAM] = current.to_param()
    return query


# --- edits (called from widget callbacks) -------------------------------------------------------


def apply_edit(form: str, make: Callable[[GraphSpec], GraphSpec]) -> bool:
    """Push `make(spec)` if it evaluates; else keep the graph and remember the error for `form`."""
    try:
        candidate = make(spec())
        if len(candidate):
            cached.evaluate(candidate.to_json())
    except SpecError as err:
        st.session_state[keys.ERRORS][form] = err
        return False
    st.session_state[keys.ERRORS].pop(form, None)
    st.session_state[keys.HISTORY] = history().push(candidate)
    if form in BUILD_FORMS:  # the changed graph is drawn above the form: bring it into sight
        scroll.request("top")
    return True


def undo() -> None:
    st.session_state[keys.HISTORY] = history().undo()


def redo() -> None:
    st.session_state[keys.HISTORY] = history().redo()


def error_for(form: str) -> SpecError | None:
    return st.session_state[keys.ERRORS].get(form)


def clear_error(form: str) -> None:
    st.session_state[keys.ERRORS].pop(form, None)


def notice(level: str, message: str) -> None:
    """Queue a message ("error", "warning", "info", "success") for the top of the next page."""
    st.session_state[keys.NOTICES].append((level, message))


def take_notices() -> list[tuple[str, str]]:
    """The queued messages, once: the queue is empty afterwards."""
    queued = st.session_state[keys.NOTICES]
    st.session_state[keys.NOTICES] = []
    return queued
