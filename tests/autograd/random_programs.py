"""The generator and the runner behind ``test_random_programs.py``: random small programs over
the engine's differentiable ops, each run in this engine and in PyTorch from the same inputs.

A program is a list of nodes. ``Input`` is a leaf (an array, its dtype and its layout: plain, a
transposed view or a strided view, so some leaves are not contiguous); ``Step`` is one op of
the table ``OPS`` in test_random_programs.py (name -> (ours, torch's, how its arguments are
drawn)) applied to earlier nodes, with the same extra arguments in both engines. The program's
output is its last node.

Programs are drawn with Hypothesis while PyTorch runs them step by step (without gradients), so
every op's arguments fit the shapes and values at hand: ``log`` meets a positive operand (the
generator inserts ``abs`` and ``+ 0.5`` steps first when it would not), ``cat`` meets operands of
matching shapes, and so on. A few arguments are drawn to be wrong on purpose (shapes that do not
broadcast, out-of-range indices): a step PyTorch refuses ends the program there, and this engine
must refuse it too.

``compare(program, ...)`` runs the checks and raises ``Discrepancy`` with a readable repro.
"""

import math
import re
import warnings
from dataclasses import dataclass, field

import numpy as np
import torch
from hypothesis import strategies as st

import autograd as ag

F = torch.nn.functional

# ------------------------------------------------------------------------------------------------
# Element values: a grid (so ties, exact zeros and clamp bounds come up often), plain floats, and
# tails (sigmoid below -38, exp overflow in float32).

GRID = [0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 0.25, -0.25, 1.5, -1.5, 3.0, -3.0]
TAILS = [-40.0, -100.0, 30.0, 1e-3, -1e-3, 60.0]
ELEMENTS = st.one_of(
    st.sampled_from(GRID),
    st.floats(-3, 3).map(lambda v: round(v, 4)),  # no 1e-38s: there PyTorch's float32 formulas
    # underflow (mish's gradient, prod's second derivative) and it stops being an oracle
    st.sampled_from(TAILS),
)
SCALARS = [0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 1.5, -0.25, 3.0]
RELATIVELY_EXACT = {"exp", "sigmoid", "softmax", "softplus"}  # tiny results, small relative error
MAX_ELEMENTS = 64
MAX_NDIM = 4


@dataclass
class Input:
    """A leaf: ``base`` (C-contiguous) seen through ``layout``."""

    base: np.ndarray
    layout: str  # "plain", "T" (all axes reversed) or "strided" (every other row of base)

    @staticmethod
    def view(base, layout):
        if layout == "T":
            return base.T
        if layout == "strided":
            return base[::2]
        return base

    @property
    def shape(self):
        return self.view(self.base, self.layout).shape

    @property
    def dtype(self):
        return self.base.dtype

    def ours(self):
        array = self.view(self.base.copy(), self.layout)
        leaf = ag.tensor(array, dtype=array.dtype, requires_grad=True)
        # ag.tensor copies into a contiguous array; put the strided view itself in the leaf, so
        # the engine meets a non-contiguous array (``data`` is the tensor's public array).
        leaf.data = array
        return leaf

    def torch(self):
        return self.view(torch.tensor(self.base), self.layout).detach().requires_grad_()

    def describe(self, name):
        values = np.array2string(self.view(self.base, self.layout), separator=", ",
                                 precision=9, floatmode="maxprec").replace("\n", "")
        where = {"plain": "", "T": " as a transposed view",
                 "strided": " as a strided view (base[::2])"}[self.layout]
        return f"{name} = tensor({values}, dtype={self.dtype}){where}"


@dataclass
class Step:
    op: str
    operands: tuple
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def describe(self, name):
        parts = [f"v{i}" for i in self.operands] + [_show(a) for a in self.args]
        parts += [f"{k}={_show(v)}" for k, v in self.kwargs.items()]
        return f"v{name} = {self.op}({', '.join(parts)})"


def _show(value):
    if isinstance(value, slice):
        return ":".join("" if p is None else str(p) for p in (value.start, value.stop, value.step))
    if isinstance(value, tuple) and any(isinstance(v, slice) or v is Ellipsis or v is None
                                        for v in value):
        return "[" + ", ".join("..." if v is Ellipsis else _show(v) for v in value) + "]"
    return repr(value)


@dataclass
class Program:
    nodes: list
    refused_by_torch: str = None  # the exception PyTorch raised at the last step, if it did

    def describe(self):
        lines = [node.describe(i) if isinstance(node, Step) else node.describe(f"v{i}")
                 for i, node in enumerate(self.nodes)]
        if self.refused_by_torch:
            lines.append(f"# PyTorch refuses the last step: {self.refused_by_torch}")
        return "\n".join(lines)

    @property
    def leaves(self):
        return [i for i, node in enumerate(self.nodes) if isinstance(node, Input)]


# ------------------------------------------------------------------------------------------------
# The generator


class Refused(Exception):
    """PyTorch refused a step while the program was drawn."""


class Builder:
    """Draws a program while running it in PyTorch (no gradients), to know every value."""

    def __init__(self, ops, draw, dtypes):
        self.ops = ops
        self.draw = draw
        self.dtypes = dtypes
        self.nodes = []
        self.values = []  # PyTorch's value of every node

    def shape(self, i):
        return tuple(self.values[i].shape)

    def value(self, i):
        return self.values[i]

    # -- inputs --
    def new_input(self, shape=None):
        draw = self.draw
        if shape is None:
            shape = tuple(draw(st.lists(st.integers(1, 3), max_size=3)))
        shape = tuple(shape)
        n = math.prod(shape)
        values = draw(st.lists(ELEMENTS, min_size=n, max_size=n))
        dtype = draw(st.sampled_from(self.dtypes))
        layout = draw(st.sampled_from(["plain", "T", "strided"])) if shape else "plain"
        array = np.array(values, dtype=dtype).reshape(shape)
        if layout == "T":
            base = np.ascontiguousarray(array.T)
        elif layout == "strided":
            filler = np.full(shape, 7.0, dtype=dtype)  # the skipped rows
            base = np.stack([array, filler], axis=1).reshape((2 * shape[0],) + shape[1:])
        else:
            base = array
        node = Input(base, layout)
        return self._add(node, node.torch().detach())

    def _add(self, node, value):
        self.nodes.append(node)
        self.values.append(value)
        return len(self.nodes) - 1

    def apply(self, op, operands, args=(), kwargs=None):
        """Run a step in PyTorch and keep it; Refused if PyTorch raises (the step is kept)."""
        step = Step(op, tuple(operands), tuple(args), dict(kwargs or {}))
        try:
            value = run_step(self.ops, step, [self.values[i] for i in operands], torch_side=True)
        except Exception as e:  # noqa: BLE001 - any refusal ends the program
            self.nodes.append(step)
            raise Refused(f"{type(e).__name__}: {e}") from None
        return self._add(step, value.detach())

    # -- operands --
    def pick(self, fits=lambda shape: True, fresh=0.15, shape=None):
        """An earlier node whose shape ``fits`` (the latest one more often), or a new input
        (of ``shape`` if given) with probability ``fresh`` or when none fits."""
        candidates = [i for i in range(len(self.nodes)) if fits(self.shape(i))]
        if not candidates or self.draw(st.floats(0, 1)) < fresh:
            return self.new_input(shape)
        if self.draw(st.booleans()):
            return candidates[-1]
        return self.draw(st.sampled_from(candidates))

    def positive(self, x, margin=0.1):
        """x itself if all its values exceed ``margin`` (or 0, if x comes straight from an op
        whose small values are exact, like sigmoid's tail), else abs(x) + 0.5 (two new
        steps)."""
        v = self.value(x)
        node = self.nodes[x]
        if isinstance(node, Step) and node.op in RELATIVELY_EXACT:
            margin = 0.0
        if v.numel() and bool((v > margin).all()) and bool(torch.isfinite(v).all()):
            return x
        return self.apply("add_scalar", [self.apply("abs", [x])], (0.5,))


