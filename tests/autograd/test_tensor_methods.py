"""PyTorch's tensor methods of issue 30 that are not ops of the graph: comparisons as methods and
functions, the ``new_*`` factories, ``type_as``, ``stride``, ``is_contiguous``, ``all``/``any``
and ``where(condition)``; each against PyTorch."""

import numpy as np
import pytest

import autograd as ag

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

X = np.array([[1.0, 2.0, np.nan], [0.0, 3.0, -1.0]])
OTHER = np.array([2.0, 3.0, -1.0])


def same(ours, theirs):
    theirs = theirs.numpy()
    assert ours.dtype == theirs.dtype and not ours.requires_grad
    np.testing.assert_array_equal(ours.data, theirs)


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge"])
@pytest.mark.parametrize("other", [2.0, OTHER], ids=["number", "tensor"])
def test_comparisons_are_constant_bool_tensors_as_in_torch(name, other):
    x = ag.tensor(X, requires_grad=True)
    tx = torch.tensor(X, requires_grad=True)
    wrap = ag.tensor if isinstance(other, np.ndarray) else float
    twrap = torch.tensor if isinstance(other, np.ndarray) else float
    same(getattr(x, name)(wrap(other)), getattr(tx, name)(twrap(other)))
    same(getattr(ag, name)(x, wrap(other)), getattr(torch, name)(tx, twrap(other)))


def test_a_comparison_function_wants_a_tensor_first():
    with pytest.raises(TypeError, match=r"eq\(\) expects a tensor first"):
        ag.eq(2.0, ag.tensor(X))


def test_new_factories_take_this_tensors_dtype_unless_told():
    x = ag.tensor(X.astype(np.float32))
    tx = torch.tensor(X.astype(np.float32))
    same(x.new_zeros(2, 3), tx.new_zeros(2, 3))
    same(x.new_zeros((2, 3)), tx.new_zeros((2, 3)))
    same(x.new_ones(4), tx.new_ones(4))
    same(x.new_full((2,), 3.5), tx.new_full((2,), 3.5))
    same(x.new_tensor([1, 2]), tx.new_tensor([1, 2]))
    same(x.new_zeros(2, dtype=np.int64), tx.new_zeros(2, dtype=torch.int64))
    made = x.new_ones(3, requires_grad=True)
    assert made.requires_grad and made.is_leaf


def test_type_as_casts_and_keeps_the_gradient():
    x = ag.tensor([1.5, -2.0], requires_grad=True)
    y = x.type_as(ag.tensor(np.zeros(1, dtype=np.float32)))
    assert y.dtype == np.float32
    (y * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [3.0, 3.0])
    assert x.grad.dtype == np.float64


def test_stride_and_is_contiguous_follow_torch_for_views():
    x, tx = ag.tensor(np.zeros((2, 3, 4))), torch.zeros(2, 3, 4)
    for ours, theirs in [(x, tx), (x.transpose(0, 2), tx.transpose(0, 2)), (x[:, 1], tx[:, 1]),
                         (x.permute(1, 0, 2), tx.permute(1, 0, 2))]:
        assert ours.stride() == theirs.stride()
        assert ours.stride(-1) == theirs.stride(-1)
        assert ours.is_contiguous() == theirs.is_contiguous()


@pytest.mark.parametrize("name", ["all", "any"])
@pytest.mark.parametrize("kwargs", [{}, {"dim": 1}, {"dim": 0, "keepdim": True},
                                    {"dim": (0, 1)}], ids=str)
def test_all_and_any_reduce_to_constant_bools_as_in_torch(name, kwargs):
    data = np.array([[1.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    x, tx = ag.tensor(data, requires_grad=True), torch.tensor(data)
    same(getattr(x, name)(**kwargs), getattr(tx, name)(**kwargs))
    same(getattr(ag, name)(x, **kwargs), getattr(torch, name)(tx, **kwargs))


def test_where_with_only_a_condition_gives_int64_indices_per_axis():
    mask = np.array([[True, False, True], [False, False, True]])
    ours = ag.where(ag.tensor(mask))
    theirs = torch.where(torch.tensor(mask))
    assert len(ours) == len(theirs) == 2
    for o, t in zip(ours, theirs):
        same(o, t)


def test_where_with_x_but_no_y_says_what_it_takes():
    with pytest.raises(TypeError, match=r"condition alone .* or the condition and both x and y"):
        ag.where(ag.tensor([True]), ag.tensor([1.0]))


def test_every_public_function_and_tensor_method_says_what_it_does():
    """help(ag.exp) and help(x.exp) show a docstring for every op a student can call."""
    from autograd.ops import PUBLIC

    functions = [name for name, fn in PUBLIC.items() if not (fn.__doc__ or "").strip()]
    methods = [name for name in dir(ag.Tensor) if not name.startswith("_")
               and callable(getattr(ag.Tensor, name))
               and not (getattr(ag.Tensor, name).__doc__ or "").strip()]
    assert not functions and not methods, (functions, methods)
