"""Test cases of the newer ``torch.nn.functional`` functions in the registry: glu, softmin,
tanhshrink, softshrink, hardshrink, threshold, cosine_similarity, pairwise_distance and the
margin, embedding and likelihood losses. The references are NumPy readings of PyTorch's
definitions."""

import numpy as np

from .core import T, X, Y

# X keeps away from the kinks at ±0.6 (lambd) and 0.4 (threshold).
_RNG = np.random.default_rng(23)
ROWS = _RNG.standard_normal((4, 3))
SIGNS = np.array([[1.0, -1.0, -1.0], [1.0, 1.0, -1.0]])  # targets of ±1
COUNTS = np.array([[0.0, 1.0, 3.0], [2.0, 0.0, 1.0]])
VARIANCES = np.array([[0.5], [1.5]])  # one per row


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


def _softmax(z, axis):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _np_cosine(a, b, axis, eps):
    lengths = [np.maximum(np.linalg.norm(v, axis=axis), eps) for v in (a, b)]
    return (a * b).sum(axis=axis) / (lengths[0] * lengths[1])


def _distance(a, b):
    return np.sqrt(((a - b + 1e-6) ** 2).sum(axis=-1))


def _np_triplet(a, p, n):
    return np.maximum(_distance(a, p) - _distance(a, n) + 1.0, 0).mean()


def _np_cosine_embedding(a, b, t):
    cos = (a * b).sum(-1) / np.sqrt(((a * a).sum(-1) + 1e-12) * ((b * b).sum(-1) + 1e-12))
    return np.where(t == 1, 1 - cos, np.maximum(cos - 0.1, 0)).sum()


def _log_sigmoid(a):
    return -np.log1p(np.exp(-a))


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
    "margin_ranking_loss": ((X, Y, SIGNS), {"margin": 0.5},
                            lambda a, b, t: np.maximum(-t * (a - b) + 0.5, 0).mean(), (0, 1)),
    "hinge_embedding_loss": ((np.abs(X), SIGNS), {"reduction": "none"},
                             lambda x, t: np.where(t == 1, x, np.maximum(1 - x, 0)), (0,)),
    "soft_margin_loss": ((X, SIGNS), {"reduction": "sum"},
                         lambda x, t: np.log1p(np.exp(-t * x)).sum(), (0,)),
    "multilabel_soft_margin_loss": (
        (X, T), {}, lambda x, t: -(t * _log_sigmoid(x) + (1 - t) * _log_sigmoid(-x)).mean(),
        (0,)),
    "cosine_embedding_loss": ((X, Y, SIGNS[:, 1]), {"margin": 0.1, "reduction": "sum"},
                              _np_cosine_embedding, (0, 1)),
    "triplet_margin_loss": ((ROWS, ROWS[::-1] * 0.5, ROWS + 1.0), {}, _np_triplet, (0, 1, 2)),
    "poisson_nll_loss": ((X, COUNTS), {"reduction": "none"},
                         lambda x, t: np.exp(x) - t * x, (0,)),
    "gaussian_nll_loss": ((X, Y, VARIANCES), {},
                          lambda x, t, v: (0.5 * (np.log(v) + (x - t) ** 2 / v)).mean(),
                          (0, 2)),
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
S = const([[1.0, -1.0, -1.0, 1.0], [1.0, 1.0, -1.0, -1.0]])
C = const([[0.0, 1.0, 3.0, 2.0], [2.0, 0.0, 1.0, 5.0]])
mr = margin_ranking_loss(A, B, S, margin=0.5)
mn = margin_ranking_loss(A, B, S, reduction="none")
he = hinge_embedding_loss(abs(A), S, margin=1.5, reduction="sum")
sm2 = soft_margin_loss(A, S)
ml = multilabel_soft_margin_loss(A, const([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]]), reduction="none")
ce = cosine_embedding_loss(A, B, const([1.0, -1.0]), margin=-0.5)
P = randn(3, 4, seed=8)
N = randn(3, 4, seed=9)
Q = randn(3, 4, seed=10)
tm = triplet_margin_loss(P, N, Q, margin=2.0)
ts = triplet_margin_loss(P, N, Q, p=1.0, swap=True, reduction="sum")
pn = poisson_nll_loss(A, C)
pf = poisson_nll_loss(abs(A), C, log_input=False, full=True, reduction="sum")
V = [[0.5], [2.0]]
gn = gaussian_nll_loss(A, B, V)
gf = gaussian_nll_loss(A, B, abs(B), full=True, reduction="none")
L = mr + sum(mn) + he + sm2 + sum(ml) + ce + tm + ts + pn + pf + gn + sum(gf) + sum(gl * gl) + sum(g0 * g0) + sum(sm * B) + sum(sm1 * A) + sum(th * th) + sum(ss * ss) + sum(hs * B) + sum(tr * tr) + sum(cs) + sum(c0 * c0) + sum(pd) + sum(p1)
"""  # noqa: E501

PROGRAMS = {"nn_more": NN_MORE}
