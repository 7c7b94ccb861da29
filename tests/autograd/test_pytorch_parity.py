"""Engine behaviours where a student moving code between PyTorch and this engine could otherwise
get a different answer without an error: PyTorch is the oracle, float64 throughout."""

import numpy as np
import pytest

import autograd as ag
from autograd.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch


def both(array, requires_grad=True):
    """The same float64 leaf in each engine."""
    array = np.asarray(array, dtype=np.float64)
    return (ag.tensor(array.copy(), requires_grad=requires_grad),
            torch.tensor(array.copy(), requires_grad=requires_grad))


def close(ours, theirs, rtol=1e-12, atol=1e-12):
    ours = ours.data if isinstance(ours, ag.Tensor) else ours
    np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=rtol, atol=atol)


# ------------------------------------------------------------------ a second backward


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


# ------------------------------------------------------------------ .grad accumulates in place


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


# ------------------------------------------------------------------ hooks outlive their tensor


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


# ---------------------------------------------------------- second order without the tensors


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


# ------------------------------------------------------------------ grad mode on generators


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


# ---------------------------------------------------------- losses against torch.nn.functional


def check_loss(ours_fn, theirs_fn, inputs, targets, **kwargs):
    """Value and gradient (for a random upstream gradient when unreduced) in both engines."""
    ours_in, theirs_in = both(inputs)
    ours = ours_fn(ours_in, targets[0], **kwargs)
    theirs = theirs_fn(theirs_in, targets[1], **kwargs)
    close(ours, theirs)
    upstream = np.random.default_rng(9).standard_normal(ours.shape)
    ours.backward(upstream)
    theirs.backward(torch.tensor(upstream))
    close(ours_in.grad, theirs_in.grad)


REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_cross_entropy_with_class_indices(reduction, smoothing, rng):
    labels = np.array([0, 3, 1, 1, 2])
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal((5, 4)) * 3,
               (labels, torch.tensor(labels)), reduction=reduction, label_smoothing=smoothing)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_with_probability_targets(reduction, smoothing, rng):
    probs = rng.dirichlet(np.ones(4), size=5)
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal((5, 4)),
               (probs, torch.tensor(probs)), reduction=reduction, label_smoothing=smoothing)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_on_one_unbatched_row(reduction, rng):
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal(4),
               (np.array(2), torch.tensor(2)), reduction=reduction, label_smoothing=0.3)
    probs = rng.dirichlet(np.ones(4))
    check_loss(F.cross_entropy, TF.cross_entropy, rng.standard_normal(4),
               (probs, torch.tensor(probs)), reduction=reduction)


def test_cross_entropy_gives_the_gradient_of_a_probability_target_like_pytorch(rng):
    (z, tz), (p, tp) = both(rng.standard_normal((3, 4))), both(rng.dirichlet(np.ones(4), 3))
    F.cross_entropy(z, p, label_smoothing=0.1).backward()
    TF.cross_entropy(tz, tp, label_smoothing=0.1).backward()
    close(p.grad, tp.grad)
    close(z.grad, tz.grad)


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_second_derivatives_match_pytorch(reduction, smoothing, rng):
    labels = np.array([2, 0, 1])
    (z, tz) = both(rng.standard_normal((3, 4)))
    (g,) = ag.grad(F.cross_entropy(z, labels, reduction=reduction,
                                   label_smoothing=smoothing).sum(), [z], create_graph=True)
    (tg,) = torch.autograd.grad(TF.cross_entropy(tz, torch.tensor(labels), reduction=reduction,
                                                 label_smoothing=smoothing).sum(), [tz],
                                create_graph=True)
    close(g, tg)
    (g**2).sum().backward()
    (tg**2).sum().backward()
    close(z.grad, tz.grad)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss(reduction, rng):
    target = rng.standard_normal((3, 2))
    check_loss(F.mse_loss, TF.mse_loss, rng.standard_normal((3, 2)),
               (target, torch.tensor(target)), reduction=reduction)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy(reduction, rng):
    target = np.array([1.0, 0.0, 1.0, 0.3, 0.0, 1.0])
    probs = np.array([0.2, 0.7, 0.999, 0.5, 0.0, 1.0])  # the last two hit the -100 clamp
    check_loss(F.binary_cross_entropy, TF.binary_cross_entropy, probs,
               (target, torch.tensor(target)), reduction=reduction)


