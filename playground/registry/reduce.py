"""Registry entries: reduce."""

import autograd as ag

from .. import torch_code
from .entry import KEEPDIMS, LAST, OpInfo, reduction

ENTRIES = (
    OpInfo(
        "softmax", 1, (LAST,), "Exponentials normalised to sum to 1 along an axis.",
        r"\frac{\partial y_i}{\partial x_j} = y_i\,(\delta_{ij} - y_j)",
        ag.softmax, "softmax(x, axis=-1)", torch_code.call("torch.softmax", dim="axis"),
        sentence=(
            'Raising one logit raises its own probability and lowers all others, because the '
            'probabilities must still sum to 1.'
        ),
    ),
    OpInfo(
        "log_softmax", 1, (LAST,), "Logarithm of softmax, computed stably.",
        r"\frac{\partial y_i}{\partial x_j} = \delta_{ij} - \operatorname{softmax}(x)_j",
        ag.log_softmax, "log_softmax(x, axis=-1)",
        torch_code.call("torch.log_softmax", dim="axis"),
        sentence=(
            "Each output's gradient with respect to logit j is 1 for itself minus that logit's "
            'probability.'
        ),
    ),
    OpInfo(
        "logsumexp", 1, (LAST, KEEPDIMS),
        "Log of the sum of exponentials along an axis, computed stably.",
        r"\frac{\partial y}{\partial x_i} = \operatorname{softmax}(x)_i",
        ag.logsumexp, "logsumexp(x, axis=-1)",
        torch_code.call("torch.logsumexp", dim="axis", keepdim="keepdims"),
        sentence=(
            'A smooth maximum: its gradient is the softmax of the inputs, most weight on the '
            'largest.'
        ),
    ),
    reduction(
        "sum", "Sum of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = 1", "torch.sum",
        sentence='Every element counts once in a sum, so each receives the full upstream gradient.',
    ),
    reduction(
        "mean", "Mean of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \frac{1}{n}", "torch.mean",
        sentence=(
            'Every element counts 1/n in a mean, so each receives the upstream gradient divided '
            'by n.'
        ),
    ),
    reduction(
        "max", "Largest element, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}",
        "torch.amax",
        sentence=(
            'Only the largest element affects the max, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
    reduction(
        "min", "Smallest element, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}",
        "torch.amin",
        sentence=(
            'Only the smallest element affects the min, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
)
