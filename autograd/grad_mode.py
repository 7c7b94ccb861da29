"""Grad mode: whether new operations are recorded for backward.

It lives in a ContextVar, never a module flag, because Streamlit serves every session from threads
of one process: one user's ``no_grad`` must not switch recording off for another.
"""

import contextvars
import functools

_grad_enabled = contextvars.ContextVar("autograd_grad_enabled", default=True)


def is_grad_enabled():
    """True when operations on tensors that require grad are recorded."""
    return _grad_enabled.get()


class _GradMode:
    """Sets grad mode for a ``with`` block, or for every call of a decorated function."""

    enabled = True

    def __enter__(self):
        self._token = _grad_enabled.set(self.enabled)
        return self

    def __exit__(self, *exc):
        _grad_enabled.reset(self._token)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    """Do not record operations: for inference and for updating parameters in place."""

    enabled = False


class enable_grad(_GradMode):
    """Record operations again, e.g. inside a ``no_grad`` block."""

    enabled = True
