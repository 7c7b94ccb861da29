"""Convolution and pooling against PyTorch: values and gradients in float32 and float64 over
strides, paddings ("same" and "valid" too), dilations, groups, odd sizes, batch 1 and unbatched
input; second derivatives and forward mode; finite differences; and error messages that name the
op, the shapes and the fix."""

import re

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = [pytest.mark.torch,
              pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel")]

TOLERANCE = {np.float64: {"rtol": 1e-10, "atol": 1e-10}, np.float32: {"rtol": 2e-4, "atol": 2e-4}}
DTYPES = [np.float64, np.float32]


def compare(ours, theirs, arrays, dtype, seed=0):
    """Run ``ours`` and ``theirs`` on the same arrays in ``dtype``; compare the output and every
    input's gradient under one random upstream gradient."""
    arrays = [np.asarray(a, dtype=dtype) for a in arrays]
    mine = [ag.tensor(a, requires_grad=True) for a in arrays]
    reference = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, expected = ours(*mine), theirs(*reference)
    tol = TOLERANCE[dtype]
    assert out.shape == tuple(expected.shape)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.data, expected.detach().numpy(), **tol)
    upstream = np.random.default_rng(seed).standard_normal(out.shape).astype(dtype)
    out.backward(upstream)
    expected.backward(torch.tensor(upstream))
    for i, (a, b) in enumerate(zip(mine, reference, strict=True)):
        assert a.grad.dtype == dtype, f"gradient {i} dtype"
        np.testing.assert_allclose(a.grad.data, b.grad.numpy(), err_msg=f"gradient {i}", **tol)


