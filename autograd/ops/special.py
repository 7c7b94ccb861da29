"""Special functions of PyTorch (``torch.lgamma``, ``digamma``, ``polygamma``, ``erfinv``), with
NumPy only: NumPy has none of them and the engine imports no SciPy.

The gamma family is worked out in ``np.longdouble`` (64 significant bits on x86-64, against
double's 53), so the cancellation in a recurrence or a reflection costs digits the float64
result never had; where longdouble is double (some ARM builds) the results keep about 14 digits.
"""

import math

import numpy as np

from . import array_or_tensor
from .array_or_tensor import Op
from .elementwise import call, erf_array, erfc_array, unary
from .exposed import exposed

_LONG = np.longdouble
_PI = _LONG("3.14159265358979323846264338327950288")
_SHIFT = 20
"""The recurrence moves x up to at least this before the asymptotic series (error < 1e-24)."""
_BERNOULLI = [_LONG(n) / _LONG(d) for n, d in (
    (1, 6), (-1, 30), (1, 42), (-1, 30), (5, 66), (-691, 2730), (7, 6), (-3617, 510),
    (43867, 798), (-174611, 330))]
"""B_2, B_4, …, B_20."""


def _float_dtype(a):
    return a.dtype if a.dtype.kind == "f" else np.dtype(np.float64)


def _cot_derivative(n):
    """Coefficients (highest power first) of P_n with dⁿ/dxⁿ cot(x) = P_n(cot x):
    P_0(c) = c and P_{n+1}(c) = −(1 + c²) P_n′(c)."""
    poly = np.poly1d([1.0, 0.0])
    for _ in range(n):
        poly = -np.poly1d([1.0, 0.0, 1.0]) * poly.deriv()
    return [_LONG(c) for c in poly.coeffs]


def _recurrence(x, term):
    """x moved up by whole steps until it is at least ``_SHIFT``, and the sum of ``term`` over
    the values it passed: what a recurrence such as Γ(x + 1) = x Γ(x) takes off."""
    x = x.copy()
    total = np.zeros_like(x)
    for _ in range(_SHIFT):
        small = x < _SHIFT
        if not small.any():
            break
        total[small] += term(x[small])
        x[small] += 1
    return x, total


