"""Activation functions of ``torch.nn.functional``, each with its local derivative beside it.

The derivatives follow PyTorch at every kink (which side a boundary point belongs to, and where a
second derivative is 0), since a student moving code between the two should get the same numbers.
Each backward is written with the engine's own ops (``_call`` runs an op on an array or records it
on a Tensor), so ``create_graph=True`` differentiates it again.
"""

import math

import numpy as np

from ..tensor import Tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .elementwise import (
    Abs,
    Sigmoid,
    Tanh,
    erfc_array,
    masked,
    select,
    sigmoid_array,
    unary,
)
from .elementwise import call as _call
from .exposed import exposed

SQRT1_2 = math.sqrt(0.5)
INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
GELU_BETA = math.sqrt(2 / math.pi)  # PyTorch's kBeta
GELU_KAPPA = 0.044715
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
HARDSIGMOID_SLOPE = float(np.float32(1 / 6))  # PyTorch's backward uses 1.0f / 6.0f, in float64 too


def _values(x):
    """The array of x, a Tensor under create_graph: what a backward's branches are read from."""
    return x.data if isinstance(x, Tensor) else x


@exposed("gelu", method=False)
class Gelu(Op):
    """x·Φ(x), Φ the standard normal CDF; approximate="tanh" uses
    ½x(1 + tanh(u)), u = √(2/π)(x + 0.044715x³), as in PyTorch, computed as x·σ(2u) (the same
    function) so that the tail below 0 and the derivatives, written with 1 − tanh²(u) =
    4σ(2u)σ(−2u), keep their accuracy where tanh(u) has rounded to ±1."""

    __slots__ = ("approximate",)

    def forward(self, a, approximate="none"):
        if approximate not in ("none", "tanh"):
            raise ValueError(f'gelu: approximate must be "none" or "tanh", got {approximate!r}')
        self.approximate = approximate
        if approximate == "tanh":
            self.save_for_backward(a)
            return a * sigmoid_array(2 * GELU_BETA * (a + GELU_KAPPA * (a * a * a)))
        cdf = _normal_cdf_array(a)
        self.save_for_backward(a, cdf)
        return a * cdf

    def backward(self, grad):
        if self.approximate == "tanh":
            (a,) = self.saved_tensors
            square = a * a
            twice_inner = 2 * GELU_BETA * (a + GELU_KAPPA * (square * a))
            up, down = _call(Sigmoid, twice_inner), _call(Sigmoid, -twice_inner)
            twice_inner_slope = 2 * GELU_BETA * (1 + 3 * GELU_KAPPA * square)
            return grad * (up + a * up * down * twice_inner_slope)
        a, cdf = self.saved_tensors
        if isinstance(a, Tensor):  # create_graph: Φ(a) recorded, so that it is differentiated
            cdf = NormalCdf.apply(a)
        return grad * (cdf + a * array_or_tensor.exp(-0.5 * a * a) * INV_SQRT_2PI)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