# -- argument drawers: (builder, x) -> (operands, args, kwargs), or None when the op does not
#    apply to x --


def unary(b, x):
    return [x], (), {}


def positive(b, x):
    return [b.positive(x)], (), {}


def nonnegative(b, x):
    """abs(x) unless x is already >= 0 (keeps exact zeros: 0 ** b)."""
    if bool((b.value(x) >= 0).all()):
        return [x], (), {}
    return [b.apply("abs", [x])], (), {}


def scalar(b, x):
    return [x], (b.draw(st.sampled_from(SCALARS)),), {}


def nonzero_scalar(b, x):
    return [x], (b.draw(st.sampled_from([c for c in SCALARS if c])),), {}


def positive_with_scalar(b, x):
    return [b.positive(x)], (b.draw(st.sampled_from(SCALARS)),), {}


def pow_scalar(b, x):
    exponent = b.draw(st.sampled_from([0, 1, 2, 3, 0.0, 2.0, -1.0, 0.5, 1.5, -0.5]))
    if exponent != int(exponent) or exponent < 0:
        x = b.positive(x)
    return [x], (exponent,), {}


def base_scalar(b, x):
    return [x], (b.draw(st.sampled_from([2.0, 0.5, math.e, 0.0, 1.0])),), {}


def clamp_bounds(b, x):
    low, high = (b.draw(st.sampled_from([None] + GRID)) for _ in range(2))
    if low is None and high is None:
        low = 0.0
    return [x], (), {"min": low, "max": high}


def leaky_slope(b, x):
    return [x], (), {"negative_slope": b.draw(st.sampled_from([0.01, 0.2, 0.0, 1.0, -0.5]))}


def gelu_kind(b, x):
    return [x], (), {"approximate": b.draw(st.sampled_from(["none", "tanh"]))}


def softplus_settings(b, x):
    return [x], (), {"beta": b.draw(st.sampled_from([1.0, 2.0, 0.5])),
                     "threshold": b.draw(st.sampled_from([20.0, 1.0, 2.0]))}


def alpha(b, x):
    return [x], (), {"alpha": b.draw(st.sampled_from([1.0, 0.5, 2.0]))}


def hardtanh_bounds(b, x):
    low = b.draw(st.sampled_from([-1.0, -0.5, 0.0]))
    return [x], (), {"min_val": low, "max_val": b.draw(st.sampled_from([1.0, 0.5, 2.0]))}


def broadcastable_shape(b, shape):
    """A shape that broadcasts with ``shape`` (rarely one that does not)."""
    draw = b.draw
    out = [draw(st.sampled_from([n, 1])) for n in shape]
    out = out[draw(st.integers(0, len(out))):]  # drop some leading axes
    if draw(st.integers(0, 4)) == 0 and len(shape) < MAX_NDIM:
        out = [draw(st.integers(1, 2))] + out
    if draw(st.integers(0, 19)) == 0 and out:  # on purpose: a size that does not broadcast
        k = draw(st.integers(0, len(out) - 1))
        out[k] = (shape[k - len(out)] if k - len(out) >= -len(shape) else 1) + 1
        if out[k] == 2 and k - len(out) >= -len(shape) and shape[k - len(out)] == 1:
            out[k] = 3
    return tuple(out)


def _broadcasts(a, c):
    try:
        torch.broadcast_shapes(a, c)
        return True
    except RuntimeError:
        return False


def binary(b, x):
    y = b.pick(lambda s: _broadcasts(b.shape(x), s), shape=broadcastable_shape(b, b.shape(x)))
    return [x, y], (), {}


def binary_positive_right(b, x):
    y = b.pick(lambda s: _broadcasts(b.shape(x), s), shape=broadcastable_shape(b, b.shape(x)))
    return [x, b.positive(y)], (), {}


def binary_pow(b, x):
    """base ** exponent with a tensor exponent: the base is >= 0 (exact zeros stay: 0 ** b)."""
    (base,), _, _ = nonnegative(b, x)
    y = b.pick(lambda s: _broadcasts(b.shape(x), s), shape=broadcastable_shape(b, b.shape(x)))
    return [base, y], (), {}


def where_operands(b, x):
    """where(cond > 0, x, y): the condition comes from a leaf, so both engines see it alike."""
    shape = b.shape(x)
    leaves = [i for i, node in enumerate(b.nodes) if isinstance(node, Input)
              and _broadcasts(shape, b.shape(i))]
    cond = (b.draw(st.sampled_from(leaves)) if leaves and b.draw(st.booleans())
            else b.new_input(broadcastable_shape(b, shape)))
    y = b.pick(lambda s: _broadcasts(shape, s), shape=broadcastable_shape(b, shape))
    return [cond, x, y], (), {}


def _dim(b, ndim):
    return b.draw(st.integers(-max(ndim, 1), max(ndim, 1) - 1))


def reduce_dims(b, x):
    """dim None, one dim or several, keepdim either way."""
    ndim = len(b.shape(x))
    kind = b.draw(st.sampled_from(["none", "one", "many"]))
    kwargs = {"keepdim": b.draw(st.booleans())}
    if kind == "one":
        kwargs["dim"] = _dim(b, ndim)
    elif kind == "many" and ndim:
        dims = b.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim,
                               unique=True))
        kwargs["dim"] = tuple(d - ndim if b.draw(st.booleans()) else d for d in dims)
    elif b.draw(st.booleans()):
        return [x], (), {}  # PyTorch's sum(x) takes no keepdim without a dim
    else:
        kwargs["dim"] = None
    return [x], (), kwargs


