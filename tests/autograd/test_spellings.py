"""PyTorch's spellings (t, expand, expand_as, view, view_as, contiguous, clone, numel, dim, clamp,
cat, detach_, autograd.backward, the arithmetic methods) and the operations that are not
differentiable (argmax, argmin, argsort, topk's indices, isnan, isinf, isfinite, logical_not,
& | ^ ~), each against PyTorch: same values, same gradients, and untracked where PyTorch's result
has no gradient."""

import numpy as np
import pytest

import autograd as ag

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def both(array, requires_grad=True):
    array = np.asarray(array, dtype=np.float64)
    return (ag.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def same(ours, theirs):
    if isinstance(theirs, torch.Tensor):
        theirs = theirs.detach().numpy()
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert ours.shape == np.shape(theirs)
    assert ours.dtype == np.asarray(theirs).dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def same_gradients(ours, theirs, leaves, tleaves, rng):
    upstream = rng.standard_normal(theirs.shape)
    ours.backward(ag.tensor(upstream))
    theirs.backward(torch.tensor(upstream))
    for leaf, tleaf in zip(leaves, tleaves, strict=True):
        same(leaf.grad, tleaf.grad)


# --- differentiable spellings ----------------------------------------------------------------

SPELLINGS = [
    ("t of a matrix", (2, 3), lambda x: x.t(), lambda x: x.t()),
    ("t of a vector", (3,), lambda x: x.t(), lambda x: x.t()),
    ("ag.t", (2, 3), ag.t, None),
    ("expand with -1", (2, 1), lambda x: x.expand(2, 4), lambda x: x.expand(2, 4)),
    ("expand new axes", (2, 1), lambda x: x.expand(3, -1, 4), lambda x: x.expand(3, -1, 4)),
    ("expand a tuple", (1, 3), lambda x: x.expand((2, 3)), lambda x: x.expand((2, 3))),
    ("expand_as", (3,), lambda x: x.expand_as(ag.zeros(2, 3)),
     lambda x: x.expand_as(torch.zeros(2, 3))),
    ("view", (2, 3), lambda x: x.view(3, 2), lambda x: x.view(3, 2)),
    ("view -1", (2, 3), lambda x: x.view(-1), lambda x: x.view(-1)),
    ("view a tuple", (2, 3), lambda x: x.view((1, 6)), lambda x: x.view((1, 6))),
    ("view_as", (2, 3), lambda x: x.view_as(ag.zeros(6)), lambda x: x.view_as(torch.zeros(6))),
    ("contiguous", (2, 3), lambda x: x.T.contiguous() * 2, lambda x: x.T.contiguous() * 2),
    ("clone", (2, 3), lambda x: x.clone() * x, lambda x: x.clone() * x),
    ("clamp numbers", (2, 3), lambda x: x.clamp(-0.5, 0.5), lambda x: x.clamp(-0.5, 0.5)),
    ("clamp min=", (2, 3), lambda x: ag.clamp(x, min=0.1), lambda x: torch.clamp(x, min=0.1)),
    ("clamp max=", (2, 3), lambda x: x.clamp(max=0.2), lambda x: x.clamp(max=0.2)),
    ("add", (2, 3), lambda x: x.add(x * 2), lambda x: x.add(x * 2)),
    ("sub", (2, 3), lambda x: x.sub(1.5), lambda x: x.sub(1.5)),
    ("mul", (2, 3), lambda x: x.mul(x), lambda x: x.mul(x)),
    ("div", (2, 3), lambda x: x.div(x * x + 1), lambda x: x.div(x * x + 1)),
    ("pow", (2, 3), lambda x: x.pow(3), lambda x: x.pow(3)),
    ("neg", (2, 3), lambda x: x.neg(), lambda x: x.neg()),
    ("matmul", (2, 3), lambda x: x.matmul(x.T), lambda x: x.matmul(x.T)),
    ("square", (2, 3), lambda x: x.square(), lambda x: x.square()),
    ("cat", (2, 3), lambda x: ag.cat([x, x * 2], dim=1), lambda x: torch.cat([x, x * 2], dim=1)),
    ("cat positional", (2, 3), lambda x: ag.cat([x, x], 0), lambda x: torch.cat([x, x], 0)),
    ("cat a tuple", (2, 3), lambda x: ag.cat((x, x), dim=-1), lambda x: torch.cat((x, x), -1)),
]


@pytest.mark.parametrize(("what", "shape", "ours", "theirs"), SPELLINGS,
                         ids=[s[0] for s in SPELLINGS])
def test_a_pytorch_spelling_gives_pytorchs_value_and_gradient(what, shape, ours, theirs, rng):
    theirs = theirs or (lambda x: getattr(torch, what.split(".")[1])(x))
    x, tx = both(rng.standard_normal(shape))
    y, ty = ours(x), theirs(tx)
    same(y, ty)
    same_gradients(y, ty, [x], [tx], rng)


def test_clone_is_a_copy_in_the_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x.clone()
    assert y.grad_fn is not None and not np.shares_memory(y.data, x.data)
    y.data[0] = 5.0
    assert x.data[0] == 1.0


def test_numel_and_dim_count_like_pytorch():
    for shape in [(), (3,), (2, 0, 4)]:
        x, tx = ag.zeros(shape), torch.zeros(shape)
        assert (x.numel(), x.dim()) == (tx.numel(), tx.dim())


def test_t_refuses_three_dimensions_and_expand_a_size_that_is_not_one():
    with pytest.raises(ValueError, match=r"t\(\) expects a tensor with at most 2 dimensions, "
                       r"but this one has shape \(2, 3, 4\); use x.transpose\(0, 1\)"):
        ag.zeros(2, 3, 4).t()
    with pytest.raises(ValueError, match=r"expand: the size of axis 1 \(3\) must be 1 or match "
                       r"the target size 4; target \(2, 4\), tensor shape \(2, 3\)"):
        ag.zeros(2, 3).expand(2, 4)
    with pytest.raises(ValueError, match=r"expand: -1 is not allowed for a new leading axis"):
        ag.zeros(2, 3).expand(-1, 2, 3)
    with pytest.raises(ValueError, match="the number of sizes given"):
        ag.zeros(2, 3).expand(3)
    with pytest.raises(TypeError, match=r"to change the dtype use x.to\(dtype\)"):
        ag.zeros(2).view(np.float32)


CLAMP_EDGES = [  # (x, min, max): ties, crossed bounds and equal bounds, as PyTorch shares them
    (0.0, 2.0, 1.0), (0.0, 1.0, 1.0), (1.0, 1.0, 1.0), (2.0, 1.0, 1.0), (1.0, 1.0, 2.0),
    (2.0, 1.0, 2.0), (3.0, 2.0, 1.0), (1.5, 2.0, 1.0), (0.5, 1.0, 2.0), (2.5, 1.0, 2.0),
]


@pytest.mark.parametrize(("x", "low", "high"), CLAMP_EDGES)
def test_clamp_with_tensor_bounds_shares_the_gradient_as_pytorch(x, low, high):
    (a, ta), (lo, tlo), (hi, thi) = both([x]), both([low]), both([high])
    y, ty = ag.clamp(a, lo, hi), torch.clamp(ta, tlo, thi)
    same(y, ty)
    same_gradients(y, ty, [a, lo, hi], [ta, tlo, thi], np.random.default_rng(0))


def test_clamp_with_broadcast_tensor_bounds_and_one_missing_bound(rng):
    (x, tx), (lo, tlo) = both(rng.standard_normal((3, 4))), both(rng.standard_normal(4) * 0.5)
    y, ty = x.clamp(min=lo), tx.clamp(min=tlo)
    same(y, ty)
    same_gradients(y, ty, [x, lo], [tx, tlo], rng)
    (x, tx), (hi, thi) = both(rng.standard_normal((3, 4))), both(rng.standard_normal((3, 1)))
    y, ty = ag.clamp(x, max=hi), torch.clamp(tx, max=thi)
    same(y, ty)
    same_gradients(y, ty, [x, hi], [tx, thi], rng)


def test_clamp_needs_a_bound():
    with pytest.raises(ValueError, match=r"clamp needs min, max or both"):
        ag.zeros(2).clamp()


def test_detach_in_place_makes_a_leaf_that_does_not_require_grad():
    x, tx = both([1.0, 2.0])
    y, ty = x * 3, tx * 3
    assert y.detach_() is y and ty.detach_() is ty
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (ty.requires_grad, None, ty.is_leaf)
    z = y * x
    z.sum().backward()
    same(x.grad, [3.0, 6.0])


# --- autograd.backward: several roots in one walk --------------------------------------------


def test_backward_of_several_roots_walks_a_shared_graph_once(rng):
    """Two losses on one hidden layer: one call, no retain_graph, the gradients summed, as
    torch.autograd.backward gives them."""
    data = rng.standard_normal((3, 2))
    (w, tw) = both(rng.standard_normal((2, 2)))
    h, th = ag.tanh(ag.tensor(data) @ w), torch.tanh(torch.tensor(data) @ tw)
    roots = [(h * h).sum(), h.sum(axis=0)]
    troots = [(th * th).sum(), th.sum(dim=0)]
    upstream = rng.standard_normal(2)
    ag.backward(roots, [None, ag.tensor(upstream)])
    torch.autograd.backward(troots, [None, torch.tensor(upstream)])
    same(w.grad, tw.grad)


def test_backward_of_one_root_and_with_create_graph():
    (x, tx) = both([0.5, -1.0])
    ag.backward((x ** 3).sum(), create_graph=True)
    torch.autograd.backward((tx ** 3).sum(), create_graph=True)
    same(x.grad, tx.grad)
    assert x.grad.requires_grad and tx.grad.requires_grad


def test_backward_names_the_root_that_does_not_require_grad_and_counts_gradients():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="element 1 of tensors does not require grad"):
        ag.backward([x.sum(), ag.tensor(2.0)])
    with pytest.raises(ValueError, match="backward got 1 tensors but 2 grad_tensors"):
        ag.backward([x.sum()], [None, None])
    with pytest.raises(RuntimeError, match="needs a gradient argument for an output of shape"):
        ag.backward([x * 2, x.sum()])


