"""What a graph will cost, worked out from its shapes before any of it is computed.

The app serves a whole class from one process, so one student's graph must not take the time of
everybody else. Each op node's output shape follows from its operands' shapes and its attributes
(the rules below, one per op, as NumPy and the engine apply them), so the cost of a graph is
known before the first element is computed, and a graph over budget is refused with a message
naming the node that costs most. What no rule can foresee (a slow machine, a rule gone wrong) is
caught by a ``Deadline`` checked between steps.

Costs are counted in *work units*, about one element written by one elementwise op:

- every op application costs ``OP_WORK`` units for its fixed cost (Python, the engine's
  bookkeeping; about 10 µs, the time of a few hundred elements), plus the larger of its output's
  and its operands' elements;
- a matrix product also costs its multiply-adds divided by ``MACS_PER_UNIT`` (BLAS does many
  multiply-adds in the time an elementwise op writes one element).

Backward costs about twice the forward work again, and is bounded with it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from autograd.ops.linalg import Einsum

from . import limits
from .errors import SpecError
from .interrupt import checkpoint
from .registry import activations as _activations
from .registry import conv as _conv
from .registry import indexing as _indexing
from .registry import layers as _layers
from .registry import linalg as _linalg
from .registry import losses as _losses
from .registry import rearrange as _rearrange
from .registry import reduce as _reduce
from .registry import shape as _shape

OP_WORK = 1_000
"""Work units of one op application besides its elements: its fixed cost."""
MACS_PER_UNIT = 16
"""Multiply-adds of a matrix product that cost one work unit."""

Shape = tuple[int, ...]
Rule = Callable[[list[Shape], Mapping], Shape]


# ---------------------------------------------------------------------------------------------
# Shape rules: operand shapes and attributes -> the output shape, or ValueError.


def _placeholder(shape: Shape) -> np.ndarray:
    """An array of ``shape`` that takes no memory: NumPy works out views of it for free."""
    return np.broadcast_to(np.empty((), dtype=bool), shape)


def _same(shapes, attrs) -> Shape:
    return shapes[0]


def _broadcast(shapes, attrs) -> Shape:
    return tuple(np.broadcast_shapes(*shapes))


def _matmul_shape(a: Shape, b: Shape) -> Shape:
    if not a or not b:
        raise ValueError("matmul needs operands with at least one axis")
    a2 = (1, *a) if len(a) == 1 else a
    b2 = (*b, 1) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: {a} @ {b} do not fit")
    batch = tuple(np.broadcast_shapes(a2[:-2], b2[:-2]))
    out = (*batch, a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def _matmul(shapes, attrs) -> Shape:
    return _matmul_shape(shapes[0], shapes[1])


def _linear(shapes, attrs) -> Shape:
    x, weight, bias = shapes
    if not x or len(weight) != 2 or x[-1] != weight[1]:
        raise ValueError("linear: the input's last axis must match the weight's second")
    return tuple(np.broadcast_shapes((*x[:-1], weight[0]), bias))


def _reduced(shapes, attrs) -> Shape:
    shape = shapes[0]
    axis = attrs.get("axis")
    if axis is None:
        axes = tuple(range(len(shape)))
    else:
        named = axis if isinstance(axis, tuple) else (axis,)
        axes = np.lib.array_utils.normalize_axis_tuple(named, max(len(shape), 1))
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _logsumexp(shapes, attrs) -> Shape:
    return _reduced(shapes, {"axis": attrs.get("axis", -1), "keepdims": attrs.get("keepdims")})


def _reshape(shapes, attrs) -> Shape:
    size = math.prod(shapes[0])
    wanted = tuple(attrs["shape"])
    known = math.prod(n for n in wanted if n != -1)
    if -1 in wanted:
        if known == 0 or size % known:
            raise ValueError("reshape: the sizes do not fit")
        wanted = tuple(size // known if n == -1 else n for n in wanted)
    if math.prod(wanted) != size:
        raise ValueError("reshape: the sizes do not fit")
    return wanted


def _transpose(shapes, attrs) -> Shape:
    x = _placeholder(shapes[0])
    axes = attrs.get("axes") or ()
    if not axes:
        return x.shape if x.ndim < 2 else np.swapaxes(x, -1, -2).shape
    if len(axes) == 2:
        return np.swapaxes(x, *axes).shape
    return np.transpose(x, axes).shape


def _flatten(shapes, attrs) -> Shape:
    return (math.prod(shapes[0]),)


def _squeeze(shapes, attrs) -> Shape:
    shape, axis = shapes[0], attrs.get("axis")
    if axis is None:
        return tuple(n for n in shape if n != 1)
    named = axis if isinstance(axis, tuple) else (axis,)
    drop = np.lib.array_utils.normalize_axis_tuple(named, max(len(shape), 1))
    return tuple(n for i, n in enumerate(shape) if not (i in drop and n == 1))


def _unsqueeze(shapes, attrs) -> Shape:
    return np.expand_dims(_placeholder(shapes[0]), attrs["axis"]).shape


def _broadcast_to(shapes, attrs) -> Shape:
    return np.broadcast_to(_placeholder(shapes[0]), attrs["shape"]).shape


def _index(shapes, attrs) -> Shape:
    return _placeholder(shapes[0])[tuple(attrs["index"])].shape


def _stack(shapes, attrs) -> Shape:
    if any(s != shapes[0] for s in shapes):
        raise ValueError("stack needs operands of one shape")
    out = list(np.expand_dims(_placeholder(shapes[0]), attrs.get("axis", 0)).shape)
    (position,) = np.lib.array_utils.normalize_axis_tuple((attrs.get("axis", 0),), len(out))
    out[position] = len(shapes)
    return tuple(out)


def _concatenate(shapes, attrs) -> Shape:
    first = shapes[0]
    if not first or any(len(s) != len(first) for s in shapes):
        raise ValueError("concatenate needs operands with the same number of axes")
    (axis,) = np.lib.array_utils.normalize_axis_tuple((attrs.get("axis", 0),), len(first))
    if any(s[:axis] + s[axis + 1:] != first[:axis] + first[axis + 1:] for s in shapes):
        raise ValueError("concatenate: the other axes differ")
    return first[:axis] + (sum(s[axis] for s in shapes),) + first[axis + 1:]


def _scalar(shapes, attrs) -> Shape:
    return ()


def _loss(shapes, attrs) -> Shape:
    """One number, or one per element of the broadcast operands with reduction="none"."""
    return tuple(np.broadcast_shapes(*shapes)) if attrs.get("reduction") == "none" else ()


def _nll_loss(shapes, attrs) -> Shape:
    """One number, or one per row (the target's shape) with reduction="none"."""
    return shapes[1] if attrs.get("reduction") == "none" else ()


_ELEMENTWISE = ("neg", "exp", "log", "square", "sqrt", "abs", "sign", "sin", "cos", "tanh",
                "sigmoid", "relu", "leaky_relu", "clip", "softmax", "log_softmax",
                "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "log2", "log10", "exp2",
                "log1p", "expm1", "rsqrt", "reciprocal", "floor", "ceil", "trunc", "round",
                "clone", "gelu", "elu", "celu", "selu", "softplus", "softsign", "hardtanh",
                "relu6", "logsigmoid", "silu", "mish", "hardsigmoid", "hardswish", "prelu",
                "asin", "acos", "atan", "erfinv", "lgamma", "digamma", "softmin", "tanhshrink",
                "softshrink", "hardshrink", "threshold")
_BROADCASTING = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "lerp",
                 "atan2", "hypot", "logaddexp", "logaddexp2", "xlogy", "fmod", "remainder")

