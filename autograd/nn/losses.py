"""The losses of ``torch.nn.functional``.

Each takes PyTorch's ``reduction=``: ``"mean"`` (the default), ``"sum"`` or ``"none"``
(elementwise); ``kl_div`` also takes ``"batchmean"``. Class targets are integer arrays or
Tensors; they are never differentiated. Cross-entropy and binary cross-entropy are single
Functions (one node, PyTorch's numerics); the others are written with the engine's ops, so they
have second derivatives and forward mode for free.
"""

import numpy as np

from ..function import Function
from ..grad_mode import is_grad_enabled
from ..ops import gather, log_softmax, logsigmoid, where
from ..tensor import Tensor

REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(name, reduction, allowed=REDUCTIONS):
    if reduction not in allowed:
        *others, last = [repr(r) for r in allowed]
        choices = f"{', '.join(others)} or {last}"
        raise ValueError(f"{name}: reduction must be one of {choices}, got {reduction!r}")


def _reduced(losses, reduction):
    if reduction == "mean":
        return losses.mean()
    return losses.sum() if reduction == "sum" else losses


def _as_tensor(value, dtype):
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value), dtype=dtype)


def _torch_name(dtype):
    """A dtype as PyTorch's dtype errors name it ("Float" for float32, "Double" for float64)."""
    return {"float16": "Half", "float32": "Float", "float64": "Double"}.get(dtype.name,
                                                                        dtype.name)


def _dtype_mismatch(name, input, target, why):
    """PyTorch's error for a floating target of another dtype than the input, with the fix."""
    return TypeError(
        f"{name}: Found dtype {_torch_name(target.dtype)} but expected "
        f"{_torch_name(input.dtype)} (target {target.dtype}, input {input.dtype}), as PyTorch "
        f"says: {why}. Cast the target with target.to(input.dtype) (or the model with "
        ".double() or .float())")


def _floating_mismatch(input, target):
    """Whether ``target`` (a Tensor) is floating point of another dtype than ``input``."""
    return target.dtype != input.dtype and target.dtype.kind == "f" and input.dtype.kind == "f"


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


def weighted_cross_entropy(logits, target, weight, ignore_index, reduction, label_smoothing):
    """cross_entropy with class weights, ignored rows or extra axes, as PyTorch computes it:
    nll_loss of log_softmax over axis 1, and, with label smoothing, ``label_smoothing / C``
    times each row's (weighted) sum of -log-probabilities added to ``1 - label_smoothing``
    times it."""
    raw = target.data if isinstance(target, Tensor) else np.asarray(target)
    if raw.dtype.kind not in "iu":
        raise TypeError(f"cross_entropy: logits of shape {logits.shape} take integer class "
                        f"targets (one per position) or class probabilities of the logits' shape, "
                        f"got dtype {raw.dtype} and shape {raw.shape}; convert class indices "
                        "with .long()")
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


def probability_cross_entropy(logits, target, weight, ignore_index, reduction, label_smoothing):
    """cross_entropy against class probabilities ``q`` of the logits' shape, PyTorch's formula:
    at each position ``-sum_c w_c q_c log_softmax(z)_c`` over the class axis (1, or 0 for one
    unbatched row), with ``q`` smoothed to ``(1 - e) q + e / C`` first; "mean" divides by the
    number of positions (N times d1...), not by the weights. Tensors of different float dtypes
    promote, as in PyTorch (arrays and lists take the logits' dtype)."""
    if ignore_index >= 0:
        raise ValueError(f"cross_entropy: ignore_index is not supported for floating point "
                         f"target (class probabilities), as in PyTorch, got ignore_index="
                         f"{ignore_index}; give ignored rows a target of all zeros instead")
    axis = 0 if logits.ndim == 1 else 1
    classes = logits.shape[axis]
    probabilities = _as_tensor(target, logits.dtype)
    weights = None if weight is None else _as_tensor(weight, logits.dtype)
    if weights is not None and weights.shape != (classes,):
        raise ValueError(f"cross_entropy: weight tensor should be defined either for all "
                         f"{classes} classes or no classes but got weight tensor of shape "
                         f"{weights.shape}; give one weight per class (axis {axis} of the "
                         f"logits of shape {logits.shape})")
    operands = [t for t in (logits, probabilities, weights) if t is not None]
    dtype = np.result_type(*[t.dtype for t in operands])
    logits, probabilities, weights = (
        t if t is None or t.dtype == dtype else t.to(dtype)
        for t in (logits, probabilities, weights))
    if label_smoothing:
        probabilities = probabilities * (1.0 - label_smoothing) + label_smoothing / classes
    if weights is not None:
        probabilities = probabilities * weights.reshape((classes,) + (1,) * (logits.ndim - 1
                                                                             - axis))
    if axis != logits.ndim - 1:  # the classes last, where CrossEntropy sums over them
        order = (0,) + tuple(range(2, logits.ndim)) + (1,)
        logits, probabilities = logits.permute(order), probabilities.permute(order)
    return CrossEntropy.apply(logits, probabilities, reduction=reduction)


