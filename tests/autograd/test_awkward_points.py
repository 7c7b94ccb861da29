"""Every unary elementwise op and activation at its awkward points, against exact values.

The points: large |x| (±20, ±40, ±100, ±1000), 0 and -0.0, subnormals (±1e-310 in float64, ±1e-40
in float32), the kinks and the edges of the domain of each op, ±inf and NaN, in float64 and
float32. At each finite point the value, the first derivative (reverse mode on arrays, reverse mode
under create_graph, and forward mode) and the second derivative are compared with exact values
that mpmath computes at 50 digits (derivatives by differences at 150 digits) from the input as
stored in the dtype. At a kink, where a derivative is a convention, the expected value is
PyTorch's (``KINKS``). At ±inf and NaN the value is compared with mpmath's limit; there, at -0.0
(the sign of a zero or an infinity is a convention) and outside the domain (where the value is NaN
but PyTorch's formulas still give derivatives) everything is compared with PyTorch instead.

Tolerances, relative to the exact value: 4 ulps of the dtype for values and first derivatives, 16
for second derivatives (sums of several rounded products that the backward's graph forms; see
``ULPS``), more where stated in ``LOOSER`` with the reason. A result whose exact value is
subnormal may be off by the smallest normal number (subnormals hold fewer digits, and PyTorch
flushes some to 0). A derivative that PyTorch forms from the op's rounded output (``FROM_OUTPUT``,
e.g. tanh' = 1 − tanh²) is good to an ulp of 1 absolute, not relative, so there the error may
also be a few ulps of 1.

The ops come from ``autograd.ops.PUBLIC`` and ``autograd.nn.functional``: each is in ``CASES`` or
in ``EXCLUDED`` with the reason, so a new op fails ``test_every_op_is_swept_or_excluded``.
"""

import functools
import math
import warnings

import numpy as np
import pytest

import autograd as ag
import autograd.forward_ad as fwAD
from autograd.nn import functional as F

mp = pytest.importorskip("mpmath")
mp.mp.dps = 50

ULPS = {"value": 4, "d1": 4, "d2": 16}
DTYPES = (np.float64, np.float32)
SUBNORMAL = {np.float64: 1e-310, np.float32: 1e-40}
COMMON = [-1000.0, -100.0, -40.0, -20.0, -3.0, -1.0, -0.5, "-sub", 0.0, "sub", 0.5, 1.0, 3.0,
          20.0, 40.0, 100.0, 1000.0]
CONVENTIONS = [-0.0, np.inf, -np.inf, np.nan]


def _sigmoid(x):
    return 1 / (1 + mp.exp(-x))


def _softplus(x, beta=1, threshold=20):
    return x if x * beta > threshold else mp.log1p(mp.exp(beta * x)) / beta


def _elu(x, alpha=1, scale=1, input_scale=1):
    return scale * x if x > 0 else scale * alpha * mp.expm1(input_scale * x)


SELU_ALPHA = mp.mpf("1.6732632423543772848170429916717")
SELU_SCALE = mp.mpf("1.0507009873554804934193349852946")
GELU_BETA = mp.sqrt(2 / mp.pi)


def _round(x, decimals=0):
    scaled = x * mp.mpf(10) ** decimals
    whole = mp.floor(scaled)
    rest = scaled - whole
    if rest > 0.5 or (rest == 0.5 and whole % 2):
        whole += 1
    return whole / mp.mpf(10) ** decimals


def _pole(f, value):
    """f, but ``value`` at 0 and the negative whole numbers (mpmath raises there)."""
    return lambda x: value if x <= 0 and x == mp.floor(x) else f(x)


def _erfinv(x):
    return mp.nan if abs(x) > 1 else mp.erfinv(x)


