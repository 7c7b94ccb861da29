"""Activation functions (autograd/ops/activations.py): gradients and second derivatives against
finite differences, and values, gradients, second derivatives and forward-mode tangents against
PyTorch in float64 and float32, on ordinary points, on the kinks (where PyTorch's conventions
decide) and with broadcasting. Its UNARY table also runs elementwise functions of the same kind
(tan, sinh, erf, floor, …) through these checks."""

import math

import mpmath
import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order, torch

F = None if torch is None else torch.nn.functional


def uniform(low, high):
    return lambda rng, shape: rng.uniform(low, high, shape)


def away_from(*kinks, low=-5.0, high=8.0, gap=0.1):
    """Uniform values at least ``gap`` from each kink, so finite differences see one piece."""
    def draw(rng, shape):
        x = rng.uniform(low, high, shape)
        for kink in kinks:
            near = np.abs(x - kink) < gap
            x[near] = kink + np.where(x[near] < kink, -gap, gap)
        return x
    return draw


def fractions(rng, shape):
    """Values with a fractional part between 0.1 and 0.9: away from floor's and ceil's jumps."""
    return rng.integers(-4, 4, shape) + rng.uniform(0.1, 0.9, shape)


# name -> (ours, PyTorch's (called lazily), inputs, kink points)
UNARY = {
    "gelu": (ag.gelu, lambda t: F.gelu(t), uniform(-4, 4), [0.0]),
    "gelu_tanh": (lambda x: ag.gelu(x, approximate="tanh"),
                  lambda t: F.gelu(t, approximate="tanh"), uniform(-4, 4), [0.0]),
    "elu": (lambda x: ag.elu(x, alpha=0.7), lambda t: F.elu(t, alpha=0.7), away_from(0), [0.0]),
    "celu": (lambda x: ag.celu(x, alpha=2.0), lambda t: F.celu(t, alpha=2.0), away_from(0),
             [0.0]),
    "selu": (ag.selu, lambda t: F.selu(t), away_from(0), [0.0]),
    "softplus": (lambda x: ag.softplus(x, beta=2.0, threshold=3.0),
                 lambda t: F.softplus(t, beta=2.0, threshold=3.0), away_from(1.5), [1.5, 0.0]),
    "softplus_default": (ag.softplus, lambda t: F.softplus(t), uniform(-30, 30), [20.0]),
    "softsign": (ag.softsign, lambda t: F.softsign(t), away_from(0), [0.0]),
    "hardtanh": (lambda x: ag.hardtanh(x, min_val=-0.5, max_val=1.5),
                 lambda t: F.hardtanh(t, min_val=-0.5, max_val=1.5), away_from(-0.5, 1.5),
                 [-0.5, 1.5]),
    "relu6": (ag.relu6, lambda t: F.relu6(t), away_from(0, 6), [0.0, 6.0]),
    "silu": (ag.silu, lambda t: F.silu(t), uniform(-6, 6), [0.0]),
    "mish": (ag.mish, lambda t: F.mish(t), uniform(-6, 6), [0.0]),
    "hardsigmoid": (ag.hardsigmoid, lambda t: F.hardsigmoid(t), away_from(-3, 3), [-3.0, 3.0]),
    "hardswish": (ag.hardswish, lambda t: F.hardswish(t), away_from(-3, 3), [-3.0, 3.0]),
    "tan": (ag.tan, lambda t: torch.tan(t), uniform(-1.3, 1.3), [0.0]),
    "sinh": (ag.sinh, lambda t: torch.sinh(t), uniform(-3, 3), [0.0]),
    "cosh": (ag.cosh, lambda t: torch.cosh(t), uniform(-3, 3), [0.0]),
    "asinh": (ag.asinh, lambda t: torch.asinh(t), uniform(-5, 5), [0.0]),
    "acosh": (ag.acosh, lambda t: torch.acosh(t), uniform(1.1, 5), [2.0]),
    "atanh": (ag.atanh, lambda t: torch.atanh(t), uniform(-0.9, 0.9), [0.0]),
    "erf": (ag.erf, lambda t: torch.erf(t), uniform(-4, 4), [0.0]),
    "log2": (ag.log2, lambda t: torch.log2(t), uniform(0.1, 5), [1.0]),
    "log10": (ag.log10, lambda t: torch.log10(t), uniform(0.1, 5), [1.0]),
    "exp2": (ag.exp2, lambda t: torch.exp2(t), uniform(-3, 3), [0.0]),
    "log1p": (ag.log1p, lambda t: torch.log1p(t), uniform(-0.9, 4), [0.0, 1e-12]),
    "expm1": (ag.expm1, lambda t: torch.expm1(t), uniform(-3, 3), [0.0, 1e-12]),
    "rsqrt": (ag.rsqrt, lambda t: torch.rsqrt(t), uniform(0.1, 5), [1.0]),
    "reciprocal": (ag.reciprocal, lambda t: torch.reciprocal(t), away_from(0, low=-3, high=3,
                                                                             gap=0.2), [1.0]),
    "floor": (ag.floor, lambda t: torch.floor(t), fractions, [0.0, 1.0, -1.5]),
    "ceil": (ag.ceil, lambda t: torch.ceil(t), fractions, [0.0, 1.0, -1.5]),
    "trunc": (ag.trunc, lambda t: torch.trunc(t), fractions, [0.0, 1.0, -1.5]),
    "clone": (ag.clone, lambda t: torch.clone(t), uniform(-3, 3), [0.0]),
}


