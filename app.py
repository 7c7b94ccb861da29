"""Autograd Playground served with the Live class's beat: `streamlit run app.py`.

The same app as `streamlit run streamlit_app.py` (that script runs every page), with one more
address, pages/ui/classroom_beat.py's, where a student's page waits for the teacher's next step
without a rerun a second; Streamlit serves extra addresses only from an `st.App`.
"""

import streamlit as st

from pages.ui import classroom_beat

app = st.App("streamlit_app.py", routes=classroom_beat.routes(classroom_beat.Versions()))
