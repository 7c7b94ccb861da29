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
    keys,
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
    forms = {
        "Add a node": lambda: add_form.draw(spec, result),
        "Expression": lambda: expression_form.draw(spec_json),
        "Edit a node": lambda: edit_form.draw(spec, result),
        "Import JSON": import_form.draw,
    }
    # Only the open tab's form is built (a tab switch reruns): the hidden forms' widgets would
    # otherwise load their scripts in the browser before the drawing shows.
    tabs = st.tabs(list(forms), key=keys.BUILD_TAB, on_change="rerun")
    for tab, draw in zip(tabs, forms.values()):
        if tab.open:
            with tab:
                draw()
with legend_col:
    drawing.legend()
scroll.follow()  # after an edit from the form, up to the changed drawing
