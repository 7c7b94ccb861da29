"""Forward-mode differentiation, PyTorch's way: a tensor may carry a tangent, and every op pushes
its inputs' tangents through its local derivative (its ``jvp``) as it computes its value.

    import autograd.forward_ad as fwAD
    with fwAD.dual_level():
        x = fwAD.make_dual(primal, tangent)
        y = f(x)
        value, jvp = fwAD.unpack_dual(y)     # jvp = J_f(primal) @ tangent

One forward pass gives the derivative of every output along one input direction, so a Jacobian
takes one pass per input; reverse mode (``backward``) takes one pass per output.

Tangents belong to the ``dual_level`` that made them: outside it, ``unpack_dual`` finds none.
The level lives in a ContextVar, so one Streamlit session's forward mode never reaches another's.
"""

import contextvars
from collections import namedtuple

import numpy as np

_level = contextvars.ContextVar("autograd_dual_level", default=None)

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])


class dual_level:
    """A context in which tensors may carry tangents (``make_dual``)."""

    def __enter__(self):
        self._token = _level.set(object())
        return self

    def __exit__(self, *exc):
        _level.reset(self._token)
        return False


def make_dual(primal, tangent):
    """``primal`` carrying ``tangent`` (same shape) in the current dual level. The result is the
    primal's values; reverse mode still flows through it to ``primal``."""
    level = _level.get()
    if level is None:
        raise RuntimeError("make_dual needs an active forward-mode level: call it inside "
                           "`with autograd.forward_ad.dual_level():`")
    primal = primal if isinstance(primal, Tensor) else Tensor(primal)
    tangent = np.asarray(getattr(tangent, "data", tangent), dtype=primal.dtype)
    if tangent.shape != primal.shape:
        raise ValueError(f"make_dual: the tangent has shape {tangent.shape} but the primal has "
                         f"shape {primal.shape}; they must match")
    dual = Reshape.apply(primal, shape=primal.shape) if primal.requires_grad else (
        Tensor._make(primal.data, False, None))
    dual._tangent = (level, tangent)
    return dual


def unpack_dual(tensor):
    """(primal, tangent): the tangent as a Tensor, or None if it has none in this level."""
    tangent = tangent_array(tensor, _level.get())
    return UnpackedDualTensor(tensor, None if tangent is None else Tensor._make(tangent, False,
                                                                                None))


def tangent_array(tensor, level):
    """The tangent ``tensor`` carries in ``level`` (an ndarray), or None."""
    carried = tensor._tangent
    if carried is None or level is None or carried[0] is not level:
        return None
    return carried[1]


def push_tangent(fn, inputs, result, level):
    """Give ``result`` (the output of ``fn`` on ``inputs``) its tangent, if an input has one:
    ``fn.jvp`` of the inputs' tangents (zeros for an input without), in the output's shape and
    dtype. Called by ``Function.apply`` while the op's saved values are still there."""
    tangents = [tangent_array(t, level) for t in inputs]
    if all(t is None for t in tangents):
        return
    out = result.data
    tangents = [np.zeros(x.shape, dtype=out.dtype if x.dtype.kind != "f" else x.dtype)
                if t is None else t for x, t in zip(inputs, tangents)]
    pushed = fn.jvp(*tangents)
    pushed = np.asarray(getattr(pushed, "data", pushed), dtype=out.dtype)
    if pushed.shape != out.shape:
        pushed = (pushed.reshape(out.shape) if pushed.size == out.size
                  else np.broadcast_to(pushed, out.shape))
    result._tangent = (level, pushed)


from .ops.shape import Reshape  # noqa: E402 - the ops need Tensor, which needs this module's users
from .tensor import Tensor  # noqa: E402