def reduce_one_dim(b, x):
    """prod and logsumexp style: one int dim (logsumexp also a tuple) and keepdim."""
    return [x], (), {"dim": _dim(b, len(b.shape(x))), "keepdim": b.draw(st.booleans())}


def spread(b, x):
    operands, args, kwargs = reduce_dims(b, x)
    if b.draw(st.booleans()):
        kwargs["correction"] = b.draw(st.sampled_from([0, 1]))
    return operands, args, kwargs


def norm_args(b, x):
    operands, args, kwargs = reduce_dims(b, x)
    p = b.draw(st.sampled_from([2, 1, math.inf, "fro", 3]))
    if p == "fro" and isinstance(kwargs.get("dim"), tuple) and len(kwargs["dim"]) > 2:
        p = 2
    return operands, args, {"p": p, **kwargs}


def one_dim(b, x):
    return [x], (), {"dim": _dim(b, len(b.shape(x)))}


def sort_args(b, x):
    return [x], (), {"dim": _dim(b, len(b.shape(x))), "descending": b.draw(st.booleans())}


def _factor(b, n):
    """A random shape with n elements (up to three axes, maybe a -1)."""
    shape, left = [], n
    for _ in range(b.draw(st.integers(0, 3))):
        divisors = [d for d in range(1, left + 1) if left % d == 0]
        d = b.draw(st.sampled_from(divisors))
        shape.append(d)
        left //= d
    if left != 1 or not shape:
        shape.append(left)
    if b.draw(st.integers(0, 3)) == 0:
        shape[b.draw(st.integers(0, len(shape) - 1))] = -1
    return tuple(shape)


def reshape_args(b, x):
    shape = _factor(b, math.prod(b.shape(x)))
    if b.draw(st.booleans()):
        return [x], shape, {}
    return [x], (shape,), {}


def two_dims(b, x):
    ndim = len(b.shape(x))
    return [x], (_dim(b, ndim), _dim(b, ndim)), {}


def permutation(b, x):
    ndim = len(b.shape(x))
    perm = b.draw(st.permutations(list(range(ndim))))
    perm = [p - ndim if b.draw(st.integers(0, 3)) == 0 else p for p in perm]
    return [x], (tuple(perm),), {}


def unsqueeze_dim(b, x):
    ndim = len(b.shape(x))
    if ndim >= MAX_NDIM:
        return None
    return [x], (b.draw(st.integers(-ndim - 1, ndim)),), {}


def squeeze_dims(b, x):
    ndim = len(b.shape(x))
    kind = b.draw(st.sampled_from(["all", "one", "many"]))
    if kind == "all":
        return [x], (), {}
    if kind == "one" or ndim == 0:
        return [x], (_dim(b, ndim),), {}
    dims = b.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return [x], (tuple(dims),), {}


def flatten_dims(b, x):
    ndim = len(b.shape(x))
    if b.draw(st.booleans()):
        return [x], (), {}
    start, end = _dim(b, ndim), _dim(b, ndim)
    return [x], (), {"start_dim": start, "end_dim": end}


def index_key(b, x):
    """Ints (negative too), slices, integer lists (repeats too), ..., None, mixed."""
    shape = b.shape(x)
    draw = b.draw
    ndim = len(shape)
    count = draw(st.integers(0 if ndim == 0 else 1, ndim))
    length = draw(st.integers(1, 3))  # every integer list in the key has this length
    key = []
    for n in shape[:count]:
        kind = draw(st.sampled_from(["int", "slice", "list", "all"]))
        if kind == "int":
            k = draw(st.integers(-n, n - 1))
            if draw(st.integers(0, 29)) == 0:
                k = n  # on purpose: out of range
            key.append(k)
        elif kind == "slice":
            start = draw(st.sampled_from([None, 0, 1, -1, -n]))
            stop = draw(st.sampled_from([None, n, -1, 1, n + 2]))
            step = draw(st.sampled_from([None, None, 1, 2]))
            key.append(slice(start, stop, step))
        elif kind == "list":
            key.append(draw(st.lists(st.integers(-n, n - 1), min_size=length,
                                     max_size=length)))
        else:
            key.append(slice(None))
    if draw(st.integers(0, 4)) == 0:
        key.insert(draw(st.integers(0, len(key))), None)
    if draw(st.integers(0, 4)) == 0 and count < ndim:
        key.insert(draw(st.integers(0, len(key))), Ellipsis)
    if len(key) == 1 and draw(st.booleans()):
        return [x], (key[0],), {}
    return [x], (tuple(key),), {}


def mask_key(b, x):
    """x[x > 0], a boolean mask of x's own values."""
    return [x], (), {}


def expand_sizes(b, x):
    shape = b.shape(x)
    sizes = [b.draw(st.sampled_from([1, 2, 3, -1])) if n == 1 else
             b.draw(st.sampled_from([n, -1])) for n in shape]
    if b.draw(st.booleans()) and len(shape) < MAX_NDIM:
        sizes = [b.draw(st.integers(1, 2))] + sizes
    return [x], tuple(sizes) if sizes else ((),), {}  # x.expand(()) for a 0-d x


def broadcast_shape(b, x):
    _, sizes, _ = expand_sizes(b, x)
    shape = b.shape(x)
    offset = len(sizes) - len(shape)
    return [x], (tuple(shape[i - offset] if s == -1 else s for i, s in enumerate(sizes)),), {}


def joined(b, x):
    """cat: one to two more operands, equal to x's shape except along dim."""
    shape = b.shape(x)
    ndim = len(shape)
    dim = _dim(b, ndim)
    others = []
    for _ in range(b.draw(st.integers(1, 2))):
        if b.draw(st.booleans()):
            others.append(x)
            continue
        other = list(shape)
        if ndim:
            other[dim] = b.draw(st.integers(1, 2))
        axis = dim % max(ndim, 1)
        others.append(b.pick(lambda s, o=tuple(other), d=axis: len(s) == ndim
                             and all(a == c for k, (a, c) in enumerate(zip(s, o)) if k != d),
                             shape=tuple(other)))
    return [x, *others], (), {"dim": dim}


def stacked(b, x):
    shape = b.shape(x)
    if len(shape) >= MAX_NDIM:
        return None
    others = [x if b.draw(st.booleans()) else b.pick(lambda s: s == shape, shape=shape)
              for _ in range(b.draw(st.integers(1, 2)))]
    return [x, *others], (), {"dim": b.draw(st.integers(-len(shape) - 1, len(shape)))}


