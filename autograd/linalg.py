"""``autograd.linalg``: PyTorch's ``torch.linalg`` functions with its names, signatures and
gradients (the Functions are in ``ops/decomp.py``; norms are built from ``norm`` and max/min)."""

from collections import namedtuple

import numpy as np

from .ops import amax, amin
from .ops import norm as _norm
from .ops.decomp import (
    Cholesky,
    Det,
    EighValues,
    EighVectors,
    Inv,
    LogAbsDet,
    QrQ,
    QrR,
    Solve,
    SvdS,
    SvdU,
    SvdVh,
)
from .tensor import Tensor

Slogdet = namedtuple("Slogdet", ["sign", "logabsdet"])
"""What ``slogdet`` returns: ``sign, logabsdet = linalg.slogdet(A)``."""
Eigh = namedtuple("Eigh", ["eigenvalues", "eigenvectors"])
"""What ``eigh`` returns: ``L, Q = linalg.eigh(A)``."""
Qr = namedtuple("Qr", ["Q", "R"])
"""What ``qr`` returns: ``Q, R = linalg.qr(A)``."""
Svd = namedtuple("Svd", ["U", "S", "Vh"])
"""What ``svd`` returns: ``U, S, Vh = linalg.svd(A)``."""


def _tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x)


def inv(A):  # noqa: N803 - PyTorch's argument name
    """A⁻¹ (batches of square matrices too)."""
    return Inv.apply(A)


def det(A):  # noqa: N803
    """The determinant (one per matrix of a batch)."""
    return Det.apply(A)


def slogdet(A):  # noqa: N803
    """(sign, log |det A|): the sign a constant, the log differentiable (gradient A⁻ᵀ)."""
    A = _tensor(A)
    sign = Tensor._make(np.asarray(np.linalg.slogdet(A.data)[0]), False, None)
    return Slogdet(sign, LogAbsDet.apply(A))


def solve(A, B):  # noqa: N803
    """X with A X = B; a 1-d B is one vector (PyTorch's rule for a matrix A)."""
    A, B = _tensor(A), _tensor(B)
    if B.ndim == 1:
        return Solve.apply(A, B.reshape(-1, 1)).reshape(-1)
    return Solve.apply(A, B)


def cholesky(A):  # noqa: N803
    """The lower-triangular L with L Lᵀ = A, for A symmetric positive definite."""
    return Cholesky.apply(A)


def eigh(A):  # noqa: N803
    """(eigenvalues ascending, eigenvectors as columns) of a symmetric A (its lower triangle)."""
    A = _tensor(A)
    return Eigh(EighValues.apply(A), EighVectors.apply(A))


def eigvalsh(A):  # noqa: N803
    """The eigenvalues of a symmetric A, ascending."""
    return EighValues.apply(A)


def qr(A, mode="reduced"):  # noqa: N803
    """(Q, R) with A = Q R, Q's columns orthonormal and R upper triangular (mode "reduced",
    PyTorch's default, only)."""
    if mode != "reduced":
        raise ValueError(f"linalg.qr: mode {mode!r} is not implemented here; use the default "
                         "'reduced'")
    A = _tensor(A)
    return Qr(QrQ.apply(A), QrR.apply(A))


def svd(A, full_matrices=True):  # noqa: N803
    """(U, S, Vh) with A = U diag(S) Vh, the reduced SVD (PyTorch's full_matrices=True, its
    default, is refused: the extra columns of U or rows of Vh have no gradient)."""
    if full_matrices:
        raise ValueError("linalg.svd: only the reduced SVD is implemented here; call "
                         "svd(A, full_matrices=False) (PyTorch's default is True, whose extra "
                         "columns are not differentiable there either)")
    A = _tensor(A)
    return Svd(SvdU.apply(A), SvdS.apply(A), SvdVh.apply(A))


def svdvals(A):  # noqa: N803
    """The singular values of A, descending (gradient U diag(S̄) Vh, defined everywhere)."""
    return SvdS.apply(A)


def vector_norm(x, ord=2, dim=None, keepdim=False):  # noqa: A002 - PyTorch's names
    """The ord-norm of x as one vector (of all elements, or along ``dim``)."""
    x = _tensor(x)
    if dim is None:
        out = _norm(x.reshape(-1), ord, 0, False)
        return out.reshape((1,) * x.ndim) if keepdim else out
    return _norm(x, ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False):  # noqa: N803, A002
    """The ord-norm of matrices over the two axes ``dim``: "fro"; "nuc" (the sum of the
    singular values), 2 or -2 (the largest or smallest); 1, -1, inf, -inf (the largest or
    smallest column or row sum of |A|)."""
    A = _tensor(A)
    rows, columns = dim
    if ord == "fro":
        return _norm(A, "fro", dim, keepdim)
    if ord in (2, -2, "nuc"):
        axes = [d % A.ndim for d in dim]
        last = A.permute(*[i for i in range(A.ndim) if i not in axes], *axes)
        values = svdvals(last)
        out = values.sum(-1) if ord == "nuc" else (amax if ord == 2 else amin)(values, -1)
        if keepdim:
            out = out.reshape(*[1 if i in axes else n for i, n in enumerate(A.shape)])
        return out
    if ord in (1, -1, np.inf, -np.inf):
        summed, over = (rows, columns) if ord in (1, -1) else (columns, rows)
        sums = A.abs().sum(summed, keepdims=True)
        pick = amax if ord > 0 else amin
        out = pick(sums, over, keepdim=True)
        return out if keepdim else out.squeeze(tuple(sorted((rows % A.ndim, columns % A.ndim))))
    raise ValueError(f"linalg.matrix_norm: ord {ord!r} is not a matrix norm; use 'fro', "
                     "'nuc', 2, -2, 1, -1, inf or -inf")


def norm(A, ord=None, dim=None, keepdim=False):  # noqa: N803, A002
    """PyTorch's linalg.norm: with ord None the 2-norm of all elements (or along ``dim``); with
    an ord, a vector norm for one dim or a 1-d input, a matrix norm for two dims or a 2-d one."""
    A = _tensor(A)
    if ord is None:
        return vector_norm(A, 2, dim, keepdim)
    if isinstance(dim, int) or (dim is None and A.ndim == 1):
        return vector_norm(A, ord, dim, keepdim)
    return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim)
