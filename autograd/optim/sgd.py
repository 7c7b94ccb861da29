"""Stochastic gradient descent, step for step as ``torch.optim.SGD`` computes it."""

import numpy as np

from .optimizer import Optimizer, _check


class SGD(Optimizer):
    """``p -= lr * g``, where ``g`` is the gradient plus ``weight_decay * p``; with momentum,
    ``buf = momentum * buf + (1 - dampening) * g`` (the first ``buf`` is ``g``) replaces ``g``,
    and with ``nesterov`` it is ``g + momentum * buf``. ``maximize`` climbs instead."""

    def __init__(self, params, lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, *, maximize=False, foreach=None):
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize}
        super().__init__(params, defaults)
        self._scratch = {}  # parameter -> its lr * grad buffer (Tensors hash by identity)

    def _check(self, group):
        super()._check(group)
        _check(not group["nesterov"] or (group["momentum"] > 0 and group["dampening"] == 0),
               "nesterov momentum needs momentum > 0 and dampening 0")

    @property
    def momentum(self):
        return self.param_groups[0]["momentum"]

    def _update(self, p, grad, state, group):
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * p.data
        momentum = group["momentum"]
        if momentum:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.copy()
            else:
                buf *= momentum
                buf += grad if group["dampening"] == 0 else (1 - group["dampening"]) * grad
            grad = grad + momentum * buf if group["nesterov"] else buf
        p.sub_(self._scaled(p, grad, group["lr"]))

    def _scaled(self, p, grad, lr):
        """``lr * grad`` in a buffer kept per parameter (not part of the state_dict): no fresh
        megabyte-sized array, and none of the page faults that come with it, at every step."""
        scratch = self._scratch.get(p)
        if scratch is None or scratch.shape != grad.shape or scratch.dtype != grad.dtype:
            scratch = self._scratch[p] = np.empty_like(grad)
        return np.multiply(grad, lr, out=scratch)
