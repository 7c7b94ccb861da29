"""The rest of a course's torch.nn.functional against PyTorch in float64: activations (glu,
softmin, the shrinks, threshold), distances, pixel shuffles, channel dropout, adaptive pools,
local response norm, embedding_bag and the margin, ranking and likelihood losses. Values and
the gradient of every differentiable operand under a random upstream gradient, at points that
include the kinks."""

import numpy as np
import pytest

import autograd as ag
from autograd import nn

F = nn.functional
torch = pytest.importorskip("torch")
TF = torch.nn.functional
pytestmark = pytest.mark.torch

RTOL, ATOL = 1e-9, 1e-12
RNG = np.random.default_rng(0)


def normal(*shape):
    return RNG.standard_normal(shape)


def agree(name, arrays, constants=(), settings=None, ours=None, theirs=None):
    """F.name and torch's F.name on the same operands: the differentiable ``arrays`` first, then
    ``constants`` (targets, masks), then keyword ``settings``."""
    settings = settings or {}
    mine_in = [ag.tensor(a, requires_grad=True) for a in arrays]
    ref_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    mine = (ours or getattr(F, name))(*mine_in, *[ag.tensor(c) for c in constants], **settings)
    reference = (theirs or getattr(TF, name))(*ref_in, *[torch.tensor(c) for c in constants],
                                              **settings)
    np.testing.assert_allclose(mine.data, reference.detach().numpy(), rtol=RTOL, atol=ATOL,
                               err_msg=f"{name} value")
    upstream = RNG.standard_normal(tuple(reference.shape))
    (mine * ag.tensor(upstream)).sum().backward()
    (reference * torch.tensor(upstream)).sum().backward()
    for i, (m, r) in enumerate(zip(mine_in, ref_in)):
        np.testing.assert_allclose(m.grad.data, r.grad.numpy(), rtol=RTOL, atol=ATOL,
                                   err_msg=f"{name}: gradient of operand {i}")


KINKY = np.array([[-1.0, -0.5, -0.2, 0.0, 0.2, 0.5, 1.0, 2.0]])


@pytest.mark.parametrize("name,settings", [
    ("glu", {}), ("glu", {"dim": 0}), ("softmin", {"dim": 1}), ("tanhshrink", {}),
    ("softshrink", {}), ("softshrink", {"lambd": 0.2}), ("hardshrink", {}),
    ("hardshrink", {"lambd": 0.2}), ("threshold", {"threshold": 0.2, "value": -3.0})])
def test_activations_match_torch_at_their_kinks_too(name, settings):
    x = np.concatenate([KINKY, normal(3, 8)])
    agree(name, [x], settings=settings)


def test_softshrink_sends_no_gradient_into_its_dead_zone_even_an_infinite_one():
    x, tx = ag.tensor([0.0, -0.3, 2.0], requires_grad=True), torch.tensor(
        [0.0, -0.3, 2.0], dtype=torch.float64, requires_grad=True)
    upstream = [np.inf, np.inf, 3.0]
    F.softshrink(x).backward(ag.tensor(upstream))
    TF.softshrink(tx).backward(torch.tensor(upstream, dtype=torch.float64))
    np.testing.assert_array_equal(x.grad.data, tx.grad.numpy())  # [0, 0, 3]; ours was [nan, nan, 3]


