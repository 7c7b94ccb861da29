"""autograd.nn layers against torch.nn: the same layer built in both libraries, ours loaded from
PyTorch's state_dict, run on the same input with a random upstream gradient; outputs, input
gradients, parameter gradients and buffers compared in float64 and float32. Then what each
layer does on its own: initialisation, train/eval, masks, padding_idx, containers, errors."""

import math

import numpy as np
import pytest

import autograd as ag
from autograd import nn
from autograd.nn import functional as F

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

TOLERANCE = {np.float64: {"rtol": 1e-10, "atol": 1e-12}, np.float32: {"rtol": 2e-4, "atol": 2e-5}}


def images(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def build_pair(build, dtype):
    """(ours, theirs): the layer built by ``build(lib)`` in both, ours with PyTorch's state."""
    torch.manual_seed(0)
    theirs = build(torch).to(getattr(torch, np.dtype(dtype).name))
    ours = build(ag).to(dtype)
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    return ours, theirs


def run_pair(build, x, dtype, train=True, integer_input=False):
    """Forward and backward in both; returns what to compare, as (name, ours, theirs)."""
    ours, theirs = build_pair(build, dtype)
    ours.train(train)
    theirs.train(train)
    x = np.asarray(x) if integer_input else np.asarray(x, dtype=dtype)
    ours_x = x if integer_input else ag.tensor(x, requires_grad=True)
    theirs_x = torch.from_numpy(x.copy())
    if not integer_input:
        theirs_x.requires_grad_()
    out, ref = ours(ours_x), theirs(theirs_x)
    if isinstance(ref, tuple):
        out, ref = out[0], ref[0]
    upstream = np.random.default_rng(7).standard_normal(ref.shape).astype(dtype)
    out.backward(ag.tensor(upstream))
    ref.backward(torch.from_numpy(upstream))
    pairs = [("output", out.data, ref.detach().numpy())]
    if not integer_input:
        pairs.append(("input gradient", ours_x.grad.data, theirs_x.grad.numpy()))
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        pairs.append((f"{name} gradient", p.grad.data, q.grad.numpy()))
    for (name, b), c in zip(ours.named_buffers(), theirs.buffers(), strict=True):
        pairs.append((name, b.data, c.numpy()))
    return pairs


def mha_self(lib, **settings):
    """MultiheadAttention used as self-attention with a causal boolean mask."""
    class SelfAttention(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = lib.nn.MultiheadAttention(8, 2, **settings)

        def forward(self, x):
            length = x.shape[1] if settings.get("batch_first") else x.shape[0]
            mask = lib.ones(length, length).triu(1) == 1
            out, weights = self.attn(x, x, x, attn_mask=mask)
            return out + weights.sum()

    return SelfAttention()


LAYERS = {
    "Linear": (lambda lib: lib.nn.Linear(5, 3), (4, 5)),
    "Conv1d": (lambda lib: lib.nn.Conv1d(3, 4, 3, stride=2, padding=1), (2, 3, 9)),
    "Conv2d": (lambda lib: lib.nn.Conv2d(3, 4, 3, padding=1), (2, 3, 6, 5)),
    "Conv2d groups dilation": (lambda lib: lib.nn.Conv2d(4, 6, 3, dilation=2, groups=2,
                                                         bias=False), (2, 4, 7, 7)),
    "Conv2d same reflect": (lambda lib: lib.nn.Conv2d(2, 3, 4, padding="same",
                                                      padding_mode="reflect"), (2, 2, 6, 6)),
    "Conv2d replicate": (lambda lib: lib.nn.Conv2d(2, 3, 3, padding=(1, 2),
                                                   padding_mode="replicate"), (1, 2, 5, 5)),
    "Conv1d circular": (lambda lib: lib.nn.Conv1d(2, 2, 3, padding=1,
                                                  padding_mode="circular"), (2, 2, 6)),
    "Conv2d unbatched": (lambda lib: lib.nn.Conv2d(2, 3, 3), (2, 5, 5)),
    "MaxPool2d": (lambda lib: lib.nn.MaxPool2d(2), (2, 3, 6, 6)),
    "MaxPool2d padded ceil": (lambda lib: lib.nn.MaxPool2d(3, 2, padding=1, ceil_mode=True),
                              (2, 3, 6, 6)),
    "AvgPool2d": (lambda lib: lib.nn.AvgPool2d(3, 2, padding=1, count_include_pad=False),
                  (2, 3, 7, 7)),
    "AdaptiveAvgPool2d": (lambda lib: lib.nn.AdaptiveAvgPool2d((3, 2)), (2, 3, 7, 5)),
    "Flatten": (lambda lib: lib.nn.Flatten(), (2, 3, 4, 5)),
    "Flatten middle": (lambda lib: lib.nn.Flatten(1, 2), (2, 3, 4, 5)),
    "Unflatten": (lambda lib: lib.nn.Unflatten(1, (2, 6)), (3, 12)),
    "Identity": (lambda lib: lib.nn.Identity(), (3, 4)),
    "LayerNorm": (lambda lib: lib.nn.LayerNorm(6), (3, 4, 6)),
    "LayerNorm 2 axes": (lambda lib: lib.nn.LayerNorm((4, 6)), (3, 4, 6)),
    "LayerNorm no affine": (lambda lib: lib.nn.LayerNorm(6, elementwise_affine=False),
                            (5, 6)),
    "LayerNorm no bias": (lambda lib: lib.nn.LayerNorm(6, bias=False), (5, 6)),
    "BatchNorm1d": (lambda lib: lib.nn.BatchNorm1d(4), (6, 4)),
    "BatchNorm1d sequence": (lambda lib: lib.nn.BatchNorm1d(4), (3, 4, 5)),
    "BatchNorm1d cumulative": (lambda lib: lib.nn.BatchNorm1d(4, momentum=None), (6, 4)),
    "BatchNorm2d": (lambda lib: lib.nn.BatchNorm2d(3), (4, 3, 5, 5)),
    "BatchNorm2d not affine": (lambda lib: lib.nn.BatchNorm2d(3, affine=False), (4, 3, 2, 2)),
    "BatchNorm2d untracked": (lambda lib: lib.nn.BatchNorm2d(3, track_running_stats=False),
                              (4, 3, 2, 2)),
    "GELU": (lambda lib: lib.nn.GELU(), (4, 5)),
    "GELU tanh": (lambda lib: lib.nn.GELU(approximate="tanh"), (4, 5)),
    "SiLU": (lambda lib: lib.nn.SiLU(), (4, 5)),
    "Softmax": (lambda lib: lib.nn.Softmax(dim=-1), (4, 5)),
    "Softmax dim 0": (lambda lib: lib.nn.Softmax(dim=0), (4, 5)),
    "LogSoftmax": (lambda lib: lib.nn.LogSoftmax(dim=1), (4, 5)),
    "LogSigmoid": (lambda lib: lib.nn.LogSigmoid(), (4, 5)),
    "LeakyReLU": (lambda lib: lib.nn.LeakyReLU(0.2), (4, 5)),
    "ELU": (lambda lib: lib.nn.ELU(0.5), (4, 5)),
    "Softplus": (lambda lib: lib.nn.Softplus(beta=2.0), (4, 5)),
    "Mish": (lambda lib: lib.nn.Mish(), (4, 5)),
    "Hardtanh": (lambda lib: lib.nn.Hardtanh(-0.5, 0.5), (4, 5)),
    "ReLU6": (lambda lib: lib.nn.ReLU6(), (4, 5)),
    "Sequential": (lambda lib: lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(),
                                                 lib.nn.Linear(8, 2), lib.nn.Sigmoid()), (3, 4)),
    "MultiheadAttention": (lambda lib: mha_self(lib, batch_first=True), (2, 5, 8)),
    "MultiheadAttention sequence first": (lambda lib: mha_self(lib), (5, 2, 8)),
    "MultiheadAttention no bias": (lambda lib: mha_self(lib, bias=False, batch_first=True),
                                   (2, 4, 8)),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch_in_output_and_every_gradient(name, dtype):
    build, shape = LAYERS[name]
    for what, mine, reference in run_pair(build, images(*shape), dtype):
        assert mine.dtype == reference.dtype, f"{name}: {what} dtype"
        np.testing.assert_allclose(mine, reference, err_msg=f"{name}: {what}",
                                   **TOLERANCE[dtype])


@pytest.mark.parametrize("name", ["BatchNorm1d", "BatchNorm2d", "BatchNorm2d not affine",
                                  "BatchNorm1d cumulative"])
def test_batchnorm_in_eval_mode_uses_the_running_statistics_as_torch(name):
    build, shape = LAYERS[name]
    ours, theirs = build_pair(build, np.float64)
    for seed in range(3):  # move the running statistics first
        batch = images(*shape, seed=seed)
        ours(ag.tensor(batch))
        theirs(torch.from_numpy(batch))
    ours.eval()
    theirs.eval()
    x = images(*shape, seed=9)
    np.testing.assert_allclose(ours(ag.tensor(x)).data, theirs(torch.from_numpy(x)).detach(),
                               rtol=1e-12, atol=1e-12)
    for (key, a), b in zip(ours.state_dict().items(), theirs.state_dict().values(), strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, err_msg=key)
    assert ours.num_batches_tracked.item() == 3 and ours.num_batches_tracked.dtype == np.int64


def test_batchnorm_in_training_needs_more_than_one_value_per_channel():
    with pytest.raises(ValueError, match=r"more than 1 value per channel.*\(1, 3\).*\.eval\(\)"):
        nn.BatchNorm1d(3)(ag.tensor(images(1, 3)))
    layer = nn.BatchNorm1d(3).eval()
    assert layer(ag.tensor(images(1, 3))).shape == (1, 3)


def test_batchnorm_names_the_shape_it_expected():
    with pytest.raises(ValueError, match=r"BatchNorm2d\(3\): expected 4-D input with 3 "
                                         r"channels on axis 1, got shape \(2, 3\)"):
        nn.BatchNorm2d(3)(ag.tensor(images(2, 3)))
    with pytest.raises(ValueError, match=r"2-D or 3-D input with 4 channels"):
        nn.BatchNorm1d(4)(ag.tensor(images(2, 3)))


def test_layer_norm_names_the_axes_that_do_not_match():
    with pytest.raises(ValueError, match=r"normalized_shape \(5,\) must match the last 1 axes "
                                         r"of the input, whose shape is \(2, 4\)"):
        F.layer_norm(ag.tensor(images(2, 4)), (5,))


def test_layer_norm_and_batch_norm_pass_gradcheck_and_second_order_against_torch():
    x = ag.tensor(images(3, 4), requires_grad=True)
    w = ag.tensor(images(4, seed=1), requires_grad=True)
    b = ag.tensor(images(4, seed=2), requires_grad=True)
    assert ag.gradcheck(lambda x, w, b: F.layer_norm(x, (4,), w, b), [x, w, b])
    assert ag.gradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                        [x, w, b])
    upstream = images(3, 4, seed=3)
    theirs = [torch.tensor(t.data, requires_grad=True) for t in (x, w, b)]
    for fn, tfn in ((lambda x, w, b: F.layer_norm(x, (4,), w, b),
                     lambda x, w, b: torch.nn.functional.layer_norm(x, (4,), w, b)),
                    (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                     lambda x, w, b: torch.nn.functional.batch_norm(x, None, None, w, b,
                                                                    training=True))):
        grads = ag.grad((fn(x, w, b) * upstream).sum(), [x, w], create_graph=True)
        second = ag.grad(sum((g * g).sum() for g in grads), [x, w])
        tgrads = torch.autograd.grad((tfn(*theirs) * torch.tensor(upstream)).sum(),
                                     theirs[:2], create_graph=True)
        tsecond = torch.autograd.grad(sum((g * g).sum() for g in tgrads), theirs[:2])
        for a, c in zip(second, tsecond, strict=True):
            np.testing.assert_allclose(a.data, c.numpy(), rtol=1e-9, atol=1e-11)


def test_parameter_names_and_shapes_match_torch_for_every_layer():
    for name, (build, _) in LAYERS.items():
        ours, theirs = build(ag), build(torch)
        mine = [(k, tuple(v.shape)) for k, v in ours.state_dict().items()]
        reference = [(k, tuple(v.shape)) for k, v in theirs.state_dict().items()]
        assert mine == reference, name


# --- initialisation ---------------------------------------------------------------------------


def test_default_initialisations_follow_pytorch():
    ag.manual_seed(0)
    conv = nn.Conv2d(4, 8, 3)
    bound = 1 / math.sqrt(4 * 9)
    assert np.abs(conv.weight.data).max() <= bound and np.abs(conv.bias.data).max() <= bound
    assert np.abs(conv.weight.data).max() > 0.9 * bound
    grouped = nn.Conv1d(4, 4, 5, groups=2)
    assert np.abs(grouped.weight.data).max() <= 1 / math.sqrt(2 * 5)
    embedding = nn.Embedding(1000, 50)
    assert abs(embedding.weight.data.mean()) < 0.01 and abs(embedding.weight.data.std() - 1) < 0.01
    attention = nn.MultiheadAttention(16, 4)
    xavier = math.sqrt(6 / (16 + 48))
    assert np.abs(attention.in_proj_weight.data).max() <= xavier
    assert np.abs(attention.in_proj_weight.data).max() > 0.9 * xavier
    assert not attention.in_proj_bias.data.any() and not attention.out_proj.bias.data.any()
    norm, batch = nn.LayerNorm(5), nn.BatchNorm2d(3)
    assert (norm.weight.data == 1).all() and (norm.bias.data == 0).all()
    assert (batch.running_var.data == 1).all() and (batch.running_mean.data == 0).all()


def test_manual_seed_makes_every_layer_reproducible():
    def weights():
        ag.manual_seed(5)
        model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.Embedding(4, 3),
                              nn.MultiheadAttention(4, 2), nn.Linear(3, 2))
        return [p.data.copy() for p in model.parameters()]

    for a, b in zip(weights(), weights(), strict=True):
        np.testing.assert_array_equal(a, b)


