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


@pytest.mark.parametrize(("name", "dim"), [
    (name, dim) for name in ["sum", "mean", "var", "std", "logsumexp", "prod"]
    for dim in [0, 1, (0, 1)] if not (name == "prod" and dim == (0, 1))])  # torch.prod: one dim
def test_reductions_of_an_empty_tensor_match_pytorch(name, dim):
    # torch: the sum of nothing is 0, the product 1, the mean NaN, logsumexp -inf
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


# --- 4. refused where PyTorch refuses ------------------------------------------------------------


def _both_refuse(ours, theirs, our_error, message):
    """PyTorch raises; the engine raises ``our_error`` whose message matches ``message``."""
    with pytest.raises((RuntimeError, TypeError)):
        theirs()
    with pytest.raises(our_error, match=message):
        ours()


F32, F64 = np.float32, np.float64
SQUARE = np.arange(9.0).reshape(3, 3)
VECTOR = np.arange(3.0)
PRODUCTS = {
    "matmul": (lambda a, b: a @ b, SQUARE, SQUARE),
    "matmul-vector": (lambda a, b: a @ b, VECTOR, SQUARE),
    "matmul-batched": (lambda a, b: a @ b, SQUARE[None], SQUARE),
    "function-matmul": (lambda a, b: ag.matmul(a, b) if isinstance(a, ag.Tensor)
                        else torch.matmul(a, b), SQUARE, SQUARE),
    "bmm": (lambda a, b: a.bmm(b), SQUARE[None], SQUARE[None]),
    "dot": (lambda a, b: a.dot(b), VECTOR, VECTOR),
    "linear": (lambda a, b: F.linear(a, b) if isinstance(a, ag.Tensor) else TF.linear(a, b),
               SQUARE, SQUARE),
    "einsum": (lambda a, b: (ag if isinstance(a, ag.Tensor) else torch).einsum("ij,jk->ik", a, b),
               SQUARE, SQUARE),
}


@pytest.mark.parametrize("name", list(PRODUCTS))
@pytest.mark.parametrize(("left", "right"), [(F32, F64), (F64, F32)])
def test_products_of_float32_and_float64_are_refused_as_in_pytorch(name, left, right):
    op, a, b = PRODUCTS[name]
    x, tx = _pair(a.astype(left))
    y, ty = _pair(b.astype(right))
    _both_refuse(lambda: op(x, y), lambda: op(tx, ty), TypeError,
                 r"expected \w+ and \w+ to have the same dtype, but got: "
                 r"(float != double|double != float).*\.to\(.*\.double\(\)")
    _same(op(x, y.to(x.dtype)), op(tx, ty.to(tx.dtype)), atol=1e-4)  # the fix works


def test_linear_refuses_a_bias_of_another_dtype_and_outer_promotes_as_pytorch():
    x, tx = _pair(SQUARE.astype(F32))
    b, tb = _pair(VECTOR)
    _both_refuse(lambda: F.linear(x, x, b), lambda: TF.linear(tx, tx, tb), TypeError,
                 "expected input and weight and bias to have the same dtype")
    v, tv = _pair(VECTOR.astype(F32))
    _same(ag.outer(v, b), torch.outer(tv, tb))  # PyTorch's outer promotes: so does ours


def test_a_float32_product_with_a_float64_numpy_array_is_refused():
    x = ag.tensor(SQUARE.astype(F32))
    with pytest.raises(TypeError, match="float != double"):
        x @ SQUARE


@pytest.mark.parametrize("name", ["conv1d", "conv2d"])
@pytest.mark.parametrize("which", ["weight", "bias"])
@pytest.mark.parametrize(("mine", "other"), [(F32, F64), (F64, F32)])
def test_convolutions_refuse_operands_of_different_dtypes_as_pytorch(name, which, mine, other):
    spatial = (5,) * (1 if name == "conv1d" else 2)
    rng = np.random.default_rng(0)
    arrays = {"input": rng.standard_normal((1, 2) + spatial).astype(mine),
              "weight": rng.standard_normal((3, 2) + (3,) * len(spatial)).astype(mine),
              "bias": rng.standard_normal(3).astype(mine)}
    arrays[which] = arrays[which].astype(other)
    ours, theirs = zip(*(_pair(a) for a in arrays.values()))
    _both_refuse(lambda: getattr(F, name)(*ours), lambda: getattr(TF, name)(*theirs), TypeError,
                 rf"{name}: Input type \((float|double)\) and {which} type \((float|double)\) "
                 "should be the same")


@pytest.mark.parametrize("odd", ["query", "key", "value"])
def test_attention_refuses_query_key_and_value_of_different_dtypes_as_pytorch(odd):
    rng = np.random.default_rng(0)
    arrays = {name: rng.standard_normal((2, 4, 8)).astype(F32) for name in ("query", "key",
                                                                             "value")}
    arrays[odd] = arrays[odd].astype(F64)
    ours, theirs = zip(*(_pair(a) for a in arrays.values()))
    _both_refuse(lambda: F.scaled_dot_product_attention(*ours),
                 lambda: TF.scaled_dot_product_attention(*theirs), TypeError,
                 "Expected query, key, and value to have the same dtype")


