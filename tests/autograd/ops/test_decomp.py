"""autograd.linalg's matrix functions and decompositions (autograd/ops/decomp.py): the family's
table of cases against PyTorch (torch_checks.TorchChecks), then the behaviours worth a test of
their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_second_order, torch
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    normal_inputs,
    torch_function,
)

r = normal_inputs(19)
WELL_CONDITIONED = np.array([[2.0, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.6, 0.1, 1.8]])


TORCH_CASES = [
    # autograd.linalg (symmetric and positive definite inputs are made inside, so the gradient
    # reaches every element as in PyTorch)
    Case("linalg.inv", ag.linalg.inv, torch_function("linalg.inv"), [WELL_CONDITIONED], tol32=1e-4),
    Case("linalg.inv of a batch", ag.linalg.inv, torch_function("linalg.inv"),
         [np.stack([WELL_CONDITIONED, WELL_CONDITIONED.T])], tol32=1e-4),
    Case("linalg.det", ag.linalg.det, torch_function("linalg.det"), [WELL_CONDITIONED], tol32=1e-4),
    Case("linalg.slogdet", lambda a: ag.linalg.slogdet(a).logabsdet,
         lambda a: torch.linalg.slogdet(a).logabsdet, [-WELL_CONDITIONED], tol32=1e-4),
    Case("linalg.solve", ag.linalg.solve, torch_function("linalg.solve"),
         [WELL_CONDITIONED, r(3, 2)],
         tol32=1e-4),
    Case("linalg.solve a vector", ag.linalg.solve, torch_function("linalg.solve"),
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
    Case("linalg.svdvals", ag.linalg.svdvals, torch_function("linalg.svdvals"), [r(3, 5)],
         tol32=1e-4),
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


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_eigh_with_repeated_eigenvalues_gives_the_eigenvectors_nan_gradient_as_torch():
    eye = np.eye(3)
    a, t = ag.tensor(eye, requires_grad=True), torch.tensor(eye, requires_grad=True)
    ag.linalg.eigh(a).eigenvectors.sum().backward()
    torch.linalg.eigh(t).eigenvectors.sum().backward()
    assert np.isnan(a.grad.data).all() and torch.isnan(t.grad).all()
    a.grad = None
    ag.linalg.eigh(a).eigenvalues.sum().backward()  # the eigenvalues' part is defined there
    np.testing.assert_array_equal(a.grad.data, eye)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
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
