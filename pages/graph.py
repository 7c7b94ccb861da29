"""Graph page: the whole DAG drawn large, values and gradients on every node, and its downloads."""

from functools import partial

import streamlit as st

from pages.ui import cached, drawing, exercise_panel, frame, keys, notes
from pages.ui import session as state

frame.route_through_entry_script()


def _want_svg(key: str) -> None:
    st.session_state[keys.SVG_FOR] = key


notes.stop_if_empty()
exercise_panel.stop_if_answers_hidden("Graph")
spec_json = state.spec_json()
result = cached.evaluate(spec_json)

st.title("Graph")
notes.result_notes(result)
drawing.drawing(spec_json)

st.subheader("Download", divider="gray")
# Each file is made when its button is pressed (a callable runs off the script thread), so a
# rerun costs nothing for them; the SVG needs a Graphviz layout, so it is made on request.
dot_source = drawing.drawing_source(spec_json)
downloads = st.container(horizontal=True)
downloads.download_button(
    "DOT", lambda: dot_source, file_name="graph.dot", mime="text/vnd.graphviz",
    icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "dot",
)
downloads.download_button(
    "JSON", lambda: spec_json, file_name="graph.json", mime="application/json",
    icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "json",
)
downloads.download_button(
    "Expression", partial(cached.expression_file, spec_json), file_name="graph.txt",
    mime="text/plain", icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "text",
)
downloads.download_button(
    "PyTorch", partial(cached.pytorch_file, spec_json), file_name="graph_pytorch.py",
    mime="text/x-python", icon=":material/download:", on_click="ignore",
    key=keys.DOWNLOAD + "pytorch",
)
svg_key = cached.fingerprint(dot_source)
if st.session_state.get(keys.SVG_FOR) != svg_key:
    downloads.button(
        "Make SVG", icon=":material/draw:", key=keys.DOWNLOAD + "make_svg",
        on_click=_want_svg, args=(svg_key,),
        help="Lays the drawing out with Graphviz on the server, then offers the SVG file.",
    )
else:
    svg_source, problem = cached.svg(dot_source)
    if svg_source is None:
        st.warning(problem, icon=":material/warning:")
    else:
        downloads.download_button(
            "SVG", svg_source, file_name="graph.svg", mime="image/svg+xml",
            icon=":material/download:", on_click="ignore", key=keys.DOWNLOAD + "svg",
        )
st.caption("The expression text pastes back into the Build page's editor; the PyTorch script "
           "recomputes the same gradients with PyTorch's autograd.")

with st.expander("The same graph as text"):
    st.text(cached.ascii_drawing(spec_json, state.options().show))
