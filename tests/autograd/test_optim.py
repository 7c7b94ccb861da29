"""autograd.optim: SGD and Adam update parameters in place; every optimizer and setting against
torch.optim step for step, parameter groups, state_dict (its layout, a round trip through .npz,
and PyTorch's own state loaded), the learning-rate schedules and gradient clipping."""

import io

import numpy as np
import pytest

import autograd as ag
from autograd import nn, optim
from autograd.optim import lr_scheduler
from tests.autograd.helpers import torch


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


def ours_params():
    return [ag.tensor(v, requires_grad=True) for v in INIT]


def torch_params():
    return [torch.tensor(v, requires_grad=True) for v in INIT]


def ours_step(params, opt):
    opt.zero_grad()
    loss_of(*params, ag.tensor(X), ag.tensor(Y), ag.tanh).backward()
    opt.step()


def torch_step(params, opt):
    opt.zero_grad()
    loss_of(*params, torch.tensor(X), torch.tensor(Y), torch.tanh).backward()
    opt.step()


def assert_same(params, reference, what=""):
    for p, q in zip(params, reference, strict=True):
        np.testing.assert_allclose(p.data, q.detach().numpy(), rtol=1e-10, atol=1e-12,
                                   err_msg=what)


def run_ours(make, steps):
    params = ours_params()
    opt = make(params)
    trajectory = []
    for _ in range(steps):
        ours_step(params, opt)
        trajectory.append([p.data.copy() for p in params])
    return trajectory


def run_torch(make, steps):
    params = torch_params()
    opt = make(params)
    trajectory = []
    for _ in range(steps):
        torch_step(params, opt)
        trajectory.append([p.detach().numpy().copy() for p in params])
    return trajectory


@pytest.mark.torch
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (
            lambda ps: optim.SGD(ps, lr=0.05),
            lambda ps: torch.optim.SGD(ps, lr=0.05),
        ),
        (
            lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9),
            lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9),
        ),
        (
            lambda ps: optim.Adam(ps, lr=0.02),
            lambda ps: torch.optim.Adam(ps, lr=0.02, foreach=False),
        ),
        (
            lambda ps: optim.Adam(ps, lr=0.1, betas=(0.8, 0.99), eps=1e-6),
            lambda ps: torch.optim.Adam(ps, lr=0.1, betas=(0.8, 0.99), eps=1e-6),
        ),
    ],
    ids=["sgd", "sgd-momentum", "adam", "adam-custom"],
)
def test_updates_match_torch_optim_to_1e_10_in_float64(ours, theirs):
    mine = run_ours(ours, 30)
    reference = run_torch(theirs, 30)
    for step, (a, b) in enumerate(zip(mine, reference, strict=True)):
        for p, q in zip(a, b, strict=True):
            np.testing.assert_allclose(p, q, rtol=0, atol=1e-10, err_msg=f"step {step}")
    assert not np.allclose(mine[-1][0], INIT[0])


CONFIGS = {
    "SGD": ("SGD", {"lr": 0.05}),
    "SGD momentum": ("SGD", {"lr": 0.05, "momentum": 0.9}),
    "SGD dampening": ("SGD", {"lr": 0.05, "momentum": 0.8, "dampening": 0.3}),
    "SGD nesterov decay": ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True,
                                   "weight_decay": 0.01}),
    "SGD maximize": ("SGD", {"lr": 0.01, "momentum": 0.5, "maximize": True}),
    "Adam": ("Adam", {"lr": 0.02}),
    "Adam decay amsgrad": ("Adam", {"lr": 0.02, "weight_decay": 0.1, "amsgrad": True}),
    "Adam small beta1": ("Adam", {"lr": 0.05, "betas": (0.3, 0.9), "eps": 1e-6}),
    "AdamW": ("AdamW", {"lr": 0.02}),
    "AdamW amsgrad maximize": ("AdamW", {"lr": 0.01, "weight_decay": 0.3, "amsgrad": True,
                                         "maximize": True}),
    "RMSprop": ("RMSprop", {"lr": 0.01}),
    "RMSprop centered momentum decay": ("RMSprop", {"lr": 0.01, "alpha": 0.9, "centered": True,
                                                    "momentum": 0.5, "weight_decay": 0.1}),
    "Adagrad": ("Adagrad", {"lr": 0.1}),
    "Adagrad decay accumulator": ("Adagrad", {"lr": 0.1, "lr_decay": 0.05, "weight_decay": 0.1,
                                              "initial_accumulator_value": 0.2, "eps": 1e-8}),
}


