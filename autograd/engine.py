"""The backward pass: a reverse topological walk of the graph, without recursion.

Gradients flow from the output to the leaves. Each Function runs once, after every op that used its
output has passed its gradient back (Kahn's algorithm on use counts), so a chain of 100,000 ops
needs no deep Python stack. Gradients are plain NumPy arrays on the way unless ``create_graph=True``
asks for a differentiable backward, in which case they are Tensors and the walk itself is recorded
(see ``Function`` for which backward runs on which).

Reading order: ``backward`` (behind ``tensor.backward`` and ``autograd.backward``) and ``grad``
(the two ways in) call ``_backpropagate``, the walk. For each ready Function it runs
``_input_gradients`` (the Function's backward, on arrays or through ``_backward_on_tensors``),
then for each input asks ``_next_function`` where the gradient goes: a leaf's sum
(``_add_leaf_gradient``) or the Function that made the input (``_report_use``), which becomes
ready once all its uses have reported. ``backward`` writes the leaves' gradients into ``.grad``
(``_write_leaf_grads``) while ``grad`` returns them.
"""

import contextlib
import contextvars

import numpy as np

from .function import _has_version_counter, _WeakConstant
from .grad_mode import enable_grad, no_grad
from .tensor import Tensor


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    """``autograd.backward`` (PyTorch's ``torch.autograd.backward``) and ``tensor.backward``:
    accumulate into every leaf's ``.grad`` the gradient of ``sum_i <tensors[i], grad_tensors[i]>``
    (a tensor or a list of them, with one gradient or None each; None starts a one-element tensor
    from 1). Several outputs go back in one walk, so a part of the graph they share is walked and
    freed once and needs no ``retain_graph``."""
    roots = _as_sequence(tensors)
    gradients = [None] * len(roots) if grad_tensors is None else _as_sequence(grad_tensors)
    if len(gradients) != len(roots):
        raise ValueError(f"backward got {len(roots)} tensors but {len(gradients)} grad_tensors: "
                         "give one gradient (or None) per tensor")
    for i, root in enumerate(roots):
        if not root.requires_grad:
            what = ("backward() was called on a tensor that does not require grad, so there is "
                    "nothing to differentiate" if isinstance(tensors, Tensor) else
                    f"element {i} of tensors does not require grad and does not have a grad_fn")
            raise RuntimeError(f"{what}: create the inputs with requires_grad=True (and not "
                               "under no_grad())")
    seeds = [_seed(root, g, create_graph) for root, g in zip(roots, gradients)]
    retain_graph = create_graph if retain_graph is None else retain_graph
    with enable_grad() if create_graph else no_grad():
        leaf_grads, _ = _backpropagate(roots, seeds, retain_graph, create_graph)
        _write_leaf_grads(leaf_grads, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned as a tuple; ``.grad``
    attributes are left untouched."""
    outputs = _as_sequence(outputs)
    inputs = _as_sequence(inputs)
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
    for t in inputs:
        if t.grad_fn is not None:
            t._link_to_function()
    seeds = [_seed(t, g, create_graph) for t, g in zip(outputs, grad_outputs)]
    retain_graph = create_graph if retain_graph is None else retain_graph
    wanted = {id(t) for t in inputs}
    with enable_grad() if create_graph else no_grad():
        leaf_grads, captured = _backpropagate(outputs, seeds, retain_graph, create_graph, wanted)
        results = []
        for i, t in enumerate(inputs):
            if t.grad_fn is not None:
                g = captured.get(id(t))
            else:
                g = leaf_grads.get(t)  # Tensors hash by identity (see _backpropagate)
                if g is not None and t._hooks:
                    g = _apply_hooks(t._hooks, g)
            if g is None and not allow_unused:
                raise RuntimeError(
                    f"input {i} of grad() was not used to compute the outputs, so it has no "
                    "gradient; pass allow_unused=True to get None for it"
                )
            results.append(None if g is None else _as_result_tensor(g, t.dtype))
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
        if seed.ndim == 0 and tensor.size == 1:  # a number for a one-element output: no doubt
            seed = seed.reshape(tensor.shape)
        if seed.shape != tensor.shape:  # PyTorch's rule: a number is not spread over an output
            fix = (f"pass gradient=ag.ones_like(y) * {seed.item():g} for that value everywhere"
                   if seed.size == 1 else f"pass a gradient of shape {tensor.shape}")
            raise RuntimeError(
                f"Mismatch in shape: grad_output has a shape of {seed.shape} and output has a "
                f"shape of {tensor.shape}, as PyTorch says: the gradient given to backward() (or "
                f"grad()) must have the output's shape; {fix}"
            )
        if create_graph and isinstance(gradient, Tensor):  # differentiable in the gradient too
            return gradient if gradient.shape == seed.shape else gradient.reshape(seed.shape)
    return Tensor(seed) if create_graph else seed


class BackwardStep:
    """One Function's run in a backward pass, as ``record_backward`` saw it."""

    __slots__ = ("op", "function", "output", "grad_output", "grad_inputs", "inputs")

    def __init__(self, fn, output, grad_output, grad_inputs):
        self.op = fn.name
        self.function = fn
        self.output = output
        self.grad_output = grad_output
        self.grad_inputs = grad_inputs
        self.inputs = fn.inputs

    def __repr__(self):
        return f"<BackwardStep {self.op}: {len(self.grad_inputs)} input gradient(s)>"


_tape = contextvars.ContextVar("autograd_backward_tape", default=None)


@contextlib.contextmanager
def record_backward():
    """Record what every backward pass inside the block does, step by step::

        with autograd.record_backward() as tape:
            loss.backward()

    ``tape`` is a list with one ``BackwardStep`` per Function run, in the order backward ran
    them: ``step.op`` (the Function's name, e.g. "Mul"), ``step.function`` (the Function, the
    ``grad_fn`` of its output), ``step.output`` (the tensor it made, while someone holds it, else
    None), ``step.grad_output`` (the gradient it received, an ndarray), ``step.grad_inputs`` (one
    ndarray or None per input, in input order, already reduced to each input's shape) and
    ``step.inputs`` (the input tensors; see ``Function.inputs`` for ones the caller dropped).
    Arrays are copies, so later passes never change them. A leaf's gradient is the sum of the
    ``grad_inputs`` that reached it. Not recording costs nothing.
    """
    tape = []
    token = _tape.set(tape)
    try:
        yield tape
    finally:
        _tape.reset(token)


def _record_step(tape, outputs, fn, grad, edges, input_grads):
    """Add ``fn``'s run to ``tape`` (see ``record_backward``). ``outputs`` maps Functions to the
    tensors they made, as far as the walk has met them (roots, and inputs of steps run before)."""
    reduced = []
    for edge, g in zip(edges, input_grads):
        if isinstance(edge, Tensor) and edge.grad_fn is not None:
            outputs[edge.grad_fn] = edge
        if g is None or type(edge) is _WeakConstant:
            reduced.append(None)
            continue
        shape = edge.data.shape if isinstance(edge, Tensor) else edge._shape
        g = _array(g)
        reduced.append(np.array(_reduce_to(g, shape, fn) if g.shape != shape else g))
    output = outputs.get(fn)
    if output is None:
        ref = getattr(fn, "_output", None)
        output = ref() if ref is not None else None
        if output is not None and output.name == "(freed)":  # a stand-in: see Function
            output = None
    tape.append(BackwardStep(fn, output, None if grad is None else np.array(_array(grad)),
                             reduced))


def _backpropagate(roots, seeds, retain_graph, create_graph, wanted=None):
    """Walk the graph from ``roots`` and return ``(leaf_grads, captured)``.

    ``leaf_grads`` maps each leaf reached to its gradient, ``captured`` maps ``id(t)`` to the
    gradient of each intermediate tensor ``t`` whose id is in ``wanted`` (``grad()``'s inputs).
    Runs under the caller's grad mode: ``enable_grad`` for create_graph, else ``no_grad``.

    One dict, ``grads``, holds the gradient summed so far for each Function and each leaf: both
    hash by identity, and a dict compares keys by identity before it would call ``==`` (which
    for Tensors is elementwise), so Tensors are safe keys here. A Function is ready once every
    use of its output has reported (``uses`` counts down to 0); ``ready`` holds those, and
    ``ready_grads`` beside each its gradient, taken out of ``grads``.
    """
    uses = _count_uses(roots)
    grads = _seeded(roots, seeds)
    ready = [fn for fn, count in uses.items() if count == 0]
    ready_grads = [grads.pop(fn, None) for fn in ready]
    captured = {} if wanted is not None else None
    summed = None if create_graph else set()  # ids of leaf-gradient arrays this walk made
    tape = _tape.get()
    tape_outputs = {root.grad_fn: root for root in roots} if tape is not None else None
    while ready:
        fn = ready.pop()
        grad = ready_grads.pop()
        if grad is not None and fn._hooks is not None:
            grad = _output_hooks(fn, grad, captured, wanted)
        edges = fn._edges
        input_grads = _input_gradients(fn, grad, edges, create_graph)
        if tape is not None:
            _record_step(tape, tape_outputs, fn, grad, edges, input_grads)
        if fn._saved and not retain_graph:  # a Function that saved nothing may run again
            fn._saved = None
        for edge, g in zip(edges, input_grads):
            # Most edges are Tensors never changed in place: their grad_fn, without a call.
            child = (edge.grad_fn if type(edge) is Tensor and edge._vc is None
                     else _next_function(fn, edge))
            if child is None:  # a leaf (its gradient is summed in grads) or a constant
                if g is not None and edge.requires_grad:
                    _add_leaf_gradient(grads, summed, edge, g, fn)
            elif _report_use(uses, grads, child, g, edge, fn):
                ready.append(child)
                ready_grads.append(grads.pop(child, None))
    return grads, captured


def _seeded(roots, seeds):
    """The walk's first gradients: each root's seed, filed under its Function (a leaf root
    under itself), summed where two roots share one."""
    grads = {}
    for root, seed in zip(roots, seeds):
        target = root if root.grad_fn is None else root.grad_fn
        previous = grads.get(target)
        grads[target] = seed if previous is None else previous + seed
    return grads


def _input_gradients(fn, grad, edges, create_graph):
    """Run ``fn``'s backward on the gradient of its output: one gradient per input (None where
    there is none). First refuses, with PyTorch's error, a saved value changed in place since."""
    if fn._saved and (fn._sv is not None or _has_version_counter(edges)):
        _check_versions(fn, edges)
    if grad is None:  # no use sent a gradient: only the counts move on
        return (None,) * len(edges)
    if fn.backward_runs_on_arrays and not create_graph:
        input_grads = fn.backward(grad)
        return input_grads if type(input_grads) is tuple else (input_grads,)
    return _backward_on_tensors(fn, grad, create_graph)


def _next_function(fn, edge):
    """The Function that made ``fn``'s input ``edge`` (see Function.__slots__), which the walk
    visits next; None for a leaf or a constant."""
    if isinstance(edge, Tensor):  # a student's Tensor subclass too
        if edge._vc is None or edge._history is None:
            return edge.grad_fn
        return _grad_fn_when_used(fn, edge)
    return None if type(edge) is _WeakConstant else edge


def _report_use(uses, grads, child, g, edge, fn):
    """Add ``g`` (None: no gradient), summed back to the shape of ``fn``'s input ``edge``, into
    the gradient of ``child``, the Function that made that input, and count one use of its
    output as reported; True if it was the last, so that ``child`` is ready to run."""
    if g is not None:
        shape = edge.data.shape if isinstance(edge, Tensor) else edge._shape
        if g.shape != shape:
            g = _reduce_to(g, shape, fn)
        previous = grads.get(child)
        grads[child] = g if previous is None else previous + g
    count = uses[child] = uses[child] - 1
    return count == 0


def _add_leaf_gradient(grads, summed, leaf, g, fn):
    """Add ``g`` (summed back to ``leaf``'s shape) into the gradient ``leaf`` has gathered. From
    the third contribution on, the sum is an array this walk made and nobody else sees (leaf
    entries never reach a backward), so it grows in place rather than being made afresh each
    time; ``summed`` (None under create_graph, where gradients are Tensors) holds their ids."""
    shape = leaf.data.shape
    if g.shape != shape:
        g = _reduce_to(g, shape, fn)
    previous = grads.get(leaf)
    if previous is None:
        grads[leaf] = g
    elif summed is not None and id(previous) in summed:
        previous += g
    else:
        previous = grads[leaf] = previous + g
        if summed is not None and type(previous) is np.ndarray:  # not a NumPy scalar (0-d)
            summed.add(id(previous))


def _count_uses(roots):
    """For every Function reachable from ``roots``: how many recorded uses its output has."""
    uses = {}
    stack = []
    for root in roots:
        fn = root.grad_fn
        if fn is not None and fn not in uses:
            uses[fn] = 0
            stack.append(fn)
    while stack:
        fn = stack.pop()
        for edge in fn._edges:
            child = (edge.grad_fn if type(edge) is Tensor and edge._vc is None
                     else _next_function(fn, edge))
            if child is None:
                continue
            if child in uses:
                uses[child] += 1
            else:
                uses[child] = 1
                stack.append(child)
    return uses


def _grad_fn_when_used(fn, tensor):
    """The ``grad_fn`` that ``tensor`` had when ``fn`` used it: a recorded in-place change
    since then gave the tensor a new one (see autograd/ops/inplace.py), but ``fn`` computed with
    the old value, whose history goes on from the earlier grad_fn (PyTorch binds each use to the
    history of its time in the same way)."""
    used_at = fn._recorded_versions()[1 + _position(fn, tensor)]
    for version, previous in tensor._history:
        if version > used_at:
            return previous
    return tensor.grad_fn


def _position(fn, edge):
    return next(i for i, e in enumerate(fn._edges) if e is edge)


def _check_versions(fn, edges):
    """Raise PyTorch's error if a value ``fn`` saved for backward (an input's or its result's
    array) was changed in place after ``fn`` was recorded."""
    saved = fn.saved_in_use()
    result_counter, *recorded = fn._recorded_versions()
    for i, edge in enumerate(edges):
        counter = edge._vc
        if counter is None or counter[0] == recorded[i]:
            continue
        if isinstance(edge, Tensor):
            array = edge.data
            if any(value is array for value in saved):
                raise _modified_error(fn, f"its input {i}", array, edge.grad_fn, counter[0],
                                      recorded[i])
        else:  # (a recorded in-place op's result is the array its input's maker made: skip it)
            for value in saved:
                if id(value) == edge._output_id != fn._output_id:
                    raise _modified_error(fn, f"its input {i}", value, edge, counter[0],
                                          recorded[i])
    if result_counter is not None and result_counter[0] != recorded[-1]:
        for value in saved:
            if id(value) == fn._output_id:
                raise _modified_error(fn, "its result", value, fn, result_counter[0],
                                      recorded[-1])


def _modified_error(fn, which, array, maker, version, expected):
    """PyTorch's message for a saved value changed in place, with what to do about it."""
    made = f", which is output 0 of {maker.name}," if maker is not None else ""
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{array.dtype} {list(array.shape)}]{made} is at version {version}; "
        f"expected version {expected} instead. Hint: {fn.name} saved this tensor ({which}) for "
        "its backward, and it was changed in place afterwards (an op ending in _, x += ..., or "
        "x[...] = ...). Compute a new tensor instead (x = x.add(1) rather than x.add_(1)), or "
        "change a copy (x = x.clone() before the in-place op)")


