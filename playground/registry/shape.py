"""Registry entries: shape."""

import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

import autograd as ag

from .. import torch_code
from .entry import AXIS, Attr, OpInfo, shape_op
from .rules import placeholder


def _permutation(axes, ndim: int) -> tuple[int, ...]:
    """The full permutation ``transpose`` applies (the rule is in ``autograd.transpose``)."""
    order = list(range(ndim))
    if axes is None:
        axes = (-1, -2) if ndim >= 2 else ()
    if len(axes) == 2:
        i, j = (a % ndim for a in axes)
        order[i], order[j] = order[j], order[i]
        return tuple(order)
    return tuple(a % ndim for a in axes) if axes else tuple(order)


def _torch_transpose(x, a, n):
    return f"{x[0]}.permute{_permutation(a['axes'], n[0])}"


def _torch_squeeze(x, a, n):
    axis = "" if a["axis"] is None else f", {a['axis']!r}"
    return f"torch.squeeze({x[0]}{axis})"


def _index_text(index) -> str:
    return ", ".join(str(i) for i in index)


def _reshape_shape(shapes, attrs):
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


def _transpose_shape(shapes, attrs):
    x = placeholder(shapes[0])
    axes = attrs.get("axes") or ()
    if not axes:
        return x.shape if x.ndim < 2 else np.swapaxes(x, -1, -2).shape
    if len(axes) == 2:
        return np.swapaxes(x, *axes).shape
    return np.transpose(x, axes).shape


def _flatten_shape(shapes, attrs):
    return (math.prod(shapes[0]),)


def _squeeze_shape(shapes, attrs):
    shape, axis = shapes[0], attrs.get("axis")
    if axis is None:
        return tuple(n for n in shape if n != 1)
    named = axis if isinstance(axis, tuple) else (axis,)
    drop = normalize_axis_tuple(named, max(len(shape), 1))
    return tuple(n for i, n in enumerate(shape) if not (i in drop and n == 1))


def _unsqueeze_shape(shapes, attrs):
    return np.expand_dims(placeholder(shapes[0]), attrs["axis"]).shape


def _broadcast_to_shape(shapes, attrs):
    return np.broadcast_to(placeholder(shapes[0]), attrs["shape"]).shape


def _index_shape(shapes, attrs):
    return placeholder(shapes[0])[tuple(attrs["index"])].shape


def _stack_shape(shapes, attrs):
    if any(s != shapes[0] for s in shapes):
        raise ValueError("stack needs operands of one shape")
    out = list(np.expand_dims(placeholder(shapes[0]), attrs.get("axis", 0)).shape)
    (position,) = normalize_axis_tuple((attrs.get("axis", 0),), len(out))
    out[position] = len(shapes)
    return tuple(out)


def _concatenate_shape(shapes, attrs):
    first = shapes[0]
    if not first or any(len(s) != len(first) for s in shapes):
        raise ValueError("concatenate needs operands with the same number of axes")
    (axis,) = normalize_axis_tuple((attrs.get("axis", 0),), len(first))
    if any(s[:axis] + s[axis + 1:] != first[:axis] + first[axis + 1:] for s in shapes):
        raise ValueError("concatenate: the other axes differ")
    return first[:axis] + (sum(s[axis] for s in shapes),) + first[axis + 1:]