# --- not differentiable: constants, as in PyTorch --------------------------------------------

VALUES = np.array([[1.5, -np.inf, 0.0, np.nan], [3.0, 2.0, np.inf, -0.5]])


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "logical_not"])
def test_value_tests_are_untracked_bool_tensors_like_pytorchs(name):
    x, tx = both(VALUES)
    for y in (getattr(ag, name)(x), getattr(x, name)()):
        assert not y.requires_grad and y.grad_fn is None
        same(y, getattr(torch, name)(tx))


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc"])
def test_rounding_is_recorded_with_a_zero_gradient_as_in_pytorch(name):
    x, tx = both([[1.5, -1.5, 2.0], [-0.2, 0.7, -3.0]])
    y, ty = getattr(x, name)(), getattr(tx, name)()
    same(y, ty)
    assert y.requires_grad and ty.requires_grad
    same_gradients(y, ty, [x], [tx], np.random.default_rng(0))
    ints = np.array([3, -2])
    same(getattr(ag, name)(ag.tensor(ints)), getattr(torch, name)(torch.tensor(ints)))


MASKS = [np.array([True, False, True, False]), np.array([True, True, False, False])]
INTS = [np.array([5, 3, -2, 0]), np.array([1, 6, 7, -1])]


@pytest.mark.parametrize("pair", [MASKS, INTS], ids=["bool", "int"])
@pytest.mark.parametrize("op", ["&", "|", "^"])
def test_bit_operations_on_masks_and_integers_match_pytorch(pair, op):
    a, b = (ag.tensor(v) for v in pair)
    ta, tb = (torch.tensor(v) for v in pair)
    apply = {"&": lambda p, q: p & q, "|": lambda p, q: p | q, "^": lambda p, q: p ^ q}[op]
    for ours, theirs in [(apply(a, b), apply(ta, tb)), (apply(a, pair[1]), apply(ta, tb)),
                         (apply(a, 1), apply(ta, 1)), (apply(True, a), apply(True, ta))]:
        assert not ours.requires_grad
        same(ours, theirs)
    same(~a, ~ta)


