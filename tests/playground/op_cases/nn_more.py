"""Test cases of the newer ``torch.nn.functional`` functions in the registry: glu, softmin,
tanhshrink, softshrink, hardshrink, threshold, cosine_similarity and pairwise_distance. The
references are NumPy readings of PyTorch's definitions."""

import numpy as np

from .core import X, Y

# X keeps away from the kinks at ±0.6 (lambd) and 0.4 (threshold).
_RNG = np.random.default_rng(23)
ROWS = _RNG.standard_normal((4, 3))


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


def _softmax(z, axis):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _np_cosine(a, b, axis, eps):
    lengths = [np.maximum(np.linalg.norm(v, axis=axis), eps) for v in (a, b)]
    return (a * b).sum(axis=axis) / (lengths[0] * lengths[1])


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "glu": ((ROWS,), {"dim": 0}, lambda a: a[:2] * _sigmoid(a[2:]), (0,)),
    "softmin": ((X,), {"dim": 0}, lambda a: _softmax(-a, 0), (0,)),
    "tanhshrink": ((X,), {}, lambda a: a - np.tanh(a), (0,)),
    "softshrink": ((X,), {"lambd": 0.6},
                   lambda a: np.where(np.abs(a) > 0.6, a - 0.6 * np.sign(a), 0.0), (0,)),
    "hardshrink": ((X,), {"lambd": 0.6}, lambda a: np.where(np.abs(a) > 0.6, a, 0.0), (0,)),
    "threshold": ((X,), {"threshold": 0.4, "value": -2.0},
                  lambda a: np.where(a > 0.4, a, -2.0), (0,)),
    "cosine_similarity": ((X, Y), {"dim": 0}, lambda a, b: _np_cosine(a, b, 0, 1e-8), (0, 1)),
    "pairwise_distance": ((X, Y), {"p": 3.0, "keepdim": True},
                          lambda a, b: (np.abs(a - b + 1e-6) ** 3).sum(
                              axis=-1, keepdims=True) ** (1 / 3), (0, 1)),
}

NN_MORE = """\
A = [[1.0, -2.0, 0.5, 0.7], [0.3, 0.8, -1.1, -0.2]]
B = [[0.7, 0.1, -0.6, 1.5], [1.2, 0.4, 0.9, -0.8]]
gl = glu(A)
g0 = glu(A, dim=0)
sm = softmin(A, dim=0)
sm1 = softmin(B)
th = tanhshrink(A)
ss = softshrink(B, lambd=0.3)
hs = hardshrink(A)
tr = threshold(B, threshold=0.5, value=-1.0)
cs = cosine_similarity(A, B)
c0 = cosine_similarity(A, B, dim=0, eps=0.01)
pd = pairwise_distance(A, B)
p1 = pairwise_distance(A, B, p=1.0, eps=0.0, keepdim=True)
L = sum(gl * gl) + sum(g0 * g0) + sum(sm * B) + sum(sm1 * A) + sum(th * th) + sum(ss * ss) + sum(hs * B) + sum(tr * tr) + sum(cs) + sum(c0 * c0) + sum(pd) + sum(p1)
"""  # noqa: E501

PROGRAMS = {"nn_more": NN_MORE}
