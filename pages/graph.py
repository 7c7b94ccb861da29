"""Graph page: the whole DAG drawn large, values and gradients on every node, and its downloads."""

import streamlit as st

from pages import _cache, _frame, _views
from pages import _state as state

_frame.ensure()
_views.require_nodes()
spec_json = state.spec_json()
result = _cache.evaluate(spec_json)

st.title("Graph")
_views.result_notes(result)
_views.drawing(spec_json)

st.subheader("Download", divider="gray")
dot_source = _views.drawing_source(spec_json)
svg_source = _cache.svg(dot_source)
downloads = st.container(horizontal=True)
downloads.download_button(
    "DOT", dot_source, file_name="graph.dot", mime="text/vnd.graphviz",
    icon=":material/download:", on_click="ignore", key="dl_dot",
)
downloads.download_button(
    "SVG", svg_source or "", file_name="graph.svg", mime="image/svg+xml",
    icon=":material/download:", on_click="ignore", key="dl_svg", disabled=svg_source is None,
    help=None if svg_source else "Needs Graphviz's `dot` program (apt package `graphviz`).",
)
downloads.download_button(
    "JSON", spec_json, file_name="graph.json", mime="application/json",
    icon=":material/download:", on_click="ignore", key="dl_json",
)
downloads.download_button(
    "Expression", _cache.expression_text(spec_json), file_name="graph.txt", mime="text/plain",
    icon=":material/download:", on_click="ignore", key="dl_text",
)
downloads.download_button(
    "PyTorch", _cache.pytorch_code(spec_json), file_name="graph_pytorch.py",
    mime="text/x-python", icon=":material/download:", on_click="ignore", key="dl_pytorch",
)
st.caption("The expression text pastes back into the Build page's editor; the PyTorch script "
           "recomputes the same gradients with `torch.autograd`.")

with st.expander("The same graph as text"):
    st.code(_cache.ascii_drawing(spec_json), language=None)
