"""Arithmetic: + - * / ** and negation."""

import numpy as np

from ..tensor import Tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed


@exposed("add")
class Add(Op):
    """a + b, broadcasting; both operands get the gradient unchanged (summed over broadcast axes)."""

    __slots__ = ()
    promotes_zero_dim = True

    def forward(self, a, b):
        return a + b

    def backward(self, grad):
        return grad, grad

    def jvp(self, tangent_a, tangent_b):
        return tangent_a + tangent_b


@exposed("sub")
class Sub(Op):
    """a − b, broadcasting; a gets the gradient, b its negative."""

    __slots__ = ()
    promotes_zero_dim = True

    def forward(self, a, b):
        return a - b

    def backward(self, grad):
        return grad, -grad

    def jvp(self, tangent_a, tangent_b):
        return tangent_a - tangent_b


@exposed("mul")
class Mul(Op):
    """a · b, broadcasting; each factor's gradient is the upstream gradient times the other."""

    __slots__ = ()
    promotes_zero_dim = True

    def forward(self, a, b):
        self.save_for_backward(a, b)
        return a * b

    def backward(self, grad):
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        return (grad * b if need_a else None), (grad * a if need_b else None)

    def saved_in_use(self):
        a, b = self._saved_values()
        need_a, need_b = self.needs_input_grad
        return (a,) * need_b + (b,) * need_a  # each factor serves the other's gradient

    def jvp(self, tangent_a, tangent_b):
        a, b = self.saved_tensors
        return tangent_a * b + a * tangent_b


@exposed("div")
class Div(Op):
    """a / b; with ``rounding_mode`` "trunc" (toward 0) or "floor" (down), the quotient rounded
    as PyTorch does (integers stay integers) and, being flat between jumps, derivative 0."""

    __slots__ = ("rounding_mode",)
    promotes_zero_dim = True

    def forward(self, a, b, rounding_mode=None):
        if rounding_mode is None:
            self.save_for_backward(a, b)
            return a / b
        self.rounding_mode = rounding_mode
        if rounding_mode == "floor":
            return np.floor_divide(a, b)
        if rounding_mode == "trunc":
            whole = a.dtype.kind in "iub" and b.dtype.kind in "iub"
            return np.fix(a / b).astype(np.result_type(a, b)) if whole else np.trunc(a / b)
        raise ValueError(f'div: rounding_mode must be None, "trunc" or "floor", got '
                         f"{rounding_mode!r}")

    def backward(self, grad):
        if getattr(self, "rounding_mode", None) is not None:
            zeros = np.zeros(grad.shape, dtype=grad.dtype)
            return zeros, zeros
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        grad_a = grad / b
        return (grad_a if need_a else None), (-grad_a * a / b if need_b else None)

    def saved_in_use(self):
        a, b = self._saved_values()
        return (a, b) if self.needs_input_grad[1] else (b,)  # a serves only b's gradient

    def jvp(self, tangent_a, tangent_b):
        if getattr(self, "rounding_mode", None) is not None:
            return np.zeros_like(tangent_a + tangent_b)
        a, b = self.saved_tensors
        return (tangent_a - a / b * tangent_b) / b


@exposed("neg")
class Neg(Op):
    """−a; the gradient with its sign flipped."""

    __slots__ = ()

    def forward(self, a):
        return -a

    def backward(self, grad):
        return -grad

    jvp = backward


@exposed("pow")
class Pow(Op):
    """``a ** b``, elementwise: d/da = b a^(b-1), d/db = a^b ln a, with PyTorch's rules where these
    are 0 times infinity: d/da is 0 where b = 0 (so a second derivative of x**1 at 0 is 0), and
    d/db is 0 where a = 0 and b ≥ 0. A number exponent is a constant operand, so only d/da is
    computed."""

    __slots__ = ()
    promotes_zero_dim = True

    def forward(self, a, b):
        out = a**b
        self.save_for_backward(a, b, out)
        return out

    def backward(self, grad):
        a, b, out = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        return (_by_base(grad, a, b) if need_a else None,
                _by_exponent(grad, a, b, out) if need_b else None)

    def jvp(self, tangent_a, tangent_b):
        # Only the operands that move: d/db needs log a, NaN for a < 0, and d/da is NaN where
        # a^(b-1) overflows (2.0 ** x at x = 1000 in float32).
        a, b, out = self.saved_tensors
        tangent = _by_base(tangent_a, a, b) if tangent_a.any() else 0
        if tangent_b.any():
            tangent = tangent + _by_exponent(tangent_b, a, b, out)
        return tangent


def _by_base(grad, a, b):
    """grad · b a^(b-1), and 0 where b = 0 (PyTorch's pow_backward_self). There the power is
    taken at exponent 1 - 1 = 0 instead of -1, so that a derivative of this, which passes the
    dropped branch a zero, does not meet 0 · ∞ at a = 0."""
    flat = _values(b) == 0
    if not flat.any():
        return grad * b * a ** (b - 1)
    safe = array_or_tensor.where(flat, 1.0, b)
    return array_or_tensor.where(flat, 0.0, grad * b * a ** (safe - 1))


def _by_exponent(grad, a, b, out):
    """grad · a^b ln a, the log's factor 0 where a = 0 and b ≥ 0 (PyTorch's
    pow_backward_exponent); there the log is taken of 1 instead, for the reason of ``_by_base``."""
    flat = (_values(a) == 0) & (_values(b) >= 0)
    if not flat.any():
        return grad * (out * array_or_tensor.log(a))
    safe = array_or_tensor.where(flat, 1.0, a)
    return grad * array_or_tensor.where(flat, 0.0, out * array_or_tensor.log(safe))


def _values(x):
    return x.data if isinstance(x, Tensor) else x
