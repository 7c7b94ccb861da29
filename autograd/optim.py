"""Optimizers: SGD (with momentum) and Adam, with PyTorch's update formulas.

Updates change each parameter's ``.data`` in place under ``no_grad``, so stepping never builds a
graph. Parameters whose ``.grad`` is None are skipped. All state lives on the optimizer instance.
"""

import numpy as np

from .grad_mode import no_grad
from .tensor import Tensor


class Optimizer:
    """Holds the parameters to update; subclasses define ``step``."""

    def __init__(self, params):
        self.params = list(params)
        if not self.params:
            raise ValueError(
                "the optimizer got an empty parameter list: pass model.parameters() of a model "
                "that has parameters"
            )
        for position, p in enumerate(self.params):
            if not isinstance(p, Tensor) or not p.is_leaf:
                what = type(p).__name__ if not isinstance(p, Tensor) else "a non-leaf Tensor"
                raise TypeError(
                    f"parameter {position} is {what}: optimizers update leaf Tensors (created "
                    "with requires_grad=True), not results of operations"
                )

    def zero_grad(self):
        """Forget accumulated gradients: every parameter's ``.grad`` becomes None."""
        for p in self.params:
            p.grad = None

    def step(self):
        raise NotImplementedError


class SGD(Optimizer):
    """``p -= lr * g``; with momentum, ``g`` is replaced by ``buf = momentum * buf + g``."""

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        _check(lr >= 0, f"learning rate must be >= 0, got {lr}")
        _check(momentum >= 0, f"momentum must be >= 0, got {momentum}")
        self.lr = lr
        self.momentum = momentum
        self._buffers = [None] * len(self.params)
        self._scratch = [None] * len(self.params)

    @no_grad()
    def step(self):
        for position, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad.data
            if self.momentum:
                buf = self._buffers[position]
                if buf is None:
                    buf = self._buffers[position] = g.copy()
                else:
                    buf *= self.momentum
                    buf += g
                g = buf
            data = p.data
            data -= self._scaled(position, g)

    def _scaled(self, position, g):
        """``lr * g`` in a buffer kept per parameter: no fresh megabyte-sized array each step."""
        scratch = self._scratch[position]
        if scratch is None or scratch.shape != g.shape or scratch.dtype != g.dtype:
            scratch = self._scratch[position] = np.empty_like(g)
        return np.multiply(g, self.lr, out=scratch)


class Adam(Optimizer):
    """Adam with bias correction, step for step as ``torch.optim.Adam`` computes it."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params)
        _check(lr >= 0, f"learning rate must be >= 0, got {lr}")
        _check(eps >= 0, f"eps must be >= 0, got {eps}")
        for position, beta in enumerate(betas):
            _check(0 <= beta < 1, f"betas[{position}] must be in [0, 1), got {beta}")
        self.lr = lr
        self.betas = tuple(betas)
        self.eps = eps
        self._steps = [0] * len(self.params)
        self._first = [np.zeros_like(p.data) for p in self.params]
        self._second = [np.zeros_like(p.data) for p in self.params]

    @no_grad()
    def step(self):
        beta1, beta2 = self.betas
        for position, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad.data
            self._steps[position] += 1
            step = self._steps[position]
            m, v = self._first[position], self._second[position]
            m += (g - m) * (1 - beta1)
            v *= beta2
            v += (1 - beta2) * g * g
            step_size = self.lr / (1 - beta1**step)
            denom = np.sqrt(v) / (1 - beta2**step) ** 0.5 + self.eps
            data = p.data
            data -= step_size * (m / denom)


def _check(condition, message):
    if not condition:
        raise ValueError(message)
