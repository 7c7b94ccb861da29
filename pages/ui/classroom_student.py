"""The Live class page for a student (follow the teacher's step, answer its hidden numbers) and
for a visitor (join a class, or open one as its teacher).

The step a student follows is a fragment holding a script of ours that waits on the beat
address (`classroom_beat`) and reruns the fragment when the teacher has moved: the fragment
reads the new view, loads its step into this session's graph and draws it, without running the
page around it (one read and one fragment run per student per step). Without the beat address
(AppTest, or navigation.py started alone) the script reruns the fragment once a second.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode, urlsplit

import streamlit as st

from pages.ui import admission, cached, classroom_beat, classroom_lessons, drawing, frame, keys
from pages.ui import classroom_state as cs
from pages.ui import session as state
from playground import exercises, limits
from playground.classroom import (
    ClassroomError,
    StudentPass,
    StudentView,
    TeacherPass,
    lesson,
    lessons,
)
from playground.errors import as_markdown
from playground.step_view import StepView

W = keys.WIDGET + "class_"
JOIN_CODE, NICKNAME, JOIN, OPEN_ROOM = W + "join_code", W + "nickname", W + "join", W + "open"
SUBMIT, LEAVE, FOLLOWER = W + "submit", W + "leave", W + "follower"
_FOLLOWER = st.components.v2.component(
    "class_follower",
    js=(Path(__file__).with_name("classroom_follow") / "follow.js").read_text(encoding="utf-8"),
)


def answer_key(step_id: int, node: str) -> str:
    """The text box of a student's answer to ``node`` of step ``step_id``."""
    return f"{W}answer_{step_id}_{node}"


# --- a visitor: join, or open a room ---------------------------------------------------------


def landing() -> None:
    join_col, teach_col = st.columns(2, gap="large")
    with join_col:
        st.subheader("Join a class", divider="gray")
        code = st.query_params.get(cs.JOIN_PARAM)
        if code and JOIN_CODE not in st.session_state:
            st.session_state[JOIN_CODE] = code[:12]
        with st.form(W + "join_form", border=False):
            st.text_input("Join code", key=JOIN_CODE, max_chars=12, placeholder="K7M2QX",
                          help="Six letters and digits; your teacher shows them.")
            st.text_input("Nickname (optional)", key=NICKNAME,
                          max_chars=limits.MAX_NICKNAME_CHARS,
                          help="Only your teacher sees it. Leave it empty to stay anonymous.")
            st.form_submit_button("Join", type="primary", icon=":material/login:",
                                  on_click=_join)
    with teach_col:
        st.subheader("Teach a class", divider="gray")
        st.markdown("Open a room: the class joins with its code or QR code, you add the steps "
                    "of your lesson (graphs, exercises, Train settings) and move through them; "
                    "every student's screen follows, and you see who understood.")
        linked = classroom_lessons.linked_lesson()
        if linked:
            st.info(f"This link holds a lesson of {len(linked)} steps: the room opens with "
                    "them.", icon=":material/menu_book:")
        st.button("Open a room", icon=":material/co_present:", key=OPEN_ROOM, on_click=_open)


def _join() -> None:
    try:
        joined = cs.classroom().join(st.session_state.get(JOIN_CODE),
                                     st.session_state.get(NICKNAME) or None,
                                     admission.client_address())
    except ClassroomError as err:
        cs.say("error", str(err))
        return
    st.session_state[cs.STUDENT] = joined
    st.session_state[cs.LOADED] = None
    st.query_params[cs.JOIN_PARAM] = joined.code
    st.query_params[cs.PASS_PARAM] = joined.token


def _open() -> None:
    try:
        room = cs.classroom().create_room(admission.client_address())
    except ClassroomError as err:
        cs.say("error", str(err))
        return
    st.session_state[cs.TEACHER] = TeacherPass(room.code, room.key, room.expires_ms)
    param = st.query_params.get(lessons.PARAM)
    if param:
        classroom_lessons.add(st.session_state[cs.TEACHER], lambda: lessons.read_param(param),
                              "The lesson of the link")
        del st.query_params[lessons.PARAM]


# --- a student -----------------------------------------------------------------------------------


def render(me: StudentPass) -> None:
    st.caption(f"You are **{as_markdown(me.name)}** in class **{me.code}**. This screen "
               "follows your teacher.")
    st.session_state[cs.IN_PAGE_RUN] = True
    _lesson(me)


@st.fragment
def _lesson(me: StudentPass) -> None:
    """The followed step, a fragment: a script of ours (classroom_follow/) waits on the beat
    address (`classroom_beat`) and, when the teacher has moved, reruns this fragment only, which
    reads the student's view once, loads its step and draws it (the page's frame, navigation and
    caption are not run again). A Send reruns it too. When the room has ended, the whole page
    runs and says so."""
    in_page = st.session_state.pop(cs.IN_PAGE_RUN, False)
    try:
        view = cs.classroom().student_view(me.code, me.token)
    except ClassroomError as err:
        if not in_page:
            st.rerun()
        st.error(as_markdown(str(err)), icon=":material/error:")
        st.button("Join another class", key=LEAVE, on_click=_leave)
        return
    st.session_state[cs.SEEN] = view.version
    _FOLLOWER(key=FOLLOWER, data=[_beat_url(me), view.version,
                                  int(cs.FOLLOW_SECONDS * 1000), classroom_beat.SERVER])
    try:
        if cs.follow_step(view) and not in_page:
            state.sync_url()  # the address bar is the step's share link, as a page run makes it
    except ClassroomError as err:
        st.error(as_markdown(str(err)), icon=":material/error:")
        return
    _step(me, view)


