"""The Live class page for the teacher: the join code and QR code, the lesson's steps, moving
through them, and the projector's view of the current step's answers (live, every second)."""

from __future__ import annotations

import streamlit as st

from pages.ui import classroom_chart, classroom_lessons, frame, keys, scroll, session
from pages.ui import classroom_state as cs
from playground import limits, view
from playground.classroom import ClassroomError, TeacherPass, lesson
from playground.classroom.qr import qr_png
from playground.errors import as_markdown

W = keys.WIDGET + "class_"
ADD_PAGE, ADD_TITLE, ADD_VIEW, ADD_TRAIN = W + "add_page", W + "add_title", W + "add_view", \
    W + "add_train"
PASTE, ADD_PASTED, ADD_AT = W + "paste", W + "add_pasted", W + "add_at"
PREVIOUS, NEXT, OPEN_HERE = W + "previous", W + "next", W + "open_here"
REVEAL, LOCK, RESET, CSV = W + "reveal", W + "lock", W + "reset", W + "csv"
TEXT_SIZE = W + "text_size"
TEXT_SIZES = (14, 18, 22, 28, 34)
"""The projector's text sizes offered (the app's Font sizes; 14 is the default)."""
VIEW_PAGES = ("backprop", "graph", "", "gradients", "gradient_check")
"""The pages "add this view" offers, Step through first (where exercises are worked out)."""


def render(room: TeacherPass) -> None:
    """The room as the projector shows it (code, current step, the class's answers, live), then
    what only the teacher needs: the lesson's steps, adding steps, lessons."""
    _text_size()
    state = _call(cs.classroom().room_state, room.code, room.key)
    if state is None:
        return
    _header(room, large=state.current is None or state.current.position == 0)
    _navigation(room, state)
    _projector(room)
    st.subheader("Preparing the lesson", divider="gray")
    current = state.current.id if state.current else None
    with st.expander(f"The lesson's steps ({len(state.steps)})", icon=":material/list:"):
        if not state.steps:
            st.caption("None yet: add a ready lesson, a view or a link below.")
        for step in state.steps:
            _step_row(room, step, step.id == current, len(state.steps))
    with st.expander("Add a step", expanded=not state.steps, icon=":material/add:"):
        _add_forms(room)
    classroom_lessons.panel(room, state)
    st.download_button("The class's answers (CSV)",
                       lambda: cs.classroom().export_csv(room.code, room.key),
                       file_name=f"class-{room.code}.csv", mime="text/csv",
                       icon=":material/download:", on_click="ignore", key=CSV)
    scroll.follow()  # after a button that moved or disabled itself, the focus back near it


def _text_size() -> None:
    """The sidebar's text size for the projector: the app's Font size, which every text of the
    page grows with (the students' phones keep their own)."""
    before = session.options().font_size
    session.take_skipped_changes({TEXT_SIZE: _set_text_size})  # a press in a run cut short
    font = session.options().font_size
    if font != before:
        st.rerun()  # the frame drew this run's text at the old size
    session.show_in_widget(TEXT_SIZE, min(TEXT_SIZES, key=lambda size: abs(size - font)))
    st.sidebar.select_slider("Text size on the projector", TEXT_SIZES, key=TEXT_SIZE,
                             on_change=_set_text_size,
                             help="Every text of this page grows with it; 28 reads from the back "
                                  "of a room at 1920×1080.")


def _set_text_size() -> None:
    """The size chosen; a forged one (not offered) changes nothing."""
    size = st.session_state.get(TEXT_SIZE)
    if size in TEXT_SIZES:
        session.set_options(font_size=size)


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


def _header(room: TeacherPass, large: bool) -> None:
    """How to join: the code in letters a room can read and a QR code, while the lesson is at
    its first step; afterwards one line, the QR code a click away, so the lesson has the
    screen."""
    link = cs.student_link(room.code)
    if large:
        code_col, qr_col = st.columns([3, 1], vertical_alignment="center")
        with code_col:
            st.markdown(f"Join at **{as_markdown(cs.page_url())}** with the code")
            st.markdown(f"<div style='font-size:min(5.5rem,7.5vw);font-weight:700;"
                        f"letter-spacing:0.2em;white-space:nowrap;font-family:monospace;"
                        f"line-height:1.1'>{room.code}</div>",
                        unsafe_allow_html=True)  # the code is 6 characters of codes.ALPHABET
            st.code(link, language=None, wrap_lines=True)
        with qr_col:
            st.image(qr_png(link), caption="Scan to join", width=260)
    else:
        row = st.container(horizontal=True, vertical_alignment="center")
        row.markdown(f"Join at **{as_markdown(cs.page_url())}** with the code "
                     f"**`{room.code}`**")
        with row.popover("QR code", icon=":material/qr_code_2:"):
            st.image(qr_png(link), caption="Scan to join", width=320)
            st.code(link, language=None, wrap_lines=True)
    with st.expander("Your private teacher link (never show it to the class)",
                     icon=":material/key:"):
        st.code(cs.teacher_link(room), language=None, wrap_lines=True)
        st.caption("It opens this class as its teacher, from any browser, until the class ends "
                   "(12 hours after it was opened). Keep it to yourself: it is the only key.")


