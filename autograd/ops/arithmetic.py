"""Arithmetic: + - * / ** and negation."""

import numpy as np

from ..function import Function
from . import array_or_tensor


class Add(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, b):
        return a + b

    def backward(self, grad):
        return grad, grad


class Sub(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, b):
        return a - b

    def backward(self, grad):
        return grad, -grad


class Mul(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, b):
        self.save_for_backward(a, b)
        return a * b

    def backward(self, grad):
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        return (grad * b if need_a else None), (grad * a if need_b else None)


class Div(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, b):
        self.save_for_backward(a, b)
        return a / b

    def backward(self, grad):
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        grad_a = grad / b
        return (grad_a if need_a else None), (-grad_a * a / b if need_b else None)


class Neg(Function):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a):
        return -a

    def backward(self, grad):
        return -grad


class Pow(Function):
    """``a ** b`` with a tensor exponent: d/da = b a^(b-1), d/db = a^b ln a (needs a > 0)."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, b):
        out = a**b
        self.save_for_backward(a, b, out)
        return out

    def backward(self, grad):
        a, b, out = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        grad_a = grad * b * a ** (b - 1) if need_a else None
        grad_b = grad * out * array_or_tensor.log(a) if need_b else None
        return grad_a, grad_b


class PowScalar(Function):
    """``a ** p`` with a constant number p: d/da = p a^(p-1)."""

    __slots__ = ("exponent",)
    backward_runs_on_arrays = True

    def forward(self, a, exponent):
        self.exponent = exponent
        self.save_for_backward(a)
        return a**exponent

    def backward(self, grad):
        (a,) = self.saved_tensors
        p = self.exponent
        if p == 2:
            return grad * 2 * a
        return grad * p * a ** (p - 1)


def add(a, b):
    return Add.apply(a, b)


def sub(a, b):
    return Sub.apply(a, b)


def mul(a, b):
    return Mul.apply(a, b)


def div(a, b):
    return Div.apply(a, b)


def neg(a):
    return Neg.apply(a)


def pow(a, exponent):  # noqa: A001 - the PyTorch name
    """``a ** exponent``; a Python number exponent is a constant, a tensor one is differentiable."""
    if isinstance(exponent, (int, float, np.integer, np.floating)):
        return PowScalar.apply(a, exponent=exponent)
    return Pow.apply(a, exponent)
