"""Graph page: the whole DAG drawn large, values and gradients on every node, and its downloads."""

import streamlit as st

from pages.ui import cached, drawing, frame, keys, notes
from pages.ui import session as state

frame.route_through_entry_script()
notes.stop_if_empty()
spec_json = state.spec_json()
result = cached.evaluate(spec_json)

st.title("Graph")
notes.result_notes(result)
drawing.drawing(spec_json)

st.subheader("Download", divider="gray")
dot_source = drawing.drawing_source(spec_json)
svg_source = cached.svg(dot_source)
downloads = st.container(horizontal=True)
downloads.download_button(
    "DOT", dot_source, file_name="graph.dot", mime="text/vnd.graphviz",
    icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "dot",
)
downloads.download_button(
    "SVG", svg_source or "", file_name="graph.svg", mime="image/svg+xml",
    icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "svg",
    disabled=svg_source is None,
    help=None if svg_source else "Needs Graphviz's `dot` program (apt package `graphviz`).",
)
downloads.download_button(
    "JSON", spec_json, file_name="graph.json", mime="application/json",
    icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "json",
)
downloads.download_button(
    "Expression", cached.expression_text(spec_json), file_name="graph.txt", mime="text/plain",
    icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "text",
)
downloads.download_button(
    "PyTorch", cached.pytorch_code(spec_json), file_name="graph_pytorch.py",
    mime="text/x-python", icon=":material/download:", on_click="ignore",
    key=keys.DOWNLOAD + "pytorch",
)
st.caption("The expression text pastes back into the Build page's editor; the PyTorch script "
           "recomputes the same gradients with `torch.autograd`.")

with st.expander("The same graph as text"):
    st.code(cached.ascii_drawing(spec_json), language=None)
