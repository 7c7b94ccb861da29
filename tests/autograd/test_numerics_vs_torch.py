"""Silent numerical differences from PyTorch, each once reproduced: a gradient through a mask, pow
at base 0, sigmoid's tails and the activations built on it, round, casts of 0-d tensors, and the
result dtype of clamp and lerp. PyTorch is the oracle."""

import numpy as np
import pytest

import autograd as ag
import autograd.forward_ad as fwAD
from autograd.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch

TORCH_DTYPE = {np.float32: torch.float32, np.float64: torch.float64}


def both(values, dtype=np.float64, requires_grad=True):
    """The same leaf in each engine."""
    array = np.asarray(values, dtype=dtype)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def same(ours, theirs, rtol=1e-12, atol=0.0):
    """Same dtype and values (NaN and infinities in the same places)."""
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    theirs = theirs.detach().numpy()
    assert ours.dtype == theirs.dtype, f"dtype {ours.dtype}, PyTorch {theirs.dtype}"
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol)


def derivatives(fn, x, upstream):
    """The gradient for ``upstream`` (on arrays), the gradient under create_graph, the second
    derivative (of the gradient's sum; None where PyTorch has none) and the forward-mode tangent
    along ``upstream``, in either engine."""
    if isinstance(x, ag.Tensor):
        (g,) = ag.grad(fn(x), [x], grad_outputs=ag.tensor(upstream))
        (g_graph,) = ag.grad(fn(x).sum(), [x], create_graph=True)
        second = (ag.grad(g_graph.sum(), [x])[0] if g_graph.requires_grad
                  else ag.zeros(x.shape, dtype=x.dtype))
        with fwAD.dual_level():
            tangent = fwAD.unpack_dual(fn(fwAD.make_dual(x.detach(), upstream))).tangent
        return g, g_graph, second, tangent
    upstream = torch.tensor(upstream, dtype=x.dtype)
    (g,) = torch.autograd.grad(fn(x), [x], grad_outputs=upstream)
    (g_graph,) = torch.autograd.grad(fn(x).sum(), [x], create_graph=True)
    try:
        second = (torch.autograd.grad(g_graph.sum(), [x], materialize_grads=True)[0] + 0
                  if g_graph.requires_grad else torch.zeros_like(x))
    except RuntimeError:  # "derivative for aten::hardsigmoid_backward is not implemented"
        second = None
    import torch.autograd.forward_ad as tfwAD

    with tfwAD.dual_level():
        tangent = tfwAD.unpack_dual(fn(tfwAD.make_dual(x.detach(), upstream))).tangent
    return g, g_graph, second, tangent


# --------------------------------------------------------------- 1. a gradient through a mask

