"""The tensor ops a course needs after micrograd (issue 19), against PyTorch: values and gradients
in float64 and float32 with a random upstream gradient, second derivatives where PyTorch has them
(and none where it has none), forward mode, finite differences, edge shapes (0-d, size-1 and
empty dimensions, negative dims, empty splits) and the errors a student meets."""

from dataclasses import dataclass, field

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.torch,
              pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")]

_rng = np.random.default_rng(19)


def r(*shape):
    return _rng.standard_normal(shape)


@dataclass
class Case:
    id: str
    ours: object
    theirs: object
    arrays: list
    linear: bool = False  # the gradient does not depend on the inputs: no second derivative
    tol32: float = 2e-5
    tol64: float = 1e-10
    skip: tuple = field(default_factory=tuple)


def idx(values):
    """An index as each library takes it."""
    return np.array(values), torch.tensor(values)


G1, TG1 = idx([[2, 0], [1, 1], [0, 3]])
G0, TG0 = idx([[1, 0, 1, 1], [0, 0, 1, 0]])
S1, TS1 = idx([[0, 0, 2], [1, 3, 1], [2, 2, 2]])
ROW = np.array([True, False, True, False])
ONE_ZERO = np.array([[0.0, 2.0, -3.0], [1.5, 0.5, -2.0], [4.0, 0.0, 0.5]])
TWO_ZEROS = np.array([[0.0, 2.0, 0.0], [1.5, 0.5, -2.0]])
INSIDE_ONE = np.array([[0.3, -0.6, 0.9, -0.05], [0.45, -0.99, 0.7, 0.1]])
NO_POLES = np.array([[0.3, -0.6, 2.9, -1.5], [4.5, -2.2, 17.0, 0.1]])  # away from 0, -1, -2, ...
WELL_CONDITIONED = np.array([[2.0, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.6, 0.1, 1.8]])
TIES = np.array([[[1.0, 3.0], [3.0, 0.5]], [[2.0, 3.0], [-1.0, 0.5]]])
WITH_NAN = np.array([[1.5, np.nan, -0.5], [np.nan, np.nan, 2.0]])
XLOGY_X = np.array([[0.0, 0.0, 0.0], [1.5, 0.0, -2.0]])
FRACTIONS = np.array([[0.35, -1.1, 2.3, 0.8], [-0.3, 1.45, -2.6, 1.9], [0.6, 0.2, -0.9, 1.1]])


def pieces(lib, parts):
    """The pieces scaled apart (by 1, 2, 3, …) and joined back, so each piece's gradient shows."""
    scaled = [p * (i + 1) for i, p in enumerate(parts)]
    return ag.concatenate([p.flatten() for p in scaled]) if lib is ag else torch.cat(
        [p.flatten() for p in scaled])


