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
from .rules import placeholder

DIM = Attr("dim", "dim", None, required=True, suggested=0)
OFFSET = Attr("offset", "dim", 0)


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


def _vstack_shape(shapes, attrs):
    return _joined([_at_least(s, 2) for s in shapes], 0, "vstack")


def _dstack_shape(shapes, attrs):
    return _joined([_at_least(s, 3) for s in shapes], 2, "dstack")


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
    return np.moveaxis(placeholder(shapes[0]), attrs["source"], attrs["destination"]).shape


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
    return np.moveaxis(placeholder(shape[:-1] + (size, size)), (-2, -1),
                       (attrs.get("dim1", -2), attrs.get("dim2", -1))).shape


def _diagonal_shape(shapes, attrs):
    return np.diagonal(placeholder(shapes[0]), attrs.get("offset", 0), attrs.get("dim1", 0),
                       attrs.get("dim2", 1)).shape


def _diag_shape(shapes, attrs):
    shape, k = shapes[0], attrs.get("diagonal", 0)
    if len(shape) == 1:
        return (shape[0] + abs(k),) * 2
    if len(shape) != 2:
        raise ValueError("diag: a 1-D or 2-D input")
    return np.diagonal(placeholder(shape), k).shape


def _stack_entry(name, *, description, shape, sentence):
    """hstack, vstack, dstack or column_stack: ``autograd.<name>`` of one or more tensors."""
    return OpInfo(
        name, arity=None, description=description,
        derivative=r"\bar{x}_k = \text{the slice of } \bar{y} \text{ that } x_k \text{ filled}",
        apply=lambda *xs: getattr(ag, name)(xs), example=f"{name}(a, b)",
        torch=torch_code.code(lambda x, a, n: f"torch.{name}([{', '.join(x)}])"), shape=shape,
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
        "narrow", arity=1,
        attrs=(DIM, Attr("start", "count", 0),
               Attr("length", "count", None, required=True, suggested=1)),
        description=(
            "The length elements of x along dim from start on: x[:, start:start + length] if dim=1."
        ),
        derivative=(
            r"\bar{x}[\text{start} : \text{start} + \text{length}] = \bar{y},\ "
            r"\text{zero elsewhere}"
        ),
        apply=lambda x, dim, length, start=0: ag.narrow(x, dim, start, length),
        example="narrow(x, dim=1, start=1, length=2)",
        torch=torch_code.code(lambda x, a, n: f"torch.narrow({x[0]}, {a['dim']}, {a['start']}, "
                                              f"{a['length']})"),
        shape=_narrow_shape,
        sentence="The narrowed elements get the gradient back; the rest of the input gets 0.",
    ),
    *(OpInfo(
        name, arity=1, attrs=_MOVE_ATTRS,
        description=(
            "The axes source of x moved to the places destination; the others keep their order."
        ),
        derivative=(r"\bar{x} = \operatorname{" + name
                    + r"}(\bar{y},\ \text{destination},\ \text{source})"),
        apply=getattr(ag, name), example=f"{name}(x, source=0, destination=-1)",
        torch=torch_code.code(lambda x, a, n, name=name: f"torch.{name}({x[0]}, {a['source']}, "
                                                         f"{a['destination']})"),
        shape=_moved_shape,
        sentence="Moving axes moves values around; the gradient's axes are moved back.",
    ) for name in ("movedim", "moveaxis")),
    OpInfo(
        "repeat_interleave", arity=1,
        attrs=(Attr("repeats", "sizes", None, required=True, suggested=2),
               Attr("dim", "axis", None)),
        description=(
            "Each element (slice along dim) repeated in place: [1, 2] by 2 gives [1, 1, 2, 2]."
        ),
        derivative=r"\bar{x}_i = \textstyle\sum_{\text{copies of } x_i} \bar{y}",
        apply=lambda x, repeats, dim=None: ag.repeat_interleave(x, np.asarray(repeats), dim),
        example="repeat_interleave(x, repeats=2, dim=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.repeat_interleave({x[0]}, "
                                              f"{_torch_repeats(a['repeats'])}{_torch_dim(a)})"),
        shape=_repeat_interleave_shape,
        sentence="An element repeated n times gets the sum of its n copies' gradients.",
    ),
    OpInfo(
        "unflatten", arity=1,
        attrs=(DIM, Attr("sizes", "shape", None, required=True, suggested=(1, -1))),
        description="Axis dim split into several axes of the given sizes (one may be -1).",
        derivative=r"\bar{x} = \operatorname{reshape}(\bar{y},\ \operatorname{shape}(x))",
        apply=ag.unflatten, example="unflatten(x, dim=1, sizes=(1, -1))",
        torch=torch_code.code(lambda x, a, n: f"torch.unflatten({x[0]}, {a['dim']}, "
                                              f"{tuple(a['sizes'])})"),
        shape=_unflatten_shape,
        sentence="Unflattening moves no values, so the gradient is reshaped back.",
    ),
    _stack_entry(
        "hstack", description="Tensors joined along axis 1 (along axis 0 if all are vectors).",
        shape=_hstack_shape,
        sentence="Each tensor filled one stretch of the result, so it gets that stretch back.",
    ),
    _stack_entry(
        "vstack", description="Tensors joined as rows along axis 0 (a vector becomes one row).",
        shape=_vstack_shape,
        sentence="Each tensor filled some rows of the result, so it gets those rows back.",
    ),
    _stack_entry(
        "dstack", description="Tensors joined along axis 2, each made at least 3-D first.",
        shape=_dstack_shape,
        sentence="Each tensor filled some depth slices, so it gets those slices back.",
    ),
    _stack_entry(
        "column_stack",
        description="Tensors joined as columns along axis 1 (a vector is a column).",
        shape=_column_stack_shape,
        sentence="Each tensor filled some columns of the result, so it gets those columns back.",
    ),
    OpInfo(
        "diag", arity=1, attrs=(Attr("diagonal", "dim", 0),),
        description="A vector as a square matrix's diagonal, or a matrix's diagonal as a vector.",
        derivative=r"\bar{x} = \operatorname{diag}(\bar{y})", apply=refusing(ag.diag),
        example="diag(x, diagonal=0)", torch=torch_code.call("torch.diag", diagonal="diagonal"),
        shape=_diag_shape,
        sentence="diag only moves values: each element gets the gradient of the place it went.",
    ),
    OpInfo(
        "diagonal", arity=1, attrs=_DIAGONAL_ATTRS,
        description="The offset diagonal of the matrices on axes dim1, dim2, as a last axis.",
        derivative=r"\bar{x} = \operatorname{diag\_embed}(\bar{y})\ \text{on dim1, dim2}",
        apply=refusing(ag.diagonal), example="diagonal(x, offset=1)",
        torch=_torch_keywords("torch.diagonal", _DIAGONAL_ATTRS), shape=_diagonal_shape,
        sentence="The diagonal's elements get the gradient back; the rest of the input gets 0.",
    ),
    OpInfo(
        "diag_embed", arity=1, attrs=_EMBED_ATTRS,
        description="Matrices whose offset diagonal is x's last axis, zeros elsewhere.",
        derivative=r"\bar{x} = \operatorname{diagonal}(\bar{y})\ \text{on dim1, dim2}",
        apply=ag.diag_embed, example="diag_embed(x, offset=0)",
        torch=_torch_keywords("torch.diag_embed", _EMBED_ATTRS), shape=_diag_embed_shape,
        sentence="Only the diagonal came from x, so x gets the gradient's diagonal back.",
    ),
)
