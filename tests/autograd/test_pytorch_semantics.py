"""Where the engine once answered differently from PyTorch without an error: in-place updates,
identity permutations under create_graph, ints beside index arrays, sort and max/min/median along
a dim, PyTorch's idioms (x.size(), p.grad.zero_(), p.data -= ...). PyTorch is the oracle."""

import operator

import numpy as np
import pytest

import autograd as ag
from tests.autograd.vs_torch import close

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def both(array, requires_grad=True, dtype=np.float64):
    array = np.asarray(array, dtype=dtype)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def same(ours, theirs, rtol=1e-12, atol=1e-12):
    theirs = theirs.detach().numpy() if isinstance(theirs, torch.Tensor) else np.asarray(theirs)
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert ours.shape == theirs.shape
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol)


# ------------------------------------------------------------------ in place


def test_the_hand_written_training_step_updates_the_parameters():
    (w, tw), (x, tx) = both([1.0, -2.0, 0.5]), both([0.3, 0.7, -1.1], requires_grad=False)
    for _ in range(3):
        for p, inputs in ((w, x), (tw, tx)):
            loss = ((p * inputs).sum() - 1.0) ** 2
            loss.backward()
        with ag.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
        with torch.no_grad():
            tw -= 0.1 * tw.grad
            tw.grad.zero_()
    same(w, tw)
    assert w.is_leaf and w.requires_grad


@pytest.mark.parametrize("update", [operator.iadd, operator.isub, operator.imul,
                                    operator.itruediv], ids=["+=", "-=", "*=", "/="])
@pytest.mark.parametrize("other", [[0.5, 2.0, -1.0], [2.0], 3.0], ids=["same", "one", "number"])
def test_each_in_place_operator_changes_the_tensor_itself_under_no_grad(update, other):
    (x, tx) = both([1.0, 2.0, 4.0])
    if isinstance(other, list):
        y, ty = both(other, requires_grad=False)
    else:
        y = ty = other
    with ag.no_grad():
        assert update(x, y) is x
    with torch.no_grad():
        assert update(tx, ty) is tx
    assert x.is_leaf and x.requires_grad
    same(x, tx)


def test_a_view_sees_the_in_place_change_as_in_pytorch():
    x, tx = both([0.0, 0.0, 0.0], requires_grad=False)
    view, tview = x[:2], tx[:2]
    x += 1.0
    tx += 1.0
    same(view, tview)


def test_in_place_on_a_leaf_that_requires_grad_raises_outside_no_grad():
    x, tx = both([1.0, 2.0])
    with pytest.raises(RuntimeError, match="leaf"):
        tx += 1
    with pytest.raises(RuntimeError, match=r"leaf Variable that requires grad.*no_grad\(\)"):
        x += 1
    same(x, tx)


def test_in_place_refuses_a_result_its_dtype_cannot_hold():
    ints, tints = ag.zeros(3, dtype=np.int64), torch.zeros(3, dtype=torch.int64)
    with pytest.raises(RuntimeError):
        tints += 1.5
    with pytest.raises(TypeError, match="float64.*int64"):
        ints += 1.5


def test_in_place_keeps_float32():
    x, tx = both([1.0, 2.0], requires_grad=False, dtype=np.float32)
    x += ag.tensor([0.1, 0.2])
    tx += torch.tensor([0.1, 0.2], dtype=torch.float64)
    same(x, tx, rtol=1e-7)


def test_p_data_minus_equals_updates_the_parameter():
    (p, tp), (x, tx) = both([1.0, 2.0]), both([3.0, -1.0], requires_grad=False)
    (p * x).sum().backward()
    (tp * tx).sum().backward()
    p.data -= 0.5 * p.grad
    tp.data -= 0.5 * tp.grad
    assert type(p.data) is np.ndarray
    same(p, tp)


def test_an_array_beside_a_tensor_gives_the_tensor_result():
    x, tx = both([1.0, 2.0])
    array = np.array([3.0, 4.0])
    tarray = torch.tensor(array)
    for ours, theirs in ((array * x, tarray * tx), (array - x, tarray - tx),
                         (array / x, tarray / tx)):
        assert isinstance(ours, ag.Tensor) and ours.requires_grad
        same(ours, theirs)


