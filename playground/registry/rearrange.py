"""Registry entries: PyTorch's rearranging functions (``autograd/ops/rearrange.py``): narrow,
movedim, moveaxis, repeat_interleave, unflatten, the four stacks and the diagonals. They move
elements only, so each gradient moves them back.

``masked_select`` stays engine-only: its length is the mask's count of 1s, a value the budget
cannot know from shapes before computing; ``meshgrid`` returns a tuple: ``broadcast_to`` gives
each of its grids.
"""

import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

import autograd as ag

from .. import torch_code
from .entry import Attr, OpInfo, refusing

DIM = Attr("dim", "dim", None, required=True, suggested=0)
OFFSET = Attr("offset", "dim", 0)


def _placeholder(shape):
    """An array of ``shape`` that takes no memory: NumPy works out views of it for free."""
    return np.broadcast_to(np.empty((), dtype=bool), shape)


def _joined(shapes, axis, name):
    """The shape of ``shapes`` concatenated along ``axis``, the other axes equal."""
    first = shapes[0]
    axis = normalize_axis_index(axis, len(first))
    if any(len(s) != len(first) or s[:axis] + s[axis + 1:] != first[:axis] + first[axis + 1:]
           for s in shapes):
        raise ValueError(f"{name}: the tensors' other axes differ")
    return first[:axis] + (sum(s[axis] for s in shapes),) + first[axis + 1:]


def _at_least(shape, ndim):
    """``shape`` made ``ndim``-D as atleast_2d / atleast_3d make it (the engine's _at_least)."""
    if len(shape) >= ndim:
        return shape
    return {0: (1,) * ndim, 1: (1, *shape) + (1,) * (ndim - 2), 2: (*shape, 1)}[len(shape)]


def _hstack_shape(shapes, attrs):
    shapes = [s or (1,) for s in shapes]
    return _joined(shapes, 0 if all(len(s) == 1 for s in shapes) else 1, "hstack")


def _column_stack_shape(shapes, attrs):
    return _joined([s if len(s) >= 2 else (math.prod(s), 1) for s in shapes], 1, "column_stack")


def _narrow_shape(shapes, attrs):
    shape = shapes[0]
    dim = normalize_axis_index(attrs["dim"], len(shape))
    start, length = attrs.get("start", 0), attrs["length"]
    start = start + shape[dim] if start < 0 else start
    if not (0 <= start <= shape[dim] and 0 <= length <= shape[dim] - start):
        raise ValueError("narrow: start + length exceeds the axis")
    return shape[:dim] + (length,) + shape[dim + 1:]


def _moved_shape(shapes, attrs):
    return np.moveaxis(_placeholder(shapes[0]), attrs["source"], attrs["destination"]).shape


def _repeat_interleave_shape(shapes, attrs):
    shape, repeats, dim = shapes[0], attrs["repeats"], attrs.get("dim")
    if dim is None:
        shape, dim = (math.prod(shape),), 0
    dim = normalize_axis_index(dim, max(len(shape), 1))
    if isinstance(repeats, tuple):
        if len(repeats) != shape[dim] or min(repeats) < 0:
            raise ValueError("repeat_interleave: one count of 0 or more per slice")
        count = sum(repeats)
    else:
        count = shape[dim] * repeats
    return shape[:dim] + (count,) + shape[dim + 1:]