def _step(me: StudentPass, view: StudentView) -> None:
    """The current step as this student sees it: its graph, Step through position, exercise or
    Train link."""
    if view.step is None:
        st.info("Waiting for your teacher to start the lesson…", icon=":material/hourglass:")
        return
    st.subheader(f"Step {view.step.position + 1} of {view.count}: "
                 f"{as_markdown(view.step.title)}", divider="gray")
    if view.step.page == "train":
        st.link_button("Open the Train page with these settings",
                       f"{cs.page_url().rsplit('/', 1)[0]}/{view.step.target}",
                       icon=":material/model_training:")
        return
    if view.labels:
        st.markdown("Work out the numbers shown as **?** in the drawing and send them below.")
        _exercise(me, view)
    elif view.step.page == "backprop" and st.session_state.get(cs.POSITION) is not None:
        _position(st.session_state[cs.POSITION])
    else:
        drawing.drawing(state.spec_json())
        file = {"": "build.py", "backprop": "backprop.py"}.get(view.step.page,
                                                               f"{view.step.page}.py")
        st.page_link(frame.page(file), label=f"Open it on {lesson.PAGES[view.step.page]}",
                     icon=":material/open_in_new:")


def _leave() -> None:
    st.session_state.pop(cs.STUDENT, None)
    for param in (cs.PASS_PARAM, cs.JOIN_PARAM):
        if param in st.query_params:
            del st.query_params[param]


def _beat_url(me: StudentPass) -> str:
    """The beat's address for this student, on this page's server (under its base path)."""
    base = urlsplit(cs.page_url()).path.rsplit("/", 1)[0]
    return f"{base}{classroom_beat.PATH}?{urlencode({'join': me.code, 'me': me.token})}"


def _exercise(me: StudentPass, view: StudentView) -> None:
    spec_json = state.spec_json()
    result = cached.evaluate(spec_json)
    ex = state.exercise()
    if ex is not None:  # the graph at the end of the exercise's mode, every number computed
        mode = exercises.MODE_OF[ex.quantity]
        _step_drawing(spec_json, result, mode, _count(spec_json, result, mode),
                      (ex.wrt, 0) if mode == "tangent" else None, ex if not view.revealed
                      else None)
    step = view.step
    errors = st.session_state.get(cs.ANSWER_ERRORS, {})
    if step.locked:
        st.info("Your teacher has closed the answers of this step.", icon=":material/lock:")
    with st.form(f"{W}answers_{step.id}", border=False):
        for node, label in view.labels.items():
            guess_col, mark_col = st.columns([3, 2], vertical_alignment="bottom")
            guess_col.text_input(label, key=answer_key(step.id, node), disabled=step.locked,
                                 max_chars=exercises.MAX_GUESS_CHARS, placeholder="a number")
            mine = view.mine.get(node)
            if node in errors:
                mark_col.warning(as_markdown(errors[node]))
            elif mine is not None:
                (mark_col.success if mine[1] else mark_col.error)(
                    f"{'✔ right' if mine[1] else '✘ not yet'} (you sent "
                    f"{as_markdown(mine[0][:40])})",
                    icon=None)
            if node in view.revealed:
                mark_col.markdown(f"**Answer: {as_markdown(view.revealed[node])}**")
        st.form_submit_button("Send", type="primary", icon=":material/send:",
                              disabled=step.locked, on_click=_send,
                              args=(me, step.id, tuple(view.labels)))


def _count(spec_json: str, result, mode: str) -> int:
    return (cached.backward_steps(spec_json).count if mode == "reverse"
            else len([n for n in result.nodes if n.kind == "op"]))


def _step_drawing(spec_json: str, result, mode: str, k: int, moved, hide) -> StepView:
    """The graph at step ``k`` of ``mode``, the numbers ``hide`` (an exercise) hides shown as ?;
    returns the step, for its text."""
    opts = state.options()
    layouts = [(rankdir, compact, cached.step(spec_json, mode, k, moved, hide, rankdir,
                                              opts.font_size, compact))
               for rankdir, compact in opts.variants(len(result.nodes))]
    shown = layouts[0][2][0]
    drawing.show([(rankdir, compact, dot) for rankdir, compact, (_, dot) in layouts],
                 focus=shown.overlay.focus or ((shown.node,) if shown.node else ()))
    return shown


def _position(at: lesson.Position) -> None:
    """A Step through position: the drawing at that step and its chain rule in numbers."""
    spec_json = state.spec_json()
    result = cached.evaluate(spec_json)
    k = min(at.step, _count(spec_json, result, at.mode))
    shown = _step_drawing(spec_json, result, at.mode, k, at.wrt, None)
    st.markdown(f"**{as_markdown(shown.heading)}**")
    for line in shown.lines:
        st.latex(line)
    st.page_link(frame.page("backprop.py"), label="Step on from here on Step through",
                 icon=":material/open_in_new:")


def _send(me: StudentPass, step_id: int, nodes: tuple[str, ...]) -> None:
    """Send the boxes that are filled in, together (one write to the database)."""
    texts = {node: st.session_state.get(answer_key(step_id, node)) or "" for node in nodes}
    texts = {node: text for node, text in texts.items() if text.strip()}
    if not texts:
        st.session_state[cs.ANSWER_ERRORS] = {}
        return
    try:
        _, refused = cs.classroom().submit_answers(me.code, me.token, step_id, texts)
    except ClassroomError as err:
        refused = dict.fromkeys(texts, err)
    st.session_state[cs.ANSWER_ERRORS] = {node: str(err) for node, err in refused.items()}
