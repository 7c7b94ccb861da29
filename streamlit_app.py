"""Autograd Playground: build a computation graph and watch every value and gradient.

Run with `streamlit run streamlit_app.py`. Every session runs navigation.py (the pages); this
file adds one address beside them, pages/ui/classroom_beat.py's, where a student's page in a
Live class waits for the teacher's next step without a rerun a second. Streamlit serves an
app's own addresses only from an `st.App`.
"""

import streamlit as st

from pages.ui import classroom_beat

app = st.App("navigation.py", routes=classroom_beat.routes(classroom_beat.Versions()))
