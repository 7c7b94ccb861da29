"""Test cases of the elementwise functions added after the first ones (tan … atan2, lerp, floor,
ceil, trunc, clone): gradient, second-order and forward-mode checks from CASES, the PyTorch
oracle from PROGRAMS."""

import math

import mpmath
import numpy as np

X = np.array([[0.5, -0.6, 0.9], [0.3, 0.8, -0.4]])  # inside (-1, 1) and tan's branch
Y = np.array([[1.5, 0.7, -0.9], [-2.0, 0.6, 1.1]])
P = np.array([[0.2, 0.7, 0.5], [0.1, 0.9, 0.4]])
BIG = np.array([[1.5, 2.7, 1.1], [3.0, 1.2, 4.4]])  # > 1, for acosh
FRACTIONS = np.array([[0.5, -1.2, 2.3], [-0.3, 0.8, -2.6]])  # no whole numbers: no jumps
HALF_FREE = np.array([[0.3, -1.2, 2.7], [-0.4, 0.8, -2.6]])  # no halves: round has no jumps
DIVISOR = np.array([-2.0, 0.7, 1.1])  # (FRACTIONS * 3) / DIVISOR has no whole numbers: no jumps

CASES = {
    "tan": ((X,), {}, np.tan, (0,)),
    "sinh": ((Y,), {}, np.sinh, (0,)),
    "cosh": ((Y,), {}, np.cosh, (0,)),
    "asinh": ((Y,), {}, np.arcsinh, (0,)),
    "acosh": ((BIG,), {}, np.arccosh, (0,)),
    "atanh": ((X,), {}, np.arctanh, (0,)),
    "erf": ((Y,), {}, np.vectorize(math.erf), (0,)),
    "log2": ((P,), {}, np.log2, (0,)),
    "log10": ((P,), {}, np.log10, (0,)),
    "exp2": ((Y,), {}, np.exp2, (0,)),
    "log1p": ((P,), {}, np.log1p, (0,)),
    "expm1": ((Y,), {}, np.expm1, (0,)),
    "rsqrt": ((P,), {}, lambda a: 1 / np.sqrt(a), (0,)),
    "reciprocal": ((Y,), {}, lambda a: 1 / a, (0,)),
    "lerp": ((X, Y, P[0]), {}, lambda a, b, w: a + w * (b - a), (0, 1, 2)),
    "atan2": ((X, Y[0]), {}, np.arctan2, (0, 1)),
    "floor": ((FRACTIONS,), {}, np.floor, (0,)),
    "ceil": ((FRACTIONS,), {}, np.ceil, (0,)),
    "trunc": ((FRACTIONS,), {}, np.trunc, (0,)),
    "round": ((HALF_FREE,), {}, np.round, (0,)),
    "clone": ((X,), {}, np.copy, (0,)),
    "asin": ((X,), {}, np.arcsin, (0,)),
    "acos": ((X,), {}, np.arccos, (0,)),
    "atan": ((Y,), {}, np.arctan, (0,)),
    "logit": ((P,), {}, lambda a: np.log(a / (1 - a)), (0,)),
    "hypot": ((X, Y[0]), {}, np.hypot, (0, 1)),
    "logaddexp": ((X, Y[0]), {}, np.logaddexp, (0, 1)),
    "logaddexp2": ((X, Y[0]), {}, np.logaddexp2, (0, 1)),
    "xlogy": ((X, P[0]), {}, lambda a, b: a * np.log(b), (0, 1)),
    "erfinv": ((X,), {}, np.vectorize(lambda v: float(mpmath.erfinv(v))), (0,)),
    "lgamma": ((BIG,), {}, np.vectorize(math.lgamma), (0,)),
    "digamma": ((BIG,), {}, np.vectorize(lambda v: float(mpmath.digamma(v))), (0,)),
    "fmod": ((FRACTIONS * 3, DIVISOR), {}, np.fmod, (0, 1)),
    "remainder": ((FRACTIONS * 3, DIVISOR), {}, np.remainder, (0, 1)),
}

MATH = """\
x = [0.5, -0.7, 0.2]
y = [1.5, 0.7, -0.9]
p = [0.2, 0.7, 2.5]
b = [1.5, 2.7, 1.1]
w = 0.3
t = tan(x)
sh = sinh(y)
ch = cosh(y)
ash = asinh(y)
ach = acosh(b)
ath = atanh(x)
er = erf(y)
l2 = log2(p)
l10 = log10(p)
e2 = exp2(y)
l1 = log1p(p)
em = expm1(y)
rs = rsqrt(p)
rc = reciprocal(y)
le = lerp(x, y, w)
lt = lerp(x, y, p)
at = atan2(x, y)
fl = floor(y * 2.0) * x
ce = ceil(y) * x
tr = trunc(y * 3.0) * x
ro = round(y * 3.0) * x
cl = clone(x)
L = sum(t + sh + ch + ash + ach + ath + er + l2 + l10 + e2 + l1 + em + rs + rc + le + lt + at + fl + ce + tr + ro + cl * cl)
"""  # noqa: E501

INVERSE_AND_GAMMA = """\
x = [0.5, -0.7, 0.2]
y = [1.5, 0.7, -0.9]
p = [0.2, 0.7, 2.5]
si = asin(x)
ac = acos(x)
an = atan(y)
hy = hypot(x, y)
la = logaddexp(x, y)
l2 = logaddexp2(x, y)
xl = xlogy(y, p)
ei = erfinv(x)
lg = lgamma(p)
dg = digamma(p + 6.0)  # PyTorch's trigamma (the gradient) is good to 1e-10 below 6
fm = fmod(y * 3.0, 0.8)
rm = remainder(y * 3.0, p)
L = sum(si + ac + an + hy + la + l2 + xl + ei + lg + dg + fm + rm + logit(p * 0.3))
"""

PROGRAMS = {"math_functions": MATH, "inverse_and_gamma": INVERSE_AND_GAMMA}

