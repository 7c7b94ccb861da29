"""The engine against torch.autograd in float64: values, gradients and second derivatives.

Random graphs of ops are built twice, once with each library, from the same leaves; then fixed
compositions that a neural network uses (cross-entropy, attention, layer norm). Skipped cleanly
where PyTorch is not installed: it is a test oracle, never a dependency.
"""

import numpy as np
import pytest

import autograd as ag

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def to_torch(array):
    return torch.tensor(array, dtype=torch.float64, requires_grad=True)


def leaky(t, slope=0.01):
    return torch.nn.functional.leaky_relu(t, slope)


# Each op: (ag version, torch version). Shapes stay among (3, 4), (3, 1), (1, 4), (4,), (1, 1).
UNARY = {
    "tanh": (lambda t: t.tanh(), torch.tanh),
    "sigmoid": (lambda t: t.sigmoid(), torch.sigmoid),
    "sin": (lambda t: t.sin(), torch.sin),
    "cos": (ag.cos, torch.cos),
    "exp-tanh": (lambda t: t.tanh().exp(), lambda t: t.tanh().exp()),
    "log1p-square": (lambda t: (1.0 + t * t).log(), lambda t: (1.0 + t * t).log()),
    "sqrt": (lambda t: (t * t + 0.5).sqrt(), lambda t: (t * t + 0.5).sqrt()),
    "relu": (lambda t: t.relu(), torch.relu),
    "abs": (lambda t: t.abs(), torch.abs),
    "leaky_relu": (lambda t: t.leaky_relu(0.1), lambda t: leaky(t, 0.1)),
    "neg": (lambda t: -t, lambda t: -t),
    "square": (lambda t: t**2, lambda t: t**2),
    "scale": (lambda t: 0.5 * t - 1.0, lambda t: 0.5 * t - 1.0),
    "softmax": (lambda t: t.softmax(dim=-1), lambda t: t.softmax(dim=-1)),
    "log_softmax": (lambda t: ag.log_softmax(t, axis=-1), lambda t: t.log_softmax(dim=-1)),
    "logsumexp": (lambda t: t.logsumexp(axis=-1).unsqueeze(-1),
                  lambda t: t.logsumexp(dim=-1).unsqueeze(-1)),
    "sum-last": (lambda t: t.sum(axis=-1, keepdims=True), lambda t: t.sum(dim=-1, keepdim=True)),
    "mean-first": (lambda t: t.mean(axis=0, keepdims=True),
                   lambda t: t.mean(dim=0, keepdim=True)),
    "max-last": (lambda t: t.max(axis=-1, keepdims=True), lambda t: t.amax(dim=-1, keepdim=True)),
    "min-first": (lambda t: t.min(axis=0, keepdims=True), lambda t: t.amin(dim=0, keepdim=True)),
    "flip": (lambda t: t.flip(-1), lambda t: t.flip(-1)),
}
BINARY = {
    "add": (lambda a, b: a + b, lambda a, b: a + b),
    "sub": (lambda a, b: a - b, lambda a, b: a - b),
    "mul": (lambda a, b: a * b, lambda a, b: a * b),
    "div": (lambda a, b: a / (1.5 + b.tanh()), lambda a, b: a / (1.5 + b.tanh())),
    "maximum": (ag.maximum, torch.maximum),
    "minimum": (lambda a, b: a.minimum(b), torch.minimum),
    "where": (lambda a, b: ag.where(a > b, a, b), lambda a, b: torch.where(a > b, a, b)),
    "pow": (lambda a, b: (a * a + 0.5) ** b.tanh(), lambda a, b: (a * a + 0.5) ** b.tanh()),
}
ROWS = np.array([2, 0, 2])


def random_graph(seed, steps=10):
    """Build the same random graph in both libraries; return the leaves and outputs of each."""
    rng = np.random.default_rng(seed)
    shapes = [(3, 4), (3, 4), (4,), (3, 1)]
    arrays = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    weight = rng.uniform(-1.0, 1.0, (4, 4))
    ag_leaves = [ag.tensor(a, requires_grad=True) for a in [*arrays, weight]]
    torch_leaves = [to_torch(a) for a in [*arrays, weight]]
    ag_pool, torch_pool = list(ag_leaves[:-1]), list(torch_leaves[:-1])
    for _ in range(steps):
        kind = rng.choice(["unary", "binary", "binary", "matmul", "rows"])
        i = len(ag_pool) - 1 - min(int(rng.geometric(0.4)) - 1, len(ag_pool) - 1)
        a, ta = ag_pool[i], torch_pool[i]
        if kind == "matmul" and a.shape[-1] == 4:
            a, ta = a @ ag_leaves[-1], ta @ torch_leaves[-1]
        elif kind == "rows" and a.ndim == 2 and a.shape[0] == 3:
            a, ta = a[ROWS], ta[torch.from_numpy(ROWS)]
        elif kind == "binary":
            name = rng.choice(sorted(BINARY))
            j = int(rng.integers(len(ag_pool)))
            a, ta = BINARY[name][0](a, ag_pool[j]), BINARY[name][1](ta, torch_pool[j])
        else:
            name = rng.choice(sorted(UNARY))
            a, ta = UNARY[name][0](a), UNARY[name][1](ta)
        ag_pool.append(a)
        torch_pool.append(ta)
    return ag_leaves, ag_pool[len(shapes):], torch_leaves, torch_pool[len(shapes):]


