"""Elementwise functions (autograd/ops/elementwise.py): the family's table of cases against NumPy
(numpy_checks.NumpyChecks) and against PyTorch (torch_checks.TorchChecks), then the behaviours
worth a test of their own."""

import math

import mpmath
import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order, torch
from tests.autograd.numpy_checks import (
    NumpyChecks,
    Op,
    away_from_zero,
    binary_cases,
    positive,
    sigmoid,
    unary_cases,
    uniform,
)
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    normal_inputs,
    torch_function,
)
from tests.autograd.vs_torch import assert_same, both, same, same_gradients

r = normal_inputs(19)
INSIDE_ONE = np.array([[0.3, -0.6, 0.9, -0.05], [0.45, -0.99, 0.7, 0.1]])
XLOGY_X = np.array([[0.0, 0.0, 0.0], [1.5, 0.0, -2.0]])
FRACTIONS = np.array([[0.35, -1.1, 2.3, 0.8], [-0.3, 1.45, -2.6, 1.9], [0.6, 0.2, -0.9, 1.1]])


UNARY = [
    ("exp", np.exp, uniform),
    ("log", np.log, positive),
    ("sqrt", np.sqrt, positive),
    ("square", np.square, uniform),
    ("abs", np.abs, away_from_zero),
    ("sin", np.sin, uniform),
    ("cos", np.cos, uniform),
    ("tanh", np.tanh, uniform),
    ("sigmoid", sigmoid, uniform),
    ("relu", lambda a: np.maximum(a, 0.0), away_from_zero),
    ("leaky_relu", lambda a: np.where(a > 0, a, 0.01 * a), away_from_zero),
]


def leaky_relu_slope_cases():
    leaky = lambda a: np.where(a > 0, a, 0.2 * a)  # noqa: E731
    yield Op("leaky_relu-slope-method", lambda x: x.leaky_relu(negative_slope=0.2), leaky,
               (away_from_zero(3, 4),))
    yield Op("leaky_relu-slope-function", lambda x: ag.leaky_relu(x, negative_slope=0.2), leaky,
               (away_from_zero(3, 4),))


BINARY = [
    ("maximum", ag.maximum, np.maximum, uniform, uniform),
    ("minimum", ag.minimum, np.minimum, uniform, uniform),
    ("maximum-method", lambda a, b: a.maximum(b), np.maximum, uniform, uniform),
    ("minimum-method", lambda a, b: a.minimum(b), np.minimum, uniform, uniform),
]


COND = np.array([[True, False, True], [False, False, True]])


def selection_cases():
    yield Op("where-same-shape", lambda x, y: ag.where(COND, x, y),
               lambda a, b: np.where(COND, a, b), (uniform(2, 3), uniform(2, 3)))
    yield Op("where-broadcast", lambda x, y: ag.where(COND, x, y),
               lambda a, b: np.where(COND, a, b), (uniform(3), uniform()))
    yield Op("where-broadcast-condition", lambda x, y: ag.where(COND[0], x, y),
               lambda a, b: np.where(COND[0], a, b), (uniform(2, 1), uniform(2, 3)))
    yield Op("where-tensor-condition", lambda x, y: ag.where(x > y, x, y),
               lambda a, b: np.where(a > b, a, b), (uniform(2, 3), uniform(3)))
    yield Op("clip-method", lambda x: x.clip(-0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5),
               (uniform(3, 4),))
    yield Op("clip-function", lambda x: ag.clip(x, -1.0, 1.5), lambda a: np.clip(a, -1.0, 1.5),
               (uniform(3, 4),))


class TestAgainstNumpy(NumpyChecks):
    CASES = [*unary_cases(UNARY),
             *leaky_relu_slope_cases(),
             *binary_cases(BINARY),
             *selection_cases()]


