"""Registry entries: losses."""

import numpy as np

from autograd.nn import functional as F

from .. import torch_code
from .entry import OpInfo


def _class_indices(target) -> np.ndarray:
    """A graph's float target, such as [0.0, 2.0], as the integer class indices F expects."""
    labels = np.asarray(target.data, dtype=np.float64)
    if not np.array_equal(labels, np.round(labels)):
        raise ValueError(
            "cross_entropy: the target must hold whole-number class indices such as [0, 2, 1]"
        )
    return labels.astype(np.int64)


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
)
