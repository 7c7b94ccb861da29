"""Elementwise functions, each with its local derivative beside it."""

import math

import numpy as np

from ..function import Function
from ..tensor import Tensor
from . import array_or_tensor
from .exposed import exposed


@exposed("exp")
class Exp(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.exp(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad * out

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("log")
class Log(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.log(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad / a

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("sqrt")
class Sqrt(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.sqrt(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad / (2 * out)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("square")
class Square(Function):
    """a * a, elementwise; its derivative is 2a."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return a * a

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * 2 * a

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("abs")
class Abs(Function):
    """|a|, with derivative sign(a): 0 at 0."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.abs(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * array_or_tensor.sign(a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("sign")
class Sign(Function):
    """-1, 0 or 1 by the sign of a. Piecewise constant, so its derivative is 0 (PyTorch's rule):
    it is recorded, and a gradient through it is zeros rather than an error."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        return np.sign(a)

    def backward(self, grad):
        return np.zeros(grad.shape, dtype=grad.dtype)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("sin")
class Sin(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.sin(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * array_or_tensor.cos(a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("cos")
class Cos(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.cos(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return -grad * array_or_tensor.sin(a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("tanh")
class Tanh(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.tanh(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad - grad * out * out  # grad * (1 - out²), without NumPy's slower scalar path

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("sigmoid")
class Sigmoid(Function):
    """1 / (1 + e^-a), computed as (1 + tanh(a/2)) / 2 so it never overflows."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = 0.5 * (1 + np.tanh(0.5 * a))
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad * out * (1 - out)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("relu")
class Relu(Function):
    """max(a, 0), with derivative 1 where a > 0 and 0 elsewhere (0 at 0)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.maximum(a, 0)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad * array_or_tensor.positive(out)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("leaky_relu")
class LeakyRelu(Function):
    """a where a > 0, else negative_slope * a."""

    __slots__ = ("negative_slope",)
    backward_runs_on_arrays = True

    def forward(self, a, negative_slope=0.01):
        self.negative_slope = negative_slope
        self.save_for_backward(a)
        return np.where(a > 0, a, a * np.asarray(negative_slope, dtype=a.dtype))

    def backward(self, grad):
        (a,) = self.saved_tensors
        slope = self.negative_slope
        return grad * (slope + (1 - slope) * array_or_tensor.positive(a))

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


class Clip(Function):
    """a limited to [low, high]; the gradient passes only where a is inside."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, low, high):
        self.save_for_backward((a >= (-np.inf if low is None else low))
                               & (a <= (np.inf if high is None else high)))
        return np.clip(a, low, high)

    def backward(self, grad):
        (inside,) = self.saved_tensors
        return grad * inside

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("maximum")
class Maximum(Function):
    """Elementwise max(a, b); where they tie, each gets half the gradient."""

    __slots__ = ()
    promotes_zero_dim = True
    backward_runs_on_arrays = True

    def forward(self, a, b):
        out = np.maximum(a, b)
        self.save_for_backward(_share(a > b, a == b, out.dtype))
        return out

    def backward(self, grad):
        (weight_a,) = self.saved_tensors
        return grad * weight_a, grad * (1 - weight_a)

    def jvp(self, tangent_a, tangent_b):
        (weight_a,) = self.saved_tensors
        return tangent_a * weight_a + tangent_b * (1 - weight_a)


@exposed("minimum")
class Minimum(Function):
    """Elementwise min(a, b); where they tie, each gets half the gradient."""

    __slots__ = ()
    promotes_zero_dim = True
    backward_runs_on_arrays = True

    def forward(self, a, b):
        out = np.minimum(a, b)
        self.save_for_backward(_share(a < b, a == b, out.dtype))
        return out

    def backward(self, grad):
        (weight_a,) = self.saved_tensors
        return grad * weight_a, grad * (1 - weight_a)

    def jvp(self, tangent_a, tangent_b):
        (weight_a,) = self.saved_tensors
        return tangent_a * weight_a + tangent_b * (1 - weight_a)


def _share(wins, ties, dtype):
    """The share of the gradient that goes to the first operand: 1, 1/2 on ties, else 0."""
    return (wins + 0.5 * ties).astype(dtype)


class Cast(Function):
    """The elements as another dtype (``x.to(np.float32)``); the gradient is cast back to the
    input's dtype. An integer or bool result is not differentiable, so it is a constant."""

    __slots__ = ("dtype",)
    backward_runs_on_arrays = True

    def forward(self, a, dtype):
        self.dtype = a.dtype
        return a.astype(dtype)

    def backward(self, grad):
        return grad.astype(self.dtype) if isinstance(grad, np.ndarray) else grad.to(self.dtype)

    def jvp(self, tangent):
        return tangent  # the engine gives every tangent its output's dtype


class Where(Function):
    """x where condition holds, else y; the condition is a constant attribute."""

    __slots__ = ()
    promotes_zero_dim = True
    backward_runs_on_arrays = True

    def forward(self, x, y, condition):
        self.save_for_backward(condition)
        return np.where(condition, x, y)

    def backward(self, grad):
        (condition,) = self.saved_tensors
        need_x, need_y = self.needs_input_grad
        return (array_or_tensor.where(condition, grad, 0.0) if need_x else None,
                array_or_tensor.where(condition, 0.0, grad) if need_y else None)

    def jvp(self, tangent_x, tangent_y):
        (condition,) = self.saved_tensors
        return np.where(condition, tangent_x, tangent_y)


@exposed("clip")
def clip(x, min=None, max=None):  # noqa: A002 - NumPy's and PyTorch's keyword names
    """Limit x to [min, max] (either may be None)."""
    if min is None and max is None:
        raise ValueError("clip needs min, max or both: e.g. clip(x, 0.0, 1.0)")
    return Clip.apply(x, low=min, high=max)


@exposed("where", method=False)
def where(condition, x, y):
    """x where condition is true, else y (all three broadcast together). The condition is
    boolean (uint8 too), as PyTorch requires: a float one would be read as "non-zero"."""
    condition = np.asarray(condition.data if isinstance(condition, Tensor) else condition)
    if condition.dtype != bool:
        if condition.dtype != np.uint8:
            raise TypeError(
                f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                f"{condition.dtype}, as PyTorch says. Compare to get one, e.g. where(x > 0, "
                "x, y), or convert with condition.bool() (non-zero is True)")
        condition = condition.astype(bool)
    return Where.apply(x, y, condition=condition)


# --- more elementwise functions (PyTorch's torch.<name>) ---------------------------------------
# A backward that needs an op NumPy spells differently calls it through ``call`` below, which
# runs the op's forward on an array and records the op on a Tensor (under create_graph).

LN2 = math.log(2)
LN10 = math.log(10)
TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def call(op, x, **attrs):
    """``op`` on ``x``: its forward on a NumPy array (the fast path), recorded on a Tensor (under
    create_graph, so the derivative can be differentiated again)."""
    return op.apply(x, **attrs) if isinstance(x, Tensor) else op().forward(x, **attrs)


_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
          -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
          -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
          -7.37332916720468e-03, -1.42647390514189e-02)


def erf_array(a):
    """The error function elementwise, in a's floating dtype. NumPy has none: float64 maps
    ``math.erf`` (float64 accuracy, about 80 ns an element); float32 and float16 use the
    rational approximation x P(x²) / Q(x²) on [-4, 4] that Eigen and XLA use for float32 (error
    below 7e-8, under half a float32 ulp), vectorised and about 20 times faster."""
    if a.dtype in (np.float32, np.float16):
        x = np.clip(a.astype(np.float64), -4.0, 4.0)
        squared = x * x
        return (x * np.polyval(_ERF_P, squared) / np.polyval(_ERF_Q, squared)).astype(a.dtype)
    values = np.fromiter(map(math.erf, a.ravel().tolist()), dtype=np.float64, count=a.size)
    return values.reshape(a.shape).astype(a.dtype if a.dtype.kind == "f" else np.float64,
                                          copy=False)


@exposed("tan")
class Tan(Function):
    """tan(a), with derivative 1 + tan²(a)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.tan(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad * (1 + out * out)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("sinh")
class Sinh(Function):
    """sinh(a), with derivative cosh(a)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.sinh(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * call(Cosh, a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("cosh")
class Cosh(Function):
    """cosh(a), with derivative sinh(a)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.cosh(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * call(Sinh, a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("asinh")
class Asinh(Function):
    """asinh(a), with derivative 1 / √(a² + 1)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.arcsinh(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * call(Rsqrt, a * a + 1)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("acosh")
class Acosh(Function):
    """acosh(a) for a ≥ 1, with derivative 1 / √(a² − 1)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.arccosh(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * call(Rsqrt, a * a - 1)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("atanh")
class Atanh(Function):
    """atanh(a) for |a| < 1, with derivative 1 / (1 − a²)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.arctanh(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad / (1 - a * a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("erf")
class Erf(Function):
    """The error function 2/√π ∫₀^a e^(−t²) dt, with derivative 2/√π · e^(−a²)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return erf_array(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * TWO_OVER_SQRT_PI * array_or_tensor.exp(-(a * a))

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("log2")
class Log2(Function):
    """Base-2 logarithm, with derivative 1 / (a ln 2)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.log2(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad / (a * LN2)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("log10")
class Log10(Function):
    """Base-10 logarithm, with derivative 1 / (a ln 10)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.log10(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad / (a * LN10)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("exp2")
class Exp2(Function):
    """2 to the power a, with derivative 2^a · ln 2."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.exp2(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad * out * LN2

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("log1p")
class Log1p(Function):
    """log(1 + a), accurate for tiny a, with derivative 1 / (1 + a)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        self.save_for_backward(a)
        return np.log1p(a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad / (a + 1)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("expm1")
class Expm1(Function):
    """e^a − 1, accurate for tiny a, with derivative e^a (the output plus 1)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = np.expm1(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad * (out + 1)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("rsqrt")
class Rsqrt(Function):
    """1 / √a, with derivative −½ a^(−3/2), i.e. −½ times the output cubed."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = 1 / np.sqrt(a)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return -0.5 * grad * (out * out * out)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("reciprocal")
class Reciprocal(Function):
    """1 / a, with derivative −1 / a², i.e. minus the output squared."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        out = 1 / a
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return -grad * (out * out)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("lerp")
class Lerp(Function):
    """a + weight·(end − a), elementwise with broadcasting; weight may be a number or a tensor.
    Computed as PyTorch does: from the nearer end (end − (end − a)(1 − weight) once
    |weight| ≥ ½), so weight 1 gives end exactly."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, end, weight):
        self.save_for_backward(a, end, weight)
        return np.where(np.abs(weight) < 0.5, a + weight * (end - a),
                        end - (end - a) * (1 - weight))

    def backward(self, grad):
        a, end, weight = self.saved_tensors
        need_a, need_end, need_weight = self.needs_input_grad
        return (grad * (1 - weight) if need_a else None,
                grad * weight if need_end else None,
                grad * (end - a) if need_weight else None)

    def jvp(self, tangent_a, tangent_end, tangent_weight):
        a, end, weight = self.saved_tensors
        return tangent_a * (1 - weight) + tangent_end * weight + tangent_weight * (end - a)


@exposed("atan2")
class Atan2(Function):
    """The angle of the point (other, a): atan2(a, other), with partial derivatives
    other / (a² + other²) and −a / (a² + other²); both 0 at the origin (PyTorch's rule)."""

    __slots__ = ()
    promotes_zero_dim = True
    backward_runs_on_arrays = True

    def forward(self, a, other):
        self.save_for_backward(a, other)
        return np.arctan2(a, other)

    def backward(self, grad):
        a, other = self.saved_tensors
        scale = _inverse_square_norm(a, other)
        need_a, need_other = self.needs_input_grad
        return (grad * other * scale if need_a else None,
                grad * -a * scale if need_other else None)

    def jvp(self, tangent_a, tangent_other):
        a, other = self.saved_tensors
        return (other * tangent_a - a * tangent_other) * _inverse_square_norm(a, other)


def _inverse_square_norm(a, other):
    """1 / (a² + other²), and 0 where both are 0."""
    square = a * a + other * other
    origin = square == 0
    return array_or_tensor.where(origin, 0.0, 1 / (square + origin))


class _PiecewiseConstant(Function):
    """Flat between jumps, so its derivative is 0 (PyTorch's rule, as for sign): it is recorded,
    and a gradient through it is zeros rather than an error."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def backward(self, grad):
        return np.zeros(grad.shape, dtype=grad.dtype)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("floor")
class Floor(_PiecewiseConstant):
    """The largest whole number ≤ a (integers pass unchanged); derivative 0."""

    __slots__ = ()

    def forward(self, a):
        return np.floor(a) if a.dtype.kind == "f" else a.copy()


@exposed("ceil")
class Ceil(_PiecewiseConstant):
    """The smallest whole number ≥ a (integers pass unchanged); derivative 0."""

    __slots__ = ()

    def forward(self, a):
        return np.ceil(a) if a.dtype.kind == "f" else a.copy()


@exposed("trunc")
class Trunc(_PiecewiseConstant):
    """a rounded toward 0 (integers pass unchanged); derivative 0."""

    __slots__ = ()

    def forward(self, a):
        return np.trunc(a) if a.dtype.kind == "f" else a.copy()


@exposed("clone")
class Clone(Function):
    """A copy of a that stays in the graph: the gradient passes through unchanged."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        return a.copy()

    def backward(self, grad):
        return grad

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


# --- tests of values: not differentiable, so the results are constants (as in PyTorch) --------


def _untracked(array):
    return Tensor._make(np.asarray(array), False, None)


def _data(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


@exposed("isnan")
def isnan(x):
    """True where x is NaN (a constant bool tensor)."""
    return _untracked(np.isnan(_data(x)))


@exposed("isinf")
def isinf(x):
    """True where x is +inf or -inf (a constant bool tensor)."""
    return _untracked(np.isinf(_data(x)))


@exposed("isfinite")
def isfinite(x):
    """True where x is neither NaN nor ±inf (a constant bool tensor)."""
    return _untracked(np.isfinite(_data(x)))


@exposed("logical_not")
def logical_not(x):
    """True where x is 0 (or False), else False (a constant bool tensor)."""
    return _untracked(np.logical_not(_data(x)))
