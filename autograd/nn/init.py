"""Weight initialisation in place, as ``torch.nn.init``: each function fills a Tensor's values,
drawn from the engine's generator (``autograd.manual_seed`` makes them reproducible), and returns
the Tensor. The layers call these for PyTorch's default initialisations."""

import math

import numpy as np

from ..grad_mode import no_grad
from ..tensor import Tensor

__all__ = ["calculate_gain", "constant_", "kaiming_normal_", "kaiming_uniform_", "normal_",
           "ones_", "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_"]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity, param=None):
    """The factor that keeps activations' variance steady through ``nonlinearity``: 1 for
    linear maps and sigmoid, 5/3 for tanh, √2 for relu, √(2 / (1 + slope²)) for leaky_relu
    (slope ``param``, 0.01 by default), 3/4 for selu."""
    if nonlinearity in _LINEAR:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"calculate_gain: negative_slope {slope!r} is not a number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"calculate_gain: unsupported nonlinearity {nonlinearity!r}; use one of "
                     f"{', '.join(_LINEAR)}, tanh, relu, leaky_relu, selu")


def uniform_(tensor, a=0.0, b=1.0):
    """Fill with samples uniform in [a, b)."""
    with no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0):
    """Fill with samples from a normal distribution N(mean, std²)."""
    with no_grad():
        return tensor.normal_(mean, std)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    return constant_(tensor, 0)


def ones_(tensor):
    return constant_(tensor, 1)


def _fans(tensor):
    """(fan_in, fan_out): inputs and outputs of one unit, kernels counted per position."""
    if tensor.ndim < 2:
        raise ValueError(f"fan in and fan out need a tensor with at least 2 dimensions (out, in, "
                         f"*kernel), got shape {tensor.shape}; initialise a bias with uniform_ "
                         "or zeros_")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fan(tensor, mode):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode must be 'fan_in' or 'fan_out', got {mode!r}")
    fan_in, fan_out = _fans(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    """He initialisation: uniform in ±√3 · gain / √fan (fan_in by default); ``a`` is the
    negative slope of leaky_relu. PyTorch's layers use ``a=√5``, giving ±1/√fan_in."""
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    """He initialisation: normal with standard deviation gain / √fan."""
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return normal_(tensor, 0.0, std)


def xavier_uniform_(tensor, gain=1.0):
    """Glorot initialisation: uniform in ±gain · √(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _fans(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    """Glorot initialisation: normal with standard deviation gain · √(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def parameter(shape, dtype, name=None):
    """A new parameter of ``shape``, zeros until an init function fills it."""
    return Tensor(np.zeros(shape, dtype=dtype), requires_grad=True, dtype=dtype, name=name)


def default_weight_and_bias(weight, bias):
    """PyTorch's default for Linear and Conv: weight kaiming_uniform_(a=√5) (uniform in
    ±1/√fan_in), bias uniform in ±1/√fan_in."""
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = _fans(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        uniform_(bias, -bound, bound)