def test_layers_take_a_dtype_and_to_casts_parameters_and_buffers():
    layer = nn.Conv2d(1, 2, 3, dtype=np.float32)
    assert layer.weight.dtype == np.float32
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).float()
    assert {t.dtype for t in model.parameters()} == {np.dtype(np.float32)}
    assert model[1].running_mean.dtype == np.float32
    assert model[1].num_batches_tracked.dtype == np.int64
    assert model(ag.tensor(images(5, 3).astype(np.float32))).dtype == np.float32
    assert model.double()[0].weight.dtype == np.float64


# --- dropout ----------------------------------------------------------------------------------


def test_dropout_zeroes_about_p_and_scales_the_rest_and_its_gradient_uses_the_same_mask():
    ag.manual_seed(1)
    x = ag.ones(200, 100, requires_grad=True)
    out = nn.Dropout(0.3)(x)
    kept = out.data != 0
    assert abs(1 - kept.mean() - 0.3) < 0.01
    np.testing.assert_allclose(out.data[kept], 1 / 0.7)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.data, out.data)


def test_dropout_is_the_identity_in_eval_mode_and_for_p_zero():
    x = ag.tensor(images(3, 4))
    layer = nn.Dropout(0.5).eval()
    assert layer(x) is x and F.dropout(x, 0.5, training=False) is x
    assert nn.Dropout(0.0)(x) is x
    zeros = F.dropout(ag.tensor(images(3, 4), requires_grad=True), 1.0)
    assert not zeros.data.any()