def test_binary_cross_entropy_gives_the_targets_gradient_like_pytorch(rng):
    (p, tp), (t, tt) = both(rng.uniform(0.05, 0.95, 5)), both(rng.uniform(0.0, 1.0, 5))
    F.binary_cross_entropy(p, t).backward()
    TF.binary_cross_entropy(tp, tt).backward()
    close(t.grad, tt.grad)
    close(p.grad, tp.grad)


@pytest.mark.parametrize("loss", ["mse_loss", "cross_entropy", "binary_cross_entropy"])
def test_every_loss_refuses_an_unknown_reduction(loss):
    x = ag.tensor([[0.2, 0.8]])
    target = np.array([1]) if loss == "cross_entropy" else np.array([[0.0, 1.0]])
    with pytest.raises(ValueError, match="'mean', 'sum' or 'none'"):
        getattr(F, loss)(x, target, reduction="average")


ZERO_DIM_OPS = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2"]


def _leaf(lib, array):
    return (ag.tensor(array.copy(), requires_grad=True) if lib is ag
            else torch.tensor(array.copy(), requires_grad=True))


@pytest.mark.parametrize("zero_first", [False, True])
@pytest.mark.parametrize("op", ZERO_DIM_OPS)
def test_a_float64_zero_dim_operand_keeps_a_float32_tensor_float32_as_in_pytorch(op, zero_first,
                                                                                   rng):
    """NumPy would compute x32 * s64 in float64; PyTorch keeps the dimensioned operand's dtype
    and gives the 0-d operand its gradient in its own dtype."""
    x = rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
    s = np.array(1.25)
    results = {}
    for lib in (ag, torch):
        xt, st = _leaf(lib, x), _leaf(lib, s)
        out = getattr(lib, op)(*((st, xt) if zero_first else (xt, st)))
        out.sum().backward()
        results[lib] = out, xt.grad, st.grad
    (out, gx, gs), (tout, tgx, tgs) = results[ag], results[torch]
    assert str(out.dtype) == str(tout.dtype).removeprefix("torch.") == "float32"
    assert str(gx.dtype) == "float32" and str(gs.dtype) == "float64" == str(tgs.dtype)[6:]
    close(out, tout, rtol=1e-6, atol=1e-6)
    close(gx, tgx, rtol=1e-5, atol=1e-6)
    close(gs, tgs, rtol=1e-5, atol=1e-5)


def test_where_and_comparisons_keep_the_dimensioned_operands_dtype_as_in_pytorch():
    x = np.array([0.1, 0.2, 0.3], np.float32)
    mask = np.array([True, False, True])
    ours = ag.where(mask, ag.tensor(x), ag.tensor(0.5))
    theirs = torch.where(torch.from_numpy(mask), torch.from_numpy(x), torch.tensor(0.5).double())
    assert str(ours.dtype) == "float32" and theirs.dtype == torch.float32
    # 0.1 as float32 is 0.10000000149 > 0.1: compared in float64 it would not be <= 0.1
    for compare in ("__le__", "__lt__", "__eq__", "__ge__", "__gt__", "__ne__"):
        got = getattr(ag.tensor(x), compare)(ag.tensor(0.1)).data
        want = getattr(torch.from_numpy(x), compare)(torch.tensor(0.1).double()).numpy()
        np.testing.assert_array_equal(got, want, err_msg=compare)


def test_a_zero_dim_operand_of_a_higher_category_still_promotes(rng):
    """An integer tensor times a float 0-d tensor is floating point, in both engines."""
    ours = ag.tensor(np.array([1, 2], np.int32)) * ag.tensor(2.5)
    theirs = torch.tensor([1, 2], dtype=torch.int32) * torch.tensor(2.5).double()
    assert str(ours.dtype) == "float64" and theirs.dtype == torch.float64
    close(ours, theirs)
