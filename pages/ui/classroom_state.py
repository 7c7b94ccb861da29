"""The Live class page's state: the server's Classroom, this session's role (a teacher's key or
a student's pass, kept in plain session state), the links the page hands out, and loading a
lesson step into this session's graph, so every page of the app shows it.

The teacher key arrives once through the private teacher link (``?room=CODE&key=...``) and is
taken out of the address bar at once, so a projector never shows it; a student's pass stays in
the address (``?join=CODE&me=...``) so that a phone that reloads the tab is the same student.
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlencode

import streamlit as st

from pages.ui import cached, keys
from pages.ui import session as state
from playground import exercises
from playground.classroom import (
    Classroom,
    ClassroomError,
    StudentPass,
    StudentView,
    TeacherPass,
    lesson,
)

TEACHER = keys.STATE + "class_teacher"  # TeacherPass of the room this session teaches
STUDENT = keys.STATE + "class_student"  # StudentPass of the room this session joined
LOADED = keys.STATE + "class_loaded"  # (step id, revealed) last loaded into the graph
SEEN = keys.STATE + "class_seen"  # the room's version the page last drew
IN_PAGE_RUN = keys.STATE + "class_in_page_run"  # the followed step runs within the page's run
ANSWER_ERRORS = keys.STATE + "class_answer_errors"  # hidden number -> why its answer was refused
MESSAGE = keys.STATE + "class_message"  # (level, text) of the last action, shown once
POSITION = keys.STATE + "class_position"  # lesson.Position of the step last loaded, or None

ROOM_PARAM, KEY_PARAM, JOIN_PARAM, PASS_PARAM = "room", "key", "join", "me"
PAGE_PATH = "class"
FOLLOW_SECONDS = 1.0
"""How often a follower asks the database whether the teacher moved where the server has no
beat address (`classroom_beat`; AppTest, or the page script started alone)."""
PROJECTOR_SECONDS = 0.5
"""How often the teacher's projector reads the class's answers again."""


@st.cache_resource(show_spinner=False)
def classroom() -> Classroom:
    """The process's one Classroom (its engine's connection pool is shared by every session;
    the object keeps nothing else): the database is migrated when the first session opens it."""
    return Classroom.open()


def teacher() -> TeacherPass | None:
    return st.session_state.get(TEACHER)


def student() -> StudentPass | None:
    return st.session_state.get(STUDENT)


def say(level: str, text: str) -> None:
    st.session_state[MESSAGE] = (level, text)


def read_url() -> None:
    """A teacher link gives this session the room (and leaves the address bar without the key);
    a student link with a pass gives it that student back."""
    params = st.query_params
    code, key = params.get(ROOM_PARAM), params.get(KEY_PARAM)
    if code and key:
        try:
            room = classroom().room_state(code, key)
        except ClassroomError as err:
            say("error", f"This teacher link does not open a class: {err}")
        else:
            st.session_state[TEACHER] = TeacherPass(room.code, key, room.expires_ms)
        del params[KEY_PARAM]
        del params[ROOM_PARAM]
    code, token = params.get(JOIN_PARAM), params.get(PASS_PARAM)
    if code and token and student() is None:
        try:
            view = classroom().student_view(code, token)
        except ClassroomError:  # a stale pass (the room ended): join again
            del params[PASS_PARAM]
        else:
            st.session_state[STUDENT] = StudentPass(view.code, token, view.number,
                                                    view.nickname)


def page_url() -> str:
    """This page's address (without a query)."""
    here = (st.context.url or "").split("?")[0].rstrip("/")
    return here if here.endswith("/" + PAGE_PATH) else f"{here}/{PAGE_PATH}"


def student_link(code: str) -> str:
    return f"{page_url()}?{urlencode({JOIN_PARAM: code})}"


def teacher_link(room: TeacherPass) -> str:
    return f"{page_url()}?{urlencode({ROOM_PARAM: room.code, KEY_PARAM: room.key})}"


def current_view_link(page: str, position: lesson.Position | None = None) -> str:
    """The link of this session's graph, view and exercise on ``page`` (a url path of
    ``lesson.PAGES``), as the sidebar's Share control writes it, and a Step through
    ``position``."""
    query = state.share_query()
    if position is not None:
        query[lesson.POSITION_PARAM] = position.to_param()
    return f"{page}?{urlencode(query, safe=':,')}"


def step_position() -> lesson.Position | None:
    """Where this session left the Step through page (its mode and step), if it went there."""
    mode = st.session_state.get(keys.STEP_MODE)
    if mode is None:
        return None
    wrt = st.session_state.get(keys.STEP_WRT) if mode == "tangent" else None
    if mode == "tangent" and wrt is None:
        return None
    return lesson.Position(mode, int(st.session_state.get(keys.STEPS, {}).get(mode, 0)), wrt)


def train_link() -> str | None:
    """The link of this session's Train settings, if it has visited the Train page."""
    settings = st.session_state.get(keys.TRAIN_SETTINGS)
    if settings is None:
        return None
    query = urlencode(settings.to_query(), safe=",")
    return "train" + (f"?{query}" if query else "")


def follow_step(view: StudentView) -> bool:
    """Load the room's current step (or its revealed answers) into this session unless it is
    the one loaded already; True when it loaded it. ClassroomError when it does not open."""
    loaded = (view.step.id, view.step.revealed) if view.step else None
    if loaded is None or st.session_state.get(LOADED) == loaded:
        return False
    load_step(view.step.page, view.step.query, view.step.revealed, keep_font=True)
    st.session_state[LOADED] = loaded
    st.session_state[ANSWER_ERRORS] = {}
    return True


def open_step(page: str, query: str) -> lesson.StepContent:
    """`lesson.open_step`, read once per process for the whole class (an exercise's graph is
    evaluated to read it): every student loads the same step at the same moment."""
    return cached.memo().get(("open_step", page, query), lambda: lesson.open_step(page, query))


def load_step(page: str, query: str, revealed: bool, keep_font: bool = False
              ) -> lesson.StepContent:
    """Make a step this session's graph, view, exercise and Step through position (what its
    link would open; with ``keep_font``, a student's phone keeps its text size, not the
    projector's); a revealed exercise opens the pages that would show its answers."""
    content = open_step(page, query)
    st.session_state[POSITION] = content.position
    if content.spec is not None:
        if state.spec() != content.spec:
            st.session_state[keys.HISTORY] = state.history().push(content.spec)
        st.session_state[keys.OPTIONS] = (replace(content.options,
                                                  font_size=state.options().font_size)
                                          if keep_font else content.options)
        state.set_exercise(content.exercise)
        if content.exercise is not None:
            st.session_state[keys.STEP_MODE] = exercises.MODE_OF[content.exercise.quantity]
            if content.exercise.wrt is not None:
                st.session_state[keys.STEP_WRT] = (content.exercise.wrt, 0)
            if revealed:
                st.session_state[keys.EXERCISE_REVEALED] = content.exercise.nodes
        if content.position is not None:
            st.session_state[keys.STEP_MODE] = content.position.mode
            st.session_state[keys.STEPS] = {content.position.mode: content.position.step}
            st.session_state[keys.STEP_PLAYING] = False
            if content.position.wrt is not None:
                st.session_state[keys.STEP_WRT] = content.position.wrt
    return content
