"""autograd.nn: Module bookkeeping, layers, and the losses in nn.functional."""

import numpy as np
import pytest

import autograd as ag
from autograd import nn
from autograd.nn import functional as F


def random(shape, seed=0, requires_grad=True):
    data = np.random.default_rng(seed).standard_normal(shape)
    return ag.tensor(data, requires_grad=requires_grad)


class TwoLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = ag.tensor(2.0, requires_grad=True)
        self.first = nn.Linear(3, 4)
        self.act = nn.Tanh()
        self.second = nn.Linear(4, 1)

    def forward(self, x):
        return self.second(self.act(self.first(x))) * self.scale


# Module


def test_named_parameters_lists_own_then_submodule_parameters_in_assignment_order():
    names = [name for name, _ in TwoLayers().named_parameters()]
    assert names == ["scale", "first.weight", "first.bias", "second.weight", "second.bias"]


def test_parameters_are_the_same_tensors_as_the_attributes():
    model = TwoLayers()
    params = model.parameters()
    expected = [model.scale, model.first.weight, model.first.bias, model.second.weight]
    assert [id(p) for p in params[:4]] == [id(p) for p in expected]


def test_a_shared_parameter_is_listed_once():
    model = TwoLayers()
    model.second.bias = model.scale
    model.tied = model.first
    names = [name for name, _ in model.named_parameters()]
    assert names == ["scale", "first.weight", "first.bias", "second.weight"]
    assert len(model.parameters()) == 4


def test_reassigning_a_parameter_attribute_to_a_non_tensor_unregisters_it():
    model = TwoLayers()
    model.scale = 3.0
    assert "scale" not in [name for name, _ in model.named_parameters()]
    del model.first
    assert [name for name, _ in model.named_parameters()] == ["second.weight", "second.bias"]


def test_calling_a_module_runs_forward():
    model = TwoLayers()
    x = random((5, 3), requires_grad=False)
    out = model(x)
    expected = np.tanh(x.data @ model.first.weight.data.T + model.first.bias.data)
    expected = (expected @ model.second.weight.data.T + model.second.bias.data) * 2.0
    np.testing.assert_allclose(out.data, expected, rtol=1e-12)


def test_zero_grad_sets_every_parameter_gradient_to_none():
    model = TwoLayers()
    model(random((2, 3), requires_grad=False)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_train_and_eval_switch_every_submodule():
    model = TwoLayers()
    assert model.eval() is model
    assert [model.training, model.first.training, model.act.training] == [False, False, False]
    model.train()
    assert [model.training, model.first.training, model.act.training] == [True, True, True]


def test_assigning_before_super_init_explains_the_fix():
    class Forgot(nn.Module):
        def __init__(self):
            self.layer = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=r"call super\(\).__init__\(\) at the start of Forgot"):
        Forgot()


def test_a_module_without_forward_says_what_to_define():
    with pytest.raises(NotImplementedError, match="define forward"):
        nn.Module()(1.0)


def test_repr_nests_submodules_like_pytorch():
    assert repr(TwoLayers()) == (
        "TwoLayers(\n"
        "  (first): Linear(in_features=3, out_features=4, bias=True)\n"
        "  (act): Tanh()\n"
        "  (second): Linear(in_features=4, out_features=1, bias=True)\n"
        ")"
    )


# Layers


def test_linear_stores_weight_out_by_in_and_computes_x_times_weight_transposed_plus_bias():
    layer = nn.Linear(3, 2)
    assert layer.weight.shape == (2, 3) and layer.bias.shape == (2,)
    x = random((4, 3), requires_grad=False)
    expected = x.data @ layer.weight.data.T + layer.bias.data
    np.testing.assert_allclose(layer(x).data, expected, rtol=1e-12)


def test_linear_initialises_uniformly_within_one_over_sqrt_of_in_features():
    layer = nn.Linear(400, 50)
    bound = 1 / np.sqrt(400)
    for p in (layer.weight, layer.bias):
        assert p.requires_grad and p.is_leaf and p.dtype == np.float64
        assert np.abs(p.data).max() <= bound
    assert np.abs(layer.weight.data).max() > 0.95 * bound
    assert abs(layer.weight.data.mean()) < 0.1 * bound


def test_manual_seed_makes_linear_initialisation_reproducible():
    ag.manual_seed(7)
    first = nn.Linear(3, 2).weight.data.copy()
    ag.manual_seed(7)
    second = nn.Linear(3, 2).weight.data.copy()
    ag.manual_seed(8)
    third = nn.Linear(3, 2).weight.data.copy()
    np.testing.assert_array_equal(first, second)
    assert not np.allclose(first, third)