def _softplus_of_negative(x):
    """log(1 + e^-x) = -logsigmoid(x), stable for any x, with the smooth slope -sigmoid(-x)."""
    return -logsigmoid(x)


def binary_cross_entropy_with_logits(input, target, weight=None, *, reduction="mean",
                                     pos_weight=None):
    """Binary cross-entropy of ``sigmoid(input)`` against targets in [0, 1], computed from the
    logits so it never overflows: ``(1 - t) x + (1 + (pos_weight - 1) t) log(1 + e^-x)``.
    ``pos_weight`` (one per class, broadcast along the last axis) weighs the positive
    examples; ``weight`` scales each element. As in PyTorch, the loss comes in the target's
    dtype (a float64 target makes a float32 model's loss float64, and the reverse)."""
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
    if losses.dtype != target.dtype and target.dtype.kind == "f":
        losses = losses.to(target.dtype)  # PyTorch computes the loss in the target's dtype
    return _reduced(losses, reduction)


def l1_loss(input, target, *, reduction="mean"):
    """The absolute differences ``|input - target|`` (slope sign(d), 0 at d = 0 as in PyTorch)."""
    _check_reduction("l1_loss", reduction)
    target = _as_tensor(target, input.dtype)
    _same_shape("l1_loss", input, target)
    return _reduced((input - target).abs(), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """½d² where |d| < delta, else delta (|d| - ½delta), for d = input - target: quadratic near
    0, linear (robust to outliers) beyond delta. As in PyTorch, a target of another float dtype
    is refused when a gradient is wanted (else the loss comes in the input's dtype)."""
    _check_reduction("huber_loss", reduction)
    if delta <= 0:
        raise ValueError(f"huber_loss: delta must be positive, got {delta}")
    target = _as_tensor(target, input.dtype)
    _same_shape("huber_loss", input, target)
    if _floating_mismatch(input, target):
        if is_grad_enabled() and (input.requires_grad or target.requires_grad):
            raise _dtype_mismatch("huber_loss", input, target,
                                  "its derivative needs the input and target in one dtype")
        target = target.to(input.dtype)  # without gradients PyTorch answers in input's dtype
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
    ``log_softmax`` and ``nll_loss``. Class probabilities of any logits' shape (classes on axis
    1) take ``weight`` and ``label_smoothing`` too (see ``probability_cross_entropy``).
    """
    _check_reduction("cross_entropy", reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"cross_entropy: label_smoothing must lie in [0, 1], got "
                         f"{label_smoothing}")
    raw = target.data if isinstance(target, Tensor) else np.asarray(target)
    kind = raw.dtype.kind
    if logits.ndim == 0:
        raise ValueError("cross_entropy: logits must have shape (batch, classes) or (classes,), "
                         "got a 0-d tensor")
    if kind == "f" and raw.shape == logits.shape:
        return probability_cross_entropy(logits, target, weight, ignore_index, reduction,
                                         label_smoothing)
    if weight is not None or logits.ndim > 2:
        return weighted_cross_entropy(logits, target, weight, ignore_index, reduction,
                                      label_smoothing)
    classes = logits.shape[-1]
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
    if raw.size:
        lowest, highest = raw.min(), raw.max()
        if lowest <= ignore_index <= highest and (raw == ignore_index).any():
            return weighted_cross_entropy(logits, target, weight, ignore_index, reduction,
                                          label_smoothing)
        if lowest < 0 or highest >= classes:
            raise ValueError(
                f"cross_entropy: class indices must lie in 0..{classes - 1} for {classes} "
                f"classes, got values from {lowest} to {highest}"
            )
    return ClassCrossEntropy.apply(logits, target=raw, reduction=reduction,
                                   label_smoothing=label_smoothing)


class ClassCrossEntropy(Function):
    """cross_entropy against class indices y: per row ``-log_softmax(z)[y]``, or with label
    smoothing e, ``-(1 - e) log_softmax(z)[y] - e mean(log_softmax(z))``, reduced over rows.
    The logits' gradient is ``softmax(z) - q`` times each row's gradient, where q, the smoothed
    one-hot target (``1 - e + e/C`` at y, ``e/C`` elsewhere), is built only when backward runs."""

    __slots__ = ("target", "reduction", "smoothing")
    backward_runs_on_arrays = True

    def forward(self, logits, target=None, reduction="mean", label_smoothing=0.0):
        self.target, self.reduction, self.smoothing = target, reduction, label_smoothing
        shifted = logits - logits.max(axis=-1, keepdims=True)
        exps = np.exp(shifted)
        totals = exps.sum(axis=-1, keepdims=True)
        self.save_for_backward(logits, exps / totals)
        picked = shifted[self._index()]
        if label_smoothing:
            picked = ((1.0 - label_smoothing) * picked
                      + label_smoothing * shifted.mean(axis=-1))
        return _reduced_array(np.log(totals[..., 0]) - picked, reduction)

    def backward(self, grad):
        logits, probs = self.saved_tensors
        if isinstance(logits, Tensor):  # create_graph: the gradient must depend on the logits
            probs = log_softmax(logits, -1).exp()
        return (probs - self._smoothed_one_hot(logits)) * _row_gradient(grad, self.reduction,
                                                                          self.target.size)

    def jvp(self, tangent):
        logits, probs = self.saved_tensors
        rows = ((probs - self._smoothed_one_hot(logits)) * tangent).sum(axis=-1)
        return _reduced_array(rows, self.reduction)

    def _index(self):
        """Where each row's class sits in the (rows, classes) or (classes,) logits."""
        target = self.target
        return (np.arange(target.size), target) if target.ndim else target

    def _smoothed_one_hot(self, logits):
        smoothing = self.smoothing
        q = np.full(logits.shape, smoothing / logits.shape[-1], dtype=logits.dtype)
        q[self._index()] += 1.0 - smoothing
        return q


