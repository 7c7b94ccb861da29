"""The teacher's lessons on the Live class page: add a ready lesson, save this room's lesson as a
JSON file or a link, load one back (playground/classroom/lessons.py reads and checks them)."""

from __future__ import annotations

import streamlit as st

from pages.ui import classroom_state as cs
from pages.ui import keys
from playground.classroom import ClassroomError, RoomState, TeacherPass, lessons
from playground.classroom import lesson as lesson_
from playground.errors import as_markdown

W = keys.WIDGET + "class_lesson_"
READY, ADD_READY, FILE, ADD_FILE, LINK, ADD_LINK, SAVE = (
    W + "ready", W + "add_ready", W + "file", W + "add_file", W + "link", W + "add_link",
    W + "save")


def panel(room: TeacherPass, state: RoomState) -> None:
    with st.expander("Lessons: ready ones, save, load", icon=":material/menu_book:",
                     expanded=not state.steps):
        ready_col, save_col, load_col = st.columns(3, gap="large")
        with ready_col:
            st.markdown("**A ready lesson**")
            chosen = st.selectbox("Lesson", [r.key for r in lessons.READY], key=READY,
                                  format_func=lambda k: lessons.ready(k).title)
            lesson = lessons.ready(chosen)
            st.caption(lesson.summary)
            st.button(f"Add its {len(lesson.steps)} steps", icon=":material/playlist_add:",
                      key=ADD_READY, on_click=_add_ready, args=(room, state.version))
        with save_col:
            st.markdown("**Save this lesson**")
            _save(room, state)
        with load_col:
            st.markdown("**Load a lesson**")
            st.file_uploader("A lesson file (JSON)", type=["json"], key=FILE)
            st.button("Add the file's steps", icon=":material/upload_file:", key=ADD_FILE,
                      on_click=_add_file, args=(room, state.version))
            st.text_input("Or a lesson link", key=LINK, placeholder="https://…/class?lesson=l1…",
                          max_chars=lessons.MAX_LINK_CHARS + 200)
            st.button("Add the link's steps", icon=":material/link:", key=ADD_LINK,
                      on_click=_add_link, args=(room, state.version))


def _save(room: TeacherPass, state: RoomState) -> None:
    if not state.steps:
        st.caption("Add steps first; then save them as a file or a link to teach them again.")
        return
    steps = [(s.target, s.title) for s in state.steps]
    st.download_button("Lesson file (JSON)", lessons.to_json(steps),
                       file_name=f"lesson-{room.code}.json", mime="application/json",
                       icon=":material/download:", on_click="ignore", key=SAVE)
    param = lessons.to_param(steps)
    if len(param) > lessons.MAX_LINK_CHARS:
        st.caption("This lesson is too long for a link: save it as a file.")
        return
    st.caption("The lesson as a link: opening it offers to open a room with these steps.")
    st.code(f"{cs.page_url()}?{lessons.PARAM}={param}", language=None, wrap_lines=True)


def add(room: TeacherPass, read, what: str, seen: int | None = None) -> bool:
    """Add the steps ``read()`` gives to the room, saying what happened; True when added.

    ``seen`` is the room's version the button was drawn at: a click Streamlit delivers twice (a
    run cut short and started again) finds the room moved on by the first and adds nothing."""
    if seen is not None and cs.classroom().version(room.code) != seen:
        return False
    try:
        added = cs.classroom().add_steps(room.code, room.key, list(read()))
    except ClassroomError as err:
        cs.say("error", f"{what} was not added: {err}")
        return False
    cs.say("success", f"{what}: {len(added)} steps added.")
    return True


def _add_ready(room: TeacherPass, seen: int) -> None:
    lesson = lessons.ready(st.session_state.get(READY))
    add(room, lambda: lessons.read_steps(lesson.steps), f"The lesson \u201c{lesson.title}\u201d",
        seen)


def _add_file(room: TeacherPass, seen: int) -> None:
    file = st.session_state.get(FILE)
    if file is None:
        cs.say("warning", "Choose a lesson file first.")
        return
    add(room, lambda: lessons.read_json(file.getvalue()), "The lesson file", seen)


def _add_link(room: TeacherPass, seen: int) -> None:
    if add(room, lambda: lessons.read_param(st.session_state.get(LINK) or ""),
           "The lesson link", seen):
        st.session_state[LINK] = ""


def linked_lesson() -> tuple[lesson_.StepLink, ...] | None:
    """The lesson of this page's address (``?lesson=...``), if it has one (a warning says why
    when it does not open)."""
    param = st.query_params.get(lessons.PARAM)
    if not param:
        return None
    try:
        return lessons.read_param(param)
    except ClassroomError as err:
        st.warning(as_markdown(f"The lesson of this link does not open: {err}"),
                   icon=":material/warning:")
        return None
