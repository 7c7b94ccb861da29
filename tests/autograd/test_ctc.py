"""F.ctc_loss against torch.nn.functional.ctc_loss: padded and concatenated targets, every
reduction, repeated labels, short inputs, impossible targets (inf, or 0 with zero_infinity),
float32 and unbatched input; gradients end to end from the logits through log_softmax (PyTorch's
own ctc backward assumes that log_softmax, so that is where the two are the same function)."""

import numpy as np
import pytest

import autograd as ag
from autograd.nn import functional as F

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)
T, N, C = 12, 4, 5
LOGITS = RNG.standard_normal((T, N, C))
TARGETS = np.array([[1, 2, 2, 3], [1, 1, 0, 0], [4, 0, 0, 0], [2, 3, 4, 1]])
TARGET_LENGTHS = np.array([4, 2, 1, 4])
INPUT_LENGTHS = np.array([12, 10, 7, 5])


def both(logits, targets, input_lengths, target_lengths, dtype=np.float64, **settings):
    """Our loss and PyTorch's, and the gradients of both with respect to the logits."""
    ours_x = ag.tensor(logits.astype(dtype), requires_grad=True)
    theirs_x = torch.tensor(logits.astype(dtype), requires_grad=True)
    ours = F.ctc_loss(F.log_softmax(ours_x, -1), targets, input_lengths, target_lengths,
                      **settings)
    theirs = torch.nn.functional.ctc_loss(
        torch.nn.functional.log_softmax(theirs_x, -1), torch.tensor(targets),
        torch.tensor(input_lengths), torch.tensor(target_lengths), **settings)
    upstream = RNG.standard_normal(tuple(theirs.shape)).astype(dtype)
    (ours * ag.tensor(upstream)).sum().backward()
    (theirs * torch.tensor(upstream)).sum().backward()
    return ours, theirs, ours_x.grad.data, theirs_x.grad.numpy()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("form", ["padded", "concatenated"])
def test_ctc_loss_matches_torch(reduction, form):
    targets = TARGETS if form == "padded" else np.concatenate(
        [TARGETS[n, :TARGET_LENGTHS[n]] for n in range(N)])
    ours, theirs, grad, grad_t = both(LOGITS, targets, INPUT_LENGTHS, TARGET_LENGTHS,
                                      reduction=reduction)
    np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-8, atol=1e-12)


def test_float32_and_an_unbatched_input_match_torch():
    ours, theirs, grad, grad_t = both(LOGITS, TARGETS, INPUT_LENGTHS, TARGET_LENGTHS,
                                      dtype=np.float32)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-5)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-4, atol=1e-6)
    ours, theirs, grad, grad_t = both(LOGITS[:, 0], TARGETS[0], np.array([12]), np.array([4]))
    np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-8, atol=1e-12)


def test_an_impossible_target_costs_inf_or_nothing_with_zero_infinity():
    """Two equal labels need a blank between them: 3 steps at least, and 2 are given."""
    lengths = np.array([12, 2, 7, 5])
    ours, theirs, _, _ = both(LOGITS, TARGETS, lengths, TARGET_LENGTHS, reduction="none")
    assert np.isinf(ours.data[1]) and np.isinf(theirs.detach().numpy()[1])
    np.testing.assert_allclose(ours.data[[0, 2, 3]], theirs.detach().numpy()[[0, 2, 3]],
                               rtol=1e-10)
    ours, theirs, grad, grad_t = both(LOGITS, TARGETS, lengths, TARGET_LENGTHS,
                                      reduction="sum", zero_infinity=True)
    np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-8, atol=1e-12)
    assert not grad[:, 1].any()


def test_ctc_loss_passes_gradcheck_on_log_probabilities():
    x = ag.tensor(RNG.standard_normal((6, 2, 3)), requires_grad=True)
    assert ag.gradcheck(lambda x: F.ctc_loss(F.log_softmax(x, -1), np.array([[1, 2], [2, 2]]),
                                             np.array([6, 5]), np.array([2, 2])), (x,))


def test_bad_lengths_are_refused_with_what_to_fix():
    with pytest.raises(ValueError, match="one entry per sample"):
        F.ctc_loss(F.log_softmax(ag.tensor(LOGITS), -1), TARGETS, INPUT_LENGTHS[:2],
                   TARGET_LENGTHS)
    with pytest.raises(ValueError, match="between 0 and T = 12"):
        F.ctc_loss(F.log_softmax(ag.tensor(LOGITS), -1), TARGETS, INPUT_LENGTHS + 1,
                   TARGET_LENGTHS)