# name: (the engine's function of a Tensor, the exact function of an mpf, extra points)
CASES = {
    "exp": (ag.exp, mp.exp, []),
    "log": (ag.log, mp.log, []),
    "sqrt": (ag.sqrt, mp.sqrt, []),
    "square": (ag.square, lambda x: x * x, []),
    "abs": (ag.abs, abs, []),
    "sign": (ag.sign, mp.sign, [2.5]),
    "sin": (ag.sin, mp.sin, []),
    "cos": (ag.cos, mp.cos, []),
    "tan": (ag.tan, mp.tan, []),
    "tanh": (ag.tanh, mp.tanh, []),
    "sinh": (ag.sinh, mp.sinh, []),
    "cosh": (ag.cosh, mp.cosh, []),
    "asinh": (ag.asinh, mp.asinh, []),
    "acosh": (ag.acosh, mp.acosh, [2.0]),
    "atanh": (ag.atanh, mp.atanh, [0.999]),
    "erf": (ag.erf, mp.erf, [5.0, -5.0]),
    "log2": (ag.log2, lambda x: mp.log(x, 2), []),
    "log10": (ag.log10, mp.log10, []),
    "exp2": (ag.exp2, lambda x: mp.mpf(2) ** x, []),
    "log1p": (ag.log1p, mp.log1p, [-0.999]),
    "expm1": (ag.expm1, mp.expm1, [1e-10]),
    "rsqrt": (ag.rsqrt, lambda x: 1 / mp.sqrt(x), []),
    "reciprocal": (ag.reciprocal, lambda x: 1 / x, []),
    "neg": (ag.neg, lambda x: -x, []),
    "clone": (ag.clone, lambda x: x, []),
    "floor": (ag.floor, mp.floor, [2.5, -2.5]),
    "ceil": (ag.ceil, mp.ceil, [2.5, -2.5]),
    "trunc": (ag.trunc, lambda x: mp.floor(x) if x >= 0 else mp.ceil(x), [2.5, -2.5]),
    "round": (ag.round, _round, [2.5, -2.5, 1.5, 0.49999999999999994]),
    "round[decimals=2]": (lambda x: ag.round(x, decimals=2), functools.partial(_round, decimals=2),
                          [0.125, 1.375]),
    "sigmoid": (ag.sigmoid, _sigmoid, [-745.0, 710.0]),
    "relu": (ag.relu, lambda x: max(x, 0), []),
    "leaky_relu": (ag.leaky_relu, lambda x: x if x > 0 else mp.mpf("0.01") * x, []),
    "leaky_relu[0.2]": (lambda x: ag.leaky_relu(x, 0.2),
                        lambda x: x if x > 0 else mp.mpf("0.2") * x, []),
    "clip": (lambda x: ag.clip(x, -1.0, 2.0), lambda x: min(max(x, -1), 2), [2.0]),
    "clamp": (lambda x: ag.clamp(x, min=0.0), lambda x: max(x, 0), []),
    "pow[2]": (lambda x: x ** 2.0, lambda x: x ** 2, []),
    "pow[1]": (lambda x: x ** 1.0, lambda x: x, []),
    "pow[0]": (lambda x: x ** 0.0, lambda x: mp.mpf(1), []),
    "pow[0.5]": (lambda x: x ** 0.5, mp.sqrt, []),
    "pow[-1]": (lambda x: x ** -1.0, lambda x: 1 / x, []),
    "pow[3]": (lambda x: x ** 3.0, lambda x: x ** 3, []),
    "rpow[2]": (lambda x: 2.0 ** x, lambda x: mp.mpf(2) ** x, []),
    "rpow[0]": (lambda x: 0.0 ** x, lambda x: mp.mpf(0) ** x if x else mp.mpf(1), []),
    "gelu": (F.gelu, lambda x: x * mp.erfc(-x / mp.sqrt(2)) / 2, [-5.0, 5.0, -10.0]),
    "gelu[tanh]": (lambda x: F.gelu(x, approximate="tanh"),  # ½x(1 + tanh u) = x·σ(2u)
                   lambda x: x * _sigmoid(2 * GELU_BETA * (x + mp.mpf("0.044715") * x ** 3)),
                   [-5.0, 5.0, -10.0]),
    "elu": (F.elu, _elu, []),
    "celu": (lambda x: F.celu(x, 0.5), lambda x: _elu(x, alpha=0.5, input_scale=2), []),
    "selu": (F.selu, lambda x: _elu(x, alpha=SELU_ALPHA, scale=SELU_SCALE), []),
    "softplus": (F.softplus, _softplus, [10.0, 25.0]),
    "softplus[beta=2]": (lambda x: F.softplus(x, beta=2.0), lambda x: _softplus(x, beta=2),
                         [10.0, 15.0]),
    "softsign": (F.softsign, lambda x: x / (1 + abs(x)), []),
    "hardtanh": (F.hardtanh, lambda x: min(max(x, -1), 1), []),
    "tanhshrink": (F.tanhshrink, lambda x: x - mp.tanh(x), [1e-3, -1e-3]),
    "softshrink": (F.softshrink, lambda x: x - 0.5 if x > 0.5 else x + 0.5 if x < -0.5 else 0,
                   [0.75, -0.75]),
    "hardshrink": (F.hardshrink, lambda x: x if abs(x) > 0.5 else 0, [0.75, -0.75]),
    "threshold[0.25]": (lambda x: F.threshold(x, 0.25, -3.0), lambda x: x if x > 0.25 else -3,
                        [0.25]),
    "relu6": (F.relu6, lambda x: min(max(x, 0), 6), [6.0, 5.0, 7.0]),
    "silu": (F.silu, lambda x: x * _sigmoid(x), [-745.0]),
    "mish": (F.mish, lambda x: x * mp.tanh(mp.log1p(mp.exp(x))), [5.0, -5.0]),
    "hardsigmoid": (F.hardsigmoid, lambda x: min(max(x + 3, 0), 6) / 6, [2.0, -2.0]),
    "hardswish": (F.hardswish, lambda x: x * min(max(x + 3, 0), 6) / 6, [2.0, -2.0]),
    "prelu": (lambda x: F.prelu(x, ag.tensor(np.array([0.25], dtype=x.dtype))),
              lambda x: x if x > 0 else x / 4, []),
    "logsigmoid": (F.logsigmoid, lambda x: -mp.log1p(mp.exp(-x)), []),
    "asin": (ag.asin, mp.asin, [0.999, -0.999]),
    "acos": (ag.acos, mp.acos, [0.999, -0.999]),
    "atan": (ag.atan, mp.atan, []),
    "logit": (ag.logit, lambda x: mp.log(x / (1 - x)), [0.999, 1e-5]),
    "erfinv": (ag.erfinv, _erfinv, [0.999, -0.999, 1e-5, 0.9999999]),
    "lgamma": (ag.lgamma, _pole(lambda x: mp.re(mp.loggamma(x)), mp.inf), [-2.5, 2.0]),
    "digamma": (ag.digamma, _pole(mp.digamma, mp.nan), [-2.5, 2.0, 7.5]),
    "polygamma[1]": (lambda x: ag.polygamma(1, x), _pole(lambda x: mp.polygamma(1, x), mp.inf),
                     [-2.5, 2.0, 7.5]),
    # two-operand ops with the other operand fixed
    "hypot[3]": (lambda x: ag.hypot(x, 3.0), lambda x: mp.sqrt(x * x + 9), []),
    "logaddexp[0.5]": (lambda x: ag.logaddexp(x, 0.5),  # log(e^x + e^½), exact for x ≪ 0 too
                       lambda x: mp.mpf("0.5") + mp.log1p(mp.exp(x - mp.mpf("0.5"))), []),
    # the other operand 100: at x = −1000 the derivative 2^−1100 is below float64 as exactly;
    # with one near 0 it is about 1e-301 beside a value of about 1, which mpmath's diff loses
    "logaddexp2[100]": (lambda x: ag.logaddexp2(x, 100.0),
                        lambda x: 100 + mp.log1p(2 ** (x - 100)) / mp.log(2), [99.0, 101.0]),
    "xlogy[x=2.5]": (lambda y: ag.xlogy(2.5, y), lambda y: mp.mpf("2.5") * mp.log(y), [2.5]),
}

