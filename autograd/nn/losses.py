"""More losses of ``torch.nn.functional``, written with the engine's ops (so every one has second
derivatives and forward mode for free), and the loss modules (``nn.MSELoss()`` and friends).

Each takes PyTorch's ``reduction=``: ``"mean"`` (the default), ``"sum"`` or ``"none"``
(elementwise); ``kl_div`` also takes ``"batchmean"``. Class targets are integer arrays or
Tensors; they are never differentiated.
"""

import numpy as np

from ..ops import gather, where
from ..tensor import Tensor
from .module import Module

REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(name, reduction, allowed=REDUCTIONS):
    if reduction not in allowed:
        choices = ", ".join(repr(r) for r in allowed)
        raise ValueError(f"{name}: reduction must be one of {choices}, got {reduction!r}")


def _reduced(losses, reduction):
    if reduction == "mean":
        return losses.mean()
    return losses.sum() if reduction == "sum" else losses


def _as_tensor(value, dtype):
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value), dtype=dtype)


def _same_shape(name, input, target):
    if input.shape != target.shape:
        raise ValueError(
            f"{name}: input has shape {input.shape} but target has shape {target.shape}; "
            "broadcasting them would compare every prediction with every target. Reshape one "
            f"to match, e.g. target.reshape{input.shape}")


def _class_indices(name, target):
    """An integer target as an int64 array, or a TypeError that says how to convert it."""
    raw = target.data if isinstance(target, Tensor) else np.asarray(target)
    if raw.dtype.kind not in "iu":
        raise TypeError(f"{name}: target must hold integer class indices, got dtype {raw.dtype}; "
                        "convert it with .long() (or .astype(int) for an array)")
    return raw.astype(np.int64, copy=False)


def _picked(name, input, target, ignore_index=None):
    """``input[i, target[i]]`` for each row (class axis 1, or 0 for one unbatched row), the
    target's shape; and the mask of rows whose target is not ``ignore_index``."""
    classes_axis = 0 if input.ndim == 1 else 1
    expected = input.shape[:classes_axis] + input.shape[classes_axis + 1:]
    if target.shape != expected:
        raise ValueError(f"{name}: input of shape {input.shape} (classes on axis "
                         f"{classes_axis}) needs a target of shape {expected}, one class index "
                         f"per row, got {target.shape}")
    keep = target != ignore_index if ignore_index is not None else np.ones(target.shape, bool)
    safe = np.where(keep, target, 0)
    classes = input.shape[classes_axis]
    if safe.size and (safe.min() < 0 or safe.max() >= classes):
        bad = safe[(safe < 0) | (safe >= classes)][0]
        raise IndexError(f"{name}: target {bad} is out of bounds for {classes} classes; class "
                         f"indices run from 0 to {classes - 1}")
    picked = gather(input, classes_axis, np.expand_dims(safe, classes_axis))
    return picked.squeeze(classes_axis), safe, keep


def nll_loss(input, target, weight=None, *, ignore_index=-100, reduction="mean"):
    """The negative log-likelihood ``-input[i, target[i]]`` for log-probabilities ``input`` of
    shape (N, C), (C,) or (N, C, d1, ...), as torch's nll_loss (use it after log_softmax).
    ``weight`` (C,) scales each class; "mean" divides by the summed weights of the rows used;
    rows whose target is ``ignore_index`` count 0."""
    _check_reduction("nll_loss", reduction)
    target = _class_indices("nll_loss", target)
    picked, safe, keep = _picked("nll_loss", input, target, ignore_index)
    scale = keep.astype(input.dtype)
    if weight is not None:
        weights = weight.data if isinstance(weight, Tensor) else np.asarray(weight)
        scale = scale * weights.astype(input.dtype)[safe]
    losses = -picked * scale
    if reduction == "mean":
        return losses.sum() / scale.sum()
    return _reduced(losses, reduction)


def has_ignored(target, ignore_index):
    """True when an integer class target holds ``ignore_index`` somewhere."""
    raw = target.data if isinstance(target, Tensor) else np.asarray(target)
    return raw.dtype.kind in "iu" and bool((raw == ignore_index).any())


