"""Optimizer: the base of every optimizer, with PyTorch's parameter groups and state_dict.

Parameters come as a list of Tensors or as a list of groups (dicts with ``"params"`` and any
settings of their own, e.g. ``[{"params": body, "lr": 1e-3}, {"params": head}]``); settings a
group does not give come from the optimizer's arguments. ``optimizer.param_groups`` is that list
of dicts, which schedulers and users edit (``group["lr"] = ...``); ``optimizer.state[p]`` holds
each parameter's buffers (NumPy arrays) and step count.

Updates change each parameter with the in-place ops (``p.sub_(...)``) under ``no_grad``, so
stepping never builds a graph and bumps each parameter's version, as PyTorch's do. Parameters
whose ``.grad`` is None are skipped.
"""

import numpy as np

from ..grad_mode import enable_grad, no_grad
from ..tensor import Tensor


class Optimizer:
    """Holds the parameter groups and per-parameter state; subclasses define ``_update``."""

    def __init__(self, params, defaults):
        self.defaults = dict(defaults)
        self.state = {}
        self.param_groups = []
        params = list(params) if not isinstance(params, Tensor) else [params]
        if not params:
            raise ValueError(
                "the optimizer got an empty parameter list: pass model.parameters() of a model "
                "that has parameters"
            )
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own settings (the others from the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"a parameter group is a dict with a 'params' key, got "
                            f"{type(param_group).__name__}")
        group = dict(param_group)
        params = group.get("params")
        params = [params] if isinstance(params, Tensor) else list(params or ())
        offset = sum(len(g["params"]) for g in self.param_groups)
        for position, p in enumerate(params):
            if not isinstance(p, Tensor) or not p.is_leaf:
                what = type(p).__name__ if not isinstance(p, Tensor) else "a non-leaf Tensor"
                raise TypeError(
                    f"parameter {offset + position} is {what}: optimizers update leaf Tensors "
                    "(created with requires_grad=True), not results of operations"
                )
        taken = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in taken for p in params) or len({id(p) for p in params}) < len(params):
            raise ValueError("some parameters appear more than once (in one group or in two); "
                             "list each parameter in exactly one group")
        group["params"] = params
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        self._check(group)
        self.param_groups.append(group)

    def _check(self, group):
        """Raise ValueError for a setting out of range (each subclass checks its own)."""
        _check(group["lr"] >= 0, f"learning rate must be >= 0, got {group['lr']}")
        if "weight_decay" in group:
            _check(group["weight_decay"] >= 0,
                   f"weight_decay must be >= 0, got {group['weight_decay']}")
        if "eps" in group:
            _check(group["eps"] >= 0, f"eps must be >= 0, got {group['eps']}")
        if "momentum" in group:
            _check(group["momentum"] >= 0, f"momentum must be >= 0, got {group['momentum']}")

    @property
    def params(self):
        """Every parameter, group after group."""
        return [p for group in self.param_groups for p in group["params"]]

    @property
    def lr(self):
        """The first group's learning rate; setting it sets every group's."""
        return self.param_groups[0]["lr"]

    @lr.setter
    def lr(self, value):
        for group in self.param_groups:
            group["lr"] = value

    def zero_grad(self, set_to_none=True):
        """Forget accumulated gradients: every parameter's ``.grad`` becomes None (or zeros)."""
        for p in self.params:
            if set_to_none or p.grad is None:
                p.grad = None
            else:
                p.grad.zero_()

    def step(self, closure=None):
        """Update every parameter that has a gradient; ``closure`` (re-evaluating the model
        and returning the loss) is called first, and its loss returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad.data
                    if group.get("maximize", False):
                        grad = -grad
                    self._update(p, grad, self.state.setdefault(p, {}), group)
        return loss

    def _update(self, p, grad, state, group):
        raise NotImplementedError(f"{type(self).__name__} must define _update")

    # --- state_dict ------------------------------------------------------------------------------
    def state_dict(self):
        """PyTorch's layout: ``{"state": {index: {...}}, "param_groups": [{settings...,
        "params": [indices]}]}``, parameters numbered in group order; buffers are copied into
        Tensors, so the dict keeps this moment's state (``nn.save`` writes it to .npz)."""
        index = {id(p): i for i, p in enumerate(self.params)}
        state = {index[id(p)]: {key: Tensor(value) if isinstance(value, np.ndarray) else value
                                for key, value in values.items()}
                 for p, values in self.state.items() if id(p) in index}
        state = {i: state[i] for i in sorted(state)}
        groups = [{**{k: v for k, v in g.items() if k != "params"},
                   "params": [index[id(p)] for p in g["params"]]} for g in self.param_groups]
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore settings and buffers from ``state_dict()`` (of this optimizer over the same
        parameters, or a PyTorch optimizer's converted to arrays); buffers are copied and cast
        to each parameter's dtype."""
        groups = state_dict["param_groups"]
        sizes = [len(g["params"]) for g in self.param_groups]
        saved = [len(g["params"]) for g in groups]
        if sizes != saved:
            raise ValueError(f"load_state_dict: the saved optimizer has parameter groups of sizes "
                             f"{saved}, this one {sizes}; build it over the same parameters in "
                             "the same order")
        params = self.params
        self.state = {}
        for key, values in state_dict["state"].items():
            p = params[int(key)]
            self.state[p] = {name: _restored(name, value, p) for name, value in values.items()}
        for group, saved_group in zip(self.param_groups, groups, strict=True):
            group.update({k: v for k, v in saved_group.items() if k != "params"})

    def __repr__(self):
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            lines += [f"    {k}: {v}" for k, v in sorted(group.items()) if k != "params"]
        return "\n".join(lines + [")"])


def _restored(name, value, p):
    """A saved buffer as a fresh array in the parameter's dtype; a step count as a number."""
    if hasattr(value, "detach") and not isinstance(value, Tensor):  # a PyTorch tensor
        value = value.detach().cpu().numpy()
    array = np.array(value.data if isinstance(value, Tensor) else value)
    if name == "step":
        return array.item()
    return array.astype(p.dtype)


def _check(condition, message):
    if not condition:
        raise ValueError(message)