def _output_hooks(fn, grad, captured, wanted):
    """Hooks, retain_grad and grad() capture for the tensor ``fn`` produced."""
    if fn._hooks:
        grad = _apply_hooks(fn._hooks, grad)
    tensor = fn._output() if fn._output is not None else None
    if tensor is None:
        return grad
    if captured is not None:
        if id(tensor) in wanted:
            captured[id(tensor)] = grad
    elif tensor._retains_grad:
        tensor.grad = _retained_grad(tensor.grad, grad)
    return grad


def _apply_hooks(hooks, grad):
    for hook in list(hooks):
        as_tensor = grad if isinstance(grad, Tensor) else Tensor._make(grad, False, None)
        replaced = hook(as_tensor)
        if replaced is not None:
            grad = replaced if isinstance(grad, Tensor) else _array(replaced)
    return grad


def _backward_on_tensors(fn, grad, create_graph):
    """Run ``fn.backward`` on Tensors (a custom op, or any op under create_graph) and return one
    gradient (or None) per input, each as the walk carries it (``_as_walk_gradient``)."""
    arrays = fn._saved_values()
    fn._set_saved_values(fn._graph_tensors())  # what saved_tensors gives, on either path
    try:
        result = fn.backward(grad if create_graph else Tensor._make(grad, False, None))
    finally:
        fn._set_saved_values(arrays)
    if not isinstance(result, tuple):
        result = (result,)
    edges = fn._edges
    if len(result) != len(edges):
        raise RuntimeError(
            f"{fn.name}.backward returned {len(result)} gradient(s) but forward took "
            f"{len(edges)} input(s): return one gradient (or None) per input"
        )
    return tuple(None if g is None else _as_walk_gradient(g, _edge_dtype(edge), create_graph)
                 for g, edge in zip(result, edges))


