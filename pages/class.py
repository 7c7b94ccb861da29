"""Live class page: a teacher runs the lesson, the class follows and answers, the teacher sees
who understood (pages/ui/classroom_*.py draw it; playground/classroom keeps the rooms)."""

import streamlit as st

from pages.ui import classroom_state as cs
from pages.ui import classroom_student, classroom_teacher, frame
from playground.errors import as_markdown

frame.route_through_entry_script()
classroom_teacher.switch_if_asked()
cs.read_url()

st.title("Live class")
message = st.session_state.pop(cs.MESSAGE, None)
if message is not None:
    getattr(st, message[0])(as_markdown(message[1]))
if cs.teacher() is not None:
    classroom_teacher.render(cs.teacher())
elif cs.student() is not None:
    classroom_student.render(cs.student())
else:
    classroom_student.landing()
