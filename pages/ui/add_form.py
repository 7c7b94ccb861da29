"""Build → Add a node: an input or a constant with its value, or an operation on earlier nodes."""

from __future__ import annotations

import streamlit as st

from pages.ui import keys, node_widgets, notes
from pages.ui import session as state
from playground import GraphSpec, Node, edits, limits
from playground.evaluate import Result
from playground.registry import BY_FAMILY, FAMILY, OPS

KIND_LABELS = {"input": "Input", "const": "Constant", "op": "Operation"}
LEAF_STEMS = {"input": "x", "const": "c"}  # names of new leaves: x_1, c_1, ...


def draw(spec: GraphSpec, result: Result | None) -> None:
    kind = st.segmented_control(
        "Kind of node", list(KIND_LABELS), format_func=KIND_LABELS.get, default="op",
        required=True, key=keys.ADD_KIND,
    )
    op = None
    if kind == "op":
        if result is None:
            st.info("An operation needs operands: add an input first.", icon=":material/info:")
            return
        stem = op = _operation_widgets(spec, result)
    else:
        node_widgets.value_widgets(keys.ADD_VALUE)
        stem = LEAF_STEMS[kind]
        if kind == "input":
            st.caption("An input requires grad: backward fills in its gradient.")
        else:
            st.caption("A constant takes part in the computation but gets no gradient.")
    st.text_input("Name (optional)", placeholder=edits.fresh_name(spec, stem), key=keys.ADD_NAME,
                  max_chars=limits.MAX_NAME_CHARS)
    st.button("Add node", type="primary", icon=":material/add:", on_click=_add_node,
              args=(kind, op), key=keys.ADD_GO)
    notes.show_error("add")


def _operation_widgets(spec: GraphSpec, result: Result) -> str:
    """The operation, its local derivative, its operands and attributes; returns the op's name."""
    op = st.selectbox(
        "Operation", BY_FAMILY, key=keys.ADD_OP,
        format_func=lambda name: f"{FAMILY[name]} · {name} — {OPS[name].description}",
        help="Grouped by family (arithmetic, matrix, elementwise, activation, reduction, shape, "
        "indexing, convolution, layer, loss): type a family or an op's name to narrow the "
        "list.",
    )
    info = OPS[op]
    st.latex(info.derivative)
    names = list(spec.names)
    if info.arity is None:
        st.multiselect("Operands (in order)", names, default=names[-2:], key=keys.ADD_OPERANDS)
        first = (st.session_state.get(keys.ADD_OPERANDS) or names[-1:])[0]
    else:
        for i, col in enumerate(st.columns(info.arity)):
            default = max(len(names) - info.arity + i, 0)
            col.selectbox(f"Operand {i + 1}", names, index=default,
                          key=keys.add_operand(info.arity, i))
        first = st.session_state[keys.add_operand(info.arity, 0)]
    node_widgets.attr_widgets(keys.ADD_ATTR, info, result.node(first).shape)
    return op


def _add_node(kind: str, op: str | None) -> None:
    """Add the node the form showed: `kind` and `op` are what it was drawn with, and a request
    that changed them as it pressed the button gets the form's message instead."""
    ss = st.session_state

    def make(current: GraphSpec) -> GraphSpec:
        node_widgets.unchanged(keys.ADD_KIND, kind, "the kind of node")
        if kind == "op":
            node_widgets.unchanged(keys.ADD_OP, op, "the operation")
        stem = op if kind == "op" else LEAF_STEMS[kind]
        name = str(ss.get(keys.ADD_NAME) or "").strip() or edits.fresh_name(current, stem)
        if kind == "op":
            info = OPS[op]
            attrs = node_widgets.read_attrs(keys.ADD_ATTR, info)
            node = Node.operation(name, info.name, *_chosen_operands(info), **attrs)
        else:
            node = Node(name, kind, value=node_widgets.read_value(keys.ADD_VALUE))
        return edits.add_node(current, node)

    if state.apply_edit("add", make):
        ss[keys.ADD_NAME] = ""


def _chosen_operands(info) -> tuple[str, ...]:
    if info.arity is None:
        return tuple(node_widgets.field(keys.ADD_OPERANDS, "the operands") or ())
    return tuple(node_widgets.field(keys.add_operand(info.arity, i), f"operand {i + 1}")
                 for i in range(info.arity))
