"""Step through page: the forward pass, forward mode and the engine's own backward pass, one
step at a time, with each step's chain rule in numbers, the evaluation trace and exercises."""

import streamlit as st

from pages.ui import cached, exercise_panel, frame, motion, notes, stepper
from pages.ui import session as state

frame.route_through_entry_script()
notes.stop_if_empty()
spec_json = state.spec_json()
result = cached.evaluate(spec_json)
exercise = state.exercise()
stepper.ensure_state(result, exercise)

st.title("Step through")
notes.result_notes(result)
exercise_panel.teaching_note(spec_json, exercise)
stepper.mode_controls(result)
if stepper.mode() == "tangent" and stepper.wrt() is None:
    st.info("Forward mode moves an input, and this graph has none (only constants).",
            icon=":material/info:")
else:
    stepper.stepper(spec_json, result, state.still_hidden(exercise))
if stepper.mode() != "forward":  # below the drawing, which gets the screen's height
    stepper.passes_note(result)
exercise_panel.panel(spec_json, result, exercise)
motion.ask_browser()  # Play slows down for a reader who asked for reduced motion
