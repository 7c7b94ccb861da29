"""The Live class page for the teacher: the join code and QR code, the lesson's steps, moving
through them, and the projector's view of the current step's answers (live, every second)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.ui import classroom_chart, classroom_lessons, frame, keys
from pages.ui import classroom_state as cs
from playground import limits
from playground.classroom import ClassroomError, TeacherPass, lesson
from playground.classroom.qr import qr_png
from playground.errors import as_markdown

W = keys.WIDGET + "class_"
ADD_PAGE, ADD_TITLE, ADD_VIEW, ADD_TRAIN = W + "add_page", W + "add_title", W + "add_view", \
    W + "add_train"
PASTE, ADD_PASTED, ADD_AT = W + "paste", W + "add_pasted", W + "add_at"
PREVIOUS, NEXT, OPEN_HERE = W + "previous", W + "next", W + "open_here"
REVEAL, LOCK, RESET, CSV, END = W + "reveal", W + "lock", W + "reset", W + "csv", W + "end"
VIEW_PAGES = ("backprop", "graph", "", "gradients", "gradient_check")
"""The pages "add this view" offers, Step through first (where exercises are worked out)."""


def render(room: TeacherPass) -> None:
    _header(room)
    state = _call(cs.classroom().room_state, room.code, room.key)
    if state is None:
        return
    _lesson(room, state)
    st.subheader("Projector", divider="gray")
    _projector(room)


def _call(action, *args):
    """Run a classroom action; its refusal is shown (and None returned) instead of raised."""
    try:
        return action(*args)
    except ClassroomError as err:
        st.error(as_markdown(str(err)), icon=":material/error:")
        return None


def _act(action, *args) -> None:
    """A button's callback: run the action, keep its refusal for the top of the page."""
    try:
        action(*args)
    except ClassroomError as err:
        cs.say("error", str(err))


def _header(room: TeacherPass) -> None:
    link = cs.student_link(room.code)
    code_col, qr_col = st.columns([3, 1], vertical_alignment="center")
    with code_col:
        st.markdown(f"Join at **{as_markdown(cs.page_url())}** with the code")
        st.markdown(f"<div style='font-size:5.5rem;font-weight:700;letter-spacing:0.25em;"
                    f"font-family:monospace;line-height:1.1'>{room.code}</div>",
                    unsafe_allow_html=True)  # the code is 6 characters of codes.ALPHABET
        st.code(link, language=None, wrap_lines=True)
    with qr_col:
        st.image(qr_png(link), caption="Scan to join", width=260)
    with st.expander("Your private teacher link (never show it to the class)",
                     icon=":material/key:"):
        st.code(cs.teacher_link(room), language=None, wrap_lines=True)
        st.caption("It opens this class as its teacher, from any browser, until the class ends "
                   "(12 hours after it was opened). Keep it to yourself: it is the only key.")


def _lesson(room: TeacherPass, state) -> None:
    current = state.current
    st.subheader("Lesson", divider="gray")
    nav = st.container(horizontal=True, vertical_alignment="center")
    at_start = current is None or current.position == 0
    at_end = current is None or current.position == len(state.steps) - 1
    nav.button("Previous", icon=":material/arrow_back:", key=PREVIOUS, disabled=at_start,
               on_click=_act, args=(cs.classroom().advance, room.code, room.key, -1))
    nav.button("Next", icon=":material/arrow_forward:", key=NEXT, type="primary",
               disabled=at_end, on_click=_act,
               args=(cs.classroom().advance, room.code, room.key, 1))
    if current is not None:
        nav.markdown(f"**Step {current.position + 1} of {len(state.steps)}:** "
                     f"{as_markdown(current.title)}")
        nav.button("Open it here", icon=":material/open_in_browser:", key=OPEN_HERE,
                   help="Load this step into your own session and show its page, to present it.",
                   on_click=_open_here, args=(current,))
    else:
        nav.caption("No steps yet: add the first one below. The class sees it at once.")
    for step in state.steps:
        _step_row(room, step, step.id == (current.id if current else None), len(state.steps))
    with st.expander("Add a step", expanded=not state.steps, icon=":material/add:"):
        _add_forms(room)
    classroom_lessons.panel(room, state)


def _step_row(room: TeacherPass, step, is_current: bool, count: int) -> None:
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    marker = "▶ " if is_current else ""
    kind = " · exercise" if step.exercise else ""
    row.markdown(f"{marker}**{step.position + 1}.** {as_markdown(step.title)}{kind}",
                 width="stretch")
    api = cs.classroom()
    row.button("Go", icon=":material/play_arrow:", key=f"{W}go_{step.id}", help="Go to this step",
               disabled=is_current, on_click=_act,
               args=(api.go_to, room.code, room.key, step.position))
    row.button("Up", icon=":material/arrow_upward:", key=f"{W}up_{step.id}", help="Move up",
               disabled=step.position == 0, on_click=_act,
               args=(api.move_step, room.code, room.key, step.id, step.position - 1))
    row.button("Down", icon=":material/arrow_downward:", key=f"{W}down_{step.id}",
               help="Move down", disabled=step.position == count - 1, on_click=_act,
               args=(api.move_step, room.code, room.key, step.id, step.position + 1))
    row.button("Remove", icon=":material/delete:", key=f"{W}remove_{step.id}",
               help="Remove this step and its answers", on_click=_act,
               args=(api.remove_step, room.code, room.key, step.id))


