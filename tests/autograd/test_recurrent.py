"""RNN, LSTM, GRU and their cells against torch.nn: PyTorch's weights loaded through state_dict,
then outputs, final states and every gradient (input, h0/c0, each parameter) under a random
upstream gradient, in float64; finite differences through an LSTM; PyTorch's errors."""

import numpy as np
import pytest

import autograd as ag
from autograd import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RTOL, ATOL = 1e-9, 1e-12
L, N, H_IN, H = 4, 3, 5, 6


def twins(kind, *args, **kwargs):
    """The layer built by torch (float64) and ours from its state_dict."""
    torch.manual_seed(0)
    theirs = getattr(torch.nn, kind)(*args, **kwargs).double()
    ours = getattr(nn, kind)(*args, **kwargs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    result = ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    assert result.missing_keys == [] and result.unexpected_keys == []
    return ours, theirs


def pair(array):
    return ag.tensor(array, requires_grad=True), torch.tensor(array, requires_grad=True)


def close(mine, reference, what):
    np.testing.assert_allclose(np.asarray(mine), reference.detach().numpy(), rtol=RTOL,
                               atol=ATOL, err_msg=what)


def flat_outputs(out):
    """output, h_n (and c_n) as a list, whatever the layer returns."""
    if isinstance(out, tuple):
        return [o for part in out for o in (part if isinstance(part, tuple) else (part,))]
    return [out]


def backward_both(ours_out, theirs_out, seed=1):
    rng = np.random.default_rng(seed)
    mine, ref = flat_outputs(ours_out), flat_outputs(theirs_out)
    assert [tuple(m.shape) for m in mine] == [tuple(r.shape) for r in ref]
    for i, (m, r) in enumerate(zip(mine, ref)):
        close(m.data, r, f"output {i}")
    grads = [rng.standard_normal(tuple(r.shape)) for r in ref]
    sum(((m * ag.tensor(g)).sum() for m, g in zip(mine, grads)), ag.tensor(0.0)).backward()
    sum((r * torch.tensor(g)).sum() for r, g in zip(ref, grads)).backward()


def check_parameter_grads(ours, theirs):
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        close(p.grad.data, q.grad, f"gradient of {name}")


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("layers,bidirectional", [(1, False), (2, False), (2, True)])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("given_state", [False, True])
def test_layers_match_torch(kind, layers, bidirectional, batch_first, given_state):
    ours, theirs = twins(kind, H_IN, H, num_layers=layers, bidirectional=bidirectional,
                         batch_first=batch_first)
    rng = np.random.default_rng(0)
    x, xt = pair(rng.standard_normal((N, L, H_IN) if batch_first else (L, N, H_IN)))
    states = [pair(rng.standard_normal((layers * (1 + bidirectional), N, H)))
              for _ in range(2 if kind == "LSTM" else 1)] if given_state else []
    if not states:
        args_ours, args_theirs = (x,), (xt,)
    elif kind == "LSTM":
        args_ours = (x, (states[0][0], states[1][0]))
        args_theirs = (xt, (states[0][1], states[1][1]))
    else:
        args_ours, args_theirs = (x, states[0][0]), (xt, states[0][1])
    backward_both(ours(*args_ours), theirs(*args_theirs))
    close(x.grad.data, xt.grad, "gradient of the input")
    for i, (s, st) in enumerate(states):
        close(s.grad.data, st.grad, f"gradient of the initial state {i}")
    check_parameter_grads(ours, theirs)


@pytest.mark.parametrize("kind,kwargs", [("RNN", {"nonlinearity": "relu"}),
                                         ("LSTM", {"bias": False}), ("GRU", {"bias": False})])
def test_relu_rnn_and_layers_without_bias_match_torch(kind, kwargs):
    ours, theirs = twins(kind, H_IN, H, num_layers=2, **kwargs)
    x, xt = pair(np.random.default_rng(2).standard_normal((L, N, H_IN)))
    backward_both(ours(x), theirs(xt))
    close(x.grad.data, xt.grad, "gradient of the input")
    check_parameter_grads(ours, theirs)


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_an_unbatched_sequence_matches_torch(kind):
    ours, theirs = twins(kind, H_IN, H, bidirectional=True)
    x, xt = pair(np.random.default_rng(3).standard_normal((L, H_IN)))
    out_ours, out_theirs = ours(x), theirs(xt)
    assert tuple(out_ours[0].shape) == (L, 2 * H)
    backward_both(out_ours, out_theirs)
    close(x.grad.data, xt.grad, "gradient of the input")


@pytest.mark.parametrize("kind,kwargs", [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}),
                                         ("LSTMCell", {}), ("GRUCell", {}),
                                         ("GRUCell", {"bias": False})])
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("given_state", [False, True])
def test_cells_match_torch(kind, kwargs, batched, given_state):
    ours, theirs = twins(kind, H_IN, H, **kwargs)
    rng = np.random.default_rng(4)
    lead = (N,) if batched else ()
    x, xt = pair(rng.standard_normal(lead + (H_IN,)))
    states = [pair(rng.standard_normal(lead + (H,)))
              for _ in range(2 if kind == "LSTMCell" else 1)] if given_state else []
    if not states:
        out = ours(x), theirs(xt)
    elif kind == "LSTMCell":
        out = (ours(x, (states[0][0], states[1][0])), theirs(xt, (states[0][1], states[1][1])))
    else:
        out = ours(x, states[0][0]), theirs(xt, states[0][1])
    backward_both(*out)
    close(x.grad.data, xt.grad, "gradient of the input")
    for i, (s, st) in enumerate(states):
        close(s.grad.data, st.grad, f"gradient of the state {i}")
    check_parameter_grads(ours, theirs)