def test_a_numpy_function_of_a_tensor_names_the_engines_own():
    with pytest.raises(TypeError, match=r"autograd\.exp"):
        np.exp(ag.ones(2))


# ------------------------------------------------------------------ idioms


def test_size_is_numpys_count_and_pytorchs_method():
    x, tx = both(np.zeros((2, 3, 4)))
    assert x.size == 24 and x.size * 2 == 48
    assert x.size() == tuple(tx.size())
    assert x.size(1) == tx.size(1) and x.size(-1) == tx.size(-1)
    with pytest.raises(IndexError, match=r"dim runs from -3 to 2"):
        x.size(3)


def test_zero_on_a_gradient_keeps_the_same_tensor():
    x, tx = both([1.0, 2.0])
    (x * x).sum().backward()
    (tx * tx).sum().backward()
    grad, tgrad = x.grad, tx.grad
    grad.zero_()
    tgrad.zero_()
    (x * 3).sum().backward()
    (tx * 3).sum().backward()
    assert x.grad is grad
    same(grad, tgrad)


# ------------------------------------------------------------------ identity permutations


@pytest.mark.parametrize(("shape", "permute"), [
    ((2, 3), lambda t: t.permute(0, 1)),
    ((3, 3), lambda t: t.permute(0, 1)),
    ((3, 3), lambda t: t.transpose(1, 1)),
    ((2, 3, 4), lambda t: t.swapaxes(2, 2)),
    ((2, 3, 4), lambda t: t.permute(0, 1, 2)),
    ((2, 3, 4), lambda t: t.permute(2, 0, 1)),
], ids=["non-square", "square", "transpose-1-1", "swapaxes-2-2", "3d-identity", "3d"])
def test_permutations_have_pytorchs_first_and_second_derivatives(shape, permute, rng):
    (x, tx) = both(rng.standard_normal(shape))
    weight = rng.standard_normal(permute(tx).shape)
    (g,) = ag.grad((permute(x) ** 3 * ag.tensor(weight)).sum(), x, create_graph=True)
    (tg,) = torch.autograd.grad((permute(tx) ** 3 * torch.tensor(weight)).sum(), tx,
                                create_graph=True)
    same(g, tg)
    (g * g).sum().backward()
    (tg * tg).sum().backward()
    same(x.grad, tx.grad)


# ------------------------------------------------------------------ indexing


KEYS = {
    "int-slice-list": lambda index: (1, slice(None), index([2, 0])),
    "0d-tensor-slice-list": lambda index: (index(1), slice(None), index([2, 0])),
    "ellipsis-int-list": lambda index: (Ellipsis, 1, index([2, 0])),
    "int-ellipsis-list": lambda index: (1, Ellipsis, index([2, 0])),
    "none-int-slice-list": lambda index: (None, 1, slice(None), index([2, 0])),
    "list-int-slice": lambda index: (index([0, 1]), 1, slice(None)),
    "int-list-int": lambda index: (1, index([0, 2]), 1),
    "int-slice-mask": lambda index: (0, slice(None), index([True, False, True, False])),
    "int-mask-int": lambda index: (1, index([True, False, True]), 0),
    "list-slice-list": lambda index: (index([1]), slice(None), index([2, 0])),
}


@pytest.mark.parametrize("name", list(KEYS))
def test_indexing_puts_the_axes_where_pytorch_does(name, rng):
    x, tx = both(rng.standard_normal((2, 3, 4)))
    ours = x[KEYS[name](lambda v: ag.Tensor(np.asarray(v)))]
    theirs = tx[KEYS[name](torch.tensor)]
    same(ours, theirs)
    upstream = rng.standard_normal(tuple(theirs.shape))
    ours.backward(upstream)
    theirs.backward(torch.tensor(upstream))
    same(x.grad, tx.grad)


