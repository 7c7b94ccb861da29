"""Build page: grow the graph with the node form or the expression editor, edit it, see it drawn."""

import streamlit as st

from pages import _cache, _frame, _views, _widgets
from pages import _state as state
from playground import Node, edits, parse
from playground.registry import OPS

_frame.ensure()

KIND_LABELS = {"input": "Input", "const": "Constant", "op": "Operation"}
EXPR_TEXT = "expr_text"
EXPR_DRAFT = "pg_expr_draft"  # the editor's text, kept while other pages are shown
EXPR_FOR = "pg_expr_for"  # JSON of the graph the editor's text describes
EDIT_TARGET = "pg_edit_target"

spec = state.spec()
spec_json = state.spec_json()
result = _cache.evaluate(spec_json) if len(spec) else None


# --- callbacks (run before the next rerun) -------------------------------------------------------


def _add_node() -> None:
    ss = st.session_state
    kind = ss["add_kind"]

    def make(current):
        stem = ss["add_op"] if kind == "op" else {"input": "x", "const": "c"}[kind]
        name = (ss.get("add_name") or "").strip() or edits.fresh_name(current, stem)
        if kind == "op":
            info = OPS[ss["add_op"]]
            attrs = _widgets.read_attrs("add_attr", info)
            node = Node.operation(name, info.name, *_chosen_operands(info), **attrs)
        else:
            node = Node(name, kind, value=_widgets.read_value("add_value"))
        return edits.add_node(current, node)

    if state.apply_edit("add", make):
        ss["add_name"] = ""


def _chosen_operands(info) -> tuple[str, ...]:
    if info.arity is None:
        return tuple(st.session_state.get("add_operands") or ())
    return tuple(st.session_state[_operand_key(info.arity, i)] for i in range(info.arity))


def _operand_key(arity: int, slot: int) -> str:
    """One key per arity and slot: a unary op starts from the last node, not from whatever the
    first slot of a binary op held."""
    return f"add_operand_{arity}_{slot}"


def _apply_expression() -> None:
    text = st.session_state[EXPR_TEXT]
    st.session_state[EXPR_DRAFT] = text
    if state.apply_edit("expr", lambda _: parse(text)):
        st.session_state[EXPR_FOR] = state.spec_json()


def _reload_expression() -> None:
    st.session_state[EXPR_FOR] = None
    state.clear_error("expr")


def _rename() -> None:
    old, new = st.session_state[EDIT_TARGET], st.session_state["edit_new_name"].strip()
    if state.apply_edit("edit", lambda current: edits.rename(current, old, new)):
        st.session_state[EDIT_TARGET] = new
        st.session_state["edit_new_name"] = ""


def _edit_value_prefix(name: str) -> str:
    """Widget keys per node, so the value widgets start from the chosen node's value."""
    return f"edit_value_{name}"


def _set_value() -> None:
    name = st.session_state[EDIT_TARGET]
    prefix = _edit_value_prefix(name)
    state.apply_edit(
        "edit", lambda current: edits.set_value(current, name, _widgets.read_value(prefix))
    )


def _make_output() -> None:
    name = st.session_state[EDIT_TARGET]
    state.apply_edit("edit", lambda current: edits.set_output(current, name))


def _delete() -> None:
    name = st.session_state[EDIT_TARGET]
    cascade = bool(st.session_state.get("edit_cascade"))
    if state.apply_edit("edit", lambda current: edits.delete(current, name, cascade=cascade)):
        st.session_state["edit_cascade"] = False


def _pick_target() -> None:
    st.session_state[EDIT_TARGET] = st.session_state["edit_target"]


# --- the page ------------------------------------------------------------------------------------


def add_node_form() -> None:
    kind = st.segmented_control(
        "Kind of node", list(KIND_LABELS), format_func=KIND_LABELS.get, default="op",
        required=True, key="add_kind",
    )
    if kind == "op":
        if not len(spec):
            st.info("An operation needs operands: add an input first.", icon=":material/info:")
            return
        op = st.selectbox(
            "Operation", list(OPS), key="add_op",
            format_func=lambda name: f"{name} — {OPS[name].description}",
        )
        info = OPS[op]
        st.latex(info.derivative)
        names = list(spec.names)
        if info.arity is None:
            st.multiselect("Operands (in order)", names, default=names[-2:], key="add_operands")
            first = (st.session_state.get("add_operands") or names[-1:])[0]
        else:
            cols = st.columns(info.arity)
            for i, col in enumerate(cols):
                default = max(len(names) - info.arity + i, 0)
                col.selectbox(f"Operand {i + 1}", names, index=default,
                              key=_operand_key(info.arity, i))
            first = st.session_state[_operand_key(info.arity, 0)]
        _widgets.attr_widgets("add_attr", info, result.node(first).shape)
        stem = op
    else:
        _widgets.value_widgets("add_value")
        stem = "x" if kind == "input" else "c"
        if kind == "input":
            st.caption("An input requires grad: backward fills in its gradient.")
        else:
            st.caption("A constant takes part in the computation but gets no gradient.")
    st.text_input("Name (optional)", placeholder=edits.fresh_name(spec, stem), key="add_name",
                  max_chars=64)
    st.button("Add node", type="primary", icon=":material/add:", on_click=_add_node, key="add_go")
    state.show_error("add")


