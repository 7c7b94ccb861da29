"""Test cases of PyTorch's rearranging functions (autograd/ops/rearrange.py): index_select,
take_along_dim, narrow, movedim, moveaxis, repeat_interleave, unflatten, hstack, vstack, dstack,
column_stack, diag, diagonal, diag_embed, tensordot, kron, cross and cdist. The references are
NumPy's own functions of the same meaning, or loops."""

import numpy as np

from .core import X, Y

_RNG = np.random.default_rng(11)
V = np.array([0.5, -1.2, 2.0])
W = np.array([1.5, 0.7, -0.9])
S = _RNG.standard_normal((2, 3, 4))
SQUARE = _RNG.standard_normal((3, 3))
PICK = np.array([2.0, 0.0, 2.0])  # column 2 picked twice
ALONG = np.array([[1.0, 1.0], [0.0, 2.0]])


def _np_diag_embed(x, offset):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n))
    for k in range(x.shape[-1]):
        out[..., k + max(-offset, 0), k + max(offset, 0)] = x[..., k]
    return out


def _np_cdist(a, b, p):
    return np.array([[(np.abs(r - q) ** p).sum() ** (1 / p) for q in b] for r in a])


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "index_select": ((X, PICK), {"dim": 1}, lambda a, i: a[:, i.astype(int)], (0,)),
    "take_along_dim": ((X, ALONG), {"dim": 1},
                       lambda a, i: np.take_along_axis(a, i.astype(int), axis=1), (0,)),
    "narrow": ((S,), {"dim": 2, "start": 1, "length": 2}, lambda a: a[:, :, 1:3], (0,)),
    "movedim": ((S,), {"source": 0, "destination": -1}, lambda a: np.moveaxis(a, 0, -1), (0,)),
    "moveaxis": ((S,), {"source": (0, 2), "destination": (1, 0)},
                 lambda a: np.moveaxis(a, (0, 2), (1, 0)), (0,)),
    "repeat_interleave": ((X,), {"repeats": (2, 0, 1), "dim": 1},
                          lambda a: np.repeat(a, (2, 0, 1), axis=1), (0,)),
    "unflatten": ((S,), {"dim": 2, "sizes": (2, -1)}, lambda a: a.reshape(2, 3, 2, 2), (0,)),
    "hstack": ((X, Y[:, :2]), {}, lambda a, b: np.hstack((a, b)), (0, 1)),
    "vstack": ((X, V), {}, lambda a, b: np.vstack((a, b)), (0, 1)),
    "dstack": ((X, Y), {}, lambda a, b: np.dstack((a, b)), (0, 1)),
    "column_stack": ((X.T, V), {}, lambda a, b: np.column_stack((a, b)), (0, 1)),
    "diag": ((V,), {"diagonal": -1}, lambda a: np.diag(a, -1), (0,)),
    "diagonal": ((S,), {"offset": 1, "dim1": 1, "dim2": 2},
                 lambda a: np.diagonal(a, 1, 1, 2), (0,)),
    "diag_embed": ((X,), {"offset": 1}, lambda a: _np_diag_embed(a, 1), (0,)),
    "tensordot": ((S, _RNG.standard_normal((3, 4, 2))), {},
                  lambda a, b: np.einsum("ijk,jkl->il", a, b), (0, 1)),
    "kron": ((X, SQUARE[:2, :2]), {}, np.kron, (0, 1)),
    "cross": ((X, Y), {}, lambda a, b: np.cross(a, b), (0, 1)),
    "cdist": ((X, SQUARE), {"p": 3.0}, lambda a, b: _np_cdist(a, b, 3.0), (0, 1)),
}

REARRANGING = """\
A = [[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]]
B = [[0.7, 0.0, -0.6], [1.2, 0.4, 0.9]]
v = [0.5, -1.5, 2.0]
T = randn(2, 3, 4, seed=6)
U = randn(4, 3, seed=7)
pick = const([2.0, 0.0, 2.0])
along = const([[1.0, 1.0], [0.0, 2.0]])
si = index_select(A, pick, dim=1)
sr = index_select(T, pick, dim=1)
ta = take_along_dim(A, along, dim=1)
tf = take_along_dim(A, pick)
na = narrow(T, dim=2, start=1, length=2)
md = movedim(T, source=0, destination=-1)
ma = moveaxis(T, source=(0, 2), destination=(1, 0))
ri = repeat_interleave(A, repeats=(2, 0, 1), dim=1)
rf = repeat_interleave(A, repeats=2)
uf = unflatten(T, dim=2, sizes=(2, -1))
hs = hstack(A, B, A)
hv = hstack(v, v)
vs = vstack(A, v)
ds = dstack(A, B)
cs = column_stack(transpose(A), v)
dg = diag(v, diagonal=1)
dm = diag(A)
dn = diagonal(T, offset=1, dim1=1, dim2=2)
de = diag_embed(A, offset=-1)
de2 = diag_embed(v, dim1=0, dim2=1)
td = tensordot(T, U, dims=1)
td2 = tensordot(A, B)
kr = kron(A, v)
cr = cross(A, B)
cd = cdist(A, B)
cd1 = cdist(T, transpose(U), p=1.0)
L = sum(si * si) + sum(sr * sr) + sum(ta * ta) + sum(tf * tf) + sum(na * na) + sum(md * md) + sum(ma * ma) + sum(ri * ri) + sum(rf * rf) + sum(uf * uf) + sum(hs * hs) + sum(hv * hv) + sum(vs * vs) + sum(ds * ds) + sum(cs * cs) + sum(dg * dg) + sum(dm * dm) + sum(dn * dn) + sum(de * de) + sum(de2 * de2) + sum(td * td) + td2 + sum(kr * kr) + sum(cr * cr) + sum(cd) + sum(cd1)
"""  # noqa: E501

PROGRAMS = {"rearranging": REARRANGING}
