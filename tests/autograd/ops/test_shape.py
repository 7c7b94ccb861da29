"""Shape ops: reshape, transpose, broadcasting, indexing, joining and splitting, flip, roll, tile,
tril, triu (autograd/ops/shape.py): the family's table of cases against NumPy
(numpy_checks.NumpyChecks) and against PyTorch (torch_checks.TorchChecks), then the behaviours
worth a test of their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.numpy_checks import (
    NumpyChecks,
    Op,
    uniform,
)
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    normal_inputs,
    pieces,
)
from tests.autograd.vs_torch import assert_same, both

r = normal_inputs(19)


def shape_cases():
    x234 = uniform(2, 3, 4)
    yield Op("reshape-tuple", lambda x: x.reshape((6, 4)), lambda a: a.reshape(6, 4), (x234,))
    yield Op("reshape-minus-one", lambda x: x.reshape((4, -1)), lambda a: a.reshape(4, -1),
               (x234,))
    yield Op("reshape-flat", lambda x: x.reshape((24,)), lambda a: a.reshape(24), (x234,))
    yield Op("reshape-function", lambda x: ag.reshape(x, (3, 8)), lambda a: a.reshape(3, 8),
               (x234,))
    yield Op("reshape-scalar-to-matrix", lambda x: x.reshape((1, 1)),
               lambda a: a.reshape(1, 1), (uniform(),))
    yield Op("transpose-swaps-the-last-two", lambda x: x.transpose(),
               lambda a: a.swapaxes(-1, -2), (x234,))
    yield Op("T-reverses", lambda x: x.T, np.transpose, (x234,))
    yield Op("transpose-pair", lambda x: x.transpose(0, 2), lambda a: a.swapaxes(0, 2), (x234,))
    yield Op("transpose-negative-pair", lambda x: x.transpose(-1, 0),
               lambda a: a.swapaxes(-1, 0), (x234,))
    yield Op("permute-negative", lambda x: x.permute(-1, 0, 1),
               lambda a: a.transpose(2, 0, 1), (x234,))
    yield Op("transpose-axes", lambda x: x.transpose((1, 0, 2)),
               lambda a: a.transpose(1, 0, 2), (x234,))
    yield Op("transpose-function", ag.transpose, lambda a: a.swapaxes(-1, -2), (x234,))
    yield Op("transpose-function-axes", lambda x: ag.transpose(x, (2, 0, 1)),
               lambda a: a.transpose(2, 0, 1), (x234,))
    yield Op("permute", lambda x: x.permute(2, 0, 1), lambda a: a.transpose(2, 0, 1), (x234,))
    yield Op("T", lambda x: x.T, lambda a: a.T, (x234,))
    yield Op("T-matrix", lambda x: x.T, lambda a: a.T, (uniform(2, 5),))
    yield Op("swapaxes", lambda x: x.swapaxes(0, 2), lambda a: a.swapaxes(0, 2), (x234,))
    yield Op("swapaxes-function", lambda x: ag.swapaxes(x, 1, -1),
               lambda a: np.swapaxes(a, 1, -1), (x234,))
    yield Op("broadcast_to-size-one", lambda x: x.broadcast_to((2, 3, 4)),
               lambda a: np.broadcast_to(a, (2, 3, 4)), (uniform(3, 1),))
    yield Op("broadcast_to-leading", lambda x: x.broadcast_to((3, 4)),
               lambda a: np.broadcast_to(a, (3, 4)), (uniform(4),))
    yield Op("broadcast_to-function", lambda x: ag.broadcast_to(x, (2, 2, 3)),
               lambda a: np.broadcast_to(a, (2, 2, 3)), (uniform(2, 1, 1),))
    x1312 = uniform(1, 3, 1, 2)
    yield Op("squeeze-all", lambda x: x.squeeze(), np.squeeze, (x1312,))
    yield Op("squeeze-axis", lambda x: x.squeeze(2), lambda a: a.squeeze(2), (x1312,))
    yield Op("squeeze-first", lambda x: x.squeeze(0), lambda a: a.squeeze(0), (x1312,))
    yield Op("squeeze-function", lambda x: ag.squeeze(x, 0), lambda a: a.squeeze(0), (x1312,))
    yield Op("unsqueeze-front", lambda x: x.unsqueeze(0), lambda a: a[None], (uniform(2, 3),))
    yield Op("unsqueeze-back", lambda x: x.unsqueeze(-1), lambda a: a[..., None],
               (uniform(2, 3),))
    yield Op("unsqueeze-function", lambda x: ag.unsqueeze(x, 1), lambda a: a[:, None],
               (uniform(2, 3),))
    yield Op("expand_dims-method", lambda x: x.expand_dims(1), lambda a: a[:, None],
               (uniform(2, 3),))
    yield Op("expand_dims-function", lambda x: ag.expand_dims(x, 0), lambda a: a[None],
               (uniform(2, 3),))
    yield Op("flatten", lambda x: x.flatten(), lambda a: a.flatten(), (x234,))
    yield Op("flatten-function", ag.flatten, lambda a: a.flatten(), (x234,))


MASK = np.array([[True, False, True, True, False],
                 [False, False, True, False, True],
                 [True, True, False, False, False],
                 [False, True, False, True, True]])
INDEXES = {
    "int": 1,
    "negative-int": -1,
    "element": (2, 3),
    "slice": slice(1, 3),
    "column": (slice(None), 2),
    "stepped-slices": (slice(0, 4, 2), slice(1, None, 2)),
    "int-array-repeated": np.array([0, 2, 0, 3, 0]),
    "int-list-repeated": [3, 3, 1],
    "negative-int-array": np.array([-1, 0, -1]),
    "2d-int-array": np.array([[0, 1], [1, 0]]),
    "pairs-repeated": (np.array([0, 0, 1, 0]), np.array([1, 1, 2, 1])),
    "int-array-and-slice": (np.array([2, 2]), slice(1, 4)),
    "boolean-mask": MASK,
    "boolean-row-mask": np.array([True, False, True, True]),
    "newaxis": (None, slice(None), 1),
    "ellipsis": (Ellipsis, 0),
    "ellipsis-newaxis": (1, Ellipsis, None),
}


def indexing_cases():
    for label, key in INDEXES.items():
        yield Op(f"index-{label}", lambda x, k=key: x[k], lambda a, k=key: a[k],
                   (uniform(4, 5),))
    key = (slice(None), np.array([1, 1, 0]), slice(1, 4))
    yield Op("index-3d-mixed", lambda x: x[key].flip(-1), lambda a: a[key][..., ::-1],
               (uniform(2, 3, 4),))
    # PyTorch applies ints before index arrays: (2, 3, 4)[1, :, [2, 0]] is (3, 2), where NumPy's
    # rule for an int and an array split by a slice gives (2, 3).
    yield Op("index-int-slice-array", lambda x: x[1, :, [2, 0]],
               lambda a: a[1][:, [2, 0]], (uniform(2, 3, 4),))


def join_cases():
    yield Op("concatenate-axis0", lambda x, y: ag.concatenate([x, y]),
               lambda a, b: np.concatenate([a, b]), (uniform(2, 3), uniform(4, 3)))
    yield Op("concatenate-axis1", lambda x, y: ag.concatenate([x, y], axis=1),
               lambda a, b: np.concatenate([a, b], axis=1), (uniform(2, 3), uniform(2, 1)))
    yield Op("concatenate-axis-1", lambda x, y: ag.concatenate((x, y), axis=-1),
               lambda a, b: np.concatenate([a, b], axis=-1), (uniform(2, 2), uniform(2, 3)))
    yield Op("concatenate-three", lambda x, y, z: ag.concatenate([x, y, z], axis=1),
               lambda a, b, c: np.concatenate([a, b, c], axis=1),
               (uniform(2, 2, 3), uniform(2, 1, 3), uniform(2, 4, 3)))
    yield Op("concatenate-same-tensor-twice", lambda x: ag.concatenate([x, x], axis=0),
               lambda a: np.concatenate([a, a]), (uniform(2, 3),))
    for axis in (0, 1, 2, -1):
        yield Op(f"stack-axis={axis}", lambda x, y, z, ax=axis: ag.stack([x, y, z], axis=ax),
                   lambda a, b, c, ax=axis: np.stack([a, b, c], axis=ax),
                   (uniform(2, 3), uniform(2, 3), uniform(2, 3)))
    yield Op("stack-default-axis", lambda x, y: ag.stack((x, y)),
               lambda a, b: np.stack([a, b]), (uniform(4), uniform(4)))


class TestAgainstNumpy(NumpyChecks):
    CASES = [*shape_cases(), *indexing_cases(), *join_cases()]


TORCH_CASES = [
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
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES

    test_second_derivatives_match_finite_differences = None  # every case is linear


def test_repeated_integer_indices_accumulate_their_gradients():
    x = ag.tensor([10.0, 20.0, 30.0], requires_grad=True)
    x[np.array([0, 0, 2, 0])].backward(np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(x.grad.data, [7.0, 0.0, 3.0])


def test_boolean_mask_from_a_comparison_selects_and_scatters():
    x = ag.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    picked = x[x > 0]
    np.testing.assert_array_equal(picked.data, [2.0, 4.0])
    picked.backward(np.array([5.0, 7.0]))
    np.testing.assert_array_equal(x.grad.data, [0.0, 5.0, 0.0, 7.0])


_rng = np.random.default_rng(19)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
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


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_an_empty_piece_gets_an_empty_gradient_and_the_rest_theirs():
    x = ag.tensor(r(2, 3), requires_grad=True)
    first, empty, last = ag.split(x, [2, 0, 1], dim=1)
    assert empty.shape == (2, 0)
    (first.sum() + 2 * last.sum() + empty.sum()).backward()
    np.testing.assert_array_equal(x.grad.data, [[1.0, 1.0, 2.0], [1.0, 1.0, 2.0]])


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_each_piece_of_a_split_is_its_own_node():
    x = ag.tensor(r(4), requires_grad=True)
    parts = ag.split(x, 2)
    assert [type(p.grad_fn).__name__ for p in parts] == ["Index", "Index"]
    assert all(p.parents == (x,) for p in parts)


@pytest.mark.torch
def test_permute_with_negative_axes_of_equal_sizes_sends_the_gradient_back_permuted():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((2, 2, 2))
    x, tx = both(np.arange(8.0).reshape(2, 2, 2))
    (x.permute(-1, 0, 1) * w).sum().backward()
    (tx.permute(-1, 0, 1) * torch.tensor(w)).sum().backward()
    assert_same(x.grad, tx.grad)


@pytest.mark.torch
@pytest.mark.parametrize("shape", [(2, 3, 4), (3, 3, 3), (4, 5)])
@pytest.mark.parametrize("axes", [(-1, 0, 1), (2, -3, -2), (1, -1, 0)])
def test_permute_matches_torch_in_value_and_gradient(shape, axes):
    axes = axes[: len(shape)] if len(shape) == 3 else (-1, 0)
    rng = np.random.default_rng(1)
    x, tx = both(rng.standard_normal(shape))
    upstream = rng.standard_normal(tx.permute(*axes).shape)
    y, ty = x.permute(*axes), tx.permute(*axes)
    assert_same(y, ty)
    y.backward(upstream)
    ty.backward(torch.tensor(upstream))
    assert_same(x.grad, tx.grad)


TRANSPOSES = [
    ("no arguments swaps the last two", lambda t: t.transpose(), lambda t: t.mT),
    ("a pair swaps those two", lambda t: t.transpose(0, 2), lambda t: t.transpose(0, 2)),
    ("a tuple pair", lambda t: t.transpose((1, 2)), lambda t: t.transpose(1, 2)),
    ("negative pair", lambda t: t.transpose(-1, 0), lambda t: t.transpose(-1, 0)),
    ("three axes permute", lambda t: t.transpose(2, 0, 1), lambda t: t.permute(2, 0, 1)),
    (".T reverses", lambda t: t.T, lambda t: t.permute(2, 1, 0)),
    (".mT swaps the last two", lambda t: t.mT, lambda t: t.mT),
    ("function form", lambda t: ag.transpose(t, 1, 2), lambda t: torch.transpose(t, 1, 2)),
]


@pytest.mark.torch
@pytest.mark.parametrize(("what", "ours", "theirs"), TRANSPOSES, ids=[t[0] for t in TRANSPOSES])
def test_transpose_follows_one_rule_at_rank_three(what, ours, theirs):
    rng = np.random.default_rng(2)
    x, tx = both(rng.standard_normal((2, 3, 4)))
    y, ty = ours(x), theirs(tx)
    assert_same(y, ty, what)
    upstream = rng.standard_normal(y.shape)
    y.backward(upstream)
    ty.backward(torch.tensor(upstream))
    assert_same(x.grad, tx.grad, what)


@pytest.mark.torch
def test_transpose_of_a_matrix_swaps_its_axes_whatever_the_spelling():
    x, tx = both([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for y in (x.transpose(), x.transpose(0, 1), x.transpose(1, 0), x.transpose((0, 1)), x.T):
        assert_same(y, tx.transpose(0, 1))


@pytest.mark.torch
def test_transpose_leaves_scalars_and_vectors_unchanged():
    for value in (2.0, [1.0, 2.0, 3.0]):
        x, tx = both(value)
        assert_same(x.transpose(), tx)


@pytest.mark.torch
@pytest.mark.parametrize("axis", [0, 1, -1, (0, 1)])
def test_squeeze_of_an_axis_whose_size_is_not_1_leaves_it(axis):
    x, tx = both(np.ones((1, 3)))
    dim = list(axis) if isinstance(axis, tuple) else axis
    assert x.squeeze(axis).shape == tuple(tx.squeeze(dim).shape)


@pytest.mark.torch
@pytest.mark.parametrize(("start", "end"), [(0, -1), (1, 2), (0, 1), (-2, -1)])
def test_flatten_merges_the_axes_from_start_dim_to_end_dim(start, end):
    x, tx = both(np.arange(24.0).reshape(2, 3, 4))
    assert_same(x.flatten(start, end), tx.flatten(start, end))