def flip_dims(b, x):
    ndim = len(b.shape(x))
    if ndim == 0:
        return [x], ((0,),), {}
    dims = b.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return [x], (tuple(dims),), {}


def matmul_operand(b, x):
    shape = b.shape(x)
    if not shape:
        return [x, b.new_input((b.draw(st.integers(1, 3)),))], (), {}  # PyTorch refuses 0-d
    n = shape[-1]
    kind = b.draw(st.sampled_from(["vector", "matrix", "batched"]))
    k = b.draw(st.integers(1, 3))
    if kind == "vector":
        want = (n,)
    elif kind == "matrix":
        want = (n, k)
    else:
        want = (b.draw(st.integers(1, 2)), n, k)

    def fits(s):
        return len(s) >= 1 and s[-2 if len(s) > 1 else -1] == n and (
            len(s) < 3 or len(shape) < 3 or _broadcasts(s[:-2], shape[:-2]))

    return [x, b.pick(fits, shape=want)], (), {}




def run_step(ops, step, operands, torch_side):
    ours, theirs, _ = ops[step.op]
    fn = theirs if torch_side else ours
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # x.T on 3-D, var with one element, ...
        return fn(*operands, *step.args, **step.kwargs)


@st.composite
def programs(draw, ops, min_ops=2, max_ops=8, names=None):
    """A random program of ``min_ops`` to ``max_ops`` steps (plus the steps ``positive``
    inserts) of the ops ``names`` (default: all of ``ops``)."""
    dtypes = draw(st.sampled_from([(np.float32,), (np.float64,), (np.float32, np.float64)]))
    b = Builder(ops, draw, dtypes)
    b.new_input()
    refused = None
    for _ in range(draw(st.integers(min_ops, max_ops))):
        x = b.pick(fresh=0.1)
        name = draw(st.sampled_from(sorted(names or ops)))
        before = len(b.nodes)
        try:
            drawn = ops[name][2](b, x)
            if drawn is None:
                continue
            out = b.apply(name, *drawn)
        except Refused as e:
            refused = str(e)
            break
        if b.values[out].numel() > MAX_ELEMENTS or b.values[out].ndim > MAX_NDIM:
            del b.nodes[before:], b.values[before:]  # too big: drop it and what it added
    if not any(isinstance(node, Step) for node in b.nodes):
        b.apply("exp", [len(b.nodes) - 1])
    nodes = b.nodes
    if refused is None:  # the output is the last step
        nodes = nodes[:max(i for i, node in enumerate(nodes) if isinstance(node, Step)) + 1]
    return Program(_live(nodes), refused)


def _live(nodes):
    """The nodes the output (the last node) depends on, renumbered."""
    live = {len(nodes) - 1}
    for i in range(len(nodes) - 1, -1, -1):
        if i in live and isinstance(nodes[i], Step):
            live.update(nodes[i].operands)
    number = {old: new for new, old in enumerate(sorted(live))}
    return [Step(node.op, tuple(number[j] for j in node.operands), node.args, node.kwargs)
            if isinstance(node, Step) else node for i, node in enumerate(nodes) if i in live]


# ------------------------------------------------------------------------------------------------
# Running a program and comparing the engines

TOLERANCES = {  # dtype -> (rtol, atol relative to the largest finite magnitude, at least 1)
    np.dtype(np.float64): (1e-9, 1e-11),
    np.dtype(np.float32): (1e-4, 1e-5),
}


class Discrepancy(AssertionError):
    pass


def execute(program, ops, leaves, torch_side):
    values = {}
    for i, node in enumerate(program.nodes):
        if isinstance(node, Input):
            values[i] = leaves[program.leaves.index(i)]
        else:
            values[i] = run_step(ops, node, [values[j] for j in node.operands], torch_side)
    return values[len(program.nodes) - 1]


def _array(x):
    if x is None:
        return None
    if isinstance(x, torch.Tensor):
        if x._is_zerotensor():  # forward mode's zero tangent
            return np.zeros(tuple(x.shape), _dtype(x))
        return x.detach().numpy()
    return np.asarray(x.data)


def _dtype(x):
    if isinstance(x, torch.Tensor):
        return np.dtype(str(x.dtype).removeprefix("torch."))
    return np.dtype(x.dtype)


def _precision(program):
    """float32 if any leaf is float32 or any step casts to it, else float64: a float64 result
    computed from float32 values carries float32's rounding."""
    if any(isinstance(node, Input) and node.dtype == np.float32 or
           isinstance(node, Step) and node.op == "float" for node in program.nodes):
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _check_close(what, ours, theirs, program):
    if theirs is None:
        if ours is not None and np.any(_array(ours) != 0):
            raise Discrepancy(f"{what}: ours is {_array(ours)}, PyTorch's is None")
        return
    expected = _array(theirs)
    if ours is None:
        if np.any(expected != 0):
            raise Discrepancy(f"{what}: ours is None, PyTorch's is {expected}")
        return
    got = _array(ours)
    if _dtype(ours) != _dtype(theirs):
        raise Discrepancy(f"{what}: dtype {_dtype(ours)} here, {_dtype(theirs)} in PyTorch")
    if got.shape != expected.shape:
        raise Discrepancy(f"{what}: shape {got.shape} here, {expected.shape} in PyTorch")
    rtol, atol = TOLERANCES[min(np.dtype(expected.dtype), _precision(program))]
    finite = np.abs(expected[np.isfinite(expected)])
    atol *= max(1.0, float(finite.max()) if finite.size else 1.0)
    if not np.allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True):
        raise Discrepancy(f"{what}: ours {got.tolist()}\n  PyTorch's {expected.tolist()}")


def _attempt(fn):
    try:
        return fn(), None
    except Discrepancy:
        raise
    except Exception as e:  # noqa: BLE001 - which exception each engine raises is compared
        return None, e


def _agree_on_refusal(what, ours_error, torch_error):
    """True when both refused; Discrepancy when only one did."""
    if torch_error is not None and ours_error is None:
        raise Discrepancy(f"{what}: PyTorch refuses ({type(torch_error).__name__}: "
                          f"{torch_error}) but this engine accepts")
    if ours_error is not None and torch_error is None:
        raise Discrepancy(f"{what}: this engine refuses ({type(ours_error).__name__}: "
                          f"{ours_error}) but PyTorch accepts") from ours_error
    return torch_error is not None


