"""In-place operations and the version counter, PyTorch's behaviours one by one with PyTorch as
the oracle: the values, the gradients, the versions, and the error a backward raises when a value
it saved was changed in place (autograd/ops/inplace.py, the checks in autograd/engine.py)."""

import numpy as np
import pytest

import autograd as ag
import autograd.forward_ad as fwAD
from autograd import optim

torch = pytest.importorskip("torch")
tfwAD = pytest.importorskip("torch.autograd.forward_ad")
pytestmark = pytest.mark.torch

VALUES = [0.5, -1.5, 2.0]


def both(values=VALUES, requires_grad=True):
    array = np.asarray(values, dtype=np.float64)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def same(ours, theirs):
    theirs = theirs.detach().numpy() if isinstance(theirs, torch.Tensor) else np.asarray(theirs)
    ours = ours.data if isinstance(ours, ag.Tensor) else np.asarray(ours)
    assert ours.shape == theirs.shape
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def same_grad(ours, theirs):
    """The same ``.grad``, where None (no gradient reached it) equals PyTorch's zeros."""
    if ours.grad is None or theirs.grad is None:
        for grad in (ours.grad, theirs.grad):
            assert grad is None or not np.asarray(grad.data).any()
    else:
        same(ours.grad, theirs.grad)


def backward_error(out):
    with pytest.raises(RuntimeError) as raised:
        out.sum().backward()
    return str(raised.value)


# --- a backward that needs a value changed in place raises PyTorch's error ---------------------


@pytest.mark.parametrize("op", ["exp", "tanh"])
def test_changing_a_result_its_op_saved_raises_at_backward(op):
    (x, tx) = both()
    y, ty = getattr(x, op)(), getattr(tx, op)()
    y.add_(1)
    ty.add_(1)
    theirs, ours = backward_error(ty), backward_error(y)
    name = op.capitalize()
    assert f"output 0 of {name}, is at version 1; expected version 0 instead" in theirs
    assert ours.startswith("one of the variables needed for gradient computation has been "
                           "modified by an inplace operation: [float64 [3]], which is output 0 "
                           f"of {name}, is at version 1; expected version 0 instead.")
    assert f"{name} saved this tensor (its result)" in ours and "x.clone()" in ours


def test_sigmoid_saves_its_input_here_so_changing_its_result_keeps_the_gradient():
    """PyTorch's sigmoid saves its result, so there this raises; ours saves the input (for its
    tails, see Sigmoid), so the gradient stays right, and changing the input raises instead."""
    (x, tx) = both()
    y = x.sigmoid()
    y.add_(1)
    (y * 2).sum().backward()
    (tx.sigmoid() * 2).sum().backward()
    same(x.grad, tx.grad)
    h = x * 1
    y = h.sigmoid()
    h.add_(1)
    assert "Sigmoid saved this tensor (its input 0)" in backward_error(y)


def test_an_in_place_op_that_saves_its_result_raises_when_changed_again():
    (x, tx) = both()
    y, ty = x * 1, tx * 1
    y.exp_().add_(1)
    ty.exp_().add_(1)
    assert "is at version 2; expected version 1" in backward_error(ty)
    assert "output 0 of Exp, is at version 2; expected version 1" in backward_error(y)


def test_changing_an_input_mul_saved_raises_at_backward():
    (x, tx) = both()
    y, ty = x * 1, tx * 1
    z, tz = y * x, ty * tx
    y.add_(1)
    ty.add_(1)
    assert "output 0 of Add, is at version 1; expected version 0" in backward_error(tz)
    ours = backward_error(z)
    assert "[float64 [3]], which is output 0 of Add, is at version 1; expected version 0" in ours
    assert "Mul saved this tensor (its input 0)" in ours


