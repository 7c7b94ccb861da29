"""``torch.nn.functional`` for this engine: the losses with PyTorch's ``reduction=`` (mean, sum
or none), and every op a network is built from under PyTorch's F names (conv2d, max_pool2d,
gelu, layer_norm, dropout, scaled_dot_product_attention, ...)."""

import numpy as np

from ..function import Function
from ..ops import (
    adaptive_avg_pool2d,
    avg_pool2d,
    celu,
    conv1d,
    conv2d,
    elu,
    fold,
    gelu,
    hardsigmoid,
    hardswish,
    hardtanh,
    leaky_relu,
    linear,
    log_softmax,
    max_pool2d,
    mish,
    one_hot,
    pad,
    prelu,
    relu,
    relu6,
    selu,
    sigmoid,
    silu,
    softmax,
    softplus,
    softsign,
    tanh,
    unfold,
)
from ..tensor import Tensor
from .attention import scaled_dot_product_attention
from .layers import dropout, embedding, logsigmoid
from .losses import (
    binary_cross_entropy_with_logits,
    has_ignored,
    huber_loss,
    kl_div,
    l1_loss,
    multi_margin_loss,
    nll_loss,
    smooth_l1_loss,
    weighted_cross_entropy,
)
from .normalization import batch_norm, layer_norm, normalize

__all__ = [
    "adaptive_avg_pool2d",
    "avg_pool2d",
    "batch_norm",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "conv1d",
    "conv2d",
    "cross_entropy",
    "dropout",
    "elu",
    "embedding",
    "fold",
    "gelu",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "huber_loss",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "log_softmax",
    "logsigmoid",
    "max_pool2d",
    "mish",
    "mse_loss",
    "multi_margin_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "prelu",
    "relu",
    "relu6",
    "scaled_dot_product_attention",
    "selu",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "softmax",
    "softplus",
    "softsign",
    "tanh",
    "unfold",
]

REDUCTIONS = ("mean", "sum", "none")


def mse_loss(input, target, *, reduction="mean"):
    """The squared differences ``(input - target) ** 2``, averaged (``reduction="mean"``),
    summed (``"sum"``) or left elementwise (``"none"``); the shapes must be equal."""
    _check_reduction("mse_loss", reduction)
    target = _as_tensor(target, input.dtype)
    if input.shape != target.shape:
        raise ValueError(
            f"mse_loss: input has shape {input.shape} but target has shape {target.shape}; "
            "broadcasting them would compare every prediction with every target. Reshape one "
            f"to match, e.g. target.reshape{input.shape}"
        )
    return _reduced((input - target) ** 2, reduction)