def weighted_cross_entropy(logits, target, weight, ignore_index, reduction, label_smoothing):
    """cross_entropy with class weights, ignored rows or extra axes, as PyTorch computes it:
    nll_loss of log_softmax over axis 1, and, with label smoothing, ``label_smoothing / C``
    times each row's (weighted) sum of -log-probabilities added to ``1 - label_smoothing``
    times it."""
    raw = target.data if isinstance(target, Tensor) else np.asarray(target)
    if raw.dtype.kind not in "iu":
        raise TypeError("cross_entropy: weight, ignore_index and logits with more than two axes "
                        f"take integer class targets, got dtype {raw.dtype}; convert them with "
                        ".long()")
    axis = 0 if logits.ndim == 1 else 1
    log_probs = logits.log_softmax(axis)
    loss = nll_loss(log_probs, raw, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return loss
    classes = logits.shape[axis]
    keep = raw != ignore_index
    weights = np.ones(classes, logits.dtype) if weight is None else (
        weight.data if isinstance(weight, Tensor) else np.asarray(weight)).astype(logits.dtype)
    shape = [1] * logits.ndim
    shape[axis] = classes
    smooth = -(log_probs * weights.reshape(shape)).sum(axis=axis) * keep
    if reduction == "mean":
        smooth = smooth.sum() / weights[np.where(keep, raw, 0)][keep].sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * loss + (label_smoothing / classes) * smooth


def _softplus_of_negative(x):
    """log(1 + e^-x), stable for any x, with the smooth slope -sigmoid(-x) everywhere (also at
    x = 0, where a max(-x, 0) + log1p(e^-|x|) split would give 0 and 1/2 the wrong way)."""
    positive, negative = x.clip(0, None), x.clip(None, 0)
    return where(x.data >= 0, (-positive).exp().log1p(), negative.exp().log1p() - negative)


def binary_cross_entropy_with_logits(input, target, weight=None, *, reduction="mean",
                                     pos_weight=None):
    """Binary cross-entropy of ``sigmoid(input)`` against targets in [0, 1], computed from the
    logits so it never overflows: ``(1 - t) x + (1 + (pos_weight - 1) t) log(1 + e^-x)``.
    ``pos_weight`` (one per class, broadcast along the last axis) weighs the positive
    examples; ``weight`` scales each element."""
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    target = _as_tensor(target, input.dtype)
    if input.shape != target.shape:
        raise ValueError(f"binary_cross_entropy_with_logits: target has shape {target.shape} "
                         f"but input has shape {input.shape}; they must match, e.g. "
                         f"target.reshape{input.shape}")
    log_weight = 1.0
    if pos_weight is not None:
        log_weight = (_as_tensor(pos_weight, input.dtype) - 1) * target + 1
    losses = (1 - target) * input + log_weight * _softplus_of_negative(input)
    if weight is not None:
        losses = losses * _as_tensor(weight, input.dtype)
    return _reduced(losses, reduction)


def l1_loss(input, target, *, reduction="mean"):
    """The absolute differences ``|input - target|`` (slope sign(d), 0 at d = 0 as in PyTorch)."""
    _check_reduction("l1_loss", reduction)
    target = _as_tensor(target, input.dtype)
    _same_shape("l1_loss", input, target)
    return _reduced((input - target).abs(), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """½d² where |d| < delta, else delta (|d| - ½delta), for d = input - target: quadratic near
    0, linear (robust to outliers) beyond delta."""
    _check_reduction("huber_loss", reduction)
    if delta <= 0:
        raise ValueError(f"huber_loss: delta must be positive, got {delta}")
    target = _as_tensor(target, input.dtype)
    _same_shape("huber_loss", input, target)
    d = input - target
    size = d.abs()
    losses = where(size.data < delta, 0.5 * d * d, delta * (size - 0.5 * delta))
    return _reduced(losses, reduction)


def smooth_l1_loss(input, target, *, reduction="mean", beta=1.0):
    """½d²/beta where |d| < beta, else |d| - ½beta: Huber's loss divided by beta (beta = 0 is
    the L1 loss)."""
    _check_reduction("smooth_l1_loss", reduction)
    if beta < 0:
        raise ValueError(f"smooth_l1_loss: beta must be >= 0, got {beta}")
    target = _as_tensor(target, input.dtype)
    _same_shape("smooth_l1_loss", input, target)
    d = input - target
    size = d.abs()
    if beta == 0:
        return _reduced(size, reduction)
    losses = where(size.data < beta, 0.5 * d * d / beta, size - 0.5 * beta)
    return _reduced(losses, reduction)


def kl_div(input, target, *, reduction="mean", log_target=False):
    """Kullback-Leibler divergence ``target * (log target - input)`` for log-probabilities
    ``input`` and probabilities ``target`` (log-probabilities with ``log_target=True``); a
    target of 0 contributes 0. Use ``reduction="batchmean"`` for the true KL divergence per
    example ("mean" divides by every element, as in PyTorch)."""
    _check_reduction("kl_div", reduction, REDUCTIONS + ("batchmean",))
    target = _as_tensor(target, input.dtype)
    if log_target:
        losses = target.exp() * (target - input)
    else:
        positive = target.data > 0  # t log t is 0 at t = 0
        safe_log = where(positive, target, 1.0).log()
        losses = where(positive, target * safe_log, 0.0) - target * input
    if reduction == "batchmean":
        total = losses.sum()
        return total / input.shape[0] if input.ndim else total
    return _reduced(losses, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, *, reduction="mean"):
    """The multi-class hinge loss: for each row, ``sum over j != y of max(0, margin - x[y] +
    x[j])^p / C``, as torch's multi_margin_loss (p is 1 or 2; ``weight`` (C,) scales each row by
    its target class's weight). micrograd's demo trains with this max-margin loss."""
    _check_reduction("multi_margin_loss", reduction)
    if p not in (1, 2):
        raise ValueError(f"multi_margin_loss: p must be 1 or 2, got {p}")
    if input.ndim not in (1, 2):
        raise ValueError(f"multi_margin_loss: input must have shape (N, C) or (C,), got "
                         f"{input.shape}")
    target = _class_indices("multi_margin_loss", target)
    picked, safe, _ = _picked("multi_margin_loss", input, target)
    classes = input.shape[-1]
    margins = (margin - picked.unsqueeze(-1) + input).relu()
    if p == 2:
        margins = margins * margins
    if weight is not None:
        weights = weight.data if isinstance(weight, Tensor) else np.asarray(weight)
        margins = margins * np.expand_dims(weights.astype(input.dtype)[safe], -1)
    others = np.arange(classes) != np.expand_dims(safe, -1)  # the target's own term is left out
    losses = (margins * others).sum(axis=-1) / classes
    return _reduced(losses, reduction)


# --- loss modules ---------------------------------------------------------------------------


class _Loss(Module):
    """A loss as a module: its settings at construction, ``loss(input, target)`` when called."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def extra_repr(self):
        return "" if self.reduction == "mean" else f"reduction={self.reduction!r}"


class MSELoss(_Loss):
    def forward(self, input, target):
        from .functional import mse_loss

        return mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input, target):
        return l1_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    def __init__(self, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        from .functional import cross_entropy

        return cross_entropy(input, target, reduction=self.reduction,
                             label_smoothing=self.label_smoothing)


class NLLLoss(_Loss):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                        reduction=self.reduction)


class BCELoss(_Loss):
    def forward(self, input, target):
        from .functional import binary_cross_entropy

        return binary_cross_entropy(input, target, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return binary_cross_entropy_with_logits(input, target, self.weight,
                                                reduction=self.reduction,
                                                pos_weight=self.pos_weight)


class HuberLoss(_Loss):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def forward(self, input, target):
        return huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SmoothL1Loss(_Loss):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction)
        self.beta = beta

    def forward(self, input, target):
        return smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class KLDivLoss(_Loss):
    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MultiMarginLoss(_Loss):
    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.p, self.margin = p, margin
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return multi_margin_loss(input, target, self.p, self.margin, self.weight,
                                 reduction=self.reduction)