def test_changing_a_saved_leaf_under_no_grad_raises_at_backward():
    (x, tx) = both()
    z, tz = x * x, tx * tx
    with ag.no_grad():
        x.add_(1)
    with torch.no_grad():
        tx.add_(1)
    assert "[torch.DoubleTensor [3]] is at version 1; expected version 0" in backward_error(tz)
    assert "[float64 [3]] is at version 1; expected version 0" in backward_error(z)


def test_changing_a_saved_value_through_a_view_raises_at_backward():
    (x, tx) = both()
    y, ty = x.exp(), tx.exp()
    with ag.no_grad():
        y[0:2].zero_()
    with torch.no_grad():
        ty[0:2].zero_()
    assert y._version == ty._version == 1
    assert "is at version 1; expected version 0" in backward_error(ty)
    assert "is at version 1; expected version 0" in backward_error(y)


def test_a_large_saved_input_held_by_its_function_is_checked_too():
    (x, tx) = both(np.linspace(-1, 1, 2000))
    y, ty = x * 1, tx * 1
    z, tz = y * y, ty * ty  # over 1,024 elements: z's graph holds y by y's Function
    view, tview = y[:5], ty[:5]
    del y, ty
    with ag.no_grad():
        view.zero_()
    with torch.no_grad():
        tview.zero_()
    assert "[torch.DoubleTensor [2000]], which is output 0 of Mul" in backward_error(tz)
    assert "[float64 [2000]], which is output 0 of Mul, is at version 1" in backward_error(z)


# --- what PyTorch allows -----------------------------------------------------------------------


def test_changing_a_result_its_op_did_not_save_keeps_the_gradient():
    (x, tx) = both()
    y, ty = x * 2, tx * 2
    y.add_(1)
    ty.add_(1)
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    same(y, ty)
    same(x.grad, tx.grad)
    assert type(y.grad_fn).__name__ == "Add" and type(ty.grad_fn).__name__ == "AddBackward0"


def test_an_earlier_use_keeps_the_old_values_history():
    (x, tx) = both()
    y, ty = x * 2, tx * 2
    z, tz = y + 1, ty + 1  # add saves nothing: its gradient goes to y's old history
    y.mul_(2)
    ty.mul_(2)
    (z.sum() + y.sum()).backward()
    (tz.sum() + ty.sum()).backward()
    same(x.grad, tx.grad)


def test_a_view_used_before_its_base_changes_keeps_the_old_history():
    (x, tx) = both()
    y, ty = x * 2, tx * 2
    s, ts = y[0:2].sum() * 5, ty[0:2].sum() * 5
    y.mul_(3)
    ty.mul_(3)
    (s + y.sum()).backward()
    (ts + ty.sum()).backward()
    same(x.grad, tx.grad)


def test_large_tensors_held_by_their_functions_keep_the_right_histories():
    (x, tx) = both(np.linspace(-1, 1, 3000))  # over 1,024 elements: edges are Functions
    for x_ in (x, tx):
        y = x_ * 2
        z = y + 1
        y.mul_(2)
        w = y.exp()
        y2 = y * 1
        y2.exp_()
        (z.sum() + y.sum() + w.sum() + y2.sum()).backward()
    same(x.grad, tx.grad)
    y, ty = x.exp(), tx.exp()
    y.exp_()
    ty.exp_()
    assert "output 0 of Exp, is at version 1; expected version 0" in backward_error(ty)
    assert "output 0 of Exp, is at version 1; expected version 0" in backward_error(y)


def test_a_float32_tensor_keeps_its_dtype_when_a_float64_one_is_added_in_place():
    (x, tx), (b, tb) = both([1.0, 2.0]), both([0.5, 0.25])
    x, tx = x.to(np.float32), tx.float()
    x += b
    tx += tb
    (x * x).sum().backward()
    (tx * tx).sum().backward()
    same(x, tx)
    same(b.grad, tb.grad)