RULES: Mapping[str, Rule] = {
    **dict.fromkeys(_ELEMENTWISE, _same),
    **dict.fromkeys(_BROADCASTING, _broadcast),
    **dict.fromkeys(("sum", "mean", "max", "min"), _reduced),
    **dict.fromkeys(("mse_loss", "cross_entropy", "binary_cross_entropy"), _scalar),
    **dict.fromkeys(("l1_loss", "huber_loss", "smooth_l1_loss",
                     "binary_cross_entropy_with_logits", "kl_div"), _loss),
    "nll_loss": _nll_loss,
    "matmul": _matmul,
    "linear": _linear,
    "logsumexp": _logsumexp,
    "reshape": _reshape,
    "transpose": _transpose,
    "flatten": _flatten,
    "squeeze": _squeeze,
    "unsqueeze": _unsqueeze,
    "broadcast_to": _broadcast_to,
    "index": _index,
    "stack": _stack,
    "concatenate": _concatenate,
    **_indexing.SHAPE_RULES, **_linalg.SHAPE_RULES, **_reduce.SHAPE_RULES, **_shape.SHAPE_RULES,
    **_conv.SHAPE_RULES, **_layers.SHAPE_RULES, **_rearrange.SHAPE_RULES,
    **_activations.SHAPE_RULES, **_losses.SHAPE_RULES,
}
"""Op name -> its shape rule. Every op of ``playground.registry`` has one (a test checks it, and
that each rule agrees with the engine on the registry's test cases)."""


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


