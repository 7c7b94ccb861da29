"""Where the engine crashed, refused or silently differed while PyTorch answers (or refuses)
otherwise: each case runs both and compares values, gradients, dtypes or the refusal."""

import warnings

import numpy as np
import pytest

import autograd as ag
from autograd.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch


def _pair(array, requires_grad=False):
    """The same array as an engine tensor and a torch tensor."""
    array = np.asarray(array)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def _same(ours, theirs, atol=1e-12):
    """Equal values (NaN where NaN), shapes and dtypes."""
    expected = theirs.detach().numpy()
    got = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, atol=atol, rtol=1e-7)


# --- 1. softmax and log_softmax need their dim ---------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda x: F.softmax(x), lambda x: F.log_softmax(x), lambda x: ag.softmax(x),
    lambda x: ag.log_softmax(x), lambda x: x.softmax(), lambda x: x.log_softmax(),
])
def test_softmax_without_dim_is_refused_where_pytorch_silently_picks_axis_0(call):
    x = ag.tensor(np.arange(24.0).reshape(2, 3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "implicit dimension choice" warning
        legacy = TF.softmax(torch.arange(24.0).reshape(2, 3, 4))
    assert legacy.sum(0).allclose(torch.ones(3, 4))  # PyTorch's legacy choice: axis 0
    with pytest.raises(TypeError, match=r"pass dim=-1 for the last axis, as PyTorch recommends"):
        call(x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_with_dim_matches_pytorch(name, dim):
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    x, tx = _pair(data, requires_grad=True)
    out, t_out = getattr(F, name)(x, dim=dim), getattr(TF, name)(tx, dim=dim)
    _same(out, t_out)
    upstream = np.random.default_rng(1).standard_normal(data.shape)
    out.backward(upstream)
    t_out.backward(torch.tensor(upstream))
    _same(x.grad, tx.grad)