def test_hooks_from_before_see_the_old_value_and_retain_grad_the_new_as_in_pytorch():
    (x, tx) = both([1.0, 2.0])
    seen = {}
    for lib, x_ in (("ours", x), ("torch", tx)):
        y = x_ * 2
        y.retain_grad()
        y.register_hook(lambda g, lib=lib: seen.setdefault(lib, []).append(("old", g.tolist())))
        y.mul_(3)
        y.register_hook(lambda g, lib=lib: seen.setdefault(lib, []).append(("new", g.tolist())))
        (y * y).sum().backward()
        seen[lib].append(("retained", y.grad.tolist()))
    assert seen["ours"] == seen["torch"]
    same(x.grad, tx.grad)


def test_plus_equals_on_a_computed_tensor_is_recorded():
    (x, tx), (b, tb) = both(), both([1.0, 2.0, 3.0])
    h, th = x * x, tx * tx
    h += b
    th += tb
    (h * 3).sum().backward()
    (th * 3).sum().backward()
    same(h, th)
    same(x.grad, tx.grad)
    same(b.grad, tb.grad)


def test_mul_in_place_by_a_tensor_that_requires_grad_uses_the_old_values():
    (x, tx), (w, tw) = both(), both([2.0, -1.0, 0.5])
    y, ty = x + 1, tx + 1
    y.mul_(w)
    ty.mul_(tw)
    y.sum().backward()
    ty.sum().backward()
    same(w.grad, tw.grad)
    same(x.grad, tx.grad)


def test_a_constant_becomes_part_of_the_graph_when_a_tensor_that_requires_grad_goes_in():
    (w, tw) = both()
    buf, tbuf = ag.zeros(3), torch.zeros(3, dtype=torch.float64)
    buf.add_(w, alpha=2)
    tbuf.add_(tw, alpha=2)
    assert buf.requires_grad and not buf.is_leaf
    (buf * buf).sum().backward()
    (tbuf * tbuf).sum().backward()
    same(w.grad, tw.grad)


def test_second_derivatives_go_through_an_in_place_op():
    (x, tx) = both()
    y, ty = x * 1, tx * 1
    y.mul_(x)
    ty.mul_(tx)
    (g,) = ag.grad((y * x).sum(), x, create_graph=True)
    (tg,) = torch.autograd.grad((ty * tx).sum(), tx, create_graph=True)
    same(g, tg)
    g.sum().backward()
    tg.sum().backward()
    same(x.grad, tx.grad)


# --- every in-place method: values, gradients and versions as PyTorch's -------------------------

METHODS = {
    "add_ alpha": lambda t, lib, o: t.add_(o, alpha=0.5),
    "sub_": lambda t, lib, o: t.sub_(o),
    "sub_ alpha": lambda t, lib, o: t.sub_(o, alpha=3),
    "mul_": lambda t, lib, o: t.mul_(o),
    "div_": lambda t, lib, o: t.div_(o + 3),
    "add_ a number": lambda t, lib, o: t.add_(2.5),
    "clamp_": lambda t, lib, o: t.clamp_(-1.0, 1.0),
    "clamp_ min": lambda t, lib, o: t.clamp_(min=0.0),
    "exp_": lambda t, lib, o: t.exp_(),
    "relu_": lambda t, lib, o: t.relu_(),
    "sigmoid_": lambda t, lib, o: t.sigmoid_(),
    "tanh_": lambda t, lib, o: t.tanh_(),
    "zero_": lambda t, lib, o: t.zero_(),
    "fill_": lambda t, lib, o: t.fill_(0.25),
    "copy_": lambda t, lib, o: t.copy_(o * 2),
    "copy_ broadcast": lambda t, lib, o: t.copy_(o[1:2]),
    "masked_fill_": lambda t, lib, o: t.masked_fill_(o > 0, -7.0),
    "index_add_": lambda t, lib, o: t.index_add_(0, _index(lib, [2, 0, 2]), o, alpha=2),
    "scatter_": lambda t, lib, o: t.scatter_(0, _index(lib, [2, 0, 1]), o),
    "scatter_ value": lambda t, lib, o: t.scatter_(0, _index(lib, [1]), 4.0),
    "setitem": lambda t, lib, o: _setitem(t, slice(0, 2), o[1:]),
    "setitem mask": lambda t, lib, o: _setitem(t, t > 0, 9.0),
    "setitem an index list": lambda t, lib, o: _setitem(t, [2, 0], o[:2] * 3),
    "setitem broadcast": lambda t, lib, o: _setitem(t, slice(None), o[0]),
}


