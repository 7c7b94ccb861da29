"""A live class: a teacher runs a lesson of steps (links the app opens), the class follows and
answers, and the teacher sees who understood. Storage on SQLite (default) or PostgreSQL
(``DATABASE_URL``), through SQLAlchemy Core, with versioned migrations applied at start-up."""

from .errors import ClassroomError, Closed, NotAllowed, NotFound, Refused, TooMany
from .room import Beat, Classroom, RoomState, Step, StudentPass, StudentView, Summary, TeacherPass

__all__ = ["Beat", "Classroom", "ClassroomError", "Closed", "NotAllowed", "NotFound", "Refused",
           "RoomState", "Step", "StudentPass", "StudentView", "Summary", "TeacherPass",
           "TooMany"]
