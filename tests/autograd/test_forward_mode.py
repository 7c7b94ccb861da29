"""Forward mode (autograd.forward_ad, func.jvp) and whole derivatives (functional.jacobian,
hessian), against PyTorch's torch.func and torch.autograd.functional."""

import numpy as np
import pytest

import autograd as ag
import autograd.forward_ad as fwAD
from autograd import func, functional

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(5)
X = RNG.uniform(0.3, 2.0, (3, 4))
Y = RNG.uniform(-2.0, 2.0, (3, 4))
ROW = RNG.uniform(-1.0, 1.0, (4,))
M = RNG.standard_normal((4, 2))

# name -> (our function, torch's function, operands)
OPS = {
    "add-broadcast": (lambda a, b: a + b, lambda a, b: a + b, (X, ROW)),
    "sub": (lambda a, b: a - b, lambda a, b: a - b, (X, Y)),
    "mul-broadcast": (lambda a, b: a * b, lambda a, b: a * b, (X, ROW)),
    "div": (lambda a, b: a / b, lambda a, b: a / b, (Y, X)),
    "pow": (lambda a, b: a**b, lambda a, b: a**b, (X, Y)),
    "pow-number": (lambda a: a**3, lambda a: a**3, (Y,)),
    "neg": (lambda a: -a, lambda a: -a, (X,)),
    "matmul": (lambda a, b: a @ b, lambda a, b: a @ b, (X, M)),
    "linear": (lambda x, w, b: ag.nn.functional.linear(x, w, b), TF.linear, (X, M.T, ROW[:2])),
    "exp": (ag.exp, torch.exp, (Y,)),
    "log": (ag.log, torch.log, (X,)),
    "sqrt": (ag.sqrt, torch.sqrt, (X,)),
    "square": (ag.square, torch.square, (Y,)),
    "abs": (ag.abs, torch.abs, (Y,)),
    "sign": (ag.sign, torch.sign, (Y,)),
    "sin": (ag.sin, torch.sin, (Y,)),
    "cos": (ag.cos, torch.cos, (Y,)),
    "tanh": (ag.tanh, torch.tanh, (Y,)),
    "sigmoid": (ag.sigmoid, torch.sigmoid, (Y,)),
    "relu": (ag.relu, torch.relu, (Y,)),
    "leaky_relu": (lambda a: a.leaky_relu(0.2), lambda a: TF.leaky_relu(a, 0.2), (Y,)),
    "clip": (lambda a: a.clip(-1.0, 1.0), lambda a: a.clamp(-1.0, 1.0), (Y,)),
    "maximum": (ag.maximum, torch.maximum, (X, Y)),
    "minimum": (ag.minimum, torch.minimum, (X, Y)),
    "where": (lambda a, b: ag.where(Y > 0, a, b),
              lambda a, b: torch.where(torch.tensor(Y > 0), a, b), (X, Y)),
    "sum-axis": (lambda a: a.sum(axis=1), lambda a: a.sum(dim=1), (Y,)),
    "mean-keepdims": (lambda a: a.mean(0, keepdims=True), lambda a: a.mean(0, keepdim=True),
                      (Y,)),
    "max": (lambda a: a.max(axis=1), lambda a: a.amax(dim=1), (Y,)),
    "min-all": (lambda a: a.min(), lambda a: a.min(), (Y,)),
    "logsumexp": (lambda a: a.logsumexp(axis=1), lambda a: a.logsumexp(dim=1), (Y,)),
    "softmax": (lambda a: a.softmax(axis=0), lambda a: a.softmax(dim=0), (Y,)),
    "log_softmax": (lambda a: a.log_softmax(-1), lambda a: a.log_softmax(dim=-1), (Y,)),
    "reshape": (lambda a: a.reshape(2, 6), lambda a: a.reshape(2, 6), (Y,)),
    "transpose": (lambda a: a.transpose(), lambda a: a.mT, (Y,)),
    "broadcast_to": (lambda a: a.broadcast_to((2, 4)), lambda a: a.broadcast_to((2, 4)), (ROW,)),
    "index": (lambda a: a[1:, [0, 2, 2]], lambda a: a[1:, [0, 2, 2]], (Y,)),
    "stack": (lambda a, b: ag.stack([a, b], axis=1), lambda a, b: torch.stack([a, b], dim=1),
              (X, Y)),
    "concatenate": (lambda a, b: ag.concatenate([a, b], axis=0),
                    lambda a, b: torch.cat([a, b], dim=0), (X, Y)),
    "cast": (lambda a: a.to(np.float32), lambda a: a.to(torch.float32), (Y,)),
    "mse_loss": (ag.nn.functional.mse_loss, TF.mse_loss, (X, Y)),
}


