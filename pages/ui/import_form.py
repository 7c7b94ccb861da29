"""Build → Import JSON: a graph's JSON document, uploaded or pasted, becomes the graph.

The document is read by `GraphSpec.from_json` (the same checks and limits as a share link);
anything wrong with it is the form's message, the graph on screen stays, and Undo brings back
the graph from before an import.
"""

from __future__ import annotations

import streamlit as st

from pages.ui import keys, node_widgets, notes
from pages.ui import session as state
from playground import GraphSpec, SpecError, limits


def draw() -> None:
    with st.form(keys.IMPORT_FORM, border=False):
        st.file_uploader("A graph's JSON file (the Graph page's JSON download)", type=["json"],
                         key=keys.IMPORT_FILE)
        st.text_area("…or paste its JSON here", key=keys.IMPORT_TEXT, height=140,
                     max_chars=limits.MAX_JSON_CHARS,
                     placeholder='{"version": 1, "nodes": [{"name": "x", "kind": "input", '
                                 '"value": 2.0}]}')
        st.form_submit_button("Import", icon=":material/upload_file:", on_click=_import,
                              key=keys.IMPORT_GO)
    notes.show_error("import")


def _import() -> None:
    def make(current: GraphSpec) -> GraphSpec:
        upload = node_widgets.field(keys.IMPORT_FILE, "the file")
        text = node_widgets.field(keys.IMPORT_TEXT, "the pasted JSON") or ""
        if upload is not None:
            if upload.size > limits.MAX_JSON_CHARS:
                raise SpecError(f"the file has {upload.size:,} bytes, more than the limit of "
                                f"{limits.MAX_JSON_CHARS:,}")
            return GraphSpec.from_json(upload.getvalue())
        if not text.strip():
            raise SpecError("choose a graph's JSON file or paste its JSON, then press Import")
        return GraphSpec.from_json(text)

    state.apply_edit("import", make)