def test_a_mask_of_two_conditions_reads_as_in_pytorch():
    x, tx = both([-1.0, 0.5, 2.0])
    same((x > 0) & (x < 1), (tx > 0) & (tx < 1))
    same(~(x > 0) | (x > 1), ~(tx > 0) | (tx > 1))


def test_bit_operations_refuse_floats_and_say_how_to_make_a_mask():
    x = ag.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match=r"& works on bool and integer tensors \(masks\), not on "
                       r"float64: compare first, e.g. \(x > 0\) & \(x < 1\)"):
        _ = x & x
    with pytest.raises(TypeError, match="~ works on bool and integer tensors"):
        _ = ~x


ARG_CASES = [
    {}, {"dim": 0}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"dim": None, "keepdim": True},
]
GRID = np.array([[3.0, 7.0, 7.0, -1.0], [2.0, np.nan, 0.5, 9.0], [4.0, 4.0, 4.0, 4.0]])


@pytest.mark.parametrize("kwargs", ARG_CASES, ids=str)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_and_argmin_match_pytorch_with_ties_and_nan(name, kwargs):
    x, tx = both(GRID)
    for ours in (getattr(ag, name)(x, **kwargs), getattr(x, name)(**kwargs)):
        assert not ours.requires_grad
        same(ours, getattr(torch, name)(tx, **kwargs))
    no_nan, tno_nan = both(np.nan_to_num(GRID))
    same(getattr(no_nan, name)(**kwargs), getattr(tno_nan, name)(**kwargs))


