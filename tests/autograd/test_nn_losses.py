"""The losses of autograd.nn.functional against torch.nn.functional: values and gradients in
float64 and float32 for every reduction, finite differences, second derivatives, the kinks and
tails where a naive formula goes wrong, and the errors."""

import numpy as np
import pytest

import autograd as ag
from autograd import nn
from autograd.nn import functional as F
from tests.autograd.vs_torch import both, close

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

TF = torch.nn.functional
TOLERANCE = {np.float64: {"rtol": 1e-10, "atol": 1e-12}, np.float32: {"rtol": 1e-4, "atol": 1e-6}}
RNG = np.random.default_rng(11)
LOGITS = RNG.standard_normal((5, 4)) * 2
LABELS = np.array([0, 3, 1, 1, 2])
PREDICTIONS = RNG.standard_normal((3, 4))
TARGETS = RNG.standard_normal((3, 4))
PROBABILITIES = RNG.random((3, 4))


def log_probabilities(seed=0):
    x = np.random.default_rng(seed).standard_normal((4, 5))
    return x - np.log(np.exp(x).sum(axis=1, keepdims=True))


# name -> (our loss(x, *constants, **kw), torch's, input, constants, keywords)
CASES = {
    "nll_loss": (F.nll_loss, TF.nll_loss, LOGITS, (LABELS,), {}),
    "nll_loss weight": (F.nll_loss, TF.nll_loss, LOGITS, (LABELS,),
                        {"weight": np.array([1.0, 2.0, 0.5, 3.0])}),
    "nll_loss ignore_index": (F.nll_loss, TF.nll_loss, LOGITS, (LABELS,), {"ignore_index": 1}),
    "nll_loss images": (F.nll_loss, TF.nll_loss, RNG.standard_normal((2, 3, 4, 5)),
                        (RNG.integers(0, 3, (2, 4, 5)),), {}),
    "nll_loss unbatched": (F.nll_loss, TF.nll_loss, LOGITS[0], (np.array(2),), {}),
    "bce_with_logits": (F.binary_cross_entropy_with_logits, TF.binary_cross_entropy_with_logits,
                        np.concatenate([LOGITS.ravel(), [0.0, 40.0, -40.0, 800.0, -800.0]]),
                        (np.concatenate([RNG.random(20), [1.0, 0.0, 1.0, 0.0, 1.0]]),), {}),
    "bce_with_logits pos_weight": (
        F.binary_cross_entropy_with_logits, TF.binary_cross_entropy_with_logits, LOGITS,
        (RNG.random((5, 4)),), {"pos_weight": np.array([1.0, 3.0, 0.5, 2.0]),
                                "weight": RNG.random((5, 4))}),
    "l1_loss": (F.l1_loss, TF.l1_loss, PREDICTIONS, (TARGETS,), {}),
    "huber_loss": (F.huber_loss, TF.huber_loss, PREDICTIONS * 2, (TARGETS,), {}),
    "huber_loss delta": (F.huber_loss, TF.huber_loss, PREDICTIONS * 2, (TARGETS,),
                         {"delta": 0.4}),
    "smooth_l1_loss": (F.smooth_l1_loss, TF.smooth_l1_loss, PREDICTIONS * 2, (TARGETS,), {}),
    "smooth_l1_loss beta": (F.smooth_l1_loss, TF.smooth_l1_loss, PREDICTIONS * 2, (TARGETS,),
                            {"beta": 0.3}),
    "smooth_l1_loss beta 0": (F.smooth_l1_loss, TF.smooth_l1_loss, PREDICTIONS, (TARGETS,),
                              {"beta": 0.0}),
    "kl_div": (F.kl_div, TF.kl_div, log_probabilities(), (np.exp(log_probabilities(1)),), {}),
    "kl_div zero target": (F.kl_div, TF.kl_div, log_probabilities(),
                           (np.where(RNG.random((4, 5)) < 0.3, 0.0, RNG.random((4, 5))),), {}),
    "kl_div log_target": (F.kl_div, TF.kl_div, log_probabilities(), (log_probabilities(2),),
                          {"log_target": True}),
    "multi_margin_loss": (F.multi_margin_loss, TF.multi_margin_loss, LOGITS, (LABELS,), {}),
    "multi_margin_loss p2": (F.multi_margin_loss, TF.multi_margin_loss, LOGITS, (LABELS,),
                             {"p": 2, "margin": 0.7}),
    "multi_margin_loss weight": (F.multi_margin_loss, TF.multi_margin_loss, LOGITS, (LABELS,),
                                 {"weight": np.array([1.0, 2.0, 0.5, 3.0])}),
    "multi_margin_loss unbatched": (F.multi_margin_loss, TF.multi_margin_loss, LOGITS[1],
                                    (np.array(3),), {}),
}