def _navigation(room: TeacherPass, state) -> None:
    """The current step, large, and the buttons that move the class."""
    current = state.current
    if current is None:
        st.subheader("No steps yet", divider="gray")
        st.caption("Add a ready lesson, a view or a link below: the class sees the first step "
                   "at once.")
        return
    st.subheader(f"Step {current.position + 1} of {len(state.steps)}: "
                 f"{as_markdown(current.title)}", divider="gray")
    nav = st.container(horizontal=True, vertical_alignment="center")
    nav.button("Previous", icon=":material/arrow_back:", key=PREVIOUS,
               disabled=current.position == 0, on_click=_move,
               args=(room, -1, current.position, len(state.steps)))
    nav.button("Next", icon=":material/arrow_forward:", key=NEXT, type="primary",
               disabled=current.position == len(state.steps) - 1, on_click=_move,
               args=(room, 1, current.position, len(state.steps)))
    nav.button("Open it here", icon=":material/open_in_browser:", key=OPEN_HERE,
               help="Load this step into your own session and show its page, to present it.",
               on_click=_open_here, args=(current,))


def _move(room: TeacherPass, by: int, position: int, count: int) -> None:
    """Previous or Next; the keyboard focus stays on the button pressed, or goes to the other
    one where it is now disabled (first or last step): the redrawn page had lost it."""
    _act(cs.classroom().advance, room.code, room.key, by)
    at_end = position + by in (0, count - 1)
    scroll.keep_focus(NEXT if (by > 0) != at_end else PREVIOUS)


def _step_row(room: TeacherPass, step, is_current: bool, count: int) -> None:
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    marker = "▶ " if is_current else ""
    kind = " · exercise" if step.exercise else ""
    row.markdown(f"{marker}**{step.position + 1}.** {as_markdown(step.title)}{kind}",
                 width="stretch")
    api = cs.classroom()
    row.button("Go", icon=":material/play_arrow:", key=f"{W}go_{step.id}", help="Go to this step",
               disabled=is_current, on_click=_go, args=(room, step.position, count))
    row.button("Up", icon=":material/arrow_upward:", key=f"{W}up_{step.id}", help="Move up",
               disabled=step.position == 0, on_click=_move_row,
               args=(room, step, step.position - 1, count))
    row.button("Down", icon=":material/arrow_downward:", key=f"{W}down_{step.id}",
               help="Move down", disabled=step.position == count - 1, on_click=_move_row,
               args=(room, step, step.position + 1, count))
    row.button("Remove", icon=":material/delete:", key=f"{W}remove_{step.id}",
               help="Remove this step and its answers", on_click=_act,
               args=(api.remove_step, room.code, room.key, step.id))


def _go(room: TeacherPass, position: int, count: int) -> None:
    """Go: the pressed button is now disabled (the current step's), so the focus goes to Next
    (Previous from the last step)."""
    _act(cs.classroom().go_to, room.code, room.key, position)
    scroll.keep_focus(NEXT if position < count - 1 else PREVIOUS)


def _move_row(room: TeacherPass, step, to: int, count: int) -> None:
    """Up or Down: the focus follows the row to its new place, on the same button, or on the
    other one where that is now disabled (top or bottom)."""
    _act(cs.classroom().move_step, room.code, room.key, step.id, to)
    up, at_edge = to < step.position, to in (0, count - 1)
    scroll.keep_focus(f"{W}{'up' if up != at_edge else 'down'}_{step.id}")


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
    @st.fragment(run_every=cs.PROJECTOR_SECONDS)
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
        _controls(room, step)
        scale = view.page_scale(session.options().font_size)
        for node in s.nodes:
            chart_col, text_col = st.columns([3, 2], gap="large")
            with chart_col:
                if node.bars:
                    st.vega_lite_chart(spec=classroom_chart.answers_spec(node, scale),
                                       width="stretch")
                else:
                    st.markdown(f"#### {as_markdown(node.label)}: no answers yet")
            with text_col:
                right = "–" if node.share_correct is None else f"{node.share_correct:.0%}"
                st.markdown(f"#### {as_markdown(node.label)}: {node.correct} of "
                            f"{node.answered} right ({right})")
                if step.revealed:
                    st.markdown(f"#### Answer: {as_markdown(summary.answers[node.node])}")
                if node.wrong:
                    st.markdown("Common wrong answers:\n" + "\n".join(
                        f"- **{as_markdown(w.answer)}** · {w.count} "
                        f"{'student' if w.count == 1 else 'students'}"
                        + (f" · {as_markdown(w.recognised)}" if w.recognised else "")
                        for w in node.wrong))

    live()


def _controls(room: TeacherPass, step) -> None:
    """Reveal, close or reset the current step's answers."""
    state_ = ((":material/visibility: answers revealed" if step.revealed
               else ":material/visibility_off: answers hidden")
              + (" · :material/lock: closed" if step.locked else " · :material/lock_open: open"))
    row = st.container(horizontal=True, vertical_alignment="center")
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
    row.markdown(state_)