class NormalCdf(Op):
    """Φ(a), the standard normal CDF (see ``_normal_cdf_array``), with derivative the density
    e^(−a²/2)/√(2π): gelu's backward under create_graph."""

    __slots__ = ()

    def forward(self, a):
        self.save_for_backward(a)
        return _normal_cdf_array(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * array_or_tensor.exp(-0.5 * a * a) * INV_SQRT_2PI

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


def _normal_cdf_array(a):
    """Φ(a) = erfc(−a/√2)/2, in a's dtype: accurate in the tail below 0, where (1 + erf(a/√2))/2
    would cancel to 0 (Φ(−6) is 1e-9, in float32 too)."""
    return 0.5 * erfc_array(-SQRT1_2 * a)


class Elu(Op):
    """scale·x for x > 0, else scale·alpha·(e^(input_scale·x) − 1): elu, celu and selu, as in
    PyTorch (whose three share this derivative, EluBackward). At 0 the slope is the left one,
    scale·alpha·input_scale, and the second derivative there is 0 (PyTorch's rule)."""

    __slots__ = ("alpha", "scale", "input_scale")

    def forward(self, a, alpha=1.0, scale=1.0, input_scale=1.0):
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        self.save_for_backward(a)
        negative = alpha * scale * np.expm1(input_scale * np.minimum(a, 0))
        return np.where(a > 0, scale * a, negative).astype(a.dtype, copy=False)

    def backward(self, grad):
        (a,) = self.saved_tensors
        data = _values(a)
        k = self.alpha * self.scale * self.input_scale
        # k·e^(input_scale·x) up to 0 (the exponent frozen at 0 there, so the second derivative
        # is 0), scale above 0 and for NaN, as PyTorch's elu_backward.
        curve = array_or_tensor.exp(self.input_scale * array_or_tensor.where(data < 0, a, 0.0))
        return select(data <= 0, grad * k * curve, grad * self.scale, a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("elu", method=False)
def elu(x, alpha=1.0):
    """x where x > 0, else alpha·(e^x − 1)."""
    return Elu.apply(x, alpha=alpha)


@exposed("celu", method=False)
def celu(x, alpha=1.0):
    """x where x > 0, else alpha·(e^(x/alpha) − 1): an elu with slope 1 at 0 for every alpha."""
    if alpha == 0:
        raise ZeroDivisionError("celu: alpha must not be 0 (it divides x); use e.g. alpha=1.0")
    return Elu.apply(x, alpha=alpha, input_scale=1.0 / alpha)


@exposed("selu", method=False)
def selu(x):
    """scale·elu(x, alpha) with PyTorch's fixed alpha ≈ 1.6733 and scale ≈ 1.0507."""
    return Elu.apply(x, alpha=SELU_ALPHA, scale=SELU_SCALE)


@exposed("softplus", method=False)
class Softplus(Op):
    """log(1 + e^(beta·x)) / beta, and x itself where beta·x > threshold (PyTorch's rule)."""

    __slots__ = ("beta", "threshold")

    def forward(self, a, beta=1.0, threshold=20.0):
        self.beta, self.threshold = beta, threshold
        self.save_for_backward(a)
        scaled = a * beta
        smooth = np.log1p(np.exp(np.minimum(scaled, threshold))) / beta
        return np.where(scaled > threshold, a, smooth).astype(a.dtype, copy=False)

    def backward(self, grad):
        (a,) = self.saved_tensors
        scaled = _values(a) * self.beta
        # Slope 1 above the threshold, sigmoid(beta·x) up to it; PyTorch's second derivative is 0
        # at the threshold itself, so the slope there is a constant.
        slope = _call(Sigmoid, self.beta * a)
        if isinstance(a, Tensor):
            slope = select(scaled < self.threshold, slope, sigmoid_array(scaled), a)
        return select(scaled > self.threshold, grad, grad * slope, a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


def _softsign_backward(grad, a):
    denominator = 1 + _call(Abs, a)
    return grad / (denominator * denominator)


Softsign = unary("softsign", lambda a: a / (np.abs(a) + 1), _softsign_backward, method=False,
                 doc="x / (1 + |x|), with derivative 1 / (1 + |x|)².")


class Hardtanh(Op):
    """x limited to [min_val, max_val]; the gradient passes only strictly inside (PyTorch's
    rule: 0 at both ends, unlike clamp), and the second derivative is 0."""

    __slots__ = ("low", "high")

    def forward(self, a, min_val=-1.0, max_val=1.0):
        if min_val > max_val:
            raise ValueError(f"hardtanh: min_val ({min_val}) cannot be greater than max_val "
                             f"({max_val}); swap them")
        self.low, self.high = min_val, max_val
        self.save_for_backward(a)
        return np.clip(a, min_val, max_val)

    def backward(self, grad):
        (a,) = self.saved_tensors
        data = _values(a)
        return masked(~((data <= self.low) | (data >= self.high)), grad, a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("hardtanh", method=False)
def hardtanh(x, min_val=-1.0, max_val=1.0):
    """x limited to [min_val, max_val] (gradient 0 at the ends, as in PyTorch)."""
    return Hardtanh.apply(x, min_val=min_val, max_val=max_val)


@exposed("relu6", method=False)
def relu6(x):
    """min(max(x, 0), 6): hardtanh(x, 0, 6), as in PyTorch (gradient 0 at 0 and at 6)."""
    return Hardtanh.apply(x, min_val=0.0, max_val=6.0)


Silu = unary(
    "silu", lambda a: a * sigmoid_array(a), method=False,
    backward=lambda grad, a: grad * _call(Sigmoid, a) * (1 + a * _call(Sigmoid, -a)),
    doc="x·sigmoid(x) (also called swish), with derivative σ(x)(1 + x·σ(−x)): σ(−x) rather than "
        "1 − σ(x), which is 0 once σ(x) has rounded to 1, so the second derivative keeps its "
        "tail.")


def _mish_backward(grad, a):
    t = _call(Tanh, _call(Softplus, a))
    return grad * (t + a * _call(Sigmoid, a) * (1 - t * t))


Mish = unary("mish", lambda a: a * np.tanh(np.logaddexp(0, a)), _mish_backward, method=False,
             doc="x·tanh(softplus(x)), with derivative tanh(sp) + x·σ(x)·(1 − tanh²(sp)).")


Hardsigmoid = unary(
    "hardsigmoid", lambda a: np.clip(a + 3, 0, 6) / 6, method=False,
    backward=lambda grad, a: (masked((_values(a) > -3) & (_values(a) < 3), grad, a)
                              * HARDSIGMOID_SLOPE),
    doc="relu6(x + 3) / 6: slope 1/6 strictly inside (−3, 3), 0 outside, at the ends and for NaN "
        "(PyTorch's rule).")


Hardswish = unary(
    "hardswish", lambda a: a * np.clip(a + 3, 0, 6) / 6, method=False,
    backward=lambda grad, a: masked(~(_values(a) <= -3),
                                    select(_values(a) < 3, grad * (a / 3 + 0.5), grad, a), a),
    doc="x·relu6(x + 3) / 6: slope 0 up to −3, x/3 + 1/2 inside (−3, 3), 1 from 3 on and for "
        "NaN (PyTorch's ends), so the second derivative is 1/3 inside and 0 elsewhere.")


@exposed("prelu")
class Prelu(Op):
    """x where x > 0, else weight·x, with a learned weight: one number, or one per channel (axis
    1, as in PyTorch). At 0 the slope is the weight (and the second derivatives are 0, PyTorch's
    rule)."""

    __slots__ = ("shape",)

    def forward(self, a, weight):
        if weight.dtype != a.dtype:
            raise TypeError(f"prelu: the input is {a.dtype} and the weight {weight.dtype}; "
                            "PyTorch refuses to promote them too. Cast the weight with "
                            "weight.to(input.dtype), or the model with .float() or .double()")
        if weight.ndim > 1:
            raise ValueError(f"prelu: the weight must hold 1 element or one per channel (a 1-D "
                             f"tensor), got shape {weight.shape}; flatten it")
        channels = a.shape[1] if a.ndim > 1 else 1
        if weight.size != 1 and weight.size != channels:
            raise ValueError(
                f"prelu: the weight has {weight.size} elements but the input of shape {a.shape} "
                f"has {channels} channel(s) on axis 1: give it 1 element or {channels}, e.g. "
                f"ag.full(({channels},), 0.25)")
        # The weight as it broadcasts: one number, or (C, 1, ..., 1) against axes 1, 2, ...
        self.shape = () if weight.size == 1 else (channels,) + (1,) * (a.ndim - 2)
        self.save_for_backward(a, weight)
        return np.where(a > 0, a, weight.reshape(self.shape) * a)

    def backward(self, grad):
        a, weight = self.saved_tensors
        data = _values(a)
        # Left of 0 (and for NaN, as in PyTorch) the slope is the weight; at 0 it is the weight's
        # value, a constant, since PyTorch's second derivatives count 0 with the right side.
        left = ~(data >= 0)
        at_0 = ((data == 0) * _values(weight).reshape(self.shape)).astype(data.dtype)
        need_a, need_weight = self.needs_input_grad
        grad_a = None
        if need_a:
            slope = left.astype(data.dtype) * weight.reshape(self.shape) + at_0
            grad_a = select(data > 0, grad, grad * slope, a)
        grad_weight = None
        if need_weight:
            axes = tuple(i for i in range(grad.ndim) if i != 1 or not self.shape)
            grad_weight = masked(left, grad * a).sum(axis=axes).reshape(weight.shape)
        return grad_a, grad_weight

    def jvp(self, tangent_a, tangent_weight):
        a, weight = self.saved_tensors
        left = weight.reshape(self.shape) * tangent_a
        if tangent_weight.any():  # only a moving weight: 0 · a is NaN at a = -inf
            left = left + tangent_weight.reshape(self.shape) * a
        return np.where(a >= 0, tangent_a, left)  # PyTorch's forward mode: 0 goes right


@exposed("logsigmoid", method=False)
class LogSigmoid(Op):
    """log σ(x) = min(x, 0) − log(1 + e^−|x|), stable for any x, with derivative σ(−x): one op,
    as PyTorch's, so an infinite upstream gradient meets one finite slope (never ∞ − ∞)."""

    __slots__ = ()

    def forward(self, a):
        e = np.exp(-np.abs(a))
        self.save_for_backward(a, e)
        return np.minimum(a, 0) - np.log1p(e)

    def backward(self, grad):
        a, e = self.saved_tensors
        if isinstance(a, Tensor):  # create_graph: σ(−a) recorded
            return grad * Sigmoid.apply(-a)
        return grad * (np.maximum(e, a <= 0) / (1 + e))  # σ(−a): 1 or e^−a over 1 + e^−|a|

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is
