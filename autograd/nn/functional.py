"""Losses, each the mean over the batch, and the activations under their PyTorch names."""

import numpy as np

from ..function import Function
from ..ops import linear, log_softmax, relu, sigmoid, softmax, tanh
from ..tensor import Tensor

__all__ = [
    "binary_cross_entropy",
    "cross_entropy",
    "linear",
    "log_softmax",
    "mse_loss",
    "relu",
    "sigmoid",
    "softmax",
    "tanh",
]

_BCE_EPS = 1e-12


def mse_loss(input, target):
    """Mean of the squared differences; ``input`` and ``target`` must have the same shape."""
    target = _as_tensor(target, input.dtype)
    if input.shape != target.shape:
        raise ValueError(
            f"mse_loss: input has shape {input.shape} but target has shape {target.shape}; "
            "broadcasting them would compare every prediction with every target. Reshape one "
            f"to match, e.g. target.reshape{input.shape}"
        )
    return ((input - target) ** 2).mean()


def cross_entropy(logits, target):
    """Mean negative log-probability of the right class.

    ``logits`` has shape (batch, classes) and ``target`` holds one integer class per row (an
    ndarray, list or Tensor of ints); an unbatched (classes,) row with one integer also works.
    Computed from logits shifted by their row maximum, so large logits do not overflow.
    """
    labels = np.asarray(target.data if isinstance(target, Tensor) else target)
    if not np.issubdtype(labels.dtype, np.integer):
        raise TypeError(
            f"cross_entropy: target must hold integer class indices, got dtype {labels.dtype}; "
            "for probabilities use binary_cross_entropy, or convert with .astype(int)"
        )
    if logits.ndim not in (1, 2) or labels.shape != logits.shape[:-1]:
        raise ValueError(
            f"cross_entropy: logits of shape {logits.shape} need targets of shape "
            f"{logits.shape[:-1]} (one class index per row), got {labels.shape}"
        )
    classes = logits.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise ValueError(
            f"cross_entropy: class indices must lie in 0..{classes - 1} for {classes} classes, "
            f"got values from {labels.min()} to {labels.max()}"
        )
    return CrossEntropy.apply(logits, labels=labels)


class CrossEntropy(Function):
    """Mean of ``logsumexp(z) - z[label]`` over rows, as one node. Its derivative is
    ``(softmax(z) - onehot(label)) / batch``: one fused step instead of five small ones."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, logits, labels):
        rows = logits.reshape(-1, logits.shape[-1])
        picked = (np.arange(len(rows)), labels.reshape(-1))
        shifted = rows - rows.max(axis=-1, keepdims=True)
        exps = np.exp(shifted)
        totals = exps.sum(axis=-1, keepdims=True)
        onehot = np.zeros_like(rows)
        onehot[picked] = 1
        self.save_for_backward(logits, (exps / totals).reshape(logits.shape),
                               onehot.reshape(logits.shape))
        return (np.log(totals[:, 0]) - shifted[picked]).mean()

    def backward(self, grad):
        logits, probs, onehot = self.saved_tensors
        if isinstance(logits, Tensor):  # create_graph: the softmax must depend on the logits
            probs = softmax(logits)
        return (probs - onehot) * (grad / (onehot.size // onehot.shape[-1]))

    def jvp(self, tangent):
        """One number out, so its tangent is the gradient dotted with the logits' tangent."""
        return (self.backward(np.ones((), dtype=tangent.dtype)) * tangent).sum()


def binary_cross_entropy(input, target):
    """Mean of ``-(t log p + (1 - t) log(1 - p))`` for probabilities ``p`` in [0, 1].

    ``p`` is clipped to [1e-12, 1 - 1e-12] before the logs, so a confident wrong answer costs
    about 27.6 instead of infinity (and its gradient through the clip is 0). Apply ``sigmoid``
    first if the model outputs logits.
    """
    target = _as_tensor(target, input.dtype)
    if input.shape != target.shape:
        raise ValueError(
            f"binary_cross_entropy: input has shape {input.shape} but target has shape "
            f"{target.shape}; they must match, e.g. target.reshape{input.shape}"
        )
    if input.size and (input.data.min() < 0 or input.data.max() > 1):
        raise ValueError(
            "binary_cross_entropy: input must be probabilities in [0, 1], got values from "
            f"{input.data.min():.4g} to {input.data.max():.4g}; apply sigmoid to logits first"
        )
    p = input.clip(_BCE_EPS, 1 - _BCE_EPS)
    return -(target * p.log() + (1 - target) * (1 - p).log()).mean()


def _as_tensor(value, dtype):
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value), dtype=dtype)
