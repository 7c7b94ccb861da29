"""Build → Expression: the whole graph as text, applied at once; a typo shows line and column."""

from __future__ import annotations

import streamlit as st

from pages.ui import cached, keys, notes
from pages.ui import session as state
from playground import limits, parse

HELP = (
    "- `x = 2.0` or `w = [[0.5, -1.0], [2.0, 0.1]]`: an input (it gets a gradient)\n"
    "- `b = const(0.1)`: a constant (no gradient)\n"
    "- `W = randn(3, 2, seed=0)`; also `rand`, `zeros`, `ones`, `full(2, 2, value=0.5)`\n"
    "- operators `+ - * / ** @`, functions such as `tanh(x)`, `sum(x, axis=0)`, "
    "`softmax(z, axis=-1)`, `mse_loss(p, t)`\n"
    "- `h[0]` picks an element; `[x, y]` stacks\n"
    "- `output(L)` chooses the output"
)


def draw(spec_json: str) -> None:
    """The editor starts from the current graph's text; a refused text stays for fixing."""
    ss = st.session_state
    if ss.get(keys.EXPR_FOR) != spec_json and state.error_for("expr") is None:
        ss[keys.EXPR_DRAFT] = cached.expression_text(spec_json)
        ss[keys.EXPR_FOR] = spec_json
    ss[keys.EXPR_TEXT] = ss[keys.EXPR_DRAFT]
    with st.form(keys.EXPR_FORM, border=False):
        st.text_area(
            "One assignment per line; the last line is the output unless `output(name)` says "
            "otherwise.",
            key=keys.EXPR_TEXT, height=260, max_chars=limits.MAX_TEXT_CHARS,
            placeholder="a = 2.0\nb = 3.0\nc = a * b\nd = c + a",
        )
        st.form_submit_button("Apply", type="primary", icon=":material/play_arrow:",
                              on_click=_apply, key=keys.EXPR_APPLY)
    error = state.error_for("expr")
    if error is not None:
        notes.error_snippet(error, ss[keys.EXPR_DRAFT])
        st.caption("The drawing still shows the last graph that worked.")
        st.button("Discard my text and show the current graph", on_click=_discard,
                  key=keys.EXPR_RELOAD)
    with st.expander("What can I type?"):
        st.markdown(HELP)


def _apply() -> None:
    text = st.session_state[keys.EXPR_TEXT]
    st.session_state[keys.EXPR_DRAFT] = text
    if state.apply_edit("expr", lambda _: parse(text)):
        st.session_state[keys.EXPR_FOR] = state.spec_json()


def _discard() -> None:
    st.session_state[keys.EXPR_FOR] = None
    state.clear_error("expr")
