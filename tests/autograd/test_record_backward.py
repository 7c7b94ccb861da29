"""record_backward: the tape of a backward pass, one step per Function in the engine's order."""

import threading

import numpy as np

import autograd as ag


def classic():
    a = ag.tensor(2.0, requires_grad=True, name="a")
    b = ag.tensor(3.0, requires_grad=True, name="b")
    c = a * b
    d = c + a
    return a, b, c, d


def test_the_tape_lists_each_function_in_the_order_backward_ran_it():
    a, b, c, d = classic()
    with ag.record_backward() as tape:
        d.backward()
    assert [step.op for step in tape] == ["Add", "Mul"]
    add, mul = tape
    assert add.output is d and add.function is d.grad_fn
    assert mul.output is c and mul.function is c.grad_fn
    assert add.inputs == (c, a) and mul.inputs == (a, b)
    assert add.grad_output == 1.0 and mul.grad_output == 1.0
    assert [float(g) for g in add.grad_inputs] == [1.0, 1.0]
    assert [float(g) for g in mul.grad_inputs] == [3.0, 2.0]


def test_a_leafs_gradient_is_the_sum_of_the_contributions_that_reached_it():
    a, b, c, d = classic()
    with ag.record_backward() as tape:
        d.backward()
    reaching_a = [g for step in tape for x, g in zip(step.inputs, step.grad_inputs) if x is a]
    assert len(reaching_a) == 2 and sum(reaching_a) == a.grad.item() == 4.0


def test_input_gradients_are_already_summed_over_broadcast_axes():
    x = ag.tensor(np.ones((2, 3)), requires_grad=True)
    bias = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with ag.record_backward() as tape:
        (x + bias).sum().backward()
    add = tape[-1]
    assert add.op == "Add"
    assert add.grad_output.shape == (2, 3)
    assert [g.shape for g in add.grad_inputs] == [(2, 3), (3,)]
    np.testing.assert_array_equal(add.grad_inputs[1], [2.0, 2.0, 2.0])


def test_inputs_without_a_gradient_get_none():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with ag.record_backward() as tape:
        (x * ag.tensor([3.0, 4.0])).sum().backward()
    mul = tape[-1]
    np.testing.assert_array_equal(mul.grad_inputs[0], [3.0, 4.0])
    assert mul.grad_inputs[1] is None


def test_a_dropped_intermediate_is_not_kept_alive_by_the_tape():
    w = ag.randn(2000, 3, requires_grad=True)
    loss = (w @ ag.randn(3)).tanh().sum()  # w @ x has 2,000 elements: tanh holds it weakly
    with ag.record_backward() as tape:
        loss.backward()
    assert [step.op for step in tape] == ["Sum", "Tanh", "MatMul"]
    assert tape[0].output is loss and tape[-1].output is None
    assert tape[-1].grad_inputs[0].shape == (2000, 3)


def test_recorded_arrays_are_copies_that_later_passes_never_change():
    a, b, c, d = classic()
    with ag.record_backward() as tape:
        d.backward(retain_graph=True)
    d.backward()
    assert a.grad.item() == 8.0
    assert [float(g) for g in tape[1].grad_inputs] == [3.0, 2.0]


def test_create_graph_passes_are_recorded_as_arrays_too():
    x = ag.tensor(1.5, requires_grad=True)
    with ag.record_backward() as tape:
        (g,) = ag.grad((x * x * x), x, create_graph=True)
    assert all(isinstance(step.grad_output, np.ndarray) for step in tape)
    assert g.item() == 3 * 1.5**2


def test_nothing_is_recorded_outside_the_block_or_in_another_thread():
    a, b, c, d = classic()
    seen = []
    with ag.record_backward() as tape:
        worker = threading.Thread(target=lambda: seen.append(classic()[3].backward()))
        worker.start()
        worker.join()
    d.backward()
    assert tape == []