# (name, x): (first derivative, second derivative) where the function has a kink or a jump: the
# derivative PyTorch defines there. "d" for each piecewise-constant op is 0 everywhere.
KINKS = {
    ("abs", 0.0): (0, 0),
    ("relu", 0.0): (0, 0),
    ("leaky_relu", 0.0): (0.01, 0),
    ("leaky_relu[0.2]", 0.0): (0.2, 0),
    ("clip", -1.0): (1, 0), ("clip", 2.0): (1, 0),
    ("clamp", 0.0): (1, 0),
    ("hardtanh", -1.0): (0, 0), ("hardtanh", 1.0): (0, 0),
    ("softshrink", 0.5): (0, 0), ("softshrink", -0.5): (0, 0),
    ("hardshrink", 0.5): (0, 0), ("hardshrink", -0.5): (0, 0),
    ("threshold[0.25]", 0.25): (0, 0),
    ("relu6", 0.0): (0, 0), ("relu6", 6.0): (0, 0),
    ("hardsigmoid", -3.0): (0, 0), ("hardsigmoid", 3.0): (0, 0),
    ("hardswish", -3.0): (0, 0), ("hardswish", 3.0): (1, 0),
    ("elu", 0.0): (1, 0), ("celu", 0.0): (1, 0), ("selu", 0.0): (SELU_ALPHA * SELU_SCALE, 0),
    ("prelu", 0.0): (0.25, 0),
    ("softsign", 0.0): (1, 0),
    ("softplus", 20.0): (_sigmoid(mp.mpf(20)), 0),
    ("softplus[beta=2]", 10.0): (_sigmoid(mp.mpf(20)), 0),
    ("pow[0]", 0.0): (0, 0),
    ("pow[1]", 0.0): (1, 0),
    ("pow[0.5]", 0.0): (math.inf, -math.inf),
    ("pow[-1]", 0.0): (-math.inf, math.inf),
    ("rpow[0]", 0.0): (0, 0),
    ("sqrt", 0.0): (math.inf, -math.inf),
    ("rsqrt", 0.0): (-math.inf, math.inf),
    ("reciprocal", 0.0): (-math.inf, math.inf),
    ("log", 0.0): (math.inf, -math.inf), ("log2", 0.0): (math.inf, -math.inf),
    ("log10", 0.0): (math.inf, -math.inf),
    ("acosh", 1.0): (math.inf, -math.inf),
    ("atanh", 1.0): (math.inf, math.inf), ("atanh", -1.0): (math.inf, -math.inf),
    ("log1p", -1.0): (math.inf, -math.inf),
    ("asin", 1.0): (math.inf, math.inf), ("asin", -1.0): (math.inf, -math.inf),
    ("acos", 1.0): (-math.inf, -math.inf), ("acos", -1.0): (-math.inf, math.inf),
}
# Where PyTorch's forward mode takes the other side of a kink than its backward.
FORWARD_KINKS = {("prelu", 0.0): 1.0}
PIECEWISE_CONSTANT = {"sign", "floor", "ceil", "trunc", "round", "round[decimals=2]"}