def _edge_dtype(edge):
    if isinstance(edge, Tensor):
        return edge.data.dtype
    return edge.dtype if type(edge) is _WeakConstant else edge._dtype


def _as_walk_gradient(g, dtype, create_graph):
    """A gradient from a backward on Tensors as the walk carries it: a Tensor under create_graph,
    else a fresh array of the input's dtype (fresh: a backward may return a saved array)."""
    if create_graph:
        if not isinstance(g, Tensor):
            return Tensor(np.asarray(g, dtype=dtype))
        return g if g.data.dtype == dtype else g.to(dtype)  # PyTorch: the input's dtype
    return np.array(_array(g), dtype=dtype)


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


def _write_leaf_grads(leaf_grads, create_graph):
    """Add each leaf's gradient into its ``.grad``, after the leaf's hooks."""
    stored = set()  # ids of the buffers handed out as a new .grad in this backward
    for leaf, g in leaf_grads.items():
        hooked = bool(leaf._hooks)
        if hooked:
            g = _apply_hooks(leaf._hooks, g)
        if create_graph:
            leaf.grad = g if leaf.grad is None else leaf.grad + g
        else:
            leaf._grad = _accumulate(leaf._grad, g, leaf.data.dtype, stored, copy=hooked)


def _accumulate(existing, g, dtype, stored, copy=False):
    """``existing + g`` as a leaf's ``_grad`` (see Tensor): an array, or ``existing`` itself.
    Like PyTorch, it adds in place into the existing array, so a ``g = x.grad`` held across
    backwards sees the new sum; a first gradient becomes the ``.grad`` itself unless it must be
    copied (``_unshared_array``)."""
    if existing is None:
        return _unshared_array(g, dtype, stored, copy)
    data = existing if type(existing) is np.ndarray else existing.data
    if ((data is existing or existing.grad_fn is None) and type(data) is np.ndarray
            and data.flags.writeable and data.shape == g.shape):
        np.add(data, g, out=data, casting="unsafe")
        return existing
    return (data + g).astype(dtype, copy=False)


