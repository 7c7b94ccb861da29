"""Autograd Playground: build a computation graph and watch every value and gradient.

Run with `streamlit run streamlit_app.py`. This entry script only routes: page config, the
graph state (from the session or from the URL), the shared sidebar, then the chosen page.
"""

import streamlit as st

from pages import _sidebar, _state

st.set_page_config(
    page_title="Autograd Playground",
    page_icon=":material/hub:",
    layout="wide",
    initial_sidebar_state="expanded",
)

page = st.navigation(
    [
        st.Page("pages/build.py", title="Build", icon=":material/construction:", default=True),
        st.Page("pages/graph.py", title="Graph", icon=":material/account_tree:"),
        st.Page("pages/gradients.py", title="Gradients", icon=":material/table_chart:"),
        st.Page("pages/gradient_check.py", title="Gradient check", icon=":material/rule:"),
    ]
)
_state.ensure_state()
_state.sync_url()
_sidebar.render()
_state.show_notices()
page.run()