ENTRIES = (
    shape_op(
        "reshape", attrs=(Attr("shape", "shape", None, required=True),),
        description="The same elements in a new shape; -1 stands for 'the rest'.",
        apply=lambda x, shape: ag.reshape(x, *shape), example="reshape(x, shape=(2, 3))",
        torch=torch_code.code(lambda x, a, n: f"{x[0]}.reshape{tuple(a['shape'])}"),
        shape=_reshape_shape,
        sentence=(
            "Reshaping moves no values, so the gradient is reshaped back to the input's shape."
        ),
    ),
    OpInfo(
        "transpose", arity=1, attrs=(Attr("axes", "axes", None),),
        description=(
            "The last two axes swapped; or the two axes given swapped, or all axes permuted."
        ),
        derivative=r"\bar{x} = \operatorname{transpose}(\bar{y},\ \text{inverse permutation})",
        apply=lambda x, axes=None: ag.transpose(x, *(axes or ())),
        example="transpose(x, axes=(1, 0))", torch=torch_code.code(_torch_transpose),
        shape=_transpose_shape,
        sentence=(
            'Transposing moves values around; the gradient is moved back by the inverse '
            'permutation.'
        ),
    ),
    shape_op(
        "flatten", description="All elements in one row (a 1-D tensor).",
        apply=lambda x: ag.flatten(x), example="flatten(x)", torch=torch_code.call("torch.flatten"),
        shape=_flatten_shape,
        sentence=(
            "Flattening moves no values, so the gradient is reshaped back to the input's shape."
        ),
    ),
    shape_op(
        "squeeze", attrs=(AXIS,),
        description="Axes of size 1 removed (all of them, or the given ones).", apply=ag.squeeze,
        example="squeeze(x, axis=0)", torch=torch_code.code(_torch_squeeze), shape=_squeeze_shape,
        sentence='Removing size-1 axes moves no values, so the gradient is reshaped back.',
    ),
    shape_op(
        "unsqueeze", attrs=(Attr("axis", "dim", None, required=True),),
        description="A new axis of size 1 inserted at the given position.", apply=ag.unsqueeze,
        example="unsqueeze(x, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"{x[0]}.unsqueeze({a['axis']})"),
        shape=_unsqueeze_shape,
        sentence='Adding a size-1 axis moves no values, so the gradient is reshaped back.',
    ),
    OpInfo(
        "broadcast_to", arity=1, attrs=(Attr("shape", "shape", None, required=True),),
        description="The tensor repeated along new or size-1 axes to fill the given shape.",
        derivative=r"\bar{x} = \textstyle\sum_{\text{broadcast axes}} \bar{y}",
        apply=ag.broadcast_to, example="broadcast_to(x, shape=(3, 2))",
        torch=torch_code.code(lambda x, a, n: f"{x[0]}.broadcast_to({tuple(a['shape'])})"),
        shape=_broadcast_to_shape,
        sentence=(
            'An element copied n times contributes n times, so its gradient is the sum over its '
            'copies.'
        ),
    ),
    OpInfo(
        "index", arity=1, attrs=(Attr("index", "index", None, required=True),),
        description=(
            "One element or sub-tensor picked by whole-number positions, as in x[0] or x[1, 2]."
        ),
        derivative=r"\bar{x}[i] = \bar{y},\ \text{zero elsewhere}", apply=lambda x, index: x[index],
        example="x[0]", torch=torch_code.code(lambda x, a, n: f"{x[0]}[{_index_text(a['index'])}]"),
        shape=_index_shape,
        sentence=(
            'Only the picked elements affected the output, so they get the gradient and the rest '
            'get 0.'
        ),
    ),
    OpInfo(
        "stack", arity=None, attrs=(Attr("axis", "dim", 0),),
        description="Tensors of one shape joined along a new axis; [a, b] in an expression.",
        derivative=r"\bar{x}_k = \bar{y}[k]\ \text{along the new axis}",
        apply=lambda *xs, axis=0: ag.stack(xs, axis=axis), example="stack(a, b, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.stack([{', '.join(x)}], dim={a['axis']})"),
        shape=_stack_shape,
        sentence=(
            'Each operand filled one slice of the stack, so it gets that slice of the gradient '
            'back.'
        ),
    ),
    OpInfo(
        "concatenate", arity=None, attrs=(Attr("axis", "dim", 0),),
        description="Tensors joined end to end along an existing axis.",
        derivative=r"\bar{x}_k = \text{the slice of } \bar{y} \text{ that } x_k \text{ filled}",
        apply=lambda *xs, axis=0: ag.concatenate(xs, axis=axis),
        example="concatenate(a, b, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.cat([{', '.join(x)}], dim={a['axis']})"),
        shape=_concatenate_shape,
        sentence=(
            'Each operand filled one stretch of the result, so it gets that stretch of the '
            'gradient back.'
        ),
    ),
)


AXIS0 = Attr("axis", "dim", 0)
PART = Attr("part", "count", 0)


def _piece(pieces, part, name):
    """Piece ``part`` of what split, chunk or unbind gave; ValueError naming how many there are."""
    if part >= len(pieces):
        raise ValueError(f"{name} gives {len(pieces)} piece(s) here, numbered 0 to "
                         f"{len(pieces) - 1}; there is no part {part}")
    return pieces[part]


def _all_dims(x, dims):
    """flip's dims: the registry's default (None) flips every axis."""
    return tuple(range(x.ndim)) if dims is None else dims


def _torch_dims(dims, ndim):
    return tuple(range(ndim)) if dims is None else tuple(dims)


