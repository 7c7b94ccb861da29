"""Build → Edit a node: rename it, give a leaf a new value, make it the output, delete it."""

from __future__ import annotations

import streamlit as st

from pages.ui import keys, node_widgets, notes
from pages.ui import session as state
from pages.ui.add_form import KIND_LABELS
from playground import GraphSpec, edits, limits
from playground.errors import as_markdown
from playground.evaluate import Result
from playground.formatting import array_text


def draw(spec: GraphSpec, result: Result | None) -> None:
    if result is None:
        st.info("The graph is empty.", icon=":material/info:")
        return
    ss = st.session_state
    if ss.get(keys.EDIT_TARGET) not in spec:
        ss[keys.EDIT_TARGET] = spec.names[-1]
    ss[keys.EDIT_NODE] = ss[keys.EDIT_TARGET]
    name = st.selectbox("Node", spec.names, key=keys.EDIT_NODE, on_change=_pick_node)
    node = spec[name]
    if node.is_leaf:
        st.caption(f"{KIND_LABELS[node.kind]} with value `{array_text(result.value(name))}`")
    else:
        st.caption(as_markdown(f"`{node.op}` of {', '.join(node.operands)}"))

    rename_col, button_col = st.columns([3, 1], vertical_alignment="bottom")
    rename_col.text_input("New name", key=keys.EDIT_NEW_NAME,
                          max_chars=limits.MAX_NAME_CHARS)
    button_col.button("Rename", on_click=_rename, args=(name,), key=keys.EDIT_RENAME,
                      width="stretch")

    if node.is_leaf and node_widgets.editable_here(node.value):
        st.info(node_widgets.editable_here(node.value), icon=":material/info:")
    elif node.is_leaf:
        node_widgets.value_widgets(keys.edit_value(name), current=node.value)
        st.button("Set value", on_click=_set_value, args=(name,), key=keys.EDIT_SET_VALUE)

    st.button(f"Make `{name}` the output", on_click=_make_output, args=(name,),
              key=keys.EDIT_OUTPUT, disabled=result.output == name)

    users = edits.dependents(spec, name)
    if users:
        st.warning(as_markdown(f"{len(users)} node{'s' if len(users) > 1 else ''} depend on "
                               f"`{name}`: " + ", ".join(f"`{u}`" for u in users)),
                   icon=":material/account_tree:")
        cascade = st.checkbox(f"Also delete {'them' if len(users) > 1 else 'it'}",
                              key=keys.EDIT_CASCADE)
    else:
        cascade = True
    st.button(f"Delete `{name}`", on_click=_delete, args=(name,),
              key=keys.EDIT_DELETE, icon=":material/delete:", disabled=not cascade)
    notes.show_error("edit")


def _pick_node() -> None:
    st.session_state[keys.EDIT_TARGET] = st.session_state[keys.EDIT_NODE]


def _same_node(name: str) -> None:
    """A button acts on the node the form showed (`name`); SpecError when the request also
    chose another node."""
    node_widgets.unchanged(keys.EDIT_NODE, name, "the node")


def _rename(name: str) -> None:
    new_name = str(st.session_state.get(keys.EDIT_NEW_NAME) or "").strip()

    def make(current):
        _same_node(name)
        return edits.rename(current, name, new_name)

    if state.apply_edit("edit", make):
        st.session_state[keys.EDIT_TARGET] = new_name
        st.session_state[keys.EDIT_NEW_NAME] = ""


def _set_value(name: str) -> None:
    def make(current):
        _same_node(name)
        return edits.set_value(current, name, node_widgets.read_value(keys.edit_value(name)))

    state.apply_edit("edit", make)


def _make_output(name: str) -> None:
    def make(current):
        _same_node(name)
        return edits.set_output(current, name)

    state.apply_edit("edit", make)


def _delete(name: str) -> None:
    def make(current):
        _same_node(name)
        cascade = bool(st.session_state.get(keys.EDIT_CASCADE))
        return edits.delete(current, name, cascade=cascade)

    if state.apply_edit("edit", make):
        st.session_state[keys.EDIT_CASCADE] = False
