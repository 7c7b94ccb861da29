"""Elementwise functions, each with its local derivative beside it."""

import numpy as np

from ..function import Function
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
        return grad * (1 - out * out)

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
    """x where condition is true, else y (all three broadcast together)."""
    condition = np.asarray(getattr(condition, "data", condition), dtype=bool)
    return Where.apply(x, y, condition=condition)