def test_dropout_refuses_a_probability_outside_zero_one():
    with pytest.raises(ValueError, match="between 0 and 1, got p=1.5"):
        nn.Dropout(1.5)
    with pytest.raises(ValueError, match="between 0 and 1, got p=-0.1"):
        F.dropout(ag.tensor([1.0]), -0.1)


def test_dropout_masks_are_reproducible_with_manual_seed():
    x = ag.ones(50)
    ag.manual_seed(3)
    first = F.dropout(x, 0.5).data
    ag.manual_seed(3)
    np.testing.assert_array_equal(first, F.dropout(x, 0.5).data)


# --- embedding --------------------------------------------------------------------------------


@pytest.mark.parametrize("padding_idx", [None, 2, -1])
def test_embedding_matches_torch_and_padding_rows_get_no_gradient(padding_idx):
    indices = np.array([[1, 2, 2, 4], [4, 0, 2, 1]])
    for dtype in (np.float64, np.float32):
        pairs = run_pair(lambda lib: lib.nn.Embedding(5, 3, padding_idx=padding_idx), indices,
                         dtype, integer_input=True)
        for what, mine, reference in pairs:
            np.testing.assert_allclose(mine, reference, err_msg=what, **TOLERANCE[dtype])
    layer = nn.Embedding(5, 3, padding_idx=padding_idx)
    if padding_idx is not None:
        assert not layer.weight.data[padding_idx].any()


