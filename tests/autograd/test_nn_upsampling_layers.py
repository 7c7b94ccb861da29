"""Transposed convolution, interpolate, group and instance normalisation and the 1-D pools
against torch.nn.functional in float64: values and gradients under a random upstream gradient;
finite differences through conv_transpose2d and bilinear interpolation; PyTorch's module
parameters, so a state_dict loads."""

import numpy as np
import pytest

import autograd as ag
from autograd import nn

F = nn.functional
torch = pytest.importorskip("torch")
TF = torch.nn.functional
pytestmark = pytest.mark.torch

RTOL, ATOL = 1e-9, 1e-12


def both(*arrays):
    return ([ag.tensor(a, requires_grad=True) for a in arrays],
            [torch.tensor(a, requires_grad=True) for a in arrays])


def agree(ours_fn, theirs_fn, arrays, seed=0):
    """Same values, and the same gradient of every operand under one random upstream gradient."""
    ours, theirs = both(*arrays)
    mine, reference = ours_fn(*ours), theirs_fn(*theirs)
    np.testing.assert_allclose(mine.data, reference.detach().numpy(), rtol=RTOL, atol=ATOL)
    upstream = np.random.default_rng(seed).standard_normal(tuple(reference.shape))
    (mine * ag.tensor(upstream)).sum().backward()
    (reference * torch.tensor(upstream)).sum().backward()
    for i, (o, t) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(o.grad.data, t.grad.numpy(), rtol=RTOL, atol=ATOL,
                                   err_msg=f"gradient of operand {i}")
    return mine


RNG = np.random.default_rng(0)


@pytest.mark.parametrize("n,settings", [
    (2, {"stride": 2}), (2, {"stride": 2, "padding": 1, "output_padding": 1}),
    (2, {"stride": 3, "groups": 2, "dilation": 2}), (2, {"stride": (2, 1), "padding": (0, 1)}),
    (1, {"stride": 2, "padding": 1}), (1, {})])
