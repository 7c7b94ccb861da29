"""Shape errors name the op, the tensor and the fix, not only NumPy's terse complaint."""

import numpy as np
import pytest

import autograd as ag
from tests.autograd.torch_checks import normal_inputs

A = ag.tensor([1.0, 2.0, 3.0], name="a")


@pytest.mark.parametrize(
    ("make", "error", "advice"),
    [
        (lambda: ag.stack([A, ag.tensor([1.0, 2.0])]), ValueError,
         r"Stack: .*stack needs operands of one shape, got \(2,\), \(3,\)"),
        (lambda: ag.concatenate([A.reshape(1, 3), ag.ones(1, 2)]), ValueError,
         r"Concatenate: .*same sizes on every axis but the one joined \(axis 0\).*"
         r"\(1, 3\), \(1, 2\)"),
        (lambda: A.broadcast_to((2, 2)), ValueError,
         r"BroadcastTo: .*the target shape is \(2, 2\): a's sizes must each equal"),
        (lambda: A.squeeze(1), np.exceptions.AxisError,
         r"squeeze: axis 1 is out of range, and a has shape \(3,\)"),
        (lambda: A.reshape(1, 3).permute((0, 0)), ValueError,
         r"Transpose: .*axes must list each of 0\.\.1 exactly once, e\.g\. \[1, 0\]"),
        (lambda: A[5], IndexError,
         r"Index: index 5 is out of bounds.*a has shape \(3,\)"),
    ],
)
def test_a_shape_error_says_what_to_do(make, error, advice):
    with pytest.raises(error, match=advice):
        make()


def test_an_axis_error_keeps_its_type():
    with pytest.raises(np.exceptions.AxisError):
        ag.stack([A, A], axis=3)


r = normal_inputs(19)


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


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
@pytest.mark.parametrize(("what", "call", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_the_op_the_shapes_and_the_fix(what, call, message):
    with pytest.raises((ValueError, TypeError, IndexError)) as info:
        call()
    assert message in str(info.value)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
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