def test_argmax_takes_numpys_axis_too():
    x = ag.tensor(GRID)
    same(x.argmax(axis=1), x.argmax(dim=1))
    same(x.argmin(1, keepdims=True), x.argmin(1, keepdim=True))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_argsort_matches_pytorchs_stable_sort_with_ties_and_nan(dim, descending):
    x, tx = both(GRID)
    ours = x.argsort(dim=dim, descending=descending)
    assert not ours.requires_grad
    same(ours, torch.argsort(tx, dim=dim, descending=descending, stable=True))
    same(ag.argsort(ag.tensor(3.0)), torch.argsort(torch.tensor(3.0)))


@pytest.mark.parametrize(
    "kwargs", [{"k": 2}, {"k": 3, "largest": False}, {"k": 1, "dim": 0}, {"k": 2, "dim": 0},
               {"k": 0}, {"k": 4, "sorted": False}],
    ids=str,
)
def test_topk_values_carry_the_gradient_and_indices_are_constants(kwargs, rng):
    array = rng.permutation(24).reshape(2, 3, 4) * 0.5 - 3.0  # no ties: one right answer
    x, tx = both(array)
    values, indices = x.topk(**kwargs)
    tvalues, tindices = tx.topk(**kwargs)
    if kwargs.get("sorted", True) is False:  # PyTorch leaves this order open: compare sorted
        tvalues, order = torch.sort(tvalues, dim=-1, descending=True)
        tindices = torch.gather(tindices, -1, order)
    same(values, tvalues)
    same(indices, tindices)
    assert not indices.requires_grad and values.requires_grad
    same_gradients(values, tvalues, [x], [tx], rng)
    named = ag.topk(x, **kwargs)
    same(named.values, values)
    same(named.indices, indices)


def test_topk_puts_nan_first_as_pytorch_and_refuses_too_large_a_k():
    x, tx = both([1.0, np.nan, 3.0, 2.0])
    values, indices = x.topk(2)
    tvalues, tindices = tx.topk(2)
    same(values, tvalues)
    same(indices, tindices)
    with pytest.raises(ValueError, match=r"topk: k \(5\) is out of range: axis -1 of the tensor "
                       r"of shape \(4,\) has 4 elements; use k between 0 and 4"):
        x.topk(5)


def test_the_seed_methods_stay_untracked():
    """numpygrad's astype, fill, nonzero, all and any keep their seed behaviour: constants, never
    recorded. (Its sort and round follow PyTorch instead: sort's values carry the gradient, and
    round is recorded with derivative 0.)"""
    x = ag.tensor([[0.4, -1.6], [2.5, 0.0]], requires_grad=True)
    results = [x.sort().indices, x.astype(np.float32), x.fill(2.0), *x.nonzero(), x.all(),
               x.any()]
    assert not any(r.requires_grad or r.grad_fn is not None for r in results)


def test_every_public_function_and_tensor_method_says_what_it_does():
    """help(ag.exp) and help(x.exp) show a docstring for every op a student can call."""
    from autograd.ops import PUBLIC

    functions = [name for name, fn in PUBLIC.items() if not (fn.__doc__ or "").strip()]
    methods = [name for name in dir(ag.Tensor) if not name.startswith("_")
               and callable(getattr(ag.Tensor, name))
               and not (getattr(ag.Tensor, name).__doc__ or "").strip()]
    assert not functions and not methods, (functions, methods)