TORCH_CASES = [
    # elementwise functions of issue 30
    *(Case(name, getattr(ag, name), torch_function(name), [arrays])
      for name, arrays in [("asin", INSIDE_ONE), ("acos", INSIDE_ONE), ("atan", r(3, 4) * 3)]),
    *(Case(name, getattr(ag, name), torch_function(name), [r(3, 4), r(4)])
      for name in ("hypot", "logaddexp", "logaddexp2")),
    Case("xlogy", ag.xlogy, torch_function("xlogy"), [r(3, 4), np.abs(r(4)) + 0.1]),
    Case("xlogy at x = 0", ag.xlogy, torch_function("xlogy"), [XLOGY_X, np.array([0.5, 0.0, 2.0])],
         skip=("fd", "second")),
    Case("fmod", ag.fmod, torch_function("fmod"), [FRACTIONS * 3, np.array([1.5, -2.5, 0.7, -1.3])],
         linear=True),
    Case("remainder", ag.remainder, torch_function("remainder"),
         [FRACTIONS * 3, np.array([1.5, -2.5, 0.7, -1.3])], linear=True),
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES


def sum_to_shape(array, shape):
    """Sum a broadcast array back to shape (the adjoint of broadcasting), for expected values."""
    while array.ndim > len(shape):
        array = array.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and array.shape[axis] != 1:
            array = array.sum(axis=axis, keepdims=True)
    return array


@pytest.mark.parametrize(
    ("name", "fn"),
    [("maximum", ag.maximum), ("minimum", ag.minimum)],
)
def test_maximum_and_minimum_share_the_gradient_equally_at_ties(name, fn, rng):
    x = ag.tensor([[1.0, 2.0, 3.0, 4.0]], requires_grad=True)
    y = ag.tensor([[1.0], [3.0]], requires_grad=True)
    upstream = rng.standard_normal((2, 4))
    out = fn(x, y)
    out.backward(upstream)
    xb, yb = np.broadcast_arrays(x.data, y.data)
    wins = xb > yb if name == "maximum" else xb < yb
    x_share = wins + 0.5 * (xb == yb)
    np.testing.assert_allclose(out.data, getattr(np, name)(xb, yb))
    np.testing.assert_allclose(x.grad.data, sum_to_shape(upstream * x_share, (1, 4)))
    np.testing.assert_allclose(y.grad.data, sum_to_shape(upstream * (1 - x_share), (2, 1)))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("relu", [0.0, 0.0, 1.0]), ("abs", [-1.0, 0.0, 1.0])],
)
def test_relu_and_abs_have_derivative_zero_at_zero(name, expected):
    x = ag.tensor([-1.5, 0.0, 2.0], requires_grad=True)
    getattr(x, name)().sum().backward()
    np.testing.assert_array_equal(x.grad.data, expected)


COMPARISONS = [
    ("gt", lambda a, b: a > b),
    ("lt", lambda a, b: a < b),
    ("ge", lambda a, b: a >= b),
    ("le", lambda a, b: a <= b),
    ("eq", lambda a, b: a == b),
    ("ne", lambda a, b: a != b),
]


OTHERS = {
    "tensor": lambda: ag.tensor([1.0, 0.0, 3.0], requires_grad=True),
    "number": lambda: 1.0,
    "ndarray": lambda: np.array([1.0, 0.0, 3.0]),
}


@pytest.mark.parametrize(("name", "compare"), COMPARISONS, ids=[n for n, _ in COMPARISONS])
@pytest.mark.parametrize("other", OTHERS, ids=list(OTHERS))
@pytest.mark.parametrize("tensor_first", [True, False], ids=["tensor-first", "tensor-second"])
def test_comparisons_are_not_differentiable(name, compare, other, tensor_first):
    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = OTHERS[other]()
    a, b = (x, y) if tensor_first else (y, x)
    out = compare(a, b)
    raw = compare(*(v.data if isinstance(v, ag.Tensor) else v for v in (a, b)))
    assert isinstance(out, ag.Tensor)
    assert out.requires_grad is False
    assert out.grad_fn is None
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out.data, raw)


def _ulps_from_mpmath(ours, exact_function, x):
    """How far ``ours`` is from the exact values, in ulps of each exact value (normal results),
    and in multiples of the smallest subnormal (results below the normal range)."""
    exact = np.array([float(exact_function(mpmath.mpf(float(v)))) for v in x])
    error = np.abs(ours - exact)
    normal = np.abs(exact) >= np.finfo(np.float64).tiny
    return (error[normal] / np.spacing(np.abs(exact[normal])),
            error[~normal] / np.finfo(np.float64).smallest_subnormal)


ERROR_FUNCTION_GRID = np.concatenate([
    np.linspace(-27.5, 27.5, 5501),  # every piece of Cody's approximation, tails to ±27
    np.random.default_rng(0).uniform(-6, 6, 3000),
    np.linspace(25.0, 27.3, 1001),  # erfc's subnormal tail: erfc(26.55) is below 2.2e-308
    np.geomspace(1e-320, 1.0, 400) * np.resize([1, -1], 400),  # subnormal inputs up to ±1
    np.nextafter(np.repeat([0.46875, 4.0], 3), [-1, 0, 9] * 2),  # the pieces' joins
    [0.0, -0.0]])