def test_embedding_explains_bad_indices():
    layer = nn.Embedding(5, 3)
    with pytest.raises(IndexError, match="index 5 is out of range for 5 embeddings"):
        layer(np.array([0, 5]))
    with pytest.raises(IndexError, match="index -1 is out of range"):
        layer(np.array([-1]))
    with pytest.raises(TypeError, match="indices must be integers.*long"):
        layer(np.array([0.0, 1.0]))


# --- attention --------------------------------------------------------------------------------


def attention_inputs(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((2, 3, 5, 4)), rng.standard_normal((2, 3, 6, 4)),
            rng.standard_normal((2, 3, 6, 3)))


SDPA_CASES = {
    "plain": {},
    "causal": {"is_causal": True},
    "boolean mask": {"attn_mask": np.random.default_rng(1).random((5, 6)) > 0.3},
    "float mask": {"attn_mask": np.random.default_rng(2).standard_normal((5, 6))},
    "batched mask": {"attn_mask": np.random.default_rng(3).random((2, 1, 5, 6)) > 0.2},
    "scale": {"scale": 0.3},
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", list(SDPA_CASES))
def test_scaled_dot_product_attention_matches_torch(case, dtype):
    settings = SDPA_CASES[case]
    arrays = [a.astype(dtype) for a in attention_inputs()]
    ours = [ag.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    our_settings = {k: v.astype(dtype) if isinstance(v, np.ndarray) and v.dtype != bool else v
                    for k, v in settings.items()}
    torch_settings = {k: torch.from_numpy(v) if isinstance(v, np.ndarray) else v
                      for k, v in our_settings.items()}
    out = F.scaled_dot_product_attention(*ours, **our_settings)
    ref = torch.nn.functional.scaled_dot_product_attention(*theirs, **torch_settings)
    upstream = images(*ref.shape, seed=4).astype(dtype)
    out.backward(ag.tensor(upstream))
    ref.backward(torch.from_numpy(upstream))
    np.testing.assert_allclose(out.data, ref.detach().numpy(), **TOLERANCE[dtype])
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.data, b.grad.numpy(), **TOLERANCE[dtype])


def test_attention_rows_with_nothing_allowed_come_out_zero_with_finite_gradients():
    q, k, v = (ag.tensor(a, requires_grad=True) for a in attention_inputs())
    mask = np.ones((5, 6), bool)
    mask[2] = False
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    tq, tk, tv = (torch.tensor(a) for a in attention_inputs())
    ref = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv,
                                                           attn_mask=torch.from_numpy(mask))
    np.testing.assert_allclose(out.data, ref.numpy(), atol=1e-12)
    assert not out.data[:, :, 2].any()
    out.sum().backward()
    assert all(np.isfinite(t.grad.data).all() for t in (q, k, v))


