"""Ops that once differed from PyTorch without an error: each case runs the same code in both
engines and compares values, gradients, dtypes, and whether a second derivative exists."""

import numpy as np
import pytest

import autograd as ag

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def both(array, requires_grad=True):
    array = np.asarray(array, dtype=np.float64)
    return (ag.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def assert_same(ours, theirs, what=""):
    if isinstance(theirs, torch.Tensor):
        theirs = theirs.detach().clone().numpy(force=True)
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert ours.shape == theirs.shape, what
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, err_msg=what)


def test_permute_with_negative_axes_of_equal_sizes_sends_the_gradient_back_permuted():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((2, 2, 2))
    x, tx = both(np.arange(8.0).reshape(2, 2, 2))
    (x.permute(-1, 0, 1) * w).sum().backward()
    (tx.permute(-1, 0, 1) * torch.tensor(w)).sum().backward()
    assert_same(x.grad, tx.grad)


@pytest.mark.parametrize("shape", [(2, 3, 4), (3, 3, 3), (4, 5)])
@pytest.mark.parametrize("axes", [(-1, 0, 1), (2, -3, -2), (1, -1, 0)])
def test_permute_matches_torch_in_value_and_gradient(shape, axes):
    axes = axes[: len(shape)] if len(shape) == 3 else (-1, 0)
    rng = np.random.default_rng(1)
    x, tx = both(rng.standard_normal(shape))
    upstream = rng.standard_normal(tx.permute(*axes).shape)
    y, ty = x.permute(*axes), tx.permute(*axes)
    assert_same(y, ty)
    y.backward(upstream)
    ty.backward(torch.tensor(upstream))
    assert_same(x.grad, tx.grad)


TRANSPOSES = [
    ("no arguments swaps the last two", lambda t: t.transpose(), lambda t: t.mT),
    ("a pair swaps those two", lambda t: t.transpose(0, 2), lambda t: t.transpose(0, 2)),
    ("a tuple pair", lambda t: t.transpose((1, 2)), lambda t: t.transpose(1, 2)),
    ("negative pair", lambda t: t.transpose(-1, 0), lambda t: t.transpose(-1, 0)),
    ("three axes permute", lambda t: t.transpose(2, 0, 1), lambda t: t.permute(2, 0, 1)),
    (".T reverses", lambda t: t.T, lambda t: t.permute(2, 1, 0)),
    (".mT swaps the last two", lambda t: t.mT, lambda t: t.mT),
    ("function form", lambda t: ag.transpose(t, 1, 2), lambda t: torch.transpose(t, 1, 2)),
]


@pytest.mark.parametrize(("what", "ours", "theirs"), TRANSPOSES, ids=[t[0] for t in TRANSPOSES])
def test_transpose_follows_one_rule_at_rank_three(what, ours, theirs):
    rng = np.random.default_rng(2)
    x, tx = both(rng.standard_normal((2, 3, 4)))
    y, ty = ours(x), theirs(tx)
    assert_same(y, ty, what)
    upstream = rng.standard_normal(y.shape)
    y.backward(upstream)
    ty.backward(torch.tensor(upstream))
    assert_same(x.grad, tx.grad, what)


