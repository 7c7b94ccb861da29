"""Where the engine crashed, refused or silently differed while PyTorch answers (or refuses)
otherwise: each case runs both and compares values, gradients, dtypes or the refusal."""

import warnings

import numpy as np
import pytest

import autograd as ag
from autograd.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch


def _pair(array, requires_grad=False):
    """The same array as an engine tensor and a torch tensor."""
    array = np.asarray(array)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def _same(ours, theirs, atol=1e-12):
    """Equal values (NaN where NaN), shapes and dtypes."""
    expected = theirs.detach().numpy()
    got = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, atol=atol, rtol=1e-7)


# --- 1. softmax and log_softmax need their dim ---------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda x: F.softmax(x), lambda x: F.log_softmax(x), lambda x: ag.softmax(x),
    lambda x: ag.log_softmax(x), lambda x: x.softmax(), lambda x: x.log_softmax(),
])
def test_softmax_without_dim_is_refused_where_pytorch_silently_picks_axis_0(call):
    x = ag.tensor(np.arange(24.0).reshape(2, 3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "implicit dimension choice" warning
        legacy = TF.softmax(torch.arange(24.0).reshape(2, 3, 4))
    assert legacy.sum(0).allclose(torch.ones(3, 4))  # PyTorch's legacy choice: axis 0
    with pytest.raises(TypeError, match=r"pass dim=-1 for the last axis, as PyTorch recommends"):
        call(x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_with_dim_matches_pytorch(name, dim):
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    x, tx = _pair(data, requires_grad=True)
    out, t_out = getattr(F, name)(x, dim=dim), getattr(TF, name)(tx, dim=dim)
    _same(out, t_out)
    upstream = np.random.default_rng(1).standard_normal(data.shape)
    out.backward(upstream)
    t_out.backward(torch.tensor(upstream))
    _same(x.grad, tx.grad)


# --- 2. cross_entropy against class probabilities -------------------------------------------------


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 4), (2, 3, 2, 2), (3,)])
@pytest.mark.parametrize("weight", [None, [0.5, 2.0, 3.0]])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.3])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_probabilities_takes_extra_axes_weight_and_smoothing(
        shape, weight, label_smoothing, reduction):
    rng = np.random.default_rng(sum(shape))
    z, tz = _pair(rng.standard_normal(shape), requires_grad=True)
    q, tq = _pair(rng.random(shape), requires_grad=True)
    w, tw = _pair(weight) if weight is not None else (None, None)
    settings = {"label_smoothing": label_smoothing, "reduction": reduction}
    loss = F.cross_entropy(z, q, weight=w, **settings)
    expected = TF.cross_entropy(tz, tq, weight=tw, **settings)
    _same(loss, expected)
    upstream = rng.standard_normal(expected.shape)
    loss.backward(upstream)
    expected.backward(torch.tensor(upstream))
    _same(z.grad, tz.grad)
    _same(q.grad, tq.grad)


@pytest.mark.parametrize(("logits", "target", "weight"), [
    (np.float32, np.float64, None), (np.float64, np.float32, None),
    (np.float32, np.float32, np.float64), (np.float32, np.float32, np.float32),
])
def test_cross_entropy_with_probabilities_promotes_dtypes_as_pytorch(logits, target, weight):
    rng = np.random.default_rng(0)
    z, tz = _pair(rng.standard_normal((2, 3, 4)).astype(logits), requires_grad=True)
    q, tq = _pair(rng.random((2, 3, 4)).astype(target), requires_grad=True)
    w, tw = _pair(np.array([1.0, 2.0, 3.0], weight)) if weight else (None, None)
    loss, expected = F.cross_entropy(z, q, weight=w), TF.cross_entropy(tz, tq, weight=tw)
    _same(loss, expected, atol=1e-5)
    loss.backward()
    expected.backward()
    _same(z.grad, tz.grad, atol=1e-5)
    _same(q.grad, tq.grad, atol=1e-5)


def test_cross_entropy_with_probabilities_refuses_ignore_index_as_pytorch():
    z, tz = _pair(np.zeros((2, 3)))
    q, tq = _pair(np.full((2, 3), 1 / 3))
    with pytest.raises(RuntimeError, match="ignore_index is not supported for floating point"):
        TF.cross_entropy(tz, tq, ignore_index=0)
    with pytest.raises(ValueError, match="ignore_index is not supported for floating point"):
        F.cross_entropy(z, q, ignore_index=0)
    _same(F.cross_entropy(z, q, ignore_index=-5), TF.cross_entropy(tz, tq, ignore_index=-5))


# --- 3. empty tensors ----------------------------------------------------------------------------


