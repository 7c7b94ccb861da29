"""State: state_dict and load_state_dict with PyTorch's names and order, saving and loading
.npz files (never pickle), a PyTorch model's weights loaded as NumPy arrays, and nn.init."""

import io
import math

import numpy as np
import pytest

import autograd as ag
from autograd import nn, optim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def net(lib):
    nn_ = lib.nn
    return nn_.Sequential(
        nn_.Conv2d(1, 4, 3, padding=1), nn_.BatchNorm2d(4), nn_.ReLU(), nn_.MaxPool2d(2),
        nn_.Flatten(), nn_.Linear(16, 8), nn_.LayerNorm(8), nn_.GELU(), nn_.Dropout(0.1),
        nn_.Linear(8, 3))


def images(seed=0):
    return np.random.default_rng(seed).standard_normal((5, 1, 4, 4))


def test_state_dict_names_every_parameter_and_buffer_in_torchs_order():
    ours, theirs = net(ag).state_dict(), net(torch).state_dict()
    assert [(k, v.shape) for k, v in ours.items()] == [(k, tuple(v.shape))
                                                       for k, v in theirs.items()]
    assert ours["1.num_batches_tracked"].dtype == np.int64
    assert theirs["1.num_batches_tracked"].dtype == torch.int64


def test_a_torch_models_state_dict_as_numpy_arrays_gives_the_same_outputs_in_both_modes():
    torch.manual_seed(0)
    theirs = net(torch).double()
    for _ in range(2):  # move the running statistics away from their start
        theirs(torch.from_numpy(images(1)))
    ours = net(ag)
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    for mode in ("eval", "train"):
        getattr(ours, mode)()
        getattr(theirs, mode)()
        if mode == "train":
            ours[8].eval()
            theirs[8].eval()
        x = images(2)
        np.testing.assert_allclose(ours(ag.tensor(x)).data,
                                   theirs(torch.from_numpy(x)).detach().numpy(),
                                   rtol=1e-10, atol=1e-12)


def test_torch_tensors_load_directly_and_values_are_cast_to_the_models_dtype():
    theirs = net(torch)  # float32
    ours = net(ag)  # float64
    ours.load_state_dict(theirs.state_dict())
    assert ours[0].weight.dtype == np.float64
    np.testing.assert_array_equal(ours[0].weight.data, theirs[0].weight.detach().numpy())


def test_load_state_dict_copies_in_place_so_an_optimizer_keeps_its_parameters():
    model = net(ag)
    opt = optim.SGD(model.parameters(), lr=0.1)
    weight = model[0].weight
    model.load_state_dict({k: v.numpy() * 0 for k, v in net(ag).state_dict().items()})
    assert model[0].weight is weight and opt.params[0] is weight
    assert not weight.data.any()


def test_load_state_dict_names_missing_unexpected_and_mismatched_keys():
    model = net(ag)
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    del state["0.bias"]
    state["extra"] = np.ones(2)
    with pytest.raises(RuntimeError, match=r"missing keys '0.bias'; unexpected keys 'extra'.*"
                                           r"strict=False"):
        model.load_state_dict(state)
    result = model.load_state_dict(state, strict=False)
    assert result.missing_keys == ["0.bias"] and result.unexpected_keys == ["extra"]
    state["0.bias"] = np.ones(5)
    with pytest.raises(RuntimeError, match=r"size mismatch for '0.bias': the state_dict has "
                                           r"shape \(5,\), the model \(4,\)"):
        model.load_state_dict(state, strict=False)


def test_state_dict_values_share_memory_and_keep_vars_gives_the_parameters():
    model = nn.Linear(2, 3)
    state = model.state_dict()
    assert state["weight"].data is model.weight.data and not state["weight"].requires_grad
    assert model.state_dict(keep_vars=True)["weight"] is model.weight


# --- .npz -------------------------------------------------------------------------------------


def test_save_and_load_round_trip_a_model_through_npz(tmp_path):
    model = net(ag)
    model(ag.tensor(images()))  # running statistics move
    path = tmp_path / "model.npz"
    nn.save(model.state_dict(), path)
    loaded = nn.load(path)
    assert list(loaded) == list(model.state_dict())
    assert loaded["1.num_batches_tracked"].dtype == np.int64
    fresh = net(ag)
    fresh.load_state_dict(loaded)
    model.eval()
    fresh.eval()
    np.testing.assert_array_equal(fresh(ag.tensor(images(1))).data,
                                  model(ag.tensor(images(1))).data)


