"""``autograd.backward(tensors, grad_tensors)``: PyTorch's ``torch.autograd.backward``, the
backward of several outputs in one pass (a shared part of their graphs is walked once, so it is
freed once and needs no ``retain_graph``)."""

from . import engine
from .grad_mode import enable_grad, no_grad


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    """Accumulate into every leaf's ``.grad`` the gradient of ``sum_i <tensors[i],
    grad_tensors[i]>``: the same as ``tensors[i].backward(grad_tensors[i])`` for each i, in one
    walk of the graph. A one-element tensor may go without a gradient (None: it starts from 1)."""
    roots = engine._as_sequence(tensors)
    if grad_tensors is None:
        grad_tensors = [None] * len(roots)
    gradients = engine._as_sequence(grad_tensors)
    if len(gradients) != len(roots):
        raise ValueError(f"backward got {len(roots)} tensors but {len(gradients)} grad_tensors: "
                         "give one gradient (or None) per tensor")
    for i, root in enumerate(roots):
        if not root.requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn: "
                "create the inputs with requires_grad=True (and not under no_grad())")
    seeds = [engine._seed(root, g, create_graph) for root, g in zip(roots, gradients)]
    retain_graph = create_graph if retain_graph is None else retain_graph
    with enable_grad() if create_graph else no_grad():
        leaf_grads, _ = engine._backpropagate(roots, seeds, retain_graph, create_graph)
        engine._write_leaf_grads(leaf_grads, create_graph)