CASES = [
    # einsum
    Case("einsum matmul", lambda a, b: ag.einsum("ij,jk->ik", a, b),
         lambda a, b: torch.einsum("ij,jk->ik", a, b), [r(3, 4), r(4, 2)]),
    Case("einsum implicit output", lambda a, b: ag.einsum("ij,kj", a, b),
         lambda a, b: torch.einsum("ij,kj", a, b), [r(3, 4), r(2, 4)]),
    Case("einsum implicit output orders A before a", lambda a, b: ag.einsum("Ab,ba", a, b),
         lambda a, b: torch.einsum("Ab,ba", a, b), [r(2, 3), r(3, 4)]),
    Case("einsum operands in a list", lambda a, b: ag.einsum("i,i->", [a, b]),
         lambda a, b: torch.einsum("i,i->", [a, b]), [r(4), r(4)]),
    Case("einsum spaces", lambda a, b: ag.einsum(" ij , jk -> ki ", a, b),
         lambda a, b: torch.einsum(" ij , jk -> ki ", a, b), [r(3, 4), r(4, 2)]),
    Case("einsum ellipsis batch", lambda a, b: ag.einsum("...ij,...jk->...ik", a, b),
         lambda a, b: torch.einsum("...ij,...jk->...ik", a, b), [r(2, 3, 4), r(4, 5)]),
    Case("einsum ellipsis broadcasts size 1", lambda a, b: ag.einsum("...ij,...jk", a, b),
         lambda a, b: torch.einsum("...ij,...jk", a, b), [r(2, 1, 3, 4), r(5, 4, 2)]),
    Case("einsum ellipsis summed out", lambda a: ag.einsum("...ij->j", a),
         lambda a: torch.einsum("...ij->j", a), [r(2, 3, 4)], linear=True),
    Case("einsum trace", lambda a: ag.einsum("ii", a), lambda a: torch.einsum("ii", a),
         [r(3, 3)], linear=True),
    Case("einsum diagonal", lambda a: ag.einsum("ii->i", a), lambda a: torch.einsum("ii->i", a),
         [r(3, 3)], linear=True),
    Case("einsum batched diagonal", lambda a: ag.einsum("...ii->...i", a),
         lambda a: torch.einsum("...ii->...i", a), [r(2, 3, 3)], linear=True),
    Case("einsum repeated subscript with another operand",
         lambda a, b: ag.einsum("iij,jk->ik", a, b),
         lambda a, b: torch.einsum("iij,jk->ik", a, b), [r(3, 3, 4), r(4, 2)]),
    Case("einsum subscript only one operand has", lambda a, b: ag.einsum("ij,k->k", a, b),
         lambda a, b: torch.einsum("ij,k->k", a, b), [r(2, 3), r(4)]),
    Case("einsum size-1 subscript broadcasts", lambda a, b: ag.einsum("ij,jk->ik", a, b),
         lambda a, b: torch.einsum("ij,jk->ik", a, b), [r(2, 1), r(3, 4)]),
    Case("einsum three operands", lambda a, b, c: ag.einsum("i,j,k->ijk", a, b, c),
         lambda a, b, c: torch.einsum("i,j,k->ijk", a, b, c), [r(2), r(3), r(4)]),
    Case("einsum attention scores", lambda q, k: ag.einsum("bhqd,bhkd->bhqk", q, k),
         lambda q, k: torch.einsum("bhqd,bhkd->bhqk", q, k), [r(2, 2, 3, 4), r(2, 2, 5, 4)]),
    Case("einsum 0-d operand", lambda s, v: ag.einsum(",i->i", s, v),
         lambda s, v: torch.einsum(",i->i", s, v), [r(), r(3)]),
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
    # prod
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
    # norm
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
    # cumsum
    Case("cumsum", lambda x: x.cumsum(1), lambda x: x.cumsum(1), [r(3, 4)], linear=True),
    Case("cumsum over a negative dim", lambda x: ag.cumsum(x, dim=-3),
         lambda x: torch.cumsum(x, dim=-3), [r(3, 2, 2)], linear=True),
    Case("cumsum of a 0-d tensor", lambda x: x.cumsum(0), lambda x: x.cumsum(0), [r()],
         linear=True),
    # flip, roll, repeat, tile
    Case("flip", lambda x: x.flip(0), lambda x: x.flip(0), [r(3, 4)], linear=True),
    Case("flip two dims, listed", lambda x: ag.flip(x, [0, -1]),
         lambda x: torch.flip(x, [0, -1]), [r(2, 3, 4)], linear=True),
    Case("flip dims=", lambda x: ag.flip(x, dims=(1,)), lambda x: torch.flip(x, dims=(1,)),
         [r(2, 3)], linear=True),
    Case("flip a 0-d tensor", lambda x: x.flip(0), lambda x: x.flip(0), [r()], linear=True),
    Case("roll flattened", lambda x: x.roll(5), lambda x: x.roll(5), [r(3, 4)], linear=True),
    Case("roll two dims", lambda x: ag.roll(x, (1, -2), (0, 1)),
         lambda x: torch.roll(x, (1, -2), (0, 1)), [r(3, 4)], linear=True),
    Case("roll further than the size", lambda x: x.roll(shifts=7, dims=-1),
         lambda x: x.roll(shifts=7, dims=-1), [r(3, 4)], linear=True),
    Case("roll a 0-d tensor", lambda x: x.roll(1), lambda x: x.roll(1), [r()], linear=True),
    Case("repeat", lambda x: x.repeat(2, 3), lambda x: x.repeat(2, 3), [r(2, 3)], linear=True),
    Case("repeat adds leading dims", lambda x: x.repeat((2, 1, 2)),
         lambda x: x.repeat((2, 1, 2)), [r(2, 3)], linear=True),
    Case("repeat a 0-d tensor", lambda x: x.repeat(3), lambda x: x.repeat(3), [r()],
         linear=True),
    Case("tile with fewer dims", lambda x: ag.tile(x, (2,)), lambda x: torch.tile(x, (2,)),
         [r(2, 3)], linear=True),
    Case("tile method", lambda x: x.tile(2, 1, 1), lambda x: x.tile(2, 1, 1), [r(2, 3)],
         linear=True),
    # tril, triu
    Case("tril", lambda x: x.tril(), lambda x: x.tril(), [r(4, 4)], linear=True),
    Case("tril below the diagonal of a batch", lambda x: ag.tril(x, -1),
         lambda x: torch.tril(x, -1), [r(2, 3, 4)], linear=True),
    Case("triu above, non-square", lambda x: x.triu(diagonal=2),
         lambda x: x.triu(diagonal=2), [r(3, 5)], linear=True),
    Case("triu negative diagonal", lambda x: x.triu(-1), lambda x: x.triu(-1), [r(4, 3)],
         linear=True),
    # split, chunk, unbind
    Case("split into sizes", lambda x: pieces(ag, x.split(2, dim=1)),
         lambda x: pieces(torch, x.split(2, dim=1)), [r(3, 5)], linear=True),
    Case("split into sections, one empty", lambda x: pieces(ag, ag.split(x, [2, 0, 1], -1)),
         lambda x: pieces(torch, torch.split(x, [2, 0, 1], -1)), [r(2, 3)], linear=True),
    Case("split bigger than the dim", lambda x: pieces(ag, x.split(10)),
         lambda x: pieces(torch, x.split(10)), [r(3, 2)], linear=True),
    Case("chunk", lambda x: pieces(ag, x.chunk(3, 1)), lambda x: pieces(torch, x.chunk(3, 1)),
         [r(2, 7)], linear=True),
    Case("chunk gives fewer pieces", lambda x: pieces(ag, ag.chunk(x, 4)),
         lambda x: pieces(torch, torch.chunk(x, 4)), [r(6, 2)], linear=True),
    Case("unbind", lambda x: pieces(ag, x.unbind(1)), lambda x: pieces(torch, x.unbind(1)),
         [r(2, 3, 2)], linear=True),
    Case("unbind a negative dim", lambda x: pieces(ag, ag.unbind(x, dim=-1)),
         lambda x: pieces(torch, torch.unbind(x, dim=-1)), [r(3, 2)], linear=True),
    # gather, scatter_add, masked_fill
    Case("gather", lambda x: x.gather(1, G1), lambda x: x.gather(1, TG1), [r(3, 4)],
         linear=True),
    Case("gather along 0 with an index smaller than x",
         lambda x: ag.gather(x, 0, G0), lambda x: torch.gather(x, 0, TG0), [r(3, 5)],
         linear=True),
    Case("gather with repeats and a negative dim", lambda x: x.gather(-1, S1),
         lambda x: x.gather(-1, TS1), [r(3, 4)], linear=True),
    Case("gather from a 0-d tensor", lambda x: x.gather(0, np.array([0, 0])),
         lambda x: x.gather(0, torch.tensor([0, 0])), [r()], linear=True),
    Case("scatter_add", lambda x, s: x.scatter_add(1, S1, s),
         lambda x, s: x.scatter_add(1, TS1, s), [r(3, 4), r(3, 3)], linear=True),
    Case("scatter_add along 0", lambda x, s: ag.scatter_add(x, 0, G0, s),
         lambda x, s: torch.scatter_add(x, 0, TG0, s), [r(3, 5), r(2, 4)], linear=True),
    Case("masked_fill with a broadcast mask", lambda x: x.masked_fill(ROW, -1.5),
         lambda x: x.masked_fill(torch.tensor(ROW), -1.5), [r(3, 4)], linear=True),
    Case("masked_fill broadcasts x to the mask", lambda x: x.masked_fill(ROW[:, None], 2.0),
         lambda x: x.masked_fill(torch.tensor(ROW[:, None]), 2.0), [r(3)], linear=True),
    Case("masked_fill from a 0-d tensor that requires grad",
         lambda x, v: x.masked_fill(ROW, v), lambda x, v: x.masked_fill(torch.tensor(ROW), v),
         [r(2, 4), r()], linear=True),
    # outer, dot, bmm
    Case("outer", lambda a, b: a.outer(b), lambda a, b: a.outer(b), [r(3), r(4)]),
    Case("dot", lambda a, b: ag.dot(a, b), lambda a, b: torch.dot(a, b), [r(5), r(5)]),
    Case("bmm", lambda a, b: a.bmm(b), lambda a, b: a.bmm(b), [r(2, 3, 4), r(2, 4, 2)]),
    # elementwise functions of issue 30
    *(Case(name, getattr(ag, name), getattr(torch, name), [arrays])
      for name, arrays in [("asin", INSIDE_ONE), ("acos", INSIDE_ONE), ("atan", r(3, 4) * 3),
                           ("erfinv", INSIDE_ONE)]),
    Case("erfinv of a 0-d tensor", ag.erfinv, torch.erfinv, [np.array(0.5)]),
    # PyTorch's trigamma is good to about 1e-10 (ours to an ulp: test_awkward_points' mpmath)
    *(Case(name, getattr(ag, name), getattr(torch, name), [NO_POLES], tol64=1e-8)
      for name in ("lgamma", "digamma")),
    Case("polygamma 1", lambda x: ag.polygamma(1, x), lambda x: torch.polygamma(1, x),
         [NO_POLES], tol64=1e-8),
    Case("polygamma 2", lambda x: ag.polygamma(2, x), lambda x: torch.polygamma(2, x),
         [np.abs(NO_POLES)]),
    *(Case(name, getattr(ag, name), getattr(torch, name), [r(3, 4), r(4)])
      for name in ("hypot", "logaddexp", "logaddexp2")),
    Case("xlogy", ag.xlogy, torch.xlogy, [r(3, 4), np.abs(r(4)) + 0.1]),
    Case("xlogy at x = 0", ag.xlogy, torch.xlogy, [XLOGY_X, np.array([0.5, 0.0, 2.0])],
         skip=("fd", "second")),
    Case("fmod", ag.fmod, torch.fmod, [FRACTIONS * 3, np.array([1.5, -2.5, 0.7, -1.3])],
         linear=True),
    Case("remainder", ag.remainder, torch.remainder,
         [FRACTIONS * 3, np.array([1.5, -2.5, 0.7, -1.3])], linear=True),
    # reductions of issue 30
    Case("amax over a tuple of dims with ties", lambda x: x.amax(dim=(0, 2)),
         lambda x: x.amax(dim=(0, 2)), [TIES], linear=True, skip=("fd",)),
    Case("amin keepdim", lambda x: ag.amin(x, 1, keepdim=True),
         lambda x: torch.amin(x, 1, keepdim=True), [TIES], linear=True, skip=("fd",)),
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
    # products of issue 30
    Case("mm", lambda a, b: a.mm(b), lambda a, b: a.mm(b), [r(3, 4), r(4, 2)]),
    Case("mv", lambda a, v: ag.mv(a, v), lambda a, v: torch.mv(a, v), [r(3, 4), r(4)]),
    Case("addmm", lambda i, a, b: ag.addmm(i, a, b), lambda i, a, b: torch.addmm(i, a, b),
         [r(3, 2), r(3, 4), r(4, 2)]),
    Case("addmm beta alpha, broadcast input",
         lambda i, a, b: i.addmm(a, b, beta=0.5, alpha=-2.0),
         lambda i, a, b: i.addmm(a, b, beta=0.5, alpha=-2.0), [r(2), r(3, 4), r(4, 2)]),
    Case("addmm beta 0 ignores input", lambda i, a, b: ag.addmm(i, a, b, beta=0),
         lambda i, a, b: torch.addmm(i, a, b, beta=0),
         [np.full((3, 2), np.nan), r(3, 4), r(4, 2)], skip=("fd", "second")),
    Case("baddbmm", lambda i, a, b: ag.baddbmm(i, a, b, beta=2.0, alpha=0.5),
         lambda i, a, b: torch.baddbmm(i, a, b, beta=2.0, alpha=0.5),
         [r(1, 3, 2), r(2, 3, 4), r(2, 4, 2)]),
    # autograd.linalg (symmetric and positive definite inputs are made inside, so the gradient
    # reaches every element as in PyTorch)
    Case("linalg.inv", ag.linalg.inv, torch.linalg.inv, [WELL_CONDITIONED], tol32=1e-4),
    Case("linalg.inv of a batch", ag.linalg.inv, torch.linalg.inv,
         [np.stack([WELL_CONDITIONED, WELL_CONDITIONED.T])], tol32=1e-4),
    Case("linalg.det", ag.linalg.det, torch.linalg.det, [WELL_CONDITIONED], tol32=1e-4),
    Case("linalg.slogdet", lambda a: ag.linalg.slogdet(a).logabsdet,
         lambda a: torch.linalg.slogdet(a).logabsdet, [-WELL_CONDITIONED], tol32=1e-4),
    Case("linalg.solve", ag.linalg.solve, torch.linalg.solve, [WELL_CONDITIONED, r(3, 2)],
         tol32=1e-4),
    Case("linalg.solve a vector", ag.linalg.solve, torch.linalg.solve,
         [WELL_CONDITIONED, r(3)], tol32=1e-4),
    Case("linalg.cholesky", lambda m: ag.linalg.cholesky(m @ m.mT + ag.eye(3, dtype=m.dtype)),
         lambda m: torch.linalg.cholesky(m @ m.mT + torch.eye(3, dtype=m.dtype)), [r(3, 3)],
         tol32=1e-4),
    Case("linalg.eigh values", lambda m: ag.linalg.eigh(m + m.mT).eigenvalues,
         lambda m: torch.linalg.eigh(m + m.mT).eigenvalues, [r(3, 3)], tol32=1e-4),
    Case("linalg.eigh vectors", lambda m: ag.linalg.eigh(m + m.mT).eigenvectors.abs(),
         lambda m: torch.linalg.eigh(m + m.mT).eigenvectors.abs(), [r(3, 3)], tol32=1e-4),
    Case("linalg.eigvalsh", lambda m: ag.linalg.eigvalsh(m + m.mT),
         lambda m: torch.linalg.eigvalsh(m + m.mT), [r(4, 4)], tol32=1e-4),
    *(Case(f"linalg.matrix_norm {order}", lambda m, o=order: ag.linalg.matrix_norm(m, o),
           lambda m, o=order: torch.linalg.matrix_norm(m, o), [r(3, 4)],
           linear=order != "fro", skip=("fd",) if order != "fro" else ())
      for order in ("fro", 1, -1, np.inf, -np.inf)),
    # an SVD's signs are a convention: |U| and |Vh| are compared, whose gradients are not
    *(Case(f"linalg.svd {part} of {shape}",
           lambda m, i=i: ag.linalg.svd(m, full_matrices=False)[i].abs(),
           lambda m, i=i: torch.linalg.svd(m, full_matrices=False)[i].abs(), [r(*shape)],
           tol32=1e-4)
      for shape in ((3, 3), (4, 2), (2, 4), (2, 3, 2)) for i, part in enumerate("U S Vh".split())),
    *(Case(f"linalg.qr {part} of {shape}", lambda m, i=i: ag.linalg.qr(m)[i],
           lambda m, i=i: torch.linalg.qr(m)[i], [r(*shape)], tol32=1e-4)
      for shape in ((3, 3), (4, 2), (2, 4), (2, 3, 2)) for i, part in enumerate("QR")),
    Case("linalg.svdvals", ag.linalg.svdvals, torch.linalg.svdvals, [r(3, 5)], tol32=1e-4),
    *(Case(f"linalg.matrix_norm {order}", lambda m, o=order: ag.linalg.matrix_norm(m, o),
           lambda m, o=order: torch.linalg.matrix_norm(m, o), [r(2, 3, 4)], tol32=1e-4)
      for order in ("nuc", 2, -2)),
    Case("linalg.matrix_norm nuc over dims (0, 2), keepdim",
         lambda m: ag.linalg.matrix_norm(m, "nuc", dim=(0, 2), keepdim=True),
         lambda m: torch.linalg.matrix_norm(m, "nuc", dim=(0, 2), keepdim=True), [r(3, 2, 4)],
         tol32=1e-4),
    Case("linalg.vector_norm", lambda x: ag.linalg.vector_norm(x, 3, dim=1, keepdim=True),
         lambda x: torch.linalg.vector_norm(x, 3, dim=1, keepdim=True), [r(3, 4)]),
    Case("linalg.norm", lambda x: ag.linalg.norm(x), lambda x: torch.linalg.norm(x), [r(3, 4)]),
]
BY_ID = pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
NONLINEAR = [case for case in CASES if not case.linear and "second" not in case.skip]