def _unflatten_shape(shapes, attrs):
    shape = shapes[0]
    dim = normalize_axis_index(attrs["dim"], len(shape))
    sizes, known = tuple(attrs["sizes"]), math.prod(n for n in attrs["sizes"] if n != -1)
    if -1 in sizes:
        if known == 0 or shape[dim] % known:
            raise ValueError("unflatten: the sizes do not fit the axis")
        sizes = tuple(shape[dim] // known if n == -1 else n for n in sizes)
    if math.prod(sizes) != shape[dim]:
        raise ValueError("unflatten: the sizes do not fit the axis")
    return shape[:dim] + sizes + shape[dim + 1:]


def _diag_embed_shape(shapes, attrs):
    shape, offset = shapes[0], attrs.get("offset", 0)
    size = (shape[-1] if shape else 1) + abs(offset)
    return np.moveaxis(_placeholder(shape[:-1] + (size, size)), (-2, -1),
                       (attrs.get("dim1", -2), attrs.get("dim2", -1))).shape


def _diagonal_shape(shapes, attrs):
    return np.diagonal(_placeholder(shapes[0]), attrs.get("offset", 0), attrs.get("dim1", 0),
                       attrs.get("dim2", 1)).shape


def _diag_shape(shapes, attrs):
    shape, k = shapes[0], attrs.get("diagonal", 0)
    if len(shape) == 1:
        return (shape[0] + abs(k),) * 2
    if len(shape) != 2:
        raise ValueError("diag: a 1-D or 2-D input")
    return np.diagonal(_placeholder(shape), k).shape


def _stack_entry(name, description, sentence):
    return OpInfo(
        name, None, (), description,
        r"\bar{x}_k = \text{the slice of } \bar{y} \text{ that } x_k \text{ filled}",
        lambda *xs: getattr(ag, name)(xs), f"{name}(a, b)",
        torch_code.code(lambda x, a, n: f"torch.{name}([{', '.join(x)}])"),
        sentence=sentence,
    )


def _torch_repeats(repeats):
    return f"torch.tensor({list(repeats)})" if isinstance(repeats, tuple) else repeats


def _torch_dim(a):
    return "" if a["dim"] is None else f", dim={a['dim']}"


_DIAGONAL_ATTRS = (OFFSET, Attr("dim1", "dim", 0), Attr("dim2", "dim", 1))
_EMBED_ATTRS = (OFFSET, Attr("dim1", "dim", -2), Attr("dim2", "dim", -1))
_MOVE_ATTRS = (Attr("source", "index", None, required=True, suggested=(0,)),
               Attr("destination", "index", None, required=True, suggested=(-1,)))


def _torch_keywords(fn, attrs):
    return torch_code.call(fn, **{a.name: a.name for a in attrs})


ENTRIES = (
    OpInfo(
        "narrow", 1, (DIM, Attr("start", "count", 0),
                      Attr("length", "count", None, required=True, suggested=1)),
        "The length elements of x along dim from start on: x[:, start:start + length] if dim=1.",
        r"\bar{x}[\text{start} : \text{start} + \text{length}] = \bar{y},\ \text{zero elsewhere}",
        lambda x, dim, length, start=0: ag.narrow(x, dim, start, length),
        "narrow(x, dim=1, start=1, length=2)",
        torch_code.code(lambda x, a, n: f"torch.narrow({x[0]}, {a['dim']}, {a['start']}, "
                                        f"{a['length']})"),
        sentence="The narrowed elements get the gradient back; the rest of the input gets 0.",
    ),
    *(OpInfo(
        name, 1, _MOVE_ATTRS,
        "The axes source of x moved to the places destination; the others keep their order.",
        r"\bar{x} = \operatorname{" + name + r"}(\bar{y},\ \text{destination},\ \text{source})",
        getattr(ag, name), f"{name}(x, source=0, destination=-1)",
        torch_code.code(lambda x, a, n, name=name: f"torch.{name}({x[0]}, {a['source']}, "
                                                   f"{a['destination']})"),
        sentence="Moving axes moves values around; the gradient's axes are moved back.",
    ) for name in ("movedim", "moveaxis")),
    OpInfo(
        "repeat_interleave", 1, (Attr("repeats", "sizes", None, required=True, suggested=2),
                                 Attr("dim", "axis", None)),
        "Each element (slice along dim) repeated in place: [1, 2] by 2 gives [1, 1, 2, 2].",
        r"\bar{x}_i = \textstyle\sum_{\text{copies of } x_i} \bar{y}",
        lambda x, repeats, dim=None: ag.repeat_interleave(x, np.asarray(repeats), dim),
        "repeat_interleave(x, repeats=2, dim=0)",
        torch_code.code(lambda x, a, n: f"torch.repeat_interleave({x[0]}, "
                                        f"{_torch_repeats(a['repeats'])}{_torch_dim(a)})"),
        sentence="An element repeated n times gets the sum of its n copies' gradients.",
    ),
    OpInfo(
        "unflatten", 1, (DIM, Attr("sizes", "shape", None, required=True, suggested=(1, -1))),
        "Axis dim split into several axes of the given sizes (one may be -1).",
        r"\bar{x} = \operatorname{reshape}(\bar{y},\ \operatorname{shape}(x))",
        ag.unflatten, "unflatten(x, dim=1, sizes=(1, -1))",
        torch_code.code(lambda x, a, n: f"torch.unflatten({x[0]}, {a['dim']}, "
                                        f"{tuple(a['sizes'])})"),
        sentence="Unflattening moves no values, so the gradient is reshaped back.",
    ),
    _stack_entry("hstack", "Tensors joined along axis 1 (along axis 0 if all are vectors).",
                 "Each tensor filled one stretch of the result, so it gets that stretch back."),
    _stack_entry("vstack", "Tensors joined as rows along axis 0 (a vector becomes one row).",
                 "Each tensor filled some rows of the result, so it gets those rows back."),
    _stack_entry("dstack", "Tensors joined along axis 2, each made at least 3-D first.",
                 "Each tensor filled some depth slices, so it gets those slices back."),
    _stack_entry("column_stack", "Tensors joined as columns along axis 1 (a vector is a column).",
                 "Each tensor filled some columns of the result, so it gets those columns back."),
    OpInfo(
        "diag", 1, (Attr("diagonal", "dim", 0),),
        "A vector as a square matrix's diagonal, or a matrix's diagonal as a vector.",
        r"\bar{x} = \operatorname{diag}(\bar{y})",
        refusing(ag.diag), "diag(x, diagonal=0)", torch_code.call("torch.diag", diagonal="diagonal"),
        sentence="diag only moves values: each element gets the gradient of the place it went.",
    ),
    OpInfo(
        "diagonal", 1, _DIAGONAL_ATTRS,
        "The offset diagonal of the matrices on axes dim1, dim2, as a last axis.",
        r"\bar{x} = \operatorname{diag\_embed}(\bar{y})\ \text{on dim1, dim2}",
        refusing(ag.diagonal), "diagonal(x, offset=1)", _torch_keywords("torch.diagonal", _DIAGONAL_ATTRS),
        sentence="The diagonal's elements get the gradient back; the rest of the input gets 0.",
    ),
    OpInfo(
        "diag_embed", 1, _EMBED_ATTRS,
        "Matrices whose offset diagonal is x's last axis, zeros elsewhere.",
        r"\bar{x} = \operatorname{diagonal}(\bar{y})\ \text{on dim1, dim2}",
        ag.diag_embed, "diag_embed(x, offset=0)",
        _torch_keywords("torch.diag_embed", _EMBED_ATTRS),
        sentence="Only the diagonal came from x, so x gets the gradient's diagonal back.",
    ),
)

SHAPE_RULES = {
    "narrow": _narrow_shape,
    "movedim": _moved_shape,
    "moveaxis": _moved_shape,
    "repeat_interleave": _repeat_interleave_shape,
    "unflatten": _unflatten_shape,
    "hstack": _hstack_shape,
    "vstack": lambda shapes, attrs: _joined([_at_least(s, 2) for s in shapes], 0, "vstack"),
    "dstack": lambda shapes, attrs: _joined([_at_least(s, 3) for s in shapes], 2, "dstack"),
    "column_stack": _column_stack_shape,
    "diag": _diag_shape,
    "diagonal": _diagonal_shape,
    "diag_embed": _diag_embed_shape,
}
"""Output shapes of this module's ops, for playground.budget."""
