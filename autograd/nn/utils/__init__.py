"""Gradient clipping, as ``torch.nn.utils`` (call between ``backward()`` and ``step()``), and
``rnn.pad_sequence``."""

import numpy as np

from ...tensor import Tensor
from . import rnn

__all__ = ["clip_grad_norm_", "clip_grad_value_", "rnn"]


def _with_grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale every gradient by ``max_norm / (total_norm + 1e-6)`` when that is below 1, where
    ``total_norm`` is the ``norm_type``-norm of all gradients together (as if they were one
    vector); returns ``total_norm`` (before clipping) as a 0-d Tensor."""
    params = _with_grads(parameters)
    norm_type = float(norm_type)
    if not params:
        return Tensor(0.0)
    grads = [p.grad.data for p in params]
    if norm_type == np.inf:
        norms = np.array([np.abs(g).max(initial=0.0) for g in grads])
        total = norms.max()
    else:
        norms = np.array([np.linalg.norm(g.ravel(), norm_type) for g in grads])
        total = np.linalg.norm(norms, norm_type)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(f"clip_grad_norm_: the total norm of order {norm_type} of the "
                           f"gradients is {total}, so they cannot be clipped; look for a NaN or "
                           "infinite loss, or pass error_if_nonfinite=False")
    coefficient = min(max_norm / (total + 1e-6), 1.0)
    for p in params:
        if p.grad.data.flags.writeable:
            p.grad.data *= coefficient  # in place, as PyTorch's grad.mul_
        else:
            p.grad.data = p.grad.data * coefficient
    return Tensor(np.asarray(total, dtype=grads[0].dtype))


def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient element into [-clip_value, clip_value], in place."""
    for p in _with_grads(parameters):
        p.grad.data = np.clip(p.grad.data, -clip_value, clip_value)