def reductions(name):
    kinds = ["mean", "sum", "none"]
    return kinds + ["batchmean"] if name.startswith("kl_div") else kinds


def torch_value(value, dtype):
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.astype(dtype) if value.dtype.kind == "f" else value)
    return value


def run(name, reduction, dtype):
    ours_fn, torch_fn, x, constants, keywords = CASES[name]
    x = x.astype(dtype)
    ours_x, torch_x = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ours_constants = [c.astype(dtype) if c.dtype.kind == "f" else c for c in constants]
    ours_keywords = {k: v.astype(dtype) if isinstance(v, np.ndarray) else v
                     for k, v in keywords.items()}
    out = ours_fn(ours_x, *ours_constants, reduction=reduction, **ours_keywords)
    ref = torch_fn(torch_x, *(torch_value(c, dtype) for c in constants), reduction=reduction,
                   **{k: torch_value(v, dtype) for k, v in keywords.items()})
    upstream = np.random.default_rng(3).standard_normal(ref.shape).astype(dtype)
    out.backward(ag.tensor(upstream))
    ref.backward(torch.from_numpy(upstream))
    return out, ref, ours_x.grad, torch_x.grad


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides")  # torch's kl_div notice
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize(("name", "reduction"),
                         [(name, r) for name in CASES for r in reductions(name)])
def test_loss_matches_torch_in_value_and_gradient(name, reduction, dtype):
    out, ref, grad, ref_grad = run(name, reduction, dtype)
    assert out.shape == tuple(ref.shape) and out.dtype == dtype
    np.testing.assert_allclose(out.data, ref.detach().numpy(), **TOLERANCE[dtype])
    np.testing.assert_allclose(grad.data, ref_grad.numpy(), **TOLERANCE[dtype])


@pytest.mark.parametrize("name", [n for n in CASES if "unbatched" not in n and "images" not in n])
def test_loss_passes_gradcheck(name):
    ours_fn, _, x, constants, keywords = CASES[name]
    x = np.clip(x, -5, 5)  # finite differences need no huge logits
    if name.startswith(("l1", "huber", "smooth", "multi_margin")):
        x = x + 0.013  # keep away from the kinks
    assert ag.gradcheck(lambda t: ours_fn(t, *constants, reduction="sum", **keywords),
                        [ag.tensor(x, requires_grad=True)])


@pytest.mark.parametrize("name", ["bce_with_logits pos_weight", "huber_loss", "bce_with_logits",
                                  "smooth_l1_loss beta"])
def test_second_derivatives_match_torch(name):
    ours_fn, torch_fn, x, constants, keywords = CASES[name]
    ours_x, torch_x = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    (g,) = ag.grad(ours_fn(ours_x, *constants, **keywords), [ours_x], create_graph=True)
    (second,) = ag.grad((g * g).sum(), [ours_x], allow_unused=True)
    (tg,) = torch.autograd.grad(torch_fn(torch_x, *(torch_value(c, np.float64)
                                                     for c in constants),
                                         **{k: torch_value(v, np.float64)
                                            for k, v in keywords.items()}),
                                [torch_x], create_graph=True)
    (tsecond,) = torch.autograd.grad((tg * tg).sum(), [torch_x], allow_unused=True)
    if tsecond is None:
        assert second is None or not second.data.any()
    else:
        np.testing.assert_allclose(second.data, tsecond.numpy(), rtol=1e-9, atol=1e-12)