# Derivatives PyTorch computes from the op's rounded output: good to an ulp of 1 absolute.
FROM_OUTPUT = {
    "tanh": "1 − tanh²(x), 0 once tanh(x) rounds to ±1",
    "tanhshrink": "its derivative tanh²(x) differentiates through tanh's 1 − tanh²(x), 0 once "
                  "tanh(x) rounds to ±1",
    "mish": "tanh(softplus(x)) and 1 − tanh² of it, as PyTorch's mish backward",
}

# More than ULPS (name, dtype) or (name, dtype, "value" / "d1" / "d2"): (rtol, atol, reason).
LOOSER = {
    **{("gelu", dtype): (
        rtol, 0, "x/√2 is rounded to the dtype before erfc, whose tail multiplies that error by "
        "about x² (100 at x = −10, 400 at x = −20), as PyTorch rounds it")
       for dtype, rtol in ((np.float32, 1e-5), (np.float64, 1e-13))},
    **{("gelu[tanh]", dtype): (
        rtol, 0, "u = √(2/π)(x + 0.044715x³) is rounded to the dtype before σ(2u), which "
        "multiplies that error by |2u(1 − σ(2u))|: 15 at x = −5, 600 at x = −20; PyTorch rounds "
        "u too") for dtype, rtol in ((np.float32, 2e-6), (np.float64, 1e-13))},
    **{("erfinv", dtype): (
        rtol, 0, "the derivative √π/2·e^(y²) of y = erfinv(x) multiplies y's rounding by 2y² "
        "(11 at x = 0.999, 29 at 1 − 1.2e-7; the second derivative 2y·y′² twice that), as "
        "PyTorch's formula does") for dtype, rtol in ((np.float32, 4e-6), (np.float64, 4e-14))},
    **{("hypot[3]", dtype, "d2"): (
        rtol, 0, "the second derivative 1/y − a²/y³ = b²/y³ comes from differentiating a/y, as "
        "PyTorch's does: the difference cancels (a/b)² ulps, 1e5 at a = 1000")
       for dtype, rtol in ((np.float32, 2e-2), (np.float64, 1e-10))},
    **{("tanhshrink", dtype): (
        rtol, 0, "x − tanh(x) (and its derivative 1 − tanh′(x)) cancels near 0, losing digits "
        "as x² shrinks (5e-8 relative at x = 0.001), as PyTorch's formula does")
       for dtype, rtol in ((np.float32, 2e-1), (np.float64, 1e-6))},
    ("hardsigmoid", np.float64): (
        3e-8, 0, "PyTorch's backward multiplies by 1.0f / 6.0f, float32's 1/6, in float64 too"),
}

