"""Registry entries: shape."""

from numpy.lib.array_utils import normalize_axis_tuple

import autograd as ag

from .. import torch_code
from .entry import AXIS, Attr, OpInfo, shape_op


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


ENTRIES = (
    shape_op(
        "reshape", (Attr("shape", "shape", None, required=True),),
        "The same elements in a new shape; -1 stands for 'the rest'.",
        lambda x, shape: ag.reshape(x, *shape), "reshape(x, shape=(2, 3))",
        torch_code.code(lambda x, a, n: f"{x[0]}.reshape{tuple(a['shape'])}"),
        sentence=(
            "Reshaping moves no values, so the gradient is reshaped back to the input's shape."
        ),
    ),
    OpInfo(
        "transpose", 1, (Attr("axes", "axes", None),),
        "The last two axes swapped; or the two axes given swapped, or all axes permuted.",
        r"\bar{x} = \operatorname{transpose}(\bar{y},\ \text{inverse permutation})",
        lambda x, axes=None: ag.transpose(x, *(axes or ())), "transpose(x, axes=(1, 0))",
        torch_code.code(_torch_transpose),
        sentence=(
            'Transposing moves values around; the gradient is moved back by the inverse '
            'permutation.'
        ),
    ),
    shape_op(
        "flatten", (), "All elements in one row (a 1-D tensor).",
        lambda x: ag.flatten(x), "flatten(x)", torch_code.call("torch.flatten"),
        sentence=(
            "Flattening moves no values, so the gradient is reshaped back to the input's shape."
        ),
    ),
    shape_op(
        "squeeze", (AXIS,), "Axes of size 1 removed (all of them, or the given ones).",
        ag.squeeze, "squeeze(x, axis=0)", torch_code.code(_torch_squeeze),
        sentence='Removing size-1 axes moves no values, so the gradient is reshaped back.',
    ),
    shape_op(
        "unsqueeze", (Attr("axis", "dim", None, required=True),),
        "A new axis of size 1 inserted at the given position.",
        ag.unsqueeze, "unsqueeze(x, axis=0)",
        torch_code.code(lambda x, a, n: f"{x[0]}.unsqueeze({a['axis']})"),
        sentence='Adding a size-1 axis moves no values, so the gradient is reshaped back.',
    ),
    OpInfo(
        "broadcast_to", 1, (Attr("shape", "shape", None, required=True),),
        "The tensor repeated along new or size-1 axes to fill the given shape.",
        r"\bar{x} = \textstyle\sum_{\text{broadcast axes}} \bar{y}",
        ag.broadcast_to, "broadcast_to(x, shape=(3, 2))",
        torch_code.code(lambda x, a, n: f"{x[0]}.broadcast_to({tuple(a['shape'])})"),
        sentence=(
            'An element copied n times contributes n times, so its gradient is the sum over its '
            'copies.'
        ),
    ),
    OpInfo(
        "index", 1, (Attr("index", "index", None, required=True),),
        "One element or sub-tensor picked by whole-number positions, as in x[0] or x[1, 2].",
        r"\bar{x}[i] = \bar{y},\ \text{zero elsewhere}",
        lambda x, index: x[index], "x[0]",
        torch_code.code(lambda x, a, n: f"{x[0]}[{_index_text(a['index'])}]"),
        sentence=(
            'Only the picked elements affected the output, so they get the gradient and the rest '
            'get 0.'
        ),
    ),
    OpInfo(
        "stack", None, (Attr("axis", "dim", 0),),
        "Tensors of one shape joined along a new axis; [a, b] in an expression.",
        r"\bar{x}_k = \bar{y}[k]\ \text{along the new axis}",
        lambda *xs, axis=0: ag.stack(xs, axis=axis), "stack(a, b, axis=0)",
        torch_code.code(lambda x, a, n: f"torch.stack([{', '.join(x)}], dim={a['axis']})"),
        sentence=(
            'Each operand filled one slice of the stack, so it gets that slice of the gradient '
            'back.'
        ),
    ),
    OpInfo(
        "concatenate", None, (Attr("axis", "dim", 0),),
        "Tensors joined end to end along an existing axis.",
        r"\bar{x}_k = \text{the slice of } \bar{y} \text{ that } x_k \text{ filled}",
        lambda *xs, axis=0: ag.concatenate(xs, axis=axis), "concatenate(a, b, axis=0)",
        torch_code.code(lambda x, a, n: f"torch.cat([{', '.join(x)}], dim={a['axis']})"),
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


def _chunk_sizes(n, attrs):
    chunks = attrs["chunks"]
    if chunks < 1:
        raise ValueError("chunks must be at least 1")
    return _split_sizes(n, {"split_size_or_sections": -(-n // chunks)})


ENTRIES += (
    OpInfo(
        "flip", 1, (Attr("dims", "axes", None),),
        "The elements in reverse order along the given axes (all axes by default).",
        r"\bar{x} = \operatorname{flip}(\bar{y})",
        lambda x, dims=None: ag.flip(x, dims=_all_dims(x, dims)), "flip(x, dims=(0,))",
        torch_code.code(lambda x, a, n: f"torch.flip({x[0]}, dims={_torch_dims(a['dims'], n[0])})"),
        sentence='Flipping moves values around; the gradient is flipped back the same way.',
    ),
    OpInfo(
        "roll", 1, (Attr("shifts", "index", None, required=True), Attr("dims", "axis", None)),
        "The elements shifted cyclically along axes; those pushed off the end come back first.",
        r"\bar{x} = \operatorname{roll}(\bar{y},\ -\text{shifts})",
        ag.roll, "roll(x, shifts=1, dims=0)",
        torch_code.code(lambda x, a, n: f"torch.roll({x[0]}, shifts={tuple(a['shifts'])}, "
                                        f"dims={a['dims']!r})"),
        sentence='Rolling moves values around a cycle; the gradient is rolled back the other way.',
    ),
    OpInfo(
        "repeat", 1, (Attr("sizes", "shape", None, required=True),),
        "The whole tensor tiled along each axis, as PyTorch's x.repeat (NumPy's tile).",
        r"\bar{x} = \textstyle\sum_{\text{copies}} \bar{y}_{\text{copy}}",
        lambda x, sizes: ag.repeat(x, *sizes), "repeat(x, sizes=(2, 1))",
        torch_code.code(lambda x, a, n: f"{x[0]}.repeat({tuple(a['sizes'])})"),
        sentence=(
            'Each element appears in every copy, so its gradient is the sum of the upstream '
            'gradients of its copies.'
        ),
    ),
    OpInfo(
        "tile", 1, (Attr("dims", "shape", None, required=True),),
        "The whole tensor tiled along each axis (missing leading counts are 1), as torch.tile.",
        r"\bar{x} = \textstyle\sum_{\text{copies}} \bar{y}_{\text{copy}}",
        lambda x, dims: ag.tile(x, dims), "tile(x, dims=(2, 1))",
        torch_code.code(lambda x, a, n: f"torch.tile({x[0]}, {tuple(a['dims'])})"),
        sentence=(
            'Each element appears in every copy, so its gradient is the sum of the upstream '
            'gradients of its copies.'
        ),
    ),
    OpInfo(
        "tril", 1, (Attr("diagonal", "dim", 0),),
        "The lower triangle of a matrix (last two axes); zeros above the diagonal.",
        r"\bar{x}_{ij} = \bar{y}_{ij}\ \text{if}\ j - i \leq k,\ \text{else}\ 0",
        ag.tril, "tril(x, diagonal=0)", torch_code.call("torch.tril", diagonal="diagonal"),
        sentence=(
            'Kept elements pass the gradient through; the zeroed ones above the diagonal get '
            '0.'
        ),
    ),
    OpInfo(
        "triu", 1, (Attr("diagonal", "dim", 0),),
        "The upper triangle of a matrix (last two axes); zeros below the diagonal.",
        r"\bar{x}_{ij} = \bar{y}_{ij}\ \text{if}\ j - i \geq k,\ \text{else}\ 0",
        ag.triu, "triu(x, diagonal=0)", torch_code.call("torch.triu", diagonal="diagonal"),
        sentence=(
            'Kept elements pass the gradient through; the zeroed ones below the diagonal get '
            '0.'
        ),
    ),
    OpInfo(
        "split", 1, (Attr("split_size_or_sections", "sizes", None, required=True, suggested=1),
                     AXIS0, PART),
        "One piece of the tensor cut along an axis into pieces of a size, or of listed sizes.",
        r"\bar{x}[\text{piece}] = \bar{y},\ \text{zero elsewhere}",
        lambda x, split_size_or_sections, axis=0, part=0: _piece(
            ag.split(x, split_size_or_sections, axis), part, "split"),
        "split(x, split_size_or_sections=2, part=0)",
        torch_code.code(lambda x, a, n: f"torch.split({x[0]}, {a['split_size_or_sections']!r}, "
                                        f"dim={a['axis']})[{a['part']}]"),
        sentence="A piece is a slice of the input: its elements get the gradient, the rest get 0.",
    ),
    OpInfo(
        "chunk", 1, (Attr("chunks", "count", None, required=True, suggested=2), AXIS0, PART),
        "One of the equal pieces (the last may be smaller) a tensor is cut into along an axis.",
        r"\bar{x}[\text{piece}] = \bar{y},\ \text{zero elsewhere}",
        lambda x, chunks, axis=0, part=0: _piece(ag.chunk(x, chunks, axis), part, "chunk"),
        "chunk(x, chunks=2, part=0)",
        torch_code.code(lambda x, a, n: f"torch.chunk({x[0]}, {a['chunks']}, "
                                        f"dim={a['axis']})[{a['part']}]"),
        sentence="A chunk is a slice of the input: its elements get the gradient, the rest get 0.",
    ),
    OpInfo(
        "unbind", 1, (AXIS0, PART),
        "One slice of the tensor along an axis, that axis removed (x[part] for axis 0).",
        r"\bar{x}[\text{part}] = \bar{y},\ \text{zero elsewhere}",
        lambda x, axis=0, part=0: _piece(ag.unbind(x, axis), part, "unbind"),
        "unbind(x, axis=0, part=1)",
        torch_code.code(lambda x, a, n: f"torch.unbind({x[0]}, dim={a['axis']})[{a['part']}]"),
        sentence="The slice's elements get the gradient; the rest of the input gets 0.",
    ),
)

SHAPE_RULES = {
    "flip": _flip_shape,
    "roll": _roll_shape,
    "repeat": _tile_shape("sizes", at_least_ndim=True),
    "tile": _tile_shape("dims", at_least_ndim=False),
    "tril": _triangle_shape,
    "triu": _triangle_shape,
    "split": _piece_shape(_split_sizes),
    "chunk": _piece_shape(_chunk_sizes),
    "unbind": _piece_shape(lambda n, attrs: [None] * n),
}
"""Output shapes of this module's newer ops, for playground.budget."""
