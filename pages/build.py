"""Build page: grow the graph with the node form or the expression editor, edit it, see it drawn."""

import streamlit as st

from pages.ui import (
    add_form,
    cached,
    drawing,
    edit_form,
    exercise_panel,
    expression_form,
    frame,
    import_form,
    notes,
    scroll,
)
from pages.ui import session as state
from playground import edits

frame.route_through_entry_script()

spec = state.spec()
spec_json = state.spec_json()
result = cached.evaluate(spec_json) if len(spec) else None
exercise_panel.stop_if_answers_hidden("Build")

st.title("Build")
if result is None:
    st.info("**The graph is empty.** Add an input below (say `x` = 2), then operations on it; "
            "or type a whole model on the **Expression** tab; or load a preset from the "
            "sidebar. *New graph* starts empty rather than with one input so that your first "
            "node is named and valued by you; **Undo** in the sidebar brings the last graph back.",
            icon=":material/info:")
else:
    notes.result_notes(result)
    targets = edits.inputs_used_as_targets(spec)
    if targets:
        names = ", ".join(f"`{t}`" for t in targets)
        st.info(f"{names} {'is an input' if len(targets) == 1 else 'are inputs'}, so backward "
                "gives it a gradient, though the graph uses it only as a loss's target. For a "
                "label that should not learn, make it a constant: `y = const([1.0, 0.0])` on "
                "the Expression tab, or *Constant* in the form.", icon=":material/info:")
    drawing.drawing(spec_json)
editor_col, legend_col = st.columns([3, 2], gap="large")
with editor_col:
    add_tab, expr_tab, edit_tab, import_tab = st.tabs(
        ["Add a node", "Expression", "Edit a node", "Import JSON"])
    with add_tab:
        add_form.draw(spec, result)
    with expr_tab:
        expression_form.draw(spec_json)
    with edit_tab:
        edit_form.draw(spec, result)
    with import_tab:
        import_form.draw()
with legend_col:
    drawing.legend()
scroll.follow()  # after an edit from the form, up to the changed drawing
