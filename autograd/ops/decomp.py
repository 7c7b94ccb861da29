"""Matrix functions and decompositions of ``torch.linalg`` (inv, det, slogdet, solve, cholesky,
eigh): one Function per output, each with PyTorch's derivative written with the engine's ops, so
a gradient can be differentiated again. An op with several outputs (slogdet, eigh) records one
node per output; each node's backward is the part of PyTorch's formula that its output's
gradient contributes (the formulas are linear in the outputs' gradients, so the parts add up to
PyTorch's). They are reached as ``autograd.linalg.<name>`` (see ``autograd/linalg.py``)."""

import numpy as np

from ..tensor import Tensor
from .array_or_tensor import Op
from .elementwise import call


def _square(name, a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"linalg.{name}: A must be batches of square matrices, but they are "
                         f"{' by '.join(map(str, a.shape[-2:])) or 'a number'} (shape {a.shape}),"
                         " as PyTorch says; a square matrix has as many rows as columns")


def _mT(x):
    return x.swapaxes(-1, -2)


def _singular(name, error):
    return ValueError(f"linalg.{name}: the matrix is singular (not invertible: {error}), so "
                      "there is no answer; PyTorch refuses it too. Check for a repeated or zero "
                      "row, or use linalg.pinv-like least squares")


class Inv(Op):
    """A⁻¹, with derivative −A⁻ᵀ Ȳ A⁻ᵀ (from the output)."""

    __slots__ = ()

    def forward(self, a):
        _square("inv", a)
        try:
            out = np.linalg.inv(a)
        except np.linalg.LinAlgError as error:
            raise _singular("inv", error) from None
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return -(_mT(out) @ grad @ _mT(out))

    def jvp(self, tangent):
        (out,) = self.saved_tensors
        return -(out @ tangent @ out)


class Det(Op):
    """det A, with derivative its cofactor matrix: det A · A⁻ᵀ, or where A is singular (no
    inverse) through an SVD (``_svd_cofactors``). PyTorch 2.13 gives 0 at an exactly singular
    matrix, which is the cofactor matrix only below rank n − 1."""

    __slots__ = ()

    def forward(self, a):
        _square("det", a)
        out = np.linalg.det(a)
        self.save_for_backward(a, out)
        return out

    def _cofactors(self):
        a, out = self.saved_tensors
        singular = _data(out) == 0
        if not singular.any():
            return out[..., None, None] * _mT(call(Inv, a))
        if singular.ndim == 0:
            return _svd_cofactors(a)
        flat = a.reshape(-1, *a.shape[-2:])
        each = [_svd_cofactors(flat[i]) if zero else _mT(call(Inv, flat[i])) * out.reshape(-1)[i]
                for i, zero in enumerate(singular.reshape(-1))]
        if isinstance(a, Tensor):
            from .shape import stack

            return stack(each).reshape(a.shape)
        return np.stack(each).reshape(a.shape)

    def backward(self, grad):
        return grad[..., None, None] * self._cofactors()

    def jvp(self, tangent):
        return (self._cofactors() * tangent).sum(axis=(-2, -1))


def _svd_cofactors(a):
    """The cofactor matrix of a singular A (det 0, no inverse), through the SVD A = U S Vh:
    det(U Vh) · U diag(∏_{j≠i} s_j) Vh, recorded under create_graph."""
    if isinstance(a, Tensor):
        u, s, vh = SvdU.apply(a), SvdS.apply(a), SvdVh.apply(a)
    else:
        u, s, vh = np.linalg.svd(a)
    sign = np.linalg.det(_data(u) @ _data(vh))  # ±1, constant where A moves a little
    return sign[..., None, None] * ((u * _products_of_others(s)[..., None, :]) @ vh)