def _unshared_array(g, dtype, stored, copy):
    """An array gradient a leaf can keep as its ``.grad`` and later add into in place: of its
    dtype, writeable, and sharing memory with no other ``.grad`` handed out in this backward
    (MyGrad's rule), so changing one ``.grad`` never changes another. Built-in backwards return
    fresh arrays or views of them, so a copy is needed only when two leaves would share a buffer,
    or when ``copy`` says a hook may have kept the array."""
    if (copy or type(g) is not np.ndarray or g.dtype != dtype
            or (g.base is not None and not g.flags.writeable)):
        g = np.array(g, dtype=dtype)
    owner = id(g if g.base is None else g.base)
    if owner in stored:
        g = g.copy()
        owner = id(g)
    stored.add(owner)
    return g


def _retained_grad(existing, g):
    """The ``.grad`` of an intermediate after retain_grad(): a copy of the first gradient, then
    sums made out of place (PyTorch's rule), so it never shares memory with a leaf's ``.grad``."""
    if isinstance(g, Tensor):
        return g if existing is None else existing + g
    if existing is None:
        return Tensor._make(g.copy(), False, None)
    return Tensor._make(existing.data + g, False, None)


def _as_result_tensor(g, dtype):
    """A gradient returned by grad(): a Tensor of the input's dtype."""
    if isinstance(g, Tensor):
        return g
    return Tensor._make(np.asarray(g).astype(dtype, copy=False), False, None)