def _polygamma_positive(n, x):
    """ψ⁽ⁿ⁾(x) for x > 0 (longdouble): the recurrence ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x + 1) − (−1)ⁿ n!/x^(n+1)
    up to x ≥ 20, then the asymptotic series in 1/x with Bernoulli numbers."""
    x, shifted = _recurrence(x, (lambda v: 1 / v) if n == 0 else (lambda v: v ** -(n + 1)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse_square = 1 / (x * x)
        if n == 0:
            series = np.log(x) - 1 / (2 * x)
            power = np.ones_like(x)
            for k, b in enumerate(_BERNOULLI, start=1):
                power = power * inverse_square
                series -= b / (2 * k) * power
            return series - shifted
        factorial = _LONG(math.factorial(n - 1))
        series = factorial / x ** n + factorial * n / (2 * x ** (n + 1))
        power = x ** -n
        for k, b in enumerate(_BERNOULLI, start=1):
            power = power * inverse_square  # x^-(2k + n)
            series += b * _LONG(math.factorial(2 * k + n - 1)) / math.factorial(2 * k) * power
        sign = -1 if n % 2 == 0 else 1  # (−1)^(n+1)
        return sign * series - (-1) ** n * math.factorial(n) * shifted


def polygamma_array(n, a):
    """ψ⁽ⁿ⁾(a) elementwise in a's floating dtype: ψ = digamma for n = 0. Below 0 by reflection,
    ψ⁽ⁿ⁾(x) = (−1)ⁿ ψ⁽ⁿ⁾(1 − x) − π^(n+1) P_n(cot πx), with πx reduced by whole periods first
    (exactly). PyTorch's values at the poles: digamma(±0) = ∓inf and NaN at the negative whole
    numbers; for n ≥ 1 there (−1)^(n+1)·inf, the value of PyTorch's ζ formula."""
    x = np.asarray(a, dtype=_LONG)
    out = np.full(x.shape, np.nan, dtype=_LONG)
    positive = x > 0
    out[positive] = _polygamma_positive(n, x[positive])
    negative = x < 0
    if negative.any():
        z = x[negative]
        whole = np.round(z)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            cot = 1 / np.tan(_PI * (z - whole))
            reflected = _polygamma_positive(n, 1 - z)
            value = (-1) ** n * reflected - _PI ** (n + 1) * _horner(_cot_derivative(n), cot)
        value[z == whole] = np.nan if n == 0 else (-1) ** (n + 1) * np.inf
        out[negative] = value
    zero = x == 0
    if zero.any():
        out[zero] = (-np.copysign(np.inf, np.asarray(a)[zero]) if n == 0
                     else (-1) ** (n + 1) * np.inf)
    out[np.isinf(x) & positive] = np.inf if n == 0 else 0.0
    with np.errstate(over="ignore"):
        return out.astype(_float_dtype(np.asarray(a)))


def _horner(coefficients, x):
    """The polynomial at x, highest power first (np.polyval starts from 0·x: NaN at x = inf)."""
    value = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        value = value * x + c
    return value


_HALF_LOG_TWO_PI = _LONG("0.918938533204672741780329736405617640")


def _lgamma_positive(x):
    """log Γ(x) for x > 0 (longdouble): log Γ(x) = log Γ(x + k) − Σ log(x + j) up to
    x + k ≥ 20, then Stirling's series with Bernoulli numbers."""
    x, logs = _recurrence(x, np.log)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse = 1 / x
        inverse_square = inverse * inverse
        series = np.zeros_like(x)
        for k, b in enumerate(_BERNOULLI, start=1):
            series += b / (2 * k * (2 * k - 1)) * inverse
            inverse = inverse * inverse_square
        return (x - _LONG(0.5)) * np.log(x) - x + _HALF_LOG_TWO_PI + series - logs


def lgamma_array(a):
    """log|Γ(a)| elementwise in a's floating dtype, in longdouble: Stirling's series after a
    recurrence for a > 0, the reflection log(π / |sin πa|) − log Γ(1 − a) below 0 (πa reduced
    by whole periods first, exactly). 0 at 1 and 2 exactly; +inf at the poles (0 and the
    negative whole numbers) and at ±inf, as PyTorch gives. Near the roots 1 and 2 the digits of
    a value close to 0 are lost (1e-7 from a root: about 1e-5 relative)."""
    x = np.asarray(a, dtype=_LONG)
    out = np.full(x.shape, np.nan, dtype=_LONG)
    positive = x > 0
    out[positive] = _lgamma_positive(x[positive])
    negative = x < 0
    if negative.any():
        z = x[negative]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            reduced = np.abs(np.sin(_PI * (z - np.round(z))))
            out[negative] = np.log(_PI / reduced) - _lgamma_positive(1 - z)
    out[(x == 1) | (x == 2)] = 0
    out[(x == 0) | np.isinf(x)] = np.inf
    with np.errstate(over="ignore"):
        return out.astype(_float_dtype(np.asarray(a)))


# Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011): erfinv(x) ≈ x·p(w), with
# w = −log(1 − x²), relative error about 4e-7: the starting point of the Halley steps below.
_GILES_CENTRE = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                 -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
               -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
_SQRT_PI_OVER_TWO = math.sqrt(math.pi) / 2


def erfinv_array(a):
    """The inverse error function elementwise, in a's floating dtype: Giles's approximation,
    then three Halley steps on erf(y) = |x| (for |x| > ½ on its complement, erfc(y) = 1 − |x|,
    which is exact there, so the tails keep their digits). ±1 gives ±inf, beyond them NaN."""
    x = np.asarray(a, dtype=np.float64)
    size = np.abs(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = -np.log((1 - size) * (1 + size))
        centre = np.polyval(_GILES_CENTRE, w - 2.5)
        tail = np.polyval(_GILES_TAIL, np.sqrt(w) - 3)
    y = np.array(size * np.where(w < 5, centre, tail))  # an array even for a 0-d input
    inside = (size < 1) & (size > 1e-150)
    near_one = size > 0.5
    for _ in range(3):
        yi = y[inside]
        residual = np.where(near_one[inside], (1 - size[inside]) - erfc_array(yi),
                            erf_array(yi) - size[inside])
        slope = 2 / math.sqrt(math.pi) * np.exp(-yi * yi)
        y[inside] = yi - residual / (slope + yi * residual)
    tiny = size <= 1e-150
    y[tiny] = size[tiny] * _SQRT_PI_OVER_TWO  # erfinv(x) = x·√π/2 (1 + O(x²))
    y[size == 1] = np.inf
    y[size > 1] = np.nan
    return np.copysign(y, x).astype(_float_dtype(np.asarray(a)), copy=False)


Lgamma = unary("lgamma", lgamma_array, backward=lambda grad, a: grad * call(Digamma, a),
               doc="log|Γ(a)|, with derivative digamma(a).")


Digamma = unary("digamma", lambda a: polygamma_array(0, a),
                backward=lambda grad, a: grad * call(Polygamma, a, n=1),
                doc="ψ(a) = d/da log Γ(a), with derivative ψ⁽¹⁾(a) (trigamma).")


class Polygamma(Op):
    """ψ⁽ⁿ⁾(a), the n-th derivative of digamma, with derivative ψ⁽ⁿ⁺¹⁾(a)."""

    __slots__ = ("n",)

    def forward(self, a, n):
        self.n = n
        self.save_for_backward(a)
        return polygamma_array(n, a)

    def backward(self, grad):
        (a,) = self.saved_tensors
        return grad * call(Polygamma, a, n=self.n + 1)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


@exposed("polygamma", method=False)
def polygamma(n, x):
    """ψ⁽ⁿ⁾(x), PyTorch's ``torch.polygamma(n, x)``: digamma for n = 0, its n-th derivative
    for n ≥ 1."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"polygamma(n, x) takes a whole number n ≥ 0 first, got {n!r}: e.g. "
                         "polygamma(1, x) for trigamma")
    return Digamma.apply(x) if n == 0 else Polygamma.apply(x, n=int(n))


Erfinv = unary(
    "erfinv", erfinv_array, saves="output",
    backward=lambda grad, out: grad * _SQRT_PI_OVER_TWO * array_or_tensor.exp(out * out),
    doc="The inverse of erf on (−1, 1), with derivative √π/2 · e^(y²), y = erfinv(a).")
