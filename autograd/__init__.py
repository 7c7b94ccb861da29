"""autograd: a reverse-mode automatic differentiation engine on NumPy, with PyTorch's names.

    import autograd as ag
    a = ag.tensor([2.0], requires_grad=True)
    b = ag.tensor([3.0], requires_grad=True)
    d = a * b + a
    d.sum().backward()
    a.grad, b.grad        # Tensor([4.]), Tensor([2.])
"""

from . import nn, optim, viz
from .creation import (
    arange,
    eye,
    full,
    manual_seed,
    ones,
    ones_like,
    rand,
    randn,
    tensor,
    zeros,
    zeros_like,
)
from .engine import grad
from .function import Function
from .grad_mode import enable_grad, is_grad_enabled, no_grad
from .gradcheck import GradcheckError, gradcheck, numerical_grad
from .graph import trace
from .ops import (
    abs,
    add,
    broadcast_to,
    clip,
    concatenate,
    cos,
    div,
    exp,
    expand_dims,
    flatten,
    leaky_relu,
    log,
    log_softmax,
    logsumexp,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mul,
    neg,
    permute,
    pow,
    relu,
    reshape,
    sigmoid,
    sin,
    softmax,
    sqrt,
    squeeze,
    stack,
    sub,
    sum,
    swapaxes,
    tanh,
    transpose,
    unsqueeze,
    where,
)
from .tensor import Tensor
