"""The backward pass: a reverse topological walk of the graph, without recursion.

Gradients flow from the output to the leaves. Each Function runs once, after every op that used its
output has passed its gradient back (Kahn's algorithm on consumer counts), so a chain of 100,000 ops
needs no deep Python stack. Gradients are plain NumPy arrays on the way unless ``create_graph=True``
asks for a differentiable backward, in which case they are Tensors and the walk itself is recorded.
"""

import numpy as np

from .grad_mode import enable_grad, no_grad
from .tensor import Tensor


def backward(tensor, gradient=None, retain_graph=None, create_graph=False):
    """``tensor.backward(...)``: accumulate d tensor / d leaf into every leaf's ``.grad``."""
    if not tensor.requires_grad:
        raise RuntimeError(
            "backward() was called on a tensor that does not require grad, so there is nothing to "
            "differentiate: create the inputs with requires_grad=True (and not under no_grad())"
        )
    seed = _seed(tensor, gradient, create_graph)
    _run([tensor], [seed], create_graph if retain_graph is None else retain_graph, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned as a tuple; ``.grad``
    attributes are left untouched."""
    outputs = _as_sequence(outputs)
    inputs = _as_sequence(inputs)
    for t in inputs:
        if t.grad_fn is not None:
            t._link_to_function()
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    grad_outputs = _as_sequence(grad_outputs)
    if len(grad_outputs) != len(outputs):
        raise ValueError(f"grad got {len(outputs)} outputs but {len(grad_outputs)} grad_outputs")
    for i, t in enumerate(inputs):
        if not t.requires_grad:
            raise RuntimeError(f"input {i} of grad() does not require grad, so it has no gradient")
    for i, t in enumerate(outputs):
        if not t.requires_grad:
            raise RuntimeError(f"output {i} of grad() does not require grad: nothing to "
                               "differentiate")
    seeds = [_seed(t, g, create_graph) for t, g in zip(outputs, grad_outputs)]
    captured = _run(outputs, seeds, create_graph if retain_graph is None else retain_graph,
                    create_graph, capture=inputs)
    results = []
    for i, t in enumerate(inputs):
        g = captured.get(id(t))
        if g is None and not allow_unused:
            raise RuntimeError(
                f"input {i} of grad() was not used to compute the outputs, so it has no gradient; "
                "pass allow_unused=True to get None for it"
            )
        results.append(None if g is None else _to_grad_tensor(g, t))
    return tuple(results)


def _as_sequence(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _seed(tensor, gradient, create_graph):
    """The starting gradient: 1 for a one-element output, else the given ``gradient``."""
    if gradient is None:
        if tensor.size != 1:
            raise RuntimeError(
                f"backward() needs a gradient argument for an output of shape {tensor.shape}: "
                "only a one-element output can start from 1. Reduce it first (e.g. "
                "y.sum().backward()) or pass y.backward(gradient=ones_like(y))"
            )
        seed = np.ones(tensor.shape, dtype=tensor.dtype)
    else:
        given = gradient.data if isinstance(gradient, Tensor) else gradient
        seed = np.array(given, dtype=tensor.dtype)
        if seed.ndim == 0:  # a plain number stands for that value everywhere
            seed = np.full(tensor.shape, seed, dtype=tensor.dtype)
        if seed.shape != tensor.shape:
            raise RuntimeError(
                f"the gradient passed to backward() has shape {seed.shape} but the tensor has "
                f"shape {tensor.shape}: they must match"
            )
        if create_graph and isinstance(gradient, Tensor):
            return gradient
    return Tensor(seed) if create_graph else seed


def _run(roots, seeds, retain_graph, create_graph, capture=None):
    """Walk the graph from ``roots``; write leaves' ``.grad``, or, given ``capture`` (a list of
    tensors), return {id(tensor): gradient} for them instead."""
    consumers = _count_consumers(roots)
    grads = {}
    leaves = {}
    leaf_grads = {}
    captured = {} if capture is not None else None
    wanted = {id(t) for t in capture} if capture is not None else None
    for root, seed in zip(roots, seeds):
        fn = root.grad_fn
        if fn is None:
            _add_leaf_grad(leaves, leaf_grads, root, seed)
        else:
            grads[fn] = seed if fn not in grads else grads[fn] + seed
    ready = [fn for fn, count in consumers.items() if count == 0]
    on_arrays = not create_graph
    with enable_grad() if create_graph else no_grad():
        while ready:
            fn = ready.pop()
            grad = grads.pop(fn, None)
            if grad is None:
                input_grads = (None,) * len(fn.inputs)
            else:
                if fn._watched:
                    grad = _output_hooks(fn, grad, captured, wanted)
                if on_arrays and fn.backward_runs_on_arrays:
                    if fn._saved is None:
                        raise _freed_error(fn)
                    input_grads = fn.backward(grad)
                    if type(input_grads) is not tuple:
                        input_grads = (input_grads,)
                else:
                    input_grads = _call_backward(fn, grad, create_graph)
            for tensor, needed, g in zip(fn.inputs, fn.needs_input_grad, input_grads):
                if not needed:
                    continue
                child = tensor.grad_fn
                if g is not None:
                    if g.shape != tensor.data.shape:
                        g = _reduce_to(g, tensor.data.shape, fn)
                    if child is None:
                        _add_leaf_grad(leaves, leaf_grads, tensor, g)
                        continue
                    previous = grads.get(child)
                    grads[child] = g if previous is None else previous + g
                elif child is None:
                    continue
                count = consumers[child] - 1
                consumers[child] = count
                if count == 0:
                    ready.append(child)
            if not retain_graph:
                fn._saved = None
    if captured is not None:
        for key, tensor in leaves.items():
            if key in wanted:
                captured[key] = _apply_hooks(tensor, leaf_grads[key])
        return captured
    _write_leaf_grads(leaves, leaf_grads, create_graph)
    return None


def _add_leaf_grad(leaves, leaf_grads, tensor, g):
    key = id(tensor)
    previous = leaf_grads.get(key)
    if previous is None:
        leaves[key] = tensor
        leaf_grads[key] = g
    else:
        leaf_grads[key] = previous + g


def _count_consumers(roots):
    """For every Function reachable from ``roots``: how many recorded uses its output has."""
    consumers = {}
    stack = []
    for root in roots:
        fn = root.grad_fn
        if fn is not None and fn not in consumers:
            if fn._saved is None:
                raise _freed_error(fn)
            consumers[fn] = 0
            stack.append(fn)
    while stack:
        fn = stack.pop()
        for tensor in fn.inputs:
            child = tensor.grad_fn
            if child is None or not tensor.requires_grad:
                continue
            if child in consumers:
                consumers[child] += 1
            else:
                if child._saved is None:
                    raise _freed_error(child)
                consumers[child] = 1
                stack.append(child)
    return consumers


def _freed_error(fn):
    return RuntimeError(
        f"Trying to backward through the graph a second time (through {fn.name}), but its saved "
        "values were freed by the first backward. Pass retain_graph=True to the first backward() "
        "if you need to backward through the same graph twice"
    )


def _output_hooks(fn, grad, captured, wanted):
    """Hooks, retain_grad and grad() capture for the tensor ``fn`` produced."""
    ref = fn._output
    tensor = ref() if ref is not None else None
    if tensor is None:
        return grad
    if tensor._hooks:
        grad = _apply_hooks(tensor, grad)
    if captured is not None:
        if id(tensor) in wanted:
            captured[id(tensor)] = grad
    elif tensor._retains_grad:
        tensor.grad = _accumulate(tensor.grad, _own(grad, tensor, set()), tensor)
    return grad


def _apply_hooks(tensor, grad):
    for hook in list(tensor._hooks or ()):
        as_tensor = grad if isinstance(grad, Tensor) else Tensor._make(grad, False, None)
        replaced = hook(as_tensor)
        if replaced is not None:
            grad = replaced if isinstance(grad, Tensor) else _array(replaced)
    return grad


def _call_backward(fn, grad, create_graph):
    """Run ``fn.backward`` on Tensors (a custom op, or any op under create_graph) and return one
    gradient (or None) per input. Built-in ops without create_graph take the array path in _run."""
    if fn._saved is None:
        raise _freed_error(fn)
    arrays, fn._saved = fn._saved, fn._graph_tensors()
    try:
        result = fn.backward(grad if create_graph else Tensor._make(grad, False, None))
    finally:
        fn._saved = arrays
    if not isinstance(result, tuple):
        result = (result,)
    if len(result) != len(fn.inputs):
        raise RuntimeError(
            f"{fn.name}.backward returned {len(result)} gradient(s) but forward took "
            f"{len(fn.inputs)} input(s): return one gradient (or None) per input"
        )
    return tuple(None if g is None else _currency(g, t, create_graph)
                 for g, t in zip(result, fn.inputs))


def _currency(g, tensor, create_graph):
    """A gradient as a Tensor (create_graph) or an array of the input's dtype."""
    if create_graph:
        return g if isinstance(g, Tensor) else Tensor(np.asarray(g, dtype=tensor.dtype))
    return np.array(_array(g), dtype=tensor.dtype)  # a copy: it may be a saved array