def test_linear_without_bias_has_only_a_weight():
    layer = nn.Linear(3, 2, bias=False)
    assert layer.bias is None
    assert [name for name, _ in layer.named_parameters()] == ["weight"]
    x = random((2, 3), requires_grad=False)
    np.testing.assert_allclose(layer(x).data, x.data @ layer.weight.data.T, rtol=1e-12)


def test_linear_in_float32_keeps_float32():
    layer = nn.Linear(3, 2, dtype=np.float32)
    x = ag.tensor(np.ones((1, 3), dtype=np.float32))
    assert layer.weight.dtype == np.float32 and layer(x).dtype == np.float32


def test_linear_gradients_pass_gradcheck():
    layer = nn.Linear(3, 2)
    weight = ag.tensor(layer.weight.data, requires_grad=True)
    bias = ag.tensor(layer.bias.data, requires_grad=True)

    def with_params(x, w, b):
        layer.weight, layer.bias = w, b
        return layer(x)

    assert ag.gradcheck(with_params, [random((4, 3)), weight, bias])


@pytest.mark.parametrize(
    ("module", "reference"),
    [
        (nn.Tanh(), np.tanh),
        (nn.ReLU(), lambda v: np.maximum(v, 0)),
        (nn.Sigmoid(), lambda v: 1 / (1 + np.exp(-v))),
    ],
)
def test_activation_modules_match_numpy(module, reference):
    x = random((3, 4), requires_grad=False)
    np.testing.assert_allclose(module(x).data, reference(x.data), rtol=1e-12)


def test_sequential_runs_modules_in_order_and_names_them_by_position():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    x = random((5, 2), requires_grad=False)
    hidden = np.maximum(x.data @ model[0].weight.data.T + model[0].bias.data, 0)
    expected = hidden @ model[2].weight.data.T + model[2].bias.data
    np.testing.assert_allclose(model(x).data, expected, rtol=1e-12)
    assert len(model) == 3 and isinstance(list(model)[1], nn.ReLU)
    assert isinstance(model[:2], nn.Sequential) and model[:2][0] is model[0]
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_sequential_rejects_a_plain_function_and_says_why():
    with pytest.raises(TypeError, match="argument 1 is a function"):
        nn.Sequential(nn.Linear(1, 1), lambda x: x)


def test_mlp_alternates_linear_and_activation_without_one_after_the_last_layer():
    model = nn.MLP([2, 16, 16, 1])
    kinds = [type(m).__name__ for m in model]
    assert kinds == ["Linear", "Tanh", "Linear", "Tanh", "Linear"]
    assert sum(p.size for p in model.parameters()) == 2 * 16 + 16 + 16 * 16 + 16 + 16 + 1
    assert model(random((7, 2), requires_grad=False)).shape == (7, 1)


def test_mlp_takes_the_activation_by_name():
    assert type(nn.MLP([2, 3, 1], activation="relu")[1]) is nn.ReLU
    choices = r"unknown activation 'gelu'.*\['relu', 'sigmoid', 'tanh'\]"
    with pytest.raises(ValueError, match=choices):
        nn.MLP([2, 3, 1], activation="gelu")


def test_mlp_needs_at_least_input_and_output_sizes():
    with pytest.raises(ValueError, match="at least two sizes"):
        nn.MLP([2])


def test_mlp_repr_lists_its_layers():
    assert repr(nn.MLP([2, 3, 1])) == (
        "MLP(\n"
        "  (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (1): Tanh()\n"
        "  (2): Linear(in_features=3, out_features=1, bias=True)\n"
        ")"
    )


# Losses


def test_mse_loss_is_the_mean_squared_difference_with_gradient_two_diff_over_n():
    x = random((4, 2))
    target = np.arange(8.0).reshape(4, 2)
    loss = F.mse_loss(x, target)
    assert loss.item() == pytest.approx(np.mean((x.data - target) ** 2), rel=1e-12)
    loss.backward()
    np.testing.assert_allclose(x.grad.data, 2 * (x.data - target) / 8, rtol=1e-12)


def test_mse_loss_refuses_shapes_that_would_broadcast_into_a_table():
    with pytest.raises(ValueError, match=r"input has shape \(4, 1\) but target has shape \(4,\)"):
        F.mse_loss(random((4, 1)), np.zeros(4))


