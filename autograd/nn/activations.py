"""More activations of ``torch.nn.functional``, written with the engine's ops: relu (with
``inplace``), glu, softmin, tanhshrink, softshrink, hardshrink, threshold and gumbel_softmax.
Where a piecewise function has a kink, the gradient there is PyTorch's (that of the piece
``where`` picks)."""

import numpy as np

from .. import creation
from ..ops import sigmoid, softmax, where
from ..tensor import Tensor


def relu(input, inplace=False):
    """max(x, 0); with ``inplace`` the input itself changes and is returned (F.relu's
    ``inplace=True``, under the version counter's rules)."""
    return input.relu_() if inplace else input.relu()


def glu(input, dim=-1):
    """The gated linear unit: the first half of ``dim`` times the sigmoid of the second half."""
    if input.shape[dim] % 2:
        raise ValueError(f"glu: halving dimension must be even, but dimension {dim} of shape "
                         f"{input.shape} has size {input.shape[dim]}")
    a, b = input.chunk(2, dim)
    return a * sigmoid(b)


def softmin(input, dim):
    """softmax of -input along ``dim``: the smallest entry gets the largest weight."""
    return softmax(-input, dim)


def tanhshrink(input):
    """x - tanh(x)."""
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    """x moved towards 0 by ``lambd``, and 0 within ±lambd (−0 for a negative x, as PyTorch's
    x · 0; NaN stays NaN). The zero is a constant, so no gradient reaches x there, not even an
    infinite one (inf · 0 would be NaN; PyTorch gives 0)."""
    return where((input >= -lambd) & (input <= lambd), input.detach() * 0.0,
                 input - lambd * input.sign())


def hardshrink(input, lambd=0.5):
    """x outside ±lambd, 0 within (NaN stays NaN)."""
    return where((input >= -lambd) & (input <= lambd), 0.0, input)


def threshold(input, threshold, value):
    """``value`` where x <= threshold, else x (NaN stays NaN)."""
    return where(input <= threshold, value, input)


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """A differentiable sample of a categorical distribution: softmax((logits + Gumbel noise) /
    tau), the noise drawn from the engine's generator; with ``hard`` the one-hot of its largest
    entry in the forward pass and the soft sample's gradient (the straight-through trick)."""
    noise = -np.log(creation._rng().exponential(size=logits.shape)).astype(logits.dtype)
    soft = softmax((logits + noise) / tau, dim)
    if not hard:
        return soft
    index = np.expand_dims(soft.data.argmax(axis=dim), dim)
    one_hot = np.zeros(soft.shape, soft.dtype)
    np.put_along_axis(one_hot, index, 1.0, axis=dim)
    return soft - soft.detach() + Tensor(one_hot)
