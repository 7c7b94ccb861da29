"""Spec -> tensors -> Result: every node's value, gradient, shape, local derivative and flag.

The graph is built with the engine in spec order; every intermediate keeps its gradient
(``retain_grad``) so the drawing and the tables can show the whole chain. NumPy's warnings are
silenced and NaN or inf is reported instead, on the node where it first appears.

Before any element is computed, ``playground.budget`` works out every node's shape and the work
of the whole graph, and refuses a graph over the limits; a ``Deadline`` guards the rest. A
Result is immutable: its arrays are read-only, so caches can hand the same one to everybody.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import autograd as ag

from . import budget, limits, registry
from .errors import SpecError


@dataclass(frozen=True)
class NodeResult:
    """One node after forward and backward: what the drawing and the tables show."""

    name: str
    kind: str
    op: str | None
    operands: tuple[str, ...]
    attrs: dict[str, Any]
    value: np.ndarray
    grad: np.ndarray | None
    derivative: str | None = None
    flag: str | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)


@dataclass(frozen=True)
class Result:
    """A whole evaluated graph; nodes are in spec order. ``seeded_with_ones`` says the output
    was not a single number, so backward started from ones (the gradient of its sum)."""

    spec: Any
    output: str
    seeded_with_ones: bool
    nodes: tuple[NodeResult, ...]
    flags: dict[str, str] = field(default_factory=dict)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {n.name: i for i, n in enumerate(self.nodes)})

    def node(self, name: str) -> NodeResult:
        if name not in self._index:
            raise SpecError(f"there is no node called {name!r:.40} in this graph")
        return self.nodes[self._index[name]]

    def value(self, name: str) -> np.ndarray:
        return self.node(name).value

    def grad(self, name: str) -> np.ndarray | None:
        return self.node(name).grad


def output_name(spec, output=None) -> str:
    """The node backward starts from: ``output`` if given, else the spec's chosen or last node."""
    if not len(spec):
        raise SpecError("the graph is empty: add an input such as x = 2.0 first")
    name = output if output is not None else spec.effective_output
    if name not in spec:
        raise SpecError(f"the output {name!r:.40} is not a node of this graph; pick one of its "
                        "nodes as the output")
    return name


def forward(spec, estimate=None, deadline=None, retain_grad=False) -> dict[str, ag.Tensor]:
    """Build every node's tensor in spec order (recording for backward unless inside no_grad);
    with ``retain_grad``, every op node that backward reaches keeps its gradient.

    ``estimate`` (``budget.check_evaluation(spec)``, made here when not given) has checked the
    graph's cost; ``deadline`` is checked before every op. Errors name the node, the op and the
    operand shapes.
    """
    estimate = estimate if estimate is not None else budget.check_evaluation(spec)
    deadline = deadline if deadline is not None else budget.Deadline("evaluating the graph")
    tensors = run(spec.nodes, {}, estimate, deadline)
    if retain_grad:
        for node in spec.nodes:
            if node.kind == "op" and tensors[node.name].requires_grad:
                tensors[node.name].retain_grad()
    return tensors


def leaf_tensor(node) -> ag.Tensor:
    """A leaf node's tensor: an input requires grad, a constant does not."""
    return ag.Tensor(node.array(), requires_grad=node.kind == "input", name=node.name)


def run(nodes, tensors: dict[str, ag.Tensor], estimate, deadline,
        leaf=leaf_tensor) -> dict[str, ag.Tensor]:
    """Compute ``nodes`` in order into ``tensors``, which already holds every other operand:
    a leaf by ``leaf(node)``, an op by the engine after ``deadline.check()``. The one loop
    from spec to tensors that evaluation, forward mode and the finite differences share."""
    with np.errstate(all="ignore"):
        for node in nodes:
            if node.kind != "op":
                tensors[node.name] = leaf(node)
                continue
            deadline.check()
            tensors[node.name] = apply_node(node, [tensors[o] for o in node.operands],
                                            checked=node.name in estimate.shapes)
    return tensors


def apply_node(node, operands, checked=False):
    """The tensor of op node ``node`` from its operands' tensors; errors become SpecError.

    ``checked`` says the budget already knows this node's shape (so its size is within limits);
    otherwise a broadcast too large is refused before it is computed."""
    info = registry.get(node.op)
    if not checked:
        _check_result_size(node, operands)
    try:
        result = info.apply(*operands, **node.attrs)
    except (ValueError, TypeError, IndexError, ZeroDivisionError) as error:
        shapes = ", ".join(f"{name} {tuple(t.shape)}"
                           for name, t in zip(node.operands, operands))
        fix = _axis_fix(node, operands, error)
        raise SpecError(f"{node.op} failed on operands {shapes}: {error}"
                        + (f". {fix}" if fix else ""), node=node.name) from None
    if result.size > limits.MAX_ELEMENTS:
        raise SpecError(f"{node.op} gives a tensor of shape {tuple(result.shape)} "
                        f"({result.size:,} elements); the limit is {limits.MAX_ELEMENTS:,}",
                        node=node.name)
    result.name = node.name
    return result


