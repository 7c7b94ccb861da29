"""Matrix products: matmul, bmm, mm, mv, dot, outer, addmm, baddbmm and einsum
(autograd/ops/linalg.py): the family's table of cases against NumPy (numpy_checks.NumpyChecks)
and against PyTorch (torch_checks.TorchChecks), then the behaviours worth a test of their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.numpy_checks import (
    GRID,
    NumpyChecks,
    Op,
    uniform,
)
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    assert_close,
    normal_inputs,
)

r = normal_inputs(19)


MATMUL_SHAPES = [
    ((3,), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3,)),
    ((2, 3), (3, 4)),
    ((1, 3), (3, 1)),
    ((3, 3), (3, 3)),
    ((2, 3, 3), (3, 3)),
    ((3, 2, 4), (4, 5)),
    ((4,), (3, 4, 5)),
    ((3, 2, 4), (4,)),
    ((3, 2, 4), (3, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((1, 2, 3), (4, 3, 2)),
]


def matmul_cases():
    for a, b in MATMUL_SHAPES:
        yield Op(f"matmul-{a}-{b}", lambda x, y: x @ y, np.matmul, (uniform(*a), uniform(*b)))
    yield Op("matmul-function", ag.matmul, np.matmul, (uniform(2, 3), uniform(3, 2)))
    yield Op("matmul-ndarray-right", lambda x: x @ GRID.T, lambda a: a @ GRID.T,
               (uniform(4, 3),))
    yield Op("matmul-ndarray-left", lambda x: GRID @ x, lambda a: GRID @ a, (uniform(3, 4),))


class TestAgainstNumpy(NumpyChecks):
    CASES = [*matmul_cases()]


TORCH_CASES = [
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
    # outer, dot, bmm
    Case("outer", lambda a, b: a.outer(b), lambda a, b: a.outer(b), [r(3), r(4)]),
    Case("dot", lambda a, b: ag.dot(a, b), lambda a, b: torch.dot(a, b), [r(5), r(5)]),
    Case("bmm", lambda a, b: a.bmm(b), lambda a, b: a.bmm(b), [r(2, 3, 4), r(2, 4, 2)]),
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
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES


def test_matmul_of_two_vectors_is_a_scalar_dot_product():
    a = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = ag.tensor([4.0, 5.0, 6.0], requires_grad=True)
    out = a @ b
    assert out.shape == ()
    assert out.item() == 32.0
    out.backward()
    np.testing.assert_array_equal(a.grad.data, b.data)
    np.testing.assert_array_equal(b.grad.data, a.data)


def test_a_matmul_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError) as info:
        ag.ones(2, 3) @ ag.ones(4, 5)
    assert "(2, 3)" in str(info.value) and "(4, 5)" in str(info.value)


_rng = np.random.default_rng(19)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_einsum_output_order_and_shapes_follow_torch():
    cases = [("ba", [(2, 3)]), ("ij...", [(2, 3, 4)]), ("...ij->ij", [(2, 3, 3)]),
             ("i...->", [(2, 3, 3)]), ("Ab,bA", [(2, 3), (3, 2)])]
    for equation, shapes in cases:
        arrays = [r(*s) for s in shapes]
        ours = ag.einsum(equation, *[ag.tensor(a) for a in arrays])
        theirs = torch.einsum(equation, *[torch.tensor(a) for a in arrays])
        assert_close(ours, theirs, 1e-12, 1e-12, equation)
