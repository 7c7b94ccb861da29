"""The Train page's state and controls: this session's Trainer and settings, the URL, the widgets.

The truth is plain session state (`keys.TRAINER`, `keys.TRAIN_SETTINGS`, `keys.TRAIN_RUNNING`);
widgets are controlled, as in the sidebar: each widget's key is written from the settings before
it is drawn, and its callback writes the settings back. The settings that differ from the defaults
are mirrored into the URL (`TrainSettings.to_query`), next to the graph's own parameters, so the
address bar and the page's share link reproduce the lesson; the weights never travel.

A session's first run of the page draws its heading and controls alone, and the browser asks for
the rest a moment later (`first_paint`): the rest's widgets and charts need much more of the
browser's code, and sent together they kept Start off the screen until all of it had loaded.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from dataclasses import replace
from urllib.parse import urlencode

import streamlit as st

from pages.ui import frame, keys, motion, scroll, session
from playground import selection, view
from playground.errors import as_markdown
from playground.training import Trainer, TrainSettings, charts, sample_spec, settings_from_query
from playground.training import settings as choices
from playground.training.pace import Pace

INTERVAL_S = 0.4
"""Seconds between two updates while one session trains alone (more share the core: `pace`)."""
REDUCED_MOTION_S = 2.0
"""Seconds between two updates at least, for a reader whose system asks for reduced motion
(`motion.reduced`): the pictures change five times less often, each update taking the chosen
steps, so training is that much slower unless more steps per update are chosen."""
BUDGET_S = 0.06
"""Most seconds of training in one update; the pictures take the rest of the rerun."""
SPEEDS = (1, 5, 10, 25, 50, 100, 250)
"""Steps per update offered while training runs."""
DEFAULT_SPEED = 25
LABEL_STYLE = ("<style>" + ", ".join(
    f".st-key-{keys.TRAIN_PICTURES_BLOCK} .role-{part} text"
    for part in ("axis-label", "axis-title", "legend-label", "legend-title"))
    + " { fill: currentColor; }</style>")
"""The charts' labels in the page's text colour: Streamlit's chart theme draws them grey, 3.7:1 on
the light theme's white, under the 4.5:1 that small text needs. CSS follows a change of theme at
once, as a colour chosen on the server could not."""


# --- state --------------------------------------------------------------------------------------


def trainer() -> Trainer:
    return st.session_state[keys.TRAINER]


def settings() -> TrainSettings:
    return st.session_state[keys.TRAIN_SETTINGS]


def running() -> bool:
    return st.session_state[keys.TRAIN_RUNNING]


def ensure_state() -> None:
    """This session's trainer; a new session, or a new link, builds it from the URL. The link's
    settings that could not be read are named above the controls while its network is shown."""
    state = st.session_state
    incoming = {key: st.query_params.get(key) for key in choices.query_keys()}
    if keys.TRAINER not in state or view.is_new_link(incoming, state.get(keys.TRAIN_URL_WRITTEN)):
        loaded, ignored = settings_from_query(incoming)
        _install(Trainer(loaded))
        if ignored:
            state[keys.TRAIN_LINK_NOTE] = "Ignored link settings: " + "; ".join(ignored) + "."
    state.setdefault(keys.TRAIN_SPEED, DEFAULT_SPEED)
    if state.get(keys.TRAIN_LINK_NOTE):
        st.warning(as_markdown(state[keys.TRAIN_LINK_NOTE]), icon=":material/warning:")


def _install(new: Trainer) -> None:
    """Make ``new`` this session's trainer, paused, with its first training point chosen."""
    st.session_state[keys.TRAINER] = new
    st.session_state[keys.TRAIN_SETTINGS] = new.settings
    st.session_state[keys.TRAIN_RUNNING] = False
    st.session_state[keys.TRAIN_SAMPLE] = ("train", 0)
    st.session_state.pop(keys.TRAIN_LINK_NOTE, None)


def drawn() -> charts.Drawn:
    """The pictures of this session's trainer, computed once per state: a rerun that trained
    nothing (a click, a setting, an early timer) draws the same ones again."""
    current = trainer()
    with current.lock:
        state = (current.steps, current.settings)
        memo = st.session_state.get(keys.TRAIN_PICTURES)
        if memo is None or memo[0] is not current or memo[1] != state:
            memo = (current, state, charts.drawn(current))
            st.session_state[keys.TRAIN_PICTURES] = memo
    return memo[2]