# Each op at its kinks, on both sides of them, and at NaN.
MASKED = {
    "relu": (ag.relu, torch.relu, [-1.0, 0.0, 2.0]),
    "clamp": (lambda x: ag.clamp(x, -1.0, 1.0), lambda x: torch.clamp(x, -1.0, 1.0),
              [-2.0, -1.0, 0.0, 1.0, 2.0]),
    "clamp_min": (lambda x: ag.clamp(x, min=0.0), lambda x: torch.clamp(x, min=0.0),
                  [-1.0, 0.0, 1.0]),
    "clip": (lambda x: ag.clip(x, None, 1.0), lambda x: torch.clip(x, None, 1.0),
             [0.0, 1.0, 2.0]),
    "hardtanh": (F.hardtanh, TF.hardtanh, [-2.0, -1.0, 0.0, 1.0, 2.0]),
    "relu6": (F.relu6, TF.relu6, [-1.0, 0.0, 3.0, 6.0, 7.0]),
    "hardsigmoid": (F.hardsigmoid, TF.hardsigmoid, [-4.0, -3.0, 0.0, 3.0, 4.0]),
    "hardswish": (F.hardswish, TF.hardswish, [-4.0, -3.0, 0.0, 3.0, 4.0]),
    "leaky_relu": (F.leaky_relu, TF.leaky_relu, [-1.0, 0.0, 2.0]),
    "leaky_relu_0": (lambda x: F.leaky_relu(x, 0.0), lambda x: TF.leaky_relu(x, 0.0),
                     [-1.0, 0.0, 2.0]),
    "elu": (F.elu, TF.elu, [-1.0, 0.0, 2.0]),
    "celu": (lambda x: F.celu(x, 2.0), lambda x: TF.celu(x, 2.0), [-1.0, 0.0, 2.0]),
    "selu": (F.selu, TF.selu, [-1.0, 0.0, 2.0]),
    "prelu": (lambda x: F.prelu(x, ag.tensor(np.array([0.25], dtype=x.dtype))),
              lambda x: TF.prelu(x, torch.tensor([0.25], dtype=x.dtype)), [-1.0, 0.0, 2.0]),
    "softplus": (F.softplus, TF.softplus, [-1.0, 20.0, 21.0]),
    "abs": (ag.abs, torch.abs, [-1.0, 0.0, 2.0]),
    "sign": (ag.sign, torch.sign, [-1.0, 0.0, 2.0]),
    "floor": (ag.floor, torch.floor, [-1.5, 0.0, 2.5]),
    "ceil": (ag.ceil, torch.ceil, [-1.5, 0.0, 2.5]),
    "trunc": (ag.trunc, torch.trunc, [-1.5, 0.0, 2.5]),
    "round": (ag.round, torch.round, [-1.5, 0.0, 2.5]),
    "maximum": (lambda x: ag.maximum(x, ag.tensor(0.0)),
                lambda x: torch.maximum(x, torch.tensor(0.0, dtype=x.dtype)), [-1.0, 0.0, 2.0]),
    "minimum": (lambda x: ag.minimum(x, ag.tensor(0.0)),
                lambda x: torch.minimum(x, torch.tensor(0.0, dtype=x.dtype)), [-1.0, 0.0, 2.0]),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("upstream", [np.inf, -np.inf, np.nan, 1.5], ids=["inf", "-inf", "nan",
                                                                          "finite"])
@pytest.mark.parametrize("name", list(MASKED))
def test_a_gradient_through_a_mask_is_selected_not_multiplied(name, upstream, dtype):
    """An infinite or NaN gradient where the mask drops it gives 0, as in PyTorch (inf · 0 would be
    NaN); also at NaN inputs, under create_graph (with the second derivative, 0 at the kinks),
    and in forward mode."""
    ours_fn, torch_fn, points = MASKED[name]
    x, tx = both(points + [np.nan], dtype)
    upstream = np.full(x.shape, upstream, dtype=dtype)
    for ours, theirs in zip(derivatives(ours_fn, x, upstream),
                            derivatives(torch_fn, tx, upstream)):
        if theirs is not None:
            same(ours, theirs, rtol=1e-6 if dtype == np.float32 else 1e-12)


def test_sqrt_of_relu_has_the_gradient_0_where_relu_is_flat():
    (x, tx) = both([-1.0, 4.0])
    ag.sqrt(ag.relu(x)).sum().backward()
    torch.sqrt(torch.relu(tx)).sum().backward()
    same(x.grad, tx.grad)  # [0, 0.25]; it was [nan, 0.25]


# ----------------------------------------------------------------------------- 2. pow at base 0


@pytest.mark.parametrize("exponent", [0.0, 1.0, 2.0, 3.0, 0.5])
def test_pow_with_a_number_exponent_differentiates_at_base_0_like_pytorch(exponent):
    """d(x**0)/dx is 0 at 0 and d²(x**1)/dx² is 0 there (both were NaN); third derivatives too."""
    x, tx = both([0.0, 1e-310, 2.0, -1.5])
    upstream = np.ones(x.shape)
    for ours, theirs in zip(derivatives(lambda v: v ** exponent, x, upstream),
                            derivatives(lambda v: v ** exponent, tx, upstream)):
        same(ours, theirs)
    (g,) = ag.grad((x ** exponent).sum(), [x], create_graph=True)
    (tg,) = torch.autograd.grad((tx ** exponent).sum(), [tx], create_graph=True)
    if not tg.requires_grad:
        return
    (g2,) = ag.grad(g.sum(), [x], create_graph=True)
    (tg2,) = torch.autograd.grad(tg.sum(), [tx], create_graph=True, materialize_grads=True)
    same(g2, tg2)
    if tg2.requires_grad:
        same(ag.grad(g2.sum(), [x])[0], torch.autograd.grad(tg2.sum(), [tx])[0])


def test_pow_with_a_tensor_exponent_differentiates_at_base_0_like_pytorch():
    """d(a**b)/da is 0 where b = 0; d(a**b)/db is 0 where a = 0 and b ≥ 0 (it was NaN), for
    tensor operands, under create_graph and in forward mode."""
    (a, ta), (b, tb) = both([0.0, 0.0, 0.0, 0.0, 2.0, 3.0]), both([0.0, 1.0, 2.0, -1.0, 0.0, 0.5])
    (ga, gb), (tga, tgb) = ag.grad((a ** b).sum(), [a, b]), torch.autograd.grad((ta ** tb).sum(),
                                                                               [ta, tb])
    same(ga, tga)
    same(gb, tgb)
    (ga, gb) = ag.grad((a ** b).sum(), [a, b], create_graph=True)
    (tga, tgb) = torch.autograd.grad((ta ** tb).sum(), [ta, tb], create_graph=True)
    same(ga, tga)
    same(gb, tgb)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(ag.tensor(0.0) ** fwAD.make_dual(b.detach(), np.ones(6)))
    import torch.autograd.forward_ad as tfwAD

    with tfwAD.dual_level():
        t_tangent = tfwAD.unpack_dual(0.0 ** tfwAD.make_dual(tb.detach(), torch.ones(6,
                                                             dtype=torch.float64)))
    same(tangent.tangent, t_tangent.tangent)


def test_the_exponent_gradient_of_0_to_the_b_is_0_for_b_at_least_0():
    (b, tb) = both([2.0, 0.0])
    (0.0 ** b).backward(ag.tensor([1.0, 1.0]))
    (0.0 ** tb).backward(torch.ones(2, dtype=torch.float64))
    same(b.grad, tb.grad)


# ---------------------------------------------------------- 3. sigmoid and its family's tails

NEGATIVE = {np.float64: [-100.0, -40.0, -20.0, -5.0], np.float32: [-80.0, -40.0, -20.0, -5.0]}
POSITIVE = [5.0, 20.0, 40.0, 100.0]
# name: (ours, PyTorch's, the points, the derivatives compared); RTOL: where not 1e-12 (float64)
# and 3e-6 (float32), for the reason given.
TAILS = {
    "sigmoid": (ag.sigmoid, torch.sigmoid, None, 2),
    # log(σ(x)) above 0 is log of a number near 1 in either engine; its second derivative is 0 in
    # PyTorch's negative tail: both not compared.
    "log_sigmoid": (lambda x: ag.log(ag.sigmoid(x)), lambda x: torch.log(torch.sigmoid(x)),
                    NEGATIVE, 1),
    "silu": (F.silu, TF.silu, None, 2),
    "softplus": (F.softplus, TF.softplus, None, 2),
    "mish": (F.mish, TF.mish, None, 2),
    # PyTorch's float64 tanh-GELU cancels below −5 (1 + tanh u), so the tail is the sweep's.
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"),
                  lambda x: TF.gelu(x, approximate="tanh"),
                  {np.float64: [-5.0, 5.0], np.float32: [-5.0, 5.0]}, 2),
}
RTOL = {
    ("gelu_tanh", np.float64): 1e-9,  # PyTorch's 1 + tanh(u) at x = −5 keeps 10 digits
    ("mish", np.float32): 1e-4,  # 1 − tanh² of float32's tanh(softplus(5)), as PyTorch's
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", list(TAILS))
def test_the_sigmoid_family_keeps_its_tails(name, dtype):
    """Values, first and second derivatives at large |x| against PyTorch in float64, relative
    where PyTorch is accurate (below 0 and up to 5); above 5 PyTorch's derivatives written with
    1 − σ(x) round to 0 with σ, so there the engine (exact, see test_awkward_points) need only
    agree to 64 ulps of 1. float32 is compared with the same float64 reference, to float32's
    precision: PyTorch's own float32 tanh-GELU is 4 % off in its second derivative at x = ±5,
    where ours was 23 % off."""
    ours_fn, torch_fn, points, orders = TAILS[name]
    points = (points or {d: NEGATIVE[d] + POSITIVE for d in NEGATIVE})[dtype]
    x, _ = both(points, dtype)
    _, tx = both(points, np.float64)
    upstream = np.ones(x.shape, dtype=dtype)
    rtol = RTOL.get((name, dtype), 1e-12 if dtype == np.float64 else 3e-6)
    accurate = (np.array(points) <= 5)
    _, g, g2, _ = derivatives(ours_fn, x, upstream)
    _, tg, tg2, _ = derivatives(torch_fn, tx, upstream.astype(np.float64))
    pairs = ((ours_fn(x), torch_fn(tx)), (g, tg), (g2, tg2))[:orders + 1]
    for ours, theirs in pairs:
        ours, theirs = ours.data.astype(np.float64), theirs.detach().numpy()
        np.testing.assert_allclose(ours[accurate], theirs[accurate], rtol=rtol)
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=64 * np.finfo(dtype).eps)