def ours_and_theirs(case, dtype):
    """Leaves of each library in ``dtype`` (float64 or float32) and each library's output."""
    arrays = [np.asarray(a, dtype=dtype) for a in case.arrays]
    leaves = [ag.tensor(a.copy(), requires_grad=True) for a in arrays]
    tleaves = [torch.tensor(a.copy(), requires_grad=True) for a in arrays]
    return leaves, case.ours(*leaves), tleaves, case.theirs(*tleaves)


def assert_close(ours, theirs, rtol, atol, what):
    theirs = theirs.detach().numpy() if isinstance(theirs, torch.Tensor) else theirs
    ours = ours.data if isinstance(ours, ag.Tensor) else ours
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{what}: dtype {ours.dtype} vs {theirs.dtype}"
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, err_msg=what)


@BY_ID
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_and_gradients_match_torch(case, dtype):
    leaves, out, tleaves, tout = ours_and_theirs(case, dtype)
    tol = case.tol64 if dtype == np.float64 else case.tol32
    assert_close(out, tout, tol, tol, "value")
    upstream = np.asarray(_rng.standard_normal(out.shape), dtype=dtype)
    out.backward(upstream)
    tout.backward(torch.tensor(upstream))
    for i, (leaf, tleaf) in enumerate(zip(leaves, tleaves)):
        if tleaf.grad is None:  # PyTorch gives no gradient (norm with p=0): neither do we
            assert leaf.grad is None, f"input {i} has a gradient where PyTorch has none"
        else:
            assert_close(leaf.grad, tleaf.grad, tol, tol, f"gradient of input {i}")


