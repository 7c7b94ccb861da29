"""Registry entries: losses."""

import numpy as np

from autograd.nn import functional as F

from .. import torch_code
from .entry import Attr, OpInfo


def _class_indices(target, op="cross_entropy") -> np.ndarray:
    """A graph's float target, such as [0.0, 2.0], as the integer class indices F expects."""
    labels = np.asarray(target.data, dtype=np.float64)
    if not np.array_equal(labels, np.round(labels)):
        raise ValueError(
            f"{op}: the target must hold whole-number class indices such as [0, 2, 1]"
        )
    return labels.astype(np.int64)


def _nll_loss(log_probs, target, reduction="mean"):
    """F.nll_loss with the graph's float target read as class indices."""
    return F.nll_loss(log_probs, _class_indices(target, "nll_loss"), reduction=reduction)


REDUCTION = Attr("reduction", "reduction", "mean")


def _call(name, *attrs):
    """``F.<name>(operands, reduction=..., setting=...)``, every setting spelled out."""
    return torch_code.call(f"F.{name}", **{a: a for a in ("reduction", *attrs)})


ENTRIES = (
    OpInfo(
        "mse_loss", 2, (), "Mean of squared differences (pred - target)^2.",
        r"\frac{\partial L}{\partial p_i} = \frac{2\,(p_i - t_i)}{n}",
        F.mse_loss, "mse_loss(pred, target)", torch_code.call("F.mse_loss"),
        sentence=(
            'The gradient points from the target to the prediction, twice the error divided by '
            'the count.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "cross_entropy", 2, (),
        "Mean softmax cross-entropy of logits (N, C) against class indices (N,) such as [0, 2].",
        r"\frac{\partial L}{\partial z_{ij}} = \frac{\operatorname{softmax}(z)_{ij} - "
        r"\mathbb{1}[j = t_i]}{N}",
        lambda logits, target: F.cross_entropy(logits, _class_indices(target)),
        "cross_entropy(logits, target)",
        torch_code.code(lambda x, a, n: f"F.cross_entropy({x[0]}, {x[1]}.long())", "F"),
        sentence=(
            'Softmax and cross-entropy together give the famously simple gradient p - y: '
            'predicted minus true probabilities.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "binary_cross_entropy", 2, (),
        "Mean cross-entropy of probabilities p in [0, 1] against targets t in [0, 1].",
        r"\frac{\partial L}{\partial p_i} = \frac{p_i - t_i}{p_i\,(1 - p_i)\,n}",
        F.binary_cross_entropy, "binary_cross_entropy(p, target)",
        torch_code.call("F.binary_cross_entropy"),
        sentence=(
            'The gradient (p - t) / (p(1 - p)) grows without bound as a confident prediction '
            'turns out wrong.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "l1_loss", 2, (REDUCTION,), "Mean of absolute differences |pred - target|.",
        r"\frac{\partial L}{\partial p_i} = \frac{\operatorname{sign}(p_i - t_i)}{n}",
        F.l1_loss, "l1_loss(pred, target)", _call("l1_loss"),
        sentence=(
            'Every element pulls with the same strength 1/n, only the sign of its error counts '
            '(0 where the error is exactly 0).'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "huber_loss", 2, (REDUCTION, Attr("delta", "float", 1.0)),
        "Mean Huber loss: squared error below delta, linear (delta |d|) beyond.",
        r"\frac{\partial L}{\partial p_i} = \frac{\operatorname{clip}(p_i - t_i, "
        r"-\delta, \delta)}{n}",
        F.huber_loss, "huber_loss(pred, target, delta=0.5)",
        _call("huber_loss", "delta"),
        sentence=(
            'Near the target the gradient is the error itself, as for squared error; beyond delta '
            'it stops growing, so outliers cannot dominate.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "smooth_l1_loss", 2, (REDUCTION, Attr("beta", "float", 1.0)),
        "Mean smooth L1 loss: Huber's loss divided by beta (beta = 0 is the L1 loss).",
        r"\frac{\partial L}{\partial p_i} = \frac{\operatorname{clip}((p_i - t_i) / "
        r"\beta, -1, 1)}{n}",
        F.smooth_l1_loss, "smooth_l1_loss(pred, target, beta=0.5)",
        _call("smooth_l1_loss", "beta"),
        sentence=(
            'The gradient grows with the error up to beta and then stays at 1/n, like L1 far away '
            'and smooth at the target.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "binary_cross_entropy_with_logits", 2, (REDUCTION,),
        "Mean binary cross-entropy of sigmoid(z) against targets t, computed stably from z.",
        r"\frac{\partial L}{\partial z_i} = \frac{\sigma(z_i) - t_i}{n}",
        F.binary_cross_entropy_with_logits, "binary_cross_entropy_with_logits(logits, target)",
        _call("binary_cross_entropy_with_logits"),
        sentence=(
            'Sigmoid and cross-entropy together give the simple gradient sigmoid(z) - t, bounded '
            'however wrong the logit is.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "nll_loss", 2, (REDUCTION,),
        "Mean of -z[i, t_i]: log-probabilities (N, C) against class indices (N,) such as [0, 2].",
        r"\frac{\partial L}{\partial z_{ij}} = -\frac{\mathbb{1}[j = t_i]}{N}",
        _nll_loss, "nll_loss(logits, target)",
        torch_code.code(lambda x, a, n: f"F.nll_loss({x[0]}, {x[1]}.long(), "
                                        f"reduction={a['reduction']!r})", "F"),
        sentence=(
            'Only the log-probability of each true class is picked, so it alone gets -1/N and '
            'every other entry gets 0.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "kl_div", 2, (Attr("reduction", "kl_reduction", "mean"),
                     Attr("log_target", "bool", False)),
        "Mean of t (log t - z) for log-probabilities z and probabilities t (PyTorch's order).",
        r"\frac{\partial L}{\partial z_i} = -\frac{t_i}{n},\quad "
        r"\frac{\partial L}{\partial t_i} = \frac{\log t_i + 1 - z_i}{n}",
        F.kl_div, 'kl_div(logits, target, reduction="batchmean")',
        _call("kl_div", "log_target"),
        sentence=(
            'Each log-probability is pulled up by its target probability; zero-probability '
            'targets exert no pull at all.'
        ),
        symbols=("z", "t"),
    ),
)