def test_bce_with_logits_has_the_smooth_slope_at_zero_and_no_overflow_in_the_tails():
    x = ag.tensor([0.0, 0.0, 1000.0, -1000.0], requires_grad=True)
    t = np.array([0.0, 1.0, 0.0, 1.0])
    loss = F.binary_cross_entropy_with_logits(x, t, reduction="none")
    np.testing.assert_allclose(loss.data, [np.log(2), np.log(2), 1000.0, 1000.0])
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.data, [0.5, -0.5, 1.0, -1.0])


def test_bce_with_logits_gradient_flows_to_a_target_that_requires_grad():
    x, t = LOGITS[:2], RNG.random((2, 4))
    ours = [ag.tensor(a, requires_grad=True) for a in (x, t)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (x, t)]
    F.binary_cross_entropy_with_logits(*ours, pos_weight=np.array([2.0, 1, 1, 3])).backward()
    TF.binary_cross_entropy_with_logits(*theirs,
                                        pos_weight=torch.tensor([2.0, 1, 1, 3],
                                                                dtype=torch.float64)).backward()
    np.testing.assert_allclose(ours[1].grad.data, theirs[1].grad.numpy(), rtol=1e-10)


def test_nll_loss_after_log_softmax_is_cross_entropy():
    x = ag.tensor(LOGITS, requires_grad=True)
    np.testing.assert_allclose(F.nll_loss(F.log_softmax(x, dim=1), LABELS).item(),
                               F.cross_entropy(x, LABELS).item(), rtol=1e-14)


def test_loss_errors_name_the_loss_the_shapes_and_the_fix():
    x = ag.tensor(LOGITS)
    with pytest.raises(ValueError, match=r"nll_loss: reduction must be one of 'mean', 'sum' "
                                         r"or 'none', got 'avg'"):
        F.nll_loss(x, LABELS, reduction="avg")
    with pytest.raises(TypeError, match=r"nll_loss: target must hold integer class indices, "
                                        r"got dtype float64.*\.long\(\)"):
        F.nll_loss(x, LABELS.astype(float))
    with pytest.raises(ValueError, match=r"needs a target of shape \(5,\).*got \(4,\)"):
        F.nll_loss(x, LABELS[:4])
    with pytest.raises(IndexError, match="target 7 is out of bounds for 4 classes"):
        F.multi_margin_loss(x, np.array([0, 7, 1, 1, 2]))
    with pytest.raises(ValueError, match=r"l1_loss: input has shape \(3, 4\) but target has "
                                         r"shape \(4,\)"):
        F.l1_loss(ag.tensor(PREDICTIONS), TARGETS[0])
    with pytest.raises(ValueError, match="binary_cross_entropy_with_logits: target has shape"):
        F.binary_cross_entropy_with_logits(x, np.ones(4))
    with pytest.raises(ValueError, match="p must be 1 or 2"):
        F.multi_margin_loss(x, LABELS, p=3)
    with pytest.raises(ValueError, match="'batchmean'"):
        F.kl_div(x, x, reduction="batch")