def test_scaled_dot_product_attention_passes_gradcheck_with_a_causal_mask():
    q, k, v = (ag.tensor(a[:, :1, :4], requires_grad=True) for a in attention_inputs())
    assert ag.gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                        [q, k, v])


def test_scaled_dot_product_attention_errors_name_the_fix():
    q, k, v = (ag.tensor(a) for a in attention_inputs())
    with pytest.raises(ValueError, match="attn_mask or is_causal=True, not both"):
        F.scaled_dot_product_attention(q, k, v, attn_mask=np.ones((5, 6), bool),
                                       is_causal=True)
    with pytest.raises(ValueError, match=r"share the last axis \(E\)"):
        F.scaled_dot_product_attention(q, v, v)


def both_attention(dtype=np.float64, **settings):
    torch.manual_seed(1)
    theirs = torch.nn.MultiheadAttention(8, 2, **settings).to(getattr(torch, dtype.__name__))
    ours = nn.MultiheadAttention(8, 2, **settings).to(dtype)
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    return ours, theirs


MHA_CALLS = {
    "key padding": {"key_padding_mask": np.array([[False, False, True, True],
                                                  [False, False, False, True]])},
    "float mask": {"attn_mask": np.random.default_rng(5).standard_normal((3, 4))},
    "per-head mask": {"attn_mask": np.random.default_rng(6).random((4, 3, 4))
                      > np.array([2.0, 0.3, 0.3, 0.3])},  # key 0 always allowed: no NaN rows
    "heads not averaged": {"average_attn_weights": False},
    "no weights": {"need_weights": False},
}


