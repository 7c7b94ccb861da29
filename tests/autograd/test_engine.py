"""The engine's semantics: backward, accumulation, graph freeing, grad mode, hooks, custom ops."""

import asyncio
import gc
import threading
import tracemalloc
import weakref

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.vs_torch import both, same


class Square(ag.Function):
    """The custom op of the issue, written the way a student would."""

    def forward(self, x):
        self.save_for_backward(x)
        return x**2

    def backward(self, grad_output):
        (x,) = self.saved_tensors
        return 2 * x * grad_output


def test_readme_example_gives_the_documented_gradients_and_graph():
    a = ag.tensor([2.0], requires_grad=True)
    b = ag.tensor([3.0], requires_grad=True)
    c = a * b
    d = c + a
    d.backward(ag.ones_like(d))
    np.testing.assert_array_equal(a.grad.data, [4.0])
    np.testing.assert_array_equal(b.grad.data, [2.0])
    assert repr(a.grad) == "Tensor([4.])"
    assert repr(b.grad) == "Tensor([2.])"
    assert d.grad_fn.name == "Add"
    assert c.grad_fn.name == "Mul"
    assert repr(d.grad_fn) == "<Add>"
    assert isinstance(d.parents, tuple)
    assert len(d.parents) == 2
    assert d.parents[0] is c and d.parents[1] is a
    assert len(d.grad_fn.inputs) == 2
    assert d.grad_fn.inputs[0] is c and d.grad_fn.inputs[1] is a


def test_readme_example_also_works_through_sum():
    a = ag.tensor([2.0], requires_grad=True)
    b = ag.tensor([3.0], requires_grad=True)
    (a * b + a).sum().backward()
    assert a.grad.item() == 4.0 and b.grad.item() == 2.0


def test_parents_keep_their_order_even_when_repeated():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = ag.tensor([3.0, 4.0], requires_grad=True)
    assert [p is q for p, q in zip((y - x).parents, (y, x), strict=True)] == [True, True]
    square = x * x
    assert len(square.parents) == 2
    assert square.parents[0] is x and square.parents[1] is x


def test_using_a_tensor_twice_adds_both_contributions():
    x = ag.tensor(3.0, requires_grad=True)
    (x * x).backward()
    assert x.grad.item() == 6.0


def test_gradient_accumulates_across_backward_calls():
    x = ag.tensor([1.0, -2.0], requires_grad=True)
    (x * 3.0).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [3.0 + 2.0, 3.0 - 4.0])


def test_setting_grad_to_none_starts_accumulation_afresh():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    (x * 5.0).sum().backward()
    x.grad = None
    (x * 2.0).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [2.0, 2.0])


def test_accumulation_never_writes_into_the_callers_gradient_array():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    seed = np.array([1.0, 1.0])
    (x + 0.0).backward(seed)
    (x + 0.0).backward(seed)
    np.testing.assert_array_equal(seed, [1.0, 1.0])
    np.testing.assert_array_equal(x.grad.data, [2.0, 2.0])


def test_leaf_gradients_never_share_memory():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    b = ag.tensor([3.0, 4.0], requires_grad=True)
    (a + b).backward(np.array([1.0, 1.0]))
    a.grad.data[0] = 100.0
    np.testing.assert_array_equal(b.grad.data, [1.0, 1.0])


def test_non_leaf_grad_stays_none_without_retain_grad():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    (h * h).sum().backward()
    assert h.grad is None
    assert x.grad is not None


def test_retain_grad_keeps_an_intermediate_gradient():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    h.retain_grad()
    (h * h).sum().backward()
    np.testing.assert_array_equal(h.grad.data, 2 * h.data)
    np.testing.assert_array_equal(x.grad.data, 8 * x.data)


def test_retained_intermediate_gradient_accumulates_too():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    h.retain_grad()
    y = h.sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(h.grad.data, [2.0, 2.0])


@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (1, 1, 1)])
def test_a_one_element_output_seeds_backward_with_one(shape):
    x = ag.tensor(np.full(shape, 2.0), requires_grad=True)
    (x * 3.0).backward()
    assert x.grad.shape == shape
    np.testing.assert_array_equal(x.grad.data, np.full(shape, 3.0))