@pytest.mark.parametrize(("query", "mask", "refused"), [
    (F32, F64, True), (F32, np.int64, True), (F64, F32, False), (F32, bool, False),
])
def test_attention_takes_a_mask_of_bool_float32_or_the_query_dtype_as_pytorch(query, mask,
                                                                              refused):
    rng = np.random.default_rng(0)
    q, tq = _pair(rng.standard_normal((2, 4, 8)).astype(query))
    m, tm = _pair(np.tril(np.ones((4, 4))).astype(mask))
    ours = lambda: F.scaled_dot_product_attention(q, q, q, attn_mask=m)  # noqa: E731
    theirs = lambda: TF.scaled_dot_product_attention(tq, tq, tq, attn_mask=tm)  # noqa: E731
    if refused:
        _both_refuse(ours, theirs, TypeError, "Expected attn_mask dtype to be bool or float or "
                                              "to match query dtype")
    else:
        _same(ours(), theirs(), atol=1e-5)


@pytest.mark.parametrize("dtype", [F64, np.int64])
def test_where_refuses_a_condition_that_is_not_boolean_as_pytorch(dtype):
    c, tc = _pair(np.array([1, 0, 2]).astype(dtype))
    x, tx = _pair(np.array([1.0, 2.0, 3.0]))
    _both_refuse(lambda: ag.where(c, x, 0.0), lambda: torch.where(tc, tx, 0.0), TypeError,
                 r"where expected condition to be a boolean tensor.*x > 0.*\.bool\(\)")
    _same(ag.where(c > 0, x, 0.0), torch.where(tc > 0, tx, 0.0))


@pytest.mark.parametrize("call", ["backward", "grad"])
def test_a_number_as_the_gradient_of_a_non_scalar_output_is_refused_as_pytorch(call):
    x, tx = _pair(np.array([1.0, 2.0]), requires_grad=True)
    y, ty = x * 2, tx * 2

    def ours():
        return y.backward(3.0) if call == "backward" else ag.grad(y, x, ag.tensor(3.0))

    def theirs():
        return (ty.backward(torch.tensor(3.0)) if call == "backward"
                else torch.autograd.grad(ty, tx, torch.tensor(3.0)))

    _both_refuse(ours, theirs, RuntimeError,
                 r"Mismatch in shape: grad_output has a shape of \(\) and output has a shape of "
                 r"\(2,\).*gradient=ag\.ones_like\(y\) \* 3")
    y.backward(ag.ones_like(y) * 3.0)  # the fix
    ty.backward(torch.ones_like(ty) * 3.0)
    _same(x.grad, tx.grad)


@pytest.mark.parametrize(("name", "shape", "settings"), [
    ("conv1d", (1, 2, 5), {"weight": (3, 2, 3), "padding": -1}),
    ("conv2d", (1, 2, 5, 5), {"weight": (3, 2, 3, 3), "padding": -1}),
    ("conv2d", (1, 2, 5, 5), {"weight": (3, 2, 3, 3), "padding": (1, -1)}),
    ("max_pool2d", (1, 2, 5, 5), {"kernel_size": 2, "padding": -1}),
    ("avg_pool2d", (1, 2, 5, 5), {"kernel_size": 2, "padding": -1}),
    ("unfold", (1, 2, 5, 5), {"kernel_size": 2, "padding": -1}),
    ("fold", (1, 8, 16), {"output_size": (5, 5), "kernel_size": 2, "padding": -1}),
])
def test_negative_padding_is_refused_as_pytorch(name, shape, settings):
    settings = dict(settings)
    operands = [_pair(np.zeros(shape))]
    if "weight" in settings:
        operands.append(_pair(np.zeros(settings.pop("weight"))))
    ours, theirs = zip(*operands)
    _both_refuse(lambda: getattr(F, name)(*ours, **settings),
                 lambda: getattr(TF, name)(*theirs, **settings), ValueError,
                 "padding must be at least 0")


def test_asymmetric_conv_padding_pairs_refuse_negative_amounts():
    x, w = ag.zeros(1, 2, 5, 5), ag.zeros(3, 2, 3, 3)
    with pytest.raises(ValueError, match="negative padding is not supported"):
        F.conv2d(x, w, padding=((-1, 1), (0, 0)))


# --- 5. the dtypes of mixed-dtype losses --------------------------------------------------------


