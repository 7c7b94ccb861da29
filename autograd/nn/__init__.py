"""Neural-network building blocks in PyTorch's shape: Module, layers and losses."""

from . import functional
from .layers import MLP, Linear, ReLU, Sequential, Sigmoid, Tanh
from .module import Module

__all__ = ["MLP", "Linear", "Module", "ReLU", "Sequential", "Sigmoid", "Tanh", "functional"]