@pytest.mark.parametrize("case", [c for c in CASES if "fd" not in c.skip],
                         ids=[c.id for c in CASES if "fd" not in c.skip])
def test_gradients_match_finite_differences(case):
    check_gradients(case.ours, *case.arrays, rng=np.random.default_rng(0))


@pytest.mark.parametrize("case", NONLINEAR, ids=[c.id for c in NONLINEAR])
def test_second_derivatives_match_finite_differences(case):
    check_second_order(case.ours, *case.arrays, rng=np.random.default_rng(1))


@pytest.mark.parametrize("case", [c for c in CASES if "torch second" not in c.skip],
                         ids=[c.id for c in CASES if "torch second" not in c.skip])
def test_second_derivatives_match_torch_or_are_absent_as_in_torch(case):
    leaves, out, tleaves, tout = ours_and_theirs(case, np.float64)
    rng = np.random.default_rng(2)
    upstream = rng.standard_normal(out.shape)
    grads = ag.grad(out, leaves, ag.tensor(upstream), create_graph=True, allow_unused=True)
    tgrads = torch.autograd.grad(tout, tleaves, torch.tensor(upstream), create_graph=True,
                                 allow_unused=True)
    for g, tg in zip(grads, tgrads):
        assert (g is not None and g.requires_grad) == (tg is not None and tg.requires_grad)
    pairs = [(g, tg, leaf.shape) for g, tg, leaf in zip(grads, tgrads, leaves)
             if tg is not None and tg.requires_grad]
    if not pairs:
        return
    directions = [rng.standard_normal(shape) for _, _, shape in pairs]
    s = sum((g * ag.tensor(v)).sum() for (g, _, _), v in zip(pairs, directions))
    ts = sum((tg * torch.tensor(v)).sum() for (_, tg, _), v in zip(pairs, directions))
    second = ag.grad(s, leaves, allow_unused=True)
    tsecond = torch.autograd.grad(ts, tleaves, allow_unused=True)
    for i, (h, th) in enumerate(zip(second, tsecond)):
        expected = np.zeros(leaves[i].shape) if th is None else th.detach().numpy(force=True)
        got = np.zeros(leaves[i].shape) if h is None else h.data
        np.testing.assert_allclose(got, expected, rtol=max(1e-9, case.tol64),
                                   atol=max(1e-9, case.tol64),
                                   err_msg=f"second derivative, input {i}")