def excluded(discrepancy, program, exclusions):
    """The name of the exclusion that covers ``discrepancy``, or None. An exclusion is
    (ops, regex, [precision,] reason): the program uses one of ``ops`` (None: any), the message
    matches, and (when given) the program computes in that precision ("float32")."""
    for name, (ops, pattern, *only, _) in exclusions.items():
        if only and _precision(program) != np.dtype(only[0]):
            continue
        if (ops is None or any(isinstance(node, Step) and node.op in ops
                               for node in program.nodes)) and re.search(pattern,
                                                                         str(discrepancy)):
            return name
    return None


def _random_like(rng, value):
    array = np.asarray(rng.standard_normal(tuple(value.shape))).round(2)
    return np.asarray(array, dtype=_dtype(value))


def _zeros_for_none(grads, leaves):
    return [np.zeros(tuple(leaf.shape), _dtype(leaf)) if g is None else g
            for g, leaf in zip(grads, leaves)]


def compare(program, ops, seed, exclusions=None):
    """``exclusions``: name -> (ops, regex, reason), PyTorch's own inconsistencies: a phase
    (output, gradients, second derivatives, forward mode) whose discrepancy they cover (see
    ``excluded``) is not compared further."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's and PyTorch's about inf and nan
        _compare(program, ops, seed, exclusions or {})


def _compare(program, ops, seed, exclusions):
    rng = np.random.default_rng(seed)
    inputs = [program.nodes[i] for i in program.leaves]
    ours_leaves = [node.ours() for node in inputs]
    torch_leaves = [node.torch() for node in inputs]
    upstream = None  # set by the output phase

    def phase(check):
        """Run one comparison; False if it ended the comparison (both refused, or a
        difference an exclusion covers)."""
        try:
            return check() is not False
        except Discrepancy as e:
            if excluded(e, program, exclusions) is None:
                raise
            return False

    def output():
        nonlocal upstream
        theirs, torch_error = _attempt(lambda: execute(program, ops, torch_leaves, True))
        ours, ours_error = _attempt(lambda: execute(program, ops, ours_leaves, False))
        if _agree_on_refusal("forward", ours_error, torch_error):
            return False
        _check_close("output", ours, theirs, program)
        upstream = _random_like(rng, theirs)

    if not phase(output):
        return
    finite_upstream = upstream.copy()
    if rng.integers(0, 8) == 0 and upstream.size:  # an infinite incoming gradient
        upstream.flat[rng.integers(0, upstream.size)] = np.inf
    weights = [_random_like(rng, leaf) for leaf in torch_leaves]
    tangents = [_random_like(rng, leaf) for leaf in torch_leaves]

    def torch_grads(create_graph, upstream=upstream):
        out = execute(program, ops, torch_leaves, True)
        return torch.autograd.grad(out, torch_leaves, torch.from_numpy(upstream.copy()),
                                   allow_unused=True, create_graph=create_graph)

    def ours_grads(create_graph, upstream=upstream):
        out = execute(program, ops, ours_leaves, False)
        return ag.grad(out, ours_leaves, ag.tensor(upstream.copy(), dtype=upstream.dtype),
                       allow_unused=True, create_graph=create_graph)

    def gradients(create_graph):
        theirs_g, torch_error = _attempt(lambda: torch_grads(create_graph))
        ours_g, ours_error = _attempt(lambda: ours_grads(create_graph))
        what = "gradient" + (" (create_graph=True)" if create_graph else "")
        if _agree_on_refusal(what, ours_error, torch_error):
            return False
        for k, (o, t) in enumerate(zip(ours_g, theirs_g)):
            _check_close(f"{what} of input v{program.leaves[k]}", o, t, program)

    def second(grads, leaves, as_tensor, grad_fn):
        """d/dx_i of sum_k <grad_k, w_k>."""
        total = None
        for g, w in zip(grads, weights):
            if g is not None and g.requires_grad:
                term = (g * as_tensor(w)).sum()
                total = term if total is None else total + term
        if total is None:  # no gradient depends on the leaves
            return [None] * len(leaves)
        return grad_fn(total, leaves)

    def second_derivatives():
        """From a finite upstream gradient: with an infinite one, whether a product of inf
        with a zero factor appears depends on how each engine writes the formula."""
        theirs_2, torch_error = _attempt(lambda: second(
            torch_grads(True, finite_upstream), torch_leaves,
            lambda w: torch.from_numpy(w.copy()),
            lambda s, xs: torch.autograd.grad(s, xs, allow_unused=True)))
        ours_2, ours_error = _attempt(lambda: second(
            ours_grads(True, finite_upstream), ours_leaves,
            lambda w: ag.tensor(w.copy(), dtype=w.dtype),
            lambda s, xs: ag.grad(s, xs, allow_unused=True)))
        if not _agree_on_refusal("second derivative", ours_error, torch_error):
            for k, (o, t) in enumerate(zip(ours_2, theirs_2)):
                _check_close(f"second derivative of input v{program.leaves[k]}", o, t, program)

    def jvp(fw, leaves, as_tensor, torch_side):
        with fw.dual_level():
            duals = [fw.make_dual(leaf.detach(), as_tensor(t)) for leaf, t in
                     zip(leaves, tangents)]
            out = execute(program, ops, duals, torch_side)
            return out, fw.unpack_dual(out).tangent

    def forward_mode():
        """Dual numbers in both engines (torch.func.jvp gives a float32 program a float64
        tangent after ``0-d tensor + number``; torch.autograd.forward_ad does not)."""
        theirs_j, torch_error = _attempt(lambda: jvp(
            torch.autograd.forward_ad, torch_leaves, lambda t: torch.from_numpy(t.copy()), True))
        ours_j, ours_error = _attempt(lambda: jvp(
            ag.forward_ad, ours_leaves, lambda t: ag.tensor(t.copy(), dtype=t.dtype), False))
        if _agree_on_refusal("forward mode", ours_error, torch_error):
            return False
        _check_close("forward-mode value", ours_j[0], theirs_j[0], program)
        ours_t, theirs_t = ours_j[1], theirs_j[1]
        if theirs_t is None:  # PyTorch's output does not depend on the leaves
            theirs_t = torch.zeros_like(theirs_j[0])
        if ours_t is None:
            ours_t = ag.zeros_like(ours_j[0])
        _check_close("forward-mode JVP", ours_t, theirs_t, program)

    if phase(lambda: gradients(False)) and phase(lambda: gradients(True)):
        phase(second_derivatives)
    phase(forward_mode)


# -- drawers of the course ops (special functions, scans, rearranging, matrices) --


def in_range(b, x):
    """Any x: the op maps it into its domain first (asin(0.9·tanh x))."""
    return [x], (), {}


def amax_dims(b, x):
    """amax/amin: no dim (all), one dim or several, keepdim either way."""
    operands, args, kwargs = reduce_dims(b, x)
    if "dim" in kwargs and kwargs["dim"] is None:
        del kwargs["dim"]
    return operands, args, kwargs


def diff_args(b, x):
    return [x], (), {"n": b.draw(st.sampled_from([1, 1, 2])), "dim": _dim(b, len(b.shape(x)))}


def narrow_args(b, x):
    shape = b.shape(x)
    if not shape:
        return None
    dim = _dim(b, len(shape))
    n = shape[dim]
    start = b.draw(st.integers(-n, n - 1))
    return [x], (dim, start, b.draw(st.integers(0, n - start % n))), {}


def two_axes(b, x):
    """movedim's source and destination."""
    ndim = len(b.shape(x))
    return [x], (_dim(b, ndim), _dim(b, ndim)), {}


