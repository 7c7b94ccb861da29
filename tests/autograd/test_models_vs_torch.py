"""The models a course builds after micrograd, trained here and in PyTorch side by side: the
same source builds each model with either library, ours starts from PyTorch's initial weights
(copied through state_dict as NumPy arrays), both see the same batches, and after each of 20
optimizer steps the loss, every parameter and every buffer agree to 1e-8 relative (float64)."""

import numpy as np
import pytest

import autograd as ag
from benchmarks.course_models import (
    char_lstm,
    char_transformer,
    digits_cnn,
    small_unet,
    token_tagger,
)

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

STEPS = 20
RTOL, ATOL = 1e-8, 1e-12


# --- the models, written once for either library (``lib`` is autograd or torch) -------------


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(64, 32, bias=False), nn.BatchNorm1d(32), nn.ReLU(),
                         nn.Dropout(0.3), nn.Linear(32, 10))


# --- side by side ----------------------------------------------------------------------------


def twins(build):
    """The model built with PyTorch (float64) and with autograd, ours loaded from PyTorch's
    state_dict converted to NumPy arrays."""
    torch.manual_seed(0)
    theirs = build(torch).double()
    ours = build(ag)
    result = ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    assert result.missing_keys == [] and result.unexpected_keys == []
    return ours, theirs


def assert_same_state(ours, theirs, what):
    mine, reference = ours.state_dict(), theirs.state_dict()
    assert list(mine) == list(reference), what
    for key in reference:
        np.testing.assert_allclose(mine[key].numpy(), reference[key].numpy(), rtol=RTOL,
                                   atol=ATOL, err_msg=f"{what}: {key}")


def cross_entropy(lib, out, y):
    return lib.nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))


def _to_torch(x):
    return tuple(map(torch.from_numpy, x)) if isinstance(x, tuple) else torch.from_numpy(x)


def train_side_by_side(ours, theirs, optimizers, batches, schedulers=(None, None), clip=None,
                       loss_fn=cross_entropy):
    """STEPS steps in both engines; loss, parameters and buffers compared after each."""
    for step, (x, y) in enumerate(batches[:STEPS]):
        losses = []
        for lib, model, opt, schedule, (xs, ys) in (
                (ag, ours, optimizers[0], schedulers[0], (x, y)),
                (torch, theirs, optimizers[1], schedulers[1],
                 (_to_torch(x), torch.from_numpy(y)))):
            opt.zero_grad()
            loss = loss_fn(lib, model(*xs) if isinstance(xs, tuple) else model(xs), ys)
            loss.backward()
            if clip is not None:
                lib.nn.utils.clip_grad_norm_(model.parameters(), clip)
            opt.step()
            if schedule is not None:
                schedule.step()
            losses.append(loss.item())
        assert losses[0] == pytest.approx(losses[1], rel=RTOL), f"loss at step {step}"
        assert_same_state(ours, theirs, f"after step {step}")
    if schedulers[0] is not None:
        assert schedulers[0].get_last_lr() == pytest.approx(schedulers[1].get_last_lr(),
                                                            rel=1e-12)


@pytest.fixture(scope="module")
def digits():
    """scikit-learn's bundled 8x8 digits (imported here: it takes a second)."""
    data = pytest.importorskip("sklearn.datasets").load_digits()
    return data.images / 16.0, data.target


def digit_batches(images, labels, batch=32, seed=0):
    rng = np.random.default_rng(seed)
    picks = [rng.choice(len(images), batch, replace=False) for _ in range(STEPS)]
    return [(images[p], labels[p]) for p in picks]


def test_mlp_with_batchnorm_trains_as_pytorch_with_adamw_and_a_cosine_schedule(digits):
    images, labels = digits
    ours, theirs = twins(mlp)
    ours_opt = ag.optim.AdamW(ours.parameters(), lr=0.01, weight_decay=0.05)
    theirs_opt = torch.optim.AdamW(theirs.parameters(), lr=0.01, weight_decay=0.05)
    schedules = (ag.optim.lr_scheduler.CosineAnnealingLR(ours_opt, T_max=STEPS, eta_min=1e-4),
                 torch.optim.lr_scheduler.CosineAnnealingLR(theirs_opt, T_max=STEPS,
                                                            eta_min=1e-4))
    for model in (ours, theirs):  # batch statistics on, dropout off, so both see the same net
        model.train()
        model[3].eval()
    batches = digit_batches(images.reshape(-1, 64), labels)
    train_side_by_side(ours, theirs, (ours_opt, theirs_opt), batches, schedules)

    ours.eval()
    theirs.eval()  # running statistics, dropout off: the same predictions
    held_out = images[-100:].reshape(-1, 64)
    np.testing.assert_allclose(ours(held_out).data,
                               theirs(torch.from_numpy(held_out)).detach().numpy(),
                               rtol=RTOL, atol=ATOL)
    assert ours_opt.state_dict()["param_groups"][0]["lr"] == pytest.approx(
        theirs_opt.state_dict()["param_groups"][0]["lr"], rel=1e-12)


def test_digits_cnn_trains_as_pytorch_with_adam_and_two_parameter_groups(digits):
    images, labels = digits
    ours, theirs = twins(lambda lib: digits_cnn(lib, channels=(8, 16)))

    def groups(model):
        params = list(model.parameters())
        return [{"params": params[:-2]}, {"params": params[-2:], "lr": 0.003}]

    ours_opt = ag.optim.Adam(groups(ours), lr=0.01)
    theirs_opt = torch.optim.Adam(groups(theirs), lr=0.01)
    schedules = (ag.optim.lr_scheduler.StepLR(ours_opt, step_size=5, gamma=0.5),
                 torch.optim.lr_scheduler.StepLR(theirs_opt, step_size=5, gamma=0.5))
    batches = digit_batches(images[:, None], labels, seed=1)
    train_side_by_side(ours, theirs, (ours_opt, theirs_opt), batches, schedules)

    ours.eval()
    theirs.eval()
    np.testing.assert_allclose(ours(images[:50, None]).data,
                               theirs(torch.from_numpy(images[:50, None])).detach().numpy(),
                               rtol=RTOL, atol=ATOL)