def test_log_of_sigmoid_keeps_its_float32_tail():
    x, tx = both([-40.0, -80.0], np.float32)
    y, ty = ag.log(ag.sigmoid(x)), torch.log(torch.sigmoid(tx))
    same(y, ty, rtol=1e-6)  # [-40, -80]; it was [-inf, -inf]
    y.sum().backward()
    ty.sum().backward()
    same(x.grad, tx.grad, rtol=1e-6)


# ------------------------------------------------------------------------------------- 4. round


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("decimals", [0, 1, 2, -1, -2])
def test_round_is_recorded_and_rounds_as_pytorch(decimals, dtype):
    """Halves to even, with decimals (2.675 rounds up, as PyTorch's product x·100 does), a
    method and a function, recorded with derivative 0."""
    values = [0.5, 1.5, 2.5, -0.5, -2.5, 2.675, 0.125, 1234.5678, -15.0, 25.0, np.inf, np.nan]
    x, tx = both(values, dtype)
    y, ty = x.round(decimals=decimals), torch.round(tx, decimals=decimals)
    same(y, ty)
    same(ag.round(x, decimals), ty)
    assert y.requires_grad
    (y * 2.0).sum().backward()
    (ty * 2.0).sum().backward()
    same(x.grad, tx.grad)


def test_round_of_an_integer_tensor_is_the_tensor():
    same(ag.tensor(np.array([1, -2, 3])).round(), torch.round(torch.tensor([1, -2, 3])))