def _add_forms(room: TeacherPass) -> None:
    st.markdown("**This session's graph** (as the sidebar's Share link has it, with its view and "
                "exercise), opened on:")
    row = st.container(horizontal=True, vertical_alignment="bottom")
    row.selectbox("Page", VIEW_PAGES, format_func=lambda p: lesson.PAGES[p], key=ADD_PAGE,
                  width=220)
    row.text_input("Title (optional)", key=ADD_TITLE, max_chars=limits.MAX_STEP_TITLE_CHARS,
                   placeholder="as the graph's preset or exercise says")
    row.button("Add as the last step", icon=":material/playlist_add:", key=ADD_VIEW,
               on_click=_add_view, args=(room,))
    position = cs.step_position()
    if st.session_state.get(ADD_PAGE, VIEW_PAGES[0]) == "backprop" and position is not None:
        st.checkbox(f"At your Step through position ({position.describe()}): the class sees "
                    "that step", key=ADD_AT)
    train = cs.train_link()
    if train is not None:
        st.button("Add this session's Train settings as the last step",
                  icon=":material/model_training:", key=ADD_TRAIN, on_click=_add,
                  args=(room, train, None))
    st.text_input("Or paste a link of this app", key=PASTE, max_chars=lesson.MAX_LINK_CHARS,
                  placeholder="https://…/backprop?graph=v1…&ex=grad:a,b")
    st.button("Add the link as the last step", icon=":material/link:", key=ADD_PASTED,
              on_click=_add_pasted, args=(room,))


def _add(room: TeacherPass, link: str, title: str | None) -> bool:
    try:
        cs.classroom().add_step(room.code, room.key, link, title)
    except ClassroomError as err:
        cs.say("error", f"That step was not added: {err}")
        return False
    cs.say("success", "Step added.")
    return True


def _add_view(room: TeacherPass) -> None:
    page = st.session_state.get(ADD_PAGE) or "backprop"
    at = cs.step_position() if page == "backprop" and st.session_state.get(ADD_AT) else None
    if _add(room, cs.current_view_link(page, at), st.session_state.get(ADD_TITLE) or None):
        st.session_state[ADD_TITLE] = ""


def _add_pasted(room: TeacherPass) -> None:
    if _add(room, st.session_state.get(PASTE) or "", None):
        st.session_state[PASTE] = ""


def _open_here(step) -> None:
    try:
        content = cs.load_step(step.page, step.query, step.revealed)
    except ClassroomError as err:
        cs.say("error", str(err))
        return
    st.session_state[cs.LOADED] = None
    st.session_state[keys.STATE + "class_go"] = content.page


def switch_if_asked() -> None:
    """After "Open it here": show the step's page (a callback cannot switch pages itself)."""
    target = st.session_state.pop(keys.STATE + "class_go", None)
    if target is not None:
        file = {"": "build.py", "backprop": "backprop.py"}.get(target, f"{target}.py")
        st.switch_page(frame.page(file))


def _projector(room: TeacherPass) -> None:
    @st.fragment(run_every=cs.FOLLOW_SECONDS)
    def live() -> None:
        summary = _call(cs.classroom().room_summary, room.code, room.key)
        if summary is None or summary.step is None:
            st.caption("The projector shows the current step's answers here, live.")
            return
        s, step = summary.step_summary, summary.step
        share = "–" if s.share_correct is None else f"{s.share_correct:.0%}"
        metrics = st.container(horizontal=True)
        metrics.metric("Joined", s.joined, border=True)
        metrics.metric("Answered", s.answered, border=True)
        metrics.metric("All right", share, border=True,
                       help="Of the students who answered, the share whose every answer is right.")
        if not step.exercise:
            st.caption("This step hides no numbers: nothing to answer. Hide some on Step "
                       "through (Exercise) and add that view as a step.")
            return
        state = ("answers revealed" if step.revealed else "answers hidden") + (
            " · closed" if step.locked else " · open")
        st.caption(f"Step {step.position + 1}: {state}")
        for node in s.nodes:
            chart_col, text_col = st.columns([3, 2], gap="large")
            with chart_col:
                if node.bars:
                    st.altair_chart(classroom_chart.answers_chart(node), width="stretch")
                else:
                    st.markdown(f"**{as_markdown(node.label)}**: no answers yet")
            with text_col:
                right = "–" if node.share_correct is None else f"{node.share_correct:.0%}"
                st.markdown(f"**{as_markdown(node.label)}**: {node.correct} of {node.answered} "
                            f"right ({right})")
                if step.revealed:
                    st.markdown(f"Answer: `{summary.answers[node.node]}`")
                if node.wrong:
                    st.dataframe(pd.DataFrame(
                        [(w.answer, w.count, w.recognised or "") for w in node.wrong],
                        columns=["common wrong answer", "students", "which is"]),
                        hide_index=True)
        row = st.container(horizontal=True)
        api = cs.classroom()
        row.button("Hide the answers" if step.revealed else "Reveal the answers",
                   icon=":material/lightbulb:", key=REVEAL, on_click=_act,
                   args=(api.reveal, room.code, room.key, not step.revealed))
        row.button("Reopen answers" if step.locked else "Close answers",
                   icon=":material/lock:", key=LOCK, on_click=_act,
                   args=(api.lock, room.code, room.key, not step.locked))
        row.button("Reset this step", icon=":material/restart_alt:", key=RESET, on_click=_act,
                   args=(api.reset_step, room.code, room.key),
                   help="Delete this step's answers; hidden and open again.")
        row.download_button("Answers (CSV)", lambda: api.export_csv(room.code, room.key),
                            file_name=f"class-{room.code}.csv", mime="text/csv",
                            icon=":material/download:", on_click="ignore", key=CSV)

    live()