def _axis_fix(node, operands, error) -> str | None:
    """For an axis out of range, the axes there are (the engine's message only says it failed)."""
    if not isinstance(error, np.exceptions.AxisError) or not operands:
        return None
    ndim = max(t.ndim for t in operands) + (node.op in ("stack", "unsqueeze"))
    if ndim == 0:
        return f"{node.operands[0]} is a scalar: it has no axis to choose; leave the axis out"
    return f"the axis of {node.op} here must lie between {-ndim} and {ndim - 1}"


def _check_result_size(node, operands):
    """Refuse an elementwise op whose broadcast result would be too large, before computing it."""
    if len(operands) < 2:
        return
    try:
        shape = np.broadcast_shapes(*[t.shape for t in operands])
    except ValueError:
        return
    if int(np.prod(shape)) > limits.MAX_ELEMENTS:
        raise SpecError(f"{node.op} would broadcast its operands to shape {shape} "
                        f"({int(np.prod(shape)):,} elements); the limit is "
                        f"{limits.MAX_ELEMENTS:,}. Check the operands' shapes",
                        node=node.name)


def evaluate(spec, output=None) -> Result:
    """Forward and backward through ``spec``: every node's value and gradient.

    Gradients are d output / d node, for every node that depends on an input (zero where the
    output does not depend on it); constants and nodes made only of constants have none.
    """
    output = output_name(spec, output)
    deadline = budget.Deadline("evaluating the graph")
    tensors = forward(spec, budget.check_evaluation(spec), deadline, retain_grad=True)
    root = tensors[output]
    with np.errstate(all="ignore"):
        if root.requires_grad:
            root.backward(np.ones(root.shape))
    deadline.check()
    grads = {node.name: _gradient(tensors[node.name]) for node in spec.nodes}
    for node in spec.nodes:
        _freeze(tensors[node.name].data)
        _freeze(grads[node.name])
    flags = _flags(spec, tensors, grads, output)
    nodes = tuple(
        NodeResult(
            name=node.name,
            kind=node.kind,
            op=node.op,
            operands=node.operands,
            attrs=dict(node.attrs),
            value=tensors[node.name].data,
            grad=grads[node.name],
            derivative=registry.get(node.op).derivative if node.kind == "op" else None,
            flag=flags.get(node.name),
        )
        for node in spec.nodes
    )
    return Result(spec, output, root.size != 1, nodes, flags)


def _freeze(array) -> None:
    """Make ``array`` read-only: a Result may be shared by every session that shows its graph."""
    if isinstance(array, np.ndarray):
        array.flags.writeable = False


def _gradient(tensor):
    if not tensor.requires_grad:
        return None
    if tensor.grad is None:
        return np.zeros(tensor.shape)
    return tensor.grad.data


def _flags(spec, tensors, grads, output) -> dict[str, str]:
    """Where NaN or inf first appears: in a value whose operands are finite, or in the gradient
    of a finite value whose consumers' values and gradients are finite (so the cause is a local
    derivative there, not a NaN or inf already flagged upstream)."""
    flags = {}
    finite_value = {}
    for node in spec.nodes:
        value = tensors[node.name].data
        finite_value[node.name] = bool(np.isfinite(value).all())
        if not finite_value[node.name] and all(finite_value[o] for o in node.operands):
            flags[node.name] = _value_problem(node, tensors, value)
    consumers = {name: [] for name in spec.names}
    for node in spec.nodes:
        for operand in node.operands:
            consumers[operand].append(node.name)
    for node in spec.nodes:
        grad = grads[node.name]
        if grad is None or not finite_value[node.name] or np.isfinite(grad).all():
            continue
        fed = [c for c in consumers[node.name] if grads[c] is not None]
        if all(finite_value[c] and np.isfinite(grads[c]).all() for c in fed):
            flags[node.name] = _gradient_problem(node, fed, grad)
    return flags


def _value_problem(node, tensors, value) -> str:
    what = _non_finite(value)
    if node.kind != "op":
        return f"this value holds {what}"
    operands = [tensors[o].data for o in node.operands]
    causes = {
        "log": lambda a: ("log of 0 is -inf and log of a negative number is NaN"
                          if (a <= 0).any() else None),
        "sqrt": lambda a: "sqrt of a negative number is NaN" if (a < 0).any() else None,
        "div": lambda a, b: "division by zero" if (b == 0).any() else None,
        "exp": lambda a: ("exp overflows to inf above about 709 (float64): subtract the max "
                          "first, as softmax does" if (a > 709).any() else None),
    }
    cause = causes.get(node.op, lambda *a: None)(*operands)
    return f"{node.op} gives {what}" + (f": {cause}" if cause else "")


def _gradient_problem(node, consumers, grad) -> str:
    what = _non_finite(grad)
    via = f" (through {', '.join(consumers)})" if consumers else ""
    return (f"the gradient becomes {what} here{via}: a local derivative is infinite at this "
            "value, e.g. sqrt or log at 0, or 0 ** p with p < 1")


def _non_finite(a) -> str:
    kinds = []
    if np.isnan(a).any():
        kinds.append("NaN")
    if np.isinf(a).any():
        kinds.append("inf")
    return " and ".join(kinds)