def test_transpose_of_a_matrix_swaps_its_axes_whatever_the_spelling():
    x, tx = both([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for y in (x.transpose(), x.transpose(0, 1), x.transpose(1, 0), x.transpose((0, 1)), x.T):
        assert_same(y, tx.transpose(0, 1))


def test_transpose_leaves_scalars_and_vectors_unchanged():
    for value in (2.0, [1.0, 2.0, 3.0]):
        x, tx = both(value)
        assert_same(x.transpose(), tx)


def test_to_float32_keeps_the_gradient_and_casts_it_back_to_float64():
    x, tx = both([0.5, -1.25, 2.0])
    y, ty = x.to(np.float32), tx.to(torch.float32)
    assert y.dtype == np.float32 and y.requires_grad
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    assert x.grad.dtype == np.float64
    assert_same(x.grad, tx.grad.double())


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


@pytest.mark.parametrize("cast", ["int", "long", "bool"])
def test_integer_and_bool_casts_are_constants(cast):
    x, tx = both([1.5, -2.0, 0.0])
    y, ty = getattr(x, cast)(), getattr(tx, cast)()
    assert not y.requires_grad and not ty.requires_grad
    np.testing.assert_array_equal(y.data, ty.numpy())


def test_astype_stays_numpygrads_untracked_cast():
    x, _ = both([1.5, 2.5])
    y = x.astype(np.float32)
    assert y.dtype == np.float32 and not y.requires_grad and y.grad_fn is None


def test_sign_is_recorded_with_a_zero_gradient():
    x, tx = both([-2.0, 0.0, 3.0])
    x.sign().sum().backward()
    tx.sign().sum().backward()
    assert_same(x.grad, tx.grad)
    assert_same(x.sign(), tx.sign())


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_a_nan_in_max_or_min_gets_the_gradient(reduce):
    x, tx = both([1.0, np.nan, 3.0, np.nan])
    getattr(x, reduce)().backward()
    getattr(tx, reduce)().backward()
    assert_same(x.grad, tx.grad)


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_ties_in_a_full_max_or_min_share_the_gradient_as_in_torch(reduce):
    x, tx = both([3.0, 1.0, 3.0, 1.0])
    getattr(x, reduce)().backward()
    getattr(tx, reduce)().backward()
    assert_same(x.grad, tx.grad)


SECOND_ORDER = {
    "abs": (lambda t: t.abs(), lambda t: t.abs()),
    "relu": (lambda t: t.relu(), torch.relu),
    "leaky_relu": (lambda t: t.leaky_relu(0.1),
                   lambda t: torch.nn.functional.leaky_relu(t, 0.1)),
    "sign": (lambda t: t.sign(), torch.sign),
    "clip": (lambda t: t.clip(-1.0, 0.5), lambda t: t.clamp(-1.0, 0.5)),
    "maximum": (lambda t: t.maximum(t * 0 + 0.25), lambda t: torch.maximum(t, t * 0 + 0.25)),
    "minimum": (lambda t: t.minimum(t * 0 + 0.25), lambda t: torch.minimum(t, t * 0 + 0.25)),
    "where": (lambda t: ag.where(t > 0, t, 2 * t), lambda t: torch.where(t > 0, t, 2 * t)),
    "max": (lambda t: t.max(), lambda t: t.max()),
    "x*abs": (lambda t: t * t.abs(), lambda t: t * t.abs()),
    "x*relu": (lambda t: t * t.relu(), lambda t: t * torch.relu(t)),
    "x*clip": (lambda t: t * t.clip(-1.0, 0.5), lambda t: t * t.clamp(-1.0, 0.5)),
    "tanh": (lambda t: t.tanh(), torch.tanh),
    "softmax": (lambda t: t.softmax(-1)[0], lambda t: t.softmax(-1)[0]),
    "square": (lambda t: t.square(), torch.square),
}


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


REDUCTIONS = ["sum", "mean", "max", "min", "logsumexp"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [0, -1, [0], (-1,)])
def test_every_reduction_accepts_axis_0_and_minus_1_on_a_scalar(name, axis):
    x, tx = both(2.5)
    dim = list(axis) if isinstance(axis, (list, tuple)) else axis
    ours = getattr(x, name)(axis=axis)
    theirs = getattr(torch, "amax" if name == "max" else "amin" if name == "min" else name)(tx, dim)
    assert_same(ours, theirs)
    ours.backward()
    theirs.backward()
    assert_same(x.grad, tx.grad)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_every_reduction_accepts_a_list_of_axes(name, keepdims):
    rng = np.random.default_rng(3)
    x, tx = both(rng.standard_normal((2, 3, 4)))
    torch_name = {"max": "amax", "min": "amin"}.get(name, name)
    ours = getattr(x, name)(axis=[0, 2], keepdims=keepdims)
    theirs = getattr(torch, torch_name)(tx, dim=[0, 2], keepdim=keepdims)
    assert_same(ours, theirs)
    upstream = rng.standard_normal(ours.shape)
    ours.backward(upstream)
    theirs.backward(torch.tensor(upstream))
    assert_same(x.grad, tx.grad)


@pytest.mark.parametrize("axis", [0, 1, -1, (0, 1)])
def test_squeeze_of_an_axis_whose_size_is_not_1_leaves_it(axis):
    x, tx = both(np.ones((1, 3)))
    dim = list(axis) if isinstance(axis, tuple) else axis
    assert x.squeeze(axis).shape == tuple(tx.squeeze(dim).shape)


def test_fill_is_numpygrads_new_untracked_tensor_and_fill__changes_in_place():
    x = ag.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.fill(7.0)
    assert y is not x and y.grad_fn is None and not y.requires_grad
    np.testing.assert_array_equal(y.data, np.full((2, 2), 7.0))
    np.testing.assert_array_equal(x.data, [[1.0, 2.0], [3.0, 4.0]])
    with ag.no_grad():
        assert x.fill_(0.0) is x
    np.testing.assert_array_equal(x.data, np.zeros((2, 2)))


def test_pytorch_keywords_dim_and_keepdim_give_the_same_reductions():
    rng = np.random.default_rng(4)
    x, tx = both(rng.standard_normal((3, 4)))
    assert_same(x.sum(dim=1, keepdim=True), tx.sum(dim=1, keepdim=True))
    assert_same(ag.mean(x, dim=0), torch.mean(tx, dim=0))
    assert_same(x.softmax(dim=0), tx.softmax(dim=0))


@pytest.mark.parametrize(("start", "end"), [(0, -1), (1, 2), (0, 1), (-2, -1)])
def test_flatten_merges_the_axes_from_start_dim_to_end_dim(start, end):
    x, tx = both(np.arange(24.0).reshape(2, 3, 4))
    assert_same(x.flatten(start, end), tx.flatten(start, end))


def test_a_one_element_tensor_converts_to_a_python_number_as_in_torch():
    x, tx = both([2.5])
    assert float(x) == float(tx) == 2.5
    assert int(x) == int(tx) == 2
    assert [10, 20, 30][ag.tensor(1, dtype=np.int64)] == 20
    with pytest.raises(ValueError, match="exactly one element"):
        float(ag.tensor([1.0, 2.0]))
