"""Where the app keeps the graph: plain session-state keys, mirrored into the URL.

The truth is two plain `st.session_state` entries, never widget keys (Streamlit drops a widget's
value when its page is not rendered): the undo `History` of graph specs and the display `Options`.
The URL mirrors both: `graph` holds `playground.share.encode(spec)` (the chosen output travels
inside the spec) and the display options that differ from their defaults get one short parameter
each. Opening any page by URL starts a new session, which rebuilds everything from those
parameters; a broken link says what is wrong and falls back to the default graph.

Edits run in widget callbacks, before the script, so every part of a rerun sees the same graph.
An edit whose graph cannot be evaluated is refused with its error shown next to the form that
asked for it, and the last good graph stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import streamlit as st

from pages import _cache
from playground import GraphSpec, SpecError, presets, share
from playground.edits import History

HISTORY = "pg_history"
OPTIONS = "pg_options"
URL_WRITTEN = "pg_url_written"
NOTICES = "pg_notices"
ERRORS = "pg_errors"
JSON_MEMO = "pg_json_memo"

SHOW_LABELS = {"both": "Both", "value": "Values", "grad": "Gradients"}
RANKDIR_LABELS = {"auto": "Auto", "LR": "Across →", "TB": "Down ↓"}
AUTO_LR_MAX_OPS = 3  # "auto" draws left to right up to this many ops and this font size,
AUTO_LR_MAX_FONT = 16  # and top to bottom beyond either
FONT_SIZES = (10, 40)
QUERY_KEYS = ("graph", "show", "dir", "font", "compact")


@dataclass(frozen=True)
class Options:
    """How the drawing looks; shared by every page and carried in the share link."""

    show: str = "both"
    rankdir: str = "auto"
    font_size: int = 14
    compact: bool = False

    def layout_for(self, n_ops: int) -> str:
        """The Graphviz rankdir for a graph of `n_ops` operations.

        st.graphviz_chart shrinks a drawing wider than the page and cannot zoom, so a bigger
        font only makes a wide drawing shrink more. "auto" keeps micrograd's left-to-right
        layout for small graphs at normal font sizes and otherwise stacks the graph top to
        bottom, where the page scrolls and the text keeps its size.
        """
        if self.rankdir != "auto":
            return self.rankdir
        small = n_ops <= AUTO_LR_MAX_OPS and self.font_size <= AUTO_LR_MAX_FONT
        return "LR" if small else "TB"

    def to_query(self) -> dict[str, str]:
        """The URL parameters of the options that differ from the defaults."""
        default = Options()
        query = {}
        if self.show != default.show:
            query["show"] = self.show
        if self.rankdir != default.rankdir:
            query["dir"] = self.rankdir
        if self.font_size != default.font_size:
            query["font"] = str(self.font_size)
        if self.compact != default.compact:
            query["compact"] = "1"
        return query


def options_from_query(query: dict[str, str | None]) -> tuple[Options, list[str]]:
    """Options read from URL parameters (absent ones take their defaults), and what was ignored."""
    options, ignored = Options(), []
    show, rankdir, font, compact = (query.get(k) for k in ("show", "dir", "font", "compact"))
    if show is not None:
        if show in SHOW_LABELS:
            options = replace(options, show=show)
        else:
            ignored.append(f"show={show!r} (use one of {', '.join(SHOW_LABELS)})")
    if rankdir is not None:
        if rankdir in RANKDIR_LABELS:
            options = replace(options, rankdir=rankdir)
        else:
            ignored.append(f"dir={rankdir!r} (use auto, LR or TB)")
    if font is not None:
        if font.isdigit() and FONT_SIZES[0] <= int(font) <= FONT_SIZES[1]:
            options = replace(options, font_size=int(font))
        else:
            ignored.append(f"font={font!r} (use a whole number from {FONT_SIZES[0]} to "
                           f"{FONT_SIZES[1]})")
    if compact is not None:
        if compact in ("0", "1"):
            options = replace(options, compact=compact == "1")
        else:
            ignored.append(f"compact={compact!r} (use 0 or 1)")
    return options, ignored


def default_spec() -> GraphSpec:
    return presets.get(presets.DEFAULT_KEY).spec


# --- reading the state --------------------------------------------------------------------------


def history() -> History:
    return st.session_state[HISTORY]


def spec() -> GraphSpec:
    return history().current


def spec_json() -> str:
    """The current spec's JSON (the key of every cached result), computed once per spec."""
    current = spec()
    memo = st.session_state.get(JSON_MEMO)
    if memo is None or memo[0] is not current:
        memo = (current, current.to_json())
        st.session_state[JSON_MEMO] = memo
    return memo[1]