@pytest.mark.parametrize("call", list(MHA_CALLS))
def test_multihead_attention_with_distinct_query_key_value_and_masks_matches_torch(call):
    ours, theirs = both_attention(batch_first=True)
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal((2, 3, 8)), rng.standard_normal((2, 4, 8)),
              rng.standard_normal((2, 4, 8))]
    mine = [ag.tensor(a, requires_grad=True) for a in arrays]
    reference = [torch.tensor(a, requires_grad=True) for a in arrays]
    settings = MHA_CALLS[call]
    out, weights = ours(*mine, **settings)
    ref, ref_weights = theirs(*reference, **{
        k: torch.from_numpy(v) if isinstance(v, np.ndarray) else v for k, v in settings.items()})
    if ref_weights is None:
        assert weights is None
        total, ref_total = out.sum(), ref.sum()
    else:
        np.testing.assert_allclose(weights.data, ref_weights.detach().numpy(), atol=1e-12)
        total, ref_total = out.sum() + (weights * weights).sum(), ref.sum() + (
            ref_weights * ref_weights).sum()
    np.testing.assert_allclose(out.data, ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    total.backward()
    ref_total.backward()
    for a, b in zip(mine, reference, strict=True):
        np.testing.assert_allclose(a.grad.data, b.grad.numpy(), rtol=1e-9, atol=1e-12)
    for p, q in zip(ours.parameters(), theirs.parameters(), strict=True):
        np.testing.assert_allclose(p.grad.data, q.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_multihead_attention_with_other_key_and_value_sizes_and_unbatched_input():
    ours, theirs = both_attention(kdim=5, vdim=3)
    assert [k for k, _ in ours.named_parameters()] == [k for k, _ in theirs.named_parameters()]
    rng = np.random.default_rng(9)
    q, k, v = rng.standard_normal((3, 8)), rng.standard_normal((4, 5)), rng.standard_normal((4, 3))
    out, weights = ours(ag.tensor(q), ag.tensor(k), ag.tensor(v))
    ref, ref_weights = theirs(*(torch.from_numpy(a) for a in (q, k, v)))
    np.testing.assert_allclose(out.data, ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights.data, ref_weights.detach().numpy(), atol=1e-12)


def test_multihead_attention_dropout_acts_only_in_training():
    ours, theirs = both_attention(batch_first=True, dropout=0.5)
    x = images(2, 3, 8)
    ours.eval()
    theirs.eval()
    np.testing.assert_allclose(ours(ag.tensor(x), ag.tensor(x), ag.tensor(x))[0].data,
                               theirs(*[torch.from_numpy(x)] * 3)[0].detach().numpy(),
                               rtol=1e-10, atol=1e-12)
    ours.train()
    ag.manual_seed(0)
    weights = ours(ag.tensor(x), ag.tensor(x), ag.tensor(x), average_attn_weights=False)[1]
    assert (weights.data == 0).any()


def test_multihead_attention_errors_say_what_to_change():
    with pytest.raises(ValueError, match=r"embed_dim \(10\) must be divisible by num_heads \(3\)"):
        nn.MultiheadAttention(10, 3)
    layer = nn.MultiheadAttention(8, 2, batch_first=True)
    x = ag.tensor(images(2, 3, 8))
    with pytest.raises(ValueError, match="pass the causal mask itself as attn_mask"):
        layer(x, x, x, is_causal=True)
    with pytest.raises(ValueError, match=r"mask of shape \(4, 4\) does not fit.*\(3, 3\)"):
        layer(x, x, x, attn_mask=np.zeros((4, 4), bool))
    with pytest.raises(NotImplementedError, match="add_bias_kv"):
        nn.MultiheadAttention(8, 2, add_bias_kv=True)


# --- containers and Module bookkeeping -----------------------------------------------------


def test_module_list_and_dict_register_their_modules_parameters():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
            self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Linear(2, 3)})

    net = Net()
    names = [name for name, _ in net.named_parameters()]
    assert names == ["blocks.0.weight", "blocks.0.bias", "blocks.1.weight", "blocks.1.bias",
                     "heads.a.weight", "heads.a.bias", "heads.b.weight", "heads.b.bias"]
    net.blocks.append(nn.Linear(2, 2))
    net.blocks.insert(0, nn.Identity())
    assert len(net.blocks) == 4 and isinstance(net.blocks[0], nn.Identity)
    assert [k for k, _ in net.blocks.named_children()] == ["0", "1", "2", "3"]
    assert list(net.heads) == ["a", "b"] and "a" in net.heads
    del net.heads["a"]
    assert [name for name, _ in net.named_parameters()][-2:] == ["heads.b.weight",
                                                                 "heads.b.bias"]
    with pytest.raises(TypeError, match="ModuleList takes Modules"):
        nn.ModuleList([lambda x: x])