def randn(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


CONV2D = [
    ({}, (2, 3, 5, 5), (4, 3, 3, 3)),
    ({"stride": 2}, (2, 3, 7, 6), (4, 3, 3, 3)),
    ({"stride": (2, 3), "padding": (1, 2)}, (1, 2, 7, 8), (3, 2, 3, 2)),
    ({"padding": 1, "dilation": 2}, (2, 2, 6, 7), (2, 2, 3, 3)),
    ({"dilation": (1, 3), "stride": (1, 2)}, (1, 1, 5, 9), (2, 1, 2, 2)),
    ({"groups": 2}, (2, 4, 5, 5), (6, 2, 3, 3)),
    ({"groups": 3, "padding": 1}, (1, 3, 4, 5), (3, 1, 3, 3)),  # depthwise
    ({"padding": "same"}, (2, 3, 5, 6), (4, 3, 3, 3)),
    ({"padding": "same"}, (1, 2, 5, 4), (2, 2, 2, 4)),  # even kernels: the extra pad after
    ({"padding": "same", "dilation": 2}, (1, 2, 6, 5), (3, 2, 2, 3)),
    ({"padding": "valid"}, (2, 3, 5, 5), (4, 3, 3, 3)),
    ({"stride": 3, "padding": 2}, (1, 1, 4, 4), (1, 1, 4, 4)),  # kernel as large as the input
    ({}, (3, 1, 1, 1), (2, 1, 1, 1)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("settings", "x_shape", "w_shape"), CONV2D)
def test_conv2d_matches_torch_in_value_and_gradients(settings, x_shape, w_shape, dtype):
    arrays = [randn(*x_shape), randn(*w_shape, seed=1), randn(w_shape[0], seed=2)]
    compare(lambda x, w, b: ag.conv2d(x, w, b, **settings),
            lambda x, w, b: F.conv2d(x, w, b, **settings), arrays, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_conv2d_without_bias_and_on_an_unbatched_image_matches_torch(dtype):
    compare(lambda x, w: ag.conv2d(x, w, padding=1, stride=2),
            lambda x, w: F.conv2d(x, w, padding=1, stride=2),
            [randn(3, 5, 6), randn(2, 3, 3, 3, seed=1)], dtype)


CONV1D = [
    ({}, (2, 3, 7), (4, 3, 3)),
    ({"stride": 2, "padding": 1}, (1, 2, 8), (3, 2, 3)),
    ({"dilation": 3, "padding": "same"}, (2, 2, 9), (2, 2, 2)),
    ({"groups": 2, "padding": "valid"}, (2, 4, 5), (2, 2, 2)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("settings", "x_shape", "w_shape"), CONV1D)
def test_conv1d_matches_torch_in_value_and_gradients(settings, x_shape, w_shape, dtype):
    arrays = [randn(*x_shape), randn(*w_shape, seed=1), randn(w_shape[0], seed=2)]
    compare(lambda x, w, b: ag.conv1d(x, w, b, **settings),
            lambda x, w, b: F.conv1d(x, w, b, **settings), arrays, dtype)


def test_conv1d_takes_an_unbatched_signal():
    compare(lambda x, w: ag.conv1d(x, w), lambda x, w: F.conv1d(x, w),
            [randn(3, 6), randn(2, 3, 2, seed=1)], np.float64)


POOLS = [
    {"kernel_size": 2},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": (2, 3), "stride": (1, 2)},
    {"kernel_size": 3, "stride": 2, "ceil_mode": True},
    {"kernel_size": 2, "stride": 2, "padding": 1, "ceil_mode": True},
    {"kernel_size": 2, "stride": 1},  # overlapping windows
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("settings", POOLS)
@pytest.mark.parametrize("shape", [(2, 3, 7, 6), (1, 1, 5, 5), (2, 4, 4)])
def test_max_pool2d_matches_torch(settings, shape, dtype):
    compare(lambda x: ag.max_pool2d(x, **settings), lambda x: F.max_pool2d(x, **settings),
            [randn(*shape)], dtype)


@pytest.mark.parametrize("settings", [{"kernel_size": 2, "dilation": 2},
                                      {"kernel_size": 3, "padding": 1, "dilation": (2, 1)}])
def test_max_pool2d_with_dilation_matches_torch(settings):
    compare(lambda x: ag.max_pool2d(x, **settings), lambda x: F.max_pool2d(x, **settings),
            [randn(2, 2, 7, 6)], np.float64)


@pytest.mark.parametrize("settings", POOLS)
def test_max_pool2d_returns_torchs_indices(settings):
    x = randn(2, 3, 7, 6)
    out, indices = ag.max_pool2d(ag.tensor(x), return_indices=True, **settings)
    expected, expected_indices = F.max_pool2d(torch.tensor(x), return_indices=True, **settings)
    np.testing.assert_array_equal(out.data, expected.numpy())
    np.testing.assert_array_equal(indices.data, expected_indices.numpy())
    assert indices.dtype == np.int64 and not indices.requires_grad


def test_max_pool2d_sends_the_gradient_to_the_first_of_tied_maxima_as_torch_does():
    x = np.array([[[[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0], [0.0, 3.0, 3.0, 0.0],
                    [3.0, 0.0, 3.0, 3.0]]]])
    for stride in (1, 2):
        compare(lambda t, s=stride: ag.max_pool2d(t, 2, stride=s),
                lambda t, s=stride: F.max_pool2d(t, 2, stride=s), [x], np.float64)


def test_max_pool2d_picks_nan_and_minus_infinity_where_torch_does():
    x = np.array([[[[np.nan, 1.0, 2.0], [1.0, np.nan, -np.inf], [-np.inf, -np.inf, 5.0]]]])
    for settings in ({"kernel_size": 2, "stride": 1}, {"kernel_size": 3, "padding": 1},
                     {"kernel_size": 2, "padding": 1, "stride": 2}):
        out, indices = ag.max_pool2d(ag.tensor(x), return_indices=True, **settings)
        expected, expected_indices = F.max_pool2d(torch.tensor(x), return_indices=True,
                                                  **settings)
        np.testing.assert_array_equal(out.data, expected.numpy())
        np.testing.assert_array_equal(indices.data, expected_indices.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("settings", POOLS)
@pytest.mark.parametrize("extra", [{}, {"count_include_pad": False}, {"divisor_override": 3}])
def test_avg_pool2d_matches_torch(settings, extra, dtype):
    compare(lambda x: ag.avg_pool2d(x, **settings, **extra),
            lambda x: F.avg_pool2d(x, **settings, **extra), [randn(2, 3, 7, 6)], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("output_size", [1, 3, (2, 4), (None, 2), (5, 5), (7, 6), (9, 11)])
def test_adaptive_avg_pool2d_matches_torch(output_size, dtype):
    compare(lambda x: ag.adaptive_avg_pool2d(x, output_size),
            lambda x: F.adaptive_avg_pool2d(x, output_size), [randn(2, 3, 7, 6)], dtype)


def test_adaptive_avg_pool2d_takes_an_unbatched_image():
    compare(lambda x: ag.adaptive_avg_pool2d(x, (2, 3)),
            lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [randn(3, 5, 7)], np.float64)


PADS = [
    ((1, 2), "constant", (2, 3, 4, 5)),
    ((1, 2, 3, 0), "constant", (2, 3, 4, 5)),
    ((-1, 2, 0, -2), "constant", (2, 3, 4, 5)),  # negative amounts crop
    ((1, 1, 1, 1, 1, 1), "constant", (2, 3, 4, 5)),
    ((2,) * 8, "constant", (2, 3, 4, 5)),
    ((1, 2), "reflect", (3, 5)),
    ((2, 1, 3, 2), "reflect", (2, 3, 4, 5)),
    ((-1, 2), "reflect", (2, 3, 5)),
    ((2, 1, 3, 5), "replicate", (2, 3, 4, 5)),
    ((7, 1), "replicate", (2, 5)),
    ((4, 1, 1, 4), "circular", (1, 2, 4, 5)),
    ((-1, 5), "circular", (2, 3, 6)),
    ((1, 1, 2, 0, 0, 1), "reflect", (1, 2, 3, 4, 5)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("pad", "mode", "shape"), PADS)
def test_pad_matches_torch(pad, mode, shape, dtype):
    compare(lambda x: ag.pad(x, pad, mode=mode), lambda x: F.pad(x, pad, mode=mode),
            [randn(*shape)], dtype)


def test_constant_pad_fills_with_value_and_a_list_works_as_a_tuple():
    compare(lambda x: ag.pad(x, [1, 0, 0, 2], value=-2.5),
            lambda x: F.pad(x, [1, 0, 0, 2], value=-2.5), [randn(2, 3)], np.float64)


UNFOLDS = [
    {"kernel_size": 2},
    {"kernel_size": (2, 3), "stride": (1, 2), "padding": 1},
    {"kernel_size": 3, "dilation": 2, "padding": (2, 1), "stride": 2},
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("settings", UNFOLDS)
def test_unfold_and_fold_match_torch(settings, dtype):
    x = randn(2, 3, 7, 6)
    compare(lambda t: ag.unfold(t, **settings), lambda t: F.unfold(t, **settings), [x], dtype)
    columns = F.unfold(torch.tensor(x), **settings).numpy()
    compare(lambda c: ag.fold(c, (7, 6), **settings), lambda c: F.fold(c, (7, 6), **settings),
            [columns], dtype)


def test_unfold_and_fold_take_unbatched_input():
    compare(lambda t: ag.unfold(t, 2, stride=2), lambda t: F.unfold(t, 2, stride=2),
            [randn(3, 4, 6)], np.float64)
    compare(lambda c: ag.fold(c, (4, 6), 2, stride=2), lambda c: F.fold(c, (4, 6), 2, stride=2),
            [randn(12, 6)], np.float64)


def test_a_convolution_is_unfold_then_a_matrix_product():
    x, w = randn(2, 3, 5, 6), randn(4, 3, 3, 3, seed=1)
    columns = ag.unfold(ag.tensor(x), 3, padding=1)
    by_hand = (ag.tensor(w.reshape(4, -1)) @ columns).reshape(2, 4, 5, 6)
    np.testing.assert_allclose(by_hand.data, ag.conv2d(ag.tensor(x), ag.tensor(w),
                                                       padding=1).data, rtol=1e-12)


# --- derivatives of derivatives, forward mode, finite differences ------------------------------


def _torch_second_order(op, torch_op, arrays):
    """Gradients of sum(g_i^2) + sum(g_i^3) (g the first gradients of sum(op(x)^2 * u)), ours
    and torch's."""
    upstream = randn(*torch_op(*[torch.tensor(a) for a in arrays]).shape, seed=5)
    results = []
    for engine, fn, make in ((ag, op, ag.tensor), (torch.autograd, torch_op, torch.tensor)):
        leaves = [make(a, requires_grad=True) for a in arrays]
        out = fn(*leaves)
        loss = (out * out * make(upstream)).sum()
        grads = engine.grad(loss, leaves, create_graph=True)
        total = grads[0] * grads[0]
        total = total.sum() + sum((g * g * g).sum() for g in grads[1:])
        total.backward()
        results.append([leaf.grad for leaf in leaves])
    return results


@pytest.mark.parametrize("settings", [{"padding": 1}, {"stride": 2, "dilation": (1, 2)},
                                      {"groups": 2, "padding": "same"}])
def test_conv2d_second_derivatives_match_torch(settings):
    groups = settings.get("groups", 1)
    arrays = [randn(2, 4, 5, 5), randn(4, 4 // groups, 3, 3, seed=1), randn(4, seed=2)]
    ours, theirs = _torch_second_order(lambda x, w, b: ag.conv2d(x, w, b, **settings),
                                       lambda x, w, b: F.conv2d(x, w, b, **settings), arrays)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.data, b.numpy(), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize(("op", "torch_op"), [
    (lambda x: ag.max_pool2d(x, 3, stride=2, padding=1),
     lambda x: F.max_pool2d(x, 3, stride=2, padding=1)),
    (lambda x: ag.avg_pool2d(x, 3, stride=2, ceil_mode=True),
     lambda x: F.avg_pool2d(x, 3, stride=2, ceil_mode=True)),
    (lambda x: ag.adaptive_avg_pool2d(x, (3, 2)), lambda x: F.adaptive_avg_pool2d(x, (3, 2))),
    (lambda x: ag.pad(x, (1, 2, 2, 1), mode="reflect"),
     lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect")),
    (lambda x: ag.unfold(x, 2, padding=1), lambda x: F.unfold(x, 2, padding=1)),
])
def test_second_derivatives_through_pooling_padding_and_unfold_match_torch(op, torch_op):
    ours, theirs = _torch_second_order(op, torch_op, [randn(2, 2, 5, 6)])
    np.testing.assert_allclose(ours[0].data, theirs[0].numpy(), rtol=1e-9, atol=1e-9)


FUNCTIONS = [
    ("conv2d", lambda x, w, b: ag.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2),
                                         groups=2),
     lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2),
     [(2, 4, 5, 6), (4, 2, 3, 2), (4,)]),
    ("conv1d", lambda x, w: ag.conv1d(x, w, padding="same"),
     lambda x, w: F.conv1d(x, w, padding="same"), [(1, 2, 6), (3, 2, 3)]),
    ("conv2d unbatched", lambda x, w: ag.conv2d(x, w, stride=2),
     lambda x, w: F.conv2d(x, w, stride=2), [(2, 5, 5), (3, 2, 2, 2)]),
    ("max_pool2d", lambda x: ag.max_pool2d(x, 2, stride=1), lambda x: F.max_pool2d(x, 2, stride=1),
     [(2, 2, 4, 5)]),
    ("avg_pool2d", lambda x: ag.avg_pool2d(x, 3, padding=1, stride=2),
     lambda x: F.avg_pool2d(x, 3, padding=1, stride=2), [(2, 2, 5, 4)]),
    ("adaptive_avg_pool2d", lambda x: ag.adaptive_avg_pool2d(x, 3),
     lambda x: F.adaptive_avg_pool2d(x, 3), [(1, 2, 5, 4)]),
    ("pad constant", lambda x: ag.pad(x, (1, -1, 2, 0), value=0.5),
     lambda x: F.pad(x, (1, -1, 2, 0), value=0.5), [(2, 3, 4)]),
    ("pad circular", lambda x: ag.pad(x, (2, 1), mode="circular"),
     lambda x: F.pad(x, (2, 1), mode="circular"), [(2, 3, 4)]),
    ("unfold", lambda x: ag.unfold(x, 2, stride=(1, 2)), lambda x: F.unfold(x, 2, stride=(1, 2)),
     [(1, 2, 4, 5)]),
    ("fold", lambda c: ag.fold(c, (3, 4), 2), lambda c: F.fold(c, (3, 4), 2), [(1, 8, 6)]),
]


@pytest.mark.parametrize(("name", "op", "torch_op", "shapes"), FUNCTIONS,
                         ids=[f[0] for f in FUNCTIONS])
def test_forward_mode_matches_torch_func_jvp(name, op, torch_op, shapes):
    arrays = [randn(*s, seed=i) for i, s in enumerate(shapes)]
    tangents = [randn(*s, seed=10 + i) for i, s in enumerate(shapes)]
    value, pushed = ag.func.jvp(op, [ag.tensor(a) for a in arrays],
                                [ag.tensor(t) for t in tangents])
    expected_value, expected = torch.func.jvp(torch_op, tuple(torch.tensor(a) for a in arrays),
                                              tuple(torch.tensor(t) for t in tangents))
    np.testing.assert_allclose(value.data, expected_value.numpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(pushed.data, expected.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize(("name", "op", "torch_op", "shapes"), FUNCTIONS,
                         ids=[f[0] for f in FUNCTIONS])
def test_gradients_match_finite_differences_with_a_random_upstream(name, op, torch_op, shapes,
                                                                   rng):
    arrays = [randn(*s, seed=i) for i, s in enumerate(shapes)]
    if name == "max_pool2d":  # keep every window's maximum clear of the others
        arrays[0] = rng.permutation(arrays[0].size).reshape(shapes[0]) / 4.0
    check_gradients(op, *arrays, rng=rng)


@pytest.mark.parametrize("settings", [{"padding": 1, "groups": 2}, {"stride": 2}])
def test_conv2d_second_derivatives_match_finite_differences(settings, rng):
    def f(x, w, b):
        return ag.conv2d(x, w, b, **settings) ** 2

    groups = settings.get("groups", 1)
    check_second_order(f, randn(1, 2, 4, 4), randn(2, 2 // groups, 2, 2, seed=1),
                       randn(2, seed=2), rng=rng)


def test_gradients_of_linear_ops_carry_no_graph_when_the_upstream_is_constant():
    x = ag.tensor(randn(1, 2, 4, 4), requires_grad=True)
    for op in (lambda t: ag.max_pool2d(t, 2), lambda t: ag.avg_pool2d(t, 2),
               lambda t: ag.pad(t, (1, 1, 1, 1), mode="replicate"), lambda t: ag.unfold(t, 2),
               lambda t: ag.adaptive_avg_pool2d(t, 3)):
        out = op(x)
        (grad,) = ag.grad(out, [x], grad_outputs=ag.ones_like(out), create_graph=True)
        assert not grad.requires_grad


def test_float32_stays_float32_through_forward_and_backward():
    x = ag.tensor(randn(1, 2, 5, 5).astype(np.float32), requires_grad=True)
    w = ag.tensor(randn(3, 2, 3, 3).astype(np.float32), requires_grad=True)
    y = ag.max_pool2d(ag.conv2d(ag.pad(x, (1, 1, 1, 1), mode="reflect"), w), 2)
    y = ag.adaptive_avg_pool2d(ag.avg_pool2d(y, 1), 1)
    y.sum().backward()
    assert {y.dtype, x.grad.dtype, w.grad.dtype} == {np.dtype(np.float32)}


# --- errors -------------------------------------------------------------------------------------


ERRORS = [
    (lambda: ag.conv2d(ag.zeros(2, 3, 5, 5), ag.zeros(4, 2, 3, 3)),
     "conv2d: input of shape (2, 3, 5, 5) has 3 channels (axis -3), but the weight of shape "
     "(4, 2, 3, 3) with groups=1 expects 2"),
    (lambda: ag.conv2d(ag.zeros(5, 5), ag.zeros(1, 1, 3, 3)),
     "conv2d: expected a 3-D (unbatched: C, H, W) or 4-D (batched: N, C, H, W) input, got shape "
     "(5, 5)"),
    (lambda: ag.conv2d(ag.zeros(1, 1, 5, 5), ag.zeros(3, 3)),
     "conv2d: the weight must be 4-D (out_channels, in_channels / groups, kH, kW), got shape "
     "(3, 3)"),
    (lambda: ag.conv2d(ag.zeros(1, 4, 5, 5), ag.zeros(3, 2, 3, 3), groups=2),
     "conv2d: groups=2 splits the weight's 3 output channels"),
    (lambda: ag.conv2d(ag.zeros(1, 3, 5, 5), ag.zeros(4, 3, 3, 3), ag.zeros(3)),
     "conv2d: the bias must have shape (4,), one value per output channel of the weight of "
     "shape (4, 3, 3, 3), got (3,)"),
    (lambda: ag.conv2d(ag.zeros(1, 3, 2, 2), ag.zeros(4, 3, 3, 3)),
     "conv2d: the padded input is 2 x 2 per channel, smaller than the kernel's reach 3 x 3"),
    (lambda: ag.conv2d(ag.zeros(1, 3, 5, 5), ag.zeros(4, 3, 3, 3), padding="same", stride=2),
     "conv2d: padding='same' is not supported for strided convolutions"),
    (lambda: ag.conv2d(ag.zeros(1, 3, 5, 5), ag.zeros(4, 3, 3, 3), padding="full"),
     "conv2d: padding must be a number, a tuple, 'same' or 'valid', got 'full'"),
    (lambda: ag.conv2d(ag.zeros(1, 3, 5, 5), ag.zeros(4, 3, 3, 3), stride=0),
     "conv2d: stride must be positive, got 0"),
    (lambda: ag.conv2d(ag.zeros(1, 3, 5, 5), ag.zeros(4, 3, 3, 3), stride=(1, 1, 1)),
     "conv2d: stride must be a whole number or 2 of them, got (1, 1, 1)"),
    (lambda: ag.conv1d(ag.zeros(1, 3, 5), ag.zeros(4, 3, 3, 3)),
     "conv1d: the weight must be 3-D (out_channels, in_channels / groups, k)"),
    (lambda: ag.max_pool2d(ag.zeros(1, 1, 5, 5), 3, padding=2),
     "max_pool2d: padding 2 is more than half the window (kernel_size 3, dilation 1)"),
    (lambda: ag.max_pool2d(ag.zeros(1, 1, 2, 2), 3),
     "max_pool2d: input of shape (1, 1, 2, 2) is too small for kernel_size (3, 3)"),
    (lambda: ag.max_pool2d(ag.zeros(5, 5), 2),
     "max_pool2d: expected a 3-D (unbatched: C, H, W) or 4-D (batched: N, C, H, W) input"),
    (lambda: ag.avg_pool2d(ag.zeros(1, 1, 4, 4), 2, divisor_override=0),
     "avg_pool2d: divisor_override must be a positive whole number, got 0"),
    (lambda: ag.adaptive_avg_pool2d(ag.zeros(1, 1, 4, 4), (1, 2, 3)),
     "adaptive_avg_pool2d: output_size must be an int or a pair"),
    (lambda: ag.pad(ag.zeros(2, 5), (1, 2, 3)),
     "pad: pad=(1, 2, 3) has an odd length; it lists (before, after) pairs, last axis first"),
    (lambda: ag.pad(ag.zeros(5), (1, 1, 1, 1)),
     "pad: pad=(1, 1, 1, 1) pads 2 axes, but the input of shape (5,) has only 1"),
    (lambda: ag.pad(ag.zeros(2, 5), (1, 1), mode="wrap"),
     "pad: mode must be one of 'constant', 'reflect', 'replicate', 'circular', got 'wrap'"),
    (lambda: ag.pad(ag.zeros(2, 2, 5), (5, 1), mode="reflect"),
     "pad: mode 'reflect' can pad axis 2 (size 5) by at most 4 on each side, got (5, 1)"),
    (lambda: ag.pad(ag.zeros(5), (1, 1), mode="reflect"),
     "pad: mode 'reflect' pads 1 axes of a 2-D (unbatched) or 3-D (batched) input"),
    (lambda: ag.pad(ag.zeros(2, 5), (1, 1), mode="reflect", value=1.0),
     'pad: mode "reflect" takes no value'),
    (lambda: ag.pad(ag.zeros(2, 5), (-3, -3)),
     "pad: pad=(-3, -3) crops more than axis 1 holds"),
    (lambda: ag.fold(ag.zeros(1, 5, 4), (3, 3), 2),
     "fold: input of shape (1, 5, 4) must be (N, C * 4, 4)"),
    (lambda: ag.unfold(ag.zeros(5, 5), 2),
     "unfold: expected a 3-D (unbatched: C, H, W) or 4-D (batched: N, C, H, W) input"),
]


@pytest.mark.parametrize(("call", "message"), ERRORS, ids=[m[:40] for _, m in ERRORS])
def test_errors_name_the_op_the_shapes_and_the_fix(call, message):
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        call()
    text = str(info.value)
    assert len(text) < 600
    assert "; " in text, "the message should end with what to do"


def test_the_errors_torch_raises_are_raised_here_too():
    """Every call above fails in PyTorch as well (as RuntimeError or similar): no silent
    difference."""
    cases = [
        lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(4, 2, 3, 3)),
        lambda: F.conv2d(torch.zeros(1, 3, 2, 2), torch.zeros(4, 3, 3, 3)),
        lambda: F.conv2d(torch.zeros(1, 3, 5, 5), torch.zeros(4, 3, 3, 3), padding="same",
                         stride=2),
        lambda: F.max_pool2d(torch.zeros(1, 1, 5, 5), 3, padding=2),
        lambda: F.pad(torch.zeros(2, 2, 5), (5, 1), mode="reflect"),
        lambda: F.pad(torch.zeros(5), (1, 1), mode="reflect"),
    ]
    for call in cases:
        with pytest.raises((RuntimeError, ValueError, NotImplementedError)):
            call()


def test_result_shape_predicts_every_ops_output_without_computing():
    from autograd.ops.conv import result_shape

    x, w = ag.zeros(2, 3, 7, 6), ag.zeros(4, 3, 3, 2)
    calls = [
        ("conv2d", (x, w), {"stride": 2, "padding": "valid"}),
        ("conv1d", (ag.zeros(3, 9), ag.zeros(2, 3, 4)), {"dilation": 2}),
        ("max_pool2d", (x,), {"kernel_size": 3, "stride": 2, "ceil_mode": True}),
        ("avg_pool2d", (x,), {"kernel_size": 2, "padding": 1}),
        ("adaptive_avg_pool2d", (x,), {"output_size": (None, 4)}),
        ("pad", (x,), {"pad": (1, -2, 0, 3)}),
        ("unfold", (x,), {"kernel_size": 2, "stride": 2}),
        ("fold", (ag.zeros(2, 12, 9),), {"output_size": (7, 6), "kernel_size": 2,
                                          "stride": 2}),
    ]
    for name, operands, settings in calls:
        expected = getattr(ag, name)(*operands, **settings).shape
        assert result_shape(name, *[t.shape for t in operands], **settings) == expected, name
    with pytest.raises(ValueError, match="conv2d: input of shape"):
        result_shape("conv2d", (1, 2, 5, 5), (4, 3, 3, 3))
