"""Connectionist temporal classification, PyTorch's ``F.ctc_loss``: the negative log-probability
of a target sequence summed over every alignment of it to the input's time steps (blanks between
and around the labels, repeats collapsed). The forward (alpha) recursion is written with the
engine's ops, one logsumexp per time step, so the gradient is the engine's own."""

import numpy as np

from ..ops import logsumexp, stack, where
from ..ops.aliases import cat
from ..tensor import Tensor
from .losses import _check_reduction

IMPOSSIBLE = -1e30
"""Log-probability standing for "no alignment reaches this state": finite, so that logsumexp's
gradient stays 0 there instead of NaN (exp(-inf - -inf))."""


def _ints(x):
    return np.asarray(x.data if isinstance(x, Tensor) else x).astype(np.int64)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """``log_probs`` (T, N, C) (log_softmax over C; (T, C) unbatched), ``targets`` (N, S)
    padded or 1-D concatenated, the lengths per sample. ``reduction="mean"`` divides each loss
    by its target length, then averages; a target no alignment can produce (too long for its
    input) costs inf, or 0 with ``zero_infinity``."""
    _check_reduction("ctc_loss", reduction)
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    steps, batch, classes = lp.shape
    in_len, tg_len = _ints(input_lengths).reshape(-1), _ints(target_lengths).reshape(-1)
    if len(in_len) != batch or len(tg_len) != batch:
        raise ValueError(f"ctc_loss: input_lengths and target_lengths need one entry per "
                         f"sample ({batch}), got {len(in_len)} and {len(tg_len)}")
    if (in_len > steps).any() or (in_len < 0).any() or (tg_len < 0).any():
        raise ValueError(f"ctc_loss: input_lengths must be between 0 and T = {steps}, got "
                         f"{in_len.tolist()}")
    labels = _padded_targets(_ints(targets), tg_len, batch)
    if labels.size and ((labels < 0) | (labels >= classes)).any():
        raise ValueError(f"ctc_loss: target labels must be class indices in [0, {classes})")
    width = 2 * labels.shape[1] + 1
    extended = np.full((batch, width), blank, np.int64)
    extended[:, 1::2] = labels
    # a state may be reached from two back only across a blank between two different labels
    skip = np.zeros((batch, width), bool)
    skip[:, 2:] = (extended[:, 2:] != blank) & (extended[:, 2:] != extended[:, :-2])
    emissions = lp.gather(2, np.broadcast_to(extended[None], (steps, batch, width)))
    start = np.full((batch, width), IMPOSSIBLE)
    start[:, 0] = 0.0
    start[:, 1] = np.where(tg_len > 0, 0.0, IMPOSSIBLE)
    alpha = emissions[0] + Tensor(start.astype(lp.dtype))
    wall = Tensor(np.full((batch, 1), IMPOSSIBLE, lp.dtype))
    for t in range(1, steps):
        one_back = cat([wall, alpha[:, :-1]], 1)
        two_back = where(skip, cat([wall, wall, alpha[:, :-2]], 1), IMPOSSIBLE)
        moved = logsumexp(stack([alpha, one_back, two_back], 0), 0) + emissions[t]
        alpha = where((t < in_len)[:, None], moved, alpha)
    last = 2 * tg_len
    ends = stack([alpha[np.arange(batch), last],
                  where(tg_len > 0, alpha[np.arange(batch), np.maximum(last - 1, 0)],
                        IMPOSSIBLE)], 0)
    losses = -logsumexp(ends, 0)
    empty = in_len == 0  # no time step: only the empty target is reachable, at no cost
    losses = where(empty, np.where(tg_len > 0, -IMPOSSIBLE, 0.0).astype(lp.dtype), losses)
    unreachable = losses.data > -IMPOSSIBLE / 2
    losses = where(unreachable, 0.0 if zero_infinity else np.inf, losses)
    if reduction == "mean":
        return (losses / Tensor(np.maximum(tg_len, 1).astype(lp.dtype))).mean()
    if reduction == "sum":
        return losses.sum()
    return losses if batched else losses[0]


def _padded_targets(targets, lengths, batch):
    """The targets as (N, S_max): padded targets are cut to S_max, concatenated ones split."""
    longest = int(lengths.max()) if len(lengths) else 0
    if targets.ndim == 2:
        if targets.shape[0] != batch or targets.shape[1] < longest:
            raise ValueError(f"ctc_loss: padded targets must be (N, S) with S at least the "
                             f"longest target_length {longest}, got {targets.shape}")
        return targets[:, :longest]
    if targets.ndim != 1 or targets.size != lengths.sum():
        raise ValueError(f"ctc_loss: concatenated targets must be 1-D of sum(target_lengths) = "
                         f"{int(lengths.sum())} labels, got shape {targets.shape}")
    out = np.zeros((batch, longest), np.int64)
    for n, piece in enumerate(np.split(targets, np.cumsum(lengths)[:-1])):
        out[n, :len(piece)] = piece
    return out