def test_erfc_is_within_a_few_ulps_of_mpmath_from_tail_to_tail():
    from autograd.ops.elementwise import erfc_array

    mpmath.mp.prec = 100
    normal, subnormal = _ulps_from_mpmath(erfc_array(ERROR_FUNCTION_GRID), mpmath.erfc,
                                          ERROR_FUNCTION_GRID)
    assert normal.max() <= 8  # 6 measured; math.erfc (glibc) 2
    assert subnormal.size > 100 and subnormal.max() <= 2
    assert erfc_array(np.array([10.0]))[0] == pytest.approx(2.088487583762545e-45, rel=1e-15)
    np.testing.assert_array_equal(erfc_array(np.array([np.inf, -np.inf, 28.0, -1e300, np.nan])),
                                  [0, 2, 0, 2, np.nan])


def test_erf_is_within_a_few_ulps_of_mpmath_and_keeps_float32():
    mpmath.mp.prec = 100
    normal, subnormal = _ulps_from_mpmath(ag.erf(ag.tensor(ERROR_FUNCTION_GRID)).data,
                                          mpmath.erf, ERROR_FUNCTION_GRID)
    assert normal.max() <= 4 and subnormal.max() == 0  # 3 measured; erf(x) ≈ 2x/√π near 0
    np.testing.assert_array_equal(ag.erf(ag.tensor([np.inf, -np.inf, np.nan])).data,
                                  [1, -1, np.nan])
    assert ag.erf(ag.tensor(ERROR_FUNCTION_GRID.astype(np.float32))).dtype == np.float32
    assert ag.erf(ag.tensor(np.array([0, 1]))).dtype == np.float64  # integers give floats
    assert ag.erf(ag.tensor(np.zeros((2, 0)))).shape == (2, 0)


BROADCAST = [((2, 3), (2, 3)), ((2, 3), (3,)), ((3, 1), (1, 4)), ((), (2, 2)), ((4,), ())]


@pytest.mark.parametrize(("shape_a", "shape_b"), BROADCAST, ids=str)
def test_atan2_gradients_with_broadcasting_match_finite_differences(shape_a, shape_b, rng):
    check_gradients(ag.atan2, rng.uniform(-2, 2, shape_a), rng.uniform(-2, 2, shape_b), rng=rng)
    check_second_order(ag.atan2, rng.uniform(-2, 2, shape_a), rng.uniform(-2, 2, shape_b),
                       rng=rng)


@pytest.mark.parametrize(("shape_a", "shape_b"), BROADCAST, ids=str)
def test_lerp_gradients_with_broadcasting_match_finite_differences(shape_a, shape_b, rng):
    weight = rng.uniform(-0.5, 1.5, shape_b)
    check_gradients(ag.lerp, rng.standard_normal(shape_a), rng.standard_normal(shape_b), weight,
                    rng=rng)
    check_second_order(ag.lerp, rng.standard_normal(shape_a), rng.standard_normal(shape_b),
                       weight, rng=rng)
    check_gradients(lambda a, b: ag.lerp(a, b, 0.3), rng.standard_normal(shape_a),
                    rng.standard_normal(shape_b), rng=rng)


@pytest.mark.torch
def test_atan2_at_the_origin_gives_zero_gradients_as_in_pytorch():
    a, b = ag.tensor([0.0, 1.0], requires_grad=True), ag.tensor([0.0, 0.0], requires_grad=True)
    ta = torch.tensor([0.0, 1.0], dtype=torch.float64, requires_grad=True)
    tb = torch.tensor([0.0, 0.0], dtype=torch.float64, requires_grad=True)
    ag.atan2(a, b).sum().backward()
    torch.atan2(ta, tb).sum().backward()
    np.testing.assert_array_equal(a.grad.data, ta.grad.numpy())
    np.testing.assert_array_equal(b.grad.data, tb.grad.numpy())


def test_lerp_reaches_its_end_exactly_at_weight_one():
    a, b = ag.tensor([0.1, 1e10]), ag.tensor([0.3, -7.0])
    np.testing.assert_array_equal(ag.lerp(a, b, 1.0).data, b.data)
    np.testing.assert_array_equal(a.lerp(b, 0.0).data, a.data)


def test_a_float32_lerp_with_a_number_weight_stays_float32():
    a = ag.tensor(np.ones(3, dtype=np.float32), requires_grad=True)
    y = ag.lerp(a, ag.tensor(np.zeros(3, dtype=np.float32)), 0.25)
    assert y.dtype == np.float32
    y.sum().backward()
    assert a.grad.dtype == np.float32


