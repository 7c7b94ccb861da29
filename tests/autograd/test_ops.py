"""Every differentiable op: its value against NumPy, its gradient against finite differences.

Each case is an op applied in one form (operator, method or module function) to inputs of chosen
shapes. Gradients are checked in float64 with a random upstream gradient, and second derivatives
through ``create_graph=True`` on the op's square, since every backward is built from the engine's
own ops.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order

CONSTANTS = np.random.default_rng(7)


def uniform(*shape):
    return lambda rng: rng.uniform(-2.0, 2.0, shape)


def positive(*shape):
    return lambda rng: rng.uniform(0.5, 2.5, shape)


def away_from_zero(*shape):
    """Values at least 0.2 from 0, out of the way of the kinks of abs and relu."""
    return lambda rng: rng.choice([-1.0, 1.0], shape) * rng.uniform(0.2, 2.0, shape)


def distinct(*shape):
    """Values at least 0.3 apart, so max and min have no ties."""
    size = int(np.prod(shape))
    return lambda rng: (rng.permutation(size) * 0.3 - 0.15 * size).reshape(shape)


@dataclass
class Case:
    id: str
    fn: Callable
    ref: Callable
    inputs: tuple

    def arrays(self, rng):
        return [make(rng) for make in self.inputs]


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def softmax(a, axis=-1):
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def logsumexp(a, axis=-1):
    m = a.max(axis=axis, keepdims=True)
    return np.squeeze(m, axis=axis) + np.log(np.exp(a - m).sum(axis=axis))


UNARY = [
    ("exp", np.exp, uniform),
    ("log", np.log, positive),
    ("sqrt", np.sqrt, positive),
    ("square", np.square, uniform),
    ("abs", np.abs, away_from_zero),
    ("sin", np.sin, uniform),
    ("cos", np.cos, uniform),
    ("tanh", np.tanh, uniform),
    ("sigmoid", sigmoid, uniform),
    ("relu", lambda a: np.maximum(a, 0.0), away_from_zero),
    ("leaky_relu", lambda a: np.where(a > 0, a, 0.01 * a), away_from_zero),
]
UNARY_SHAPES = [(), (5,), (2, 3), (2, 1, 3)]


def unary_cases():
    for name, ref, values in UNARY:
        for shape in UNARY_SHAPES:
            yield Case(f"{name}-method-{shape}", lambda x, n=name: getattr(x, n)(), ref,
                       (values(*shape),))
            yield Case(f"{name}-function-{shape}", lambda x, n=name: getattr(ag, n)(x), ref,
                       (values(*shape),))
    for shape in UNARY_SHAPES:
        yield Case(f"neg-{shape}", lambda x: -x, np.negative, (uniform(*shape),))
    leaky = lambda a: np.where(a > 0, a, 0.2 * a)  # noqa: E731
    yield Case("leaky_relu-slope-method", lambda x: x.leaky_relu(negative_slope=0.2), leaky,
               (away_from_zero(3, 4),))
    yield Case("leaky_relu-slope-function", lambda x: ag.leaky_relu(x, negative_slope=0.2), leaky,
               (away_from_zero(3, 4),))


BROADCAST_PAIRS = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (2, 3)),
    ((2, 3), (1, 3)),
    ((2, 1), (1, 3)),
    ((4, 1, 3), (2, 1)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((2, 1, 3), (4, 1)),
]
BINARY = [
    ("add", lambda a, b: a + b, np.add, uniform, uniform),
    ("sub", lambda a, b: a - b, np.subtract, uniform, uniform),
    ("mul", lambda a, b: a * b, np.multiply, uniform, uniform),
    ("div", lambda a, b: a / b, np.divide, uniform, away_from_zero),
    ("pow", lambda a, b: a**b, np.power, positive, uniform),
    ("maximum", ag.maximum, np.maximum, uniform, uniform),
    ("minimum", ag.minimum, np.minimum, uniform, uniform),
    ("maximum-method", lambda a, b: a.maximum(b), np.maximum, uniform, uniform),
    ("minimum-method", lambda a, b: a.minimum(b), np.minimum, uniform, uniform),
]


def binary_cases():
    for name, fn, ref, left, right in BINARY:
        for a, b in BROADCAST_PAIRS:
            yield Case(f"{name}-{a}-{b}", fn, ref, (left(*a), right(*b)))


NUMBER = 1.7
ROW = CONSTANTS.uniform(0.5, 2.0, (3,))
GRID = CONSTANTS.uniform(0.5, 2.0, (2, 3))


def operand_cases():
    """Operators with a Python number or an ndarray on either side of a (2, 3) tensor."""
    for label, c in (("number", NUMBER), ("row", ROW), ("grid", GRID)):
        yield Case(f"x+{label}", lambda x, c=c: x + c, lambda a, c=c: a + c, (uniform(2, 3),))
        yield Case(f"{label}+x", lambda x, c=c: c + x, lambda a, c=c: c + a, (uniform(2, 3),))
        yield Case(f"x-{label}", lambda x, c=c: x - c, lambda a, c=c: a - c, (uniform(2, 3),))
        yield Case(f"{label}-x", lambda x, c=c: c - x, lambda a, c=c: c - a, (uniform(2, 3),))
        yield Case(f"x*{label}", lambda x, c=c: x * c, lambda a, c=c: a * c, (uniform(2, 3),))
        yield Case(f"{label}*x", lambda x, c=c: c * x, lambda a, c=c: c * a, (uniform(2, 3),))
        yield Case(f"x/{label}", lambda x, c=c: x / c, lambda a, c=c: a / c, (uniform(2, 3),))
        yield Case(f"{label}/x", lambda x, c=c: c / x, lambda a, c=c: c / a,
                   (away_from_zero(2, 3),))
        yield Case(f"x**{label}", lambda x, c=c: x**c, lambda a, c=c: a**c, (positive(2, 3),))
        yield Case(f"{label}**x", lambda x, c=c: c**x, lambda a, c=c: c**a, (uniform(2, 3),))
    for p in (2, 3, 2.5, -1.5, 0.5, 0, 1):
        values = uniform if isinstance(p, int) else positive
        yield Case(f"x**{p}", lambda x, p=p: x**p, lambda a, p=p: a**p, (values(2, 3),))
    yield Case("x**2-scalar", lambda x: x**2, np.square, (uniform(),))


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
        yield Case(f"matmul-{a}-{b}", lambda x, y: x @ y, np.matmul, (uniform(*a), uniform(*b)))
    yield Case("matmul-function", ag.matmul, np.matmul, (uniform(2, 3), uniform(3, 2)))
    yield Case("matmul-ndarray-right", lambda x: x @ GRID.T, lambda a: a @ GRID.T,
               (uniform(4, 3),))
    yield Case("matmul-ndarray-left", lambda x: GRID @ x, lambda a: GRID @ a, (uniform(3, 4),))


AXES = [None, 0, 1, -1, (0, 2), (-1, 0), (0, 1, 2)]
NUMPY_REDUCTIONS = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


def reduction_cases():
    for name, ref in NUMPY_REDUCTIONS.items():
        values = distinct if name in ("max", "min") else uniform
        for axis in AXES:
            for keepdims in (False, True):
                yield Case(
                    f"{name}-axis={axis}-keepdims={keepdims}",
                    lambda x, n=name, ax=axis, k=keepdims: getattr(x, n)(axis=ax, keepdims=k),
                    lambda a, r=ref, ax=axis, k=keepdims: r(a, axis=ax, keepdims=k),
                    (values(2, 3, 4),),
                )
        yield Case(f"{name}-function-axis=1", lambda x, n=name: getattr(ag, n)(x, axis=1),
                   lambda a, r=ref: r(a, axis=1), (values(2, 3, 4),))
        yield Case(f"{name}-function-keepdims",
                   lambda x, n=name: getattr(ag, n)(x, axis=-1, keepdims=True),
                   lambda a, r=ref: r(a, axis=-1, keepdims=True), (values(2, 3, 4),))
        positional = ((lambda x, n=name: getattr(x, n)(0).values) if name in ("max", "min")
                      else (lambda x, n=name: getattr(x, n)(0)))  # PyTorch's (values, indices)
        yield Case(f"{name}-positional-axis", positional, lambda a, r=ref: r(a, axis=0),
                   (values(3, 2),))
        yield Case(f"{name}-vector", lambda x, n=name: getattr(x, n)(), ref, (values(5),))
        yield Case(f"{name}-one-element", lambda x, n=name: getattr(x, n)(), ref, (values(1),))
        yield Case(f"{name}-0d", lambda x, n=name: getattr(x, n)(), ref, (values(),))


def log_softmax(a, axis=-1):
    return np.log(softmax(a, axis))


SOFTMAXES = {"softmax": softmax, "log_softmax": log_softmax, "logsumexp": logsumexp}


def softmax_cases():
    for name, ref in SOFTMAXES.items():
        # softmax and log_softmax need their axis (as PyTorch recommends); logsumexp's is -1
        last = () if name == "logsumexp" else (-1,)
        yield Case(f"{name}-vector", lambda x, n=name, a=last: getattr(x, n)(*a), ref,
                   (uniform(5),))
        yield Case(f"{name}-last-axis", lambda x, n=name, a=last: getattr(x, n)(*a), ref,
                   (uniform(2, 3, 4),))
        yield Case(f"{name}-function", lambda x, n=name, a=last: getattr(ag, n)(x, *a), ref,
                   (uniform(3, 4),))
        for axis in (0, 1, -2):
            yield Case(f"{name}-axis={axis}", lambda x, n=name, ax=axis: getattr(x, n)(axis=ax),
                       lambda a, r=ref, ax=axis: r(a, axis=ax), (uniform(2, 3, 4),))
            yield Case(f"{name}-function-axis={axis}",
                       lambda x, n=name, ax=axis: getattr(ag, n)(x, axis=ax),
                       lambda a, r=ref, ax=axis: r(a, axis=ax), (uniform(2, 3, 4),))


def shape_cases():
    x234 = uniform(2, 3, 4)
    yield Case("reshape-tuple", lambda x: x.reshape((6, 4)), lambda a: a.reshape(6, 4), (x234,))
    yield Case("reshape-minus-one", lambda x: x.reshape((4, -1)), lambda a: a.reshape(4, -1),
               (x234,))
    yield Case("reshape-flat", lambda x: x.reshape((24,)), lambda a: a.reshape(24), (x234,))
    yield Case("reshape-function", lambda x: ag.reshape(x, (3, 8)), lambda a: a.reshape(3, 8),
               (x234,))
    yield Case("reshape-scalar-to-matrix", lambda x: x.reshape((1, 1)),
               lambda a: a.reshape(1, 1), (uniform(),))
    yield Case("transpose-swaps-the-last-two", lambda x: x.transpose(),
               lambda a: a.swapaxes(-1, -2), (x234,))
    yield Case("T-reverses", lambda x: x.T, np.transpose, (x234,))
    yield Case("transpose-pair", lambda x: x.transpose(0, 2), lambda a: a.swapaxes(0, 2), (x234,))
    yield Case("transpose-negative-pair", lambda x: x.transpose(-1, 0),
               lambda a: a.swapaxes(-1, 0), (x234,))
    yield Case("permute-negative", lambda x: x.permute(-1, 0, 1),
               lambda a: a.transpose(2, 0, 1), (x234,))
    yield Case("transpose-axes", lambda x: x.transpose((1, 0, 2)),
               lambda a: a.transpose(1, 0, 2), (x234,))
    yield Case("transpose-function", ag.transpose, lambda a: a.swapaxes(-1, -2), (x234,))
    yield Case("transpose-function-axes", lambda x: ag.transpose(x, (2, 0, 1)),
               lambda a: a.transpose(2, 0, 1), (x234,))
    yield Case("permute", lambda x: x.permute(2, 0, 1), lambda a: a.transpose(2, 0, 1), (x234,))
    yield Case("T", lambda x: x.T, lambda a: a.T, (x234,))
    yield Case("T-matrix", lambda x: x.T, lambda a: a.T, (uniform(2, 5),))
    yield Case("swapaxes", lambda x: x.swapaxes(0, 2), lambda a: a.swapaxes(0, 2), (x234,))
    yield Case("swapaxes-function", lambda x: ag.swapaxes(x, 1, -1),
               lambda a: np.swapaxes(a, 1, -1), (x234,))
    yield Case("broadcast_to-size-one", lambda x: x.broadcast_to((2, 3, 4)),
               lambda a: np.broadcast_to(a, (2, 3, 4)), (uniform(3, 1),))
    yield Case("broadcast_to-leading", lambda x: x.broadcast_to((3, 4)),
               lambda a: np.broadcast_to(a, (3, 4)), (uniform(4),))
    yield Case("broadcast_to-function", lambda x: ag.broadcast_to(x, (2, 2, 3)),
               lambda a: np.broadcast_to(a, (2, 2, 3)), (uniform(2, 1, 1),))
    x1312 = uniform(1, 3, 1, 2)
    yield Case("squeeze-all", lambda x: x.squeeze(), np.squeeze, (x1312,))
    yield Case("squeeze-axis", lambda x: x.squeeze(2), lambda a: a.squeeze(2), (x1312,))
    yield Case("squeeze-first", lambda x: x.squeeze(0), lambda a: a.squeeze(0), (x1312,))
    yield Case("squeeze-function", lambda x: ag.squeeze(x, 0), lambda a: a.squeeze(0), (x1312,))
    yield Case("unsqueeze-front", lambda x: x.unsqueeze(0), lambda a: a[None], (uniform(2, 3),))
    yield Case("unsqueeze-back", lambda x: x.unsqueeze(-1), lambda a: a[..., None],
               (uniform(2, 3),))
    yield Case("unsqueeze-function", lambda x: ag.unsqueeze(x, 1), lambda a: a[:, None],
               (uniform(2, 3),))
    yield Case("expand_dims-method", lambda x: x.expand_dims(1), lambda a: a[:, None],
               (uniform(2, 3),))
    yield Case("expand_dims-function", lambda x: ag.expand_dims(x, 0), lambda a: a[None],
               (uniform(2, 3),))
    yield Case("flatten", lambda x: x.flatten(), lambda a: a.flatten(), (x234,))
    yield Case("flatten-function", ag.flatten, lambda a: a.flatten(), (x234,))


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
        yield Case(f"index-{label}", lambda x, k=key: x[k], lambda a, k=key: a[k],
                   (uniform(4, 5),))
    key = (slice(None), np.array([1, 1, 0]), slice(1, 4))
    yield Case("index-3d-mixed", lambda x: x[key].flip(-1), lambda a: a[key][..., ::-1],
               (uniform(2, 3, 4),))
    # PyTorch applies ints before index arrays: (2, 3, 4)[1, :, [2, 0]] is (3, 2), where NumPy's
    # rule for an int and an array split by a slice gives (2, 3).
    yield Case("index-int-slice-array", lambda x: x[1, :, [2, 0]],
               lambda a: a[1][:, [2, 0]], (uniform(2, 3, 4),))


def join_cases():
    yield Case("concatenate-axis0", lambda x, y: ag.concatenate([x, y]),
               lambda a, b: np.concatenate([a, b]), (uniform(2, 3), uniform(4, 3)))
    yield Case("concatenate-axis1", lambda x, y: ag.concatenate([x, y], axis=1),
               lambda a, b: np.concatenate([a, b], axis=1), (uniform(2, 3), uniform(2, 1)))
    yield Case("concatenate-axis-1", lambda x, y: ag.concatenate((x, y), axis=-1),
               lambda a, b: np.concatenate([a, b], axis=-1), (uniform(2, 2), uniform(2, 3)))
    yield Case("concatenate-three", lambda x, y, z: ag.concatenate([x, y, z], axis=1),
               lambda a, b, c: np.concatenate([a, b, c], axis=1),
               (uniform(2, 2, 3), uniform(2, 1, 3), uniform(2, 4, 3)))
    yield Case("concatenate-same-tensor-twice", lambda x: ag.concatenate([x, x], axis=0),
               lambda a: np.concatenate([a, a]), (uniform(2, 3),))
    for axis in (0, 1, 2, -1):
        yield Case(f"stack-axis={axis}", lambda x, y, z, ax=axis: ag.stack([x, y, z], axis=ax),
                   lambda a, b, c, ax=axis: np.stack([a, b, c], axis=ax),
                   (uniform(2, 3), uniform(2, 3), uniform(2, 3)))
    yield Case("stack-default-axis", lambda x, y: ag.stack((x, y)),
               lambda a, b: np.stack([a, b]), (uniform(4), uniform(4)))


COND = np.array([[True, False, True], [False, False, True]])


def selection_cases():
    yield Case("where-same-shape", lambda x, y: ag.where(COND, x, y),
               lambda a, b: np.where(COND, a, b), (uniform(2, 3), uniform(2, 3)))
    yield Case("where-broadcast", lambda x, y: ag.where(COND, x, y),
               lambda a, b: np.where(COND, a, b), (uniform(3), uniform()))
    yield Case("where-broadcast-condition", lambda x, y: ag.where(COND[0], x, y),
               lambda a, b: np.where(COND[0], a, b), (uniform(2, 1), uniform(2, 3)))
    yield Case("where-tensor-condition", lambda x, y: ag.where(x > y, x, y),
               lambda a, b: np.where(a > b, a, b), (uniform(2, 3), uniform(3)))
    yield Case("clip-method", lambda x: x.clip(-0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5),
               (uniform(3, 4),))
    yield Case("clip-function", lambda x: ag.clip(x, -1.0, 1.5), lambda a: np.clip(a, -1.0, 1.5),
               (uniform(3, 4),))


def compositions():
    yield Case("cross-entropy-like",
               lambda x: -x.log_softmax(axis=1)[np.arange(3), np.array([2, 0, 2])].mean(),
               lambda a: -log_softmax(a, axis=1)[np.arange(3), [2, 0, 2]].mean(),
               (uniform(3, 4),))
    yield Case("bool-mask-multiply", lambda x: x * (x > 0), lambda a: a * (a > 0),
               (away_from_zero(2, 3),))
    yield Case("mlp-layer", lambda x, w, b: (x @ w + b).tanh().sum(axis=1),
               lambda a, w, b: np.tanh(a @ w + b).sum(axis=1),
               (uniform(4, 3), uniform(3, 2), uniform(2)))
    yield Case("same-input-twice", lambda x: x * x + x.exp() / x.sigmoid(),
               lambda a: a * a + np.exp(a) / sigmoid(a), (uniform(3),))


CASES = [
    *unary_cases(), *binary_cases(), *operand_cases(), *matmul_cases(), *reduction_cases(),
    *softmax_cases(), *shape_cases(), *indexing_cases(), *join_cases(), *selection_cases(),
    *compositions(),
]
BY_ID = pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])


@BY_ID
def test_forward_value_matches_numpy(case, rng):
    arrays = case.arrays(rng)
    out = case.fn(*[ag.tensor(a) for a in arrays])
    expected = np.asarray(case.ref(*arrays))
    assert isinstance(out, ag.Tensor)
    assert out.shape == expected.shape
    assert out.dtype == np.float64
    np.testing.assert_allclose(out.data, expected, rtol=1e-12, atol=1e-12)


@BY_ID
def test_gradient_matches_finite_differences(case, rng):
    check_gradients(case.fn, *case.arrays(rng), rng=rng)


@BY_ID
def test_every_op_is_recorded_as_a_function_node(case, rng):
    leaves = [ag.tensor(a, requires_grad=True) for a in case.arrays(rng)]
    out = case.fn(*leaves)
    assert isinstance(out.grad_fn, ag.Function)
    assert isinstance(out.grad_fn.name, str) and out.grad_fn.name
    assert out.is_leaf is False
    assert isinstance(out.parents, tuple) and out.parents


# A float32 tensor times a float64 NumPy array is refused, as PyTorch refuses mixed products.
SAME_DTYPE_CASES = [case for case in CASES if not case.id.startswith("matmul-ndarray")]


@pytest.mark.parametrize("case", SAME_DTYPE_CASES, ids=[case.id for case in SAME_DTYPE_CASES])
def test_float32_inputs_get_float32_gradients_of_the_same_values(case, rng):
    arrays = case.arrays(rng)
    wide = [ag.tensor(a, requires_grad=True) for a in arrays]
    narrow = [ag.tensor(np.asarray(a, dtype=np.float32), requires_grad=True) for a in arrays]
    out = case.fn(*wide)
    upstream = rng.standard_normal(out.shape)
    out.backward(upstream)
    case.fn(*narrow).backward(upstream)
    for w, n in zip(wide, narrow, strict=True):
        assert n.grad.dtype == np.float32
        assert n.grad.shape == n.shape
        np.testing.assert_allclose(n.grad.data, w.grad.data, rtol=1e-4, atol=1e-4)


@BY_ID
def test_create_graph_gives_identical_first_derivatives(case, rng):
    arrays = case.arrays(rng)
    upstream = None
    results = []
    for create_graph in (False, True):
        leaves = [ag.tensor(a, requires_grad=True) for a in arrays]
        out = case.fn(*leaves)
        if upstream is None:
            upstream = rng.standard_normal(out.shape)
        out.backward(upstream, create_graph=create_graph)
        results.append([leaf.grad.data for leaf in leaves])
    for plain, graphed in zip(*results, strict=True):
        np.testing.assert_array_equal(graphed, plain)


@BY_ID
def test_second_derivative_matches_finite_differences(case, rng):
    def squared(*xs):
        y = case.fn(*xs)
        return y * y

    check_second_order(squared, *case.arrays(rng), rng=rng)


@pytest.mark.parametrize(
    "op",
    [
        lambda c, x: c + x,
        lambda c, x: c - x,
        lambda c, x: c * x,
        lambda c, x: c / x,
        lambda c, x: c**x,
        lambda c, x: c @ x.T,
    ],
    ids=["add", "sub", "mul", "div", "pow", "matmul"],
)
def test_an_ndarray_on_the_left_gives_a_tensor_that_tracks_gradients(op):
    x = ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    out = op(GRID, x)
    assert isinstance(out, ag.Tensor)
    assert out.requires_grad and out.grad_fn is not None
    np.testing.assert_allclose(out.data, op(GRID, x.data))


def sum_to_shape(array, shape):
    """Sum a broadcast array back to shape (the adjoint of broadcasting), for expected values."""
    while array.ndim > len(shape):
        array = array.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and array.shape[axis] != 1:
            array = array.sum(axis=axis, keepdims=True)
    return array


@pytest.mark.parametrize(
    ("name", "fn"),
    [("maximum", ag.maximum), ("minimum", ag.minimum)],
)
def test_maximum_and_minimum_share_the_gradient_equally_at_ties(name, fn, rng):
    x = ag.tensor([[1.0, 2.0, 3.0, 4.0]], requires_grad=True)
    y = ag.tensor([[1.0], [3.0]], requires_grad=True)
    upstream = rng.standard_normal((2, 4))
    out = fn(x, y)
    out.backward(upstream)
    xb, yb = np.broadcast_arrays(x.data, y.data)
    wins = xb > yb if name == "maximum" else xb < yb
    x_share = wins + 0.5 * (xb == yb)
    np.testing.assert_allclose(out.data, getattr(np, name)(xb, yb))
    np.testing.assert_allclose(x.grad.data, sum_to_shape(upstream * x_share, (1, 4)))
    np.testing.assert_allclose(y.grad.data, sum_to_shape(upstream * (1 - x_share), (2, 1)))


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


@pytest.mark.parametrize(
    ("name", "expected"),
    [("relu", [0.0, 0.0, 1.0]), ("abs", [-1.0, 0.0, 1.0])],
)
def test_relu_and_abs_have_derivative_zero_at_zero(name, expected):
    x = ag.tensor([-1.5, 0.0, 2.0], requires_grad=True)
    getattr(x, name)().sum().backward()
    np.testing.assert_array_equal(x.grad.data, expected)


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


def test_pow_with_a_number_exponent_differentiates_negative_bases():
    x = ag.tensor([-2.0, -0.5, 3.0], requires_grad=True)
    (x**3).sum().backward()
    np.testing.assert_allclose(x.grad.data, 3 * x.data**2)


def test_pow_with_a_tensor_exponent_differentiates_both_sides():
    base = ag.tensor([2.0, 3.0], requires_grad=True)
    exponent = ag.tensor([3.0, 0.5], requires_grad=True)
    (base**exponent).sum().backward()
    np.testing.assert_allclose(base.grad.data, [3 * 2.0**2, 0.5 * 3.0**-0.5])
    np.testing.assert_allclose(exponent.grad.data, [8 * np.log(2.0), np.sqrt(3.0) * np.log(3.0)])


def test_matmul_of_two_vectors_is_a_scalar_dot_product():
    a = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = ag.tensor([4.0, 5.0, 6.0], requires_grad=True)
    out = a @ b
    assert out.shape == ()
    assert out.item() == 32.0
    out.backward()
    np.testing.assert_array_equal(a.grad.data, b.data)
    np.testing.assert_array_equal(b.grad.data, a.data)


COMPARISONS = [
    ("gt", lambda a, b: a > b),
    ("lt", lambda a, b: a < b),
    ("ge", lambda a, b: a >= b),
    ("le", lambda a, b: a <= b),
    ("eq", lambda a, b: a == b),
    ("ne", lambda a, b: a != b),
]
OTHERS = {
    "tensor": lambda: ag.tensor([1.0, 0.0, 3.0], requires_grad=True),
    "number": lambda: 1.0,
    "ndarray": lambda: np.array([1.0, 0.0, 3.0]),
}


@pytest.mark.parametrize(("name", "compare"), COMPARISONS, ids=[n for n, _ in COMPARISONS])
@pytest.mark.parametrize("other", OTHERS, ids=list(OTHERS))
@pytest.mark.parametrize("tensor_first", [True, False], ids=["tensor-first", "tensor-second"])
def test_comparisons_are_not_differentiable(name, compare, other, tensor_first):
    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = OTHERS[other]()
    a, b = (x, y) if tensor_first else (y, x)
    out = compare(a, b)
    raw = compare(*(v.data if isinstance(v, ag.Tensor) else v for v in (a, b)))
    assert isinstance(out, ag.Tensor)
    assert out.requires_grad is False
    assert out.grad_fn is None
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out.data, raw)


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


def test_fill_works_in_place_and_returns_the_tensor():
    t = ag.zeros(2, 3)
    data = t.data
    out = t.fill_(4.5)
    assert out is t
    assert t.data is data
    np.testing.assert_array_equal(t.data, np.full((2, 3), 4.5))
    assert t.grad_fn is None and t.requires_grad is False


class TransposedGradient(ag.Function):
    """x @ w with a deliberately wrong gradient for x (w where w.T belongs)."""

    def forward(self, x, w):
        self.save_for_backward(x, w)
        return x @ w

    def backward(self, grad_output):
        x, w = self.saved_tensors
        return grad_output @ w.reshape(w.shape[::-1]), x.T @ grad_output


class FrozenBackward(ag.Function):
    """exp(x) whose backward uses a constant, so it has no second derivative."""

    def forward(self, x):
        self.save_for_backward(x)
        return np.exp(x)

    def backward(self, grad_output):
        (x,) = self.saved_tensors
        return grad_output * ag.tensor(np.exp(x.data))


def test_the_gradient_checker_catches_a_wrong_gradient(rng):
    x, w = rng.standard_normal((2, 3)), rng.standard_normal((3, 3))
    with pytest.raises(AssertionError, match="gradient of input 0"):
        check_gradients(TransposedGradient.apply, x, w, rng=rng)


def test_the_second_order_checker_catches_a_backward_that_is_not_differentiable(rng):
    x = rng.standard_normal(3)
    check_gradients(FrozenBackward.apply, x, rng=rng)
    with pytest.raises(AssertionError):
        check_second_order(FrozenBackward.apply, x, rng=rng)


def test_a_matmul_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError) as info:
        ag.ones(2, 3) @ ag.ones(4, 5)
    assert "(2, 3)" in str(info.value) and "(4, 5)" in str(info.value)


@pytest.mark.parametrize(
    "op",
    [lambda a, b: a + b, lambda a, b: a * b, ag.maximum, lambda a, b: ag.where(a > 0, a, b)],
    ids=["add", "mul", "maximum", "where"],
)
def test_a_broadcasting_mismatch_names_both_shapes(op):
    with pytest.raises(ValueError) as info:
        op(ag.ones(2, 3, requires_grad=True), ag.ones(4, requires_grad=True))
    message = str(info.value)
    assert "(2, 3)" in message and "(4,)" in message
    assert "broadcast" in message