class CrossEntropy(Function):
    """``-sum(q * log_softmax(z))`` over the last axis, for logits ``z`` and a target
    distribution ``q`` (class probabilities), reduced over rows. Its derivatives:
    ``softmax(z) * sum(q) - q`` for the logits and ``-log_softmax(z)`` for the target, times
    the gradient of each row's loss."""

    __slots__ = ("reduction",)
    backward_runs_on_arrays = True

    def forward(self, logits, target, reduction="mean"):
        self.reduction = reduction
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
            log_probs = log_softmax(logits, -1)
            probs = log_probs.exp()
        row_grad = _row_gradient(grad, self.reduction, target.size // target.shape[-1])
        grad_logits = grad_target = None
        if need_logits:
            grad_logits = (probs * target.sum(axis=-1, keepdims=True) - target) * row_grad
        if need_target:
            grad_target = -log_probs * row_grad
        return grad_logits, grad_target

    def jvp(self, tangent_logits, tangent_target):
        _, log_probs, probs, target = self.saved_tensors
        rows = ((probs * target.sum(axis=-1, keepdims=True) - target) * tangent_logits
                - log_probs * tangent_target).sum(axis=-1)
        return _reduced_array(rows, self.reduction)


def _row_gradient(grad, reduction, rows):
    """The gradient of each row's loss, as a column that broadcasts over the classes."""
    if reduction == "none":
        return grad.reshape(grad.shape + (1,))
    return grad / rows if reduction == "mean" else grad


def binary_cross_entropy(input, target, weight=None, *, reduction="mean"):
    """``-(t log p + (1 - t) log(1 - p))`` for probabilities ``p`` in [0, 1] and targets ``t``,
    averaged (``reduction="mean"``), summed (``"sum"``) or elementwise (``"none"``); ``weight``
    (broadcast to the input's shape) scales each element, as in PyTorch.

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
    if _floating_mismatch(input, target):
        raise _dtype_mismatch("binary_cross_entropy", input, target,
                              "the target must have the input's dtype")
    if input.size and (input.data.min() < 0 or input.data.max() > 1):
        raise ValueError(
            "binary_cross_entropy: input must be probabilities in [0, 1], got values from "
            f"{input.data.min():.4g} to {input.data.max():.4g}; apply sigmoid to logits first"
        )
    if weight is None:
        return BinaryCrossEntropy.apply(input, target, reduction=reduction)
    weight = _as_tensor(weight, input.dtype)
    try:
        fits = np.broadcast_shapes(weight.shape, input.shape) == input.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"binary_cross_entropy: weight of shape {weight.shape} must broadcast "
                         f"to the input's shape {input.shape}, one weight per element (or per "
                         "row or column)")
    if weight.dtype != input.dtype:
        weight = weight.to(input.dtype)  # PyTorch's loss keeps the input's dtype
    losses = BinaryCrossEntropy.apply(input, target, reduction="none") * weight
    return _reduced(losses, reduction)


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


def _reduced_array(losses, reduction):
    if reduction == "mean":
        return np.asarray(losses.mean())
    return np.asarray(losses.sum()) if reduction == "sum" else losses