@pytest.mark.parametrize("name,arrays,settings", [
    ("cosine_similarity", lambda: [normal(4, 5), normal(4, 5)], {}),
    ("cosine_similarity", lambda: [normal(4, 5), normal(1, 5)], {"dim": 1}),
    ("cosine_similarity", lambda: [normal(3, 4, 2), normal(3, 4, 2)], {"dim": 0}),
    ("pairwise_distance", lambda: [normal(4, 5), normal(4, 5)], {}),
    ("pairwise_distance", lambda: [normal(4, 5), normal(4, 5)], {"p": 1.0, "keepdim": True}),
    ("pixel_shuffle", lambda: [normal(2, 8, 3, 2)], {"upscale_factor": 2}),
    ("pixel_unshuffle", lambda: [normal(2, 2, 4, 6)], {"downscale_factor": 2}),
    ("adaptive_avg_pool1d", lambda: [normal(2, 3, 7)], {"output_size": 3}),
    ("adaptive_max_pool2d", lambda: [normal(2, 3, 7, 5)], {"output_size": (3, 2)}),
    ("adaptive_max_pool2d", lambda: [normal(3, 6, 6)], {"output_size": 4}),
    ("local_response_norm", lambda: [normal(2, 5, 3, 3)], {"size": 3}),
    ("local_response_norm", lambda: [normal(2, 6, 4)], {"size": 2, "alpha": 0.1, "k": 2.0}),
])
def test_distances_shuffles_pools_and_norms_match_torch(name, arrays, settings):
    agree(name, arrays(), settings=settings)


def test_a_zero_vector_has_cosine_similarity_zero_and_a_finite_gradient():
    agree("cosine_similarity", [np.zeros((2, 3)), normal(2, 3)])



@pytest.mark.parametrize("arrays,dim", [
    (lambda: [np.array(1.0), np.zeros(2)], 0),  # the 0-d x1 has length √2 once broadcast, not 1
    (lambda: [normal(1, 1, 3), normal(2, 3)], 2),  # dim 2 of the broadcast (1, 2, 3)
])
def test_cosine_similarity_broadcasts_its_operands_before_measuring_them(arrays, dim):
    agree("cosine_similarity", arrays(), settings={"dim": dim})

SIGNS = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name,arrays,constants,settings", [
    ("margin_ranking_loss", lambda: [normal(6), normal(6)], lambda: [SIGNS], {"margin": 0.3}),
    ("hinge_embedding_loss", lambda: [np.abs(normal(6))], lambda: [SIGNS], {"margin": 1.5}),
    ("soft_margin_loss", lambda: [normal(6)], lambda: [SIGNS], {}),
    ("multilabel_soft_margin_loss", lambda: [normal(4, 3)],
     lambda: [(normal(4, 3) > 0).astype(float)], {}),
    ("cosine_embedding_loss", lambda: [normal(6, 4), normal(6, 4)], lambda: [SIGNS],
     {"margin": 0.2}),
    ("triplet_margin_loss", lambda: [normal(6, 4), normal(6, 4), normal(6, 4)], lambda: [], {}),
    ("triplet_margin_loss", lambda: [normal(6, 4), normal(6, 4), normal(6, 4)], lambda: [],
     {"swap": True, "p": 1.0, "margin": 2.0}),
    ("poisson_nll_loss", lambda: [normal(6)], lambda: [RNG.poisson(2.0, 6).astype(float)],
     {"full": True}),
    ("poisson_nll_loss", lambda: [np.abs(normal(6)) + 0.1],
     lambda: [RNG.poisson(2.0, 6).astype(float)], {"log_input": False}),
])
def test_losses_match_torch(name, arrays, constants, settings, reduction):
    agree(name, arrays(), constants(), {**settings, "reduction": reduction})


@pytest.mark.parametrize("var_shape", [(5, 3), (5, 1), (5,)])
def test_gaussian_nll_loss_matches_torch_with_a_variance_per_element_or_per_sample(var_shape):
    var = np.abs(normal(*var_shape)) + 0.1
    var.flat[0] = 1e-9  # raised to eps, the gradient passing as if it were not
    arrays = [normal(5, 3), var]
    agree("gaussian_nll_loss", arrays, settings={"full": True},
          ours=lambda x, v, t=None, **kw: F.gaussian_nll_loss(x, TARGET, v, **kw),
          theirs=lambda x, v, **kw: TF.gaussian_nll_loss(x, torch.tensor(TARGET.data), v, **kw))


