"""One evaluation, step by step, in three modes, with the engine's own numbers.

- **forward pass**: one step per operation, in the order ``evaluate`` computes them;
- **forward mode**: the same order, each operation pushing a tangent through its local
  derivative (``autograd.forward_ad``, one-hot on one element of one input);
- **reverse mode**: one step per Function the engine's backward ran, in the order it ran them,
  recorded with ``autograd.record_backward``: the gradient each received and what it sent on.

Nothing here differentiates by itself. Reverse mode maps each recorded Function to the graph's
node by tensor identity (an op built from several Functions, such as ``mse_loss``, has one step
per Function), and a node's gradient is the sum of the contributions that reached it, added in
the order they arrived, exactly as the engine adds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

import autograd as ag
from autograd import forward_ad

from . import budget, registry
from .errors import SpecError
from .evaluate import Result, forward, output_name, run
from .registry import arithmetic, elementwise

MODES = {
    "forward": "Forward pass",
    "tangent": "Forward mode",
    "reverse": "Reverse mode",
}
"""Mode -> its name on the page: values, tangents along one input, gradients of the output."""

BROADCASTING_OPS = frozenset(
    [info.name for info in (*arithmetic.ENTRIES, *elementwise.ENTRIES)
     if info.arity is not None and info.arity >= 2] + ["broadcast_to"]
)
"""Ops that broadcast their operands like NumPy, elementwise (the arithmetic and elementwise
families' ops of several operands): where an operand is smaller than the result, backward sums
the gradient over the axes it was copied along."""


# ---------------------------------------------------------------------------------------------
# Reverse mode: the engine's backward, recorded.


@dataclass(frozen=True)
class Contribution:
    """What the backward of op node ``source`` sent to its operand ``target`` (operand position
    ``slot``) at step ``step``: the chain rule's product, in ``target``'s shape."""

    source: str
    slot: int
    target: str
    value: np.ndarray
    step: int


@dataclass(frozen=True)
class BackwardStep:
    """One Function the engine's backward ran: the node it belongs to, its class, the gradient
    it received (None when nothing sent it one) and what it sent to the graph's nodes. ``inner``
    marks a Function inside an op made of several (``mse_loss``'s ``Sub``), which may send
    nothing to the graph's nodes."""

    node: str
    function: str
    grad_output: np.ndarray | None
    contributions: tuple[Contribution, ...]
    inner: bool = False


@dataclass(frozen=True)
class Gradient:
    """A node's gradient after some steps: the terms that have arrived, their sum so far
    (None before the first), and how many terms it gets in all."""

    terms: tuple[Contribution, ...]
    value: np.ndarray | None
    expected: int

    @property
    def complete(self) -> bool:
        return len(self.terms) == self.expected and self.value is not None


@dataclass(frozen=True)
class Backward:
    """The engine's backward pass through a graph, as it ran: ``steps[k - 1]`` is step k."""

    output: str
    seed: np.ndarray | None
    steps: tuple[BackwardStep, ...]
    shapes: Mapping[str, tuple[int, ...]]

    @property
    def count(self) -> int:
        return len(self.steps)

    def gradients(self, k: int) -> dict[str, Gradient]:
        """Each differentiable node's gradient after step ``k`` (0: only the output's seed)."""
        k = max(0, min(k, self.count))
        received: dict[str, list[Contribution]] = {name: [] for name in self.shapes}
        expected = dict.fromkeys(self.shapes, 0)
        for index, step in enumerate(self.steps):
            for c in step.contributions:
                expected[c.target] += 1
                if index < k:
                    received[c.target].append(c)
        out = {}
        for name, terms in received.items():
            if name == self.output:
                out[name] = Gradient((), self.seed, 0)
            elif expected[name] == 0:  # not on a path to the output: d output / d node = 0
                out[name] = Gradient((), np.zeros(self.shapes[name]), 0)
            else:
                out[name] = Gradient(tuple(terms), _sum(terms), expected[name])
        return out


def _sum(terms) -> np.ndarray | None:
    """The terms added one by one in arrival order, as the engine adds them."""
    total = None
    for term in terms:
        total = term.value if total is None else total + term.value
    return total


def backward_steps(spec, output=None) -> Backward:
    """Run the graph forward and backward with the engine, recording every backward step."""
    output = output_name(spec, output)
    tensors = forward(spec, retain_grad=True)  # the same run as evaluate's
    shapes = {n.name: tuple(tensors[n.name].shape) for n in spec.nodes
              if tensors[n.name].requires_grad}
    root = tensors[output]
    if not root.requires_grad:
        return Backward(output, None, (), shapes)
    seed = np.ones(root.shape)
    with np.errstate(all="ignore"), ag.record_backward() as tape:
        root.backward(seed)
    return Backward(output, _frozen(seed), _steps(spec, tensors, tape), shapes)


def _frozen(array) -> np.ndarray:
    """A read-only array: steps are cached and shared by every session that shows the graph."""
    array = np.array(array)
    array.flags.writeable = False
    return array


def _steps(spec, tensors, tape) -> tuple[BackwardStep, ...]:
    """The tape's entries as steps of the graph's nodes (see the module's doc)."""
    names_of: dict[int, str] = {id(t): name for name, t in tensors.items()}

    def name_of(t):
        return None if t is None else names_of.get(id(t))

    composite: list[str] = []  # op nodes whose Function had inputs that are not graph nodes
    used: dict[str, set[int]] = {}
    steps = []
    for index, entry in enumerate(tape, start=1):
        head = name_of(entry.output)
        inputs = [name_of(t) for t in entry.inputs]
        if head is not None and spec[head].kind == "op":
            owner, inner = head, False
            if any(i is None for i in inputs):
                composite.append(head)
        else:
            hit = set(inputs) - {None}
            owner = next((c for c in reversed(composite) if hit & set(spec[c].operands)),
                         composite[-1] if composite else spec.effective_output)
            inner = True
        slots = used.setdefault(owner, set())
        contributions = []
        for target, g in zip(inputs, entry.grad_inputs):
            if target is None or g is None or not tensors[target].requires_grad:
                continue
            slot = next((j for j, o in enumerate(spec[owner].operands)
                         if o == target and j not in slots), None)
            if slot is None and owner in composite:  # a composite op reads an operand twice
                slot = spec[owner].operands.index(target)
            if slot is None:
                continue
            slots.add(slot)
            contributions.append(Contribution(owner, slot, target, _frozen(g), index))
        received = None if entry.grad_output is None else _frozen(entry.grad_output)
        steps.append(BackwardStep(owner, entry.op, received, tuple(contributions), inner))
    return tuple(steps)


# ---------------------------------------------------------------------------------------------
# Forward mode: the engine's forward_ad, one-hot on one input element.


@dataclass(frozen=True)
class Tangents:
    """Every node's tangent when input ``wrt`` moves along element ``element`` (flat index):
    d node / d wrt[element]. Constants, and nodes made of constants only, have None."""

    wrt: str
    element: int
    values: Mapping[str, np.ndarray | None]


def tangents(spec, result: Result, wrt: str, element: int = 0) -> Tangents:
    """One forward-mode pass with the engine: the tangent of ``wrt`` is one-hot at ``element``,
    every other input's is zero."""
    if wrt not in spec or spec[wrt].kind != "input":
        raise SpecError(f"forward mode needs an input to move; {wrt!r:.40} is not an input of "
                        "this graph")
    size = result.value(wrt).size
    if not 0 <= element < size:
        raise SpecError(f"{wrt} has {size} element(s); pick an element from 0 to {size - 1}")
    estimate = budget.check_evaluation(spec)
    deadline = budget.Deadline("forward mode")
    direction = np.zeros(size)
    direction[element] = 1.0

    def leaf(node):
        tensor = ag.Tensor(node.array())
        return (forward_ad.make_dual(tensor, direction.reshape(tensor.shape))
                if node.name == wrt else tensor)

    with ag.no_grad(), forward_ad.dual_level():
        tensors = run(spec.nodes, {}, estimate, deadline, leaf)
        values = {}
        for n in result.nodes:
            tangent = forward_ad.unpack_dual(tensors[n.name]).tangent
            if n.grad is None:
                values[n.name] = None
            elif tangent is None:
                values[n.name] = _frozen(np.zeros(n.value.shape))
            else:
                values[n.name] = _frozen(tangent.data)
    return Tangents(wrt, element, values)


def local_partials(result: Result, name: str) -> dict[int, float]:
    """For a node and operands that are all single numbers: d node / d operand for each operand
    that has a gradient (operand position -> value), from the engine's forward mode."""
    node = result.node(name)
    if node.op is None or node.value.size != 1:
        return {}
    values = [result.value(o) for o in node.operands]
    if any(v.size != 1 for v in values):
        return {}
    info = registry.get(node.op)
    out = {}
    for i, operand in enumerate(node.operands):
        if result.grad(operand) is None:
            continue
        directions = [ag.Tensor(np.zeros(v.shape) if j != i else np.ones(v.shape))
                      for j, v in enumerate(values)]
        primals = [ag.Tensor(np.array(v, dtype=np.float64)) for v in values]
        with np.errstate(all="ignore"):
            _, jvp = ag.func.jvp(lambda *xs: info.apply(*xs, **node.attrs), tuple(primals),
                                 tuple(directions))
        out[i] = float(np.asarray(jvp.data).reshape(-1)[0])
    return out


# ---------------------------------------------------------------------------------------------
# Shapes and broadcasting.


def summed_axes(op: str, operand_shape, output_shape) -> tuple[int, ...]:
    """The axes of the output over which backward summed an operand's gradient because the op
    broadcast that operand (empty when it did not)."""
    operand_shape, output_shape = tuple(operand_shape), tuple(output_shape)
    if op not in BROADCASTING_OPS or operand_shape == output_shape:
        return ()
    try:
        if np.broadcast_shapes(operand_shape, output_shape) != output_shape:
            return ()
    except ValueError:
        return ()
    lead = len(output_shape) - len(operand_shape)
    return tuple(axis for axis, n in enumerate(output_shape)
                 if n > 1 and (axis < lead or operand_shape[axis - lead] == 1))


def passes(result: Result) -> tuple[int, int]:
    """(forward-mode passes, reverse-mode passes) for the Jacobian of the output with respect to
    every input element: one forward pass per input element, one backward per output element."""
    inputs = sum(n.value.size for n in result.nodes if n.kind == "input")
    return inputs, result.value(result.output).size
