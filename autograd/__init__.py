"""autograd: a reverse-mode automatic differentiation engine on NumPy, with PyTorch's names.

    import autograd as ag
    a = ag.tensor([2.0], requires_grad=True)
    b = ag.tensor([3.0], requires_grad=True)
    d = a * b + a
    d.sum().backward()
    a.grad, b.grad        # Tensor([4.]), Tensor([2.])
"""

import numpy as np

from . import forward_ad, func, functional, linalg, nn, optim, viz
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
from .engine import backward, grad, record_backward
from .function import Function
from .grad_mode import enable_grad, is_grad_enabled, no_grad
from .gradcheck import GradcheckError, gradcheck, numerical_grad
from .graph import trace
from .ops import *  # noqa: F403 - every op marked @exposed: add, exp, sum, reshape, …
from .ops.inplace import relu_
from .tensor import Tensor

float16, float32, float64, int32, int64 = (np.float16, np.float32, np.float64, np.int32,
                                           np.int64)
"""dtypes under PyTorch's names, so ``x.to(ag.float32)`` reads as ``x.to(torch.float32)``."""
