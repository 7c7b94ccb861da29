"""TransformerEncoderLayer, TransformerEncoder and TransformerDecoderLayer against torch.nn in
float64, post-norm and pre-norm, with causal and padding masks: outputs and every gradient;
PReLU and Hardswish modules."""

import numpy as np
import pytest

import autograd as ag
from autograd import nn

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.torch,
              pytest.mark.filterwarnings("ignore:enable_nested_tensor:UserWarning")]

RTOL, ATOL = 1e-8, 1e-11
RNG = np.random.default_rng(0)
PADDING = np.array([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
CAUSAL = np.triu(np.ones((5, 5), bool), 1)


def loaded(ours, theirs):
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    return ours, theirs


def compare_gradients(ours, theirs):
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(p.grad.data, q.grad.numpy(), rtol=RTOL, atol=ATOL,
                                   err_msg=name)


def backward_both(mine, reference):
    np.testing.assert_allclose(mine.data, reference.detach().numpy(), rtol=1e-9, atol=1e-12)
    upstream = RNG.standard_normal(tuple(reference.shape))
    (mine * ag.tensor(upstream)).sum().backward()
    (reference * torch.tensor(upstream)).sum().backward()


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_an_encoder_of_two_layers_with_masks_matches_torch(norm_first, activation):
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=activation,
                                             batch_first=True, norm_first=norm_first)
    theirs = torch.nn.TransformerEncoder(layer, 2, norm=torch.nn.LayerNorm(8),
                                         enable_nested_tensor=False).double()
    ours = nn.TransformerEncoder(
        nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=activation,
                                   batch_first=True, norm_first=norm_first), 2,
        norm=nn.LayerNorm(8))
    loaded(ours, theirs)
    x = RNG.standard_normal((3, 5, 8))
    xo, xt = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    backward_both(ours(xo, mask=ag.tensor(CAUSAL), src_key_padding_mask=ag.tensor(PADDING)),
                  theirs(xt, mask=torch.tensor(CAUSAL),
                         src_key_padding_mask=torch.tensor(PADDING)))
    np.testing.assert_allclose(xo.grad.data, xt.grad.numpy(), rtol=RTOL, atol=ATOL)
    compare_gradients(ours, theirs)


@pytest.mark.parametrize("norm_first", [False, True])
def test_a_decoder_layer_matches_torch(norm_first):
    torch.manual_seed(1)
    theirs = torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0,
                                              norm_first=norm_first).double()
    ours = loaded(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first),
                  theirs)[0]
    tgt, memory = RNG.standard_normal((4, 3, 8)), RNG.standard_normal((5, 3, 8))
    causal = np.triu(np.ones((4, 4), bool), 1)
    inputs = [ag.tensor(a, requires_grad=True) for a in (tgt, memory)]
    reference = [torch.tensor(a, requires_grad=True) for a in (tgt, memory)]
    backward_both(ours(*inputs, tgt_mask=ag.tensor(causal),
                       memory_key_padding_mask=ag.tensor(PADDING)),
                  theirs(*reference, tgt_mask=torch.tensor(causal),
                         memory_key_padding_mask=torch.tensor(PADDING)))
    for mine, ref in zip(inputs, reference):
        np.testing.assert_allclose(mine.grad.data, ref.grad.numpy(), rtol=RTOL, atol=ATOL)
    compare_gradients(ours, theirs)


def test_the_encoders_layers_are_copies_with_their_own_weights():
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 3)
    first, second = encoder.layers[0].linear1.weight, encoder.layers[1].linear1.weight
    np.testing.assert_array_equal(first.data, second.data)  # copied, as PyTorch copies
    assert first is not second and not np.shares_memory(first.data, second.data)
    assert len(encoder.parameters()) == 3 * len(encoder.layers[0].parameters())


def test_a_callable_activation_is_used_and_an_unknown_name_is_refused():
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation=nn.functional.silu)
    assert layer.activation is nn.functional.silu
    with pytest.raises(ValueError, match="'relu', 'gelu' or a function, not 'swish'"):
        nn.TransformerEncoderLayer(4, 2, 8, activation="swish")


@pytest.mark.parametrize("module,args", [("PReLU", ()), ("PReLU", (3,)), ("Hardswish", ())])
def test_prelu_and_hardswish_modules_match_torch(module, args):
    theirs = getattr(torch.nn, module)(*args).double()
    ours = loaded(getattr(nn, module)(*args), theirs)[0]
    x = RNG.standard_normal((2, 3, 4)) * 4
    xo, xt = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    backward_both(ours(xo), theirs(xt))
    np.testing.assert_allclose(xo.grad.data, xt.grad.numpy(), rtol=RTOL, atol=ATOL)
    compare_gradients(ours, theirs)
