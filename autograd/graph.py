"""Graph introspection: the tensors behind a result, in the order they were computed.

Tensors compare elementwise (``a == b`` is a tensor), so they never go in a set or serve as dict
keys: every visited set here is keyed by ``id()``, and the walk keeps the tensors alive meanwhile.
"""


def trace(root):
    """Return ``(nodes, edges)`` for the graph that produced ``root``.

    ``nodes`` lists every tensor once, inputs first (a topological order ending with ``root``);
    ``edges`` lists ``(input, output)`` pairs in the direction data flows, one per parent slot, so
    ``x * x`` gives two edges from ``x``. The order is stable: a node's parents are visited in the
    order the op received them. The walk is iterative, so a chain of 100,000 ops is fine.
    """
    nodes = []
    entered = {id(root)}
    stack = [(root, iter(root.parents))]
    while stack:
        tensor, parents = stack[-1]
        for parent in parents:
            if id(parent) not in entered:
                entered.add(id(parent))
                stack.append((parent, iter(parent.parents)))
                break
        else:
            stack.pop()
            nodes.append(tensor)
    edges = [(parent, node) for node in nodes for parent in node.parents]
    return nodes, edges