@pytest.mark.torch
@pytest.mark.parametrize("config", list(CONFIGS))
def test_optimizer_matches_torch_step_for_step_in_float64(config):
    name, settings = CONFIGS[config]
    ours, theirs = ours_params(), torch_params()
    opt = getattr(optim, name)(ours, **settings)
    ref = getattr(torch.optim, name)(theirs, **settings)
    for step in range(25):
        ours_step(ours, opt)
        torch_step(theirs, ref)
        assert_same(ours, theirs, f"{config}, step {step}")
    assert not np.allclose(ours[0].data, INIT[0])


@pytest.mark.torch
def test_parameter_groups_keep_their_own_settings_as_in_torch():
    ours, theirs = ours_params(), torch_params()
    opt = optim.SGD([{"params": ours[:2]}, {"params": ours[2:], "lr": 0.01, "momentum": 0.5}],
                    lr=0.1, momentum=0.9)
    ref = torch.optim.SGD([{"params": theirs[:2]},
                           {"params": theirs[2:], "lr": 0.01, "momentum": 0.5}],
                          lr=0.1, momentum=0.9)
    for _ in range(10):
        ours_step(ours, opt)
        torch_step(theirs, ref)
    assert_same(ours, theirs)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.01]
    assert [g["momentum"] for g in opt.param_groups] == [0.9, 0.5]


def test_add_param_group_and_errors_for_repeated_parameters():
    params = ours_params()
    opt = optim.Adam(params[:1], lr=0.1)
    opt.add_param_group({"params": params[1:], "lr": 0.01})
    assert len(opt.params) == 3 and opt.param_groups[1]["betas"] == (0.9, 0.999)
    with pytest.raises(ValueError, match="more than once"):
        opt.add_param_group({"params": params[:1]})
    with pytest.raises(ValueError, match="more than once"):
        optim.SGD([params[0], params[0]], lr=0.1)
    with pytest.raises(ValueError, match="nesterov momentum needs momentum > 0"):
        optim.SGD(params, lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="weight_decay must be >= 0"):
        optim.AdamW(params, weight_decay=-1)


def test_setting_lr_sets_every_group_and_the_closure_is_evaluated():
    params = ours_params()
    opt = optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.5}], lr=0.1)
    opt.lr = 0.2
    assert [g["lr"] for g in opt.param_groups] == [0.2, 0.2] and opt.lr == 0.2

    def closure():
        opt.zero_grad()
        loss = loss_of(*params, ag.tensor(X), ag.tensor(Y), ag.tanh)
        loss.backward()
        return loss

    before = closure().item()
    assert opt.step(closure).item() == pytest.approx(before)
    assert closure().item() < before


def test_zero_grad_can_keep_zeros():
    params = ours_params()
    opt = optim.SGD(params, lr=0.1)
    ours_step(params, opt)
    opt.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.data.any() for p in params)


def test_float32_parameters_stay_float32_in_every_optimizer():
    for name, settings in CONFIGS.values():
        p = ag.tensor(np.ones(3, np.float32), requires_grad=True)
        opt = getattr(optim, name)([p], **settings)
        for _ in range(2):
            p.grad = ag.tensor(np.full(3, 0.5, np.float32))
            opt.step()
        assert p.dtype == np.float32, name
        assert all(v.dtype == np.float32 for v in opt.state[p].values()
                   if isinstance(v, np.ndarray)), name