def assert_close(ours, theirs, what):
    if theirs is None:
        assert ours is None or not np.any(ours.data), f"{what}: torch has no gradient"
        return
    assert ours is not None, f"{what}: torch has a gradient, the engine has none"
    np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-9, atol=1e-11,
                               err_msg=what)


def compare_second_order(ag_leaves, ag_out, torch_leaves, torch_out, rng):
    """Compare Hessian-vector products: d/dx sum(grad(sum(out * G)) * V)."""
    upstream = rng.standard_normal(tuple(ag_out.shape))
    directions = [rng.standard_normal(leaf.shape) for leaf in ag_leaves]
    ag_grads = ag.grad([ag_out], ag_leaves, grad_outputs=[ag.tensor(upstream)],
                       create_graph=True, allow_unused=True)
    torch_grads = torch.autograd.grad([torch_out], torch_leaves,
                                      grad_outputs=[torch.from_numpy(upstream)],
                                      create_graph=True, allow_unused=True)
    for i, (ours, theirs) in enumerate(zip(ag_grads, torch_grads, strict=True)):
        assert_close(ours, theirs, f"first derivative of leaf {i}")
    pairs = [(g, tg, v) for g, tg, v in zip(ag_grads, torch_grads, directions, strict=True)
             if tg is not None and tg.requires_grad]
    if not pairs:
        return
    ag_s = sum(((g * ag.tensor(v)).sum() for g, _, v in pairs[1:]),
               (pairs[0][0] * ag.tensor(pairs[0][2])).sum())
    torch_s = sum((tg * torch.from_numpy(v)).sum() for _, tg, v in pairs)
    ag_hv = ag.grad([ag_s], ag_leaves, allow_unused=True)
    torch_hv = torch.autograd.grad([torch_s], torch_leaves, allow_unused=True)
    for i, (ours, theirs) in enumerate(zip(ag_hv, torch_hv, strict=True)):
        assert_close(ours, theirs, f"Hessian-vector product for leaf {i}")


@pytest.mark.parametrize("seed", range(40))
def test_random_graph_matches_torch_values_and_gradients(seed):
    ag_leaves, ag_nodes, torch_leaves, torch_nodes = random_graph(seed)
    for k, (ours, theirs) in enumerate(zip(ag_nodes, torch_nodes, strict=True)):
        assert ours.shape == tuple(theirs.shape), f"node {k}"
        np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-12, atol=1e-12,
                                   err_msg=f"value of node {k}")
    upstream = np.random.default_rng(seed + 1000).standard_normal(ag_nodes[-1].shape)
    ag_nodes[-1].backward(upstream)
    torch_nodes[-1].backward(torch.from_numpy(upstream))
    for i, (ours, theirs) in enumerate(zip(ag_leaves, torch_leaves, strict=True)):
        assert_close(ours.grad, theirs.grad, f"gradient of leaf {i}")


@pytest.mark.parametrize("seed", range(20))
def test_random_graph_matches_torch_second_derivatives(seed):
    ag_leaves, ag_nodes, torch_leaves, torch_nodes = random_graph(seed, steps=6)
    compare_second_order(ag_leaves, ag_nodes[-1], torch_leaves, torch_nodes[-1],
                         np.random.default_rng(seed))


TARGETS = np.array([2, 0, 1, 2, 2])


def cross_entropy(lib, x, w, b):
    logits = x @ w + b
    if lib is ag:
        return -logits.log_softmax(axis=1)[np.arange(5), TARGETS].mean()
    return torch.nn.functional.cross_entropy(logits, torch.from_numpy(TARGETS))


def mlp(lib, x, w1, b1, w2):
    hidden = (x @ w1 + b1).tanh() if lib is ag else torch.tanh(x @ w1 + b1)
    return (hidden @ w2).sigmoid()