def test_a_negative_step_is_refused_with_flip_as_the_fix():
    x, tx = both([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        tx[::-1]
    with pytest.raises(ValueError, match=r"flip"):
        x[::-1]


# ------------------------------------------------------------------ sort, max, min, median


PAIRS = {
    "sort": lambda t: t.sort(),
    "sort-dim0-descending": lambda t: t.sort(dim=0, descending=True),
    "max-dim": lambda t: t.max(dim=1),
    "max-positional-keepdim": lambda t: t.max(0, keepdim=True),
    "min-dim": lambda t: t.min(dim=-1),
    "median-dim": lambda t: t.median(dim=1),
    "median-dim0": lambda t: t.median(0),
    "topk": lambda t: t.topk(2, dim=1),
}


@pytest.mark.parametrize("name", list(PAIRS))
def test_value_index_pairs_match_pytorch_with_gradient_to_the_chosen_element(name, rng):
    data = np.array([[3.0, 1.0, 3.0, -2.0], [0.0, 5.0, 2.0, 5.0], [1.5, -1.0, 0.25, 4.0]])
    x, tx = both(data)
    ours, theirs = PAIRS[name](x), PAIRS[name](tx)
    values, indices = ours
    assert ours.values is values and ours[0] is values
    same(values, theirs.values)
    same(indices, theirs.indices)
    assert not indices.requires_grad
    upstream = rng.standard_normal(tuple(theirs.values.shape))
    values.backward(upstream)
    theirs.values.backward(torch.tensor(upstream))
    same(x.grad, tx.grad)


def test_sort_has_second_derivatives_and_forward_mode(rng):
    x, tx = both(rng.standard_normal((3, 4)))
    weight = rng.standard_normal((3, 4))
    (g,) = ag.grad((x.sort().values ** 3 * ag.tensor(weight)).sum(), x, create_graph=True)
    (tg,) = torch.autograd.grad((tx.sort().values ** 3 * torch.tensor(weight)).sum(), tx,
                                create_graph=True)
    same(g, tg)
    tangent = rng.standard_normal((3, 4))
    _, ours = ag.func.jvp(lambda t: t.sort(dim=0).values, (ag.tensor(x.data),),
                          (ag.tensor(tangent),))
    _, theirs = torch.func.jvp(lambda t: t.sort(dim=0).values, (tx.detach(),),
                               (torch.tensor(tangent),))
    same(ours, theirs)


def test_nan_sorts_and_wins_as_in_pytorch():
    data = [[1.0, np.nan, 3.0, 2.0]]
    x, tx = both(data, requires_grad=False)
    for pick in (lambda t: t.sort(), lambda t: t.sort(descending=True), lambda t: t.max(1),
                 lambda t: t.min(1), lambda t: t.median(1)):
        ours, theirs = pick(x), pick(tx)
        same(ours.values, theirs.values)
        same(ours.indices, theirs.indices)


def test_max_without_dim_and_with_numpys_axis_keep_the_values_and_share_ties():
    x, tx = both([[2.0, 2.0, 1.0], [0.0, 3.0, 3.0]])
    x.max().backward()
    tx.max().backward()
    same(x.grad, tx.grad)
    x.grad = None
    tx.grad = None
    x.max(axis=1).sum().backward()
    tx.amax(dim=1).sum().backward()
    same(x.grad, tx.grad)


def test_median_of_every_element_shares_ties_as_pytorch():
    x, tx = both([1.0, 2.0, 2.0, 3.0])
    x.median().backward()
    tx.median().backward()
    same(x.grad, tx.grad)


def test_max_with_a_tensor_is_the_elementwise_maximum():
    (x, tx), (y, ty) = both([1.0, 5.0]), both([3.0, 2.0])
    same(ag.max(x, y), torch.max(tx, ty))
    same(ag.min(x, y), torch.min(tx, ty))


def test_max_along_an_empty_dim_is_refused_as_in_pytorch():
    x, tx = both(np.zeros((0, 3)), requires_grad=False)
    same(x.max(dim=1).values, tx.max(dim=1).values)
    with pytest.raises(IndexError):
        tx.max(dim=0)
    with pytest.raises(IndexError, match=r"dim 0 of the tensor of shape \(0, 3\) has no elements"):
        x.max(dim=0)


# ------------------------------------------------------------------ dtypes


def test_second_order_gradients_keep_each_leafs_dtype():
    x, tx = both([1.0, 2.0], dtype=np.float32)
    w, tw = both([3.0, 4.0])
    grads = ag.grad(((x * x) * w).sum(), [x, w], create_graph=True)
    tgrads = torch.autograd.grad(((tx * tx) * tw).sum(), [tx, tw], create_graph=True)
    for ours, theirs in zip(grads, tgrads):
        same(ours, theirs, rtol=1e-6)
    (grads[0].sum() + grads[1].sum()).backward()
    (tgrads[0].sum() + tgrads[1].sum()).backward()
    same(x.grad, tx.grad, rtol=1e-6)
    same(w.grad, tw.grad)


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_and_hessian_of_float32_inputs_are_float32(strategy):
    x, tx = both([1.0, 2.0], requires_grad=False, dtype=np.float32)
    same(ag.functional.jacobian(lambda t: t * t * t, x, strategy=strategy),
         torch.autograd.functional.jacobian(lambda t: t * t * t, tx), rtol=1e-6)
    same(ag.functional.hessian(lambda t: (t * t * t).sum(), x),
         torch.autograd.functional.hessian(lambda t: (t * t * t).sum(), tx), rtol=1e-6)


# ------------------------------------------------------------------ keywords PyTorch code uses


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_div_with_a_rounding_mode_rounds_and_has_gradient_0(mode):
    (x, tx), (y, ty) = both([-7.0, 7.5, -2.5, 3.0]), both([2.0, -2.0, 2.0, 0.5])
    ours, theirs = ag.div(x, y, rounding_mode=mode), torch.div(tx, ty, rounding_mode=mode)
    same(ours, theirs)
    upstream = np.array([1.0, np.inf, 2.0, 3.0])
    ours.backward(upstream)
    theirs.backward(torch.tensor(upstream))
    same(x.grad, tx.grad)
    same(y.grad, ty.grad)
    ints, divisors = np.array([-7, 7, 5]), np.array([2, -2, 3])
    same(ag.div(ag.tensor(ints, dtype=np.int64), ag.tensor(divisors, dtype=np.int64),
                rounding_mode=mode),
         torch.div(torch.tensor(ints), torch.tensor(divisors), rounding_mode=mode))


def test_sum_with_a_dtype_sums_in_it_and_returns_the_gradient_in_the_inputs():
    x, tx = both([1.0, 2.0], dtype=np.float32)
    ours, theirs = x.sum(dtype=ag.float64), tx.sum(dtype=torch.float64)
    same(ours, theirs)
    ours.backward()
    theirs.backward()
    same(x.grad, tx.grad)


def test_amax_of_an_empty_tensor_along_a_full_axis_is_empty_as_in_pytorch():
    x, tx = both(np.zeros((0, 3)))
    ours, theirs = x.max(axis=1), tx.amax(dim=1)
    same(ours, theirs)
    ours.sum().backward()
    theirs.sum().backward()
    same(x.grad, tx.grad)
    with pytest.raises(IndexError):
        tx.amax(dim=0)
    with pytest.raises(ValueError, match=r"no elements along the reduced axes"):
        x.max(axis=0)


GRAPHS_THAT_SAVE_NOTHING = {
    "add": lambda x, y: x + y,
    "sub-neg": lambda x, y: -(x - y),
    "sum": lambda x, y: (x + y).sum(axis=0),
    "reshape-transpose": lambda x, y: (x + y).reshape(3, 2).T,
    "broadcast": lambda x, y: x + y[:1],
}


@pytest.mark.parametrize("name", list(GRAPHS_THAT_SAVE_NOTHING))
def test_a_second_backward_through_a_graph_that_saved_nothing_accumulates_like_pytorch(name, rng):
    build = GRAPHS_THAT_SAVE_NOTHING[name]
    (x, tx), (y, ty) = both(rng.standard_normal((2, 3))), both(rng.standard_normal((2, 3)))
    out, t_out = build(x, y), build(tx, ty)
    upstream = rng.standard_normal(out.shape)
    for _ in range(2):
        out.backward(upstream)
        t_out.backward(torch.tensor(upstream))
    close(x.grad, tx.grad)
    close(y.grad, ty.grad)


def test_a_second_backward_through_a_function_that_saved_values_names_that_function():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() + 1.0).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=r"through Exp.*retain_graph=True"):
        y.backward()
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    ty = (tx.exp() + 1.0).sum()
    ty.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        ty.backward()


