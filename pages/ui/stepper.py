"""The Step through page's controls and views: the mode, the step slider with ⏮ ◀ ▶ ⏭ and Play,
the drawing of the step, its chain-rule lines and the evaluation trace.

The step of each mode, the mode and Play live in plain state (`keys.STEPS`, `keys.STEP_MODE`,
`keys.STEP_PLAYING`); the widgets are written from them before they are drawn. Play is an
`st.fragment` on a one-second timer (three seconds under reduced motion): each run advances one
step, and reaching the end (or any control that stops it) reruns the whole app, which redraws
the fragment without its timer. Play starts only when pressed, and its button then reads Pause.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.ui import cached, drawing, keys, motion
from pages.ui import session as state
from playground import exercises, formulas, registry, steps, traces
from playground.errors import SpecError, as_markdown
from playground.evaluate import Result
from playground.exercises import Exercise

PLAY_SECONDS = (1.0, 3.0)
"""Play advances one step this often, and this much more slowly for a reader whose system asks
for reduced motion (`motion.reduced`): time to read each step, or to hear it said, before the
drawing changes again."""
TRACE_NAMES = {"forward": "Primal trace", "tangent": "Tangent trace", "reverse": "Adjoint trace"}
KATEX_STYLE = "<style>.katex-display { padding-right: 2px; }</style>"
"""A formula's box is 2 px narrower than KaTeX's drawing of it, so Chromium made it a scrollable
region a keyboard cannot reach (axe's scrollable-region-focusable, WCAG 2.1.1): the padding
gives it room. A wide formula still scrolls, as Streamlit has it."""
_HIGHLIGHT = "background-color: rgba(204, 121, 167, 0.25)"  # the drawing's focus colour


def ensure_state(result: Result, exercise: Exercise | None) -> None:
    """Defaults for a new session (the mode that shows a linked exercise's numbers), and a
    forward-mode input that still exists."""
    if keys.STEP_MODE not in st.session_state:
        st.session_state[keys.STEP_MODE] = (exercises.MODE_OF[exercise.quantity] if exercise
                                            else "reverse")
        if exercise is not None and exercise.wrt is not None:
            st.session_state[keys.STEP_WRT] = (exercise.wrt, 0)
    st.session_state.setdefault(keys.STEPS, {})
    st.session_state.setdefault(keys.STEP_PLAYING, False)
    inputs = [n.name for n in result.nodes if n.kind == "input"]
    wrt = st.session_state.get(keys.STEP_WRT)
    if inputs and (wrt is None or wrt[0] not in inputs
                   or wrt[1] >= result.value(wrt[0]).size):
        st.session_state[keys.STEP_WRT] = (inputs[0], 0)


def mode() -> str:
    return st.session_state[keys.STEP_MODE]


def wrt() -> tuple[str, int] | None:
    return st.session_state.get(keys.STEP_WRT)


def current(count: int) -> int:
    """The step shown in this mode, within 0 … count (the graph may have changed)."""
    return max(0, min(st.session_state[keys.STEPS].get(mode(), 0), count))


def go(k: int) -> None:
    """Show step ``k`` of this mode; any control stops Play."""
    st.session_state[keys.STEPS] = {**st.session_state[keys.STEPS], mode(): k}
    st.session_state[keys.STEP_PLAYING] = False


def mode_controls(result: Result) -> None:
    """The mode, and in forward mode the input (and element) that moves."""
    row = st.container(horizontal=True, vertical_alignment="bottom")
    state.show_in_widget(keys.STEP_MODE_WIDGET, mode())
    row.segmented_control(
        "Mode", list(steps.MODES), format_func=steps.MODES.get, key=keys.STEP_MODE_WIDGET,
        required=True, on_change=_copy_mode,
        help="Forward pass: each operation's value in turn. Forward mode: each node's tangent "
        "as one input moves (one pass per input). Reverse mode: the engine's backward pass, "
        "one Function at a time (one pass per output).")
    if mode() != "tangent":
        return
    inputs = [n.name for n in result.nodes if n.kind == "input"]
    if not inputs:
        return
    name, element = wrt()
    state.show_in_widget(keys.STEP_WRT_WIDGET, name)
    row.selectbox("Input that moves", inputs, key=keys.STEP_WRT_WIDGET, on_change=_copy_wrt,
                  width=220, help="Its tangent is 1 (in one element), every other input's is 0.")
    size = result.value(name).size
    if size > 1:
        state.show_in_widget(keys.STEP_ELEMENT_WIDGET, element)
        row.number_input(f"Element of {name} (flat index)", 0, size - 1, width=220,
                         key=keys.STEP_ELEMENT_WIDGET, on_change=_copy_wrt)


def _copy_mode() -> None:
    st.session_state[keys.STEP_MODE] = st.session_state[keys.STEP_MODE_WIDGET]
    st.session_state[keys.STEP_PLAYING] = False


def _copy_wrt() -> None:
    name = st.session_state[keys.STEP_WRT_WIDGET]
    element = st.session_state.get(keys.STEP_ELEMENT_WIDGET, 0)
    if name != wrt()[0]:
        element = 0
    st.session_state[keys.STEP_WRT] = (name, int(element))


def passes_note(result: Result) -> None:
    """How many passes each mode needs for the whole Jacobian of this graph."""
    inputs, outputs = steps.passes(result)
    st.caption(
        f"**Passes for the whole Jacobian** of {result.output} ({outputs:,} × {inputs:,}): "
        f"forward mode needs **{inputs:,}**, one per input number, each giving one column; "
        f"reverse mode needs **{outputs:,}**, one per output number, each giving one row. For "
        "a loss (one number) of many weights reverse mode wins: that is backpropagation.")


def stepper(spec_json: str, result: Result, hidden: Exercise | None) -> None:
    """The step controls, the step's drawing and lines, and the trace: one fragment, which
    reruns on its own every second while Play is on."""
    timer_on = bool(st.session_state[keys.STEP_PLAYING])

    @st.fragment(run_every=_play_seconds() if timer_on else None)
    def step_fragment() -> None:
        if st.session_state[keys.STEP_PLAYING] != timer_on:
            st.rerun()  # Play was pressed or stopped: a full rerun sets the timer
        try:
            _steps(spec_json, result, timer_on, hidden)
        except SpecError as err:  # over the time limit, or a mode this graph cannot step
            st.session_state[keys.STEP_PLAYING] = False
            st.error(as_markdown(str(err)), icon=":material/error:")

    step_fragment()


def _steps(spec_json: str, result: Result, timer_on: bool, hidden: Exercise | None) -> None:
    """One run of the step fragment: advance while playing, then the controls and the step."""
    count = _count(spec_json, result)
    k = current(count)
    if timer_on:
        k = min(k + 1, count)
        st.session_state[keys.STEPS] = {**st.session_state[keys.STEPS], mode(): k}
        if k >= count:
            st.session_state[keys.STEP_PLAYING] = False
            st.rerun()
    _controls(k, count)
    _step(spec_json, result, k, hidden)


def _count(spec_json: str, result: Result) -> int:
    if mode() == "reverse":
        return cached.backward_steps(spec_json).count
    return len([n for n in result.nodes if n.kind == "op"])


def _controls(k: int, count: int) -> None:
    row = st.container(horizontal=True, vertical_alignment="bottom")
    # Words, not icons alone: a screen reader read an icon-only button as its icon's name
    # ("chevron_right"), and the words say the same to everyone.
    buttons = (("first", "First", 0, "First step"),
               ("back", "Back", max(k - 1, 0), "One step back"),
               ("next", "Next", min(k + 1, count), "One step on"),
               ("last", "Last", count, "Last step"))
    for name, label, target, tip in buttons:
        row.button(label, key=keys.STEP_BUTTON + name, on_click=go,
                   args=(target,), help=tip, disabled=target == k)
    playing = st.session_state[keys.STEP_PLAYING]
    row.button("Pause" if playing else "Play", key=keys.STEP_BUTTON + "play",
               icon=":material/pause:" if playing else ":material/play_arrow:",
               on_click=_set_playing, args=(not playing, k, count), type="primary",
               disabled=count == 0,
               help=f"Advance one step every {_play_seconds():g} s, to the end"
               + (" (slower: your system asks for reduced motion)." if motion.reduced() else "."))
    if count:
        state.show_in_widget(keys.STEP_SLIDER, k)
        row.slider("Step", 0, count, key=keys.STEP_SLIDER, on_change=_slide)
    else:
        row.caption("Nothing to step through: the graph has no operation on the way.")


def _play_seconds() -> float:
    return PLAY_SECONDS[motion.reduced()]


def _set_playing(playing: bool, k: int, count: int) -> None:
    """Play or Pause as the button said when drawn, so a late click never undoes the last."""
    if playing and k >= count:
        go(0)
    st.session_state[keys.STEP_PLAYING] = playing


def _slide() -> None:
    go(st.session_state[keys.STEP_SLIDER])


def _step(spec_json: str, result: Result, k: int, hidden: Exercise | None) -> None:
    opts = state.options()
    moved = wrt() if mode() == "tangent" else None
    answered = state.answered(state.exercise())
    layouts = [(rankdir, compact, cached.step(spec_json, mode(), k, moved, hidden, rankdir,
                                              opts.font_size, compact, answered))
               for rankdir, compact in opts.variants(len(result.nodes))]
    shown = layouts[0][2][0]
    focus = shown.overlay.focus or ((shown.node,) if shown.node else ())
    drawing_col, text_col = st.columns([3, 2], gap="large")
    with drawing_col:
        drawing.show([(rankdir, compact, dot) for rankdir, compact, (_, dot) in layouts],
                     focus=focus, announce=". ".join(shown.spoken))
        if opts.crowded(len(result.nodes)):
            st.caption(f"{len(result.nodes)} nodes: drawn compact, numbers of larger tensors "
                       "left out (hover over a node for them).")
    with text_col:
        st.markdown(f"**{as_markdown(shown.heading)}**")
        st.html(KATEX_STYLE)
        for line in shown.lines:
            st.latex(line)
        if shown.node is not None and mode() != "forward":
            node = result.node(shown.node)
            if node.op is not None:
                st.caption(f"**{node.op}**: " + as_markdown(registry.get(node.op).sentence))
                local = formulas.local_derivative(result, node.name)
                if local:
                    st.caption(f"Local derivatives of {node.name}, in its own names:")
                    st.latex(local)
        for note in shown.notes:
            st.markdown(note)
    _trace(spec_json, k, hidden)


def _trace(spec_json: str, k: int, hidden: Exercise | None) -> None:
    name = TRACE_NAMES[mode()]
    rows = cached.trace(spec_json, mode(), wrt() if mode() == "tangent" else None, hidden)
    with st.expander(f"Evaluation trace: {name.lower()}", expanded=True):
        st.caption(_TRACE_NOTES[mode()])
        frame = pd.DataFrame([(r.step, r.node, r.equation.text, r.value) for r in rows],
                             columns=list(traces.COLUMNS))
        styled = frame.style.apply(
            lambda row: [_HIGHLIGHT if row["step"] == k else ""] * len(row), axis=1)
        st.dataframe(styled, hide_index=True, width="stretch",
                     key=state.table_key(keys.TRACE_TABLE),
                     column_config={"step": st.column_config.NumberColumn(width="small"),
                                    "equation": st.column_config.TextColumn(width="large")})
        files = st.container(horizontal=True)
        stem = name.lower().replace(" ", "_")
        files.download_button("LaTeX", traces.to_latex(list(rows), name), file_name=f"{stem}.tex",
                              mime="text/x-tex", icon=":material/download:", on_click="ignore",
                              key=keys.TRACE_DOWNLOAD + "tex")
        files.download_button("CSV", traces.to_csv(list(rows)), file_name=f"{stem}.csv",
                              mime="text/csv", icon=":material/download:", on_click="ignore",
                              key=keys.TRACE_DOWNLOAD + "csv")


_TRACE_NOTES = {
    "forward": "Inputs are v₋ₙ₊₁ … v₀ and every operation is vᵢ in the order it is computed "
               "(Griewank and Walther's notation); the highlighted row is this step.",
    "tangent": "v̇ᵢ is dvᵢ/dt when the chosen input moves at unit speed: forward mode carries it "
               "along with every value, one pass per input direction.",
    "reverse": "v̄ᵢ is d(output)/dvᵢ. Each line is one contribution, in the order the engine's "
               "backward made it: a variable used twice gets two lines, and its adjoint is "
               "their sum.",
}