def options() -> Options:
    return st.session_state[OPTIONS]


def set_options(**changes) -> None:
    st.session_state[OPTIONS] = replace(options(), **changes)


# --- start of every rerun: state from the session or from the URL --------------------------------


def ensure_state() -> None:
    """Make sure the graph and options exist; a new session (or a new link) reads them from the URL.

    In a running session the URL only matters when it differs from what this app last wrote
    there (someone pasted a link, or the browser went back); navigating between pages may drop
    the parameters, which then mean "nothing new", not "start over".
    """
    state = st.session_state
    state.setdefault(NOTICES, [])
    state.setdefault(ERRORS, {})
    incoming = {key: st.query_params.get(key) for key in QUERY_KEYS}
    if HISTORY not in state:
        linked = _linked_spec(incoming.get("graph"), fallback="the default graph is shown")
        state[HISTORY] = History(linked or default_spec())
        _load_options(incoming)
    elif any(v is not None for v in incoming.values()) and incoming != state.get(URL_WRITTEN):
        linked = _linked_spec(incoming.get("graph"), fallback="the graph you had stays")
        if linked is not None:
            state[HISTORY] = history().push(linked)
        _load_options(incoming)


def _linked_spec(token: str | None, fallback: str) -> GraphSpec | None:
    """The graph a link carries, if it has one that opens; a notice says why when it does not."""
    if not token:
        return None
    try:
        linked = share.decode(token)
        _cache.evaluate(linked.to_json())
    except SpecError as err:
        notice("error", f"This link's graph could not be opened, so {fallback}. {err}")
        return None
    return linked


def _load_options(query: dict[str, str | None]) -> None:
    options, ignored = options_from_query(query)
    st.session_state[OPTIONS] = options
    if ignored:
        notice("warning", "Ignored link settings: " + "; ".join(ignored) + ".")


def sync_url() -> None:
    """Write the current graph and options into the URL, so the address bar is a share link."""
    wanted = share_query()
    params = st.query_params
    for key in QUERY_KEYS:
        if key in wanted:
            if params.get(key) != wanted[key]:
                params[key] = wanted[key]
        elif key in params:
            del params[key]
    st.session_state[URL_WRITTEN] = {key: wanted.get(key) for key in QUERY_KEYS}


def share_query() -> dict[str, str]:
    """The URL parameters that reproduce this graph, output and view in a fresh browser."""
    return {"graph": _cache.share_token(spec_json()), **options().to_query()}


# --- edits (called from widget callbacks) -------------------------------------------------------


def apply_edit(form: str, make: Callable[[GraphSpec], GraphSpec]) -> bool:
    """Push `make(spec)` if it evaluates; else keep the graph and remember the error for `form`."""
    try:
        candidate = make(spec())
        if len(candidate):
            _cache.evaluate(candidate.to_json())
    except SpecError as err:
        st.session_state[ERRORS][form] = err
        return False
    st.session_state[ERRORS].pop(form, None)
    st.session_state[HISTORY] = history().push(candidate)
    return True


def undo() -> None:
    st.session_state[HISTORY] = history().undo()


def redo() -> None:
    st.session_state[HISTORY] = history().redo()


def error_for(form: str) -> SpecError | None:
    return st.session_state[ERRORS].get(form)


def clear_error(form: str) -> None:
    st.session_state[ERRORS].pop(form, None)


# --- one-off messages --------------------------------------------------------------------------


def notice(level: str, message: str) -> None:
    """Queue a message ("error", "warning", "info", "success") for the top of the next page."""
    st.session_state[NOTICES].append((level, message))


def show_notices() -> None:
    """Show the queued messages once, at the top of the page."""
    for level, message in st.session_state[NOTICES]:
        getattr(st, level)(message)
    st.session_state[NOTICES] = []


def show_error(form: str) -> None:
    """The error of the last refused edit from `form`, if any, right where the form is."""
    err = error_for(form)
    if err is not None:
        st.error(str(err), icon=":material/error:")
