"""Creating tensors: dtype rules, factories, attributes, repr and conversions."""

from pathlib import Path

import numpy as np
import pytest

import autograd
import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.vs_torch import both, same

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_autograd_is_imported_from_this_repository_not_from_pypi():
    assert Path(autograd.__file__).resolve().is_relative_to(REPO_ROOT / "autograd")


@pytest.mark.parametrize("make", [ag.Tensor, ag.tensor])
@pytest.mark.parametrize("data", [3, 2.5, [1, 2, 3], [[1.5, 2], [3, 4]], [[1, 2], [3, 4]]])
def test_python_scalars_and_lists_become_float64(make, data):
    t = make(data)
    assert t.dtype == np.float64
    np.testing.assert_array_equal(t.data, np.asarray(data, dtype=np.float64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int32, np.bool_])
def test_numpy_arrays_keep_their_dtype(dtype):
    array = np.arange(6).reshape(2, 3).astype(dtype)
    t = ag.tensor(array)
    assert t.dtype == dtype
    assert t.shape == (2, 3)
    np.testing.assert_array_equal(t.data, array)


def test_an_explicit_dtype_wins_over_the_default():
    assert ag.tensor([1, 2], dtype=np.float32).dtype == np.float32
    assert ag.tensor(np.arange(3), dtype=np.float64).dtype == np.float64
    assert ag.Tensor(2.0, dtype=np.int64).dtype == np.int64


def test_tensor_data_is_an_ndarray():
    assert isinstance(ag.tensor(1.0).data, np.ndarray)
    assert isinstance(ag.tensor([1.0, 2.0]).data, np.ndarray)


@pytest.mark.parametrize(
    "make",
    [
        lambda: ag.tensor(np.arange(3), requires_grad=True),
        lambda: ag.Tensor([1, 2], dtype=np.int32, requires_grad=True),
        lambda: ag.tensor(np.array([True, False]), requires_grad=True),
        lambda: ag.zeros(2, 3, dtype=np.int64, requires_grad=True),
    ],
)
def test_requires_grad_on_a_non_float_dtype_raises_a_type_error_that_says_why(make):
    with pytest.raises(TypeError) as info:
        make()
    message = str(info.value).lower()
    assert "float" in message
    assert "grad" in message


def test_requires_grad_on_float32_is_allowed():
    t = ag.tensor(np.ones(2, dtype=np.float32), requires_grad=True)
    assert t.requires_grad and t.dtype == np.float32


@pytest.mark.parametrize(
    ("factory", "fill"),
    [(ag.zeros, 0.0), (ag.ones, 1.0)],
)
def test_zeros_and_ones_take_a_shape_either_way(factory, fill):
    for t in (factory(2, 3), factory((2, 3))):
        assert t.shape == (2, 3)
        assert t.dtype == np.float64
        np.testing.assert_array_equal(t.data, np.full((2, 3), fill))
    assert factory(4).shape == (4,)
    assert factory(()).shape == ()


def test_full_fills_a_shape_with_one_value():
    t = ag.full((2, 3), 7.5)
    assert t.shape == (2, 3) and t.dtype == np.float64
    np.testing.assert_array_equal(t.data, np.full((2, 3), 7.5))


def test_arange_counts_like_numpy():
    np.testing.assert_array_equal(ag.arange(5).data, np.arange(5))
    np.testing.assert_allclose(ag.arange(0, 1, 0.25).data, [0.0, 0.25, 0.5, 0.75])
    assert ag.arange(4, dtype=np.float32).dtype == np.float32


def test_eye_is_the_identity_matrix():
    t = ag.eye(3)
    assert t.dtype == np.float64
    np.testing.assert_array_equal(t.data, np.eye(3))


@pytest.mark.parametrize("factory", [ag.rand, ag.randn])
def test_random_factories_take_a_shape_either_way(factory):
    assert factory(2, 3).shape == (2, 3)
    assert factory((2, 3)).shape == (2, 3)
    assert factory(4).dtype == np.float64


def test_rand_draws_from_the_unit_interval():
    values = ag.rand(1000).data
    assert values.min() >= 0.0 and values.max() < 1.0
    assert 0.4 < values.mean() < 0.6


def test_randn_draws_from_the_standard_normal():
    values = ag.randn(10_000).data
    assert abs(values.mean()) < 0.05
    assert 0.95 < values.std() < 1.05


@pytest.mark.parametrize("factory", [ag.rand, ag.randn])
def test_manual_seed_makes_random_factories_repeatable(factory):
    ag.manual_seed(123)
    first = factory(2, 3).data
    ag.manual_seed(123)
    second = factory(2, 3).data
    ag.manual_seed(124)
    third = factory(2, 3).data
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, third)


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: ag.zeros(2, 3, **kw),
        lambda **kw: ag.ones((2, 3), **kw),
        lambda **kw: ag.full((2, 3), 0.5, **kw),
        lambda **kw: ag.zeros_like(ag.ones(2, 3), **kw),
        lambda **kw: ag.ones_like(ag.ones(2, 3), **kw),
        lambda **kw: ag.arange(6, **kw),
        lambda **kw: ag.eye(3, **kw),
        lambda **kw: ag.rand(2, 3, **kw),
        lambda **kw: ag.randn(2, 3, **kw),
    ],
)
def test_every_factory_accepts_requires_grad_and_dtype(make):
    t = make(requires_grad=True, dtype=np.float32)
    assert t.requires_grad and t.is_leaf and t.grad_fn is None
    assert t.dtype == np.float32
    assert make().requires_grad is False


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_like_factories_keep_the_input_dtype_and_shape(dtype):
    source = ag.tensor(np.arange(6).reshape(3, 2).astype(dtype))
    zeros, ones = ag.zeros_like(source), ag.ones_like(source)
    assert zeros.dtype == dtype and ones.dtype == dtype
    np.testing.assert_array_equal(zeros.data, np.zeros((3, 2)))
    np.testing.assert_array_equal(ones.data, np.ones((3, 2)))