def test_an_lstm_passes_gradcheck_through_every_step():
    lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True)
    x = ag.randn(3, 2, 2, requires_grad=True)
    h0, c0 = ag.randn(4, 2, 3, requires_grad=True), ag.randn(4, 2, 3, requires_grad=True)
    weight = lstm.weight_hh_l1_reverse

    def loss(x, h0, c0, weight):
        lstm.weight_hh_l1_reverse = weight
        out, (h_n, c_n) = lstm(x, (h0, c0))
        return (out * out).sum() + h_n.sum() + (c_n * c_n).sum()

    assert ag.gradcheck(loss, (x, h0, c0, weight))


def first_input_gradient(forget_bias):
    """d c_30 / d x_1 of a one-unit LSTM whose input and output gates are held open and whose
    cell input is the input itself."""
    lstm = nn.LSTM(1, 1)
    with ag.no_grad():
        for p in lstm.parameters():
            p.data[...] = 0.0
        lstm.bias_ih_l0.data[:] = [10.0, forget_bias, 0.0, 10.0]  # gates i, f, g, o
        lstm.weight_ih_l0.data[2] = 1.0
    x = ag.zeros(30, 1, 1, requires_grad=True)
    _, (_, c_n) = lstm(x)
    c_n.sum().backward()
    return x.grad.data[0, 0, 0]


def test_the_gradient_reaches_the_first_input_through_an_open_forget_gate():
    """The cell state carries the first input to step 30 through the forget gate alone: with
    the gate open the gradient arrives almost whole (σ(10)^29), with it half shut it vanishes
    (σ(0)^29 = 2^-29)."""
    assert first_input_gradient(10.0) == pytest.approx((1 + np.exp(-10.0)) ** -30, rel=1e-9)
    assert first_input_gradient(0.0) == pytest.approx(2.0 ** -29 / (1 + np.exp(-10.0)),
                                                      rel=1e-9)


def test_the_default_initialisation_is_pytorchs_range_and_follows_the_seed():
    ag.manual_seed(7)
    first = nn.GRU(4, 8, num_layers=2)
    ag.manual_seed(7)
    second = nn.GRU(4, 8, num_layers=2)
    bound = 1 / np.sqrt(8)
    for (name, p), (_, q) in zip(first.named_parameters(), second.named_parameters()):
        assert np.abs(p.data).max() <= bound, name
        assert np.abs(p.data).max() > 0.8 * bound, name
        np.testing.assert_array_equal(p.data, q.data)
    assert [name for name, _ in first.named_parameters()][:4] == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]


def test_dropout_acts_between_layers_in_training_only():
    lstm = nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = ag.randn(5, 2, 3)
    lstm.eval()
    still = lstm(x)[0].data
    np.testing.assert_array_equal(lstm(x)[0].data, still)
    lstm.train()
    ag.manual_seed(0)
    dropped = lstm(x)[0].data
    assert not np.allclose(dropped, still)
    one_layer = nn.LSTM(3, 4, dropout=0.5)  # nothing between layers to drop, as in PyTorch
    np.testing.assert_array_equal(one_layer(x)[0].data, one_layer.eval()(x)[0].data)


