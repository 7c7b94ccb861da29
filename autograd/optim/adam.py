"""Adam and AdamW, step for step as ``torch.optim.Adam`` and ``AdamW`` compute them."""

import numpy as np

from .optimizer import Optimizer, _check


def lerp_(start, end, weight):
    """start += weight * (end - start) in place, rounded as PyTorch's lerp_ rounds it."""
    if abs(weight) < 0.5:
        start += weight * (end - start)
    else:
        start[...] = end - (end - start) * (1 - weight)


class Adam(Optimizer):
    """Adam with bias correction: ``m`` and ``v`` are running means of the gradient and of its
    square, and ``p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)``.
    ``weight_decay`` adds ``weight_decay * p`` to the gradient (L2); ``amsgrad`` uses the
    largest ``v`` so far; ``maximize`` climbs instead."""

    decoupled = False  # AdamW: shrink the weights directly instead

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False, foreach=None):
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize}
        super().__init__(params, defaults)

    def _check(self, group):
        super()._check(group)
        for position, beta in enumerate(group["betas"]):
            _check(0 <= beta < 1, f"betas[{position}] must be in [0, 1), got {beta}")

    @property
    def betas(self):
        return self.param_groups[0]["betas"]

    @property
    def eps(self):
        return self.param_groups[0]["eps"]

    def _update(self, p, grad, state, group):
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["weight_decay"]
        if not state:
            state["step"] = 0
            state["exp_avg"] = np.zeros_like(p.data)
            state["exp_avg_sq"] = np.zeros_like(p.data)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = np.zeros_like(p.data)
        state["step"] += 1
        step = state["step"]
        if decay:
            if self.decoupled:
                p.mul_(1 - lr * decay)
            else:
                grad = grad + decay * p.data
        m, v = state["exp_avg"], state["exp_avg_sq"]
        lerp_(m, grad, 1 - beta1)
        v *= beta2
        v += (1 - beta2) * (grad * grad)
        step_size = lr / (1 - beta1**step)
        correction2_sqrt = (1 - beta2**step) ** 0.5
        if group["amsgrad"]:
            np.maximum(state["max_exp_avg_sq"], v, out=state["max_exp_avg_sq"])
            v = state["max_exp_avg_sq"]
        denom = np.sqrt(v) / correction2_sqrt + group["eps"]
        p.sub_(step_size * (m / denom))


class AdamW(Adam):
    """Adam with decoupled weight decay: each step first shrinks ``p`` by ``1 - lr *
    weight_decay`` (default 0.01), then takes Adam's step without decay in the gradient."""

    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