def test_float32_erf_and_erfc_are_within_a_few_float32_ulps_of_the_exact_value():
    """Cody's approximations evaluated in float32, twice as fast as in float64 (4.1 and 6.5
    float32 ulps measured over 160,000 points)."""
    from autograd.ops.elementwise import erf_array, erfc_array

    x = np.concatenate([np.linspace(-11.0, 11.0, 4001),
                        np.random.default_rng(1).uniform(-4, 4, 4000)]).astype(np.float32)
    for function, exact_function, bound in ((erf_array, math.erf, 5), (erfc_array, math.erfc, 8)):
        ours = function(x)
        assert ours.dtype == np.float32
        exact = np.array([exact_function(v) for v in x.astype(np.float64)])
        normal = np.abs(exact) >= np.finfo(np.float32).tiny
        ulps = np.spacing(np.abs(exact[normal]).astype(np.float32)).astype(np.float64)
        assert np.max(np.abs(ours[normal] - exact[normal]) / ulps) <= bound, function.__name__


@pytest.mark.torch
def test_to_float32_keeps_the_gradient_and_casts_it_back_to_float64():
    x, tx = both([0.5, -1.25, 2.0])
    y, ty = x.to(np.float32), tx.to(torch.float32)
    assert y.dtype == np.float32 and y.requires_grad
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    assert x.grad.dtype == np.float64
    assert_same(x.grad, tx.grad.double())


@pytest.mark.torch
@pytest.mark.parametrize(("ours", "theirs", "dtype"), [
    (lambda t: t.float(), lambda t: t.float(), np.float32),
    (lambda t: t.double(), lambda t: t.double(), np.float64),
    (lambda t: t.half(), lambda t: t.half(), np.float16),
    (lambda t: t.type(np.float32), lambda t: t.type(torch.float32), np.float32),
    (lambda t: t.to(ag.float32), lambda t: t.to(torch.float32), np.float32),
])
def test_float_casts_are_recorded(ours, theirs, dtype):
    x, tx = both([1.5, -2.0])
    y, ty = ours(x), theirs(tx)
    assert y.dtype == dtype and y.requires_grad == ty.requires_grad is True
    (y * 3).sum().backward()
    (ty * 3).sum().backward()
    assert_same(x.grad, tx.grad.double())


@pytest.mark.torch
@pytest.mark.parametrize("cast", ["int", "long", "bool"])
def test_integer_and_bool_casts_are_constants(cast):
    x, tx = both([1.5, -2.0, 0.0])
    y, ty = getattr(x, cast)(), getattr(tx, cast)()
    assert not y.requires_grad and not ty.requires_grad
    np.testing.assert_array_equal(y.data, ty.numpy())


@pytest.mark.torch
def test_astype_stays_numpygrads_untracked_cast():
    x, _ = both([1.5, 2.5])
    y = x.astype(np.float32)
    assert y.dtype == np.float32 and not y.requires_grad and y.grad_fn is None


@pytest.mark.torch
def test_sign_is_recorded_with_a_zero_gradient():
    x, tx = both([-2.0, 0.0, 3.0])
    x.sign().sum().backward()
    tx.sign().sum().backward()
    assert_same(x.grad, tx.grad)
    assert_same(x.sign(), tx.sign())


SECOND_ORDER = {
    "abs": (lambda t: t.abs(), lambda t: t.abs()),
    "relu": (lambda t: t.relu(), torch_function("relu")),
    "leaky_relu": (lambda t: t.leaky_relu(0.1),
                   lambda t: torch.nn.functional.leaky_relu(t, 0.1)),
    "sign": (lambda t: t.sign(), torch_function("sign")),
    "clip": (lambda t: t.clip(-1.0, 0.5), lambda t: t.clamp(-1.0, 0.5)),
    "maximum": (lambda t: t.maximum(t * 0 + 0.25), lambda t: torch.maximum(t, t * 0 + 0.25)),
    "minimum": (lambda t: t.minimum(t * 0 + 0.25), lambda t: torch.minimum(t, t * 0 + 0.25)),
    "where": (lambda t: ag.where(t > 0, t, 2 * t), lambda t: torch.where(t > 0, t, 2 * t)),
    "max": (lambda t: t.max(), lambda t: t.max()),
    "x*abs": (lambda t: t * t.abs(), lambda t: t * t.abs()),
    "x*relu": (lambda t: t * t.relu(), lambda t: t * torch.relu(t)),
    "x*clip": (lambda t: t * t.clip(-1.0, 0.5), lambda t: t * t.clamp(-1.0, 0.5)),
    "tanh": (lambda t: t.tanh(), torch_function("tanh")),
    "softmax": (lambda t: t.softmax(-1)[0], lambda t: t.softmax(-1)[0]),
    "square": (lambda t: t.square(), torch_function("square")),
}