def _setitem(t, key, value):
    t[key] = value
    return t


def _index(lib, values):
    return lib.tensor(values) if lib is torch else ag.tensor(np.array(values))


@pytest.mark.parametrize("name", list(METHODS))
def test_an_in_place_method_on_a_computed_tensor_gives_pytorchs_values_and_gradients(name, rng):
    change = METHODS[name]
    (x, tx), (o, to) = both(), both([0.7, -0.2, 1.3])
    y, ty = x * 1.5, tx * 1.5
    assert change(y, ag, o) is y
    assert change(ty, torch, to) is ty
    same(y, ty)
    assert y._version == ty._version
    upstream = rng.standard_normal(3)
    (y * (y + 1)).backward(ag.tensor(upstream))
    (ty * (ty + 1)).backward(torch.tensor(upstream))
    same_grad(x, tx)
    same_grad(o, to)


NOT_RECORDED = {  # PyTorch has no derivative for these
    "scatter_ add": lambda t, lib, o: t.scatter_(0, _index(lib, [1, 1]), o, reduce="add"),
    "scatter_ multiply": lambda t, lib, o: t.scatter_(0, _index(lib, [2, 2, 0]), o,
                                                      reduce="multiply"),
}


@pytest.mark.filterwarnings("ignore:The reduce argument of torch.scatter")
@pytest.mark.parametrize("name", list(METHODS) + list(NOT_RECORDED))
def test_an_in_place_method_under_no_grad_changes_a_leaf_and_counts_a_version(name):
    change = {**METHODS, **NOT_RECORDED}[name]
    (x, tx), (o, to) = both(), both([0.7, -0.2, 1.3])
    with ag.no_grad():
        assert change(x, ag, o) is x
    with torch.no_grad():
        change(tx, torch, to)
    same(x, tx)
    assert x._version == tx._version
    assert x.is_leaf and x.requires_grad and x.grad_fn is None


@pytest.mark.parametrize("name", list(METHODS))
def test_an_in_place_method_on_a_leaf_that_requires_grad_raises_pytorchs_error(name):
    change = METHODS[name]
    (x, tx), (o, to) = both(), both([0.7, -0.2, 1.3])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in "
                                           "an in-place operation"):
        change(tx, torch, to)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in "
                                           "an in-place operation"):
        change(x, ag, o)
    same(x, tx)
    assert x._version == tx._version == 0


def test_ag_relu_changes_its_argument_as_torch_relu_():
    (x, tx) = both()
    y, ty = x * 1, tx * 1
    assert ag.relu_(y) is y
    assert torch.relu_(ty) is ty
    same(y, ty)
    assert y._version == ty._version == 1


