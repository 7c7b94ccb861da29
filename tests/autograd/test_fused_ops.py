"""The fused ops behind nn.Linear and cross_entropy: same values and gradients as the op chains
they replace, to second order, and the weight gradient in the weight's own layout."""

import numpy as np
import pytest

import autograd as ag
from autograd.nn import functional as F
from tests.autograd.helpers import check_gradients, check_second_order


@pytest.mark.parametrize("x_shape", [(4,), (5, 4), (2, 3, 4)])
@pytest.mark.parametrize("with_bias", [True, False])
def test_linear_matches_matmul_with_transpose_and_bias(x_shape, with_bias, rng):
    x, w, b = rng.standard_normal(x_shape), rng.standard_normal((3, 4)), rng.standard_normal(3)
    arrays = (x, w, b) if with_bias else (x, w)
    fused = ag.nn.functional.linear(*[ag.tensor(a) for a in arrays])
    np.testing.assert_allclose(fused.data, x @ w.T + (b if with_bias else 0), rtol=1e-12)
    check_gradients(F.linear, *arrays, rng=rng)
    check_second_order(lambda *t: F.linear(*t).tanh(), *arrays, rng=rng)


def test_linear_weight_gradient_is_row_major_like_the_weight(rng):
    layer = ag.nn.Linear(784, 16)
    layer(ag.tensor(rng.standard_normal((8, 784)))).sum().backward()
    assert layer.weight.grad.shape == (16, 784)
    assert layer.weight.grad.data.flags.c_contiguous


def test_linear_with_the_wrong_number_of_features_says_which(rng):
    with pytest.raises(ValueError, match=r"shape \(5, 3\) has 3 features.*\(2, 4\) expects 4"):
        F.linear(ag.tensor(rng.standard_normal((5, 3))), ag.tensor(rng.standard_normal((2, 4))))


@pytest.mark.parametrize("shape", [(6, 4), (4,)])
def test_cross_entropy_matches_log_softmax_and_picking(shape, rng):
    logits = rng.standard_normal(shape) * 3
    labels = rng.integers(0, shape[-1], shape[:-1])
    loss = F.cross_entropy(ag.tensor(logits), labels)
    log_probs = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    expected = -np.mean(np.take_along_axis(log_probs.reshape(-1, shape[-1]),
                                           labels.reshape(-1, 1), axis=1))
    assert loss.item() == pytest.approx(expected, rel=1e-12)
    check_gradients(lambda z: F.cross_entropy(z, labels), logits, rng=rng)
    check_second_order(lambda z: F.cross_entropy(z, labels), logits, rng=rng)


def test_cross_entropy_stays_finite_for_huge_logits():
    logits = ag.tensor([[1000.0, 0.0, -1000.0]], requires_grad=True)
    loss = F.cross_entropy(logits, np.array([1]))
    loss.backward()
    assert loss.item() == pytest.approx(1000.0)
    np.testing.assert_allclose(logits.grad.data, [[1.0, -1.0, 0.0]], atol=1e-12)
