"""The classroom's refusals: one class per thing a page does about them, each message one line
that says what happened and what to do."""

from __future__ import annotations


class ClassroomError(Exception):
    """Anything a room refuses; ``str(err)`` is meant for the person who asked."""


class Refused(ClassroomError):
    """What was sent cannot be accepted (a damaged link, a nickname over its limit, ...)."""


class NotFound(ClassroomError):
    """No such room (never opened, or expired and deleted), step or student in it."""


class NotAllowed(ClassroomError):
    """A teacher action without the room's teacher key, or a student pass of another room."""


class Closed(ClassroomError):
    """The step takes no answers now: locked by the teacher, or not the current step."""


class TooMany(ClassroomError):
    """A rate limit: too many requests in its window; ``retry_after`` seconds until it opens."""

    def __init__(self, message: str, retry_after: float):
        super().__init__(message)
        self.retry_after = retry_after
