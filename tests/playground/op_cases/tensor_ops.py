"""Test cases of the tensor ops a course needs after micrograd (issue 19): einsum, var, std, prod,
norm, cumsum, flip, roll, repeat, tile, tril, triu, split, chunk, unbind, gather, scatter_add,
masked_fill, outer, dot and bmm."""

import numpy as np

from .core import X, Y

Z = np.array([[0.5, 0.0, 2.0], [0.0, 0.0, -0.4]])  # zeros: one in a column, two in a row
V = np.array([0.5, -1.2, 2.0])
W = np.array([1.5, 0.7, -0.9])
S = np.array([[[0.5, -1.2], [2.0, 0.3]], [[0.8, -0.4], [1.5, 0.7]]])
I_GATHER = np.array([[2.0, 0.0], [1.0, 1.0]])
M = np.array([1.0, 0.0, 1.0])
SQUARE = np.array([[2.0, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.6, 0.1, 1.8]])
NAN = np.array([[0.5, np.nan, 2.0], [np.nan, -1.2, 0.3]])


def _np_gather(a, index, axis):
    return np.take_along_axis(a, index.astype(int), axis=axis)


def _np_scatter_add(a, index, src, axis):
    out = a.copy()
    rows = np.arange(index.shape[0])[:, None]
    np.add.at(out, (rows, index.astype(int)) if axis == 1 else (index.astype(int), rows.T), src)
    return out


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "einsum": ((X, Y), {"equation": "ij,kj->ik"}, lambda a, b: a @ b.T, (0, 1)),
    "bmm": ((S, S), {}, lambda a, b: a @ b, (0, 1)),
    "dot": ((V, W), {}, np.dot, (0, 1)),
    "outer": ((V, W[:2]), {}, np.outer, (0, 1)),
    "var": ((X,), {"axis": 1}, lambda a: a.var(axis=1, ddof=1), (0,)),
    "std": ((X,), {"correction": 0.0, "keepdims": True},
            lambda a: a.std().reshape(1, 1), (0,)),
    "prod": ((Z + X,), {"axis": 0}, lambda a: a.prod(axis=0), (0,)),
    "norm": ((X,), {"p": 3.0, "axis": 1}, lambda a: (np.abs(a) ** 3).sum(axis=1) ** (1 / 3),
             (0,)),
    "cumsum": ((X,), {"axis": 1}, lambda a: np.cumsum(a, axis=1), (0,)),
    "flip": ((X,), {"dims": (1,)}, lambda a: a[:, ::-1], (0,)),
    "roll": ((X,), {"shifts": (1,), "dims": 1}, lambda a: np.roll(a, 1, axis=1), (0,)),
    "repeat": ((X,), {"sizes": (2, 1, 2)}, lambda a: np.tile(a, (2, 1, 2)), (0,)),
    "tile": ((X,), {"dims": (2,)}, lambda a: np.tile(a, 2), (0,)),
    "tril": ((S,), {}, np.tril, (0,)),
    "triu": ((X,), {"diagonal": 1}, lambda a: np.triu(a, 1), (0,)),
    "split": ((X,), {"split_size_or_sections": 2, "axis": 1, "part": 1},
              lambda a: a[:, 2:], (0,)),
    "chunk": ((X,), {"chunks": 2, "axis": 1, "part": 0}, lambda a: a[:, :2], (0,)),
    "unbind": ((X,), {"axis": 1, "part": 2}, lambda a: a[:, 2], (0,)),
    "gather": ((X, I_GATHER), {"axis": 1}, lambda a, i: _np_gather(a, i, 1), (0,)),
    "scatter_add": ((X, I_GATHER, Y[:, :2]), {"axis": 1},
                    lambda a, i, s: _np_scatter_add(a, i, s, 1), (0, 2)),
    "masked_fill": ((X, M), {"value": -1.5}, lambda a, m: np.where(m == 1, -1.5, a), (0,)),
    "mm": ((X, Y.T), {}, np.matmul, (0, 1)),
    "mv": ((X, V), {}, np.matmul, (0, 1)),
    "addmm": ((V[:2], X, Y.T), {"beta": 0.5, "alpha": 2.0},
              lambda c, a, b: 0.5 * c + 2.0 * a @ b, (0, 1, 2)),
    "baddbmm": ((S, S, S), {"alpha": -1.0}, lambda c, a, b: c - a @ b, (0, 1, 2)),
    "inv": ((SQUARE,), {}, np.linalg.inv, (0,)),
    "det": ((S,), {}, np.linalg.det, (0,)),
    "slogdet": ((-SQUARE,), {}, lambda a: np.linalg.slogdet(a)[1], (0,)),
    "solve": ((SQUARE, X.T), {}, np.linalg.solve, (0, 1)),
    "svdvals": ((X,), {}, lambda a: np.linalg.svd(a, compute_uv=False), (0,)),
    "cumprod": ((Z + X,), {"axis": 1}, lambda a: np.cumprod(a, axis=1), (0,)),
    "logcumsumexp": ((X,), {"axis": 0}, lambda a: np.logaddexp.accumulate(a, axis=0), (0,)),
    "nansum": ((NAN,), {"axis": 1}, lambda a: np.nansum(a, axis=1), (0,)),
    "nanmean": ((NAN,), {"keepdims": True}, lambda a: np.nanmean(a, keepdims=True), (0,)),
    "quantile": ((X,), {"q": 0.3, "axis": 1}, lambda a: np.quantile(a, 0.3, axis=1), (0,)),
    "diff": ((X,), {"n": 2}, lambda a: np.diff(a, 2), (0,)),
}