def test_a_freed_custom_function_names_itself_when_its_saved_values_are_needed_again():
    class Cube(ag.Function):
        def forward(self, x):
            self.save_for_backward(x)
            return x**3

        def backward(self, grad_output):
            (x,) = self.saved_tensors
            return 3 * x * x * grad_output

    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=r"through Cube"):
        y.backward()


def test_a_held_grad_sees_the_next_backward_as_in_pytorch(rng):
    (x, tx) = both(rng.standard_normal(4))
    (x * 3.0).sum().backward()
    (tx * 3.0).sum().backward()
    held, t_held = x.grad, tx.grad
    (x * x).sum().backward()
    (tx * tx).sum().backward()
    assert x.grad is held
    close(held, t_held)
    close(held, tx.grad)


def test_a_held_grad_array_sees_the_next_backward_too(rng):
    x = ag.tensor(rng.standard_normal(3), requires_grad=True)
    (x * 2.0).sum().backward()
    array = x.grad.data
    (x * 2.0).sum().backward()
    np.testing.assert_array_equal(array, [4.0, 4.0, 4.0])


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_under_create_graph_the_grad_is_replaced_not_changed_in_place_as_in_pytorch(rng):
    (x, tx) = both(rng.standard_normal(3))
    (x**3).sum().backward(create_graph=True)
    (tx**3).sum().backward(create_graph=True)
    held, t_held = x.grad, tx.grad
    before = held.data.copy()
    (x**3).sum().backward(create_graph=True)
    (tx**3).sum().backward(create_graph=True)
    assert x.grad is not held
    np.testing.assert_array_equal(held.data, before)
    close(held, t_held)
    close(x.grad, tx.grad)


