"""Every built-in operation: a Function subclass per op and a function that applies it."""

from .arithmetic import Add, Div, Mul, Neg, Pow, PowScalar, Sub, add, div, mul, neg, pow, sub
from .elementwise import (
    Abs, Clip, Cos, Exp, LeakyRelu, Log, Maximum, Minimum, Relu, Sigmoid, Sin, Sqrt, Tanh, Where,
    abs, clip, cos, exp, leaky_relu, log, maximum, minimum, relu, sigmoid, sin, sqrt, tanh, where,
)
from .linalg import MatMul, matmul
from .reduce import (
    LogSoftmax, LogSumExp, Max, Mean, Min, Softmax, Sum,
    log_softmax, logsumexp, max, mean, min, softmax, sum,
)
from .shape import (
    BroadcastTo, Concatenate, Index, IndexAdd, Reshape, Stack, Transpose,
    broadcast_to, concatenate, expand_dims, flatten, index, permute, reshape, squeeze, stack,
    swapaxes, transpose, unsqueeze,
)
from .shape import _shape_arg as shape_arg
