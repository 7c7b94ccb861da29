"""Test cases of the activations (playground/registry/activations.py): gradient, second-order
and forward-mode checks from CASES, the PyTorch oracle from PROGRAMS."""

import math

import numpy as np

# Values away from every kink (0, ±1, ±3, 6) so that finite differences see one piece.
X = np.array([[0.5, -1.2, 2.0], [0.3, 0.8, -0.4]])
WIDE = np.array([[-4.5, -2.2, 1.7], [3.6, 7.5, -0.6]])
W = np.array([0.25, -0.1, 0.4])

_erf = np.vectorize(math.erf)


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


def _elu(a, alpha=1.0, scale=1.0, input_scale=1.0):
    return np.where(a > 0, scale * a, scale * alpha * np.expm1(input_scale * np.minimum(a, 0)))


SELU = (1.6732632423543772848170429916717, 1.0507009873554804934193349852946)

CASES = {
    "gelu": ((X,), {}, lambda a: a * 0.5 * (1 + _erf(a / math.sqrt(2))), (0,)),
    "elu": ((X,), {"alpha": 0.7}, lambda a: _elu(a, 0.7), (0,)),
    "celu": ((X,), {"alpha": 2.0}, lambda a: _elu(a, 2.0, 1.0, 0.5), (0,)),
    "selu": ((X,), {}, lambda a: _elu(a, *SELU), (0,)),
    "softplus": ((X,), {"beta": 2.0, "threshold": 3.0},
                 lambda a: np.where(2 * a > 3, a, np.log1p(np.exp(2 * a)) / 2), (0,)),
    "softsign": ((X,), {}, lambda a: a / (1 + np.abs(a)), (0,)),
    "hardtanh": ((X,), {"min_val": -1.0, "max_val": 1.5}, lambda a: np.clip(a, -1, 1.5), (0,)),
    "relu6": ((WIDE,), {}, lambda a: np.clip(a, 0, 6), (0,)),
    "silu": ((X,), {}, lambda a: a * _sigmoid(a), (0,)),
    "mish": ((X,), {}, lambda a: a * np.tanh(np.log1p(np.exp(a))), (0,)),
    "hardsigmoid": ((WIDE,), {}, lambda a: np.clip(a + 3, 0, 6) / 6, (0,)),
    "hardswish": ((WIDE,), {}, lambda a: a * np.clip(a + 3, 0, 6) / 6, (0,)),
    "prelu": ((X, W), {}, lambda a, w: np.where(a > 0, a, w * a), (0, 1)),
    "logsigmoid": ((X,), {}, lambda a: -np.log1p(np.exp(-a)), (0,)),
}

ACTIVATIONS = """\
x = [[0.5, -1.2, 2.0], [0.3, 0.8, -0.4]]
z = [[-4.5, -2.2, 1.7], [3.6, 7.5, -0.6]]
w = [0.25, -0.1, 0.4]
v = [0.3]
g = gelu(x)
gt = gelu(z, approximate="tanh")
e = elu(x, alpha=0.7)
ce = celu(z, alpha=2.0)
se = selu(z)
sp = softplus(x, beta=2.0, threshold=3.0)
sp1 = softplus(z)
ss = softsign(z)
ls = logsigmoid(z)
ht = hardtanh(z, min_val=-2.0, max_val=3.0)
r6 = relu6(z)
si = silu(z)
mi = mish(z)
hs = hardsigmoid(z)
hw = hardswish(z)
pc = prelu(x, w)
p1 = prelu(z, v)
L = sum(g + gt + e + ce + se + sp + sp1 + ss + ls + ht + r6 + si + mi + hs + hw + pc + p1 * p1)
"""

PROGRAMS = {"activations": ACTIVATIONS}