def expression_editor() -> None:
    if st.session_state.get(EXPR_FOR) != spec_json and state.error_for("expr") is None:
        st.session_state[EXPR_DRAFT] = _cache.expression_text(spec_json)
        st.session_state[EXPR_FOR] = spec_json
    st.session_state[EXPR_TEXT] = st.session_state[EXPR_DRAFT]
    with st.form("expr_form", border=False):
        st.text_area(
            "One assignment per line; the last line is the output unless `output(name)` says "
            "otherwise.",
            key=EXPR_TEXT, height=260, max_chars=20_000,
            placeholder="a = 2.0\nb = 3.0\nc = a * b\nd = c + a",
        )
        st.form_submit_button("Apply", type="primary", icon=":material/play_arrow:",
                              on_click=_apply_expression, key="expr_apply")
    error = state.error_for("expr")
    if error is not None:
        _views.error_snippet(error, st.session_state[EXPR_DRAFT])
        st.caption("The drawing still shows the last graph that worked.")
        st.button("Discard my text and show the current graph", on_click=_reload_expression,
                  key="expr_reload")
    with st.expander("What can I type?"):
        st.markdown(
            "- `x = 2.0` or `w = [[0.5, -1.0], [2.0, 0.1]]`: an input (it gets a gradient)\n"
            "- `b = const(0.1)`: a constant (no gradient)\n"
            "- `W = randn(3, 2, seed=0)`; also `rand`, `zeros`, `ones`, `full(2, 2, value=0.5)`\n"
            "- operators `+ - * / ** @`, functions such as `tanh(x)`, `sum(x, axis=0)`, "
            "`softmax(z, axis=-1)`, `mse_loss(p, t)`\n"
            "- `h[0]` picks an element; `[x, y]` stacks\n"
            "- `output(L)` chooses the output"
        )


def edit_node_form() -> None:
    if not len(spec):
        st.info("The graph is empty.", icon=":material/info:")
        return
    if st.session_state.get(EDIT_TARGET) not in spec:
        st.session_state[EDIT_TARGET] = spec.names[-1]
    st.session_state["edit_target"] = st.session_state[EDIT_TARGET]
    name = st.selectbox("Node", spec.names, key="edit_target", on_change=_pick_target)
    node = spec[name]
    if node.is_leaf:
        st.caption(f"{KIND_LABELS[node.kind]} with value `{_views.value_text(result, name)}`")
    else:
        st.caption(f"`{node.op}` of {', '.join(node.operands)}")

    rename_col, button_col = st.columns([3, 1], vertical_alignment="bottom")
    rename_col.text_input("New name", key="edit_new_name", max_chars=64)
    button_col.button("Rename", on_click=_rename, key="edit_rename", width="stretch")

    if node.is_leaf:
        _widgets.value_widgets(_edit_value_prefix(name), current=node.value)
        st.button("Set value", on_click=_set_value, key="edit_set_value")

    st.button(f"Make `{name}` the output", on_click=_make_output, key="edit_output",
              disabled=result is not None and result.output == name)

    users = edits.dependents(spec, name)
    if users:
        st.warning(f"{len(users)} node{'s' if len(users) > 1 else ''} depend on `{name}`: "
                   + ", ".join(f"`{u}`" for u in users), icon=":material/account_tree:")
        cascade = st.checkbox(f"Also delete {'them' if len(users) > 1 else 'it'}",
                              key="edit_cascade")
    else:
        cascade = True
    st.button(f"Delete `{name}`", on_click=_delete, key="edit_delete", icon=":material/delete:",
              disabled=not cascade)
    state.show_error("edit")


st.title("Build")
if result is None:
    st.info("The graph is empty: add an input below, type an expression, or load a preset from "
            "the sidebar.", icon=":material/info:")
else:
    _views.result_notes(result)
    _views.drawing(spec_json)
editor_col, legend_col = st.columns([3, 2], gap="large")
with editor_col:
    add_tab, expr_tab, edit_tab = st.tabs(["Add a node", "Expression", "Edit a node"])
    with add_tab:
        add_node_form()
    with expr_tab:
        expression_editor()
    with edit_tab:
        edit_node_form()
with legend_col:
    _views.legend()