def test_save_keeps_nested_structure_int_keys_tuples_and_plain_values():
    params = [ag.tensor([1.0, 2.0], requires_grad=True)]
    opt = optim.Adam(params, betas=(0.8, 0.9))
    params[0].grad = ag.tensor([0.5, -0.5])
    opt.step()
    buffer = io.BytesIO()
    nn.save({"optimizer": opt.state_dict(), "epoch": 3, "note": "ok", "none": None,
             "array": np.arange(3)}, buffer)
    buffer.seek(0)
    loaded = nn.load(buffer)
    state = loaded["optimizer"]
    assert list(state["state"]) == [0] and state["param_groups"][0]["betas"] == (0.8, 0.9)
    assert (loaded["epoch"], loaded["note"], loaded["none"]) == (3, "ok", None)
    assert isinstance(loaded["array"], np.ndarray) and isinstance(state["state"][0]["exp_avg"],
                                                                  ag.Tensor)


def test_a_plain_npz_of_a_torch_state_dict_loads_as_tensors(tmp_path):
    torch.manual_seed(1)
    theirs = net(torch).double().eval()
    path = tmp_path / "torch_weights.npz"
    np.savez(path, **{k: v.numpy() for k, v in theirs.state_dict().items()})
    ours = net(ag).eval()
    ours.load_state_dict(nn.load(path))
    x = images(3)
    np.testing.assert_allclose(ours(ag.tensor(x)).data,
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-10)


def test_load_never_unpickles_and_save_refuses_what_it_cannot_store(tmp_path):
    path = tmp_path / "objects.npz"
    np.savez(path, bad=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle"):
        nn.load(path)
    with pytest.raises(TypeError, match=r"cannot store a function at /schedule.*rebuild them"):
        nn.save({"schedule": lambda epoch: 1.0}, tmp_path / "x.npz")


# --- nn.init ----------------------------------------------------------------------------------


@pytest.mark.parametrize("nonlinearity,param", [("linear", None), ("relu", None), ("tanh", None),
                                                ("leaky_relu", None), ("leaky_relu", 0.2),
                                                ("selu", None), ("sigmoid", None)])
def test_calculate_gain_matches_torch(nonlinearity, param):
    assert nn.init.calculate_gain(nonlinearity, param) == pytest.approx(
        torch.nn.init.calculate_gain(nonlinearity, param), rel=1e-15)


def test_init_functions_draw_with_torchs_bounds_and_spreads():
    ag.manual_seed(0)
    w = ag.zeros(200, 50, 3)
    fan_in, fan_out = 50 * 3, 200 * 3
    nn.init.kaiming_uniform_(w, a=math.sqrt(5))
    assert np.abs(w.data).max() <= 1 / math.sqrt(fan_in) * (1 + 1e-12)
    nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert w.data.std() == pytest.approx(math.sqrt(2 / fan_out), rel=0.02)
    nn.init.xavier_uniform_(w, gain=2.0)
    bound = 2.0 * math.sqrt(6 / (fan_in + fan_out))
    assert bound * 0.99 < np.abs(w.data).max() <= bound
    nn.init.xavier_normal_(w)
    assert w.data.std() == pytest.approx(math.sqrt(2 / (fan_in + fan_out)), rel=0.02)
    nn.init.normal_(w, 3.0, 0.5)
    assert w.data.mean() == pytest.approx(3.0, abs=0.01)
    nn.init.uniform_(w, -2.0, -1.0)
    assert -2.0 <= w.data.min() and w.data.max() < -1.0
    assert nn.init.ones_(w) is w and (w.data == 1).all()
    nn.init.zeros_(w)
    assert not w.data.any()
    nn.init.constant_(w, 0.25)
    assert (w.data == 0.25).all()


def test_fans_need_two_dimensions():
    with pytest.raises(ValueError, match=r"at least 2 dimensions .* got shape \(3,\)"):
        nn.init.xavier_uniform_(ag.zeros(3))
    with pytest.raises(ValueError, match="mode must be 'fan_in' or 'fan_out'"):
        nn.init.kaiming_uniform_(ag.zeros(3, 3), mode="fan")