@pytest.mark.parametrize("shape", [(2,), (2, 3), (1, 2)])
def test_backward_on_a_non_scalar_without_gradient_raises_saying_a_gradient_is_needed(shape):
    y = ag.ones(shape, requires_grad=True) * 2.0
    with pytest.raises(RuntimeError, match="gradient"):
        y.backward()


@pytest.mark.parametrize(
    "gradient",
    [
        ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    ],
    ids=["tensor", "ndarray"],
)
def test_backward_accepts_the_gradient_as_a_tensor_or_array(gradient):
    x = ag.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    (x * x).backward(gradient)
    np.testing.assert_array_equal(x.grad.data, 2 * x.data * np.arange(1.0, 7.0).reshape(2, 3))


@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
def test_backward_accepts_a_number_as_the_gradient_of_a_one_element_output(shape):
    x = ag.tensor(np.full(shape, 3.0), requires_grad=True)
    (x * x).backward(2.5)
    assert x.grad.shape == shape
    assert x.grad.item() == 15.0


def test_backward_with_a_wrongly_shaped_gradient_is_a_clear_error():
    y = ag.ones(2, 3, requires_grad=True) * 2.0
    with pytest.raises((RuntimeError, ValueError)) as info:
        y.backward(np.ones((3, 2)))
    assert "(2, 3)" in str(info.value)
    assert "(3, 2)" in str(info.value)


def test_backward_on_a_tensor_that_does_not_require_grad_raises():
    x = ag.tensor([1.0, 2.0])
    y = (x * 2.0).sum()
    with pytest.raises(RuntimeError, match="require"):
        y.backward()


def test_second_backward_through_a_freed_graph_says_to_retain_the_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=r"retain_graph=True"):
        y.backward()


def test_a_freed_subgraph_used_by_a_new_graph_also_says_to_retain_the_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x.tanh() * x
    h.sum().backward()
    with pytest.raises(RuntimeError, match=r"retain_graph=True"):
        (h * 2.0).sum().backward()


def test_retain_graph_allows_a_second_backward_that_accumulates():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.data.copy()
    y.backward()
    np.testing.assert_allclose(x.grad.data, 2 * first)
    np.testing.assert_allclose(first, np.exp(x.data) * (1 + x.data))


def test_grad_of_a_leaf_does_not_require_grad_without_create_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    (x**3).sum().backward()
    assert x.grad.requires_grad is False
    assert x.grad.grad_fn is None


def test_create_graph_gives_second_derivatives_of_a_cube():
    x = ag.tensor(2.0, requires_grad=True)
    (x**3).backward(create_graph=True)
    first = x.grad
    assert first.item() == pytest.approx(12.0)
    assert first.requires_grad is True
    x.grad = None
    first.backward(create_graph=True)
    second = x.grad
    assert second.item() == pytest.approx(12.0)
    x.grad = None
    second.backward()
    assert x.grad.item() == pytest.approx(6.0)


def test_create_graph_retains_the_graph_by_default():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x.sin() * x).sum()
    y.backward(create_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.data, 2 * (np.cos(x.data) * x.data + np.sin(x.data)))


def test_hessian_vector_product_of_tanh_matches_its_closed_form(rng):
    data = rng.uniform(-2.0, 2.0, 5)
    v = rng.standard_normal(5)
    x = ag.tensor(data, requires_grad=True)
    (g,) = ag.grad(x.tanh().sum(), [x], create_graph=True)
    np.testing.assert_allclose(g.data, 1 - np.tanh(data) ** 2)
    (hv,) = ag.grad((g * ag.tensor(v)).sum(), [x])
    t = np.tanh(data)
    np.testing.assert_allclose(hv.data, -2 * t * (1 - t**2) * v, rtol=1e-12)


def test_hessian_vector_product_through_matmul_matches_its_closed_form(rng):
    w = rng.standard_normal((3, 4))
    data = rng.standard_normal(4)
    v = rng.standard_normal(4)
    x = ag.tensor(data, requires_grad=True)
    (g,) = ag.grad((ag.tensor(w) @ x).tanh().sum(), [x], create_graph=True)
    x.grad = None
    (g * ag.tensor(v)).sum().backward()
    t = np.tanh(w @ data)
    hessian = w.T @ np.diag(-2 * t * (1 - t**2)) @ w
    np.testing.assert_allclose(x.grad.data, hessian @ v, rtol=1e-10)