def test_errors_name_the_shape_and_the_fix():
    lstm = nn.LSTM(5, 6, num_layers=2)
    with pytest.raises(RuntimeError, match=r"input.size\(-1\) must be equal to input_size. "
                                           r"Expected 5, got 4"):
        lstm(ag.randn(3, 2, 4))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(2, 2, 6\), got \(1, 2, 6\)"):
        lstm(ag.randn(3, 2, 5), (ag.zeros(1, 2, 6), ag.zeros(2, 2, 6)))
    with pytest.raises(TypeError, match=r"tuple \(h0, c0\)"):
        lstm(ag.randn(3, 2, 5), ag.zeros(2, 2, 6))
    with pytest.raises(RuntimeError, match="input must have the type float64.*x.double"):
        lstm(ag.randn(3, 2, 5, dtype=np.float32))
    with pytest.raises(ValueError, match="unknown nonlinearity 'sigmoid'"):
        nn.RNN(2, 3, nonlinearity="sigmoid")
    with pytest.raises(NotImplementedError, match="proj_size"):
        nn.LSTM(2, 3, proj_size=2)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence_matches_torch(batch_first, side):
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal((n, 2)) for n in (3, 1, 4)]
    ours = [ag.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    padded = nn.utils.rnn.pad_sequence(ours, batch_first, -1.0, side)
    reference = torch.nn.utils.rnn.pad_sequence(theirs, batch_first, -1.0, side)
    close(padded.data, reference, "padded")
    upstream = rng.standard_normal(tuple(reference.shape))
    (padded * ag.tensor(upstream)).sum().backward()
    (reference * torch.tensor(upstream)).sum().backward()
    for o, t in zip(ours, theirs):
        close(o.grad.data, t.grad, "gradient of a sequence")


def test_an_lstms_second_derivatives_match_torch():
    """The fused gates' backward is itself differentiable: d/dx of <dL/dx, w> as in torch."""
    ours, theirs = twins("LSTM", 3, 4, num_layers=2)
    rng = np.random.default_rng(6)
    x, xt = pair(rng.standard_normal((5, 2, 3)))
    upstream, weight = rng.standard_normal((5, 2, 4)), rng.standard_normal((5, 2, 3))
    (first,) = ag.grad((ours(x)[0] * ag.tensor(upstream)).sum(), [x], create_graph=True)
    (first_t,) = torch.autograd.grad((theirs(xt)[0] * torch.tensor(upstream)).sum(), [xt],
                                     create_graph=True)
    (second,) = ag.grad((first * ag.tensor(weight)).sum(), [x])
    (second_t,) = torch.autograd.grad((first_t * torch.tensor(weight)).sum(), [xt])
    close(first.data, first_t, "first derivative")
    close(second.data, second_t, "second derivative")


def test_an_lstms_forward_mode_matches_its_reverse_mode():
    """The tangent of the output along a direction equals <gradient, direction> for each
    output element (jvp against vjp), through the fused gates."""
    lstm = nn.LSTM(3, 4)
    rng = np.random.default_rng(7)
    x, direction = rng.standard_normal((4, 2, 3)), rng.standard_normal((4, 2, 3))
    _, tangent = ag.func.jvp(lambda v: lstm(v)[0], (ag.tensor(x),), (ag.tensor(direction),))
    probe = rng.standard_normal((4, 2, 4))
    leaf = ag.tensor(x, requires_grad=True)
    (lstm(leaf)[0] * ag.tensor(probe)).sum().backward()
    assert (tangent.data * probe).sum() == pytest.approx((leaf.grad.data * direction).sum(),
                                                         rel=1e-10)


def test_an_lstm_layer_is_one_node_per_direction_after_one_input_product():
    """As PyTorch fuses a layer into one kernel: the whole sequence's x W_ih^T is one Linear,
    and the steps through time one LSTMSequence, per layer and direction (not a node per step)."""
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    out, (h_n, c_n) = lstm(ag.randn(7, 2, 3))
    nodes, _ = ag.trace(out + h_n.sum() + c_n.sum())
    names = [node.grad_fn.name for node in nodes if node.grad_fn is not None]
    assert names.count("LSTMSequence") == 4
    assert names.count("Linear") == 4
    assert len(names) < 40  # 7 steps x 2 layers x 2 directions would be 28 fused steps alone