@pytest.mark.parametrize("name", list(OPS))
def test_forward_mode_matches_torch_func_jvp(name):
    ours, theirs, operands = OPS[name]
    tangents = [RNG.standard_normal(np.shape(a)) for a in operands]
    value, pushed = func.jvp(ours, [ag.tensor(a) for a in operands],
                             [ag.tensor(t) for t in tangents])
    t_value, t_pushed = torch.func.jvp(theirs, tuple(torch.tensor(a) for a in operands),
                                       tuple(torch.tensor(t) for t in tangents))
    np.testing.assert_allclose(value.data, t_value.numpy(), rtol=1e-12, atol=1e-12)
    assert pushed.dtype == value.dtype
    np.testing.assert_allclose(pushed.data, t_pushed.numpy(), rtol=1e-6 if name == "cast" else
                               1e-12, atol=1e-12)


def test_dual_tensors_work_like_pytorchs_forward_ad():
    with fwAD.dual_level():
        x = fwAD.make_dual(ag.tensor([1.0, 2.0]), ag.tensor([1.0, 0.0]))
        y = x * x * 3
        primal, tangent = fwAD.unpack_dual(y)
        np.testing.assert_array_equal(primal.data, [3.0, 12.0])
        np.testing.assert_array_equal(tangent.data, [6.0, 0.0])
        assert fwAD.unpack_dual(ag.tensor(1.0)).tangent is None
    assert fwAD.unpack_dual(y).tangent is None  # the level has ended


def test_make_dual_outside_a_level_says_how_to_open_one():
    with pytest.raises(RuntimeError, match="dual_level"):
        fwAD.make_dual(ag.tensor(1.0), ag.tensor(1.0))


def test_make_dual_refuses_a_tangent_of_another_shape():
    with fwAD.dual_level(), pytest.raises(ValueError, match=r"tangent has shape \(3,\)"):
        fwAD.make_dual(ag.tensor([1.0, 2.0]), np.ones(3))


def test_reverse_mode_still_flows_through_a_dual_tensor():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        y = (fwAD.make_dual(x, ag.tensor([1.0, 1.0])) ** 2).sum()
        assert fwAD.unpack_dual(y).tangent.item() == 6.0
    y.backward()
    np.testing.assert_array_equal(x.grad.data, [2.0, 4.0])


def test_an_op_without_jvp_says_what_to_define():
    class NoForward(ag.Function):
        def forward(self, a):
            return a * 2

        def backward(self, grad):
            return grad * 2

    with fwAD.dual_level(), pytest.raises(NotImplementedError, match=r"define jvp\(self"):
        NoForward.apply(fwAD.make_dual(ag.tensor(1.0), ag.tensor(1.0)))


def test_a_custom_function_may_define_jvp():
    class Cube(ag.Function):
        def forward(self, a):
            self.a = a
            return a**3

        def backward(self, grad):
            return grad * 3 * self.a**2

        def jvp(self, tangent):
            return 3 * self.a**2 * tangent

    _, pushed = func.jvp(Cube.apply, (ag.tensor(2.0),), (ag.tensor(1.0),))
    assert pushed.item() == 12.0


def f_two_inputs(x, y):
    return (x.sin() * y).sum(axis=0) + (x * x).mean()


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_matches_torch_in_both_modes(strategy):
    x, y = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    ours = functional.jacobian(f_two_inputs, (ag.tensor(x), ag.tensor(y)), strategy=strategy)
    theirs = torch.autograd.functional.jacobian(f_two_inputs, (torch.tensor(x), torch.tensor(y)))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.data, b.numpy(), rtol=1e-12, atol=1e-12)


def test_hessian_matches_torch():
    x = RNG.standard_normal(4)

    def energy(t):  # the same code runs on both engines' tensors
        return (t.tanh() * t * t).sum() + (t[0] * t[3]) ** 2

    ours = functional.hessian(energy, ag.tensor(x))
    theirs = torch.autograd.functional.hessian(energy, torch.tensor(x))
    np.testing.assert_allclose(ours.data, theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_vjp_gives_v_times_the_jacobian_and_can_be_called_again():
    x = RNG.standard_normal(3)
    out, vjp_fn = func.vjp(lambda t: t.exp() * 2, ag.tensor(x))
    for v in (np.ones(3), np.arange(3.0)):
        (g,) = vjp_fn(ag.tensor(v))
        np.testing.assert_allclose(g.data, v * 2 * np.exp(x))
    np.testing.assert_allclose(out.data, 2 * np.exp(x))


def test_the_transforms_leave_the_callers_tensors_and_grads_alone():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    func.jvp(lambda t: t * t, (x,), (ag.tensor([1.0, 0.0]),))
    func.vjp(lambda t: t * t, x)[1](ag.tensor([1.0, 1.0]))
    functional.jacobian(lambda t: t * t, x)
    assert x.grad is None and x._tangent is None