@pytest.mark.torch
@pytest.mark.parametrize("name", list(SECOND_ORDER))
def test_a_second_derivative_exists_exactly_where_torch_has_one_and_agrees(name):
    ours, theirs = SECOND_ORDER[name]
    x, tx = both([1.3, -2.0, 0.4, -0.7])
    (g,) = ag.grad(ours(x).sum(), x, create_graph=True)
    (tg,) = torch.autograd.grad(theirs(tx).sum(), tx, create_graph=True)
    assert_same(g, tg)
    assert g.requires_grad == tg.requires_grad, "first derivative connected to x?"
    if tg.requires_grad:
        (h,) = ag.grad(g.sum(), x)
        (th,) = torch.autograd.grad(tg.sum(), tx)
        assert_same(h, th)
    else:
        with pytest.raises(RuntimeError, match="does not require grad"):
            ag.grad(g.sum(), x)


@pytest.mark.torch
def test_clone_is_a_copy_in_the_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x.clone()
    assert y.grad_fn is not None and not np.shares_memory(y.data, x.data)
    y.data[0] = 5.0
    assert x.data[0] == 1.0


VALUES = np.array([[1.5, -np.inf, 0.0, np.nan], [3.0, 2.0, np.inf, -0.5]])


@pytest.mark.torch
@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "logical_not"])
def test_value_tests_are_untracked_bool_tensors_like_pytorchs(name):
    x, tx = both(VALUES)
    for y in (getattr(ag, name)(x), getattr(x, name)()):
        assert not y.requires_grad and y.grad_fn is None
        same(y, getattr(torch, name)(tx))


@pytest.mark.torch
@pytest.mark.parametrize("name", ["floor", "ceil", "trunc"])
def test_rounding_is_recorded_with_a_zero_gradient_as_in_pytorch(name):
    x, tx = both([[1.5, -1.5, 2.0], [-0.2, 0.7, -3.0]])
    y, ty = getattr(x, name)(), getattr(tx, name)()
    same(y, ty)
    assert y.requires_grad and ty.requires_grad
    same_gradients(y, ty, [x], [tx], np.random.default_rng(0))
    ints = np.array([3, -2])
    same(getattr(ag, name)(ag.tensor(ints)), getattr(torch, name)(torch.tensor(ints)))


MASKS = [np.array([True, False, True, False]), np.array([True, True, False, False])]


INTS = [np.array([5, 3, -2, 0]), np.array([1, 6, 7, -1])]


@pytest.mark.torch
@pytest.mark.parametrize("pair", [MASKS, INTS], ids=["bool", "int"])
@pytest.mark.parametrize("op", ["&", "|", "^"])
def test_bit_operations_on_masks_and_integers_match_pytorch(pair, op):
    a, b = (ag.tensor(v) for v in pair)
    ta, tb = (torch.tensor(v) for v in pair)
    apply = {"&": lambda p, q: p & q, "|": lambda p, q: p | q, "^": lambda p, q: p ^ q}[op]
    for ours, theirs in [(apply(a, b), apply(ta, tb)), (apply(a, pair[1]), apply(ta, tb)),
                         (apply(a, 1), apply(ta, 1)), (apply(True, a), apply(True, ta))]:
        assert not ours.requires_grad
        same(ours, theirs)
    same(~a, ~ta)


@pytest.mark.torch
def test_a_mask_of_two_conditions_reads_as_in_pytorch():
    x, tx = both([-1.0, 0.5, 2.0])
    same((x > 0) & (x < 1), (tx > 0) & (tx < 1))
    same(~(x > 0) | (x > 1), ~(tx > 0) | (tx > 1))


@pytest.mark.torch
def test_bit_operations_refuse_floats_and_say_how_to_make_a_mask():
    x = ag.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match=r"& works on bool and integer tensors \(masks\), not on "
                       r"float64: compare first, e.g. \(x > 0\) & \(x < 1\)"):
        _ = x & x
    with pytest.raises(TypeError, match="~ works on bool and integer tensors"):
        _ = ~x