@BY_ID
def test_forward_mode_matches_torch(case):
    arrays = [np.asarray(a, dtype=np.float64) for a in case.arrays]
    rng = np.random.default_rng(3)
    tangents = [rng.standard_normal(a.shape) for a in arrays]
    _, pushed = ag.func.jvp(case.ours, [ag.tensor(a) for a in arrays],
                            [ag.tensor(t) for t in tangents])
    _, tpushed = torch.func.jvp(case.theirs, tuple(torch.tensor(a) for a in arrays),
                                tuple(torch.tensor(t) for t in tangents))
    assert_close(pushed, tpushed, case.tol64, case.tol64, "tangent")


# --- behaviours worth a sentence of their own -----------------------------------------------


def test_prod_with_one_zero_sends_the_product_of_the_others_to_the_zero_only():
    x = ag.tensor([2.0, 0.0, 3.0, -1.0], requires_grad=True)
    x.prod().backward()
    np.testing.assert_array_equal(x.grad.data, [0.0, -6.0, 0.0, 0.0])


def test_prod_with_two_zeros_sends_no_gradient():
    x = ag.tensor([2.0, 0.0, 3.0, 0.0], requires_grad=True)
    x.prod().backward()
    np.testing.assert_array_equal(x.grad.data, [0.0, 0.0, 0.0, 0.0])


