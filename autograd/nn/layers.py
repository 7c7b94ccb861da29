"""Layers: Linear, the activation modules, Sequential and MLP."""

import math

import numpy as np

from .. import creation
from ..ops.linalg import linear
from ..tensor import Tensor
from .module import Module


class Linear(Module):
    """``y = x @ weight.T + bias`` with ``weight`` of shape (out_features, in_features).

    Weights and bias start uniform in ``±1/sqrt(in_features)`` (PyTorch's default), drawn from
    the engine's generator, so ``autograd.manual_seed`` makes a model reproducible.
    """

    def __init__(self, in_features, out_features, bias=True, dtype=np.float64):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bound = 1.0 / math.sqrt(in_features)
        self.weight = _uniform((out_features, in_features), bound, dtype, "weight")
        self.bias = _uniform((out_features,), bound, dtype, "bias") if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)

    def extra_repr(self):
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


def _uniform(shape, bound, dtype, name):
    """A fresh parameter with entries uniform in [-bound, bound)."""
    unit = creation.rand(*shape, dtype=dtype).data
    return Tensor((2 * unit - 1) * bound, requires_grad=True, dtype=dtype, name=name)


class Tanh(Module):
    """Elementwise tanh, squashing values into (-1, 1)."""

    def forward(self, x):
        return x.tanh()


class ReLU(Module):
    """Elementwise max(x, 0)."""

    def forward(self, x):
        return x.relu()


class Sigmoid(Module):
    """Elementwise 1 / (1 + exp(-x)), squashing values into (0, 1)."""

    def forward(self, x):
        return x.sigmoid()


class Sequential(Module):
    """Runs its modules one after another; they are named "0", "1", … as in PyTorch."""

    def __init__(self, *modules):
        super().__init__()
        for position, module in enumerate(modules):
            if not isinstance(module, Module):
                raise TypeError(
                    f"Sequential takes Modules, but argument {position} is a "
                    f"{type(module).__name__}; wrap functions in a Module with a forward method"
                )
            self._modules[str(position)] = module

    def forward(self, x):
        for module in self._modules.values():
            x = module(x)
        return x

    def __len__(self):
        return len(self._modules)

    def __getitem__(self, position):
        picked = list(self._modules.values())[position]
        return Sequential(*picked) if isinstance(position, slice) else picked

    def __iter__(self):
        return iter(self._modules.values())


_ACTIVATIONS = {"tanh": Tanh, "relu": ReLU, "sigmoid": Sigmoid}


class MLP(Sequential):
    """A multi-layer perceptron: ``MLP([2, 16, 16, 1])`` is Linear(2, 16), act, Linear(16, 16),
    act, Linear(16, 1), with no activation after the last layer (add one, or use a loss that
    takes logits)."""

    def __init__(self, sizes, activation="tanh", dtype=np.float64):
        sizes = list(sizes)
        if len(sizes) < 2:
            raise ValueError(
                f"MLP needs at least two sizes (inputs and outputs), got {sizes}; "
                "e.g. MLP([2, 16, 1])"
            )
        if activation not in _ACTIVATIONS:
            raise ValueError(
                f"unknown activation {activation!r}; choose one of {sorted(_ACTIVATIONS)}"
            )
        layers = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
            layers.append(Linear(n_in, n_out, dtype=dtype))
            layers.append(_ACTIVATIONS[activation]())
        super().__init__(*layers[:-1])
        self.sizes = sizes