def test_a_constant_tensor_attribute_is_not_a_parameter_but_a_buffer_can_be_registered():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = ag.tensor(2.0)  # constant: a plain attribute, as in PyTorch
            self.weight = nn.Parameter(ag.ones(3))
            self.register_buffer("mask", ag.ones(3))
            self.register_buffer("scratch", ag.zeros(2), persistent=False)

    net = Net()
    assert [name for name, _ in net.named_parameters()] == ["weight"]
    assert [name for name, _ in net.named_buffers()] == ["mask", "scratch"]
    assert list(net.state_dict()) == ["weight", "mask"]
    net.mask = ag.zeros(3)  # assigning a Tensor to a buffer's name replaces the buffer
    assert [name for name, _ in net.named_buffers()][0] == "mask"
    assert not net.state_dict()["mask"].data.any()


def test_module_walks_apply_train_eval_and_requires_grad():
    model = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Dropout(), nn.Linear(3, 1)))
    assert [name for name, _ in model.named_modules()] == ["", "0", "1", "1.0", "1.1"]
    assert len(model.children()) == 2
    model.apply(lambda m: nn.init.zeros_(m.weight) if isinstance(m, nn.Linear) else None)
    assert not model[0].weight.data.any()
    model.eval()
    assert not model[1][0].training
    model.requires_grad_(False)
    assert not any(p.requires_grad for p in model.parameters())


def test_functional_offers_pytorchs_names():
    for name in ("conv1d", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "pad",
                 "unfold", "fold", "gelu", "silu", "elu", "celu", "selu", "softplus", "softsign",
                 "hardtanh", "relu6", "mish", "hardsigmoid", "hardswish", "leaky_relu", "prelu",
                 "one_hot", "layer_norm", "batch_norm", "dropout", "embedding", "logsigmoid",
                 "scaled_dot_product_attention", "normalize", "nll_loss", "kl_div", "l1_loss",
                 "huber_loss", "smooth_l1_loss", "multi_margin_loss",
                 "binary_cross_entropy_with_logits"):
        assert callable(getattr(F, name)), name
        assert hasattr(torch.nn.functional, name), name
    assert F.conv2d is ag.conv2d and F.gelu is ag.gelu