def test_loss_modules_call_their_functions_with_their_settings():
    x = ag.tensor(LOGITS, requires_grad=True)
    weight = np.array([1.0, 2.0, 0.5, 3.0])
    pairs = [
        (nn.NLLLoss(weight=weight, ignore_index=2)(x, LABELS),
         F.nll_loss(x, LABELS, weight, ignore_index=2)),
        (nn.CrossEntropyLoss(label_smoothing=0.1)(x, LABELS),
         F.cross_entropy(x, LABELS, label_smoothing=0.1)),
        (nn.BCEWithLogitsLoss(pos_weight=weight)(x, PROBABILITIES[:1].repeat(5, 0)[:, :4]),
         F.binary_cross_entropy_with_logits(x, PROBABILITIES[:1].repeat(5, 0)[:, :4],
                                            pos_weight=weight)),
        (nn.MultiMarginLoss(p=2, reduction="sum")(x, LABELS),
         F.multi_margin_loss(x, LABELS, p=2, reduction="sum")),
        (nn.HuberLoss(delta=0.5)(x, LOGITS * 0.5), F.huber_loss(x, LOGITS * 0.5, delta=0.5)),
        (nn.SmoothL1Loss(beta=0.5)(x, LOGITS * 0.5),
         F.smooth_l1_loss(x, LOGITS * 0.5, beta=0.5)),
        (nn.L1Loss(reduction="none")(x, LOGITS * 0.5),
         F.l1_loss(x, LOGITS * 0.5, reduction="none")),
        (nn.MSELoss()(x, LOGITS * 0.5), F.mse_loss(x, LOGITS * 0.5)),
        (nn.KLDivLoss(reduction="batchmean", log_target=True)(x, x.detach() * 0.5),
         F.kl_div(x, x.detach() * 0.5, reduction="batchmean", log_target=True)),
        (nn.BCELoss()(x.sigmoid(), PROBABILITIES[:1].repeat(5, 0)[:, :4]),
         F.binary_cross_entropy(x.sigmoid(), PROBABILITIES[:1].repeat(5, 0)[:, :4])),
    ]
    for module_value, function_value in pairs:
        np.testing.assert_array_equal(module_value.data, function_value.data)
    assert nn.NLLLoss(weight=weight).parameters() == []  # class weights are buffers
    assert list(nn.NLLLoss(weight=weight).state_dict()) == ["weight"]


CE_SETTINGS = {
    "weight": {"weight": np.array([1.0, 2.0, 0.5, 3.0])},
    "ignore_index": {"ignore_index": -1},
    "weight ignore smoothing": {"weight": np.array([1.0, 2.0, 0.5, 3.0]), "ignore_index": -1,
                                "label_smoothing": 0.2},
    "ignore smoothing": {"ignore_index": 3, "label_smoothing": 0.3},
}


@pytest.mark.parametrize("shape", [(6, 4), (3, 4, 5)], ids=["rows", "images"])
@pytest.mark.parametrize("settings", list(CE_SETTINGS))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_class_weights_ignored_rows_and_extra_axes_matches_torch(
        shape, settings, reduction):
    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape)
    target = rng.integers(0, 4, (shape[0],) + shape[2:])
    target.flat[1] = CE_SETTINGS[settings].get("ignore_index", 0)  # nanoGPT's padding, e.g. -1
    ours, theirs = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out = F.cross_entropy(ours, target, reduction=reduction, **CE_SETTINGS[settings])
    ref = TF.cross_entropy(theirs, torch.from_numpy(target), reduction=reduction,
                           **{k: torch_value(v, np.float64)
                              for k, v in CE_SETTINGS[settings].items()})
    np.testing.assert_allclose(out.data, ref.detach().numpy(), rtol=1e-12, atol=1e-14)
    upstream = rng.standard_normal(ref.shape)
    out.backward(ag.tensor(upstream))
    ref.backward(torch.from_numpy(upstream))
    np.testing.assert_allclose(ours.grad.data, theirs.grad.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("call", [
    lambda m, F: F.multilabel_soft_margin_loss(m.tensor(0.5), m.tensor(1.0), reduction="none"),
    lambda m, F: F.cosine_embedding_loss(m.tensor(0.5), m.tensor(0.2), m.tensor(1.0)),
    lambda m, F: F.cosine_embedding_loss(m.ones(2, 3), m.ones(2, 3), m.ones(3, 2)),
    lambda m, F: F.cosine_embedding_loss(m.ones(2, 2, 3), m.ones(2, 2, 3), m.ones(2, 2)),
    lambda m, F: F.gaussian_nll_loss(m.tensor(0.5), m.tensor(0.2), m.ones(1)),
], ids=["multilabel soft margin of a 0-D input", "cosine embedding of 0-D inputs",
        "cosine embedding with a 2-D target", "cosine embedding of 3-D inputs",
        "gaussian nll with a var (1,) of a 0-D input"])
def test_the_margin_and_likelihood_losses_refuse_what_torch_refuses(call):
    with pytest.raises((RuntimeError, ValueError, IndexError)):
        call(torch, torch.nn.functional)
    with pytest.raises((ValueError, IndexError)):
        call(ag, F)


def check_loss(ours_fn, theirs_fn, inputs, targets, **kwargs):
    """Value and gradient (for a random upstream gradient when unreduced) in both engines."""
    ours_in, theirs_in = both(inputs)
    ours = ours_fn(ours_in, targets[0], **kwargs)
    theirs = theirs_fn(theirs_in, targets[1], **kwargs)
    close(ours, theirs)
    upstream = np.random.default_rng(9).standard_normal(ours.shape)
    ours.backward(upstream)
    theirs.backward(torch.tensor(upstream))
    close(ours_in.grad, theirs_in.grad)


REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_cross_entropy_with_class_indices(reduction, smoothing, rng):
    labels = np.array([0, 3, 1, 1, 2])
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal((5, 4)) * 3,
               (labels, torch.tensor(labels)), reduction=reduction, label_smoothing=smoothing)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_with_probability_targets(reduction, smoothing, rng):
    probs = rng.dirichlet(np.ones(4), size=5)
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal((5, 4)),
               (probs, torch.tensor(probs)), reduction=reduction, label_smoothing=smoothing)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_on_one_unbatched_row(reduction, rng):
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal(4),
               (np.array(2), torch.tensor(2)), reduction=reduction, label_smoothing=0.3)
    probs = rng.dirichlet(np.ones(4))
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal(4),
               (probs, torch.tensor(probs)), reduction=reduction)