def test_in_place_accumulation_never_reaches_an_intermediate_retained_gradient(rng):
    (x, tx) = both(rng.standard_normal(3))
    h, th = x + 0.0, tx + 0.0
    h.retain_grad()
    th.retain_grad()
    for _ in range(2):
        h.sum().backward(retain_graph=True)
        th.sum().backward(retain_graph=True)
    close(h.grad, th.grad)
    close(x.grad, tx.grad)


def test_in_place_accumulation_never_reaches_a_gradient_a_hook_kept(rng):
    x = ag.tensor(rng.standard_normal(3), requires_grad=True)
    seen = []
    x.register_hook(seen.append)
    for _ in range(2):
        (x * 2.0).sum().backward()
    np.testing.assert_array_equal(seen[0].data, [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(x.grad.data, [4.0, 4.0, 4.0])


def test_an_optimizer_step_after_in_place_accumulation_matches_pytorch(rng):
    weights = rng.standard_normal((3, 2))
    (w, tw) = both(weights)
    data = rng.standard_normal((5, 3))
    opt, t_opt = ag.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.SGD([tw], lr=0.1,
                                                                            momentum=0.9)
    for _ in range(3):
        for _ in range(2):  # two backwards per step: the gradients add up
            (ag.tensor(data) @ w).tanh().sum().backward()
            (torch.tensor(data) @ tw).tanh().sum().backward()
        opt.step()
        t_opt.step()
        opt.zero_grad()
        t_opt.zero_grad()
    close(w, tw)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_a_leaf_used_many_times_sums_every_use_like_pytorch(shape, rng):
    """Its gradient is summed in place from the third use on: uses that share one array (x + x
    passes the same gradient twice) and broadcast uses must all count."""
    (x, tx), (y, ty) = both(rng.standard_normal(shape)), both(rng.standard_normal(shape))

    def build(x, y):
        total = x + x + y
        for k in range(5):
            total = total * 0.5 + x * float(k) + (x + y)
        return (total * x).sum() + x.sum()

    build(x, y).backward()
    build(tx, ty).backward()
    close(x.grad, tx.grad)
    close(y.grad, ty.grad)


def test_a_hook_on_an_intermediate_runs_after_the_caller_dropped_it_as_in_pytorch(rng):
    data = rng.standard_normal((40, 40))  # large enough that the graph holds it only weakly
    (x, tx) = both(data)
    seen, t_seen = [], []
    h, th = x * 2.0, tx * 2.0
    h.register_hook(lambda g: seen.append(1) or g * 3.0)
    th.register_hook(lambda g: t_seen.append(1) or g * 3.0)
    y, ty = (h + 1.0).sum(), (th + 1.0).sum()
    del h, th
    y.backward()
    ty.backward()
    assert seen == t_seen == [1]
    close(x.grad, tx.grad)


def test_second_derivatives_flow_through_dropped_intermediates_that_were_saved(rng):
    data = rng.uniform(-1.0, 1.0, (40, 40))  # above the size kept for drawings

    def f(lib_exp, x):
        h = x * 1.5
        e = lib_exp(h)  # Exp saves its output, h is dropped on return
        return (e * h).sum()

    (x, tx) = both(data)
    (g,) = ag.grad(f(ag.exp, x), [x], create_graph=True)
    (tg,) = torch.autograd.grad(f(torch.exp, tx), [tx], create_graph=True)
    close(g, tg)
    (g * g).sum().backward()
    (tg * tg).sum().backward()
    close(x.grad, tx.grad, rtol=1e-11)


def test_a_custom_function_backward_sees_a_dropped_saved_input_in_the_graph(rng):
    class Square(ag.Function):
        def forward(self, x):
            self.save_for_backward(x)
            return x * x

        def backward(self, grad_output):
            (x,) = self.saved_tensors
            return 2 * x * grad_output

    data = rng.standard_normal((40, 40))
    (x, tx) = both(data)
    out = Square.apply(x.sin()).sum()  # sin(x) is dropped: only Square saved it
    (g,) = ag.grad(out, [x], create_graph=True)
    (tg,) = torch.autograd.grad(tx.sin().square().sum(), [tx], create_graph=True)
    close(g, tg)
    g.sum().backward()
    tg.sum().backward()
    close(x.grad, tx.grad)


@pytest.mark.parametrize("mode", ["no_grad", "enable_grad"])
def test_grad_mode_decorating_a_generator_holds_inside_its_body_as_in_pytorch(mode):
    def recorded_inside(lib):
        outer = lib.no_grad if mode == "enable_grad" else lib.enable_grad
        decorator = getattr(lib, mode)
        x = lib.ones(2, requires_grad=True)

        @decorator()
        def steps():
            for _ in range(3):
                received = yield (x * 2).requires_grad
                assert received == "next"

        inside = []
        with outer():
            generator = steps()
            inside.append(next(generator))
            between = (x * 2).requires_grad
            inside.append(generator.send("next"))
            inside.append(generator.send("next"))
            generator.close()
        return inside, between

    assert recorded_inside(ag) == recorded_inside(torch)
    inside, between = recorded_inside(ag)
    assert inside == [mode == "enable_grad"] * 3 and between == (mode == "no_grad")


def test_a_no_grad_generator_returns_its_value_and_passes_exceptions_through():
    @ag.no_grad()
    def counter():
        try:
            yield 1
        except KeyError:
            yield ag.is_grad_enabled()
        return "done"

    generator = counter()
    assert next(generator) == 1
    assert generator.throw(KeyError("x")) is False
    with pytest.raises(StopIteration) as stop:
        next(generator)
    assert stop.value.value == "done"
    assert ag.is_grad_enabled() is True