def test_custom_function_supports_double_backward():
    x = ag.tensor([1.0, -3.0], requires_grad=True)
    (g,) = ag.grad(Square.apply(x).sum(), [x], create_graph=True)
    np.testing.assert_array_equal(g.data, [2.0, -6.0])
    g.sum().backward()
    np.testing.assert_array_equal(x.grad.data, [2.0, 2.0])


def test_grad_returns_gradients_without_touching_dot_grad():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    w = ag.tensor([3.0, 4.0], requires_grad=True)
    w.grad = ag.tensor([10.0, 10.0])
    gx, gw = ag.grad((x * w).sum(), [x, w])
    np.testing.assert_array_equal(gx.data, [3.0, 4.0])
    np.testing.assert_array_equal(gw.data, [1.0, 2.0])
    assert x.grad is None
    np.testing.assert_array_equal(w.grad.data, [10.0, 10.0])
    assert gx.requires_grad is False


def test_grad_returns_a_tuple_for_a_single_input():
    x = ag.tensor(3.0, requires_grad=True)
    result = ag.grad(x * x, x)
    assert isinstance(result, tuple) and len(result) == 1
    assert result[0].item() == 6.0


def test_grad_uses_grad_outputs_for_non_scalar_outputs(rng):
    x = ag.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    upstream = rng.standard_normal((2, 3))
    (gx,) = ag.grad([x * x], [x], grad_outputs=[ag.tensor(upstream)])
    np.testing.assert_allclose(gx.data, 2 * x.data * upstream)


def test_grad_of_a_non_scalar_without_grad_outputs_raises():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="gradient"):
        ag.grad(x * 2.0, [x])


def test_grad_with_several_outputs_adds_their_gradients():
    x = ag.tensor(2.0, requires_grad=True)
    (gx,) = ag.grad([x * x, x * 3.0], [x])
    assert gx.item() == 7.0


def test_grad_for_an_unused_input_raises_unless_allow_unused():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    unused = ag.tensor([5.0], requires_grad=True)
    y = (x * 2.0).sum()
    with pytest.raises(RuntimeError, match="allow_unused=True"):
        ag.grad(y, [x, unused], retain_graph=True)
    gx, gu = ag.grad(y, [x, unused], allow_unused=True)
    np.testing.assert_array_equal(gx.data, [2.0, 2.0])
    assert gu is None


def test_grad_with_respect_to_an_intermediate_tensor():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    (gh,) = ag.grad((h * h).sum(), [h])
    np.testing.assert_array_equal(gh.data, 2 * h.data)
    assert h.grad is None and x.grad is None


def test_grad_frees_the_graph_unless_retained():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * 2.0).sum()
    ag.grad(y, [x], retain_graph=True)
    ag.grad(y, [x])
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        ag.grad(y, [x])


def test_grad_with_create_graph_returns_differentiable_gradients():
    x = ag.tensor(1.5, requires_grad=True)
    (g,) = ag.grad(x.sin(), [x], create_graph=True)
    assert g.requires_grad is True
    (g2,) = ag.grad(g, [x])
    assert g2.item() == pytest.approx(-np.sin(1.5), rel=1e-12)


def test_create_graph_gives_the_same_first_derivatives(rng):
    data = rng.standard_normal((3, 4))
    w = rng.standard_normal((4, 2))

    def loss(x):
        return ((x @ ag.tensor(w)).tanh().softmax(-1) * x[:, :2].exp()).max(axis=0).sum()

    plain = ag.tensor(data, requires_grad=True)
    loss(plain).backward()
    graphed = ag.tensor(data, requires_grad=True)
    loss(graphed).backward(create_graph=True)
    np.testing.assert_allclose(graphed.grad.data, plain.grad.data, rtol=1e-14, atol=1e-15)


def test_no_grad_stops_recording():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    assert ag.is_grad_enabled() is True
    with ag.no_grad():
        assert ag.is_grad_enabled() is False
        y = x * 2.0 + x.exp()
        z = Square.apply(x)
    assert ag.is_grad_enabled() is True
    for t in (y, z):
        assert t.requires_grad is False
        assert t.grad_fn is None
        assert t.is_leaf is True
    np.testing.assert_allclose(y.data, 2 * x.data + np.exp(x.data))