def test_norm_p0_counts_non_zeros_and_gives_no_gradient_as_torch():
    x = ag.tensor([0.0, 2.0, -2.0], requires_grad=True)
    y = x.norm(0)
    assert y.item() == 2.0
    y.backward()
    assert x.grad is None


def test_einsum_output_order_and_shapes_follow_torch():
    cases = [("ba", [(2, 3)]), ("ij...", [(2, 3, 4)]), ("...ij->ij", [(2, 3, 3)]),
             ("i...->", [(2, 3, 3)]), ("Ab,bA", [(2, 3), (3, 2)])]
    for equation, shapes in cases:
        arrays = [r(*s) for s in shapes]
        ours = ag.einsum(equation, *[ag.tensor(a) for a in arrays])
        theirs = torch.einsum(equation, *[torch.tensor(a) for a in arrays])
        assert_close(ours, theirs, 1e-12, 1e-12, equation)


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
    assert_close(x.gather(dim=1, index=G1), tx.gather(dim=1, index=TG1), 0, 0, "gather")
    assert_close(ag.var(x, axis=1, keepdims=True), tx.var(1, keepdim=True), 1e-12, 1e-12,
                 "NumPy's keywords too")


def test_split_edge_cases_match_torch():
    for sizes, n in [(2, 0), (0, 0), ([0, 0], 0), ([3], 3), (1, 1)]:
        ours = ag.split(ag.tensor(np.zeros(n)), sizes)
        theirs = torch.split(torch.zeros(n, dtype=torch.float64), sizes)
        assert [p.shape for p in ours] == [tuple(p.shape) for p in theirs], (sizes, n)
    for chunks, n in [(3, 0), (4, 5), (4, 6), (1, 3), (5, 3)]:
        ours = ag.chunk(ag.tensor(np.zeros(n)), chunks)
        theirs = torch.chunk(torch.zeros(n, dtype=torch.float64), chunks)
        assert [p.shape for p in ours] == [tuple(p.shape) for p in theirs], (chunks, n)
    assert ag.unbind(ag.tensor(np.zeros((0, 2)))) == ()


def test_an_empty_piece_gets_an_empty_gradient_and_the_rest_theirs():
    x = ag.tensor(r(2, 3), requires_grad=True)
    first, empty, last = ag.split(x, [2, 0, 1], dim=1)
    assert empty.shape == (2, 0)
    (first.sum() + 2 * last.sum() + empty.sum()).backward()
    np.testing.assert_array_equal(x.grad.data, [[1.0, 1.0, 2.0], [1.0, 1.0, 2.0]])


def test_each_piece_of_a_split_is_its_own_node():
    x = ag.tensor(r(4), requires_grad=True)
    parts = ag.split(x, 2)
    assert [type(p.grad_fn).__name__ for p in parts] == ["Index", "Index"]
    assert all(p.parents == (x,) for p in parts)


def test_one_hot_is_an_untracked_int64_tensor_like_torch():
    labels = np.array([[0, 2], [3, 1]])
    ours = ag.one_hot(ag.tensor(labels))
    theirs = torch.nn.functional.one_hot(torch.tensor(labels))
    assert_close(ours, theirs, 0, 0, "one_hot")
    assert not ours.requires_grad and ours.grad_fn is None
    assert_close(ag.one_hot(labels, num_classes=6), torch.nn.functional.one_hot(
        torch.tensor(labels), num_classes=6), 0, 0, "num_classes")
    assert ag.one_hot(np.array(1), 3).tolist() == [0, 1, 0]


def test_a_float32_input_keeps_float32_values_and_gradients():
    for fn in (lambda x: x.var(1), lambda x: x.std(), lambda x: x.prod(0), lambda x: x.norm(3),
               lambda x: x.cumsum(0), lambda x: ag.einsum("ij,kj->ik", x, x),
               lambda x: x.masked_fill(ROW[:3], 1.0)):
        x = ag.tensor(r(3, 3).astype(np.float32), requires_grad=True)
        y = fn(x)
        assert y.dtype == np.float32
        y.sum().backward()
        assert x.grad.dtype == np.float32