def attention(lib, q, k, v):
    if lib is ag:
        scores = (q @ k.swapaxes(-1, -2)) / np.sqrt(4.0)
        return scores.softmax(axis=-1) @ v
    return torch.softmax(q @ k.transpose(-1, -2) / np.sqrt(4.0), dim=-1) @ v


def layer_norm(lib, x, gain):
    if lib is ag:
        centred = x - x.mean(axis=-1, keepdims=True)
        var = (centred**2).mean(axis=-1, keepdims=True)
    else:
        centred = x - x.mean(dim=-1, keepdim=True)
        var = (centred**2).mean(dim=-1, keepdim=True)
    return centred / (var + 1e-5).sqrt() * gain


MASK = np.array([[True, False, True, False], [False, True, True, True], [True, True, False, False]])


def indexing(lib, x):
    rows = np.array([0, 2, 2])
    if lib is ag:
        return x[rows, 1:] * 2.0 + x[MASK].sum() - x.flip(0)[:, None, 0]
    return x[torch.from_numpy(rows), 1:] * 2.0 + x[torch.from_numpy(MASK)].sum() - x.flip(0)[
        :, None, 0]


def reductions(lib, x):
    if lib is ag:
        return x.sum(axis=(0, 2)) * x.max(axis=1).mean() + x.min(axis=(-1, -3), keepdims=True)
    return x.sum(dim=(0, 2)) * x.amax(dim=1).mean() + x.amin(dim=(-1, -3), keepdim=True)


def joins(lib, x, y):
    if lib is ag:
        joined = ag.concatenate([x, y * 2.0], axis=1)
        stacked = ag.stack([x, y.exp()], axis=-1)
        return joined.sum(axis=1) + stacked.sum(axis=(1, 2)) + ag.clip(x, -0.5, 0.5).sum(axis=1)
    joined = torch.cat([x, y * 2.0], dim=1)
    stacked = torch.stack([x, y.exp()], dim=-1)
    return joined.sum(dim=1) + stacked.sum(dim=(1, 2)) + torch.clamp(x, -0.5, 0.5).sum(dim=1)


def batched_matmul(lib, a, b, v):
    return ((a @ b).tanh() @ v).permute(1, 0, 2)


def shape_ops(lib, x):
    if lib is ag:
        y = x.reshape((2, 6)).T.unsqueeze(0).broadcast_to((3, 6, 2)).flatten()
        return y.reshape((6, 6)).squeeze() ** 2
    y = x.reshape(2, 6).T.unsqueeze(0).broadcast_to(3, 6, 2).flatten()
    return y.reshape(6, 6).squeeze() ** 2


COMPOSITIONS = {
    "cross-entropy": (cross_entropy, [(5, 3), (3, 3), (3,)]),
    "mlp": (mlp, [(6, 2), (2, 5), (5,), (5, 1)]),
    "attention": (attention, [(2, 3, 4), (2, 5, 4), (2, 5, 3)]),
    "layer-norm": (layer_norm, [(3, 4), (4,)]),
    "indexing": (indexing, [(3, 4)]),
    "reductions": (reductions, [(2, 3, 4)]),
    "joins": (joins, [(3, 2), (3, 2)]),
    "batched-matmul": (batched_matmul, [(2, 1, 3, 4), (5, 4, 2), (2,)]),
    "shape-ops": (shape_ops, [(3, 4)]),
}


def build(name, seed):
    fn, shapes = COMPOSITIONS[name]
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    ag_leaves = [ag.tensor(a, requires_grad=True) for a in arrays]
    torch_leaves = [to_torch(a) for a in arrays]
    return ag_leaves, fn(ag, *ag_leaves), torch_leaves, fn(torch, *torch_leaves)


@pytest.mark.parametrize("name", COMPOSITIONS)
def test_network_compositions_match_torch_values_and_gradients(name):
    ag_leaves, ag_out, torch_leaves, torch_out = build(name, 0)
    assert ag_out.shape == tuple(torch_out.shape)
    np.testing.assert_allclose(ag_out.data, torch_out.detach().numpy(), rtol=1e-12, atol=1e-12)
    upstream = np.random.default_rng(1).standard_normal(ag_out.shape)
    ag_out.backward(upstream)
    torch_out.backward(torch.from_numpy(upstream))
    for i, (ours, theirs) in enumerate(zip(ag_leaves, torch_leaves, strict=True)):
        assert_close(ours.grad, theirs.grad, f"gradient of input {i}")


@pytest.mark.parametrize("name", COMPOSITIONS)
def test_network_compositions_match_torch_second_derivatives(name):
    ag_leaves, ag_out, torch_leaves, torch_out = build(name, 2)
    compare_second_order(ag_leaves, ag_out, torch_leaves, torch_out, np.random.default_rng(3))