def _flip_shape(shapes, attrs):
    shape = shapes[0]
    dims = attrs.get("dims")
    if dims is not None and shape:
        normalize_axis_tuple(dims, len(shape))
    return shape


def _roll_shape(shapes, attrs):
    shape, dims = shapes[0], attrs.get("dims")
    if dims is not None and shape:
        normalize_axis_tuple(dims if isinstance(dims, tuple) else (dims,), len(shape))
    return shape


def _tile_shape(sizes_name, at_least_ndim):
    def rule(shapes, attrs):
        shape, reps = shapes[0], tuple(attrs[sizes_name])
        if at_least_ndim and len(reps) < len(shape) or any(r < 0 for r in reps):
            raise ValueError("repeat needs a size per dimension")
        width = max(len(shape), len(reps))
        shape = (1,) * (width - len(shape)) + tuple(shape)
        reps = (1,) * (width - len(reps)) + reps
        return tuple(s * r for s, r in zip(shape, reps))
    return rule


def _triangle_shape(shapes, attrs):
    if len(shapes[0]) < 2:
        raise ValueError("tril and triu need a matrix")
    return shapes[0]


def _piece_shape(cut):
    """The shape of piece ``part`` when ``cut(n, attrs)`` gives the pieces' sizes along the
    axis (None for unbind, whose pieces lose the axis)."""
    def rule(shapes, attrs):
        shape = shapes[0]
        (axis,) = normalize_axis_tuple((attrs.get("axis", 0),), len(shape))
        sizes = cut(shape[axis], attrs)
        part = attrs.get("part", 0)
        if part >= len(sizes):
            raise ValueError("no such part")
        if sizes[part] is None:
            return shape[:axis] + shape[axis + 1:]
        return shape[:axis] + (sizes[part],) + shape[axis + 1:]
    return rule


def _split_sizes(n, attrs):
    size = attrs["split_size_or_sections"]
    if isinstance(size, tuple):
        if sum(size) != n:
            raise ValueError("sections must add up to the axis")
        return list(size)
    return [min(size, n - start) for start in range(0, n, size)] or [0]


def _unbind_sizes(n, attrs):
    """unbind's n pieces lose the axis."""
    return [None] * n