def log_softmax_np(logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def test_cross_entropy_is_the_mean_negative_log_probability_of_the_target_class():
    logits = random((5, 3))
    target = np.array([0, 2, 1, 2, 0])
    loss = F.cross_entropy(logits, target)
    expected = -log_softmax_np(logits.data)[np.arange(5), target].mean()
    assert loss.item() == pytest.approx(expected, rel=1e-12)
    loss.backward()
    softmax = np.exp(log_softmax_np(logits.data))
    np.testing.assert_allclose(logits.grad.data, (softmax - np.eye(3)[target]) / 5, atol=1e-12)


def test_cross_entropy_accepts_targets_as_a_tensor_or_a_list_of_ints():
    logits = random((3, 4), requires_grad=False)
    from_array = F.cross_entropy(logits, np.array([3, 0, 1])).item()
    assert F.cross_entropy(logits, ag.tensor(np.array([3, 0, 1]))).item() == from_array
    assert F.cross_entropy(logits, [3, 0, 1]).item() == from_array


def test_cross_entropy_stays_finite_for_huge_logits():
    logits = ag.tensor([[1000.0, 0.0], [0.0, -1000.0]], requires_grad=True)
    loss = F.cross_entropy(logits, np.array([1, 1]))
    assert loss.item() == pytest.approx(1000.0, rel=1e-12)
    loss.backward()
    np.testing.assert_allclose(logits.grad.data, [[0.5, -0.5], [0.5, -0.5]], atol=1e-12)


def test_cross_entropy_on_one_unbatched_row():
    logits = ag.tensor([1.0, 2.0, 3.0])
    expected = -log_softmax_np(logits.data)[1]
    assert F.cross_entropy(logits, 1).item() == pytest.approx(expected, rel=1e-12)


def test_cross_entropy_passes_gradcheck_with_integer_targets():
    labels = ag.tensor(np.array([1, 0, 2, 2]))
    assert ag.gradcheck(F.cross_entropy, [random((4, 3)), labels])


def test_cross_entropy_explains_float_targets_wrong_lengths_and_bad_classes():
    logits = random((2, 3))
    with pytest.raises(TypeError, match="integer class indices"):
        F.cross_entropy(logits, np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"need targets of shape \(2,\)"):
        F.cross_entropy(logits, np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"must lie in 0..2 for 3 classes, got values from 0 to 3"):
        F.cross_entropy(logits, np.array([0, 3]))


def test_binary_cross_entropy_matches_its_formula_and_gradient():
    p = ag.tensor([0.2, 0.7, 0.9], requires_grad=True)
    t = np.array([0.0, 1.0, 1.0])
    loss = F.binary_cross_entropy(p, t)
    expected = -np.mean(t * np.log(p.data) + (1 - t) * np.log(1 - p.data))
    assert loss.item() == pytest.approx(expected, rel=1e-12)
    loss.backward()
    grad = (p.data - t) / (p.data * (1 - p.data)) / 3
    np.testing.assert_allclose(p.grad.data, grad, rtol=1e-10)


def test_binary_cross_entropy_clamps_each_log_at_minus_100_like_pytorch():
    p = ag.tensor([0.0, 1.0, 0.0], requires_grad=True)
    loss = F.binary_cross_entropy(p, np.array([1.0, 0.0, 0.0]))
    assert loss.item() == pytest.approx(200.0 / 3, rel=1e-12)
    loss.backward()
    np.testing.assert_allclose(p.grad.data, [-1e12 / 3, 1e12 / 3, 0.0])


def test_binary_cross_entropy_rejects_values_outside_zero_one():
    with pytest.raises(ValueError, match="apply sigmoid to logits first"):
        F.binary_cross_entropy(ag.tensor([1.5]), np.array([1.0]))


def test_functional_reexports_the_engine_activations():
    assert (F.tanh, F.sigmoid, F.softmax, F.log_softmax) == (
        ag.tanh,
        ag.sigmoid,
        ag.softmax,
        ag.log_softmax,
    )
    x = ag.tensor([-1.0, 2.0])
    assert F.relu(x).data.tolist() == ag.relu(x).data.tolist() == [0.0, 2.0]  # + inplace=


@pytest.mark.torch
def test_losses_match_pytorch():
    torch = pytest.importorskip("torch")
    logits = random((6, 4), seed=3)
    labels = np.array([0, 3, 1, 1, 2, 0])
    ours = F.cross_entropy(logits, labels)
    ours.backward()
    theirs_logits = torch.tensor(logits.data, requires_grad=True)
    theirs = torch.nn.functional.cross_entropy(theirs_logits, torch.tensor(labels))
    theirs.backward()
    assert ours.item() == pytest.approx(theirs.item(), rel=1e-12)
    np.testing.assert_allclose(logits.grad.data, theirs_logits.grad.numpy(), atol=1e-14)

    p = ag.tensor([0.1, 0.5, 0.95], requires_grad=True)
    t = np.array([1.0, 0.0, 1.0])
    ours = F.binary_cross_entropy(p, t)
    ours.backward()
    theirs_p = torch.tensor(p.data, requires_grad=True)
    theirs = torch.nn.functional.binary_cross_entropy(theirs_p, torch.tensor(t))
    theirs.backward()
    assert ours.item() == pytest.approx(theirs.item(), rel=1e-12)
    np.testing.assert_allclose(p.grad.data, theirs_p.grad.numpy(), rtol=1e-10)