# ----------------------------------------------------------------------------- 5. casts of 0-d


CASTS = {
    "float": (lambda x: x.float(), lambda x: x.float()),
    "double": (lambda x: x.double(), lambda x: x.double()),
    "to": (lambda x: x.to(np.float32), lambda x: x.to(torch.float32)),
    "promotion": (lambda x: ag.tensor(np.float32([1.0, 2.0])) * x,
                  lambda x: torch.tensor([1.0, 2.0]) * x),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", list(CASTS))
def test_the_backward_of_a_cast_of_a_0d_tensor_runs(name, dtype):
    """``(x.float() * 3).backward()`` on a 0-d x raised AttributeError (a 0-d gradient is a NumPy
    scalar); also to(), double() and the implicit cast of a 0-d operand, and in second order."""
    ours_fn, torch_fn = CASTS[name]
    x, tx = both(2.0, dtype)
    y, ty = (ours_fn(x) * 3.0) ** 2, (torch_fn(tx) * 3.0) ** 2
    same(y, ty)
    y.sum().backward()
    ty.sum().backward()
    same(x.grad, tx.grad)
    (g,) = ag.grad(((ours_fn(x) * 3.0) ** 2).sum(), [x], create_graph=True)
    (tg,) = torch.autograd.grad(((torch_fn(tx) * 3.0) ** 2).sum(), [tx], create_graph=True)
    same(g, tg)
    same(ag.grad(g, [x])[0], torch.autograd.grad(tg, [tx])[0])


# ----------------------------------------------------------------- 6. the dtypes of clamp and lerp

SHAPES_AND_DTYPES = [((), np.float32), ((2,), np.float32), ((), np.float64), ((2,), np.float64)]


def _leaf(shape, dtype):
    return both(np.full(shape, 0.25), dtype)


@pytest.mark.parametrize("bounds", [(True, True), (True, False), (False, True)],
                         ids=["both", "min", "max"])
@pytest.mark.parametrize("x_kind", SHAPES_AND_DTYPES, ids=str)
@pytest.mark.parametrize("low_kind", SHAPES_AND_DTYPES, ids=str)
@pytest.mark.parametrize("high_kind", SHAPES_AND_DTYPES, ids=str)
def test_clamp_by_tensors_has_pytorchs_result_and_gradient_dtypes(x_kind, low_kind, high_kind,
                                                                  bounds):
    """A 0-d bound does not raise a dimensioned x's dtype within its category (float32 x with a
    float64 0-d bound is float32), and each gradient comes back in its operand's dtype."""
    (x, tx), (low, tlow), (high, thigh) = _leaf(*x_kind), _leaf(*low_kind), _leaf(*high_kind)
    low, tlow = (low, tlow) if bounds[0] else (None, None)
    high, thigh = (high, thigh) if bounds[1] else (None, None)
    try:
        ty = torch.clamp(tx, tlow, thigh)
        ty.sum().backward()
    except RuntimeError:  # PyTorch refuses a 0-d x with dimensioned bounds
        return
    y = ag.clamp(x, low, high)
    y.sum().backward()
    same(y, ty)
    for ours, theirs in ((x, tx), (low, tlow), (high, thigh)):
        if theirs is not None and theirs.grad is not None:
            same(ours.grad, theirs.grad)


@pytest.mark.parametrize("a_kind", SHAPES_AND_DTYPES, ids=str)
@pytest.mark.parametrize("end_kind", SHAPES_AND_DTYPES, ids=str)
@pytest.mark.parametrize("weight_kind", SHAPES_AND_DTYPES, ids=str)
def test_lerp_has_pytorchs_result_and_gradient_dtypes(a_kind, end_kind, weight_kind):
    (a, ta), (end, tend), (weight, tweight) = (_leaf(*a_kind), _leaf(*end_kind),
                                               _leaf(*weight_kind))
    try:
        ty = torch.lerp(ta, tend, tweight)
        ty.sum().backward()
    except RuntimeError:  # an end, or a weight not 0-d, of another dtype than a: ours refuses too
        with pytest.raises(TypeError, match="lerp: expected dtype"):
            ag.lerp(a, end, weight)  # ran in float64 before
        return
    y = ag.lerp(a, end, weight)
    y.sum().backward()
    same(y, ty)
    for ours, theirs in ((a, ta), (end, tend), (weight, tweight)):
        same(ours.grad, theirs.grad)


def test_lerp_with_a_number_weight_keeps_float32():
    (a, ta), (end, tend) = _leaf((2,), np.float32), _leaf((2,), np.float32)
    same(ag.lerp(a, end, 0.75), torch.lerp(ta, tend, 0.75))