ERRORS = [
    ("einsum wrong operand count", lambda: ag.einsum("ij,jk", ag.ones(2, 2)),
     "names 2 operand(s) but 1 were given"),
    ("einsum too many subscripts", lambda: ag.einsum("ijk", ag.ones(2, 2)),
     "operand 0 has shape (2, 2) (2 dimension(s)), but its subscripts 'ijk' name 3"),
    ("einsum sizes differ", lambda: ag.einsum("ij,jk", ag.ones(2, 3), ag.ones(4, 2)),
     "subscript j has size 3 in one operand but 4 in operand 1"),
    ("einsum diagonal of a non-square", lambda: ag.einsum("ii->i", ag.ones(2, 3)),
     "subscript i is repeated in operand 0, of shape (2, 3)"),
    ("einsum output repeated", lambda: ag.einsum("i,i->ii", ag.ones(2), ag.ones(2)),
     "output subscript i appears more than once"),
    ("einsum output unknown", lambda: ag.einsum("i->j", ag.ones(2)),
     "output subscript j in 'i->j' does not appear"),
    ("einsum bad character", lambda: ag.einsum("i1->i", ag.ones(2)), "holds '1'"),
    ("var unbiased and correction", lambda: ag.ones(3).var(unbiased=True, correction=0),
     "give correction or unbiased, not both"),
    ("norm nuc", lambda: ag.ones(2, 2).norm("nuc"), "the nuclear norm 'nuc' is not"),
    ("norm fro over three dims", lambda: ag.ones(2, 2, 2).norm("fro", (0, 1, 2)),
     "p='fro' is a matrix norm over at most 2 axes"),
    ("norm inf of empty", lambda: ag.ones(0).norm(float("inf")), "of an empty tensor"),
    ("cumsum bad dim", lambda: ag.ones(2, 3).cumsum(2), "axis 2 is out of range"),
    ("flip without dims", lambda: ag.flip(ag.ones(2)), "flip needs the dims"),
    ("flip a dim twice", lambda: ag.ones(2, 2).flip(0, -2), "appears more than once"),
    ("roll shifts without dims", lambda: ag.ones(2, 2).roll((1, 1)), "give one dim per shift"),
    ("repeat fewer sizes", lambda: ag.ones(2, 3).repeat(2),
     "1 size(s) (2,) for a tensor of shape (2, 3)"),
    ("tril of a vector", lambda: ag.ones(3).tril(), "tril needs a matrix or a batch of them"),
    ("split sizes do not add up", lambda: ag.ones(5).split([2, 2]),
     "the sizes [2, 2] add up to 4, but axis 0 of shape (5,) has 5 elements"),
    ("split size 0", lambda: ag.ones(3).split(0), "the piece size must be at least 1"),
    ("chunk 0", lambda: ag.ones(3).chunk(0), "the number of chunks must be"),
    ("unbind a 0-d tensor", lambda: ag.tensor(1.0).unbind(), "a 0-d tensor has no axis"),
    ("gather a negative index", lambda: ag.ones(2, 3).gather(1, np.array([[-1], [0]])),
     "index -1 is out of range for axis 1 of size 3"),
    ("gather an index too large", lambda: ag.ones(2, 3).gather(1, np.array([[3], [0]])),
     "index 3 is out of range"),
    ("gather a float index", lambda: ag.ones(2, 3).gather(1, np.array([[1.0], [0.0]])),
     "the index must hold integers"),
    ("gather an index of other rank", lambda: ag.ones(2, 3).gather(1, np.array([1, 0])),
     "must have as many dimensions as the tensor of shape (2, 3)"),
    ("gather an index wider than x", lambda: ag.ones(2, 3).gather(1, np.zeros((3, 1), int)),
     "larger than the tensor of shape (2, 3) along axis 0"),
    ("scatter_add src smaller than index",
     lambda: ag.ones(2, 3).scatter_add(1, np.zeros((2, 2), int), ag.ones(2, 1)),
     "be no larger along any of them"),
    ("masked_fill float mask", lambda: ag.ones(2).masked_fill(np.array([1.0, 0.0]), 0.0),
     "masked_fill takes a boolean mask, got dtype float64"),
    ("masked_fill mask does not broadcast",
     lambda: ag.ones(2, 3).masked_fill(np.array([True, False]), 0.0),
     "the mask of shape (2,) must broadcast against the tensor of shape (2, 3)"),
    ("masked_fill a vector value", lambda: ag.ones(2).masked_fill(np.array([True, False]),
                                                                   ag.ones(2)),
     "the value must be a number or a 0-d tensor"),
    ("one_hot too few classes", lambda: ag.one_hot(np.array([3]), 2),
     "class index 3 is not smaller than num_classes 2"),
    ("one_hot of an empty tensor", lambda: ag.one_hot(np.array([], dtype=int)),
     "cannot infer the number of classes"),
    ("outer of matrices", lambda: ag.outer(ag.ones(2, 2), ag.ones(2)),
     "outer needs two 1-D vectors, got shapes (2, 2) and (2,)"),
    ("dot of different lengths", lambda: ag.dot(ag.ones(3), ag.ones(2)),
     "dot needs two 1-D vectors of one length, got shapes (3,) and (2,)"),
    ("bmm batch sizes differ", lambda: ag.bmm(ag.ones(2, 3, 4), ag.ones(1, 4, 5)),
     "with the same batch size b, got shapes (2, 3, 4) and (1, 4, 5)"),
]