def op_work(op: str, operand_shapes: list[Shape], out: Shape) -> int:
    """Work units of applying ``op`` once (see the module's docstring)."""
    sizes = [math.prod(s) for s in operand_shapes]
    work = OP_WORK + max(math.prod(out), sum(sizes))
    if op in ("matmul", "linear", "bmm", "mm", "mv", "addmm", "baddbmm"):
        left = operand_shapes[1 if op in ("addmm", "baddbmm") else 0]  # after the added input
        inner = left[-1] if left else 1
        work += math.prod(out) * inner // MACS_PER_UNIT
    elif op in ("conv1d", "conv2d"):  # each output element: a filter of C/groups x kernel
        work += math.prod(out) * math.prod(operand_shapes[1][1:]) // MACS_PER_UNIT
    elif op == "tensordot":  # each output element: a sum over the contracted axes, whose
        inner = math.isqrt(sizes[0] * sizes[1] // max(math.prod(out), 1))  # size squared is a·b/y
        work += math.prod(out) * inner // MACS_PER_UNIT
    elif op == "cdist":  # a difference of M elements per pair of rows, then its norm
        work += 3 * math.prod(out) * operand_shapes[0][-1]
    elif op in ("conv_transpose1d", "conv_transpose2d"):  # each input element: a filter of out/groups x kernel
        work += math.prod(operand_shapes[0]) * math.prod(operand_shapes[1][1:]) // MACS_PER_UNIT
    return work


def _work(node, operand_shapes: list[Shape], out: Shape) -> int:
    """`op_work`, plus an einsum's multiply-adds: every subscript's size multiplied out."""
    work = op_work(node.op, operand_shapes, out)
    if node.op == "einsum":
        _, _, sizes = Einsum.parse(node.attrs["equation"], operand_shapes)
        work += math.prod(sizes.values()) // MACS_PER_UNIT
    elif node.op in ("max_pool2d", "avg_pool2d"):  # every output element reads a whole window
        kernel = node.attrs["kernel_size"]
        kernel = kernel if isinstance(kernel, tuple) else (kernel,)
        work += math.prod(out) * math.prod(kernel * 2 if len(kernel) == 1 else kernel)
    elif node.op == "scaled_dot_product_attention":  # scores (..., L, S), two products
        scores = math.prod(out[:-1]) * operand_shapes[1][-2]
        work += scores * 4 + scores * (operand_shapes[0][-1] + out[-1]) // MACS_PER_UNIT
    elif node.op in ("inv", "det", "slogdet", "solve", "svdvals"):
        matrix = operand_shapes[0]  # a factorisation: m·n·min(m, n) per matrix (n³ if square)
        work += math.prod(matrix) * min(matrix[-2:]) // MACS_PER_UNIT
    elif node.op in ("max_pool1d", "avg_pool1d"):  # every output element reads a window
        kernel = node.attrs["kernel_size"]
        work += math.prod(out) * math.prod(kernel if isinstance(kernel, tuple) else (kernel,))
    elif node.op == "adaptive_max_pool2d":  # three engine ops per window, over the batch
        work += 3 * OP_WORK * math.prod(out[-2:]) + 2 * math.prod(operand_shapes[0])
    elif node.op == "local_response_norm":  # a sum of size shifted copies of the squares
        size = node.attrs["size"]
        work += (OP_WORK + math.prod(out)) * math.prod(size if isinstance(size, tuple) else
                                                       (size,))
    elif node.op == "adaptive_avg_pool2d":  # two products with (out, in) averaging matrices
        height, width = operand_shapes[0][-2:]
        work += math.prod(out[:-1]) * (height + out[-1]) * width // MACS_PER_UNIT
    return work


def estimate(spec) -> Estimate:
    """The shapes and forward work of ``spec``'s nodes, in one pass over the spec, computing
    nothing (leaf shapes come from the values, op shapes from ``RULES``)."""
    shapes: dict[str, Shape] = {}
    work: dict[str, int] = {}
    for node in spec.nodes:
        if node.is_leaf:
            shapes[node.name] = tuple(node.shape)
            continue
        operand_shapes = [shapes[o] for o in node.operands]
        try:
            out = tuple(int(n) for n in RULES[node.op](operand_shapes, node.attrs))
        except (ValueError, TypeError, IndexError, KeyError):
            return Estimate(shapes, work, failed=node.name)
        shapes[node.name] = out
        work[node.name] = _work(node, operand_shapes, out)
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
            does = ("would broadcast its operands to shape" if node.op in _BROADCASTING
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