def test_setitem_gives_the_value_its_gradient():
    (x, tx), (v, tv) = both(), both([10.0, 20.0])
    y, ty = x * 2, tx * 2
    y[[0, 2]] = v * v
    ty[[0, 2]] = tv * tv
    (y * ag.tensor([1.0, 2.0, 3.0])).sum().backward()
    (ty * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
    same(y, ty)
    same(x.grad, tx.grad)
    same(v.grad, tv.grad)
    assert y._version == ty._version == 1


def test_setitem_with_ints_beside_index_arrays_takes_pytorchs_order(rng):
    (x, tx), (v, tv) = both(rng.standard_normal((2, 3, 4))), both(rng.standard_normal((3, 2)))
    y, ty = x * 1, tx * 1
    y[1, :, [2, 0]] = v
    ty[1, :, [2, 0]] = tv
    same(y, ty)
    upstream = rng.standard_normal((2, 3, 4))
    y.backward(ag.tensor(upstream))
    ty.backward(torch.tensor(upstream))
    same(x.grad, tx.grad)
    same(v.grad, tv.grad)


def test_setitem_on_a_constant_with_a_value_that_requires_grad_records_it():
    (v, tv) = both([3.0])
    buf, tbuf = ag.zeros(2, 3), torch.zeros(2, 3, dtype=torch.float64)
    buf[1, 1:] = v
    tbuf[1, 1:] = tv
    (buf * buf).sum().backward()
    (tbuf * tbuf).sum().backward()
    same(buf, tbuf)
    same(v.grad, tv.grad)


def test_uniform_and_normal_draw_from_the_engines_seeded_generator():
    x = ag.zeros(4)
    ag.manual_seed(3)
    assert x.uniform_(-2.0, 5.0) is x
    rng = np.random.default_rng(3)
    np.testing.assert_array_equal(x.data, -2.0 + 7.0 * rng.random(4))
    x.normal_(1.0, 0.5)
    np.testing.assert_array_equal(x.data, 1.0 + 0.5 * rng.standard_normal(4))
    assert x._version == 2


def test_uniform_on_a_computed_tensor_cuts_the_gradient_as_in_pytorch():
    (x, tx) = both()
    y, ty = x * 2, tx * 2
    y.uniform_()
    ty.uniform_()
    (y * 3).sum().backward()
    (ty * 3).sum().backward()
    same_grad(x, tx)


def test_forward_mode_tangents_follow_in_place_changes():
    results = []
    for lib, ad in ((ag, fwAD), (torch, tfwAD)):
        with ad.dual_level():
            x = ad.make_dual(lib.tensor([1.0, 2.0], dtype=lib.float64),
                             lib.tensor([1.0, 0.5], dtype=lib.float64))
            y = x * 1
            y.mul_(3).exp_()
            y[0] = x[1] * x[1]
            results.append(ad.unpack_dual(y))
    (ours, ours_tangent), (theirs, their_tangent) = results
    same(ours, theirs)
    same(ours_tangent, their_tangent)


# --- views ------------------------------------------------------------------------------------


def test_views_and_detach_share_the_version_counter_as_in_pytorch():
    (x, tx) = both(requires_grad=False)
    pairs = [(x[1:], tx[1:]), (x.reshape(3, 1), tx.reshape(3, 1)), (x.detach(), tx.detach())]
    for i, (view, tview) in enumerate(pairs):
        view.add_(1)
        tview.add_(1)
        assert x._version == tx._version == i + 1
        assert view._version == tview._version == i + 1
    same(x, tx)
    assert (x * 2)._version == (tx * 2)._version == 0


def test_in_place_on_a_view_of_a_leaf_that_requires_grad_raises_pytorchs_error():
    (x, tx) = both()
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        tx[0:2].mul_(2)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0:2].mul_(2)


