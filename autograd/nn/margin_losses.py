"""The margin, ranking, embedding and likelihood losses of ``torch.nn.functional``, written with
the engine's ops (so second derivatives and forward mode work), each with ``reduction=``."""

import math

import numpy as np

from ..ops import logsigmoid, where
from ..tensor import Tensor
from .distance import pairwise_distance
from .losses import _check_reduction, _reduced


def _tensor(x, dtype=None):
    return x if isinstance(x, Tensor) else Tensor(np.asarray(x, dtype=dtype))


def _finish(name, losses, reduction):
    _check_reduction(name, reduction)
    return _reduced(losses, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """max(0, -target · (input1 - input2) + margin): input1 should rank above input2 where
    target is 1, below where it is -1."""
    input1, input2, target = _tensor(input1), _tensor(input2), _tensor(target)
    return _finish("margin_ranking_loss",
                   (-target * (input1 - input2) + margin).clamp(min=0.0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, reduction="mean"):
    """input where target is 1, max(0, margin - input) where it is -1 (input a distance)."""
    input, target = _tensor(input), _tensor(target)
    losses = (where(target.data != 1, (margin - input).clamp(min=0.0), 0.0)
              + where(target.data != -1, input, 0.0))
    return _finish("hinge_embedding_loss", losses, reduction)


def soft_margin_loss(input, target, reduction="mean"):
    """log(1 + exp(-target · input)): a smooth hinge for targets ±1."""
    input, target = _tensor(input), _tensor(target, np.float64)
    return _finish("soft_margin_loss", -logsigmoid(target * input), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """Binary cross-entropy with logits for each class of each sample (targets 0 or 1),
    averaged over the classes, then reduced over the samples."""
    input, target = _tensor(input), _tensor(target, np.float64)
    if input.ndim == 0:
        raise IndexError("multilabel_soft_margin_loss: the input needs a class axis, (N, C) or "
                         "(C,), got a 0-D tensor")
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * _tensor(weight)
    return _finish("multilabel_soft_margin_loss", losses.mean(-1), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1."""
    input1, input2, target = _tensor(input1), _tensor(input2), _tensor(target)
    if not (input1.ndim == input2.ndim == target.ndim + 1 and target.ndim <= 1):
        raise ValueError(f"cosine_embedding_loss: expected inputs (N, D) with a target (N,), or "
                         f"inputs (D,) with a 0-D target; got {input1.shape}, {input2.shape} "
                         f"and a target of shape {target.shape}")
    dot = (input1 * input2).sum(-1)
    squares = [(x * x).sum(-1) + 1e-12 for x in (input1, input2)]
    cos = dot / (squares[0] * squares[1]).sqrt()
    losses = (where(target.data == 1, 1 - cos, 0.0)
              + where(target.data == -1, (cos - margin).clamp(min=0.0), 0.0))
    return _finish("cosine_embedding_loss", losses, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        reduction="mean"):
    """max(0, d(anchor, positive) - d(anchor, negative) + margin), d the pairwise distance;
    with ``swap`` the negative's distance is the smaller of d(anchor, n) and d(positive, n)."""
    to_positive = pairwise_distance(anchor, positive, p, eps)
    to_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        to_negative = to_negative.minimum(pairwise_distance(positive, negative, p, eps))
    return _finish("triplet_margin_loss", (margin + to_positive - to_negative).clamp(min=0.0),
                   reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8, reduction="mean"):
    """The negative log-likelihood of ``target`` counts under a Poisson with rate exp(input)
    (``log_input``) or input; ``full`` adds Stirling's term for target > 1."""
    input, target = _tensor(input), _tensor(target, np.float64)
    losses = (input.exp() - target * input if log_input
              else input - target * (input + eps).log())
    if full:
        t = target.data
        stirling = np.where(t > 1, t * np.log(np.where(t > 1, t, 1.0)) - t
                            + 0.5 * np.log(2 * math.pi * np.where(t > 1, t, 1.0)), 0.0)
        losses = losses + stirling.astype(input.dtype)
    return _finish("poisson_nll_loss", losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of ``target`` under a normal with mean ``input`` and variance
    ``var`` (one per element, or one per sample: var's last axis 1 or missing); var is raised to
    ``eps`` where smaller, without cutting its gradient (PyTorch's clamp under no_grad)."""
    input, target, var = _tensor(input), _tensor(target), _tensor(var)
    if var.shape != input.shape:
        if var.shape == input.shape[:-1]:
            var = var.unsqueeze(-1)
        elif not input.ndim or var.shape != input.shape[:-1] + (1,):
            raise ValueError(f"gaussian_nll_loss: var of shape {var.shape} must have the "
                             f"input's shape {input.shape}, or it with the last axis 1 or "
                             "missing (one variance per sample)")
    if (var.data < 0).any():
        raise ValueError("gaussian_nll_loss: var has negative entry/entries")
    var = var + Tensor(np.maximum(var.data, eps) - var.data)
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return _finish("gaussian_nll_loss", losses, reduction)