def repeats(b, x):
    dim = b.draw(st.sampled_from([None, _dim(b, len(b.shape(x)))]))
    return [x], (b.draw(st.integers(1, 3)),), {"dim": dim}


def diagonal_args(b, x):
    ndim = len(b.shape(x))
    if ndim < 2:
        return None
    dim1, dim2 = b.draw(st.permutations(list(range(ndim))))[:2]
    return [x], (), {"offset": b.draw(st.integers(-2, 2)), "dim1": dim1, "dim2": dim2}


def diag_args(b, x):
    if len(b.shape(x)) not in (1, 2):
        return None
    return [x], (b.draw(st.integers(-1, 1)),), {}


def triangle(b, x):
    if len(b.shape(x)) < 2:
        return None
    return [x], (b.draw(st.integers(-1, 1)),), {}


def roll_args(b, x):
    ndim = len(b.shape(x))
    shift = b.draw(st.integers(-3, 3))
    if ndim and b.draw(st.booleans()):
        return [x], (shift,), {"dims": _dim(b, ndim)}
    return [x], (shift,), {}


def mm_operand(b, x):
    shape = b.shape(x)
    if len(shape) != 2:
        return None
    k = shape[1]
    return [x, b.pick(lambda s: len(s) == 2 and s[0] == k,
                      shape=(k, b.draw(st.integers(1, 3))))], (), {}


def mv_operand(b, x):
    shape = b.shape(x)
    if len(shape) != 2:
        return None
    return [x, b.pick(lambda s: s == (shape[1],), shape=(shape[1],))], (), {}


def any_other(b, x):
    """kron: a second operand of any shape up to two axes."""
    return [x, b.pick(lambda s: len(s) <= 2)], (), {}


def cross_operand(b, x):
    shape = b.shape(x)
    threes = [d for d, n in enumerate(shape) if n == 3]
    if not threes:
        return None
    return [x, b.pick(lambda s: s == shape, shape=shape)], (), {"dim": b.draw(
        st.sampled_from(threes))}


def tensordot_operand(b, x):
    shape = b.shape(x)
    if not shape:
        return None
    k = shape[-1]
    other = b.pick(lambda s: len(s) >= 1 and s[0] == k,
                   shape=(k, *b.draw(st.lists(st.integers(1, 3), max_size=2))))
    return [x, other], (), {"dims": 1}


def quantile_args(b, x):
    q = b.draw(st.sampled_from([0.0, 0.25, 0.5, 0.7, 1.0]))
    if b.draw(st.booleans()):
        return [x], (q,), {}
    return [x], (q,), {"dim": _dim(b, len(b.shape(x))), "keepdim": b.draw(st.booleans())}


# -- drawers of the ops added next (integer arguments travel as Python lists; the table's
#    lambdas turn them into each engine's index tensors) --


def polygamma_order(b, x):
    return [b.positive(x)], (b.draw(st.integers(0, 2)),), {}


def tensor_bounds(b, x):
    """clamp(x, low, high) with tensor bounds broadcasting with x (either may be None)."""
    shape = b.shape(x)
    low, high = (b.pick(lambda s: _broadcasts(shape, s), shape=broadcastable_shape(b, shape))
                 if b.draw(st.integers(0, 3)) else None for _ in range(2))
    if low is None and high is None:
        low = b.pick(lambda s: _broadcasts(shape, s), shape=broadcastable_shape(b, shape))
    return [x], (), {"min": low, "max": high}


def integer_input(b, shape, low, high):
    """A new leaf of integer values in [low, high] (exponents of pow)."""
    n = math.prod(shape)
    values = b.draw(st.lists(st.integers(low, high), min_size=n, max_size=n))
    array = np.array(values, dtype=b.draw(st.sampled_from(b.dtypes))).reshape(shape)
    node = Input(array, "plain")
    return b._add(node, node.torch().detach())


def integer_exponent(b, x):
    """x ** n with x of any sign (negative bases, zeros) and n integer: a number or a tensor."""
    if b.draw(st.booleans()):
        return [x], (b.draw(st.sampled_from([2, 3, -1, -2, 2.0, 3.0, -1.0, 0, 4])),), {}
    return [x, integer_input(b, broadcastable_shape(b, b.shape(x)), -2, 3)], (), {}


def three_broadcasting(b, x):
    """lerp(x, end, weight): end a tensor, weight a number or a tensor, broadcasting with x."""
    shape = b.shape(x)
    end = b.pick(lambda s: _broadcasts(shape, s), shape=broadcastable_shape(b, shape))
    if b.draw(st.booleans()):
        return [x, end], (b.draw(st.sampled_from([0.0, 0.25, 1.0, 1.5, -0.5])),), {}
    weight = b.pick(lambda s: _broadcasts(shape, s), shape=broadcastable_shape(b, shape))
    return [x, end, weight], (), {}


def bmm_operand(b, x):
    shape = b.shape(x)
    if len(shape) != 3:
        return None
    want = (shape[0], shape[2], b.draw(st.integers(1, 3)))
    return [x, b.pick(lambda s: len(s) == 3 and s[:2] == want[:2], shape=want)], (), {}


def same_vector(b, x):
    """dot: a second 1-D operand of x's length."""
    shape = b.shape(x)
    if len(shape) != 1:
        return None
    return [x, b.pick(lambda s: s == shape, shape=shape)], (), {}


def any_vector(b, x):
    """outer: a second 1-D operand of any length."""
    if len(b.shape(x)) != 1:
        return None
    return [x, b.pick(lambda s: len(s) == 1, shape=(b.draw(st.integers(1, 3)),))], (), {}