# --- state_dict ---------------------------------------------------------------------------------


@pytest.mark.torch
def test_state_dict_has_torchs_layout():
    ours, theirs = ours_params(), torch_params()
    opt = optim.Adam([{"params": ours[:2]}, {"params": ours[2:], "lr": 0.1}], amsgrad=True)
    ref = torch.optim.Adam([{"params": theirs[:2]}, {"params": theirs[2:], "lr": 0.1}],
                           amsgrad=True)
    ours_step(ours, opt)
    torch_step(theirs, ref)
    mine, reference = opt.state_dict(), ref.state_dict()
    assert list(mine["state"]) == list(reference["state"]) == [0, 1, 2]
    assert set(mine["state"][0]) == set(reference["state"][0])
    assert [g["params"] for g in mine["param_groups"]] == [[0, 1], [2]]
    assert set(mine["param_groups"][0]) <= set(reference["param_groups"][0])
    np.testing.assert_allclose(mine["state"][2]["exp_avg_sq"].numpy(),
                               reference["state"][2]["exp_avg_sq"].numpy(), rtol=1e-12)


@pytest.mark.parametrize("config", ["SGD momentum", "Adam decay amsgrad", "RMSprop centered "
                                    "momentum decay", "Adagrad decay accumulator"])
def test_a_state_dict_saved_to_npz_resumes_training_exactly(config):
    name, settings = CONFIGS[config]
    params = ours_params()
    opt = getattr(optim, name)(params, **settings)
    for _ in range(3):
        ours_step(params, opt)
    buffer = io.BytesIO()
    nn.save({"params": [p.detach() for p in params], "optimizer": opt.state_dict()}, buffer)
    for _ in range(4):
        ours_step(params, opt)
    buffer.seek(0)
    saved = nn.load(buffer)
    resumed = [ag.tensor(p.numpy(), requires_grad=True) for p in saved["params"]]
    again = getattr(optim, name)(resumed, **settings)
    again.load_state_dict(saved["optimizer"])
    for _ in range(4):
        ours_step(resumed, again)
    for p, q in zip(params, resumed, strict=True):
        np.testing.assert_array_equal(p.data, q.data)


@pytest.mark.torch
def test_loading_torchs_optimizer_state_continues_as_torch_does():
    ours, theirs = ours_params(), torch_params()
    ref = torch.optim.Adam(theirs, lr=0.05, weight_decay=0.01)
    for _ in range(3):
        torch_step(theirs, ref)
    for p, q in zip(ours, theirs, strict=True):
        p.data[...] = q.detach().numpy()
    opt = optim.Adam(ours, lr=0.5)
    opt.load_state_dict(ref.state_dict())
    assert opt.param_groups[0]["lr"] == 0.05 and opt.state[ours[0]]["step"] == 3
    for _ in range(5):
        ours_step(ours, opt)
        torch_step(theirs, ref)
    assert_same(ours, theirs)


def test_load_state_dict_refuses_a_different_set_of_parameters():
    params = ours_params()
    saved = optim.SGD(params, lr=0.1).state_dict()
    with pytest.raises(ValueError, match=r"groups of sizes \[3\], this one \[2\]"):
        optim.SGD(params[:2], lr=0.1).load_state_dict(saved)


# --- schedules ----------------------------------------------------------------------------------


SCHEDULES = {
    "StepLR": ("StepLR", {"step_size": 4, "gamma": 0.5}),
    "CosineAnnealingLR": ("CosineAnnealingLR", {"T_max": 10, "eta_min": 0.001}),
    "LambdaLR": ("LambdaLR", {"lr_lambda": lambda epoch: 0.95**epoch}),
}