PIECEWISE_CONSTANT = {"floor", "ceil", "trunc", "clone"}
"""Their gradient does not depend on the input: no second derivative (as in PyTorch)."""


NO_SECOND_IN_TORCH = {"hardsigmoid"}
"""PyTorch raises "derivative for aten::hardsigmoid_backward is not implemented"; the engine
gives the true second derivative, 0."""


SHAPES = [(), (5,), (2, 3), (2, 1, 3)]


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gradient_matches_finite_differences(name, shape, rng):
    ours, _, draw, _ = UNARY[name]
    check_gradients(ours, draw(rng, shape), rng=rng)


@pytest.mark.parametrize("name", sorted(set(UNARY) - PIECEWISE_CONSTANT))
def test_second_derivative_matches_finite_differences(name, rng):
    ours, _, draw, _ = UNARY[name]
    check_second_order(ours, draw(rng, (2, 3)), rng=rng)


@pytest.mark.parametrize("name", sorted(PIECEWISE_CONSTANT))
def test_a_gradient_that_does_not_depend_on_the_input_has_no_graph(name):
    x = ag.tensor([0.5, -1.5], requires_grad=True)
    (g,) = ag.grad(UNARY[name][0](x).sum(), [x], create_graph=True)
    assert not g.requires_grad


def _second(ours_or_theirs, f, x, upstream, direction, second_order=True):
    """Value, gradient, and the gradient of <gradient, direction> (None if the gradient has no
    graph), by the engine or by PyTorch."""
    if ours_or_theirs == "ours":
        leaf = ag.tensor(x, requires_grad=True)
        y = f(leaf)
        (g,) = ag.grad(y, [leaf], grad_outputs=ag.tensor(upstream), create_graph=True)
        second = None
        if g.requires_grad:
            (h,) = ag.grad((g * ag.tensor(direction)).sum(), [leaf], allow_unused=True)
            second = np.zeros_like(x) if h is None else h.data
        return y.data, g.data, second
    leaf = torch.tensor(x, requires_grad=True)
    y = f(leaf)
    (g,) = torch.autograd.grad(y, leaf, torch.tensor(upstream), create_graph=True)
    second = None
    if g.requires_grad and second_order:
        (h,) = torch.autograd.grad((g * torch.tensor(direction)).sum(), leaf, allow_unused=True)
        second = np.zeros_like(x) if h is None else h.detach().numpy(force=True)
    return y.detach().numpy(), g.detach().numpy(), second


@pytest.mark.torch
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_gradients_and_second_derivatives_match_pytorch(name, dtype, rng):
    ours, theirs, draw, kinks = UNARY[name]
    x = np.concatenate([draw(rng, (12,)), kinks]).astype(dtype)
    upstream = rng.standard_normal(x.shape).astype(dtype)
    direction = rng.standard_normal(x.shape).astype(dtype)
    tolerance = {"rtol": 1e-12, "atol": 1e-12} if dtype == np.float64 else {"rtol": 2e-6,
                                                                             "atol": 1e-6}
    y, g, h = _second("ours", ours, x, upstream, direction)
    ty, tg, th = _second("torch", theirs, x, upstream, direction,
                         second_order=name not in NO_SECOND_IN_TORCH)
    assert y.dtype == g.dtype == dtype
    np.testing.assert_allclose(y, ty, **tolerance, err_msg="value")
    np.testing.assert_allclose(g, tg, **tolerance, err_msg="gradient")
    if name in NO_SECOND_IN_TORCH:
        np.testing.assert_array_equal(h, 0.0)
        return
    assert (h is None) == (th is None), "a second derivative exists in one engine only"
    if h is not None:
        np.testing.assert_allclose(h, th, **tolerance, err_msg="second derivative")


