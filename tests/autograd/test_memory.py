"""What a graph keeps alive: only what backward needs, plus small inputs; a large intermediate the
caller dropped is freed at once, and introspection shows a stand-in for it."""

import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import autograd as ag

BIG = (64, 256)  # 16,384 elements, far above Function's KEPT_ELEMENTS


class gc_disabled:
    """Only reference counting frees objects inside: a freed array is freed by the design."""

    def __enter__(self):
        gc.collect()
        gc.disable()

    def __exit__(self, *exc):
        gc.enable()


def layer(rng):
    x = ag.tensor(rng.standard_normal((BIG[0], 32)))
    w = ag.tensor(rng.standard_normal((32, BIG[1])), requires_grad=True)
    b = ag.tensor(rng.standard_normal(BIG[1]), requires_grad=True)
    return x, w, b


def test_a_large_intermediate_backward_does_not_need_is_freed_when_the_caller_drops_it(rng):
    with gc_disabled():
        x, w, b = layer(rng)
        product = x @ w  # Add needs neither operand's values, so nothing saves this one
        freed = weakref.ref(product.data)
        loss = (product + b).relu().sum()
        del product
        assert freed() is None
        loss.backward()
        np.testing.assert_allclose(b.grad.data, ((x.data @ w.data + b.data) > 0).sum(axis=0))


def test_an_intermediate_the_caller_holds_is_its_parent_still(rng):
    x, w, b = layer(rng)
    product = x @ w
    out = product + b
    assert out.parents[0] is product and out.parents[1] is b
    assert out.grad_fn.inputs[0] is product


def test_a_dropped_intermediate_shows_as_a_freed_stand_in_and_the_walk_reaches_the_leaves(rng):
    x, w, b = layer(rng)
    out = (x @ w) + b
    stand_in, bias = out.parents
    assert bias is b
    assert stand_in.name == "(freed)"
    assert stand_in.shape == BIG and stand_in.dtype == np.float64
    assert np.isnan(stand_in.data).all() and not stand_in.data.flags.writeable
    assert stand_in.grad_fn.name == "MatMul" and stand_in.parents[1] is w
    nodes, edges = ag.trace(out)
    assert [node.name for node in nodes].count("(freed)") == 1
    assert any(node is w for node in nodes) and any(node is x for node in nodes)
    assert out.parents[0] is stand_in  # the same stand-in while someone holds it


def test_a_dropped_intermediate_whose_function_saved_it_shows_its_values(rng):
    data = rng.standard_normal(BIG)
    x = ag.tensor(data, requires_grad=True)
    out = x.exp() + 1.0
    shown = out.parents[0]
    assert shown.name is None and shown.grad_fn.name == "Exp"
    np.testing.assert_array_equal(shown.data, np.exp(data))


def test_a_small_intermediate_is_kept_so_drawings_show_every_value():
    def classic():
        a = ag.tensor([2.0], requires_grad=True)
        b = ag.tensor([3.0], requires_grad=True)
        c = a * b
        return c + a

    d = classic()
    c = d.parents[0]
    assert c.name is None and c.data.tolist() == [6.0] and c.grad_fn.name == "Mul"


def test_a_large_constant_is_held_weakly_and_a_number_is_kept(rng):
    x, w, b = layer(rng)
    h = x @ w
    out = h + ag.tensor(np.ones(BIG)) + 2.0
    inner, number = out.parents
    assert number.item() == 2.0
    assert inner.parents[0] is h
    constant = inner.parents[1]
    assert constant.name == "(freed)" and constant.shape == BIG and constant.grad_fn is None


def test_backward_frees_saved_values_function_by_function_so_the_peak_is_lower(rng):
    """The peak of forward + backward falls by about the product's size when the graph does not
    keep the product of x @ w alive (the old engine kept every intermediate)."""
    x, w, b = layer(rng)

    def step(hold):
        held = []
        product = x @ w
        if hold:
            held.append(product)
        loss = (product + b).tanh().sum()
        del product
        loss.backward()
        w.grad = b.grad = None

    def peak(hold):
        step(hold)
        gc.collect()
        tracemalloc.start()
        try:
            step(hold)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    product_bytes = BIG[0] * BIG[1] * 8
    assert peak(hold=True) - peak(hold=False) > 0.9 * product_bytes


def test_a_leaf_that_requires_grad_is_kept_by_the_graph_even_if_the_caller_drops_it():
    with gc_disabled():
        w = ag.tensor(np.ones(BIG), requires_grad=True)
        leaf = weakref.ref(w)
        loss = (w * 2.0).sum()
        del w
        assert leaf() is not None
        loss.backward()
        np.testing.assert_array_equal(leaf().grad.data, np.full(BIG, 2.0))


@pytest.mark.parametrize("retain", [False, True])
def test_dropping_the_root_frees_a_graph_with_large_tensors_without_the_collector(rng, retain):
    with gc_disabled():
        x, w, b = layer(rng)
        h = (x @ w + b).tanh()
        h.register_hook(lambda g: g)
        root = (h * h).sum()
        root.backward(retain_graph=retain)
        refs = [weakref.ref(obj) for obj in (h, root, h.grad_fn, root.grad_fn)]
        del h, root
        assert [r() for r in refs] == [None] * len(refs)


def test_a_students_tensor_subclass_flows_through_the_graph_like_a_tensor():
    class Parameter(ag.Tensor):
        pass

    w = Parameter(np.array([1.0, 2.0]), requires_grad=True)
    h = w * 3.0
    (h * w).sum().backward()
    np.testing.assert_array_equal(w.grad.data, 6.0 * w.data)
    assert h.parents[0] is w


def test_an_sgd_step_makes_no_parameter_sized_temporary():
    w = ag.tensor(np.ones((256, 256)), requires_grad=True)
    (w * 2.0).sum().backward()
    opt = ag.optim.SGD([w], lr=0.1)
    opt.step()  # the first step makes the buffer it then reuses
    gc.collect()
    tracemalloc.start()
    try:
        opt.step()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < w.data.nbytes / 4
    np.testing.assert_allclose(w.data, 1.0 - 2 * 0.2)