@pytest.mark.torch
@pytest.mark.parametrize("schedule", list(SCHEDULES))
def test_schedule_sets_the_same_rates_as_torch_past_its_period(schedule):
    name, settings = SCHEDULES[schedule]
    ours, theirs = ours_params(), torch_params()
    opt = optim.SGD([{"params": ours[:1]}, {"params": ours[1:], "lr": 0.3}], lr=0.1)
    ref = torch.optim.SGD([{"params": theirs[:1]}, {"params": theirs[1:], "lr": 0.3}], lr=0.1)
    mine = getattr(lr_scheduler, name)(opt, **settings)
    reference = getattr(torch.optim.lr_scheduler, name)(ref, **settings)
    assert mine.get_last_lr() == reference.get_last_lr()
    for epoch in range(35):
        ours_step(ours, opt)
        torch_step(theirs, ref)
        mine.step()
        reference.step()
        assert mine.get_last_lr() == pytest.approx(reference.get_last_lr(), rel=1e-13,
                                                   abs=1e-16), f"epoch {epoch}"
        assert mine.last_epoch == reference.last_epoch
    assert_same(ours, theirs)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.3]


def test_lambda_lr_takes_one_function_per_group_and_schedulers_save_their_state():
    params = ours_params()
    opt = optim.SGD([{"params": params[:1]}, {"params": params[1:]}], lr=1.0)
    schedule = lr_scheduler.LambdaLR(opt, [lambda e: 1 / (e + 1), lambda e: 2.0])
    schedule.step()
    assert schedule.get_last_lr() == [0.5, 2.0]
    state = schedule.state_dict()
    assert state["last_epoch"] == 1 and "lr_lambdas" not in state and "optimizer" not in state
    with pytest.raises(ValueError, match="expected 2 lr_lambdas"):
        lr_scheduler.LambdaLR(opt, [lambda e: 1.0])
    step = lr_scheduler.StepLR(optim.SGD(ours_params(), lr=1.0), step_size=2)
    for _ in range(3):
        step.step()
    other = lr_scheduler.StepLR(optim.SGD(ours_params(), lr=1.0), step_size=2)
    other.load_state_dict(step.state_dict())
    assert other.last_epoch == 3 and other.get_last_lr() == step.get_last_lr()


@pytest.mark.torch
def test_a_scheduler_needs_an_optimizer_of_this_library():
    with pytest.raises(TypeError, match="takes an optimizer from autograd.optim"):
        lr_scheduler.StepLR(torch.optim.SGD(torch_params(), lr=0.1), step_size=1)


# --- gradient clipping -------------------------------------------------------------------------


@pytest.mark.torch
@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf"), 3.0])
@pytest.mark.parametrize("max_norm", [0.01, 100.0])
def test_clip_grad_norm_matches_torch(norm_type, max_norm):
    ours, theirs = ours_params(), torch_params()
    loss_of(*ours, ag.tensor(X), ag.tensor(Y), ag.tanh).backward()
    loss_of(*theirs, torch.tensor(X), torch.tensor(Y), torch.tanh).backward()
    total = nn.utils.clip_grad_norm_(ours, max_norm, norm_type)
    reference = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type)
    assert total.item() == pytest.approx(reference.item(), rel=1e-12)
    for p, q in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(p.grad.data, q.grad.numpy(), rtol=1e-12)


def test_clip_grad_value_and_clipping_edge_cases():
    params = ours_params()
    loss_of(*params, ag.tensor(X), ag.tensor(Y), ag.tanh).backward()
    nn.utils.clip_grad_value_(params, 0.01)
    assert max(np.abs(p.grad.data).max() for p in params) <= 0.01
    assert nn.utils.clip_grad_norm_([ag.tensor([1.0], requires_grad=True)], 1.0).item() == 0.0
    p = ag.tensor([1.0], requires_grad=True)
    p.grad = ag.tensor([np.nan])
    with pytest.raises(RuntimeError, match="total norm of order 2.0 of the gradients is nan"):
        nn.utils.clip_grad_norm_(p, 1.0, error_if_nonfinite=True)