def addmm_operands(b, x):
    """addmm(input, x, mat2): x (n, m), mat2 (m, k), input broadcasting to (n, k)."""
    shape = b.shape(x)
    if len(shape) != 2:
        return None
    n, m = shape
    mat2 = b.pick(lambda s: len(s) == 2 and s[0] == m, shape=(m, b.draw(st.integers(1, 3))))
    k = b.shape(mat2)[1]
    base = b.pick(lambda s: len(s) <= 2 and _broadcasts(s, (n, k)),
                  shape=broadcastable_shape(b, (n, k)))
    return [base, x, mat2], (), {"beta": b.draw(st.sampled_from([1.0, 0.5, 0.0])),
                                 "alpha": b.draw(st.sampled_from([1.0, -2.0]))}


EINSUM = {  # x's ndim -> equations with x first (and a second operand's shape from x's)
    1: [("i->", None), ("i,i->", lambda s: s), ("i,j->ij", lambda s: (2,)),
        ("i,ij->j", lambda s: (s[0], 2))],
    2: [("ij->ji", None), ("ij->", None), ("ij,jk->ik", lambda s: (s[1], 2)),
        ("ij,ij->i", lambda s: s), ("ii->i", None), ("ij,j->i", lambda s: (s[1],))],
    3: [("bij,bjk->bik", lambda s: (s[0], s[2], 2)), ("ijk->kj", None),
        ("ijk,ik->j", lambda s: (s[0], s[2]))],
}


def einsum_args(b, x):
    shape = b.shape(x)
    if len(shape) not in EINSUM:
        return None
    equation, other = b.draw(st.sampled_from(EINSUM[len(shape)]))
    if other is None:
        return [x], (), {"equation": equation}
    want = other(shape)
    return [x, b.pick(lambda s: s == want, shape=want)], (), {"equation": equation}


def cdist_operand(b, x):
    shape = b.shape(x)
    if len(shape) != 2:
        return None
    other = b.pick(lambda s: len(s) == 2 and s[1] == shape[1],
                   shape=(b.draw(st.integers(1, 3)), shape[1]))
    return [x, other], (), {"p": b.draw(st.sampled_from([2.0, 1.0, math.inf, 3.0]))}


def _index_shape(b, shape, dim):
    """gather's index shape: at most x's size on every axis but ``dim`` (any on dim)."""
    return tuple(b.draw(st.integers(1, 3)) if d == dim else b.draw(st.integers(1, n))
                 for d, n in enumerate(shape))


def _indices(b, shape, n):
    count = math.prod(shape)
    return np.array(b.draw(st.lists(st.integers(0, n - 1), min_size=count, max_size=count)),
                    dtype=np.int64).reshape(shape).tolist()


def gather_args(b, x):
    shape = b.shape(x)
    if not shape:
        return [x], (0, 0), {}
    dim = b.draw(st.integers(0, len(shape) - 1))
    index = _indices(b, _index_shape(b, shape, dim), shape[dim])
    return [x], (b.draw(st.sampled_from([dim, dim - len(shape)])), index), {}


