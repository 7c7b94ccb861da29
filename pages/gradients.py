"""Gradients page: the drawing to pick a node, every node's numbers in a sortable table, that
node in detail with its local derivative in its own names and numbers, and each op's rule."""

import streamlit as st

from pages.ui import cached, charts, drawing, exercise_panel, frame, keys, notes, scroll
from pages.ui import session as state
from playground import formulas, registry, render, selection
from playground.errors import as_markdown
from playground.formatting import number, shape_text

frame.route_through_entry_script()

notes.stop_if_empty()
exercise_panel.stop_if_answers_hidden("Gradients")
spec_json = state.spec_json()
spec = state.spec()
result = cached.evaluate(spec_json)
table = cached.node_table(spec_json)


def _default_detail() -> str:
    """The first input (a leaf with a gradient), else the output."""
    return next((n.name for n in result.nodes if n.kind == "input"), result.output)


def _pick_row() -> None:
    rows = st.session_state[state.table_key(keys.NODE_TABLE)].selection.rows
    row = selection.chosen_row(rows, len(spec.names))  # a forged selection changes nothing
    if row is not None:
        st.session_state[keys.DETAIL_NODE] = spec.names[row]


def _pick_name() -> None:
    st.session_state[keys.DETAIL_NODE] = st.session_state[keys.DETAIL_WIDGET]
    _select_row(st.session_state[keys.DETAIL_NODE])


def _pick_drawn(name: str) -> None:
    """A node clicked in the drawing: its row selected in the table, its detail in sight."""
    if selection.chosen_name(name, spec.names) is not None:
        st.session_state[keys.DETAIL_NODE] = name
        _select_row(name)
        scroll.request("detail")


def _select_row(name: str) -> None:
    """Select `name`'s row of the table (its rows are the graph's nodes, in order)."""
    if name in spec:
        st.session_state[state.table_key(keys.NODE_TABLE)] = {
            "selection": {"rows": [spec.names.index(name)], "columns": []}}


if st.session_state.get(keys.DETAIL_NODE) not in spec:
    st.session_state[keys.DETAIL_NODE] = _default_detail()

st.title("Gradients")
notes.result_notes(result)
drawing.drawing(spec_json, selected=st.session_state[keys.DETAIL_NODE], on_select=_pick_drawn)

st.dataframe(
    table,
    hide_index=True,
    key=state.table_key(keys.NODE_TABLE),
    on_select=_pick_row,
    selection_mode="single-row",
    column_config={
        "name": st.column_config.TextColumn("node", pinned=True, width=110),
        "value": st.column_config.TextColumn("value", width="medium"),
        "gradient": st.column_config.TextColumn("gradient", width="medium"),
        "grad_norm": st.column_config.NumberColumn("‖gradient‖", format="%.4g"),
        "flag": st.column_config.TextColumn("flag", width="medium"),
    },
)
st.caption("Click a column header to sort; select a row, or a node in the drawing above, to see "
           "that node in detail below.")

detail_col, formula_col = st.container(key=keys.DETAIL_BLOCK).columns([3, 2], gap="large")

with detail_col:
    st.subheader("Node detail", divider="gray")
    state.show_in_widget(keys.DETAIL_WIDGET, st.session_state[keys.DETAIL_NODE])
    name = st.selectbox("Node", spec.names, key=keys.DETAIL_WIDGET, on_change=_pick_name)
    node = result.node(name)
    unused = name in render.not_used(result)
    shape = shape_text(node.shape)
    if node.op is None:
        st.markdown(f"**{name}**: {'input' if node.kind == 'input' else 'constant'}, {shape}")
    else:
        operands = ", ".join(f"`{o}`" for o in node.operands)
        st.markdown(f"**{name}** = `{node.op}`({operands}), {shape}")
    if node.op is not None:
        st.latex(formulas.local_derivative(result, name))
        st.caption(as_markdown(registry.get(node.op).sentence))
    if node.flag:
        st.warning(node.flag, icon=":material/warning:")
    if node.value.ndim == 0:
        value_col, grad_col = st.columns(2)
        value_col.metric("value", number(node.value))
        grad_col.metric("gradient", "none" if node.grad is None
                        else render.not_used_text(result) if unused else number(node.grad))
    elif node.value.size > charts.HEATMAP_MAX_CELLS:
        st.info(f"{node.value.size:,} elements are too many to draw one by one; the table below "
                "lists them.", icon=":material/info:")
    else:
        value_col, grad_col = st.columns(2)
        values, note = cached.heatmap(spec_json, name, "value")
        value_col.vega_lite_chart(spec=values, width="content")
        if node.grad is None:
            grad_col.info("No gradient: a constant, or made of constants only.")
        elif unused:
            grad_col.info(f"No gradient: {render.not_used_text(result)}.")
        else:
            grad_col.vega_lite_chart(spec=cached.heatmap(spec_json, name, "gradient")[0],
                                     width="content")
        if note:
            st.caption(note)
    if node.value.ndim:
        with st.expander("Every element"):
            elements, total = cached.element_table(spec_json, name)
            if total > elements.num_rows:
                st.caption(f"The first {elements.num_rows:,} of {total:,} elements.")
            st.dataframe(elements, hide_index=True, key=state.table_key(keys.ELEMENT_TABLE))

with formula_col:
    st.subheader("Local derivatives", divider="gray")
    st.caption("Backward multiplies each node's gradient by its op's local derivative and adds "
               "the product into the operands' gradients (the chain rule). Each rule names an "
               "op's operands u, v (x for one operand), whatever the graph calls them.")
    used = dict.fromkeys(n.op for n in result.nodes if n.op)
    for op in used:
        info = registry.get(op)
        nodes = ", ".join(n.name for n in result.nodes if n.op == op)
        st.markdown(f"**{op}** — {info.description} Used by: {nodes}.")
        st.latex(formulas.rule(op))
        st.caption(as_markdown(formulas.rule_sentence(op)))

scroll.follow()  # after a click on the drawing, down to the node's detail
