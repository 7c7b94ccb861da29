"""Test cases of the losses and layers of issue 19 that ``autograd.nn.functional`` composes of the
engine's ops: l1_loss, huber_loss, smooth_l1_loss, binary_cross_entropy_with_logits, nll_loss,
kl_div, layer_norm, batch_norm (training mode), group_norm and scaled_dot_product_attention."""

import numpy as np

_RNG = np.random.default_rng(191)
PRED = _RNG.standard_normal((3, 4))
# Errors kept away from 0 and from the kinks at +-delta and +-beta, where finite differences
# would straddle two pieces.
ERRORS = np.array([[0.3, -1.7, 0.9, -0.2], [2.4, -0.6, 0.15, 1.3], [-2.9, 0.45, -1.2, 0.7]])
TARGET = PRED - ERRORS
LOGITS = _RNG.standard_normal((3, 4)) * 3
PROBS = _RNG.uniform(0.05, 0.95, (3, 4))
CLASSES = np.array([3.0, 0.0, 2.0])
DISTRIBUTION = np.exp(_RNG.standard_normal((3, 4)))
DISTRIBUTION /= DISTRIBUTION.sum(axis=1, keepdims=True)
FEATURES = _RNG.standard_normal((2, 3, 4))
BATCH = _RNG.standard_normal((4, 3, 2))
CHANNELS = _RNG.standard_normal((2, 4, 3))
QUERY, KEY, VALUE = (_RNG.standard_normal(s) for s in ((2, 3, 4), (2, 5, 4), (2, 5, 2)))


def _huber(d, delta):
    return np.where(np.abs(d) < delta, 0.5 * d * d, delta * (np.abs(d) - 0.5 * delta)).mean()


def _log_softmax(z):
    shifted = z - z.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _normalised(x, axes, eps):
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)


def _attention(q, k, v, causal=False, scale=None):
    scores = q @ k.swapaxes(-1, -2) * (1 / np.sqrt(q.shape[-1]) if scale is None else scale)
    if causal:
        scores = np.where(np.triu(np.ones(scores.shape[-2:], bool), 1), -np.inf, scores)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ v


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "l1_loss": ((PRED, TARGET), {"reduction": "sum"}, lambda p, t: np.abs(p - t).sum(), (0, 1)),
    "huber_loss": ((PRED, TARGET), {"delta": 0.5}, lambda p, t: _huber(p - t, 0.5), (0, 1)),
    # l1_loss sums, nll_loss keeps rows, kl_div divides by the batch; the program uses the rest
    "smooth_l1_loss": ((PRED, TARGET), {"beta": 2.0}, lambda p, t: _huber(p - t, 2.0) / 2.0,
                       (0, 1)),
    "binary_cross_entropy_with_logits": (
        (LOGITS, PROBS), {},
        lambda z, t: ((1 - t) * z + np.log1p(np.exp(-z))).mean(), (0, 1)),
    "nll_loss": ((_log_softmax(LOGITS), CLASSES), {"reduction": "none"},
                 lambda z, t: -z[[0, 1, 2], t.astype(int)], (0,)),
    "kl_div": ((_log_softmax(LOGITS), DISTRIBUTION), {"reduction": "batchmean"},
               lambda z, t: (t * (np.log(t) - z)).sum() / 3, (0, 1)),
    "group_norm": ((CHANNELS,), {"num_groups": 2, "eps": 1e-3},
                   lambda x: _normalised(x.reshape(2, 2, 6), 2, 1e-3).reshape(2, 4, 3), (0,)),
    "layer_norm": ((FEATURES,), {"normalized_shape": (3, 4), "eps": 1e-3},
                   lambda x: _normalised(x, (1, 2), 1e-3), (0,)),
    "batch_norm": ((BATCH,), {"eps": 1e-2}, lambda x: _normalised(x, (0, 2), 1e-2), (0,)),
    "scaled_dot_product_attention": (
        (QUERY, KEY, VALUE), {"scale": 0.7}, lambda q, k, v: _attention(q, k, v, scale=0.7),
        (0, 1, 2)),
}

NN_FUNCTIONS = """\
pred = randn(3, 4, seed=0)
target = randn(3, 4, seed=1)
l1 = l1_loss(pred, target)
l1each = l1_loss(pred, target, reduction="none")
hub = huber_loss(pred, target, reduction="sum", delta=0.5)
sl1 = smooth_l1_loss(pred, target, beta=2.0)
t01 = [[0.0, 1.0, 1.0, 0.5], [1.0, 0.0, 0.25, 1.0], [0.0, 0.0, 1.0, 0.75]]
bce = binary_cross_entropy_with_logits(pred, t01)
logp = log_softmax(pred, axis=1)
labels = const([3.0, 0.0, 2.0])
nll = nll_loss(logp, labels)
nllrows = nll_loss(logp, labels, reduction="none")
q = softmax(target, axis=1)
kl = kl_div(logp, q, reduction="batchmean")
klog = kl_div(logp, log_softmax(target, axis=1), reduction="sum", log_target=True)
x = randn(2, 3, 4, seed=2)
ln = layer_norm(x, normalized_shape=(3, 4), eps=0.001)
ln1 = layer_norm(x, normalized_shape=(4,))
bn = batch_norm(x, eps=0.01)
gn = group_norm(x, num_groups=3, eps=0.01)
Q = randn(2, 3, 4, seed=3)
K = randn(2, 5, 4, seed=4)
V = randn(2, 5, 2, seed=5)
att = scaled_dot_product_attention(Q, K, V)
causal = scaled_dot_product_attention(Q, Q, x, is_causal=True, scale=0.5)
L = l1 + sum(l1each * pred) + sum(nllrows * nllrows) + hub + sl1 + bce + nll + kl + klog + sum(ln * ln1) + sum(bn * x) + sum(gn * bn) + sum(att * att) + sum(causal * causal)
"""  # noqa: E501

PROGRAMS = {"nn_functions": NN_FUNCTIONS}
