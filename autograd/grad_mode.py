"""Grad mode: whether new operations are recorded for backward.

It lives in a ContextVar, never a module flag, because Streamlit serves every session from threads
of one process: one user's ``no_grad`` must not switch recording off for another.
"""

import contextvars
import functools
import inspect

_grad_enabled = contextvars.ContextVar("autograd_grad_enabled", default=True)


def is_grad_enabled():
    """True when operations on tensors that require grad are recorded."""
    return _grad_enabled.get()


class _GradMode:
    """Sets grad mode for a ``with`` block, or for every call of a decorated function (for a
    generator function, while its body runs: see ``_generator_in_mode``)."""

    enabled = True

    def __enter__(self):
        self._token = _grad_enabled.set(self.enabled)
        return self

    def __exit__(self, *exc):
        _grad_enabled.reset(self._token)
        return False

    def __call__(self, fn):
        mode = type(self)
        if inspect.isgeneratorfunction(fn):
            return _generator_in_mode(fn, mode)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with mode():
                return fn(*args, **kwargs)

        return wrapper


def _generator_in_mode(fn, mode):
    """Wrap a generator function so that its body runs in ``mode`` each time it resumes, and the
    caller's mode holds while it is suspended at a ``yield`` (PyTorch's rule for decorated
    generators): a ``no_grad`` generator never records, whatever its consumer does."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        generator = fn(*args, **kwargs)
        try:
            with mode():
                response = generator.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with mode():
                        generator.close()
                    raise
                except BaseException as error:  # noqa: BLE001 - thrown into the generator
                    with mode():
                        response = generator.throw(error)
                else:
                    with mode():
                        response = generator.send(request)
        except StopIteration as stop:
            return stop.value

    return wrapper


class no_grad(_GradMode):
    """Do not record operations: for inference and for updating parameters in place."""

    enabled = False


class enable_grad(_GradMode):
    """Record operations again, e.g. inside a ``no_grad`` block."""

    enabled = True
