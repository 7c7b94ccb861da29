"""Function transforms, PyTorch's ``torch.func`` way: ``jvp`` (forward mode) and ``vjp``
(reverse mode) of a function of tensors, without touching anyone's ``.grad``."""

import numpy as np

from . import forward_ad
from .engine import grad
from .tensor import Tensor


def jvp(f, primals, tangents):
    """``(f(*primals), J_f(primals) @ tangents)`` in one forward pass (forward mode).

    ``primals`` and ``tangents`` are tuples of tensors of matching shapes; ``f`` returns a
    tensor or a tuple of them, and so does each half of the result.
    """
    primals, tangents = _as_tuple(primals), _as_tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp got {len(primals)} primals but {len(tangents)} tangents: give one "
                         "tangent per primal")
    with forward_ad.dual_level():
        duals = [forward_ad.make_dual(_detached(p), t) for p, t in zip(primals, tangents)]
        out = f(*duals)
        outs = _as_tuple(out)
        values, pushed = [], []
        for o in outs:
            value, tangent = forward_ad.unpack_dual(o)
            values.append(Tensor._make(value.data, False, None))
            pushed.append(tangent if tangent is not None else
                          Tensor._make(np.zeros(o.shape, dtype=o.dtype), False, None))
    if isinstance(out, tuple):
        return tuple(values), tuple(pushed)
    return values[0], pushed[0]


def vjp(f, *primals):
    """``(f(*primals), vjp_fn)``; ``vjp_fn(v)`` is the tuple ``v @ J_f`` for each primal
    (reverse mode: one backward pass per call, as many calls as you like)."""
    leaves = [_detached(p).requires_grad_() for p in primals]
    out = f(*leaves)

    def vjp_fn(cotangent):
        grads = grad(out, leaves, grad_outputs=cotangent, retain_graph=True, allow_unused=True)
        return tuple(Tensor._make(np.zeros(p.shape, dtype=p.dtype), False, None) if g is None
                     else g for g, p in zip(grads, leaves))

    return Tensor._make(out.data, False, None), vjp_fn


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _detached(x):
    """A float copy of ``x`` outside any graph, so the transform never changes the caller's."""
    data = x.data if isinstance(x, Tensor) else np.asarray(x, dtype=np.float64)
    return Tensor._make(np.array(data), False, None)
