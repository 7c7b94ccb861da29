"""What a graph will cost, worked out from its shapes before any of it is computed.

The app serves a whole class from one process, so one student's graph must not take the time of
everybody else. Each op node's output shape follows from its operands' shapes and its attributes
(its registry entry's shape rule, as NumPy and the engine apply them), so the cost of a graph is
known before the first element is computed, and a graph over budget is refused with a message
naming the node that costs most. What no rule can foresee (a slow machine, a rule gone wrong) is
caught by a ``Deadline`` checked between steps.

Costs are counted in *work units*, about one element written by one elementwise op:

- every op application costs ``OP_WORK`` units for its fixed cost (Python, the engine's
  bookkeeping; about 10 µs, the time of a few hundred elements), plus the larger of its output's
  and its operands' elements;
- an op that does more per element adds what its entry's ``work`` rule says: a matrix product
  its multiply-adds divided by ``MACS_PER_UNIT`` (BLAS does many multiply-adds in the time an
  elementwise op writes one element), a pool its windows.

Backward costs about twice the forward work again, and is bounded with it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

from . import limits, registry
from .errors import SpecError
from .interrupt import checkpoint
from .registry import rules
from .registry.rules import OP_WORK, Shape

# ---------------------------------------------------------------------------------------------
# The estimate.


@dataclass(frozen=True)
class Estimate:
    """Every node's shape and every op node's forward work, worked out without computing.

    ``failed`` is the first op node whose shape rule refused its operands: evaluation fails
    there with the engine's own message, so nothing after it is counted (or ever computed).
    """

    shapes: Mapping[str, Shape]
    work: Mapping[str, int]
    failed: str | None = None

    @property
    def elements(self) -> int:
        """Elements of every known node's value together (each gradient holds as many again)."""
        return sum(math.prod(shape) for shape in self.shapes.values())

    @property
    def total_work(self) -> int:
        """Work units of one forward pass over the known op nodes."""
        return sum(self.work.values())


def op_work(info, operand_shapes: list[Shape], out: Shape, attrs: Mapping) -> int:
    """Work units of applying the op ``info`` once (see the module's docstring): its fixed cost,
    its elements, and what its entry's ``work`` rule adds."""
    elements = max(math.prod(out), sum(math.prod(s) for s in operand_shapes))
    extra = info.work(operand_shapes, out, attrs) if info.work else 0
    return OP_WORK + elements + extra


def estimate(spec) -> Estimate:
    """The shapes and forward work of ``spec``'s nodes, in one pass over the spec, computing
    nothing (leaf shapes come from the values, op shapes from each op's registry entry).

    An op whose entry has no shape rule is refused (SpecError): the budget cannot vouch for it,
    so it never runs unchecked."""
    shapes: dict[str, Shape] = {}
    work: dict[str, int] = {}
    for node in spec.nodes:
        if node.is_leaf:
            shapes[node.name] = tuple(node.shape)
            continue
        info = registry.get(node.op)
        if info.shape is None:
            raise SpecError(
                f"{node.op} has no shape rule in its registry entry, so the cost of this graph "
                "cannot be checked before it runs; the op is refused until its entry has one",
                node=node.name,
            )
        operand_shapes = [shapes[o] for o in node.operands]
        try:
            out = tuple(int(n) for n in info.shape(operand_shapes, node.attrs))
        except (ValueError, TypeError, IndexError, KeyError):
            return Estimate(shapes, work, failed=node.name)
        shapes[node.name] = out
        work[node.name] = op_work(info, operand_shapes, out, node.attrs)
    return Estimate(shapes, work)


def _described(spec, est: Estimate, names) -> str:
    """The named op nodes as a message lists them: `h` (tanh, shape (1000, 1000))."""
    parts = []
    for name in names:
        node = spec[name]
        what = node.op if node.op else node.kind
        parts.append(f"`{name}` ({what}, shape {est.shapes[name]})")
    return " and ".join(parts)


def _heaviest(est: Estimate, count: int = 2) -> list[str]:
    return sorted(est.work, key=est.work.get, reverse=True)[:count]


def check_evaluation(spec) -> Estimate:
    """The estimate of ``spec``, or SpecError when evaluating it would exceed the limits on the
    elements of one tensor (``limits.MAX_ELEMENTS``), the elements a graph holds
    (``limits.MAX_GRAPH_ELEMENTS``) or the work it takes (``limits.MAX_WORK``). Runs before any
    element is computed."""
    est = estimate(spec)
    for name in est.work:
        size = math.prod(est.shapes[name])
        if size > limits.MAX_ELEMENTS:
            node = spec[name]
            does = ("would broadcast its operands to shape"
                    if registry.get(node.op).shape is rules.broadcast
                    else "would give a tensor of shape")
            raise SpecError(
                f"{node.op} {does} {est.shapes[name]} ({size:,} elements); the limit is "
                f"{limits.MAX_ELEMENTS:,}. Check the operands' shapes",
                node=name,
            )
    if est.elements > limits.MAX_GRAPH_ELEMENTS:
        largest = sorted(est.shapes, key=lambda n: math.prod(est.shapes[n]), reverse=True)[:2]
        raise SpecError(
            f"the graph's tensors would hold {est.elements:,} elements together, more than the "
            f"limit of {limits.MAX_GRAPH_ELEMENTS:,} for one graph on this shared server (the "
            f"largest: {_described(spec, est, largest)}); use smaller tensors or fewer steps"
        )
    if est.total_work > limits.MAX_WORK:
        raise SpecError(
            f"computing this graph would take about {est.total_work:,} units of work, more than "
            f"the limit of {limits.MAX_WORK:,} for one graph on this shared server (about one "
            "unit per element computed; the most costly steps: "
            f"{_described(spec, est, _heaviest(est))}); use smaller tensors or fewer steps"
        )
    return est


def finite_difference_count(pass_work: list[int], passes: int, what: str) -> int:
    """How many of the input elements whose one-sided pass costs ``pass_work[i]`` units a
    finite-difference computation of ``passes`` passes per element can afford within
    ``limits.MAX_CHECK_WORK``: all of them, or fewer (the caller spaces them evenly), or
    SpecError when not even one fits."""
    if not pass_work:
        return 0
    heaviest = max(pass_work)
    if passes * sum(pass_work) <= limits.MAX_CHECK_WORK:
        return len(pass_work)
    affordable = limits.MAX_CHECK_WORK // (passes * max(heaviest, 1))
    if affordable < 1:
        raise SpecError(
            f"{what} would recompute about {passes * heaviest:,} units of work for a single "
            f"input element, more than the limit of {limits.MAX_CHECK_WORK:,} on this shared "
            "server; make the tensors between the inputs and the output smaller"
        )
    return min(affordable, len(pass_work))


class Deadline:
    """A wall-clock guard for one computation: ``check()`` raises SpecError once ``seconds``
    have passed since it was made. The budgets above bound the work; this catches the rest."""

    __slots__ = ("_end", "_seconds", "_what")

    def __init__(self, what: str, seconds: float = limits.MAX_SECONDS) -> None:
        self._what = what
        self._seconds = seconds
        self._end = time.monotonic() + seconds

    def check(self) -> None:
        """Raise once the time is up; first, stop if the app says the work is no longer wanted
        (``interrupt.checkpoint``)."""
        checkpoint()
        if time.monotonic() > self._end:
            raise SpecError(
                f"{self._what} took more than {self._seconds:g} s, the most one request may "
                "take on this shared server; make the graph smaller"
            )