def _chunk_sizes(n, attrs):
    chunks = attrs["chunks"]
    if chunks < 1:
        raise ValueError("chunks must be at least 1")
    return _split_sizes(n, {"split_size_or_sections": -(-n // chunks)})


ENTRIES += (
    OpInfo(
        "flip", arity=1, attrs=(Attr("dims", "axes", None),),
        description="The elements in reverse order along the given axes (all axes by default).",
        derivative=r"\bar{x} = \operatorname{flip}(\bar{y})",
        apply=lambda x, dims=None: ag.flip(x, dims=_all_dims(x, dims)),
        example="flip(x, dims=(0,))",
        torch=torch_code.code(
            lambda x, a, n: f"torch.flip({x[0]}, dims={_torch_dims(a['dims'], n[0])})"),
        shape=_flip_shape,
        sentence='Flipping moves values around; the gradient is flipped back the same way.',
    ),
    OpInfo(
        "roll", arity=1,
        attrs=(Attr("shifts", "index", None, required=True), Attr("dims", "axis", None)),
        description=(
            "The elements shifted cyclically along axes; those pushed off the end come back first."
        ),
        derivative=r"\bar{x} = \operatorname{roll}(\bar{y},\ -\text{shifts})", apply=ag.roll,
        example="roll(x, shifts=1, dims=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.roll({x[0]}, shifts={tuple(a['shifts'])}, "
                                              f"dims={a['dims']!r})"),
        shape=_roll_shape,
        sentence='Rolling moves values around a cycle; the gradient is rolled back the other way.',
    ),
    OpInfo(
        "repeat", arity=1, attrs=(Attr("sizes", "shape", None, required=True),),
        description="The whole tensor tiled along each axis, as PyTorch's x.repeat (NumPy's tile).",
        derivative=r"\bar{x} = \textstyle\sum_{\text{copies}} \bar{y}_{\text{copy}}",
        apply=lambda x, sizes: ag.repeat(x, *sizes), example="repeat(x, sizes=(2, 1))",
        torch=torch_code.code(lambda x, a, n: f"{x[0]}.repeat({tuple(a['sizes'])})"),
        shape=_tile_shape("sizes", at_least_ndim=True),
        sentence=(
            'Each element appears in every copy, so its gradient is the sum of the upstream '
            'gradients of its copies.'
        ),
    ),
    OpInfo(
        "tile", arity=1, attrs=(Attr("dims", "shape", None, required=True),),
        description=(
            "The whole tensor tiled along each axis (missing leading counts are 1), as torch.tile."
        ),
        derivative=r"\bar{x} = \textstyle\sum_{\text{copies}} \bar{y}_{\text{copy}}",
        apply=lambda x, dims: ag.tile(x, dims), example="tile(x, dims=(2, 1))",
        torch=torch_code.code(lambda x, a, n: f"torch.tile({x[0]}, {tuple(a['dims'])})"),
        shape=_tile_shape("dims", at_least_ndim=False),
        sentence=(
            'Each element appears in every copy, so its gradient is the sum of the upstream '
            'gradients of its copies.'
        ),
    ),
    OpInfo(
        "tril", arity=1, attrs=(Attr("diagonal", "dim", 0),),
        description="The lower triangle of a matrix (last two axes); zeros above the diagonal.",
        derivative=r"\bar{x}_{ij} = \bar{y}_{ij}\ \text{if}\ j - i \leq k,\ \text{else}\ 0",
        apply=ag.tril, example="tril(x, diagonal=0)",
        torch=torch_code.call("torch.tril", diagonal="diagonal"), shape=_triangle_shape,
        sentence=(
            'Kept elements pass the gradient through; the zeroed ones above the diagonal get '
            '0.'
        ),
    ),
    OpInfo(
        "triu", arity=1, attrs=(Attr("diagonal", "dim", 0),),
        description="The upper triangle of a matrix (last two axes); zeros below the diagonal.",
        derivative=r"\bar{x}_{ij} = \bar{y}_{ij}\ \text{if}\ j - i \geq k,\ \text{else}\ 0",
        apply=ag.triu, example="triu(x, diagonal=0)",
        torch=torch_code.call("torch.triu", diagonal="diagonal"), shape=_triangle_shape,
        sentence=(
            'Kept elements pass the gradient through; the zeroed ones below the diagonal get '
            '0.'
        ),
    ),
    OpInfo(
        "split", arity=1,
        attrs=(Attr("split_size_or_sections", "sizes", None, required=True, suggested=1),
               AXIS0, PART),
        description=(
            "One piece of the tensor cut along an axis into pieces of a size, or of listed sizes."
        ),
        derivative=r"\bar{x}[\text{piece}] = \bar{y},\ \text{zero elsewhere}",
        apply=lambda x, split_size_or_sections, axis=0, part=0: _piece(
            ag.split(x, split_size_or_sections, axis), part, "split"),
        example="split(x, split_size_or_sections=2, part=0)",
        torch=torch_code.code(
            lambda x, a, n: f"torch.split({x[0]}, {a['split_size_or_sections']!r}, "
                            f"dim={a['axis']})[{a['part']}]"),
        shape=_piece_shape(_split_sizes),
        sentence="A piece is a slice of the input: its elements get the gradient, the rest get 0.",
    ),
    OpInfo(
        "chunk", arity=1,
        attrs=(Attr("chunks", "count", None, required=True, suggested=2), AXIS0, PART),
        description=(
            "One of the equal pieces (the last may be smaller) a tensor is cut into along an axis."
        ),
        derivative=r"\bar{x}[\text{piece}] = \bar{y},\ \text{zero elsewhere}",
        apply=lambda x, chunks, axis=0, part=0: _piece(ag.chunk(x, chunks, axis), part, "chunk"),
        example="chunk(x, chunks=2, part=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.chunk({x[0]}, {a['chunks']}, "
                                              f"dim={a['axis']})[{a['part']}]"),
        shape=_piece_shape(_chunk_sizes),
        sentence="A chunk is a slice of the input: its elements get the gradient, the rest get 0.",
    ),
    OpInfo(
        "unbind", arity=1, attrs=(AXIS0, PART),
        description=(
            "One slice of the tensor along an axis, that axis removed (x[part] for axis 0)."
        ),
        derivative=r"\bar{x}[\text{part}] = \bar{y},\ \text{zero elsewhere}",
        apply=lambda x, axis=0, part=0: _piece(ag.unbind(x, axis), part, "unbind"),
        example="unbind(x, axis=0, part=1)",
        torch=torch_code.code(
            lambda x, a, n: f"torch.unbind({x[0]}, dim={a['axis']})[{a['part']}]"),
        shape=_piece_shape(_unbind_sizes),
        sentence="The slice's elements get the gradient; the rest of the input gets 0.",
    ),
)