def scatter_args(b, x):
    """scatter(x, dim, index, src): index has no repeats along dim (which of two writes to one
    place wins is not defined), src a node of index's shape."""
    shape = b.shape(x)
    if not shape:
        return None
    dim = b.draw(st.integers(0, len(shape) - 1))
    index_shape = _index_shape(b, shape, dim)
    length = min(index_shape[dim], shape[dim])
    index_shape = index_shape[:dim] + (length,) + index_shape[dim + 1:]
    rows = [b.draw(st.permutations(range(shape[dim])))[:length]
            for _ in range(math.prod(index_shape) // length)]
    index = np.moveaxis(np.array(rows, dtype=np.int64).reshape(
        index_shape[:dim] + index_shape[dim + 1:] + (length,)), -1, dim).tolist()
    src = b.pick(lambda s: s == index_shape, shape=index_shape)
    return [x, src], (dim, index), {}


def scatter_add_args(b, x):
    """scatter_add: repeated indices add up."""
    shape = b.shape(x)
    if not shape:
        return None
    dim = b.draw(st.integers(0, len(shape) - 1))
    index_shape = _index_shape(b, shape, dim)
    src = b.pick(lambda s: s == index_shape, shape=index_shape)
    return [x, src], (dim, _indices(b, index_shape, shape[dim])), {}


def index_select_args(b, x):
    shape = b.shape(x) or (1,)
    dim = _dim(b, len(b.shape(x)))
    return [x], (dim, _indices(b, (b.draw(st.integers(1, 4)),), shape[dim])), {}


def index_add_args(b, x):
    shape = b.shape(x)
    if not shape:
        return None
    dim = _dim(b, len(shape))
    index = _indices(b, (b.draw(st.integers(1, 4)),), shape[dim])
    want = shape[:dim % len(shape)] + (len(index),) + shape[dim % len(shape) + 1:]
    source = b.pick(lambda s: s == want, shape=want)
    return [x, source], (dim, index), {"alpha": b.draw(st.sampled_from([1, 2.0, -0.5]))}


def mask_and_value(b, x):
    """masked_fill(x, m > 0, value): the mask from a leaf broadcasting to x's shape."""
    shape = b.shape(x)
    mask = b.new_input(tuple(n if b.draw(st.booleans()) else 1 for n in shape)[
        b.draw(st.integers(0, len(shape))):])
    return [x, mask], (b.draw(st.sampled_from(SCALARS + [math.inf])),), {}


def mask_operand(b, x):
    """masked_select(x, m > 0): the mask from a leaf broadcasting with x."""
    return [x, b.new_input(broadcastable_shape(b, b.shape(x)))], (), {}


def topk_args(b, x):
    shape = b.shape(x)
    dim = _dim(b, len(shape))
    n = shape[dim] if shape else 1
    return [x], (b.draw(st.integers(1, n)),), {"dim": dim, "largest": b.draw(st.booleans())}


def median_args(b, x):
    if b.draw(st.booleans()):
        return [x], (), {}
    return reduce_one_dim(b, x)


def tile_sizes(b, x):
    return [x], (tuple(b.draw(st.lists(st.integers(1, 2), max_size=MAX_NDIM))),), {}


def repeat_sizes(b, x):
    """Tensor.repeat needs at least x.ndim sizes (PyTorch refuses fewer)."""
    ndim = len(b.shape(x))
    return [x], (tuple(b.draw(st.lists(st.integers(1, 2), min_size=max(ndim - 1, 0),
                                       max_size=min(ndim + 1, MAX_NDIM)))),), {}


def unflatten_args(b, x):
    shape = b.shape(x)
    if not shape:
        return None
    dim = _dim(b, len(shape))
    return [x], (dim, _factor(b, shape[dim])), {}


def piece_args(b, x):
    """chunk/split: how many or how long, the dim, and which piece."""
    ndim = len(b.shape(x))
    return [x], (b.draw(st.integers(1, 3)), _dim(b, ndim), b.draw(st.integers(-1, 2))), {}


def unbind_args(b, x):
    ndim = len(b.shape(x))
    return [x], (_dim(b, ndim), b.draw(st.integers(-1, 2))), {}


def same_shapes(b, x):
    """hstack and friends: one or two more operands of x's shape (or x itself)."""
    shape = b.shape(x)
    return [x, *[x if b.draw(st.booleans()) else b.pick(lambda s: s == shape, shape=shape)
                 for _ in range(b.draw(st.integers(1, 2)))]], (), {}


def diag_embed_args(b, x):
    if len(b.shape(x)) >= MAX_NDIM - 1 or not b.shape(x):
        return None
    return [x], (), {"offset": b.draw(st.integers(-1, 1))}


def pad_args(b, x):
    ndim = len(b.shape(x))
    mode = b.draw(st.sampled_from(["constant", "constant", "reflect", "replicate", "circular"]))
    count = b.draw(st.integers(1, max(min(ndim, 3), 1)))
    pads = tuple(b.draw(st.integers(-1 if mode == "constant" else 0, 2))
                 for _ in range(2 * count))
    kwargs = {"mode": mode}
    if mode == "constant":
        kwargs["value"] = b.draw(st.sampled_from([0.0, 1.5]))
    return [x], (pads,), kwargs


def conv_args(b, x, spatial):
    """conv1d/conv2d: x (N, C, *size) or unbatched (C, *size), a new weight, maybe a bias."""
    shape = b.shape(x)
    if len(shape) not in (spatial + 1, spatial + 2):
        return None
    channels = shape[-spatial - 1]
    groups = b.draw(st.sampled_from([1, channels])) if channels > 1 else 1
    out = groups * b.draw(st.integers(1, 2))
    kernel = tuple(b.draw(st.integers(1, 2)) for _ in range(spatial))
    weight = b.pick(lambda s: s == (out, channels // groups, *kernel),
                    shape=(out, channels // groups, *kernel))
    operands = [x, weight]
    if b.draw(st.booleans()):
        operands.append(b.pick(lambda s: s == (out,), shape=(out,)))
    return operands, (), {"stride": b.draw(st.integers(1, 2)),
                          "padding": b.draw(st.integers(0, 1)),
                          "dilation": b.draw(st.integers(1, 2)), "groups": groups}


def conv1d_args(b, x):
    return conv_args(b, x, 1)


def conv2d_args(b, x):
    return conv_args(b, x, 2)


def pool_args(b, x):
    """avg_pool2d/max_pool2d on (N, C, H, W) or (C, H, W)."""
    if len(b.shape(x)) not in (3, 4):
        return None
    kernel = b.draw(st.sampled_from([1, 2, (1, 2), (2, 1)]))
    return [x], (kernel,), {"stride": b.draw(st.sampled_from([None, 1, 2])),
                            "padding": b.draw(st.sampled_from([0, 0, 1])),
                            "ceil_mode": b.draw(st.booleans())}


def adaptive_size(b, x):
    if len(b.shape(x)) not in (3, 4):
        return None
    return [x], (b.draw(st.sampled_from([1, 2, (1, 2), (3, 1)])),), {}


def target_like(b, x):
    """A loss's target: a node of x's shape (rarely one that only broadcasts), a reduction."""
    shape = b.shape(x)
    target = b.pick(lambda s: s == shape, shape=shape)
    return [x, target], (), {"reduction": b.draw(st.sampled_from(["mean", "sum", "none"]))}


def beta_target(b, x):
    operands, args, kwargs = target_like(b, x)
    return operands, args, {**kwargs, "beta": b.draw(st.sampled_from([1.0, 0.5, 2.0]))}


def delta_target(b, x):
    operands, args, kwargs = target_like(b, x)
    return operands, args, {**kwargs, "delta": b.draw(st.sampled_from([1.0, 0.5, 2.0]))}


def kl_target(b, x):
    operands, args, kwargs = target_like(b, x)
    log_target = b.draw(st.booleans())
    if not log_target:
        operands[1] = b.positive(operands[1])
    reduction = b.draw(st.sampled_from(["batchmean", "sum", "none", "mean"]))
    return operands, args, {**kwargs, "reduction": reduction, "log_target": log_target}


def class_targets(b, x):
    """cross_entropy/nll_loss: x (N, C) or (C,), class indices (N,) or (), a reduction."""
    shape = b.shape(x)
    if len(shape) not in (1, 2):
        return None
    classes = shape[-1]
    target = _indices(b, shape[:-1], classes)
    return [x], (target,), {"reduction": b.draw(st.sampled_from(["mean", "sum", "none"]))}


def smoothed_class_targets(b, x):
    drawn = class_targets(b, x)
    if drawn is None:
        return None
    operands, args, kwargs = drawn
    return operands, args, {**kwargs, "label_smoothing": b.draw(st.sampled_from([0.0, 0.1]))}


def layer_norm_args(b, x):
    shape = b.shape(x)
    if not shape:
        return None
    normalized = shape[len(shape) - b.draw(st.integers(1, len(shape))):]
    operands = [x]
    if b.draw(st.booleans()):
        operands += [b.pick(lambda s: s == normalized, shape=normalized) for _ in range(2)]
    return operands, (normalized,), {}


def normalize_args(b, x):
    return [x], (), {"p": b.draw(st.sampled_from([2.0, 1.0, 3.0])),
                     "dim": _dim(b, len(b.shape(x)))}


def cosine_args(b, x):
    shape = b.shape(x)
    other = b.pick(lambda s: _broadcasts(shape, s), shape=broadcastable_shape(b, shape))
    ndim = max(len(shape), len(b.shape(other)))
    return [x, other], (), {"dim": _dim(b, ndim)}


def glu_dim(b, x):
    shape = b.shape(x)
    even = [d for d, n in enumerate(shape) if n % 2 == 0]
    if not even:
        return None
    return [x], (), {"dim": b.draw(st.sampled_from(even))}


def shrink_lambda(b, x):
    return [x], (), {"lambd": b.draw(st.sampled_from([0.5, 1.0, 0.0]))}


def threshold_args(b, x):
    return [x], (b.draw(st.sampled_from(GRID)), b.draw(st.sampled_from(SCALARS))), {}


def prelu_weight(b, x):
    """prelu's weight: one slope, or one per channel (axis 1)."""
    shape = b.shape(x)
    want = (shape[1],) if len(shape) >= 2 and b.draw(st.booleans()) else (1,)
    return [x, b.pick(lambda s: s == want, shape=want)], (), {}