TARGET = ag.tensor(RNG.standard_normal((5, 3)))


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_matches_torch(mode):
    weight = normal(10, 4)
    flat, offsets = np.array([1, 2, 4, 5, 4, 3, 2, 9]), np.array([0, 2, 2, 5])
    mine_w, ref_w = ag.tensor(weight, requires_grad=True), torch.tensor(weight,
                                                                         requires_grad=True)
    mine = F.embedding_bag(ag.tensor(flat), mine_w, ag.tensor(offsets), mode=mode)
    reference = TF.embedding_bag(torch.tensor(flat), ref_w, torch.tensor(offsets), mode=mode)
    np.testing.assert_allclose(mine.data, reference.detach().numpy(), rtol=RTOL, atol=ATOL)
    upstream = normal(*reference.shape)
    (mine * ag.tensor(upstream)).sum().backward()
    (reference * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(mine_w.grad.data, ref_w.grad.numpy(), rtol=RTOL, atol=ATOL)
    bags = F.embedding_bag(ag.tensor(flat.reshape(2, 4)), mine_w, mode=mode)
    np.testing.assert_allclose(bags.data, TF.embedding_bag(torch.tensor(flat.reshape(2, 4)),
                                                           ref_w, mode=mode).detach().numpy())


@pytest.mark.parametrize("name,shape", [("dropout1d", (50, 40, 3)), ("dropout2d", (50, 40, 3, 2))])
def test_channel_dropout_drops_whole_channels_at_the_rate_asked(name, shape):
    x = ag.ones(*shape)
    ag.manual_seed(0)
    out = getattr(F, name)(x, p=0.3).data
    per_channel = out.reshape(shape[0], shape[1], -1)
    assert ((per_channel == 0).all(-1) | (per_channel == 1 / 0.7).all(-1)).all()
    assert abs((per_channel[..., 0] == 0).mean() - 0.3) < 0.03
    np.testing.assert_array_equal(getattr(F, name)(x, p=0.3, training=False).data, x.data)


def test_gumbel_softmax_samples_are_distributions_and_hard_ones_are_one_hot():
    logits = ag.tensor(np.log([[0.7, 0.2, 0.1]] * 4000), requires_grad=True)
    ag.manual_seed(0)
    soft = F.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(soft.data.sum(-1), 1.0)
    hard = F.gumbel_softmax(logits, hard=True)
    assert set(np.unique(hard.data)) == {0.0, 1.0} and (hard.data.sum(-1) == 1).all()
    np.testing.assert_allclose(hard.data.mean(0), [0.7, 0.2, 0.1], atol=0.03)
    (hard[:, 0]).sum().backward()  # the straight-through gradient is the soft sample's
    assert np.abs(logits.grad.data).sum() > 0


def test_relu_in_place_changes_the_tensor_and_backward_goes_through_it_as_in_torch():
    x = normal(2, 3)
    mine_leaf, ref_leaf = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    mine, ref = mine_leaf * 2, ref_leaf * 2
    assert F.relu(mine, inplace=True) is mine and TF.relu(ref, inplace=True) is ref
    assert mine._version == ref._version == 1
    (mine * mine).sum().backward()
    (ref * ref).sum().backward()
    np.testing.assert_allclose(mine_leaf.grad.data, ref_leaf.grad.numpy(), rtol=1e-12)
    with pytest.raises(RuntimeError, match="leaf"):
        F.relu(ag.tensor(x, requires_grad=True), inplace=True)
    y = ag.tensor(x) * 1
    assert nn.ReLU(inplace=True)(y) is y and (y.data >= 0).all()
    assert nn.ReLU()(ag.tensor(x)).data.min() == 0 and x.min() < 0


@pytest.mark.parametrize("name", ["pixel_shuffle", "pixel_unshuffle"])
def test_pixel_shuffles_refuse_fewer_than_three_axes_as_torch(name):
    x = np.arange(4.0).reshape(2, 2)
    with pytest.raises(RuntimeError, match="at least 3 dimensions"):
        getattr(torch.nn.functional, name)(torch.tensor(x), 1)
    with pytest.raises(ValueError, match=f"{name} expects input to have at least 3 dimensions"):
        getattr(ag.nn.functional, name)(ag.tensor(x), 1)