@pytest.mark.torch
@pytest.mark.parametrize("name", UNARY)
def test_forward_mode_matches_pytorch(name, rng):
    ours, theirs, draw, kinks = UNARY[name]
    x = np.concatenate([draw(rng, (6,)), kinks])
    tangent = rng.standard_normal(x.shape)
    _, pushed = ag.func.jvp(ours, [ag.tensor(x)], [ag.tensor(tangent)])
    _, expected = torch.func.jvp(theirs, (torch.tensor(x),), (torch.tensor(tangent),))
    np.testing.assert_allclose(pushed.data, expected.numpy(), rtol=1e-12, atol=1e-12)


def test_pytorch_conventions_at_the_kinks_hold_without_pytorch():
    """The numbers PyTorch gives at the kinks, written out (so they hold where torch is absent)."""
    def slope(f, points):
        x = ag.tensor(points, requires_grad=True)
        f(x).sum().backward()
        return x.grad.data
    np.testing.assert_array_equal(slope(ag.hardtanh, [-1.0, 1.0, 0.0]), [0, 0, 1])
    np.testing.assert_array_equal(slope(ag.relu6, [0.0, 6.0, 3.0]), [0, 0, 1])
    np.testing.assert_allclose(slope(ag.hardswish, [-3.0, 3.0, 0.0]), [0, 1, 0.5])
    np.testing.assert_array_equal(slope(ag.hardsigmoid, [-3.0, 3.0]), [0, 0])
    np.testing.assert_allclose(slope(ag.selu, [0.0]), [1.6732632423543772 * 1.0507009873554805])
    np.testing.assert_allclose(slope(lambda x: ag.elu(x, alpha=0.5), [0.0]), [0.5])
    np.testing.assert_allclose(slope(lambda x: ag.softplus(x, beta=2.0, threshold=3.0),
                                     [1.5, 1.6]), [1 / (1 + math.exp(-3)), 1.0])
    np.testing.assert_array_equal(slope(lambda x: ag.prelu(x, ag.tensor([0.25])), [0.0]), [0.25])


def test_the_second_derivative_of_elu_is_zero_at_zero_as_in_pytorch():
    x = ag.tensor([0.0, -1.0], requires_grad=True)
    (g,) = ag.grad(ag.elu(x).sum(), [x], create_graph=True)
    (h,) = ag.grad(g.sum(), [x])
    np.testing.assert_allclose(h.data, [0.0, math.exp(-1)])


def test_gelu_keeps_the_tail_below_zero_in_float32_too():
    """Φ(x) = erfc(−x/√2)/2: (1 + erf(x/√2))/2 rounds to 0 in float32 already at x = −6. x/√2
    is rounded to float32 first, as in PyTorch, and erfc's tail multiplies that error by x²."""
    x = np.array([-6.0, -10.0, -13.0], dtype=np.float32)
    exact = [float(v * mpmath.ncdf(float(v))) for v in x]
    np.testing.assert_allclose(ag.gelu(ag.tensor(x)).data, exact, rtol=2e-5)  # 1.1e-5 at −13


def test_silu_and_softplus_stay_finite_and_accurate_far_out():
    x = ag.tensor([-800.0, -40.0, 40.0, 800.0], requires_grad=True)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        y = ag.silu(x) + ag.softplus(x) + ag.mish(x)
        y.sum().backward()
    assert np.all(np.isfinite(y.data)) and np.all(np.isfinite(x.grad.data))
    np.testing.assert_allclose(ag.silu(ag.tensor([-40.0])).data, [-40 / (1 + math.exp(40))],
                               rtol=1e-14)


PRELU = [((2, 3), (3,)), ((2, 3), (1,)), ((4, 3, 2, 2), (3,)), ((5,), (1,)), ((), ()),
         ((2, 3, 4), ())]