EXCLUDED = {
    **{name: "not differentiable: a constant bool tensor"
       for name in ("isnan", "isinf", "isfinite", "logical_not", "eq", "ne", "lt", "le", "gt",
                    "ge", "all", "any")},
    **{name: "two or more tensor operands (tested against PyTorch in test_numerics_vs_torch)"
       for name in ("add", "sub", "mul", "div", "maximum", "minimum", "atan2", "lerp", "where",
                    "prelu", "fmod", "remainder")},
    **{name: "not elementwise" for name in (
        "cat", "t", "expand", "expand_as", "view", "view_as", "unfold", "fold", "conv1d", "conv2d",
        "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "pad", "gather", "scatter_add",
        "masked_fill", "one_hot", "matmul", "bmm", "dot", "outer", "einsum", "argmax", "argmin",
        "argsort", "topk", "sort", "max", "min", "amax", "amin", "median", "sum", "mean",
        "logsumexp", "softmax", "log_softmax", "var", "std", "prod", "norm", "cumsum",
        "broadcast_to", "reshape", "transpose", "permute", "swapaxes", "squeeze", "unsqueeze",
        "expand_dims", "flatten", "concatenate", "stack", "flip", "roll", "repeat", "tile", "tril",
        "triu", "split", "chunk", "unbind", "linear", "batch_norm", "layer_norm", "normalize",
        "dropout", "embedding", "scaled_dot_product_attention", "binary_cross_entropy",
        "binary_cross_entropy_with_logits", "cross_entropy", "huber_loss", "kl_div", "l1_loss",
        "mse_loss", "multi_margin_loss", "nll_loss", "smooth_l1_loss", "cumprod", "logcumsumexp",
        "nansum", "nanmean", "var_mean", "std_mean", "quantile", "diff", "mm", "mv", "addmm",
        "baddbmm", "softmin", "glu", "gumbel_softmax", "cosine_similarity", "pairwise_distance",
        "pixel_shuffle", "pixel_unshuffle", "dropout1d", "dropout2d", "adaptive_avg_pool1d",
        "adaptive_max_pool2d", "max_pool1d", "avg_pool1d", "local_response_norm", "embedding_bag",
        "group_norm", "instance_norm", "interpolate", "conv_transpose1d", "conv_transpose2d",
        "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss",
        "multilabel_soft_margin_loss", "cosine_embedding_loss", "triplet_margin_loss",
        "poisson_nll_loss", "gaussian_nll_loss", "index_select", "masked_select",
        "take_along_dim", "narrow", "movedim", "moveaxis", "repeat_interleave", "unflatten",
        "hstack", "vstack", "dstack", "column_stack", "diag", "diagonal", "diag_embed",
        "tensordot", "kron", "cross", "cdist", "meshgrid", "scatter", "index_add", "ctc_loss")},
}
# prelu's weight is a tensor operand, but with a fixed weight it is swept as a unary op too.
EXCLUDED.pop("prelu")


