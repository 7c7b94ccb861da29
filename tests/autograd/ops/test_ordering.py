"""Orderings: argmax, argmin, argsort, sort, topk, median, quantile, max/min along a dim
(autograd/ops/ordering.py): the family's table of cases against PyTorch
(torch_checks.TorchChecks), then the behaviours worth a test of their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    normal_inputs,
)
from tests.autograd.vs_torch import both, same, same_gradients

r = normal_inputs(19)
TIES = np.array([[[1.0, 3.0], [3.0, 0.5]], [[2.0, 3.0], [-1.0, 0.5]]])
WITH_NAN = np.array([[1.5, np.nan, -0.5], [np.nan, np.nan, 2.0]])


TORCH_CASES = [
    # reductions of issue 30
    Case("amax over a tuple of dims with ties", lambda x: x.amax(dim=(0, 2)),
         lambda x: x.amax(dim=(0, 2)), [TIES], linear=True, skip=("fd",)),
    Case("amin keepdim", lambda x: ag.amin(x, 1, keepdim=True),
         lambda x: torch.amin(x, 1, keepdim=True), [TIES], linear=True, skip=("fd",)),
    Case("quantile of all", lambda x: x.quantile(0.3), lambda x: x.quantile(0.3), [r(3, 5)],
         linear=True),
    Case("quantile along a dim, keepdim", lambda x: ag.quantile(x, 0.75, dim=1, keepdim=True),
         lambda x: torch.quantile(x, 0.75, dim=1, keepdim=True), [r(3, 5)], linear=True),
    Case("quantile of several q", lambda x: x.quantile(ag.tensor([0.1, 0.5, 1.0]), dim=0),
         lambda x: x.quantile(torch.tensor([0.1, 0.5, 1.0], dtype=x.dtype), dim=0),
         [r(4, 3)], linear=True),
    Case("quantile of slices with NaN", lambda x: x.quantile(ag.tensor([0.3, 0.9]), dim=1),
         lambda x: x.quantile(torch.tensor([0.3, 0.9], dtype=x.dtype), dim=1), [WITH_NAN],
         linear=True, skip=("fd",)),
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES

    test_second_derivatives_match_finite_differences = None  # every case is linear


DATA = np.array([[3.2, -1.7, 0.4], [2.6, 5.1, -0.2]])


NON_DIFFERENTIABLE = {
    "astype": (lambda x: x.astype(np.float32), lambda a: a.astype(np.float32)),
    "argmax": (lambda x: x.argmax(), lambda a: np.argmax(a)),
    "argmax-axis": (lambda x: x.argmax(axis=1), lambda a: np.argmax(a, axis=1)),
    "argmin": (lambda x: x.argmin(), lambda a: np.argmin(a)),
    "argmin-axis": (lambda x: x.argmin(axis=0), lambda a: np.argmin(a, axis=0)),
    "all": (lambda x: (x > -1).all(), lambda a: np.all(a > -1)),
    "any": (lambda x: (x > 5).any(), lambda a: np.any(a > 5)),
    "all-axis": (lambda x: (x > 0).all(axis=1), lambda a: np.all(a > 0, axis=1)),
    "any-float": (lambda x: x.any(), lambda a: np.any(a)),
    "sort-indices": (lambda x: x.sort().indices, lambda a: np.argsort(a, kind="stable")),
    "sort-axis-indices": (lambda x: x.sort(axis=0).indices,
                          lambda a: np.argsort(a, axis=0, kind="stable")),
}


@pytest.mark.parametrize(("op", "ref"), NON_DIFFERENTIABLE.values(), ids=list(NON_DIFFERENTIABLE))
def test_non_differentiable_ops_return_tensors_without_grad_fn(op, ref):
    x = ag.tensor(DATA, requires_grad=True)
    out = op(x)
    expected = np.asarray(ref(DATA))
    assert isinstance(out, ag.Tensor)
    assert out.requires_grad is False
    assert out.grad_fn is None
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out.data, expected)


def test_nonzero_gives_indices_without_grad():
    x = ag.tensor([[0.0, 1.5], [2.0, 0.0]], requires_grad=True)
    out = x.nonzero()
    parts = out if isinstance(out, tuple) else (out,)
    for part in parts:
        assert isinstance(part, ag.Tensor)
        assert part.requires_grad is False and part.grad_fn is None
    found = np.stack([p.data for p in parts]) if isinstance(out, tuple) else out.data
    expected = np.stack(np.nonzero(x.data))
    assert found.shape in (expected.shape, expected.T.shape)
    np.testing.assert_array_equal(found if found.shape == expected.shape else found.T, expected)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
@pytest.mark.parametrize("shape", [(), (2,), (2, 3), (2, 3, 4)])
def test_quantile_keeps_pytorchs_shape_with_keepdim_for_every_dim(shape):
    """keepdim without dim keeps every axis as 1, as PyTorch does (it gave (1,) for any rank)."""
    x = np.random.default_rng(0).standard_normal(shape)
    for dim in [None, *range(len(shape))]:
        for q in (0.3, np.array([0.2, 0.9])):
            for keepdim in (False, True):
                ours = ag.quantile(ag.tensor(x), q, dim, keepdim=keepdim)
                theirs = torch.quantile(torch.tensor(x), torch.tensor(q) if np.ndim(q) else q,
                                        dim, keepdim=keepdim)
                assert ours.shape == tuple(theirs.shape), (dim, q, keepdim)
                np.testing.assert_allclose(ours.data, theirs.numpy(), rtol=1e-12)


ARG_CASES = [
    {}, {"dim": 0}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"dim": None, "keepdim": True},
]


GRID = np.array([[3.0, 7.0, 7.0, -1.0], [2.0, np.nan, 0.5, 9.0], [4.0, 4.0, 4.0, 4.0]])


@pytest.mark.torch
@pytest.mark.parametrize("kwargs", ARG_CASES, ids=str)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_and_argmin_match_pytorch_with_ties_and_nan(name, kwargs):
    x, tx = both(GRID)
    for ours in (getattr(ag, name)(x, **kwargs), getattr(x, name)(**kwargs)):
        assert not ours.requires_grad
        same(ours, getattr(torch, name)(tx, **kwargs))
    no_nan, tno_nan = both(np.nan_to_num(GRID))
    same(getattr(no_nan, name)(**kwargs), getattr(tno_nan, name)(**kwargs))


@pytest.mark.torch
def test_argmax_takes_numpys_axis_too():
    x = ag.tensor(GRID)
    same(x.argmax(axis=1), x.argmax(dim=1))
    same(x.argmin(1, keepdims=True), x.argmin(1, keepdim=True))


@pytest.mark.torch
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_argsort_matches_pytorchs_stable_sort_with_ties_and_nan(dim, descending):
    x, tx = both(GRID)
    ours = x.argsort(dim=dim, descending=descending)
    assert not ours.requires_grad
    same(ours, torch.argsort(tx, dim=dim, descending=descending, stable=True))
    same(ag.argsort(ag.tensor(3.0)), torch.argsort(torch.tensor(3.0)))


@pytest.mark.torch
@pytest.mark.parametrize(
    "kwargs", [{"k": 2}, {"k": 3, "largest": False}, {"k": 1, "dim": 0}, {"k": 2, "dim": 0},
               {"k": 0}, {"k": 4, "sorted": False}],
    ids=str,
)
def test_topk_values_carry_the_gradient_and_indices_are_constants(kwargs, rng):
    array = rng.permutation(24).reshape(2, 3, 4) * 0.5 - 3.0  # no ties: one right answer
    x, tx = both(array)
    values, indices = x.topk(**kwargs)
    tvalues, tindices = tx.topk(**kwargs)
    if kwargs.get("sorted", True) is False:  # PyTorch leaves this order open: compare sorted
        tvalues, order = torch.sort(tvalues, dim=-1, descending=True)
        tindices = torch.gather(tindices, -1, order)
    same(values, tvalues)
    same(indices, tindices)
    assert not indices.requires_grad and values.requires_grad
    same_gradients(values, tvalues, [x], [tx], rng)
    named = ag.topk(x, **kwargs)
    same(named.values, values)
    same(named.indices, indices)


@pytest.mark.torch
def test_topk_puts_nan_first_as_pytorch_and_refuses_too_large_a_k():
    x, tx = both([1.0, np.nan, 3.0, 2.0])
    values, indices = x.topk(2)
    tvalues, tindices = tx.topk(2)
    same(values, tvalues)
    same(indices, tindices)
    with pytest.raises(ValueError, match=r"topk: k \(5\) is out of range: axis -1 of the tensor "
                       r"of shape \(4,\) has 4 elements; use k between 0 and 4"):
        x.topk(5)