def test_no_grad_works_as_a_decorator():
    x = ag.tensor([1.0, 2.0], requires_grad=True)

    @ag.no_grad()
    def double(t):
        assert ag.is_grad_enabled() is False
        return t * 2.0

    y = double(x)
    assert y.requires_grad is False
    assert ag.is_grad_enabled() is True
    assert double(x).requires_grad is False


def test_enable_grad_records_again_inside_no_grad():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with ag.no_grad():
        with ag.enable_grad():
            assert ag.is_grad_enabled() is True
            y = x * 2.0
        assert ag.is_grad_enabled() is False
        z = x * 2.0
    assert y.requires_grad is True and y.grad_fn is not None
    assert z.requires_grad is False


def test_enable_grad_works_as_a_decorator_inside_no_grad():
    @ag.enable_grad()
    def recorded(t):
        return t * 2.0

    x = ag.tensor([1.0], requires_grad=True)
    with ag.no_grad():
        assert recorded(x).requires_grad is True


def test_nested_no_grad_restores_each_level():
    with ag.no_grad():
        with ag.no_grad():
            assert ag.is_grad_enabled() is False
        assert ag.is_grad_enabled() is False
    assert ag.is_grad_enabled() is True


def test_grad_mode_is_restored_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with ag.no_grad():
            raise ZeroDivisionError
    assert ag.is_grad_enabled() is True


def run_in_threads(*targets):
    errors = []

    def guarded(target):
        try:
            target()
        except BaseException as error:  # noqa: BLE001 - reported in the main thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    if errors:
        raise errors[0]


def test_no_grad_in_one_thread_does_not_leak_into_another_running_concurrently():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    barrier = threading.Barrier(2, timeout=10)
    seen = {}

    def quiet():
        with ag.no_grad():
            barrier.wait()  # the other thread now runs while this one is inside no_grad
            barrier.wait()
            seen["quiet"] = (ag.is_grad_enabled(), (x * 2.0).requires_grad)

    def busy():
        barrier.wait()
        seen["busy"] = (ag.is_grad_enabled(), (x * 2.0).requires_grad)
        barrier.wait()

    run_in_threads(quiet, busy)
    assert seen == {"quiet": (False, False), "busy": (True, True)}
    assert ag.is_grad_enabled() is True


def test_enable_grad_in_one_thread_does_not_leak_into_another_under_no_grad():
    x = ag.tensor([1.0], requires_grad=True)
    barrier = threading.Barrier(2, timeout=10)
    seen = {}

    def outer():
        with ag.no_grad():
            barrier.wait()
            barrier.wait()
            seen["outer"] = (x * 2.0).requires_grad

    def inner():
        with ag.no_grad(), ag.enable_grad():
            barrier.wait()
            seen["inner"] = (x * 2.0).requires_grad
            barrier.wait()

    run_in_threads(outer, inner)
    assert seen == {"outer": False, "inner": True}


def test_no_grad_in_one_asyncio_task_does_not_leak_into_another():
    async def main():
        inside = asyncio.Event()
        done = asyncio.Event()
        seen = {}

        async def quiet():
            with ag.no_grad():
                inside.set()
                await done.wait()
                seen["quiet"] = ag.is_grad_enabled()

        async def busy():
            await inside.wait()
            seen["busy"] = ag.is_grad_enabled()
            done.set()

        await asyncio.gather(quiet(), busy())
        return seen

    assert asyncio.run(main()) == {"quiet": False, "busy": True}


def test_detach_cuts_the_graph_but_keeps_the_values():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    d = h.detach()
    assert d.requires_grad is False and d.grad_fn is None and d.is_leaf is True
    np.testing.assert_array_equal(d.data, h.data)
    (x * d).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [3.0, 6.0])


def test_requires_grad_underscore_turns_a_leaf_into_a_parameter_in_place():
    t = ag.tensor([1.0, 2.0])
    assert t.requires_grad_() is t
    assert t.requires_grad is True
    (t * t).sum().backward()
    np.testing.assert_array_equal(t.grad.data, [2.0, 4.0])


def test_requires_grad_underscore_on_an_integer_tensor_raises_type_error():
    with pytest.raises(TypeError, match="float"):
        ag.tensor(np.arange(3)).requires_grad_()


