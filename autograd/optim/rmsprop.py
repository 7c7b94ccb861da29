"""RMSprop and Adagrad, step for step as ``torch.optim.RMSprop`` and ``Adagrad`` compute them."""

import numpy as np

from .adam import lerp_
from .optimizer import Optimizer, _check


class RMSprop(Optimizer):
    """Divides the gradient by a running root mean square: ``v = alpha * v + (1 - alpha) *
    g²``, ``p -= lr * g / (sqrt(v) + eps)``; ``centered`` subtracts the squared running mean of
    ``g`` inside the root, ``momentum`` keeps a buffer of those steps."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, *, maximize=False, foreach=None):
        defaults = {"lr": lr, "alpha": alpha, "eps": eps, "weight_decay": weight_decay,
                    "momentum": momentum, "centered": centered, "maximize": maximize}
        super().__init__(params, defaults)

    def _check(self, group):
        super()._check(group)
        _check(group["alpha"] >= 0, f"alpha must be >= 0, got {group['alpha']}")

    def _update(self, p, grad, state, group):
        if not state:
            state["step"] = 0
            state["square_avg"] = np.zeros_like(p.data)
            if group["momentum"] > 0:
                state["momentum_buffer"] = np.zeros_like(p.data)
            if group["centered"]:
                state["grad_avg"] = np.zeros_like(p.data)
        state["step"] += 1
        alpha = group["alpha"]
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * p.data
        square_avg = state["square_avg"]
        square_avg *= alpha
        square_avg += (1 - alpha) * (grad * grad)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            lerp_(grad_avg, grad, 1 - alpha)
            avg = np.sqrt(square_avg - grad_avg * grad_avg)
        else:
            avg = np.sqrt(square_avg)
        avg += group["eps"]
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf *= group["momentum"]
            buf += grad / avg
            p.sub_(group["lr"] * buf)
        else:
            p.sub_(group["lr"] * (grad / avg))


class Adagrad(Optimizer):
    """Divides each step by the root of the summed squared gradients so far: ``s += g²``,
    ``p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)``."""

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                 initial_accumulator_value=0.0, eps=1e-10, *, maximize=False, foreach=None):
        defaults = {"lr": lr, "lr_decay": lr_decay, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "eps": eps,
                    "maximize": maximize}
        super().__init__(params, defaults)

    def _check(self, group):
        super()._check(group)
        _check(group["lr_decay"] >= 0, f"lr_decay must be >= 0, got {group['lr_decay']}")
        _check(group["initial_accumulator_value"] >= 0, "initial_accumulator_value must be "
               f">= 0, got {group['initial_accumulator_value']}")

    def _update(self, p, grad, state, group):
        if not state:
            state["step"] = 0
            state["sum"] = np.full_like(p.data, group["initial_accumulator_value"])
        state["step"] += 1
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * p.data
        clr = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        state["sum"] += grad * grad
        p.sub_(clr * (grad / (np.sqrt(state["sum"]) + group["eps"])))
