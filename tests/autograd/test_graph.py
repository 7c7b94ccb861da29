"""trace(root): every tensor once, inputs first, and edges in the direction data flows."""

import autograd as ag


def ids(tensors):
    return [id(t) for t in tensors]


def edge_ids(edges):
    return [(id(a), id(b)) for a, b in edges]


def classic():
    a = ag.tensor([2.0], requires_grad=True, name="a")
    b = ag.tensor([3.0], requires_grad=True, name="b")
    c = a * b
    d = c + a
    return a, b, c, d


def test_nodes_come_inputs_first_with_parents_in_the_order_the_op_received_them():
    a, b, c, d = classic()
    nodes, _ = ag.trace(d)
    assert ids(nodes) == ids([a, b, c, d])


def test_edges_run_from_input_to_output_grouped_by_output_in_parent_order():
    a, b, c, d = classic()
    _, edges = ag.trace(d)
    assert edge_ids(edges) == edge_ids([(a, c), (b, c), (c, d), (a, d)])


def test_a_tensor_used_twice_by_one_op_is_listed_once_with_two_edges():
    x = ag.tensor(3.0, requires_grad=True)
    y = x * x
    nodes, edges = ag.trace(y)
    assert ids(nodes) == ids([x, y])
    assert edge_ids(edges) == edge_ids([(x, y), (x, y)])


def test_a_diamond_lists_the_shared_input_once_before_both_branches():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    left = x.exp()
    right = x.sin()
    out = left + right
    nodes, edges = ag.trace(out)
    assert ids(nodes) == ids([x, left, right, out])
    assert len(edges) == 4


def test_a_leaf_traces_to_itself_alone():
    a = ag.tensor([1.0], requires_grad=True)
    nodes, edges = ag.trace(a)
    assert ids(nodes) == [id(a)]
    assert edges == []


def test_trace_order_is_the_same_on_every_call():
    *_, d = classic()
    first = ag.trace(d)
    second = ag.trace(d)
    assert ids(first[0]) == ids(second[0])
    assert edge_ids(first[1]) == edge_ids(second[1])


def test_a_chain_of_100000_ops_traces_without_recursion_error():
    x = ag.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = -y
    nodes, edges = ag.trace(y)
    assert len(nodes) == 100_001
    assert nodes[0] is x and nodes[-1] is y
    assert len(edges) == 100_000
    assert all(nodes[i] is edges[i][0] and nodes[i + 1] is edges[i][1] for i in range(100_000))