def _array(g):
    return g.data if isinstance(g, Tensor) else np.asarray(g)


def _reduce_to(g, shape, fn):
    """Sum a broadcast gradient back to ``shape`` (the one place where broadcasting is undone)."""
    lead = g.ndim - len(shape)
    if lead < 0 or any(n != 1 and n != m for n, m in zip(shape, g.shape[lead:])):
        raise RuntimeError(
            f"{fn.name}.backward returned a gradient of shape {g.shape} for an input of shape "
            f"{shape}, and it does not broadcast to it: the gradient must have the input's shape"
        )
    axes = tuple([*range(lead), *[lead + i for i, n in enumerate(shape)
                                   if n == 1 and g.shape[lead + i] != 1]])
    return g.sum(axis=axes, keepdims=True).reshape(shape)


def _write_leaf_grads(leaves, leaf_grads, create_graph):
    owners = set()
    for key, tensor in leaves.items():
        g = leaf_grads[key]
        if tensor._hooks:
            g = _apply_hooks(tensor, g)
        if not create_graph:
            g = _own(g, tensor, owners)
        tensor.grad = _accumulate(tensor.grad, g, tensor)


def _own(g, tensor, owners):
    """An array gradient the tensor can keep: its dtype, writeable, and sharing memory with no
    other gradient handed out in this backward (MyGrad's rule), so changing one ``.grad`` never
    changes another. Built-in backwards return fresh arrays or views of them, so a copy is needed
    only when two leaves would share one buffer."""
    if isinstance(g, Tensor):
        return g
    dtype = tensor.data.dtype
    if type(g) is not np.ndarray or g.dtype != dtype or (g.base is not None
                                                          and not g.flags.writeable):
        g = np.array(g, dtype=dtype)
    owner = id(g if g.base is None else g.base)
    if owner in owners:
        g = g.copy()
        owner = id(g)
    owners.add(owner)
    return g


def _accumulate(existing, g, tensor):
    if isinstance(g, Tensor):
        return g if existing is None else existing + g
    if existing is None:
        return Tensor._make(g, False, None)
    return Tensor._make(existing.data + g, False, None)


def _to_grad_tensor(g, tensor):
    if isinstance(g, Tensor):
        return g
    return Tensor._make(g.astype(tensor.dtype, copy=False), False, None)