def test_every_op_is_swept_or_excluded():
    names = set(ag.ops.PUBLIC) | set(F.__all__)
    swept = {case.split("[")[0] for case in CASES}
    assert not swept & set(EXCLUDED), "an op is both swept and excluded"
    missing = names - swept - set(EXCLUDED)
    assert not missing, f"neither swept nor excluded (add to CASES or EXCLUDED): {missing}"


def _points(name, dtype):
    """The finite points (but -0.0) inside the op's domain, and the others (``_exact`` None)."""
    extra = [x for (case, x) in KINKS if case == name] + CASES[name][2]
    points = [SUBNORMAL[dtype] * (-1 if p == "-sub" else 1) if isinstance(p, str) else p
              for p in COMMON + extra]
    stored = np.array(points, dtype=dtype)
    stored = stored[np.unique(stored.view(f"u{stored.itemsize}"), return_index=True)[1]]
    inside = np.array([_exact(name, float(x)) is not None for x in stored], dtype=bool)
    return stored[inside], np.concatenate([np.array(CONVENTIONS, dtype=dtype), stored[~inside]])


def _ours(name, points):
    """Value, first derivative (array path, create_graph path, forward mode), second derivative."""
    fn = CASES[name][0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        x = ag.tensor(points.copy(), requires_grad=True)
        y = fn(x)
        (d1,) = ag.grad(y.sum(), [x])
        (d1_graph,) = ag.grad(fn(x).sum(), [x], create_graph=True)
        d2 = (ag.grad(d1_graph.sum(), [x], allow_unused=True)[0]
              if d1_graph.requires_grad else None)
        with fwAD.dual_level():
            dual = fwAD.make_dual(ag.tensor(points.copy()), np.ones_like(points))
            d1_forward = fwAD.unpack_dual(fn(dual)).tangent
    zeros = np.zeros_like(points)
    return {"value": y.data, "d1": d1.data, "d1 (create_graph)": d1_graph.data,
            "d1 (forward mode)": zeros if d1_forward is None else d1_forward.data,
            "d2": zeros if d2 is None else d2.data}


@functools.cache
def _exact(name, x):
    """(value, first derivative, second derivative) at the float x, as Python floats; None
    outside the domain (a NaN or complex value) and at a pole (see the module doc)."""
    f = CASES[name][1]
    point = mp.mpf(x)
    try:
        exact = f(point)
    except ZeroDivisionError:  # 1/0 and 0 to a negative power
        exact = mp.inf
    value = _float(exact)
    if (name, x) in KINKS:
        return (value, *(_float(mp.mpf(d)) for d in KINKS[name, x]))
    if math.isnan(value) or mp.isinf(exact):
        return None
    if name in PIECEWISE_CONSTANT:
        return value, 0.0, 0.0
    # Central differences with a step 1e-45 relative to x (1e-45 at 0), at enough digits that the
    # step's cancellation leaves more than 50.
    digits = 150 + max(0, -int(mp.log10(abs(point)))) if point else 150
    with mp.workdps(digits):
        step = (abs(point) if point else mp.mpf(1)) * mp.mpf(10) ** -45
        derivatives = [mp.diff(f, point, n, h=step) for n in (1, 2)]
    # At 0 a derivative is 0 or of order 1: what is left there is the step's truncation (h²).
    return (value, *(_float(d if point or abs(d) > 1e-60 else mp.mpf(0)) for d in derivatives))


def _float(value):
    if isinstance(value, mp.mpc):
        return float(value.real) if value.imag == 0 else math.nan
    return float(value) if mp.isfinite(value) else (
        math.nan if mp.isnan(value) else math.copysign(math.inf, value))


def _check(name, dtype, points, got, expected, what):
    eps = np.finfo(dtype).eps
    tiny = np.finfo(dtype).tiny
    ulps = ULPS[what[:2] if what != "value" else what]
    rtol, atol = LOOSER.get((name, dtype, what.split()[0]),
                            LOOSER.get((name, dtype), (ulps * eps, 0, "")))[:2]
    if name in FROM_OUTPUT and what != "value":
        atol = max(atol, ulps * eps)
    bad = []
    for x, ours, exact in zip(points, got.astype(np.float64), expected):
        rounded = float(np.asarray(exact, dtype=dtype))  # the exact value in the dtype
        if np.isnan(exact) or np.isinf(rounded):
            ok = (np.isnan(ours) and np.isnan(exact)) or ours == rounded
        else:
            error = abs(ours - exact)
            ok = error <= max(rtol * abs(exact), atol, tiny if abs(exact) < tiny else 0)
        if not ok:
            bad.append(f"x={x!r}: {ours!r}, exact {exact!r}")
    assert not bad, f"{name} {np.dtype(dtype).name} {what}: " + "; ".join(bad)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(CASES))
