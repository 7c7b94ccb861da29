"""End to end: a small MLP learns XOR with SGD (momentum) and with Adam."""

import numpy as np

import autograd as ag
from autograd import nn, optim
from autograd.nn import functional as F

X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
XOR = np.array([0, 1, 1, 0])


def train(model, opt, loss_fn, steps):
    x = ag.tensor(X)
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x))
        loss.backward()
        opt.step()
    with ag.no_grad():
        return loss.item(), model(x)


def test_mlp_learns_xor_with_sgd_momentum_and_mse():
    ag.manual_seed(0)
    model = nn.MLP([2, 8, 1])
    target = XOR.reshape(4, 1).astype(np.float64)
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss, out = train(model, opt, lambda out: F.mse_loss(out, target), 300)
    assert loss < 1e-3
    np.testing.assert_array_equal(out.data.ravel() > 0.5, XOR == 1)


def test_mlp_learns_xor_with_adam_and_cross_entropy():
    ag.manual_seed(0)
    model = nn.MLP([2, 8, 2])
    opt = optim.Adam(model.parameters(), lr=0.05)
    loss, logits = train(model, opt, lambda out: F.cross_entropy(out, XOR), 200)
    assert loss < 0.01
    np.testing.assert_array_equal(logits.data.argmax(axis=1), XOR)


def test_mlp_learns_xor_with_adam_and_binary_cross_entropy_on_sigmoid():
    ag.manual_seed(1)
    model = nn.Sequential(nn.MLP([2, 8, 1], activation="relu"), nn.Sigmoid())
    target = XOR.reshape(4, 1).astype(np.float64)
    opt = optim.Adam(model.parameters(), lr=0.05)
    loss, probs = train(model, opt, lambda out: F.binary_cross_entropy(out, target), 300)
    assert loss < 0.05
    np.testing.assert_array_equal(probs.data.ravel() > 0.5, XOR == 1)