def test_small_unet_denoiser_trains_as_pytorch_with_adamw_and_a_cosine_schedule(digits):
    """Conv2d, GroupNorm, SiLU, max-pool down, ConvTranspose2d and bilinear interpolate up, a
    skip connection; MSE from noisy digits to clean ones."""
    images, _ = digits
    rng = np.random.default_rng(4)
    picks = [rng.choice(len(images), 8, replace=False) for _ in range(STEPS)]
    batches = [(images[p, None] + 0.3 * rng.standard_normal((8, 1, 8, 8)), images[p, None])
               for p in picks]
    ours, theirs = twins(small_unet)
    ours_opt = ag.optim.AdamW(ours.parameters(), lr=0.01, weight_decay=0.01)
    theirs_opt = torch.optim.AdamW(theirs.parameters(), lr=0.01, weight_decay=0.01)
    schedules = (ag.optim.lr_scheduler.CosineAnnealingLR(ours_opt, T_max=STEPS),
                 torch.optim.lr_scheduler.CosineAnnealingLR(theirs_opt, T_max=STEPS))
    train_side_by_side(ours, theirs, (ours_opt, theirs_opt), batches, schedules,
                       loss_fn=lambda lib, out, y: lib.nn.functional.mse_loss(out, y))


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_tags_padded_tokens_as_pytorch_with_sgd_momentum(norm_first):
    """Token classification (is this token larger than the one before it?) on sequences of
    different lengths, padded and masked; the loss ignores the padding (ignore_index). SGD, not
    Adam: the keys' share of in_proj_bias has a gradient of exactly zero (softmax ignores a
    constant added to a row of scores), so both engines compute rounding noise there, and Adam
    would scale that noise up to a step of lr in either direction."""
    rng = np.random.default_rng(5)
    batches = []
    for _ in range(STEPS):
        lengths = rng.integers(3, 9, 6)
        idx = rng.integers(1, 12, (6, 8))
        padding = np.arange(8)[None, :] >= lengths[:, None]
        labels = np.where(padding, -100, np.diff(idx, prepend=0, axis=1) > 0)
        batches.append(((np.where(padding, 0, idx), padding), labels.astype(np.int64)))
    ours, theirs = twins(lambda lib: token_tagger(lib, 12, 2, width=16, heads=2,
                                                  norm_first=norm_first))
    for model in (ours, theirs):
        model.train()

    def tagged(lib, out, y):
        return lib.nn.functional.cross_entropy(out.reshape(-1, 2), y.reshape(-1),
                                               ignore_index=-100)

    ours_opt = ag.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9)
    theirs_opt = torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9)
    train_side_by_side(ours, theirs, (ours_opt, theirs_opt), batches, loss_fn=tagged)


def char_batches(block, batch, seed=3):
    """A short text, its characters, and STEPS batches of (window, next characters)."""
    text = " ".join(["hello autograd, hello torch: the same numbers in both"] * 8)
    chars = sorted(set(text))
    codes = np.array([chars.index(c) for c in text])
    starts = np.random.default_rng(seed).integers(0, len(codes) - block - 1, (STEPS, batch))
    windows = starts[..., None] + np.arange(block + 1)
    return chars, [(codes[w[:, :-1]], codes[w[:, 1:]]) for w in windows]


def test_character_lstm_trains_as_pytorch_with_adam_and_clipping():
    chars, batches = char_batches(block=10, batch=4)
    ours, theirs = twins(lambda lib: char_lstm(lib, len(chars), width=8, hidden=12, layers=2))
    ours_opt = ag.optim.Adam(ours.parameters(), lr=0.02)
    theirs_opt = torch.optim.Adam(theirs.parameters(), lr=0.02)
    train_side_by_side(ours, theirs, (ours_opt, theirs_opt), batches, clip=1.0)


def test_character_transformer_trains_as_pytorch_with_sgd_momentum_and_clipping():
    block = 12
    chars, batches = char_batches(block, batch=6)
    ours, theirs = twins(lambda lib: char_transformer(lib, len(chars), block, width=16, heads=2))
    ours_opt = ag.optim.SGD(ours.parameters(), lr=0.3, momentum=0.9)
    theirs_opt = torch.optim.SGD(theirs.parameters(), lr=0.3, momentum=0.9)
    schedules = (ag.optim.lr_scheduler.LambdaLR(ours_opt, lambda step: 1 / (1 + 0.1 * step)),
                 torch.optim.lr_scheduler.LambdaLR(theirs_opt, lambda step: 1 / (1 + 0.1 * step)))
    train_side_by_side(ours, theirs, (ours_opt, theirs_opt), batches, schedules, clip=0.5)

    # the gradient was clipped: the total norm before clipping is reported the same way
    x, y = batches[0]
    norms = []
    for lib, model, xs, ys in ((ag, ours, x, y),
                               (torch, theirs, torch.from_numpy(x), torch.from_numpy(y))):
        model.zero_grad()
        cross_entropy(lib, model(xs), ys).backward()
        norms.append(lib.nn.utils.clip_grad_norm_(model.parameters(), 0.5).item())
    assert norms[0] == pytest.approx(norms[1], rel=RTOL) and norms[0] > 0.5
