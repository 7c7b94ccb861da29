"""The checks every op of a family's table of cases gets against NumPy: its value, its gradient
against finite differences (in float64, with a random upstream gradient), a recorded Function
node, float32 gradients equal to float64's, identical first derivatives under
``create_graph=True``, and second derivatives through the op's square (every backward is built
from the engine's own ops).

A family's test module (tests/autograd/ops/) lists its ``Op``s in a subclass of
``NumpyChecks`` named ``Test…``; tests/autograd/conftest.py runs each check once per case."""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

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
class Op:
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


def log_softmax(a, axis=-1):
    return np.log(softmax(a, axis))


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


def unary_cases(table, shapes=((), (5,), (2, 3), (2, 1, 3))):
    """Each (name, NumPy reference, values) of ``table`` as a method and as a function."""
    for name, ref, values in table:
        for shape in shapes:
            yield Op(f"{name}-method-{shape}", lambda x, n=name: getattr(x, n)(), ref,
                       (values(*shape),))
            yield Op(f"{name}-function-{shape}", lambda x, n=name: getattr(ag, n)(x), ref,
                       (values(*shape),))


def binary_cases(table):
    """Each (name, op, NumPy reference, left values, right values) of ``table`` on every pair of
    BROADCAST_PAIRS."""
    for name, fn, ref, left, right in table:
        for a, b in BROADCAST_PAIRS:
            yield Op(f"{name}-{a}-{b}", fn, ref, (left(*a), right(*b)))


NUMBER = 1.7
ROW = CONSTANTS.uniform(0.5, 2.0, (3,))
GRID = CONSTANTS.uniform(0.5, 2.0, (2, 3))


class NumpyChecks:
    CASES: list[Op] = []

    @classmethod
    def cases_for(cls, test):
        """The cases ``test`` (a method's name) runs on: a float32 tensor times a float64 NumPy
        array is refused, as PyTorch refuses mixed products, so those cases keep float64."""
        if test == "test_float32_inputs_get_float32_gradients_of_the_same_values":
            return [case for case in cls.CASES if not case.id.startswith("matmul-ndarray")]
        return cls.CASES

    def test_forward_value_matches_numpy(self, case, rng):
        arrays = case.arrays(rng)
        out = case.fn(*[ag.tensor(a) for a in arrays])
        expected = np.asarray(case.ref(*arrays))
        assert isinstance(out, ag.Tensor)
        assert out.shape == expected.shape
        assert out.dtype == np.float64
        np.testing.assert_allclose(out.data, expected, rtol=1e-12, atol=1e-12)

    def test_gradient_matches_finite_differences(self, case, rng):
        check_gradients(case.fn, *case.arrays(rng), rng=rng)

    def test_every_op_is_recorded_as_a_function_node(self, case, rng):
        leaves = [ag.tensor(a, requires_grad=True) for a in case.arrays(rng)]
        out = case.fn(*leaves)
        assert isinstance(out.grad_fn, ag.Function)
        assert isinstance(out.grad_fn.name, str) and out.grad_fn.name
        assert out.is_leaf is False
        assert isinstance(out.parents, tuple) and out.parents

    def test_float32_inputs_get_float32_gradients_of_the_same_values(self, case, rng):
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

    def test_create_graph_gives_identical_first_derivatives(self, case, rng):
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

    def test_second_derivative_matches_finite_differences(self, case, rng):
        def squared(*xs):
            y = case.fn(*xs)
            return y * y

        check_second_order(squared, *case.arrays(rng), rng=rng)