def sync_url() -> None:
    """Write the settings into the URL (only what changed); the graph's parameters stay."""
    wanted = settings().to_query()
    for key in choices.query_keys():
        if key in wanted and st.query_params.get(key) != wanted[key]:
            st.query_params[key] = wanted[key]
        elif key not in wanted and key in st.query_params:
            del st.query_params[key]
    st.session_state[keys.TRAIN_URL_WRITTEN] = {k: wanted.get(k) for k in choices.query_keys()}


def share_link() -> str:
    """A link that opens this page with these settings (and freshly initialised weights)."""
    here = (st.context.url or "").rstrip("/")
    path = frame.page("train.py").url_path
    if not here.endswith("/" + path):
        here += "/" + path
    query = urlencode(settings().to_query())
    return here + (f"?{query}" if query else "")


def change(**fields) -> None:
    """Apply new settings: hyperparameters change on the fly, new data or a new network start
    again from freshly initialised weights, paused. Settings outside their choices (only a
    forged request sends them: each widget offers only the choices) change nothing."""
    try:
        new = replace(settings(), **fields)
    except (ValueError, TypeError):
        return
    current = trainer()
    updated = current.apply(new)
    if updated is current:
        st.session_state[keys.TRAIN_SETTINGS] = new
    else:
        _install(updated)


# --- controls (widget callbacks) ----------------------------------------------------------------


def start() -> None:
    """Start training; the keyboard focus follows to Pause, which takes Start's place."""
    st.session_state[keys.TRAIN_RUNNING] = not trainer().diverged
    scroll.keep_focus(keys.TRAIN_PAUSE)


def pause() -> None:
    """Start and Pause are two buttons, never one that toggles: the browser may deliver a click
    twice (with its timer's rerun of the fragment, then on its own), and Pause twice is still
    paused. The keyboard focus follows to Start, as it followed to Pause (`scroll.keep_focus`:
    the button it was on is gone)."""
    st.session_state[keys.TRAIN_RUNNING] = False
    scroll.keep_focus(keys.TRAIN_START)


def copy_speed() -> None:
    speed = selection.chosen_option(st.session_state[keys.TRAIN_SPEED_WIDGET], SPEEDS)
    if speed is not None:
        st.session_state[keys.TRAIN_SPEED] = speed


def step_once() -> None:
    trainer().run(1)


def reset() -> None:
    st.session_state[keys.TRAIN_RUNNING] = False  # first: a run still training stops at once
    trainer().reset()


def sample_sizes() -> dict[str, int]:
    """The sets of points the page shows, with their sizes: {"train": n} and, when the test
    data is shown, "test"."""
    current = trainer()
    sizes = {"train": len(current.train_x)}
    if settings().show_test:
        sizes["test"] = len(current.test_x)
    return sizes


def sample() -> tuple[str, int]:
    """The chosen point (split, index), one of the points shown: the last of its set when the
    set has shrunk since, the first training point when its set is no longer shown."""
    split, index = st.session_state[keys.TRAIN_SAMPLE]
    sizes = sample_sizes()
    return (split, min(index, sizes[split] - 1)) if split in sizes else ("train", 0)


def pick_point() -> None:
    """A click on a data point chooses it for the graph (a selection naming no point shown,
    which only a forged request sends, changes nothing)."""
    chosen = getattr(st.session_state[keys.TRAIN_BOUNDARY], "selection", None)
    picked = chosen.get("pick") if isinstance(chosen, Mapping) else None
    point = selection.chosen_point(picked, sample_sizes())
    if point is not None:
        st.session_state[keys.TRAIN_SAMPLE] = point


def pick_by_hand() -> None:
    point = selection.point(st.session_state[keys.TRAIN_SAMPLE_SPLIT],
                            st.session_state[keys.TRAIN_SAMPLE_INDEX], sample_sizes())
    if point is not None:
        st.session_state[keys.TRAIN_SAMPLE] = point


def open_sample_graph() -> None:
    """Pause, and put the chosen sample's graph at the current weights into the graph history
    (the Graph, Gradients and Gradient check pages show it); the page then switches to Graph.
    A refused graph (weights that are no longer finite) leaves its error for the page."""
    st.session_state[keys.TRAIN_RUNNING] = False
    split, index = sample()
    spec = sample_spec(trainer(), split, index)
    st.session_state[keys.TRAIN_GO_GRAPH] = session.apply_edit("train", lambda _: spec)


def switch_if_opened() -> None:
    """After `open_sample_graph`, go to the Graph page."""
    if st.session_state.pop(keys.TRAIN_GO_GRAPH, False):
        st.switch_page(frame.page("graph.py"))


# --- the pace shared by every trainer of the server ---------------------------------------------


