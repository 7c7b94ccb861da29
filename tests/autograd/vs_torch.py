"""Comparisons with PyTorch for the engine's tests: the same leaf in each engine, and results
compared as arrays (PyTorch is a test oracle, never a dependency: a test using these is marked
``@pytest.mark.torch``)."""

import numpy as np

import autograd as ag
from tests.autograd.helpers import torch


def both(array, requires_grad=True):
    """The same float64 leaf in each engine."""
    array = np.asarray(array, dtype=np.float64)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def same(ours, theirs):
    """The same shape, dtype and values (to 1e-12)."""
    if isinstance(theirs, torch.Tensor):
        theirs = theirs.detach().numpy()
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert ours.shape == np.shape(theirs)
    assert ours.dtype == np.asarray(theirs).dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def same_gradients(ours, theirs, leaves, tleaves, rng):
    """After one backward of each output with the same random upstream gradient, the same
    gradients on every leaf."""
    upstream = rng.standard_normal(theirs.shape)
    ours.backward(ag.tensor(upstream))
    theirs.backward(torch.tensor(upstream))
    for leaf, tleaf in zip(leaves, tleaves, strict=True):
        same(leaf.grad, tleaf.grad)


def assert_same(ours, theirs, what=""):
    """The same shape and values (to 1e-12), whatever the dtype."""
    if isinstance(theirs, torch.Tensor):
        theirs = theirs.detach().clone().numpy(force=True)
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert ours.shape == theirs.shape, what
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, err_msg=what)


def close(ours, theirs, rtol=1e-12, atol=1e-12):
    ours = ours.data if isinstance(ours, ag.Tensor) else ours
    np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=rtol, atol=atol)