def test_normalize_matches_torch():
    x = images(3, 4)
    x[1] = 0
    ours = ag.tensor(x, requires_grad=True)
    theirs = torch.tensor(x, requires_grad=True)
    out, ref = F.normalize(ours, dim=1), torch.nn.functional.normalize(theirs, dim=1)
    np.testing.assert_allclose(out.data, ref.detach().numpy(), atol=1e-15)
    (out * images(3, 4, seed=1)).sum().backward()
    (ref * torch.from_numpy(images(3, 4, seed=1))).sum().backward()
    np.testing.assert_allclose(ours.grad.data, theirs.grad.numpy(), atol=1e-12)


def test_softmax_module_without_dim_picks_pytorchs_implicit_axis():
    for shape in ((5,), (3, 4), (2, 3, 4), (2, 2, 3, 4)):
        x = images(*shape)
        with pytest.warns(UserWarning):
            ref = torch.nn.Softmax()(torch.from_numpy(x))
        np.testing.assert_allclose(nn.Softmax()(ag.tensor(x)).data, ref.numpy(), atol=1e-15)


def test_sequential_takes_named_modules_from_a_dict_as_torch():
    from collections import OrderedDict

    def build(lib):
        return lib.nn.Sequential(OrderedDict([("conv", lib.nn.Conv2d(1, 2, 3)),
                                              ("act", lib.nn.ReLU())]))

    assert list(build(ag).state_dict()) == list(build(torch).state_dict()) == ["conv.weight",
                                                                               "conv.bias"]
    assert isinstance(build(ag)[1], nn.ReLU)


FORWARD_MODE = {
    "layer_norm": (lambda lib, x, w: lib.nn.functional.layer_norm(x, (4,), w), (3, 4), (4,)),
    "batch_norm": (lambda lib, x, w: lib.nn.functional.batch_norm(x, None, None, w,
                                                                  training=True), (5, 4), (4,)),
    "attention": (lambda lib, q, k: lib.nn.functional.scaled_dot_product_attention(
        q, k, k, is_causal=True), (2, 3, 4), (2, 3, 4)),
    "bce_with_logits": (lambda lib, x, t: lib.nn.functional.binary_cross_entropy_with_logits(
        x, t.sigmoid()), (3, 4), (3, 4)),
    "huber_loss": (lambda lib, x, t: lib.nn.functional.huber_loss(x, t * 2), (3, 4), (3, 4)),
    "cross_entropy, classes, smoothed": (lambda lib, x: lib.nn.functional.cross_entropy(
        x, lib.tensor(np.array([0, 3, 1])), reduction="none", label_smoothing=0.2), (3, 4)),
    "cross_entropy, one row": (lambda lib, x: lib.nn.functional.cross_entropy(
        x, lib.tensor(np.array(2)), label_smoothing=0.1), (4,)),
    "cross_entropy, probabilities": (lambda lib, x, t: lib.nn.functional.cross_entropy(
        x, t.softmax(-1)), (3, 4), (3, 4)),
}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch.func's own jit notice
@pytest.mark.parametrize("name", list(FORWARD_MODE))
def test_forward_mode_through_layers_and_losses_matches_torch_func_jvp(name):
    fn, *shapes = FORWARD_MODE[name]
    rng = np.random.default_rng(12)
    primals = [rng.standard_normal(s) for s in shapes]
    tangents = [rng.standard_normal(s) for s in shapes]
    value, tangent = ag.func.jvp(lambda *a: fn(ag, *a), tuple(ag.tensor(p) for p in primals),
                                 tuple(ag.tensor(t) for t in tangents))
    ref_value, ref_tangent = torch.func.jvp(lambda *a: fn(torch, *a),
                                            tuple(torch.from_numpy(p) for p in primals),
                                            tuple(torch.from_numpy(t) for t in tangents))
    np.testing.assert_allclose(value.data, ref_value.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(tangent.data, ref_tangent.numpy(), rtol=1e-9, atol=1e-12)
