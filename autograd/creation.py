"""Making tensors: from data, filled with a value, ranges, identity, and random samples.

Random factories draw from a generator kept in a ContextVar, so ``manual_seed`` in one Streamlit
session (one thread) never changes the numbers another session sees.
"""

import contextvars

import numpy as np

from .ops.shape import shape_arg
from .tensor import Tensor

_generator = contextvars.ContextVar("autograd_generator", default=None)


def tensor(data, requires_grad=False, dtype=None, name=None):
    """A new tensor (a copy of ``data``); Python numbers and lists become float64."""
    return Tensor(data, requires_grad=requires_grad, dtype=dtype, name=name)


def manual_seed(seed):
    """Make rand and randn (and layers' initial weights) reproducible in this thread/context."""
    _generator.set(np.random.default_rng(seed))


def _rng():
    rng = _generator.get()
    if rng is None:
        rng = np.random.default_rng()
        _generator.set(rng)
    return rng


def _new(array, requires_grad):
    t = Tensor._make(array, False, None)
    return t.requires_grad_() if requires_grad else t


def zeros(*shape, requires_grad=False, dtype=np.float64):
    return _new(np.zeros(shape_arg(shape), dtype=dtype), requires_grad)


def ones(*shape, requires_grad=False, dtype=np.float64):
    return _new(np.ones(shape_arg(shape), dtype=dtype), requires_grad)


def full(shape, fill_value, requires_grad=False, dtype=np.float64):
    return _new(np.full(shape_arg((shape,)), fill_value, dtype=dtype), requires_grad)


def zeros_like(t, requires_grad=False, dtype=None):
    return _new(np.zeros_like(_data(t), dtype=dtype), requires_grad)


def ones_like(t, requires_grad=False, dtype=None):
    return _new(np.ones_like(_data(t), dtype=dtype), requires_grad)


def arange(start, stop=None, step=1, requires_grad=False, dtype=np.float64):
    return _new(np.arange(start, stop, step, dtype=dtype), requires_grad)


def eye(n, m=None, requires_grad=False, dtype=np.float64):
    return _new(np.eye(n, m, dtype=dtype), requires_grad)


def rand(*shape, requires_grad=False, dtype=np.float64):
    """Uniform samples in [0, 1)."""
    return _new(_rng().random(shape_arg(shape)).astype(dtype, copy=False), requires_grad)


def randn(*shape, requires_grad=False, dtype=np.float64):
    """Standard normal samples."""
    return _new(_rng().standard_normal(shape_arg(shape)).astype(dtype, copy=False), requires_grad)


def _data(t):
    return t.data if isinstance(t, Tensor) else np.asarray(t)
