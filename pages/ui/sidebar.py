"""The sidebar every page shares: presets, output, undo/redo, display options and the share link.

Each widget is "controlled": its key is written from the plain state before it is drawn, and
its callback writes the plain state back. So a widget shows the truth after an undo, a preset or
a link, and nothing is lost when Streamlit forgets widget values between pages.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from pages.ui import cached, keys, notes
from pages.ui import session as state
from pages.ui.copy_box import copy_box
from playground import GraphSpec, edits, presets, view


def render() -> None:
    with st.sidebar:
        _graph_controls()
        _share_link()
        _display_controls()


def _graph_controls() -> None:
    st.subheader("Graph", divider="gray")
    matching = cached.preset_key_of(state.spec_json())
    st.selectbox(
        "Load a preset",
        [p.key for p in presets.PRESETS],
        index=None,
        format_func=lambda key: presets.get(key).title,
        key=keys.PRESET,
        placeholder="Choose an example graph…",
        on_change=_load_preset,
    )
    if matching is not None:
        preset = presets.get(matching)
        explanation = (preset.explanation if state.still_hidden(state.exercise()) is None
                       else "(Its explanation gives answers away: it shows once the exercise's "
                            "answers are revealed.)")
        if state.options().show == "value":  # the class is predicting the gradients
            explanation = ("(Its explanation names the gradients, which *Show on each node: "
                           "Values* hides: it shows with Both or Gradients.)")
        st.caption(f"**{preset.title}.** {explanation}")

    st.button(
        "New graph",
        icon=":material/add_circle:",
        on_click=_new_graph,
        disabled=not len(state.spec()),
        width="stretch",
        key=keys.NEW_GRAPH,
        help="Start from an empty graph, to build a neuron of your own on the Build page "
        "without the example beside it. Undo brings the last graph back.",
    )

    state.show_in_widget(keys.OUTPUT, state.spec().effective_output)
    st.selectbox(
        "Output (differentiated)",
        state.spec().names,
        key=keys.OUTPUT,
        help="Backward starts here: every gradient is d(output)/d(node).",
        on_change=_choose_output,
    )
    notes.show_error("output")

    undo_col, redo_col = st.columns(2)
    undo_col.button(
        "Undo",
        icon=":material/undo:",
        on_click=state.undo,
        disabled=not state.history().can_undo,
        width="stretch",
        key=keys.UNDO,
    )
    redo_col.button(
        "Redo",
        icon=":material/redo:",
        on_click=state.redo,
        disabled=not state.history().can_redo,
        width="stretch",
        key=keys.REDO,
    )


def _display_controls() -> None:
    st.subheader("Display", divider="gray")
    opts = state.options()
    state.show_in_widget(keys.SHOW, opts.show)
    st.segmented_control(
        "Show on each node",
        list(view.SHOW_LABELS),
        format_func=view.SHOW_LABELS.get,
        key=keys.SHOW,
        required=True,
        on_change=_copy_option,
        args=(keys.SHOW, "show"),
    )
    state.show_in_widget(keys.RANKDIR, opts.rankdir)
    st.segmented_control(
        "Layout",
        list(view.RANKDIR_LABELS),
        format_func=view.RANKDIR_LABELS.get,
        key=keys.RANKDIR,
        required=True,
        help="Across: left to right, as micrograd draws. Down: top to bottom, which suits "
        "narrow screens. Auto: whichever shows the whole drawing on your screen with the larger "
        "text.",
        on_change=_copy_option,
        args=(keys.RANKDIR, "rankdir"),
    )
    state.show_in_widget(keys.FONT, opts.font_size)
    st.slider(
        "Font size (projectors: 20+)",
        min_value=view.FONT_SIZES[0],
        max_value=view.FONT_SIZES[1],
        help="The drawing's text size, and above 14 the whole page's too (28 doubles every "
        "caption, table, metric and this sidebar, for the back of a room). A drawing bigger "
        "than the room on the screen starts shrunk to fit it whole: zoom in with the mouse "
        "wheel, a pinch or the + button on the drawing.",
        key=keys.FONT,
        on_change=_copy_option,
        args=(keys.FONT, "font_size"),
    )
    state.show_in_widget(keys.COMPACT, opts.compact)
    st.toggle(
        "Compact drawing",
        key=keys.COMPACT,
        help="Smaller records without the entries of big tensors: for large graphs.",
        on_change=_copy_option,
        args=(keys.COMPACT, "compact"),
    )


def _share_link() -> None:
    st.subheader("Share", divider="gray")
    query = state.share_query()
    if view.GRAPH_PARAM not in query:
        st.info(view.LINK_TOO_LONG, icon=":material/link_off:")
        spec_json = state.spec_json()
        st.download_button("JSON", lambda: spec_json, file_name="graph.json",
                           mime="application/json", icon=":material/download:",
                           on_click="ignore", key=keys.DOWNLOAD + "share_json")
        return
    query = urlencode(query)
    base = st.context.url or ""
    copy_box(f"{base}?{query}", "Link to this graph", keys.SHARE_LINK)
    st.caption("Copy this link: it opens this graph, output and view in any browser.")


def _load_preset() -> None:
    key = st.session_state[keys.PRESET]
    st.session_state[keys.PRESET] = None
    if key is not None:
        state.apply_edit("preset", lambda _: presets.get(key).spec)


def _new_graph() -> None:
    state.apply_edit("preset", lambda _: GraphSpec.empty())


def _choose_output() -> None:
    name = st.session_state[keys.OUTPUT]
    state.apply_edit("output", lambda spec: edits.set_output(spec, name))


OPTION_WIDGETS = {keys.SHOW: "show", keys.RANKDIR: "rankdir", keys.FONT: "font_size",
                  keys.COMPACT: "compact"}
"""The display options' widgets and the option each one sets."""


def take_skipped_option_changes() -> None:
    """Options the user chose in a run Streamlit cut short, taken before anything draws with
    the options (`session.take_skipped_changes`)."""
    state.take_skipped_changes({key: (lambda k=key, f=field: _copy_option(k, f))
                                for key, field in OPTION_WIDGETS.items()})


def _copy_option(widget_key: str, field: str) -> None:
    """The widget's value into the options, if it is an allowed one (`view.changed`)."""
    st.session_state[keys.OPTIONS] = view.changed(state.options(), field,
                                                  st.session_state.get(widget_key))