def test_values_and_derivatives_at_awkward_points_are_exact(name, dtype):
    points, _ = _points(name, dtype)
    ours = _ours(name, points)
    exact = np.array([_exact(name, float(x)) for x in points])
    for what, got in ours.items():
        column = {"value": 0, "d2": 2}.get(what, 1)
        expected = exact[:, column].copy()
        if what == "d1 (forward mode)":
            for i, x in enumerate(points):
                expected[i] = FORWARD_KINKS.get((name, float(x)), expected[i])
        assert got.dtype == dtype, f"{name} {what} is {got.dtype}, not {np.dtype(dtype).name}"
        _check(name, dtype, points, got, expected, what)


TORCH_NAMES = {
    "leaky_relu[0.2]": lambda t, x: t.nn.functional.leaky_relu(x, 0.2),
    "clip": lambda t, x: t.clamp(x, -1.0, 2.0),
    "clamp": lambda t, x: t.clamp(x, min=0.0),
    "round[decimals=2]": lambda t, x: t.round(x, decimals=2),
    "gelu[tanh]": lambda t, x: t.nn.functional.gelu(x, approximate="tanh"),
    "celu": lambda t, x: t.nn.functional.celu(x, 0.5),
    "softplus[beta=2]": lambda t, x: t.nn.functional.softplus(x, beta=2.0),
    "prelu": lambda t, x: t.nn.functional.prelu(x, t.tensor([0.25], dtype=x.dtype)),
    "pow[2]": lambda t, x: x ** 2.0, "pow[1]": lambda t, x: x ** 1.0,
    "pow[0]": lambda t, x: x ** 0.0, "pow[0.5]": lambda t, x: x ** 0.5,
    "pow[-1]": lambda t, x: x ** -1.0, "pow[3]": lambda t, x: x ** 3.0,
    "rpow[2]": lambda t, x: 2.0 ** x, "rpow[0]": lambda t, x: 0.0 ** x,
    "polygamma[1]": lambda t, x: t.polygamma(1, x),
    "hypot[3]": lambda t, x: t.hypot(x, t.tensor(3.0, dtype=x.dtype)),
    "logaddexp[0.5]": lambda t, x: t.logaddexp(x, t.tensor(0.5, dtype=x.dtype)),
    "logaddexp2[100]": lambda t, x: t.logaddexp2(x, t.tensor(100.0, dtype=x.dtype)),
    "xlogy[x=2.5]": lambda t, y: t.xlogy(t.tensor(2.5, dtype=y.dtype), y),
    "threshold[0.25]": lambda t, x: t.nn.functional.threshold(x, 0.25, -3.0),
}


def _torch_fn(torch, name):
    if name in TORCH_NAMES:
        return functools.partial(TORCH_NAMES[name], torch)
    for namespace in (torch, torch.nn.functional):
        if hasattr(namespace, name):
            return getattr(namespace, name)
    raise AssertionError(f"no PyTorch function for {name}")