def test_like_factories_do_not_inherit_requires_grad():
    source = ag.tensor([1.0, 2.0], requires_grad=True)
    assert ag.zeros_like(source).requires_grad is False
    assert ag.ones_like(source, requires_grad=True).requires_grad is True


@pytest.mark.parametrize(
    "op",
    [
        lambda t: t + 1,
        lambda t: 1 + t,
        lambda t: t - 2.5,
        lambda t: 2.5 - t,
        lambda t: t * 3.0,
        lambda t: 3.0 * t,
        lambda t: t / 3.0,
        lambda t: 3.0 / t,
        lambda t: t**2,
        lambda t: t**0.5,
        lambda t: -t,
        lambda t: (t * 2.0).exp().sum(),
        lambda t: t.mean(),
    ],
)
def test_a_float32_tensor_stays_float32_with_python_numbers(op):
    t = ag.tensor(np.array([1.0, 2.0, 4.0], dtype=np.float32), requires_grad=True)
    out = op(t)
    assert out.dtype == np.float32
    out.backward(np.ones(out.shape))
    assert t.grad.dtype == np.float32


def test_attributes_of_a_leaf():
    t = ag.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True, name="w")
    assert t.name == "w"
    assert t.shape == (2, 3)
    assert t.ndim == 2
    assert t.size == 6
    assert t.dtype == np.float64
    assert t.grad is None
    assert t.requires_grad is True
    assert t.grad_fn is None
    assert t.parents == ()
    assert t.is_leaf is True
    np.testing.assert_array_equal(t.T.data, t.data.T)


def test_name_defaults_to_none():
    assert ag.tensor(1.0).name is None


def test_attributes_of_a_result():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2.0
    assert b.is_leaf is False
    assert b.requires_grad is True
    assert b.grad_fn is not None
    assert b.grad_fn.name == "Mul"
    assert isinstance(b.parents, tuple)
    assert b.parents[0] is a


def test_repr_shows_the_values_and_requires_grad():
    assert repr(ag.tensor([1.0, 2.0], requires_grad=True)) == "Tensor([1. 2.], requires_grad=True)"


def test_repr_of_a_plain_tensor_matches_the_readme():
    assert repr(ag.tensor([4.0])) == "Tensor([4.])"


def test_item_returns_a_python_float():
    for t in (ag.tensor(2.5), ag.tensor([2.5]), ag.tensor([[2.5]])):
        value = t.item()
        assert type(value) is float and value == 2.5


def test_tolist_returns_nested_python_lists():
    assert ag.tensor([[1.0, 2.0], [3.0, 4.0]]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert ag.tensor(3.0).tolist() == 3.0


def test_numpy_returns_the_values_as_an_ndarray():
    t = ag.tensor([[1.0, 2.0]], requires_grad=True)
    array = t.numpy()
    assert isinstance(array, np.ndarray)
    np.testing.assert_array_equal(array, [[1.0, 2.0]])


def test_transpose_property_reverses_all_axes():
    data = np.arange(24.0).reshape(2, 3, 4)
    assert ag.tensor(data).T.shape == (4, 3, 2)
    np.testing.assert_array_equal(ag.tensor(data).T.data, data.T)


@pytest.mark.torch
def test_a_one_element_tensor_converts_to_a_python_number_as_in_torch():
    x, tx = both([2.5])
    assert float(x) == float(tx) == 2.5
    assert int(x) == int(tx) == 2
    assert [10, 20, 30][ag.tensor(1, dtype=np.int64)] == 20
    with pytest.raises(ValueError, match="exactly one element"):
        float(ag.tensor([1.0, 2.0]))


@pytest.mark.torch
def test_numel_and_dim_count_like_pytorch():
    for shape in [(), (3,), (2, 0, 4)]:
        x, tx = ag.zeros(shape), torch.zeros(shape)
        assert (x.numel(), x.dim()) == (tx.numel(), tx.dim())


@pytest.mark.torch
def test_detach_in_place_makes_a_leaf_that_does_not_require_grad():
    x, tx = both([1.0, 2.0])
    y, ty = x * 3, tx * 3
    assert y.detach_() is y and ty.detach_() is ty
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (ty.requires_grad, None, ty.is_leaf)
    z = y * x
    z.sum().backward()
    same(x.grad, [3.0, 6.0])


@pytest.mark.torch
def test_the_seed_methods_stay_untracked():
    """numpygrad's astype, fill, nonzero, all and any keep their seed behaviour: constants, never
    recorded. (Its sort and round follow PyTorch instead: sort's values carry the gradient, and
    round is recorded with derivative 0.)"""
    x = ag.tensor([[0.4, -1.6], [2.5, 0.0]], requires_grad=True)
    results = [x.sort().indices, x.astype(np.float32), x.fill(2.0), *x.nonzero(), x.all(),
               x.any()]
    assert not any(r.requires_grad or r.grad_fn is not None for r in results)