TENSOR_OPS = """\
A = [[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]]
B = [[0.7, 0.0, -0.6], [1.2, 0.4, 0.9]]
v = [0.5, -1.5, 2.0]
w = [1.0, 0.25, -0.75]
T = randn(2, 3, 2, seed=5)
E = einsum(A, B, equation='ij,kj->ik')
E2 = einsum(T, equation='bij->j')
E3 = einsum(E, equation='ii')
E4 = einsum(T, A, v, equation='...jk,...j,j')
Tt = einsum(T, equation='bij->bji')
bm = bmm(T, Tt)
do = dot(v, w)
ou = outer(v, w)
va = var(A, axis=1)
vc = var(A, axis=0, correction=0.0, keepdims=True)
sd = std(B)
sd2 = std(B, axis=(0, 1), correction=2.0)
Z = [[0.0, 2.0, 3.0], [0.0, 0.0, 4.0], [1.5, -2.0, 0.5]]
pr = prod(Z, axis=1)
pc = prod(Z, axis=0, keepdims=True)
pa = prod(A)
pt = prod(T, axis=(0, 2))
n2 = norm(A)
n1 = norm(A, p=1.0, axis=1)
ni = norm(B, p='inf', axis=0)
nm = norm(B, p='-inf')
n3 = norm(A, p=3.0, axis=1, keepdims=True)
nh = norm(v, p=0.5)
cs = cumsum(A, axis=1)
fl = flip(A, dims=(0, 1))
fa = flip(T)
ro = roll(A, shifts=(1,), dims=1)
rf = roll(A, shifts=(-2,))
rp = repeat(v, sizes=(2, 2))
ti = tile(A, dims=(2,))
tl = tril(Z, diagonal=-1)
tu = triu(T)
s0 = split(A, split_size_or_sections=2, axis=1, part=1)
s1 = split(A, split_size_or_sections=(1, 2), axis=1, part=1)
ch = chunk(Z, chunks=2, part=1)
ub = unbind(T, axis=2, part=1)
idx = [[2.0, 0.0], [1.0, 1.0]]
ga = gather(A, idx, axis=1)
Bl = chunk(B, chunks=2, axis=1, part=0)
sc = scatter_add(A, idx, Bl, axis=1)
mask = [1.0, 0.0, 0.0]
mf = masked_fill(A, mask, value=-1.5)
L = sum(E * E) + sum(E2 * E2) + E3 + sum(E4) + sum(bm * bm) + do + sum(ou * ou) + sum(va * va) + sum(vc * vc) + sd + sd2 + sum(pr * pr) + sum(pc * pc) + pa + sum(pt) + n2 + sum(n1 * n1) + sum(ni * ni) + nm + sum(n3) + nh + sum(cs * cs) + sum(fl * A) + sum(fa * T) + sum(ro * B) + sum(rf * A) + sum(rp * rp) + sum(ti * ti) + sum(tl * tl) + sum(tu * tu) + sum(s0 * s0) + sum(s1 * s1) + sum(ch * ch) + sum(ub * ub) + sum(ga * ga) + sum(sc * sc) + sum(mf * mf)
"""  # noqa: E501

RUNNING_AND_NAN = """\
A = [[1.0, -2.0, 0.5, 3.0], [0.3, 0.8, -1.1, 0.6]]
Z = [[0.0, 2.0, 3.0, 1.5], [1.5, 0.0, 0.0, 4.0]]
cp = cumprod(A, axis=1)
cz = cumprod(Z, axis=1)
lc = logcumsumexp(A, axis=0)
ns = nansum(A * 2.0, axis=1)
nm = nanmean(A, axis=(0, 1), keepdims=True)
q1 = quantile(A, q=0.3)
q2 = quantile(A, q=0.75, axis=1, keepdims=True)
d1 = diff(A)
d2 = diff(A, n=2, axis=1)
d3 = diff(A, axis=0)
C = [[0.5, -1.0], [2.0, 0.1]]
B = [[1.0, 0.5], [-0.3, 0.8], [0.6, -1.2], [0.2, 0.4]]
u = [0.5, -1.5, 2.0, 1.0]
T = randn(2, 2, 4, seed=3)
mm1 = mm(A, B)
mv1 = mv(A, u)
am = addmm(C, A, B, beta=0.5, alpha=-2.0)
c = [0.3, -0.2]
ab = addmm(c, A, B)
bb = baddbmm(C, T, transpose(T, axes=(1, 2)), beta=2.0)
Q = [[2.0, 0.5, -0.3, 0.1], [0.4, 1.5, 0.2, 0.0], [-0.6, 0.1, 1.8, 0.3], [0.2, 0.0, 0.4, 1.2]]
iv = inv(Q)
dt = det(Q)
ld = slogdet(Q * -1.0)
so = solve(Q, B)
sv = solve(Q, u)
sd = svdvals(A)
L = sum(sd * sd) + sum(iv * iv) + dt + ld + sum(so * so) + sum(sv * sv) + sum(mm1 * mm1) + sum(mv1 * mv1) + sum(am * am) + sum(ab * ab) + sum(bb * bb) + sum(cp * cp) + sum(cz * cz) + sum(lc * lc) + sum(ns * ns) + sum(nm) + q1 + sum(q2 * q2) + sum(d1 * d1) + sum(d2 * d2) + sum(d3 * d3)
"""  # noqa: E501

PROGRAMS = {"tensor_ops": TENSOR_OPS, "running_nan_and_products": RUNNING_AND_NAN}
