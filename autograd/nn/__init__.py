"""Neural-network building blocks in PyTorch's shape: Module, layers, losses, ``init``,
``utils`` (gradient clipping) and ``functional``; ``save``/``load`` keep state in ``.npz``."""

from . import functional, init, utils
from .attention import MultiheadAttention
from .conv import (
    AdaptiveAvgPool2d,
    AvgPool1d,
    AvgPool2d,
    Conv1d,
    Conv2d,
    ConvTranspose1d,
    ConvTranspose2d,
    MaxPool1d,
    MaxPool2d,
)
from .distance import CosineSimilarity, PairwiseDistance
from .layers import (
    ELU,
    GELU,
    MLP,
    Dropout,
    Embedding,
    Flatten,
    Hardswish,
    Hardtanh,
    Identity,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ModuleDict,
    ModuleList,
    PReLU,
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
from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    GroupNorm,
    InstanceNorm1d,
    InstanceNorm2d,
    LayerNorm,
)
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .serialization import load, save
from .transformer import TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer
from .upsampling import Upsample

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool1d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss",
    "BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d",
    "CosineSimilarity", "CrossEntropyLoss", "Dropout", "ELU", "Embedding", "Flatten", "GELU",
    "GRU", "GRUCell", "GroupNorm", "Hardswish", "Hardtanh", "HuberLoss", "Identity",
    "IncompatibleKeys", "InstanceNorm1d", "InstanceNorm2d", "KLDivLoss", "L1Loss", "LSTM",
    "LSTMCell", "LayerNorm", "LeakyReLU", "Linear", "LogSigmoid", "LogSoftmax", "MLP",
    "MSELoss", "MaxPool1d", "MaxPool2d", "Mish", "Module", "ModuleDict", "ModuleList",
    "MultiMarginLoss", "MultiheadAttention", "NLLLoss", "PReLU", "PairwiseDistance",
    "Parameter", "RNN", "RNNBase", "RNNCell", "RNNCellBase", "ReLU", "ReLU6", "Sequential",
    "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus", "Tanh",
    "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer", "Unflatten",
    "Upsample", "functional", "init", "load", "save", "utils",
]
