"""numerical_grad and gradcheck: finite differences, and errors that point at the wrong gradient."""

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order


class WrongSquare(ag.Function):
    """x ** 2 with a deliberately wrong derivative (3x instead of 2x)."""

    def forward(self, x):
        self.save_for_backward(x)
        return x**2

    def backward(self, grad_output):
        (x,) = self.saved_tensors
        return 3 * x * grad_output


class WrongSecondInput(ag.Function):
    """x * y whose gradient for y is wrong (x + 1 instead of x)."""

    def forward(self, x, y):
        self.save_for_backward(x, y)
        return x * y

    def backward(self, grad_output):
        x, y = self.saved_tensors
        return y * grad_output, (x + 1) * grad_output


def random(shape, seed=0, name=None):
    data = np.random.default_rng(seed).standard_normal(shape)
    return ag.tensor(data, requires_grad=True, name=name)


def projection(shape):
    return np.random.default_rng(0).standard_normal(shape)


def test_numerical_grad_of_a_scalar_output_is_its_gradient():
    x = random((2, 3))
    (grad,) = ag.numerical_grad(lambda t: (t**3).sum(), [x])
    np.testing.assert_allclose(grad, 3 * x.data**2, rtol=1e-7, atol=1e-8)


def test_numerical_grad_of_a_tensor_output_uses_the_documented_random_projection():
    x = random((4,))
    (grad,) = ag.numerical_grad(lambda t: t**2, [x])
    np.testing.assert_allclose(grad, projection((4,)) * 2 * x.data, rtol=1e-7, atol=1e-8)


def test_numerical_grad_accepts_a_function_that_returns_an_ndarray():
    x = random((3,))
    (grad,) = ag.numerical_grad(lambda t: np.sin(t.data), [x])
    np.testing.assert_allclose(grad, projection((3,)) * np.cos(x.data), rtol=1e-7, atol=1e-9)


def test_numerical_grad_returns_one_float64_array_per_input():
    x = random((2,), seed=1)
    y = random((3, 2), seed=2)
    gx, gy = ag.numerical_grad(lambda a, b: (a * b).sum(), [x, y])
    assert gx.dtype == np.float64 and gx.shape == (2,)
    np.testing.assert_allclose(gx, y.data.sum(axis=0), rtol=1e-7)
    np.testing.assert_allclose(gy, np.broadcast_to(x.data, (3, 2)), rtol=1e-7)


def test_numerical_grad_computes_in_float64_even_for_float32_inputs():
    x = ag.tensor(np.array([0.1, 0.2], dtype=np.float32))
    (grad,) = ag.numerical_grad(lambda t: (t * t).sum(), [x])
    np.testing.assert_allclose(grad, 2 * x.data.astype(np.float64), rtol=1e-8)


def test_numerical_grad_passes_integer_inputs_through_and_gives_them_none():
    x = random((3,))
    labels = ag.tensor(np.array([2, 0, 1]))
    gx, glabels = ag.numerical_grad(lambda t, i: t[i.data].sum() * 2, [x, labels])
    assert glabels is None
    np.testing.assert_allclose(gx, [2.0, 2.0, 2.0], rtol=1e-8)


def test_numerical_grad_leaves_inputs_and_global_random_state_unchanged():
    x = random((3,))
    before = x.data.copy()
    state = np.random.get_state()[1].copy()
    ag.numerical_grad(lambda t: t.exp(), [x])
    np.testing.assert_array_equal(x.data, before)
    np.testing.assert_array_equal(np.random.get_state()[1], state)
    assert x.grad is None


def test_gradcheck_passes_a_broadcasting_composition_of_correct_ops():
    x = random((4, 3), seed=1, name="x")
    w = random((2, 3), seed=2, name="w")
    b = random((2,), seed=3, name="b")
    assert ag.gradcheck(lambda x, w, b: (x @ w.T + b).tanh(), [x, w, b]) is True


def test_gradcheck_does_not_touch_the_inputs_grad():
    x = random((3,))
    ag.gradcheck(lambda t: t.sin(), [x])
    assert x.grad is None


def test_gradcheck_accepts_a_single_tensor():
    assert ag.gradcheck(lambda t: t.exp().sum(), random((2,))) is True


def test_gradcheck_catches_a_wrong_custom_backward_and_names_input_index_and_both_values():
    x = random((2, 3), name="x")
    with pytest.raises(ag.GradcheckError) as caught:
        ag.gradcheck(WrongSquare.apply, [x])
    error = caught.value
    w = projection((2, 3))
    analytic, numeric = 3 * x.data * w, 2 * x.data * w
    worst = np.unravel_index(
        np.argmax(np.abs(analytic - numeric) - (1e-5 + 1e-3 * np.abs(numeric))), (2, 3)
    )
    assert error.input_index == 0 and error.input_name == "x"
    assert error.index == tuple(int(i) for i in worst)
    assert error.analytic == pytest.approx(analytic[worst], rel=1e-9)
    assert error.numeric == pytest.approx(numeric[worst], rel=1e-6)
    message = str(error)
    assert "input 0 ('x'), shape (2, 3)" in message
    assert f"at index {error.index}" in message
    assert repr(error.analytic) in message and repr(error.numeric) in message


def test_gradcheck_error_names_the_second_input_when_only_its_gradient_is_wrong():
    x = random((3,), seed=1, name="x")
    y = random((3,), seed=2, name="y")
    with pytest.raises(ag.GradcheckError, match=r"input 1 \('y'\)"):
        ag.gradcheck(WrongSecondInput.apply, [x, y])


def test_gradcheck_error_is_a_runtime_error_as_in_pytorch():
    assert issubclass(ag.GradcheckError, RuntimeError)


def test_gradcheck_returns_false_instead_of_raising_when_asked():
    x = random((3,))
    assert ag.gradcheck(WrongSquare.apply, [x], raise_exception=False) is False


def test_gradcheck_skips_inputs_that_do_not_require_grad():
    x = random((3,), seed=1)
    y = ag.tensor(np.random.default_rng(2).standard_normal(3))
    assert ag.gradcheck(WrongSecondInput.apply, [x, y]) is True


def test_gradcheck_rejects_float32_inputs_with_advice():
    x = ag.tensor(np.ones(3, dtype=np.float32), requires_grad=True, name="x")
    with pytest.raises(TypeError, match=r"input 0 \('x'\).*float32.*use \.astype\(np\.float64\)"):
        ag.gradcheck(lambda t: t * 2, [x])


def test_gradcheck_gives_zero_gradient_to_an_input_the_output_does_not_use():
    x = random((2,), seed=1)
    unused = random((2,), seed=2)
    assert ag.gradcheck(lambda a, b: a.exp(), [x, unused]) is True


def test_gradcheck_fails_a_backward_that_ignores_an_input_the_output_uses():
    class Forgetful(ag.Function):
        def forward(self, x, y):
            return x * y

        def backward(self, grad_output):
            return grad_output, None

    x = random((2,), seed=1, name="x")
    y = random((2,), seed=2, name="y")
    with pytest.raises(ag.GradcheckError, match=r"input 0 \('x'\)"):
        ag.gradcheck(Forgetful.apply, [x, y])


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