VIEWS = {
    "a slice": lambda t: t[1:3],
    "a row": lambda t: t[1],
    "a column": lambda t: t[:, 2],
    "every other": lambda t: t[::2, 1:],
    "the transpose": lambda t: t.T,
    "a reshape": lambda t: t.reshape(-1),
    "a view of a view": lambda t: t[1:][:, ::2],
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("method", ["mul_", "exp_", "setitem"])
def test_in_place_on_a_view_of_a_computed_tensor_is_recorded_as_pytorchs_copyslices(view, method,
                                                                                   rng):
    (x, tx), (w, tw) = both(rng.standard_normal((3, 4))), both([1.5])
    change = {"mul_": lambda v, w: v.mul_(w), "exp_": lambda v, w: v.exp_(),
              "setitem": lambda v, w: _setitem(v, 0, w * 4)}[method]
    results = []
    for x_, w_ in ((x, w), (tx, tw)):
        y = x_ * 2
        v = VIEWS[view](y)
        change(v, w_)
        (y * y).sum().backward(retain_graph=True)
        (v * 3).sum().backward()
        results.append((y, v))
    (y, v), (ty, tv) = results
    same(y, ty)
    same(v, tv)
    assert y._version == ty._version and v._version == tv._version
    same(x.grad, tx.grad)
    same_grad(w, tw)


@pytest.mark.parametrize("op", ["mul", "div"])
def test_a_factor_needed_only_for_a_constants_gradient_may_change_as_in_pytorch(op):
    (x, tx) = both()
    y, ty = x * 2, tx * 2
    ty[0:2] = getattr(ty[0:2], op)(3)
    y[0:2] = getattr(y[0:2], op)(3)
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    same(y, ty)
    same(x.grad, tx.grad)
    w, tw = both([3.0])
    z, tz = y * w, ty * tw  # now y serves w's gradient: changing it raises, in both
    y.add_(1)
    ty.add_(1)
    assert "is at version 2; expected version 1" in backward_error(tz)
    assert ("version 2; expected version 1 instead. Hint: Mul saved this tensor (its input 0)"
            in backward_error(z))


def test_a_view_used_after_its_base_changed_in_place_is_refused_with_the_fix():
    (x, _) = both()
    y = x * 2
    view = y[0:2]
    y.mul_(3)
    with pytest.raises(RuntimeError, match="make the view again"):
        view * 2


# --- the engine's own users: optimizers, nn.init, drawings ---------------------------------------


@pytest.mark.parametrize("name, kwargs", [
    ("SGD", {"lr": 0.1, "momentum": 0.9}), ("Adam", {"lr": 0.1}),
    ("AdamW", {"lr": 0.1, "weight_decay": 0.1}), ("RMSprop", {"lr": 0.01}),
    ("Adagrad", {"lr": 0.1})])
def test_an_optimizer_step_changes_parameters_and_versions_as_pytorchs(name, kwargs):
    (w, tw) = both()
    for params, lib in (([w], optim), ([tw], torch.optim)):
        opt = getattr(lib, name)(params, **kwargs)
        for _ in range(3):
            opt.zero_grad()
            (params[0] * params[0] * params[0]).sum().backward()
            opt.step()
    same(w, tw)
    assert w._version == tw._version > 0
    assert w.is_leaf and w.grad_fn is None


def test_nn_init_fills_a_parameter_outside_no_grad_and_counts_a_version():
    layer = ag.nn.Linear(3, 2)
    before = layer.weight._version
    ag.nn.init.constant_(layer.weight, 0.5)
    assert layer.weight._version == before + 1
    assert (layer.weight.data == 0.5).all() and layer.weight.is_leaf


def test_a_graph_with_an_in_place_op_can_be_traced_and_drawn():
    (x, _) = both()
    y = x * 2
    y.add_(1)
    names = [type(node.grad_fn).__name__ for node in ag.trace(y.sum())[0] if node.grad_fn]
    assert names.count("Add") == 1 and names.count("Mul") == 1


def test_fill_works_in_place_and_returns_the_tensor():
    t = ag.zeros(2, 3)
    data = t.data
    out = t.fill_(4.5)
    assert out is t
    assert t.data is data
    np.testing.assert_array_equal(t.data, np.full((2, 3), 4.5))
    assert t.grad_fn is None and t.requires_grad is False


def test_fill_is_numpygrads_new_untracked_tensor_and_fill__changes_in_place():
    x = ag.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.fill(7.0)
    assert y is not x and y.grad_fn is None and not y.requires_grad
    np.testing.assert_array_equal(y.data, np.full((2, 2), 7.0))
    np.testing.assert_array_equal(x.data, [[1.0, 2.0], [3.0, 4.0]])
    with ag.no_grad():
        assert x.fill_(0.0) is x
    np.testing.assert_array_equal(x.data, np.zeros((2, 2)))