def test_a_tensor_computed_only_from_tensors_without_grad_is_a_leaf():
    a = ag.tensor([1.0, 2.0])
    b = (a * 2.0).exp() + ag.tensor([3.0, 4.0])
    assert b.requires_grad is False
    assert b.grad_fn is None
    assert b.is_leaf is True
    assert b.parents == ()


def test_a_result_requires_grad_if_any_input_does():
    a = ag.tensor([1.0, 2.0])
    w = ag.tensor([3.0, 4.0], requires_grad=True)
    y = a * w
    assert y.requires_grad is True and y.is_leaf is False
    y.sum().backward()
    assert a.grad is None
    np.testing.assert_array_equal(w.grad.data, a.data)


def test_hook_on_a_leaf_sees_the_gradient():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.data.copy()))
    (x * 3.0).sum().backward()
    assert len(seen) == 1
    np.testing.assert_array_equal(seen[0], [3.0, 3.0])
    np.testing.assert_array_equal(x.grad.data, [3.0, 3.0])


def test_hook_on_a_leaf_sees_each_new_gradient_not_the_accumulated_one():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.data.copy()))
    (x * 3.0).sum().backward()
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(seen, [[3.0, 3.0], [3.0, 3.0]])
    np.testing.assert_array_equal(x.grad.data, [6.0, 6.0])


def test_hook_on_a_leaf_may_replace_the_gradient():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 2.0)
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [6.0, 6.0])


def test_hook_on_an_intermediate_sees_and_replaces_the_gradient_flowing_on():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    seen = []

    def hook(g):
        seen.append(g.data.copy())
        return g * 10.0

    h.register_hook(hook)
    (h * 2.0 + h * 5.0).sum().backward()
    assert len(seen) == 1
    np.testing.assert_array_equal(seen[0], [7.0, 7.0])
    np.testing.assert_array_equal(x.grad.data, [210.0, 210.0])
    assert h.grad is None


def test_hook_returning_none_leaves_the_gradient_unchanged():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    calls = []
    h.register_hook(lambda g: calls.append(1))
    h.sum().backward()
    assert calls == [1]
    np.testing.assert_allclose(x.grad.data, np.exp(x.data))


def test_custom_function_written_as_in_the_issue(rng):
    data = rng.standard_normal((2, 3))
    upstream = rng.standard_normal((2, 3))
    for call in (lambda x: Square()(x), Square.apply):
        x = ag.tensor(data, requires_grad=True)
        y = call(x)
        assert isinstance(y, ag.Tensor)
        assert y.grad_fn.name == "Square"
        assert y.parents[0] is x
        np.testing.assert_allclose(y.data, data**2)
        y.backward(upstream)
        np.testing.assert_allclose(x.grad.data, 2 * data * upstream)


def test_custom_function_gradient_with_a_broadcast_shape_is_reduced_by_the_engine(rng):
    class Tile(ag.Function):
        """Broadcasts x against a (3, 4) grid; backward hands back the grid-shaped gradient."""

        def forward(self, x):
            return np.broadcast_to(x, (3, 4)) * 2.0

        def backward(self, grad_output):
            return grad_output * 2.0

    upstream = rng.standard_normal((3, 4))
    for shape, axes in (((3, 1), (1,)), ((4,), (0,)), ((1, 4), (0,)), ((), (0, 1))):
        x = ag.tensor(np.ones(shape), requires_grad=True)
        Tile.apply(x).backward(upstream)
        assert x.grad.shape == shape
        expected = (2.0 * upstream).sum(axis=axes).reshape(shape)
        np.testing.assert_allclose(x.grad.data, expected)


def test_custom_function_with_two_inputs_may_return_none_for_one():
    class ScaleBy(ag.Function):
        def forward(self, x, scale):
            self.save_for_backward(scale)
            return x * scale

        def backward(self, grad_output):
            (scale,) = self.saved_tensors
            return grad_output * scale, None

    x = ag.tensor([1.0, 2.0], requires_grad=True)
    scale = ag.tensor([3.0, 4.0], requires_grad=True)
    ScaleBy.apply(x, scale).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [3.0, 4.0])
    assert scale.grad is None or np.array_equal(scale.grad.data, [0.0, 0.0])