def _forward_and_backward(op, t_op, data):
    """``op`` and ``t_op`` on the same data: equal results and gradients (of the sum), with no
    warning from the engine."""
    x, tx = _pair(data, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = op(x)
        out.sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's own "degrees of freedom" warning
        t_out = t_op(tx)
    t_out.sum().backward()
    _same(out, t_out)
    _same(x.grad, tx.grad)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize(("shape", "dim"), [((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((3, 0), 0)])
def test_softmax_of_an_empty_tensor_is_empty(name, shape, dim):
    _forward_and_backward(lambda x: getattr(x, name)(dim), lambda t: getattr(t, name)(dim),
                          np.zeros(shape))


@pytest.mark.parametrize("name", ["sum", "mean", "var", "std", "logsumexp", "prod"])
@pytest.mark.parametrize("dim", [0, 1, (0, 1)])
def test_reductions_of_an_empty_tensor_match_pytorch(name, dim):
    # torch: the sum of nothing is 0, the product 1, the mean NaN, logsumexp -inf
    if name == "prod" and isinstance(dim, tuple):
        pytest.skip("torch.prod takes one dim")
    _forward_and_backward(lambda x: getattr(x, name)(dim), lambda t: getattr(t, name)(dim),
                          np.zeros((0, 3)))


@pytest.mark.parametrize("name", ["sum", "mean", "var", "std", "prod"])
def test_full_reductions_of_an_empty_tensor_match_pytorch(name):
    _forward_and_backward(lambda x: getattr(x, name)(), lambda t: getattr(t, name)(),
                          np.zeros((0, 3)))


@pytest.mark.parametrize("p", [float("inf"), -float("inf")])
def test_extreme_norms_of_empty_tensors_refuse_only_an_empty_reduced_axis(p):
    _forward_and_backward(lambda x: ag.norm(x, p, 1), lambda t: torch.norm(t, p, 1),
                          np.zeros((0, 3)))
    for dim in (0, None, (0, 1)):
        with pytest.raises(RuntimeError, match="cannot compute the -?inf norm on"):
            torch.norm(torch.zeros(0, 3), p, dim)
        with pytest.raises(ValueError, match=r"cannot compute the -?inf norm on (the dimension 0 "
                                             r"because this dimension is empty|an empty tensor)"):
            ag.norm(ag.zeros(0, 3), p, dim)


@pytest.mark.parametrize(("shape", "dims"), [
    ((1, 0), ()), ((1, 0), (0, 0)), ((0, 3), (1,)), ((0, 2, 3), (1, 2)), ((2, 0, 3), (0, 1)),
])
def test_flatten_of_an_empty_tensor_matches_pytorch(shape, dims):
    _forward_and_backward(lambda x: x.flatten(*dims) * 2, lambda t: t.flatten(*dims) * 2,
                          np.zeros(shape))


CONVOLUTIONS = [
    ("conv1d", (0, 2, 5), {}, (3, 2, 3), False),
    ("conv1d", (0, 2, 5), {}, (3, 2, 3), True),
    ("conv2d", (0, 2, 5, 5), {"padding": 1}, (4, 2, 3, 3), False),
    ("conv2d", (0, 2, 5, 5), {"groups": 2}, (4, 1, 3, 3), True),
    ("max_pool2d", (0, 2, 4, 4), {"kernel_size": 2}, None, False),
    ("avg_pool2d", (0, 2, 4, 4), {"kernel_size": 2, "padding": 1}, None, False),
    ("adaptive_avg_pool2d", (0, 2, 4, 4), {"output_size": 2}, None, False),
    ("unfold", (0, 2, 4, 4), {"kernel_size": 2}, None, False),
    ("fold", (0, 8, 9), {"output_size": (4, 4), "kernel_size": 2}, None, False),
]


@pytest.mark.parametrize(("name", "shape", "settings", "weight", "bias"), CONVOLUTIONS)
@pytest.mark.parametrize("create_graph", [False, True])
def test_windowed_ops_on_a_batch_of_zero_match_pytorch(name, shape, settings, weight, bias,
                                                        create_graph):
    rng = np.random.default_rng(0)
    pairs = [_pair(np.zeros(shape), requires_grad=True)]
    if weight is not None:
        pairs.append(_pair(rng.standard_normal(weight), requires_grad=True))
        if bias:
            pairs.append(_pair(rng.standard_normal(weight[0]), requires_grad=True))
    ours, theirs = [p[0] for p in pairs], [p[1] for p in pairs]
    out = getattr(F, name)(*ours, **settings)
    t_out = getattr(TF, name)(*theirs, **settings)
    _same(out, t_out)
    if create_graph:
        grads = ag.grad((out * out).sum(), ours, create_graph=True)
        sum(g.sum() for g in grads).backward()
        t_grads = torch.autograd.grad((t_out * t_out).sum(), theirs, create_graph=True)
        sum(g.sum() for g in t_grads).backward()
    else:
        (out * out).sum().backward()
        (t_out * t_out).sum().backward()
    for x, tx in zip(ours, theirs):
        if tx.grad is not None:  # torch's second derivative may not reach an empty input
            _same(x.grad, tx.grad)
