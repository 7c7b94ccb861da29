"""Neural-network building blocks in PyTorch's shape: Module, layers, losses, ``init``,
``utils`` (gradient clipping) and ``functional``; ``save``/``load`` keep state in ``.npz``."""

from . import functional, init, utils
from .attention import MultiheadAttention
from .conv import AdaptiveAvgPool2d, AvgPool2d, Conv1d, Conv2d, MaxPool2d
from .layers import (
    ELU,
    GELU,
    MLP,
    Dropout,
    Embedding,
    Flatten,
    Hardtanh,
    Identity,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ModuleDict,
    ModuleList,
    ReLU,
    ReLU6,
    Sequential,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
    Unflatten,
)
from .loss_modules import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    MultiMarginLoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import IncompatibleKeys, Module, Parameter
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .serialization import load, save

__all__ = [
    "ELU", "GELU", "MLP", "AdaptiveAvgPool2d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss",
    "BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout",
    "Embedding", "Flatten", "GRU", "GRUCell", "Hardtanh", "HuberLoss", "Identity",
    "IncompatibleKeys", "KLDivLoss", "L1Loss", "LSTM", "LSTMCell", "LayerNorm", "LeakyReLU",
    "Linear", "LogSigmoid", "LogSoftmax", "MSELoss", "MaxPool2d", "Mish", "Module",
    "ModuleDict", "ModuleList", "MultiMarginLoss", "MultiheadAttention", "NLLLoss",
    "Parameter", "RNN", "RNNBase", "RNNCell", "RNNCellBase", "ReLU", "ReLU6", "Sequential",
    "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "Unflatten",
    "functional", "init", "load", "save", "utils",
]