def cross_entropy(logits, target, weight=None, *, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Negative log-probability of the target under ``softmax(logits)``, per row, then averaged
    over rows (``reduction="mean"``), summed (``"sum"``) or returned per row (``"none"``).

    ``logits`` has shape (batch, classes), or (classes,) for one unbatched row. ``target`` is
    either one integer class per row (an ndarray, list or Tensor of ints, shape (batch,) or ())
    or, as in PyTorch, class probabilities of the logits' own shape (floats; each row's loss is
    then ``-sum(target * log_softmax(logits))``, and the target may require grad).
    ``label_smoothing`` in [0, 1] mixes the target with the uniform distribution: a row's target
    becomes ``(1 - label_smoothing) * target + label_smoothing / classes``. Computed from logits
    shifted by their row maximum, so large logits do not overflow.

    As in PyTorch, ``weight`` (classes,) scales each class, rows whose class is ``ignore_index``
    count 0, and logits (N, C, d1, ...) take targets (N, d1, ...): these go through
    ``log_softmax`` and ``nll_loss``.
    """
    _check_reduction("cross_entropy", reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"cross_entropy: label_smoothing must lie in [0, 1], got "
                         f"{label_smoothing}")
    if weight is not None or logits.ndim > 2 or has_ignored(target, ignore_index):
        return weighted_cross_entropy(logits, target, weight, ignore_index, reduction,
                                      label_smoothing)
    if logits.ndim not in (1, 2):
        raise ValueError(
            f"cross_entropy: logits must have shape (batch, classes) or (classes,), got "
            f"{logits.shape}"
        )
    classes = logits.shape[-1]
    raw = target.data if isinstance(target, Tensor) else np.asarray(target)
    kind = raw.dtype.kind
    if kind == "f" and raw.shape == logits.shape:
        probabilities = _as_tensor(target, logits.dtype)
        if label_smoothing:
            probabilities = probabilities * (1.0 - label_smoothing) + label_smoothing / classes
        return CrossEntropy.apply(logits, probabilities, reduction=reduction, sums_to_one=False)
    if kind not in "iu":
        raise TypeError(
            f"cross_entropy: target must hold integer class indices (or class probabilities of "
            f"the logits' shape {logits.shape}), got dtype {raw.dtype} and shape {raw.shape}; "
            "convert class indices with .astype(int)"
        )
    if raw.shape != logits.shape[:-1]:
        raise ValueError(
            f"cross_entropy: logits of shape {logits.shape} need targets of shape "
            f"{logits.shape[:-1]} (one class index per row), got {raw.shape}"
        )
    if raw.size and (raw.min() < 0 or raw.max() >= classes):
        raise ValueError(
            f"cross_entropy: class indices must lie in 0..{classes - 1} for {classes} classes, "
            f"got values from {raw.min()} to {raw.max()}"
        )
    rows = raw.reshape(-1)
    distribution = np.zeros((rows.size, classes), dtype=logits.dtype)
    distribution[np.arange(rows.size), rows] = 1.0
    if label_smoothing:
        distribution *= 1.0 - label_smoothing
        distribution += label_smoothing / classes
    return CrossEntropy.apply(logits, distribution.reshape(logits.shape), reduction=reduction,
                              sums_to_one=True)


class CrossEntropy(Function):
    """``-sum(q * log_softmax(z))`` over the last axis, for logits ``z`` and a target
    distribution ``q``, reduced over rows; one node instead of five small ones. Its derivatives:
    ``softmax(z) * sum(q) - q`` for the logits (``softmax(z) - q`` when q sums to 1) and
    ``-log_softmax(z)`` for the target, times the gradient of each row's loss."""

    __slots__ = ("reduction", "sums_to_one")
    backward_runs_on_arrays = True

    def forward(self, logits, target, reduction="mean", sums_to_one=False):
        self.reduction = reduction
        self.sums_to_one = sums_to_one  # class indices: every row of q sums to 1
        shifted = logits - logits.max(axis=-1, keepdims=True)
        exps = np.exp(shifted)
        totals = exps.sum(axis=-1, keepdims=True)
        log_probs = shifted - np.log(totals)
        self.save_for_backward(logits, log_probs, exps / totals, target)
        if reduction == "none":
            return -(target * log_probs).sum(axis=-1)
        total = -np.vdot(target, log_probs)  # one pass, no temporary (N, C) array
        return np.asarray(total / (target.size // target.shape[-1]) if reduction == "mean"
                          else total, dtype=log_probs.dtype)

    def backward(self, grad):
        logits, log_probs, probs, target = self.saved_tensors
        need_logits, need_target = self.needs_input_grad
        if isinstance(logits, Tensor):  # create_graph: both must depend on the logits
            log_probs = log_softmax(logits)
            probs = log_probs.exp()
        row_grad = self._row_gradient(grad, target)
        grad_logits = grad_target = None
        if need_logits:
            if not self.sums_to_one:
                probs = probs * target.sum(axis=-1, keepdims=True)
            grad_logits = (probs - target) * row_grad
        if need_target:
            grad_target = -log_probs * row_grad
        return grad_logits, grad_target

    def _row_gradient(self, grad, target):
        """The gradient of each row's loss, as a column that broadcasts over the classes."""
        if self.reduction == "none":
            return grad.reshape(grad.shape + (1,))
        if self.reduction == "mean":
            return grad / (target.size // target.shape[-1])
        return grad

    def jvp(self, tangent_logits, tangent_target):
        _, log_probs, probs, target = self.saved_tensors
        rows = ((probs * target.sum(axis=-1, keepdims=True) - target) * tangent_logits
                - log_probs * tangent_target).sum(axis=-1)
        return _reduced_array(rows, self.reduction)


def binary_cross_entropy(input, target, *, reduction="mean"):
    """``-(t log p + (1 - t) log(1 - p))`` for probabilities ``p`` in [0, 1] and targets ``t``,
    averaged (``reduction="mean"``), summed (``"sum"``) or elementwise (``"none"``).

    As in PyTorch, each log is clamped at -100, so a confident wrong answer costs 100 instead of
    infinity, and the gradient ``(p - t) / max(p (1 - p), 1e-12)`` stays finite. Apply
    ``sigmoid`` first if the model outputs logits.
    """
    _check_reduction("binary_cross_entropy", reduction)
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
    return BinaryCrossEntropy.apply(input, target, reduction=reduction)


class BinaryCrossEntropy(Function):
    """PyTorch's binary cross-entropy as one node, with its clamped logs and gradients."""

    __slots__ = ("reduction",)
    backward_runs_on_arrays = True

    def forward(self, p, t, reduction="mean"):
        self.reduction = reduction
        self.save_for_backward(p, t)
        losses = -(t * _clamped_log(p) + (1 - t) * _clamped_log(1 - p))
        return _reduced_array(losses, reduction)

    def backward(self, grad):
        p, t = self.saved_tensors
        need_p, need_t = self.needs_input_grad
        if self.reduction == "mean":
            grad = grad / p.size
        grad_p = grad * (p - t) / ((1 - p) * p).clip(_BCE_EPS, None) if need_p else None
        grad_t = grad * (_clamped_log(1 - p) - _clamped_log(p)) if need_t else None
        return grad_p, grad_t

    def jvp(self, tangent_p, tangent_t):
        p, t = self.saved_tensors
        elements = ((p - t) / np.maximum((1 - p) * p, _BCE_EPS) * tangent_p
                    + (_clamped_log(1 - p) - _clamped_log(p)) * tangent_t)
        return _reduced_array(elements, self.reduction)


_BCE_EPS = 1e-12  # PyTorch's floor for p (1 - p) in the gradient
_LOG_FLOOR = -100.0  # PyTorch's clamp for each log


def _clamped_log(x):
    """log(x), at least -100 (log 0 is -100, not -inf), on an array or a Tensor."""
    if isinstance(x, Tensor):
        with np.errstate(divide="ignore"):
            return x.log().clip(_LOG_FLOOR, None)
    with np.errstate(divide="ignore"):
        return np.maximum(np.log(x), _LOG_FLOOR)


def _check_reduction(name, reduction):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{name}: reduction must be one of 'mean', 'sum' or 'none', got "
                         f"{reduction!r}")


def _reduced(losses, reduction):
    """A Tensor of losses reduced as PyTorch's ``reduction=`` says."""
    if reduction == "mean":
        return losses.mean()
    return losses.sum() if reduction == "sum" else losses


def _reduced_array(losses, reduction):
    if reduction == "mean":
        return np.asarray(losses.mean())
    return np.asarray(losses.sum()) if reduction == "sum" else losses


def _as_tensor(value, dtype):
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value), dtype=dtype)