@pytest.mark.parametrize(("what", "call", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_the_op_the_shapes_and_the_fix(what, call, message):
    with pytest.raises((ValueError, TypeError, IndexError)) as info:
        call()
    assert message in str(info.value)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ag.mm(ag.tensor(r(2, 3)), ag.tensor(r(4, 5))),
     r"mm: mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"),
    (lambda: ag.mm(ag.tensor(r(2, 3)), ag.tensor(r(3))), r"mm: mat2 must be a matrix"),
    (lambda: ag.mv(ag.tensor(r(2, 3)), ag.tensor(r(2, 3))),
     r"mv: vector \+ matrix @ vector expected"),
    (lambda: ag.mv(ag.tensor(r(2, 3)), ag.tensor(r(4))), r"mv: size mismatch"),
    (lambda: ag.addmm(ag.tensor(r(7, 5)), ag.tensor(r(2, 3)), ag.tensor(r(3, 5))),
     r"addmm: input of shape \(7, 5\) must broadcast to the product's shape \(2, 5\)"),
    (lambda: ag.baddbmm(ag.tensor(r(2, 3, 5)), ag.tensor(r(2, 3, 4)), ag.tensor(r(3, 4, 5))),
     r"baddbmm: bmm needs two 3-D tensors"),
    (lambda: ag.quantile(ag.tensor(r(3)), 1.5), r"q must be in the range \[0, 1\]"),
    (lambda: ag.diff(ag.tensor(r(3, 4)), prepend=ag.tensor(r(4))),
     r"diff expects prepend and append to have the input's number of dimensions"),
    (lambda: ag.cumprod(ag.tensor(r(3, 4)), dim=2), r"cumprod: axis 2 is out of range"),
    (lambda: ag.linalg.inv(ag.tensor(np.ones((2, 2)))), r"linalg.inv: the matrix is singular"),
    (lambda: ag.linalg.det(ag.tensor(r(2, 3))), r"linalg.det: A must be batches of square"),
    (lambda: ag.linalg.solve(ag.tensor(np.eye(3)), ag.tensor(r(2, 2))),
     r"linalg.solve: incompatible shapes of A \(3, 3\) and B \(2, 2\)"),
    (lambda: ag.linalg.cholesky(ag.tensor(-np.eye(2))), r"not positive-definite"),
    (lambda: ag.linalg.matrix_norm(ag.tensor(r(2, 2)), 3), r"ord 3 is not a matrix norm"),
    (lambda: ag.linalg.svd(ag.tensor(r(2, 2))), r"only the reduced SVD"),
    (lambda: ag.linalg.qr(ag.tensor(r(2, 2)), mode="complete"), r"mode 'complete' is not"),
])
def test_products_and_reductions_refuse_bad_shapes_naming_the_op_and_the_fix(call, message):
    with pytest.raises((ValueError, IndexError), match=message):
        call()


def test_eigh_with_repeated_eigenvalues_gives_the_eigenvectors_nan_gradient_as_torch():
    eye = np.eye(3)
    a, t = ag.tensor(eye, requires_grad=True), torch.tensor(eye, requires_grad=True)
    ag.linalg.eigh(a).eigenvectors.sum().backward()
    torch.linalg.eigh(t).eigenvectors.sum().backward()
    assert np.isnan(a.grad.data).all() and torch.isnan(t.grad).all()
    a.grad = None
    ag.linalg.eigh(a).eigenvalues.sum().backward()  # the eigenvalues' part is defined there
    np.testing.assert_array_equal(a.grad.data, eye)


def test_det_at_a_singular_matrix_has_its_cofactors_as_gradient_where_torch_2_13_gives_0():
    rank_two = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, 1.0, -1.0]])
    for matrix, cofactors in [(np.ones((2, 2)), [[1.0, -1.0], [-1.0, 1.0]]),
                              (rank_two, [[-10.0, 5.0, 0.0], [5.0, -2.5, 0.0], [0.0, 0.0, 0.0]])]:
        a = ag.tensor(matrix, requires_grad=True)
        ag.linalg.det(a).backward()
        np.testing.assert_allclose(a.grad.data, cofactors, atol=1e-13)
        assert ag.gradcheck(ag.linalg.det, [ag.tensor(matrix, requires_grad=True)])
        check_second_order(ag.linalg.det, matrix, rng=np.random.default_rng(4))
        t = torch.tensor(matrix, requires_grad=True)
        torch.linalg.det(t).backward()
        assert not t.grad.any()  # PyTorch's answer here; the README's difference table says so


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
