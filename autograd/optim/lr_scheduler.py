"""Learning-rate schedules, as ``torch.optim.lr_scheduler``: each sets every parameter group's
``"lr"`` when you call ``scheduler.step()`` (once per epoch or per step, after
``optimizer.step()``), computed as PyTorch computes it (the same recursive formulas, so the
numbers agree step for step)."""

import math

from .optimizer import Optimizer

__all__ = ["CosineAnnealingLR", "LRScheduler", "LambdaLR", "StepLR"]


class LRScheduler:
    """Base class: remembers each group's starting rate (``base_lrs``, also stored as the group's
    ``"initial_lr"``) and the number of ``step()`` calls (``last_epoch``); subclasses define
    ``get_lr``. Making a scheduler takes its first step, so ``last_epoch`` starts at 0."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(self).__name__} takes an optimizer from autograd.optim, got "
                            f"{type(optimizer).__name__}")
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when "
                               "resuming a scheduler with last_epoch >= 0; load the optimizer's "
                               "state_dict first, or start with last_epoch=-1")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        raise NotImplementedError(f"{type(self).__name__} must define get_lr")

    def get_last_lr(self):
        """The learning rates the last ``step()`` set, one per group."""
        return list(self._last_lr)

    def step(self):
        """Advance one epoch (or step) and set each group's learning rate."""
        self._step_count += 1
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self):
        """Everything but the optimizer (and functions, which cannot be saved)."""
        return {key: value for key, value in self.__dict__.items()
                if key != "optimizer" and not callable(value)
                and not (isinstance(value, list) and any(callable(v) for v in value))}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def _group_lrs(self):
        return [group["lr"] for group in self.optimizer.param_groups]


class StepLR(LRScheduler):
    """Multiplies the learning rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._group_lrs()
        return [lr * self.gamma for lr in self._group_lrs()]


class CosineAnnealingLR(LRScheduler):
    """Anneals from the base rate to ``eta_min`` along half a cosine over ``T_max`` epochs:
    ``eta_min + (base - eta_min) (1 + cos(pi t / T_max)) / 2`` (computed recursively, as in
    PyTorch, so a rate changed by hand carries on from where it is)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803 - PyTorch's
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        t, T, low = self.last_epoch, self.T_max, self.eta_min  # noqa: N806
        if self._is_initial:
            return self._group_lrs()
        if self._step_count == 1 and t > 0:
            return [low + (base - low) * (1 + math.cos(t * math.pi / T)) / 2
                    for base in self.base_lrs]
        if (t - 1 - T) % (2 * T) == 0:
            return [lr + (base - low) * (1 - math.cos(math.pi / T)) / 2
                    for base, lr in zip(self.base_lrs, self._group_lrs(), strict=True)]
        return [(1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
                * (lr - low) + low for lr in self._group_lrs()]


class LambdaLR(LRScheduler):
    """Sets each group's rate to its base rate times ``lr_lambda(epoch)`` (one function, or one
    per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        groups = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != groups:
                raise ValueError(f"LambdaLR: expected {groups} lr_lambdas (one per parameter "
                                 f"group), got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * groups
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * fn(self.last_epoch)
                for fn, base in zip(self.lr_lambdas, self.base_lrs, strict=True)]