def test_cross_entropy_gives_the_gradient_of_a_probability_target_like_pytorch(rng):
    (z, tz), (p, tp) = both(rng.standard_normal((3, 4))), both(rng.dirichlet(np.ones(4), 3))
    F.cross_entropy(z, p, label_smoothing=0.1).backward()
    TF.cross_entropy(tz, tp, label_smoothing=0.1).backward()
    close(p.grad, tp.grad)
    close(z.grad, tz.grad)


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_second_derivatives_match_pytorch(reduction, smoothing, rng):
    labels = np.array([2, 0, 1])
    (z, tz) = both(rng.standard_normal((3, 4)))
    (g,) = ag.grad(F.cross_entropy(z, labels, reduction=reduction,
                                   label_smoothing=smoothing).sum(), [z], create_graph=True)
    (tg,) = torch.autograd.grad(TF.cross_entropy(tz, torch.tensor(labels), reduction=reduction,
                                                 label_smoothing=smoothing).sum(), [tz],
                                create_graph=True)
    close(g, tg)
    (g**2).sum().backward()
    (tg**2).sum().backward()
    close(z.grad, tz.grad)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss(reduction, rng):
    target = rng.standard_normal((3, 2))
    check_loss(F.mse_loss, TF.mse_loss, rng.standard_normal((3, 2)),
               (target, torch.tensor(target)), reduction=reduction)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy(reduction, rng):
    target = np.array([1.0, 0.0, 1.0, 0.3, 0.0, 1.0])
    probs = np.array([0.2, 0.7, 0.999, 0.5, 0.0, 1.0])  # the last two hit the -100 clamp
    check_loss(F.binary_cross_entropy, TF.binary_cross_entropy, probs,
               (target, torch.tensor(target)), reduction=reduction)


def test_binary_cross_entropy_gives_the_targets_gradient_like_pytorch(rng):
    (p, tp), (t, tt) = both(rng.uniform(0.05, 0.95, 5)), both(rng.uniform(0.0, 1.0, 5))
    F.binary_cross_entropy(p, t).backward()
    TF.binary_cross_entropy(tp, tt).backward()
    close(t.grad, tt.grad)
    close(p.grad, tp.grad)


@pytest.mark.parametrize("loss", ["mse_loss", "cross_entropy", "binary_cross_entropy"])
def test_every_loss_refuses_an_unknown_reduction(loss):
    x = ag.tensor([[0.2, 0.8]])
    target = np.array([1]) if loss == "cross_entropy" else np.array([[0.0, 1.0]])
    with pytest.raises(ValueError, match="'mean', 'sum' or 'none'"):
        getattr(F, loss)(x, target, reduction="average")