def _products_of_others(s):
    """∏_{j≠i} s_j along the last axis, exact with zeros: the running product from the left up
    to i times the one from the right down to i."""
    ones = np.ones((*s.shape[:-1], 1), dtype=_data(s).dtype)
    if isinstance(s, Tensor):
        from .reduce import Cumprod
        from .shape import concatenate

        left = Cumprod.apply(concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
        right = Cumprod.apply(concatenate([ones, s.flip(-1)[..., :-1]], axis=-1), axis=-1)
        return left * right.flip(-1)
    left = np.cumprod(np.concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
    right = np.cumprod(np.concatenate([ones, s[..., ::-1][..., :-1]], axis=-1), axis=-1)
    return left * right[..., ::-1]


def _data(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


class LogAbsDet(Op):
    """log |det A| (slogdet's second output), with derivative A⁻ᵀ."""

    __slots__ = ()

    def forward(self, a):
        _square("slogdet", a)
        self.save_for_backward(a)
        return np.linalg.slogdet(a)[1]

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad[..., None, None] * _mT(call(Inv, a))

    def jvp(self, tangent):
        (a,) = self.saved_tensors
        return np.trace(call(Inv, a) @ tangent, axis1=-2, axis2=-1)


class Solve(Op):
    """X with A X = B (B a matrix or batch of them), with derivatives B̄ = A⁻ᵀ Ȳ and
    Ā = −B̄ Xᵀ."""

    __slots__ = ()

    def forward(self, a, b):
        _square("solve", a)
        if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
            raise ValueError(f"linalg.solve: incompatible shapes of A {a.shape} and B {b.shape}: "
                             "B's rows (its second-to-last size) must match A's size, as in "
                             "PyTorch; a vector b is solve(A, b) with b of shape (n,)")
        try:
            out = np.linalg.solve(a, b)
        except np.linalg.LinAlgError as error:
            raise _singular("solve", error) from None
        self.save_for_backward(a, out)
        return out

    def backward(self, grad):
        a, out = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        grad_b = Solve.apply(_mT(a), grad) if isinstance(grad, Tensor) else np.linalg.solve(
            _mT(a), grad)
        return (-(grad_b @ _mT(out)) if need_a else None, grad_b if need_b else None)

    def jvp(self, tangent_a, tangent_b):
        a, out = self.saved_tensors
        return np.linalg.solve(a, tangent_b - tangent_a @ out)


class Cholesky(Op):
    """L, lower triangular, with L Lᵀ = A (A symmetric positive definite; the lower triangle is
    read). PyTorch's derivative: Φ = tril(Lᵀ L̄) with its diagonal halved,
    Ā = ½(S + Sᵀ) with S = L⁻ᵀ Φ L⁻¹."""

    __slots__ = ()

    def forward(self, a):
        _square("cholesky", a)
        try:
            out = np.linalg.cholesky(a)
        except np.linalg.LinAlgError:
            raise ValueError(
                "linalg.cholesky: the input is not positive-definite (as PyTorch says), so it "
                "has no Cholesky factor; A = M @ M.mT + eps * I is, for a full-rank M") from None
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (low,) = self.saved_tensors
        n = low.shape[-1]
        phi = (_mT(low) @ grad) * (np.tril(np.ones((n, n))) - 0.5 * np.eye(n))
        inverse = call(Inv, low)
        s = _mT(inverse) @ phi @ inverse
        return 0.5 * (s + _mT(s))

    def jvp(self, tangent):
        (low,) = self.saved_tensors
        n = low.shape[-1]
        inverse = np.linalg.inv(low)
        inner = inverse @ tangent @ _mT(inverse)
        return low @ (inner * (np.tril(np.ones((n, n))) - 0.5 * np.eye(n)))


class _Eigh(Op):
    """The eigenvalues (ascending) and eigenvectors of a symmetric matrix (its lower triangle is
    read). PyTorch's derivative: Ā = Q (diag(λ̄) + skew(Qᵀ Q̄) / E) Qᵀ with E_ij = λ_j − λ_i,
    so repeated eigenvalues give inf or NaN, as in PyTorch, where the eigenvectors' gradient is
    not defined; the eigenvalues' part alone is Q diag(λ̄) Qᵀ, defined everywhere."""

    __slots__ = ()

    def forward(self, a):
        _square("eigh", a)
        values, vectors = np.linalg.eigh(a)
        self.save_for_backward(a, values, vectors)
        return values if type(self) is EighValues else vectors

    def _pair(self):
        """(λ, Q) of the saved input: recorded ones under create_graph, so that they carry on."""
        a, values, vectors = self.saved_tensors
        if isinstance(a, Tensor):
            return EighValues.apply(a), EighVectors.apply(a)
        return values, vectors


class EighValues(_Eigh):
    __slots__ = ()

    def backward(self, grad):
        _, vectors = self._pair()
        return (vectors * grad[..., None, :]) @ _mT(vectors)

    def jvp(self, tangent):
        _, _, vectors = self.saved_tensors
        return np.einsum("...ji,...jk,...ki->...i", vectors, tangent, vectors)


class EighVectors(_Eigh):
    __slots__ = ()

    def backward(self, grad):
        values, vectors = self._pair()
        inner = _mT(vectors) @ grad
        gaps = values[..., None, :] - values[..., :, None]  # E_ij = λ_j − λ_i
        n = gaps.shape[-1]
        off = 1 - np.eye(n)
        scaled = 0.5 * (inner - _mT(inner)) * off / (gaps + np.eye(n))
        return vectors @ scaled @ _mT(vectors)

    def jvp(self, tangent):
        _, values, vectors = self.saved_tensors
        n = values.shape[-1]
        gaps = values[..., None, :] - values[..., :, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            inner = (_mT(vectors) @ tangent @ vectors) * (1 - np.eye(n)) / (gaps + np.eye(n))
        return vectors @ inner


class _Svd(Op):
    """The reduced SVD A = U diag(S) Vh (k = min(m, n) singular values, descending), one node per
    factor. PyTorch's derivative, with E_jk = S_k² − S_j² (1 on the diagonal) and
    skew(X) = X − Xᵀ: Ā = U [(skew(Uᵀ Ū) S + S skew(Vh V̄)) / E + diag(S̄)] Vh, plus
    (I − U Uᵀ) Ū S⁻¹ Vh for a tall A and U S⁻¹ V̄ᵀ (I − V Vh) for a wide one (V̄ = Vh̄ᵀ).
    Repeated singular values give U and Vh inf or NaN gradients, as in PyTorch; S's alone,
    U diag(S̄) Vh, is defined everywhere."""

    __slots__ = ()

    def forward(self, a):
        if a.ndim < 2:
            raise ValueError(f"linalg.svd: A must have at least 2 dimensions, got shape {a.shape}")
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        self.save_for_backward(a, u, s, vh)
        return {SvdU: u, SvdS: s, SvdVh: vh}[type(self)]

    def _factors(self):
        """(U, S, Vh) of the saved input: recorded ones under create_graph."""
        a, u, s, vh = self.saved_tensors
        if isinstance(a, Tensor):
            return SvdU.apply(a), SvdS.apply(a), SvdVh.apply(a)
        return u, s, vh

    @staticmethod
    def _gaps(s):
        """E_jk = S_k² − S_j², with 1 on the diagonal (a constant-free divisor)."""
        square = s * s
        n = square.shape[-1]
        return square[..., None, :] - square[..., :, None] + np.eye(n)

    def _jvp_parts(self, tangent):
        """dP = Uᵀ dA V, and the skew parts Ω_U, Ω_V (zero diagonal) of Uᵀ dU and Vᵀ dV."""
        _, u, s, vh = self.saved_tensors
        d_p = _mT(u) @ tangent @ _mT(vh)
        off = 1 - np.eye(s.shape[-1])
        with np.errstate(divide="ignore", invalid="ignore"):
            gaps = self._gaps(s)
            omega_u = (d_p * s[..., None, :] + s[..., :, None] * _mT(d_p)) / gaps * off
            omega_v = (s[..., :, None] * d_p + _mT(d_p) * s[..., None, :]) / gaps * off
        return u, s, vh, d_p, omega_u, omega_v


class SvdS(_Svd):
    __slots__ = ()

    def backward(self, grad):
        u, _, vh = self._factors()
        return (u * grad[..., None, :]) @ vh

    def jvp(self, tangent):
        _, u, _, vh = self.saved_tensors
        return np.einsum("...ji,...jk,...ik->...i", u, tangent, vh)


class SvdU(_Svd):
    __slots__ = ()

    def backward(self, grad):
        u, s, vh = self._factors()
        inner = _mT(u) @ grad
        core = u @ ((inner - _mT(inner)) * s[..., None, :] / self._gaps(s))
        if u.shape[-2] > u.shape[-1]:  # tall: the part of Ū outside U's columns
            scaled = grad / s[..., None, :]
            core = core + scaled - u @ (_mT(u) @ scaled)
        return core @ vh

    def jvp(self, tangent):
        u, s, vh, _, omega_u, _ = self._jvp_parts(tangent)
        out = u @ omega_u
        if u.shape[-2] > u.shape[-1]:
            out = out + (tangent @ _mT(vh) - u @ (_mT(u) @ tangent @ _mT(vh))) / s[..., None, :]
        return out


class SvdVh(_Svd):
    __slots__ = ()

    def backward(self, grad):
        u, s, vh = self._factors()
        inner = vh @ _mT(grad)
        core = (s[..., :, None] * (inner - _mT(inner)) / self._gaps(s)) @ vh
        if vh.shape[-1] > vh.shape[-2]:  # wide: the part of V̄ outside V's columns
            scaled = _mT(grad) / s[..., None, :]
            core = core + _mT(scaled) - (_mT(scaled) @ _mT(vh)) @ vh
        return u @ core

    def jvp(self, tangent):
        u, s, vh, _, _, omega_v = self._jvp_parts(tangent)
        d_v = _mT(vh) @ omega_v
        if vh.shape[-1] > vh.shape[-2]:
            rest = _mT(tangent) @ u
            d_v = d_v + (rest - _mT(vh) @ (vh @ rest)) / s[..., None, :]
        return _mT(d_v)


class _Qr(Op):
    """The reduced QR decomposition A = Q R (Q with orthonormal columns, R upper triangular),
    one node per factor. PyTorch's derivative (see ``_qr_square_or_tall``); a wide A = [X | Y]
    has it for X = Q U with Q̄ + Y V̄ᵀ, beside Q V̄ for Y (R = [U | V]). A singular R (A of
    lower rank) has no such derivative."""

    __slots__ = ()

    def forward(self, a):
        if a.ndim < 2:
            raise ValueError(f"linalg.qr: A must have at least 2 dimensions, got shape {a.shape}")
        q, r = np.linalg.qr(a, mode="reduced")
        self.save_for_backward(a, q, r)
        return q if type(self) is QrQ else r

    def _factors(self):
        a, q, r = self.saved_tensors
        if isinstance(a, Tensor):
            return a, QrQ.apply(a), QrR.apply(a)
        return a, q, r

    def _gradient(self, grad_q, grad_r):
        """Ā from the factors' gradients (either may be None: that factor's gradient is 0)."""
        a, q, r = self._factors()
        m, n = a.shape[-2:]
        if m >= n:
            return _qr_square_or_tall(q, r, grad_q, grad_r)
        square = r[..., :m]
        grad_rest = None if grad_r is None else grad_r[..., m:]
        if grad_rest is not None:
            extra = a[..., m:] @ _mT(grad_rest)
            grad_q = extra if grad_q is None else grad_q + extra
        grad_x = _qr_square_or_tall(q, square, grad_q,
                                    None if grad_r is None else grad_r[..., :m])
        grad_y = (q @ grad_rest) if grad_rest is not None else 0 * a[..., m:]
        return _joined(grad_x, grad_y)

    def _tangents(self, tangent):
        """(dQ, dR) for a tangent dA."""
        a, q, r = self.saved_tensors
        m, n = a.shape[-2:]
        k = min(m, n)
        inverse = np.linalg.inv(r[..., :k])
        c = _mT(q) @ tangent[..., :k] @ inverse
        lower = np.tril(c, -1)
        upper = c - (lower - _mT(lower))
        d_q = tangent[..., :k] @ inverse - q @ upper
        d_r = upper @ r[..., :k]
        if m < n:
            d_r = np.concatenate([d_r, _mT(d_q) @ a[..., m:] + _mT(q) @ tangent[..., m:]], -1)
        return d_q, d_r


def _qr_square_or_tall(q, r, grad_q, grad_r):
    """Ā for A = Q R with m ≥ n (TensorFlow's and PyTorch's formula): with the skew parts
    K = Qᵀ Q̄ − Q̄ᵀ Q + R R̄ᵀ − R̄ Rᵀ, Ā = Q (R̄ + tril(K) R⁻ᵀ) + (Q̄ − Q Qᵀ Q̄) R⁻ᵀ."""
    n = r.shape[-1]
    skew = 0
    if grad_q is not None:
        q_q = _mT(q) @ grad_q
        skew = q_q - _mT(q_q)
    if grad_r is not None:
        r_r = r @ _mT(grad_r)
        skew = skew + (r_r - _mT(r_r))
    inverse_t = _mT(call(Inv, r))
    inside = (skew * np.tril(np.ones((n, n)))) @ inverse_t
    g = q @ (inside if grad_r is None else grad_r + inside)
    if grad_q is not None:
        g = g + (grad_q - q @ q_q) @ inverse_t
    return g


def _joined(left, right):
    """[left | right] along the last axis, for arrays and Tensors."""
    if isinstance(left, Tensor) or isinstance(right, Tensor):
        from .shape import concatenate

        return concatenate([left, right], axis=-1)
    return np.concatenate([left, right], axis=-1)


class QrQ(_Qr):
    __slots__ = ()

    def backward(self, grad):
        return self._gradient(grad, None)

    def jvp(self, tangent):
        return self._tangents(tangent)[0]


class QrR(_Qr):
    __slots__ = ()

    def backward(self, grad):
        return self._gradient(None, grad)

    def jvp(self, tangent):
        return self._tangents(tangent)[1]