@pytest.mark.parametrize(("shape_x", "shape_w"), PRELU, ids=str)
def test_prelu_gradients_match_finite_differences(shape_x, shape_w, rng):
    x = away_from(0, low=-2, high=2)(rng, shape_x)
    w = rng.uniform(-0.5, 0.5, shape_w)
    check_gradients(ag.prelu, x, w, rng=rng)
    check_second_order(ag.prelu, x, w, rng=rng)


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    ("name", "ours", "theirs", "shapes"),
    [
        ("atan2", ag.atan2, lambda a, b: torch.atan2(a, b), [((2, 3), (3,)), ((3, 1), (1, 4))]),
        ("lerp", ag.lerp, lambda a, b, w: torch.lerp(a, b, w), [((2, 3), (3,), (2, 1))]),
        ("lerp_number", lambda a, b: ag.lerp(a, b, 0.7), lambda a, b: torch.lerp(a, b, 0.7),
         [((2, 3), (3,))]),
        ("prelu", ag.prelu, lambda x, w: F.prelu(x, w), [((4, 3, 2), (3,)), ((2, 3), (1,)),
                                                          ((5,), (1,))]),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_several_operands_match_pytorch(name, ours, theirs, shapes, dtype, rng):
    for operand_shapes in shapes:
        arrays = [rng.uniform(-2, 2, s).astype(dtype) for s in operand_shapes]
        if name == "prelu":
            arrays[0][..., 0] = 0.0  # the kink: the slope there is the weight
        leaves = [ag.tensor(a, requires_grad=True) for a in arrays]
        tleaves = [torch.tensor(a, requires_grad=True) for a in arrays]
        y, ty = ours(*leaves), theirs(*tleaves)
        upstream = rng.standard_normal(y.shape).astype(dtype)
        tolerance = ({"rtol": 1e-12, "atol": 1e-12} if dtype == np.float64
                     else {"rtol": 1e-5, "atol": 1e-6})
        np.testing.assert_allclose(y.data, ty.detach().numpy(), **tolerance)
        grads = ag.grad(y, leaves, grad_outputs=ag.tensor(upstream), create_graph=True)
        tgrads = torch.autograd.grad(ty, tleaves, torch.tensor(upstream), create_graph=True)
        for g, tg in zip(grads, tgrads, strict=True):
            assert g.dtype == dtype
            np.testing.assert_allclose(g.data, tg.detach().numpy(), **tolerance)
        # second derivatives: of <sum of gradients, V> with respect to every operand
        directions = [rng.standard_normal(a.shape).astype(dtype) for a in arrays]
        s = sum((g * ag.tensor(v)).sum() for g, v in zip(grads, directions) if g.requires_grad)
        ts = sum((g * torch.tensor(v)).sum() for g, v in zip(tgrads, directions)
                 if g.requires_grad)
        if isinstance(ts, int):
            assert isinstance(s, int)
            continue
        seconds = ag.grad(s, leaves, allow_unused=True)
        tseconds = torch.autograd.grad(ts, tleaves, allow_unused=True)
        for h, th in zip(seconds, tseconds, strict=True):
            h = np.zeros(()) if h is None else h.data
            th = np.zeros(()) if th is None else th.detach().numpy(force=True)
            np.testing.assert_allclose(np.broadcast_to(h, np.shape(th) or np.shape(h)), th,
                                       **tolerance)


def test_prelu_refuses_a_weight_that_fits_no_channel_count_and_says_how_many():
    with pytest.raises(ValueError, match=r"prelu: the weight has 2 elements but the input of "
                       r"shape \(4, 3\) has 3 channel\(s\) on axis 1: give it 1 element or 3"):
        ag.prelu(ag.zeros(4, 3), ag.zeros(2))
    with pytest.raises(ValueError, match=r"prelu: the weight must hold 1 element or one per "
                       r"channel \(a 1-D tensor\), got shape \(3, 1\)"):
        ag.prelu(ag.zeros(4, 3), ag.zeros(3, 1))


def test_gelu_names_its_two_approximations():
    with pytest.raises(ValueError, match='gelu: approximate must be "none" or "tanh", got '
                       "'erf'"):
        ag.gelu(ag.zeros(2), approximate="erf")


def test_hardtanh_refuses_crossed_bounds_and_celu_a_zero_alpha():
    with pytest.raises(ValueError, match=r"hardtanh: min_val \(1.0\) cannot be greater than "
                       r"max_val \(-1.0\); swap them"):
        ag.hardtanh(ag.zeros(2), 1.0, -1.0)
    with pytest.raises(ZeroDivisionError, match="celu: alpha must not be 0"):
        ag.celu(ag.zeros(2), alpha=0.0)


def test_activations_are_functions_and_prelu_and_the_math_functions_are_also_methods():
    """As in PyTorch: F.gelu(x), but x.prelu(w), x.erf(), x.lerp(y, w), x.atan2(y)."""
    for name in ("gelu", "elu", "selu", "celu", "softplus", "softsign", "hardtanh", "relu6",
                 "silu", "mish", "hardsigmoid", "hardswish"):
        assert not hasattr(ag.Tensor, name), name
    for name in ("prelu", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "log2",
                 "log10", "exp2", "log1p", "expm1", "rsqrt", "reciprocal", "lerp", "atan2",
                 "floor", "ceil", "trunc", "clone"):
        assert getattr(ag.Tensor, name) is getattr(ag, name), name