def test_conv_transpose_matches_torch(n, settings):
    groups = settings.get("groups", 1)
    arrays = (RNG.standard_normal((2, 4) + (5,) * n),
              RNG.standard_normal((4, 6 // groups) + (3,) * n), RNG.standard_normal(6))
    agree(lambda x, w, b: getattr(F, f"conv_transpose{n}d")(x, w, b, **settings),
          lambda x, w, b: getattr(TF, f"conv_transpose{n}d")(x, w, b, **settings), arrays)


def test_a_transposed_convolution_undoes_a_stride_2_convolutions_shape():
    down = nn.Conv2d(3, 8, 3, stride=2, padding=1)
    up = nn.ConvTranspose2d(8, 3, 3, stride=2, padding=1, output_padding=1)
    x = ag.randn(1, 3, 16, 16)
    assert tuple(down(x).shape) == (1, 8, 8, 8)
    assert tuple(up(down(x)).shape) == (1, 3, 16, 16)
    assert tuple(up(down(x), output_size=(15, 15)).shape) == (1, 3, 15, 15)


def test_conv_transpose2d_passes_gradcheck():
    x, w = ag.randn(1, 2, 3, 3, requires_grad=True), ag.randn(2, 2, 2, 2, requires_grad=True)
    assert ag.gradcheck(lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1), (x, w))


@pytest.mark.parametrize("shape,settings", [
    ((2, 3, 4, 5), {"scale_factor": 2, "mode": "nearest"}),
    ((2, 3, 4, 5), {"size": (7, 3), "mode": "nearest"}),
    ((2, 3, 4, 5), {"scale_factor": 2, "mode": "bilinear"}),
    ((2, 3, 4, 5), {"size": (7, 9), "mode": "bilinear", "align_corners": True}),
    ((2, 3, 4, 5), {"size": (3, 8), "mode": "bilinear", "align_corners": False}),
    ((2, 3, 6), {"scale_factor": 1.5, "mode": "linear"}),
    ((2, 3, 6), {"size": 4, "mode": "nearest"})])
def test_interpolate_matches_torch(shape, settings):
    agree(lambda x: F.interpolate(x, **settings), lambda x: TF.interpolate(x, **settings),
          (RNG.standard_normal(shape),))


def test_bilinear_interpolation_passes_gradcheck_and_upsample_is_interpolate():
    x = ag.randn(1, 1, 3, 4, requires_grad=True)
    assert ag.gradcheck(lambda x: F.interpolate(x, size=(5, 7), mode="bilinear"), (x,))
    up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
    np.testing.assert_array_equal(up(x).data, F.interpolate(x, scale_factor=2, mode="bilinear",
                                                            align_corners=True).data)


def test_interpolate_refuses_what_torch_refuses():
    with pytest.raises(ValueError, match="exactly one of size and scale_factor"):
        F.interpolate(ag.randn(1, 1, 4, 4))
    with pytest.raises(ValueError, match="'bilinear' needs a 4-D input"):
        F.interpolate(ag.randn(1, 1, 4), size=8, mode="bilinear")
    with pytest.raises(ValueError, match="align_corners only applies"):
        F.interpolate(ag.randn(1, 1, 4), size=8, align_corners=True)


@pytest.mark.parametrize("groups", [1, 2, 4])
def test_group_norm_matches_torch(groups):
    arrays = (RNG.standard_normal((3, 4, 5, 2)), RNG.standard_normal(4), RNG.standard_normal(4))
    agree(lambda x, w, b: F.group_norm(x, groups, w, b),
          lambda x, w, b: TF.group_norm(x, groups, w, b), arrays)


def test_group_norms_input_gradient_sums_to_zero_within_each_group():
    """A group's outputs do not change when every input of the group shifts by the same amount,
    so any upstream gradient sends back a gradient that sums to zero over each group."""
    x = ag.randn(2, 6, 3, requires_grad=True)
    (F.group_norm(x, 3) * ag.randn(2, 6, 3)).sum().backward()
    sums = x.grad.data.reshape(2, 3, -1).sum(-1)
    np.testing.assert_allclose(sums, 0.0, atol=1e-12)
    assert np.abs(x.grad.data).max() > 0.1


@pytest.mark.parametrize("module", ["InstanceNorm1d", "InstanceNorm2d"])
@pytest.mark.parametrize("settings", [{}, {"affine": True, "track_running_stats": True}])
def test_instance_norm_modules_match_torch_in_training_and_evaluation(module, settings):
    torch.manual_seed(0)
    theirs = getattr(torch.nn, module)(4, **settings).double()
    ours = getattr(nn, module)(4, **settings)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = RNG.standard_normal((3, 4, 6) + ((5,) if module.endswith("2d") else ()))
    for training in (True, False):
        ours.train(training)
        theirs.train(training)
        np.testing.assert_allclose(ours(ag.tensor(x)).data,
                                   theirs(torch.tensor(x)).detach().numpy(), rtol=RTOL, atol=ATOL)
    for key, value in theirs.state_dict().items():
        np.testing.assert_allclose(ours.state_dict()[key].numpy(), value.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name,args", [("max_pool1d", (3, 2, 1)), ("avg_pool1d", (3, 2, 1)),
                                       ("max_pool1d", (2,)), ("avg_pool1d", (4, 1))])
def test_one_dimensional_pools_match_torch(name, args):
    agree(lambda x: getattr(F, name)(x, *args), lambda x: getattr(TF, name)(x, *args),
          (RNG.standard_normal((2, 3, 9)),))


@pytest.mark.parametrize("module,args", [("ConvTranspose2d", (4, 6, 3)),
                                         ("ConvTranspose1d", (4, 6, 3)),
                                         ("GroupNorm", (2, 4))])
def test_modules_start_as_pytorch_and_load_its_state_dict(module, args):
    torch.manual_seed(0)
    theirs = getattr(torch.nn, module)(*args).double()
    ag.manual_seed(0)
    ours = getattr(nn, module)(*args)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert p.shape == tuple(q.shape), name
        bound = np.abs(q.detach().numpy()).max()
        assert np.abs(p.data).max() <= max(bound * 1.5, 1.0), name  # the same range
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = RNG.standard_normal((2, 4, 5) + ((5,) if module != "ConvTranspose1d" else ()))
    np.testing.assert_allclose(ours(ag.tensor(x)).data, theirs(torch.tensor(x)).detach().numpy(),
                               rtol=RTOL, atol=ATOL)