def _loss_pair(name, dtypes, settings=None, rng_seed=0):
    """The loss ``name`` in both libraries on input, target (and weight, pos_weight) of the
    given dtypes; returns both losses and both leaves (input, target)."""
    rng = np.random.default_rng(rng_seed)
    arrays = {"input": rng.standard_normal((3, 4)), "target": rng.random((3, 4)),
              "weight": rng.random((3, 4)), "pos_weight": rng.random(4) + 0.5}
    if name == "binary_cross_entropy":
        arrays["input"] = 1 / (1 + np.exp(-arrays["input"]))
    x, tx = _pair(arrays["input"].astype(dtypes[0]), requires_grad=True)
    t, tt = _pair(arrays["target"].astype(dtypes[1]), requires_grad=True)
    extra, t_extra = {}, {}
    for key, dtype in zip(("weight", "pos_weight"), dtypes[2:]):
        if dtype is not None:
            extra[key], t_extra[key] = _pair(arrays[key].astype(dtype))
    settings = settings or {}
    return (getattr(F, name)(x, t, **extra, **settings),
            getattr(TF, name)(tx, tt, **t_extra, **settings), (x, t), (tx, tt))


@pytest.mark.parametrize("dtypes", [
    (F32, F64), (F64, F32), (F32, F32, F64), (F64, F64, F32), (F32, F32, None, F64),
    (F64, F64, None, F32), (F64, F32, F64, F64), (F32, F64, F32, F32),
])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_bce_with_logits_comes_in_the_targets_dtype_as_pytorch(dtypes, reduction):
    loss, expected, ours, theirs = _loss_pair("binary_cross_entropy_with_logits", dtypes,
                                              {"reduction": reduction})
    _same(loss, expected, atol=1e-6)
    upstream = np.random.default_rng(1).standard_normal(expected.shape)
    loss.backward(upstream.astype(loss.dtype))
    expected.backward(torch.tensor(upstream, dtype=expected.dtype))
    for leaf, t_leaf in zip(ours, theirs):
        _same(leaf.grad, t_leaf.grad, atol=1e-5)


@pytest.mark.parametrize("name", ["huber_loss", "binary_cross_entropy"])
@pytest.mark.parametrize("dtypes", [(F32, F64), (F64, F32)])
def test_huber_and_bce_refuse_a_target_of_another_dtype_as_pytorch(name, dtypes):
    p = np.full((3, 4), 0.25)
    (x, tx), (t, tt) = _pair(p.astype(dtypes[0]), True), _pair(p.astype(dtypes[1]), True)
    _both_refuse(lambda: getattr(F, name)(x, t), lambda: getattr(TF, name)(tx, tt).backward(),
                 TypeError, r"Found dtype (Float|Double) but expected (Float|Double).*"
                 r"target\.to\(input\.dtype\)")


@pytest.mark.parametrize("dtypes", [(F32, F64), (F64, F32)])
def test_huber_without_gradients_answers_in_the_inputs_dtype_as_pytorch(dtypes):
    with ag.no_grad(), torch.no_grad():
        loss, expected, _, _ = _loss_pair("huber_loss", dtypes)
    _same(loss, expected, atol=1e-6)


@pytest.mark.parametrize("dtypes", [(F32, F32, F64), (F64, F64, F32), (F64, F64, F64)])
def test_bce_takes_a_weight_as_pytorch(dtypes):
    loss, expected, ours, theirs = _loss_pair("binary_cross_entropy", dtypes)
    _same(loss, expected, atol=1e-6)
    loss.backward()
    expected.backward()
    for leaf, t_leaf in zip(ours, theirs):
        _same(leaf.grad, t_leaf.grad, atol=1e-5)


def test_a_convolution_without_filters_is_refused_as_pytorch():
    (x, tx), (w, tw) = _pair(np.zeros((2, 2, 5, 5))), _pair(np.zeros((0, 2, 3, 3)))
    _both_refuse(lambda: F.conv2d(x, w), lambda: TF.conv2d(tx, tw), ValueError,
                 "expected weight to be at least 1 at dimension 0")


# --- found beside the list ---------------------------------------------------------------------


def test_an_integer_matrix_times_a_float_matrix_is_refused_as_in_pytorch():
    (ints, tints), (floats, tfloats) = _pair([[1, 0], [0, 1]]), _pair([[1.5, 2.0], [3.0, 4.0]])
    with pytest.raises(RuntimeError, match="same dtype"):
        tints @ tfloats
    with pytest.raises(TypeError, match=r"same dtype.*\.double\(\)"):
        ints @ floats


def test_bce_loss_module_takes_a_weight_as_pytorchs():
    (p, tp), (y, ty) = _pair([0.2, 0.7, 0.9], requires_grad=True), _pair([0.0, 1.0, 1.0])
    weight, tweight = _pair([1.0, 2.0, 3.0])
    ours, theirs = ag.nn.BCELoss(weight=weight)(p, y), torch.nn.BCELoss(weight=tweight)(tp, ty)
    _same(ours, theirs)
    ours.backward()
    theirs.backward()
    _same(p.grad, tp.grad)
