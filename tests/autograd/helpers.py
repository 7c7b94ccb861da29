"""Finite-difference checks for the engine's tests, written apart from ``ag.gradcheck``.

The two checkers test each other: this one seeds backward with a random upstream gradient G (a
seed of ones hides transposition bugs) and compares the engine's gradient of ``sum(f(x) * G)``
with central differences in float64.
"""

import importlib.util

import numpy as np

import autograd as ag

torch = importlib.import_module("torch") if importlib.util.find_spec("torch") else None
"""PyTorch where it is installed (a test oracle, never a dependency), else None: a module that
mixes its own tests with comparisons imports it from here, and marks each comparison
``@pytest.mark.torch``, which skips it where PyTorch is missing (tests/conftest.py)."""

EPS = 1e-6


def _forward(f, arrays):
    """f's value as a float64 array, computed from tensors that do not require grad."""
    return np.asarray(f(*[ag.tensor(a) for a in arrays]).data, dtype=np.float64)


def numeric_vjp(f, arrays, upstream, eps=EPS):
    """Central differences of ``sum(f(*arrays) * upstream)``, one array per input."""
    grads = []
    for i, array in enumerate(arrays):
        grad = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[i][index] += eps
            minus[i][index] -= eps
            difference = _forward(f, plus) - _forward(f, minus)
            grad[index] = np.sum(difference * upstream) / (2 * eps)
        grads.append(grad)
    return grads


def as_float64(arrays):
    return [np.array(a, dtype=np.float64) for a in arrays]


def check_gradients(f, *arrays, rng, atol=1e-6, rtol=1e-5):
    """Assert that backward through f matches finite differences; return the output tensor.

    Every array becomes a float64 leaf that requires grad; inputs that must not be differentiated
    (index arrays, masks, constants) belong in f's closure.
    """
    arrays = as_float64(arrays)
    leaves = [ag.tensor(a.copy(), requires_grad=True) for a in arrays]
    out = f(*leaves)
    assert out.requires_grad, "the output does not require grad"
    upstream = np.asarray(rng.standard_normal(out.shape))
    out.backward(upstream)
    numeric = numeric_vjp(f, arrays, upstream)
    for i, (leaf, expected) in enumerate(zip(leaves, numeric, strict=True)):
        assert leaf.grad is not None, f"input {i} received no gradient"
        assert leaf.grad.shape == leaf.shape, f"input {i}: gradient shape {leaf.grad.shape}"
        assert leaf.grad.dtype == np.float64, f"input {i}: gradient dtype {leaf.grad.dtype}"
        np.testing.assert_allclose(
            leaf.grad.data, expected, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}"
        )
    return out


def _first_grads(f, arrays, upstream):
    """The engine's first-order gradients of ``sum(f(x) * upstream)``, as arrays."""
    leaves = [ag.tensor(a, requires_grad=True) for a in arrays]
    f(*leaves).backward(upstream)
    return [np.zeros_like(a) if leaf.grad is None else leaf.grad.data for a, leaf in
            zip(arrays, leaves, strict=True)]


def check_second_order(f, *arrays, rng, atol=1e-5, rtol=1e-4):
    """Assert that differentiating the gradient (create_graph=True) matches finite differences.

    With random G and V, the engine's gradient of ``s(x) = sum_i sum(grad_i(x) * V_i)``, where
    grad_i is the gradient of ``sum(f(x) * G)``, is compared with central differences of s.
    """
    arrays = as_float64(arrays)
    leaves = [ag.tensor(a.copy(), requires_grad=True) for a in arrays]
    out = f(*leaves)
    upstream = np.asarray(rng.standard_normal(out.shape))
    directions = [rng.standard_normal(a.shape) for a in arrays]
    grads = ag.grad([out], leaves, grad_outputs=[ag.tensor(upstream)], create_graph=True,
                    allow_unused=True)
    terms = [(g * ag.tensor(v)).sum() for g, v in zip(grads, directions, strict=True)
             if g is not None and g.requires_grad]
    assert terms, "no gradient requires grad under create_graph=True"
    s = terms[0]
    for term in terms[1:]:
        s = s + term
    s.backward()

    def s_value(*xs):
        grads = _first_grads(f, [x.data for x in xs], upstream)
        return ag.tensor(sum(np.sum(g * v) for g, v in zip(grads, directions, strict=True)))

    numeric = numeric_vjp(s_value, arrays, np.ones(()))
    for i, (leaf, expected) in enumerate(zip(leaves, numeric, strict=True)):
        analytic = np.zeros_like(expected) if leaf.grad is None else leaf.grad.data
        np.testing.assert_allclose(
            analytic, expected, rtol=rtol, atol=atol, err_msg=f"second derivative, input {i}"
        )