# Where PyTorch's answer at these points is not the engine's: (name, "value" / "d1" / "d2"): the
# reason ("d1" covers the three ways of computing it).
CONVENTION_DIFFERENCES = {
    ("softsign", "d1"): "d/dx x/(1+|x|) is 0 at ±inf; PyTorch's composite formula gives inf/inf",
    ("pow[0.5]", "d1"): "½(-inf)^(-½) is 0 (NumPy's pow); PyTorch gives NaN",
    ("acosh", "d1"): "below 1 the value is NaN and so is our derivative; PyTorch's 1/√(x² − 1) "
                     "still gives a number there",
    ("acosh", "d2"): "as d1; and at inf the limit 0 where PyTorch gives NaN",
    ("atanh", "d2"): "the limit 0 at ±inf, where PyTorch gives NaN",
    ("logit", "d2"): "the limits ∓inf at 0 and 1, and 0 outside [0, 1] (d1 is NaN there, a "
                     "constant); PyTorch gives NaN at 0, 1, ±inf and below 0 only near 0",
    ("rpow[0]", "d2"): "0 where 0**x is flat (x ≥ 0); PyTorch's where() passes NaN from the "
                       "dropped branch",
    ("gelu", "value"): "gelu(inf) is inf; PyTorch's float32 kernel gives NaN",
    **{case: "trigamma at the poles 0, −1, −2, … is +inf; PyTorch's π²/sin²(πx) of an "
             "unreduced πx gives large finite numbers, and NaN at −inf"
       for case in (("lgamma", "d2"), ("digamma", "d1"), ("polygamma[1]", "value"))},
    **{(case, "d2"): "the limit 0 at −inf, from σ's tails; PyTorch's e^(b−a)/(1 + e^(b−a))² "
                     "(2^(b−a) for logaddexp2) gives inf/inf"
       for case in ("logaddexp[0.5]", "logaddexp2[100]")},
    **{case: "polygamma(n ≥ 2) has the limit 0 at inf, where PyTorch's ζ formula gives NaN"
       for case in (("digamma", "d2"), ("polygamma[1]", "d1"), ("polygamma[1]", "d2"))},
}


@pytest.mark.torch
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(CASES))
def test_values_at_infinity_and_nan_and_derivatives_there_match_pytorch(name, dtype):
    torch = pytest.importorskip("torch")
    _, points = _points(name, dtype)
    ours = _ours(name, points)
    limits = np.array([_float(CASES[name][1](mp.mpf(float(x)))) if np.isinf(x) else math.nan
                       for x in points])
    infinite = np.isinf(points)
    _check(name, dtype, points[infinite], ours["value"][infinite], limits[infinite], "value")
    fn = _torch_fn(torch, name)
    x = torch.tensor(points.copy(), requires_grad=True)
    y = fn(x)
    (d1,) = torch.autograd.grad(y.sum(), [x], create_graph=True)
    import torch.autograd.forward_ad as tfwAD

    with tfwAD.dual_level():
        dual = tfwAD.make_dual(torch.tensor(points.copy()), torch.ones(len(points), dtype=x.dtype))
        tangent = tfwAD.unpack_dual(fn(dual)).tangent
    theirs = {"value": y, "d1": d1, "d1 (create_graph)": d1, "d1 (forward mode)": tangent}
    if d1.requires_grad:
        try:
            theirs["d2"] = torch.autograd.grad(d1.sum(), [x], materialize_grads=True)[0] + 0
        except RuntimeError:  # PyTorch has no second derivative of this op
            pass
    for what, expected in theirs.items():
        if (name, what.split()[0]) in CONVENTION_DIFFERENCES:
            continue
        # Outside the domain both engines evaluate formulas of a NaN value, in different orders.
        np.testing.assert_allclose(ours[what], expected.detach().numpy(),
                                   rtol=np.sqrt(np.finfo(dtype).eps), atol=0,
                                   err_msg=f"{name} {what} at {points}")
