"""autograd.optim: SGD and Adam update parameters in place, step for step like torch.optim."""

import numpy as np
import pytest

import autograd as ag
from autograd import optim


def param(values, name=None):
    return ag.tensor(np.array(values, dtype=np.float64), requires_grad=True, name=name)


def set_grad(p, values):
    p.grad = ag.tensor(np.array(values, dtype=p.dtype))


def test_sgd_subtracts_learning_rate_times_gradient():
    p = param([1.0, -2.0])
    set_grad(p, [0.5, 4.0])
    optim.SGD([p], lr=0.1).step()
    np.testing.assert_allclose(p.data, [0.95, -2.4], rtol=1e-15)


def test_sgd_momentum_accumulates_a_velocity_starting_from_the_first_gradient():
    p = param([0.0])
    opt = optim.SGD([p], lr=1.0, momentum=0.5)
    set_grad(p, [1.0])
    opt.step()
    set_grad(p, [1.0])
    opt.step()
    set_grad(p, [2.0])
    opt.step()
    # velocities 1, 0.5 * 1 + 1 = 1.5, 0.5 * 1.5 + 2 = 2.75
    np.testing.assert_allclose(p.data, [-(1 + 1.5 + 2.75)], rtol=1e-15)


def test_adam_first_step_moves_each_parameter_by_about_the_learning_rate():
    p = param([1.0, 1.0, 1.0])
    set_grad(p, [1e-3, 1.0, -50.0])
    optim.Adam([p], lr=0.01).step()
    np.testing.assert_allclose(p.data, [0.99, 0.99, 1.01], rtol=1e-6)


def test_step_updates_data_in_place_and_builds_no_graph():
    p = param([1.0, 2.0])
    data = p.data
    set_grad(p, [1.0, 1.0])
    for opt in (optim.SGD([p], lr=0.1, momentum=0.9), optim.Adam([p])):
        opt.step()
        assert p.data is data
        assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_parameters_without_gradient_are_left_alone():
    used, unused = param([1.0]), param([5.0])
    set_grad(used, [1.0])
    for opt in (optim.SGD([used, unused], lr=0.1, momentum=0.9), optim.Adam([used, unused])):
        opt.step()
    np.testing.assert_array_equal(unused.data, [5.0])
    assert used.data[0] < 1.0


def test_zero_grad_sets_gradients_to_none():
    p, q = param([1.0]), param([2.0])
    set_grad(p, [1.0])
    set_grad(q, [1.0])
    optim.SGD([p, q], lr=0.1).zero_grad()
    assert p.grad is None and q.grad is None


def test_float32_parameters_stay_float32():
    p = ag.tensor(np.ones(3, dtype=np.float32), requires_grad=True)
    set_grad(p, [0.1, 0.2, 0.3])
    for opt in (optim.SGD([p], lr=0.1, momentum=0.9), optim.Adam([p])):
        opt.step()
        assert p.dtype == np.float32


def test_two_optimizers_keep_separate_state():
    alone = param([1.0])
    first, second = param([1.0]), param([1.0])
    opt_alone = optim.Adam([alone], lr=0.1)
    opt_first, opt_second = optim.Adam([first], lr=0.1), optim.Adam([second], lr=0.1)
    for g in (1.0, -2.0, 3.0):
        for p, opt in ((alone, opt_alone), (first, opt_first), (second, opt_second)):
            set_grad(p, [g])
            opt.step()
    np.testing.assert_array_equal(first.data, alone.data)
    np.testing.assert_array_equal(second.data, alone.data)


def test_optimizers_take_the_generator_that_parameters_returns():
    from autograd import nn

    model = nn.Linear(2, 1)
    opt = optim.SGD((p for p in model.parameters()), lr=0.1)
    assert len(opt.params) == 2


def test_optimizer_errors_say_what_to_pass():
    with pytest.raises(ValueError, match="empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="parameter 0 is a non-leaf Tensor"):
        optim.SGD([param([1.0]) * 2], lr=0.1)
    with pytest.raises(TypeError, match="parameter 1 is ndarray"):
        optim.Adam([param([1.0]), np.ones(2)])
    with pytest.raises(ValueError, match="learning rate must be >= 0, got -1"):
        optim.SGD([param([1.0])], lr=-1)
    with pytest.raises(ValueError, match=r"betas\[1\] must be in \[0, 1\), got 1.0"):
        optim.Adam([param([1.0])], betas=(0.9, 1.0))


# The same problem in both engines: a small tanh network regressing fixed data.

X = np.random.default_rng(1).standard_normal((8, 3))
Y = np.random.default_rng(2).standard_normal((8, 1))
SHAPES = [(4, 3), (4,), (1, 4)]
INIT = [np.random.default_rng(3 + i).standard_normal(s) for i, s in enumerate(SHAPES)]


def loss_of(w1, b1, w2, x, y, tanh):
    return (((tanh(x @ w1.T + b1) @ w2.T) - y) ** 2).mean()


def run_ours(make, steps):
    params = [param(v) for v in INIT]
    opt = make(params)
    trajectory = []
    for _ in range(steps):
        opt.zero_grad()
        loss_of(*params, ag.tensor(X), ag.tensor(Y), ag.tanh).backward()
        opt.step()
        trajectory.append([p.data.copy() for p in params])
    return trajectory


def run_torch(torch, make, steps):
    params = [torch.tensor(v, requires_grad=True) for v in INIT]
    opt = make(params)
    trajectory = []
    for _ in range(steps):
        opt.zero_grad()
        loss_of(*params, torch.tensor(X), torch.tensor(Y), torch.tanh).backward()
        opt.step()
        trajectory.append([p.detach().numpy().copy() for p in params])
    return trajectory


@pytest.mark.torch
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (
            lambda ps: optim.SGD(ps, lr=0.05),
            lambda torch, ps: torch.optim.SGD(ps, lr=0.05),
        ),
        (
            lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9),
            lambda torch, ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9),
        ),
        (
            lambda ps: optim.Adam(ps, lr=0.02),
            lambda torch, ps: torch.optim.Adam(ps, lr=0.02, foreach=False),
        ),
        (
            lambda ps: optim.Adam(ps, lr=0.1, betas=(0.8, 0.99), eps=1e-6),
            lambda torch, ps: torch.optim.Adam(ps, lr=0.1, betas=(0.8, 0.99), eps=1e-6),
        ),
    ],
    ids=["sgd", "sgd-momentum", "adam", "adam-custom"],
)
def test_updates_match_torch_optim_to_1e_10_in_float64(ours, theirs):
    torch = pytest.importorskip("torch")
    mine = run_ours(ours, 30)
    reference = run_torch(torch, lambda ps: theirs(torch, ps), 30)
    for step, (a, b) in enumerate(zip(mine, reference, strict=True)):
        for p, q in zip(a, b, strict=True):
            np.testing.assert_allclose(p, q, rtol=0, atol=1e-10, err_msg=f"step {step}")
    assert not np.allclose(mine[-1][0], INIT[0])
