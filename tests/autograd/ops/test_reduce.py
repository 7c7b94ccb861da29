"""Reductions, the softmax family and cumulative sums (autograd/ops/reduce.py): the family's table
of cases against NumPy (numpy_checks.NumpyChecks) and against PyTorch
(torch_checks.TorchChecks), then the behaviours worth a test of their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.numpy_checks import (
    NumpyChecks,
    Op,
    distinct,
    log_softmax,
    logsumexp,
    softmax,
    uniform,
)
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    assert_close,
    normal_inputs,
    pieces,
)
from tests.autograd.vs_torch import assert_same, both

r = normal_inputs(19)
G1 = np.array([[2, 0], [1, 1], [0, 3]])
ROW = np.array([True, False, True, False])
ONE_ZERO = np.array([[0.0, 2.0, -3.0], [1.5, 0.5, -2.0], [4.0, 0.0, 0.5]])
TWO_ZEROS = np.array([[0.0, 2.0, 0.0], [1.5, 0.5, -2.0]])
WITH_NAN = np.array([[1.5, np.nan, -0.5], [np.nan, np.nan, 2.0]])


AXES = [None, 0, 1, -1, (0, 2), (-1, 0), (0, 1, 2)]
NUMPY_REDUCTIONS = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


def reduction_cases():
    for name, ref in NUMPY_REDUCTIONS.items():
        values = distinct if name in ("max", "min") else uniform
        for axis in AXES:
            for keepdims in (False, True):
                yield Op(
                    f"{name}-axis={axis}-keepdims={keepdims}",
                    lambda x, n=name, ax=axis, k=keepdims: getattr(x, n)(axis=ax, keepdims=k),
                    lambda a, r=ref, ax=axis, k=keepdims: r(a, axis=ax, keepdims=k),
                    (values(2, 3, 4),),
                )
        yield Op(f"{name}-function-axis=1", lambda x, n=name: getattr(ag, n)(x, axis=1),
                   lambda a, r=ref: r(a, axis=1), (values(2, 3, 4),))
        yield Op(f"{name}-function-keepdims",
                   lambda x, n=name: getattr(ag, n)(x, axis=-1, keepdims=True),
                   lambda a, r=ref: r(a, axis=-1, keepdims=True), (values(2, 3, 4),))
        positional = ((lambda x, n=name: getattr(x, n)(0).values) if name in ("max", "min")
                      else (lambda x, n=name: getattr(x, n)(0)))  # PyTorch's (values, indices)
        yield Op(f"{name}-positional-axis", positional, lambda a, r=ref: r(a, axis=0),
                   (values(3, 2),))
        yield Op(f"{name}-vector", lambda x, n=name: getattr(x, n)(), ref, (values(5),))
        yield Op(f"{name}-one-element", lambda x, n=name: getattr(x, n)(), ref, (values(1),))
        yield Op(f"{name}-0d", lambda x, n=name: getattr(x, n)(), ref, (values(),))


SOFTMAXES = {"softmax": softmax, "log_softmax": log_softmax, "logsumexp": logsumexp}


def softmax_cases():
    for name, ref in SOFTMAXES.items():
        # softmax and log_softmax need their axis (as PyTorch recommends); logsumexp's is -1
        last = () if name == "logsumexp" else (-1,)
        yield Op(f"{name}-vector", lambda x, n=name, a=last: getattr(x, n)(*a), ref,
                   (uniform(5),))
        yield Op(f"{name}-last-axis", lambda x, n=name, a=last: getattr(x, n)(*a), ref,
                   (uniform(2, 3, 4),))
        yield Op(f"{name}-function", lambda x, n=name, a=last: getattr(ag, n)(x, *a), ref,
                   (uniform(3, 4),))
        for axis in (0, 1, -2):
            yield Op(f"{name}-axis={axis}", lambda x, n=name, ax=axis: getattr(x, n)(axis=ax),
                       lambda a, r=ref, ax=axis: r(a, axis=ax), (uniform(2, 3, 4),))
            yield Op(f"{name}-function-axis={axis}",
                       lambda x, n=name, ax=axis: getattr(ag, n)(x, axis=ax),
                       lambda a, r=ref, ax=axis: r(a, axis=ax), (uniform(2, 3, 4),))


class TestAgainstNumpy(NumpyChecks):
    CASES = [*reduction_cases(), *softmax_cases()]


TORCH_CASES = [
    # var and std
    Case("var over a dim", lambda x: x.var(1), lambda x: x.var(1), [r(3, 4)]),
    Case("var of all", lambda x: ag.var(x), lambda x: torch.var(x), [r(3, 4)]),
    Case("var correction 0, keepdim", lambda x: x.var(dim=0, correction=0, keepdim=True),
         lambda x: x.var(dim=0, correction=0, keepdim=True), [r(3, 4)]),
    Case("var over negative dims", lambda x: x.var(dim=(-1, 0)),
         lambda x: x.var(dim=(-1, 0)), [r(2, 3, 4)]),
    Case("var unbiased=False", lambda x: x.var(1, unbiased=False),
         lambda x: x.var(1, unbiased=False), [r(3, 4)]),
    Case("var positional unbiased and keepdim", lambda x: ag.var(x, 1, False, True),
         lambda x: torch.var(x, 1, False, True), [r(3, 4)]),
    Case("var fractional correction", lambda x: x.var(0, correction=2.5),
         lambda x: x.var(0, correction=2.5), [r(5, 2)]),
    Case("var of a size-1 dim is nan", lambda x: x.var(0), lambda x: x.var(0), [r(1, 3)],
         skip=("fd", "second")),
    Case("var of a 0-d tensor is nan", lambda x: x.var(), lambda x: x.var(), [r()],
         skip=("fd", "second", "torch second")),
    Case("std of all", lambda x: x.std(), lambda x: x.std(), [r(3, 4)]),
    Case("std over a dim, keepdim", lambda x: x.std(dim=1, keepdim=True),
         lambda x: x.std(dim=1, keepdim=True), [r(3, 4)]),
    Case("std correction 0", lambda x: ag.std(x, 0, correction=0),
         lambda x: torch.std(x, 0, correction=0), [r(3, 4)]),
    Case("std where it is 0 has gradient 0", lambda x: x.std(1),
         lambda x: x.std(1), [np.array([[2.0, 2.0, 2.0], [1.0, -1.0, 0.5]])],
         skip=("fd", "second")),
    Case("prod of all", lambda x: x.prod(), lambda x: x.prod(), [r(2, 3)]),
    Case("prod over a dim", lambda x: x.prod(1), lambda x: x.prod(1), [r(3, 4)]),
    Case("prod over a negative dim, keepdim", lambda x: x.prod(dim=-2, keepdim=True),
         lambda x: x.prod(dim=-2, keepdim=True), [r(3, 4)]),
    Case("prod with one zero in a slice", lambda x: x.prod(1), lambda x: x.prod(1),
         [ONE_ZERO]),
    Case("prod with two zeros in a slice", lambda x: x.prod(1), lambda x: x.prod(1),
         [TWO_ZEROS]),
    Case("prod of all with one zero", lambda x: x.prod(), lambda x: x.prod(), [ONE_ZERO[:2]]),
    Case("prod of all with two zeros", lambda x: x.prod(), lambda x: x.prod(), [TWO_ZEROS]),
    Case("prod of a 0-d tensor", lambda x: x.prod(0), lambda x: x.prod(0), [r()], linear=True),
    Case("norm: the 2-norm of all", lambda x: x.norm(), lambda x: x.norm(), [r(3, 4)]),
    Case("norm p=2 over a dim", lambda x: x.norm(2, dim=1), lambda x: x.norm(2, dim=1),
         [r(3, 4)]),
    Case("norm fro over two dims, keepdim", lambda x: ag.norm(x, "fro", (0, 1), True),
         lambda x: torch.norm(x, "fro", (0, 1), True), [r(3, 4, 2)]),
    Case("norm p=1", lambda x: x.norm(1, 0), lambda x: x.norm(1, 0), [r(3, 4)]),
    Case("norm p=inf", lambda x: x.norm(float("inf"), 1), lambda x: x.norm(float("inf"), 1),
         [r(3, 4)]),
    Case("norm p=inf shares ties", lambda x: x.norm(float("inf")),
         lambda x: x.norm(float("inf")), [np.array([0.5, -2.0, 2.0, 1.0])],
         skip=("fd", "second")),
    Case("norm p=-inf", lambda x: x.norm(float("-inf"), dim=-1),
         lambda x: x.norm(float("-inf"), dim=-1), [r(3, 4)]),
    Case("norm p=3", lambda x: x.norm(3, 1), lambda x: x.norm(3, 1), [r(3, 4)]),
    Case("norm p=1.5", lambda x: x.norm(1.5), lambda x: x.norm(1.5), [r(3, 4)]),
    Case("norm p=0.5", lambda x: x.norm(0.5, 0), lambda x: x.norm(0.5, 0), [r(3, 4)]),
    Case("norm p=-1", lambda x: x.norm(-1, 0), lambda x: x.norm(-1, 0), [r(3, 4)]),
    Case("norm at 0: gradient 0 for the 2-norm", lambda x: x.norm(dim=1),
         lambda x: x.norm(dim=1), [np.array([[0.0, 0.0], [3.0, -4.0]])], skip=("fd", "second")),
    Case("norm at 0: gradient 0 for p=1", lambda x: x.norm(1, 1), lambda x: x.norm(1, 1),
         [np.array([[0.0, 0.0], [3.0, -4.0]])], skip=("fd", "second")),
    Case("norm at 0: gradient 0 for p=3", lambda x: x.norm(3, 1), lambda x: x.norm(3, 1),
         [np.array([[0.0, 0.0], [3.0, -4.0]])], skip=("fd", "second")),
    Case("norm p=0.5 with a zero element", lambda x: x.norm(0.5), lambda x: x.norm(0.5),
         [np.array([0.0, 1.0, -2.0])], skip=("fd", "second")),
    Case("norm of a 0-d tensor", lambda x: x.norm(), lambda x: x.norm(), [r()]),
    Case("cumsum", lambda x: x.cumsum(1), lambda x: x.cumsum(1), [r(3, 4)], linear=True),
    Case("cumsum over a negative dim", lambda x: ag.cumsum(x, dim=-3),
         lambda x: torch.cumsum(x, dim=-3), [r(3, 2, 2)], linear=True),
    Case("cumsum of a 0-d tensor", lambda x: x.cumsum(0), lambda x: x.cumsum(0), [r()],
         linear=True),
    Case("cumprod", lambda x: x.cumprod(1), lambda x: x.cumprod(1), [r(3, 4)]),
    Case("cumprod with one zero", lambda x: ag.cumprod(x, dim=1),
         lambda x: torch.cumprod(x, dim=1), [ONE_ZERO]),
    Case("cumprod with two zeros", lambda x: x.cumprod(-1), lambda x: x.cumprod(-1),
         [TWO_ZEROS]),
    Case("cumprod along 0", lambda x: x.cumprod(0), lambda x: x.cumprod(0), [r(4, 2)]),
    # PyTorch's logcumsumexp jvp loses digits at inputs of size 5: 8e-10 off in a first
    # element's tangent, which is the input's tangent exactly
    Case("logcumsumexp", lambda x: x.logcumsumexp(1), lambda x: x.logcumsumexp(1),
         [r(3, 4) * 5], tol64=1e-8),
    Case("logcumsumexp along 0", lambda x: ag.logcumsumexp(x, dim=0),
         lambda x: torch.logcumsumexp(x, dim=0), [r(4, 2, 3)]),
    Case("nansum", lambda x: x.nansum(1), lambda x: x.nansum(1), [WITH_NAN], linear=True),
    Case("nansum of all", lambda x: ag.nansum(x), lambda x: torch.nansum(x), [WITH_NAN],
         linear=True),
    Case("nanmean", lambda x: x.nanmean(dim=1, keepdim=True),
         lambda x: x.nanmean(dim=1, keepdim=True), [WITH_NAN], linear=True),
    Case("var_mean", lambda x: pieces(ag, ag.var_mean(x, 1)),
         lambda x: pieces(torch, torch.var_mean(x, 1)), [r(3, 4)]),
    Case("std_mean correction 0", lambda x: pieces(ag, ag.std_mean(x, dim=0, correction=0)),
         lambda x: pieces(torch, torch.std_mean(x, dim=0, correction=0)), [r(3, 4)]),
    Case("diff", lambda x: x.diff(), lambda x: x.diff(), [r(3, 5)], linear=True),
    Case("diff twice along 0 with prepend and append",
         lambda x, p, a: ag.diff(x, 2, 0, p, a), lambda x, p, a: torch.diff(x, 2, 0, p, a),
         [r(3, 4), r(1, 4), r(2, 4)], linear=True),
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_reductions_share_the_gradient_equally_among_ties(name):
    sign = 1.0 if name == "max" else -1.0
    x = ag.tensor(sign * np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]), requires_grad=True)
    getattr(x, name)(axis=1).backward(np.array([6.0, 9.0]))
    np.testing.assert_allclose(x.grad.data, [[0.0, 3.0, 3.0], [3.0, 3.0, 3.0]])

    x.grad = None
    getattr(x, name)().backward()
    np.testing.assert_allclose(x.grad.data, [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]])

    x.grad = None
    getattr(x, name)(axis=0, keepdims=True).backward(np.array([[4.0, 4.0, 4.0]]))
    np.testing.assert_allclose(x.grad.data, [[0.0, 4.0, 4.0], [4.0, 0.0, 0.0]])


def test_softmax_of_large_inputs_stays_finite_and_correct(rng):
    data = np.array([[1000.0, 1000.0, 999.0], [-1000.0, -1000.0, -1001.0]])
    x = ag.tensor(data, requires_grad=True)
    s = x.softmax(-1)
    e = np.exp([0.0, 0.0, -1.0])
    np.testing.assert_allclose(s.data, np.stack([e / e.sum()] * 2), rtol=1e-12)
    upstream = rng.standard_normal(data.shape)
    s.backward(upstream)
    expected = s.data * (upstream - (upstream * s.data).sum(axis=-1, keepdims=True))
    assert np.all(np.isfinite(x.grad.data))
    np.testing.assert_allclose(x.grad.data, expected, rtol=1e-10, atol=1e-14)


def test_log_softmax_of_large_inputs_stays_finite_and_correct(rng):
    x = ag.tensor([[1000.0, 0.0], [-1000.0, 0.0]], requires_grad=True)
    out = x.log_softmax(-1)
    np.testing.assert_allclose(out.data, [[0.0, -1000.0], [-1000.0, 0.0]], atol=1e-12)
    upstream = rng.standard_normal((2, 2))
    out.backward(upstream)
    softmax_values = np.exp(out.data)
    expected = upstream - softmax_values * upstream.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(x.grad.data, expected, rtol=1e-10, atol=1e-14)


def test_logsumexp_of_large_inputs_stays_finite_and_correct():
    x = ag.tensor([[1000.0, 1000.0], [-1000.0, -1000.0], [1000.0, -1000.0]], requires_grad=True)
    out = x.logsumexp()
    np.testing.assert_allclose(out.data, [1000.0 + np.log(2.0), -1000.0 + np.log(2.0), 1000.0],
                               rtol=1e-14)
    out.backward(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(x.grad.data, [[0.5, 0.5], [1.0, 1.0], [3.0, 0.0]], atol=1e-14)


def test_softmax_family_needs_its_axis_and_logsumexp_defaults_to_the_last():
    data = np.arange(6.0).reshape(2, 3)
    x = ag.tensor(data)
    for call in (x.softmax, x.log_softmax, lambda: ag.softmax(x), lambda: ag.log_softmax(x)):
        with pytest.raises(TypeError, match="pass dim=-1 for the last axis"):
            call()
    np.testing.assert_allclose(x.softmax(dim=-1).data.sum(axis=1), [1.0, 1.0])
    np.testing.assert_allclose(ag.log_softmax(x, -1).data, np.log(softmax(data, axis=1)))
    assert ag.logsumexp(x).shape == (2,)


_rng = np.random.default_rng(19)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_prod_with_one_zero_sends_the_product_of_the_others_to_the_zero_only():
    x = ag.tensor([2.0, 0.0, 3.0, -1.0], requires_grad=True)
    x.prod().backward()
    np.testing.assert_array_equal(x.grad.data, [0.0, -6.0, 0.0, 0.0])


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_prod_with_two_zeros_sends_no_gradient():
    x = ag.tensor([2.0, 0.0, 3.0, 0.0], requires_grad=True)
    x.prod().backward()
    np.testing.assert_array_equal(x.grad.data, [0.0, 0.0, 0.0, 0.0])


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_norm_p0_counts_non_zeros_and_gives_no_gradient_as_torch():
    x = ag.tensor([0.0, 2.0, -2.0], requires_grad=True)
    y = x.norm(0)
    assert y.item() == 2.0
    y.backward()
    assert x.grad is None


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_pytorch_keywords_and_methods_work():
    x = ag.tensor(r(3, 4))
    tx = torch.tensor(x.data)
    assert_close(x.var(dim=1, keepdim=True), tx.var(dim=1, keepdim=True), 1e-12, 1e-12, "var")
    assert_close(x.std(unbiased=False), tx.std(unbiased=False), 1e-12, 1e-12, "std")
    assert_close(x.norm(p=1, dim=0, keepdim=True), tx.norm(p=1, dim=0, keepdim=True), 1e-12,
                 1e-12, "norm")
    assert_close(x.prod(dim=0), tx.prod(dim=0), 1e-12, 1e-12, "prod")
    assert_close(x.cumsum(dim=0), tx.cumsum(dim=0), 1e-12, 1e-12, "cumsum")
    assert_close(x.split(1, dim=0)[2], tx.split(1, dim=0)[2], 0, 0, "split")
    assert_close(x.chunk(2, dim=1)[1], tx.chunk(2, dim=1)[1], 0, 0, "chunk")
    assert_close(x.unbind(dim=1)[3], tx.unbind(dim=1)[3], 0, 0, "unbind")
    assert_close(x.gather(dim=1, index=G1), tx.gather(dim=1, index=torch.tensor(G1)), 0, 0,
                 "gather")
    assert_close(ag.var(x, axis=1, keepdims=True), tx.var(1, keepdim=True), 1e-12, 1e-12,
                 "NumPy's keywords too")


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_a_float32_input_keeps_float32_values_and_gradients():
    for fn in (lambda x: x.var(1), lambda x: x.std(), lambda x: x.prod(0), lambda x: x.norm(3),
               lambda x: x.cumsum(0), lambda x: ag.einsum("ij,kj->ik", x, x),
               lambda x: x.masked_fill(ROW[:3], 1.0)):
        x = ag.tensor(r(3, 3).astype(np.float32), requires_grad=True)
        y = fn(x)
        assert y.dtype == np.float32
        y.sum().backward()
        assert x.grad.dtype == np.float32


@pytest.mark.torch
@pytest.mark.parametrize("reduce", ["max", "min"])
def test_a_nan_in_max_or_min_gets_the_gradient(reduce):
    x, tx = both([1.0, np.nan, 3.0, np.nan])
    getattr(x, reduce)().backward()
    getattr(tx, reduce)().backward()
    assert_same(x.grad, tx.grad)


@pytest.mark.torch
@pytest.mark.parametrize("reduce", ["max", "min"])
def test_ties_in_a_full_max_or_min_share_the_gradient_as_in_torch(reduce):
    x, tx = both([3.0, 1.0, 3.0, 1.0])
    getattr(x, reduce)().backward()
    getattr(tx, reduce)().backward()
    assert_same(x.grad, tx.grad)


REDUCTIONS = ["sum", "mean", "max", "min", "logsumexp"]


@pytest.mark.torch
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


@pytest.mark.torch
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


@pytest.mark.torch
def test_pytorch_keywords_dim_and_keepdim_give_the_same_reductions():
    rng = np.random.default_rng(4)
    x, tx = both(rng.standard_normal((3, 4)))
    assert_same(x.sum(dim=1, keepdim=True), tx.sum(dim=1, keepdim=True))
    assert_same(ag.mean(x, dim=0), torch.mean(tx, dim=0))
    assert_same(x.softmax(dim=0), tx.softmax(dim=0))
