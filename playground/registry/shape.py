"""Registry entries: shape."""

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