def test_custom_function_returning_the_wrong_number_of_gradients_is_an_error():
    class Broken(ag.Function):
        def forward(self, x, y):
            return x + y

        def backward(self, grad_output):
            return grad_output

    x = ag.tensor([1.0], requires_grad=True)
    y = ag.tensor([2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="gradient"):
        Broken.apply(x, y).sum().backward()


def test_gradients_keep_float32():
    x = ag.tensor(np.array([0.5, -1.0, 2.0], dtype=np.float32), requires_grad=True)
    w = ag.tensor(np.ones((3, 2), dtype=np.float32), requires_grad=True)
    loss = ((x @ w).tanh() * 2.0 + 1.0).softmax(-1).log().sum()
    assert loss.dtype == np.float32
    loss.backward()
    assert x.grad.dtype == np.float32 and w.grad.dtype == np.float32
    assert x.grad.shape == (3,) and w.grad.shape == (3, 2)


def test_create_graph_gradients_keep_float32():
    x = ag.tensor(np.array([0.5, -1.0], dtype=np.float32), requires_grad=True)
    (x.tanh() * x).sum().backward(create_graph=True)
    first = x.grad
    assert first.dtype == np.float32 and first.requires_grad
    x.grad = None
    first.sum().backward()
    assert x.grad.dtype == np.float32


def test_backward_on_a_leaf_itself_gives_one():
    x = ag.tensor([4.0], requires_grad=True)
    x.backward()
    np.testing.assert_array_equal(x.grad.data, [1.0])


def test_each_gradient_has_its_own_tensors_dtype_when_precisions_mix():
    x32 = ag.tensor(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
    y64 = ag.tensor(np.array([3.0, 4.0]), requires_grad=True)
    out = x32 * y64
    assert out.dtype == np.float64
    out.backward(np.array([1.0, 1.0]))
    assert x32.grad.dtype == np.float32
    assert y64.grad.dtype == np.float64
    np.testing.assert_array_equal(x32.grad.data, [3.0, 4.0])


def test_a_float64_seed_does_not_change_a_float32_gradient():
    x = ag.tensor(np.ones((2, 2), dtype=np.float32), requires_grad=True)
    (x * 3.0).backward(np.full((2, 2), 0.5, dtype=np.float64))
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.data, np.full((2, 2), 1.5))


@pytest.mark.parametrize(
    ("shape_x", "shape_y"),
    [((3, 1), (4,)), ((), (2, 3)), ((2, 1, 3), (4, 1)), ((1,), (5, 1))],
)
def test_gradients_have_their_tensors_shape_after_broadcasting(shape_x, shape_y):
    x = ag.ones(shape_x, requires_grad=True)
    y = ag.ones(shape_y, requires_grad=True)
    out = x * 2.0 + y * 3.0
    out.backward(np.ones(out.shape))
    assert x.grad.shape == shape_x and y.grad.shape == shape_y
    scale = out.size
    np.testing.assert_array_equal(x.grad.data, np.full(shape_x, 2.0 * scale / x.size))
    np.testing.assert_array_equal(y.grad.data, np.full(shape_y, 3.0 * scale / y.size))


def test_a_chain_of_100000_ops_backpropagates_without_recursion_error():
    x = ag.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.00001
    y.backward()
    assert x.grad.item() == pytest.approx(1.00001**100_000, rel=1e-9)
    del y  # dropping the chain must not overflow the stack either


def test_a_wide_and_deep_graph_backpropagates_once_per_node():
    x = ag.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(2_000):
        y = y * 0.5 + y * 0.5  # each node is used twice: a naive walk would visit 2**2000 paths
    y.backward()
    assert x.grad.item() == pytest.approx(1.0)


class gc_disabled:
    """Turn the cyclic garbage collector off, so only reference counting frees objects."""

    def __enter__(self):
        gc.collect()
        gc.disable()

    def __exit__(self, *exc):
        gc.enable()


def test_dropping_the_root_frees_the_whole_graph_without_the_garbage_collector():
    with gc_disabled():
        x = ag.tensor(np.ones(4), requires_grad=True)
        h = x * 2.0
        t = h.tanh()
        root = (t @ t).exp()
        refs = [weakref.ref(obj) for obj in (h, t, root, h.grad_fn, t.grad_fn, root.grad_fn)]
        del h, t, root
        assert [r() for r in refs] == [None] * len(refs)


def test_dropping_the_root_after_backward_frees_the_graph():
    with gc_disabled():
        x = ag.tensor(np.ones(4), requires_grad=True)
        h = x.sigmoid()
        h.retain_grad()
        h.register_hook(lambda g: g)
        root = (h * x).sum()
        root.backward(retain_graph=True)
        refs = [weakref.ref(obj) for obj in (h, root, h.grad_fn, root.grad_fn)]
        del h, root
        assert [r() for r in refs] == [None] * len(refs)
        assert x.grad is not None


def test_dropping_a_custom_function_graph_frees_it():
    with gc_disabled():
        x = ag.tensor([1.0, 2.0], requires_grad=True)
        y = Square.apply(x)
        z = Square.apply(y)
        refs = [weakref.ref(obj) for obj in (y, z, y.grad_fn, z.grad_fn)]
        del y, z
        assert [r() for r in refs] == [None] * len(refs)


class SavesItsCosine(ag.Function):
    """sin(x), saving a fresh array that nothing else refers to."""

    def forward(self, x):
        self.save_for_backward(np.cos(x))
        return np.sin(x)

    def backward(self, grad_output):
        (cos,) = self.saved_tensors
        return grad_output * cos


def test_backward_releases_the_saved_buffers_while_the_root_is_alive():
    with gc_disabled():
        x = ag.tensor(np.linspace(0.0, 1.0, 1000), requires_grad=True)
        y = SavesItsCosine.apply(x)
        saved = weakref.ref(y.grad_fn.saved_tensors[0].data)
        root = y.sum()
        root.backward(retain_graph=True)
        assert saved() is not None
        root.backward()
        assert saved() is None
        np.testing.assert_allclose(x.grad.data, 2 * np.cos(x.data))
        assert root.grad_fn is not None


def fill_tuple_free_lists():
    """CPython keeps up to 2,000 freed tuples of each small size for reuse, and tracemalloc counts
    them: fill those caches first, so that their filling does not look like a leak."""
    spare = [tuple([i] * size) for size in range(1, 20) for i in range(2_100)]
    del spare


def test_training_a_small_model_keeps_memory_flat():
    rng = np.random.default_rng(0)
    inputs = ag.tensor(rng.standard_normal((16, 2)))
    targets = ag.tensor(rng.standard_normal((16, 1)))
    params = [
        ag.tensor(rng.standard_normal((2, 8)) * 0.5, requires_grad=True),
        ag.zeros(8, requires_grad=True),
        ag.tensor(rng.standard_normal((8, 1)) * 0.5, requires_grad=True),
        ag.zeros(1, requires_grad=True),
    ]

    def step():
        w1, b1, w2, b2 = params
        hidden = (inputs @ w1 + b1).tanh()
        loss = ((hidden @ w2 + b2 - targets) ** 2).mean()
        loss.backward()
        with ag.no_grad():
            for p in params:
                p.data -= 0.05 * p.grad.data
                p.grad = None
        return loss.item()

    with gc_disabled():
        fill_tuple_free_lists()
        tracemalloc.start()
        try:
            first_loss = [step() for _ in range(200)][0]
            current_200, peak_200 = tracemalloc.get_traced_memory()
            for _ in range(1800):
                last_loss = step()
            current_2000, peak_2000 = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert last_loss < first_loss
    assert current_2000 - current_200 < 16_000
    assert peak_2000 - peak_200 < 16_000


@pytest.mark.torch
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


@pytest.mark.torch
def test_backward_of_one_root_and_with_create_graph():
    (x, tx) = both([0.5, -1.0])
    ag.backward((x ** 3).sum(), create_graph=True)
    torch.autograd.backward((tx ** 3).sum(), create_graph=True)
    same(x.grad, tx.grad)
    assert x.grad.requires_grad and tx.grad.requires_grad


@pytest.mark.torch
def test_backward_names_the_root_that_does_not_require_grad_and_counts_gradients():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="element 1 of tensors does not require grad"):
        ag.backward([x.sum(), ag.tensor(2.0)])
    with pytest.raises(ValueError, match="backward got 1 tensors but 2 grad_tensors"):
        ag.backward([x.sum()], [None, None])
    with pytest.raises(RuntimeError, match="needs a gradient argument for an output of shape"):
        ag.backward([x * 2, x.sum()])