@st.cache_resource(show_spinner=False)
def pace() -> Pace:
    """The server's one `Pace`: how often every running trainer updates."""
    return Pace(base_s=INTERVAL_S)


def update_interval() -> float:
    """Seconds between this session's updates, for the timer the page sets now (as it starts
    training, the session joins the pace)."""
    st.session_state[keys.TRAIN_INTERVAL] = max(pace().report(_pace_key()), _shortest())
    return st.session_state[keys.TRAIN_INTERVAL]


def _shortest() -> float:
    """The shortest interval between this page's updates, whatever the pace."""
    return REDUCED_MOTION_S if motion.reduced() else INTERVAL_S


def _pace_key() -> str:
    return st.session_state.setdefault(keys.TRAIN_PACE_KEY, uuid.uuid4().hex)


def _timer() -> float:
    """Seconds of the update timer the page last set."""
    return st.session_state.get(keys.TRAIN_INTERVAL, INTERVAL_S)


def timer_out_of_step() -> bool:
    """True when the class's pace moved away from the timer this page set: a full rerun then
    sets the new one."""
    return pace().out_of_step(_timer(), floor_s=_shortest())


def steps_due() -> int:
    """The steps this update may take: the chosen steps per 0.4 s of wall-clock time since the
    last, however soon the rerun came (`Pace.take`: the server keeps the pace, not the browser's
    timer)."""
    return pace().take(_pace_key(), st.session_state[keys.TRAIN_SPEED])


def give_back(steps: int) -> None:
    """Steps `steps_due` granted that the update did not take (its `BUDGET_S` ran out)."""
    pace().give_back(_pace_key(), steps)


def pace_note() -> str | None:
    """What the page says while classmates share the server's core with this session, or
    while it updates less often for reduced motion."""
    if _timer() > _shortest():
        return (f"{pace().active()} sessions are training on this server, so updates come "
                f"every {_timer():.1f} s instead of {_shortest():g} s, with as many more steps "
                "each: the rest of the class stays quick.")
    if motion.reduced():
        return (f"Updates come every {_timer():g} s, not {INTERVAL_S:g} s, as your system asks "
                "for reduced motion: choose more steps per update to train faster.")
    return None


def report_update(started: float) -> None:
    """Tell the pace the CPU time this update (training and pictures) took since `started`, a
    `time.thread_time()`."""
    pace().report(_pace_key(), time.thread_time() - started)


# --- settings widgets ---------------------------------------------------------------------------


def setting(widget, field: str, label: str, **kwargs):
    """Draw a controlled widget for one field of the settings."""
    key = keys.train_setting(field)
    st.session_state[key] = getattr(settings(), field)
    return widget(label, key=key, on_change=_copy, args=(field,), **kwargs)


def _copy(field: str) -> None:
    change(**{field: st.session_state[keys.train_setting(field)]})


def features_widget() -> None:
    key = keys.train_setting("features")
    st.session_state[key] = list(settings().features)
    st.pills("Inputs", list(choices.FEATURES), selection_mode="multi",
             format_func=choices.FEATURES.get, key=key, on_change=_copy_features,
             help="TensorFlow Playground's features of the point (x₁, x₂); at least one.")


def _copy_features() -> None:
    chosen = st.session_state[keys.train_setting("features")]
    if isinstance(chosen, list) and chosen and all(isinstance(f, str) for f in chosen):
        change(features=tuple(chosen))


def layers_widget() -> None:
    """How many hidden layers, then one size per layer."""
    hidden = settings().hidden
    key = keys.train_setting("layers")
    st.session_state[key] = len(hidden)
    st.number_input("Hidden layers", 0, choices.MAX_HIDDEN_LAYERS, key=key,
                    on_change=_copy_layer_count)
    if hidden:
        for i, column in enumerate(st.columns(len(hidden))):
            unit_key = keys.train_setting(f"units_{i}")
            st.session_state[unit_key] = hidden[i]
            column.number_input(f"Layer {i + 1}", 1, choices.MAX_UNITS, key=unit_key,
                                on_change=_copy_units, args=(i,))


def _copy_layer_count() -> None:
    count = selection.index_in(st.session_state[keys.train_setting("layers")],
                               choices.MAX_HIDDEN_LAYERS + 1)
    if count is None:
        return
    hidden = settings().hidden
    change(hidden=(hidden + (4,) * count)[:count])


def _copy_units(i: int) -> None:
    hidden = list(settings().hidden)
    units = selection.whole_number(st.session_state[keys.train_setting(f"units_{i}")])
    if units is not None and i < len(hidden):
        hidden[i] = units
        change(hidden=tuple(hidden))
