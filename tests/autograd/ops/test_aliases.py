"""PyTorch's other spellings: t, expand, view, clamp, cat, the arithmetic methods
(autograd/ops/aliases.py), each against PyTorch."""

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.vs_torch import both, same, same_gradients

SPELLINGS = [
    ("t of a matrix", (2, 3), lambda x: x.t(), lambda x: x.t()),
    ("t of a vector", (3,), lambda x: x.t(), lambda x: x.t()),
    ("ag.t", (2, 3), ag.t, None),
    ("expand with -1", (2, 1), lambda x: x.expand(2, 4), lambda x: x.expand(2, 4)),
    ("expand new axes", (2, 1), lambda x: x.expand(3, -1, 4), lambda x: x.expand(3, -1, 4)),
    ("expand a tuple", (1, 3), lambda x: x.expand((2, 3)), lambda x: x.expand((2, 3))),
    ("expand_as", (3,), lambda x: x.expand_as(ag.zeros(2, 3)),
     lambda x: x.expand_as(torch.zeros(2, 3))),
    ("view", (2, 3), lambda x: x.view(3, 2), lambda x: x.view(3, 2)),
    ("view -1", (2, 3), lambda x: x.view(-1), lambda x: x.view(-1)),
    ("view a tuple", (2, 3), lambda x: x.view((1, 6)), lambda x: x.view((1, 6))),
    ("view_as", (2, 3), lambda x: x.view_as(ag.zeros(6)), lambda x: x.view_as(torch.zeros(6))),
    ("contiguous", (2, 3), lambda x: x.T.contiguous() * 2, lambda x: x.T.contiguous() * 2),
    ("clone", (2, 3), lambda x: x.clone() * x, lambda x: x.clone() * x),
    ("clamp numbers", (2, 3), lambda x: x.clamp(-0.5, 0.5), lambda x: x.clamp(-0.5, 0.5)),
    ("clamp min=", (2, 3), lambda x: ag.clamp(x, min=0.1), lambda x: torch.clamp(x, min=0.1)),
    ("clamp max=", (2, 3), lambda x: x.clamp(max=0.2), lambda x: x.clamp(max=0.2)),
    ("add", (2, 3), lambda x: x.add(x * 2), lambda x: x.add(x * 2)),
    ("sub", (2, 3), lambda x: x.sub(1.5), lambda x: x.sub(1.5)),
    ("mul", (2, 3), lambda x: x.mul(x), lambda x: x.mul(x)),
    ("div", (2, 3), lambda x: x.div(x * x + 1), lambda x: x.div(x * x + 1)),
    ("pow", (2, 3), lambda x: x.pow(3), lambda x: x.pow(3)),
    ("neg", (2, 3), lambda x: x.neg(), lambda x: x.neg()),
    ("matmul", (2, 3), lambda x: x.matmul(x.T), lambda x: x.matmul(x.T)),
    ("square", (2, 3), lambda x: x.square(), lambda x: x.square()),
    ("cat", (2, 3), lambda x: ag.cat([x, x * 2], dim=1), lambda x: torch.cat([x, x * 2], dim=1)),
    ("cat positional", (2, 3), lambda x: ag.cat([x, x], 0), lambda x: torch.cat([x, x], 0)),
    ("cat a tuple", (2, 3), lambda x: ag.cat((x, x), dim=-1), lambda x: torch.cat((x, x), -1)),
]


@pytest.mark.torch
@pytest.mark.parametrize(("what", "shape", "ours", "theirs"), SPELLINGS,
                         ids=[s[0] for s in SPELLINGS])
def test_a_pytorch_spelling_gives_pytorchs_value_and_gradient(what, shape, ours, theirs, rng):
    theirs = theirs or (lambda x: getattr(torch, what.split(".")[1])(x))
    x, tx = both(rng.standard_normal(shape))
    y, ty = ours(x), theirs(tx)
    same(y, ty)
    same_gradients(y, ty, [x], [tx], rng)


@pytest.mark.torch
def test_t_refuses_three_dimensions_and_expand_a_size_that_is_not_one():
    with pytest.raises(ValueError, match=r"t\(\) expects a tensor with at most 2 dimensions, "
                       r"but this one has shape \(2, 3, 4\); use x.transpose\(0, 1\)"):
        ag.zeros(2, 3, 4).t()
    with pytest.raises(ValueError, match=r"expand: the size of axis 1 \(3\) must be 1 or match "
                       r"the target size 4; target \(2, 4\), tensor shape \(2, 3\)"):
        ag.zeros(2, 3).expand(2, 4)
    with pytest.raises(ValueError, match=r"expand: -1 is not allowed for a new leading axis"):
        ag.zeros(2, 3).expand(-1, 2, 3)
    with pytest.raises(ValueError, match="the number of sizes given"):
        ag.zeros(2, 3).expand(3)
    with pytest.raises(TypeError, match=r"to change the dtype use x.to\(dtype\)"):
        ag.zeros(2).view(np.float32)


CLAMP_EDGES = [  # (x, min, max): ties, crossed bounds and equal bounds, as PyTorch shares them
    (0.0, 2.0, 1.0), (0.0, 1.0, 1.0), (1.0, 1.0, 1.0), (2.0, 1.0, 1.0), (1.0, 1.0, 2.0),
    (2.0, 1.0, 2.0), (3.0, 2.0, 1.0), (1.5, 2.0, 1.0), (0.5, 1.0, 2.0), (2.5, 1.0, 2.0),
]


@pytest.mark.torch
@pytest.mark.parametrize(("x", "low", "high"), CLAMP_EDGES)
def test_clamp_with_tensor_bounds_shares_the_gradient_as_pytorch(x, low, high):
    (a, ta), (lo, tlo), (hi, thi) = both([x]), both([low]), both([high])
    y, ty = ag.clamp(a, lo, hi), torch.clamp(ta, tlo, thi)
    same(y, ty)
    same_gradients(y, ty, [a, lo, hi], [ta, tlo, thi], np.random.default_rng(0))


@pytest.mark.torch
def test_clamp_with_broadcast_tensor_bounds_and_one_missing_bound(rng):
    (x, tx), (lo, tlo) = both(rng.standard_normal((3, 4))), both(rng.standard_normal(4) * 0.5)
    y, ty = x.clamp(min=lo), tx.clamp(min=tlo)
    same(y, ty)
    same_gradients(y, ty, [x, lo], [tx, tlo], rng)
    (x, tx), (hi, thi) = both(rng.standard_normal((3, 4))), both(rng.standard_normal((3, 1)))
    y, ty = ag.clamp(x, max=hi), torch.clamp(tx, max=thi)
    same(y, ty)
    same_gradients(y, ty, [x, hi], [tx, thi], rng)


@pytest.mark.torch
def test_clamp_needs_a_bound():
    with pytest.raises(ValueError, match=r"clamp needs min, max or both"):
        ag.zeros(2).clamp()
