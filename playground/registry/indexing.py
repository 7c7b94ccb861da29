"""Registry entries: indexing (ops that pick or place elements by an index tensor or a mask).

A graph holds numbers only, so an index or a mask is an operand of whole numbers (0 and 1 for a
mask), turned into integers or booleans here, as cross_entropy's target is.
"""

import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

import autograd as ag

from .. import torch_code
from . import rules
from .entry import Attr, OpInfo, refusing

AXIS = Attr("axis", "dim", None, required=True)


def _whole_numbers(tensor, op, what) -> np.ndarray:
    """A graph's float operand, such as [[0.0, 2.0]], as the integer indices ``op`` expects."""
    values = np.asarray(tensor.data, dtype=np.float64)
    if not np.array_equal(values, np.round(values)):
        raise ValueError(f"{op}: the {what} must hold whole numbers such as [[0, 2], [1, 1]]")
    return values.astype(np.int64)


def _mask(tensor) -> np.ndarray:
    """A graph's operand of 0s and 1s as masked_fill's boolean mask."""
    values = np.asarray(tensor.data)
    if not np.isin(values, (0.0, 1.0)).all():
        raise ValueError("masked_fill: the mask must hold only 0 (keep) and 1 (fill), such as "
                         "[[0, 1], [1, 0]]")
    return values == 1


def _places_shape(shapes, attrs):
    """gather's output has the index's shape (the engine checks the rest)."""
    x, index = shapes[0], shapes[1]
    if len(index) != len(x) and x:
        raise ValueError("the index needs as many dimensions as the tensor")
    return index


def _scatter_shape(shapes, attrs):
    x, index, src = shapes
    if len(index) != len(x) or len(src) != len(x):
        raise ValueError("scatter_add: the index and src need as many dimensions as x")
    return x


ENTRIES = (
    OpInfo(
        "gather", arity=2, attrs=(AXIS,),
        description=(
            "Elements picked along an axis by an index of whole numbers: x[i][index[i][j]]."
        ),
        derivative=r"\bar{x}[\ldots, i, \ldots] \mathrel{+}= \bar{y}",
        apply=lambda x, index, axis: ag.gather(x, axis, _whole_numbers(index, "gather", "index")),
        example="gather(x, c, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.gather({x[0]}, {a['axis']}, {x[1]}.long())"),
        shape=_places_shape, symbols=("x", "i"),
        sentence=(
            "Each picked element gets the upstream gradient back at its place; an element picked "
            "twice gets both."
        ),
    ),
    OpInfo(
        "scatter_add", arity=3, attrs=(AXIS,),
        description=(
            "The tensor with src added at the places an index of whole numbers names along an axis."
        ),
        derivative=r"\bar{x} = \bar{y},\quad \bar{s} = \bar{y}[\ldots, i, \ldots]",
        apply=lambda x, index, src, axis: ag.scatter_add(
            x, axis, _whole_numbers(index, "scatter_add", "index"), src),
        example="scatter_add(x, c, y, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.scatter_add({x[0]}, {a['axis']}, "
                                              f"{x[1]}.long(), {x[2]})"),
        shape=_scatter_shape, symbols=("x", "i", "s"),
        sentence=(
            "x passes the gradient straight through; each src element gets the gradient of the "
            "place it was added to."
        ),
    ),
    OpInfo(
        "masked_fill", arity=2, attrs=(Attr("value", "float", 0.0),),
        description="The tensor with a value put wherever the mask (of 0s and 1s) holds 1.",
        derivative=r"\bar{x} = \bar{y}\ \text{where}\ m = 0,\ \text{else}\ 0",
        apply=lambda x, mask, value=0.0: ag.masked_fill(x, _mask(mask), value),
        example="masked_fill(x, c, value=0.0)",
        torch=torch_code.code(lambda x, a, n: f"{x[0]}.masked_fill({x[1]}.bool(), {a['value']!r})"),
        shape=rules.broadcast, symbols=("x", "m"),
        sentence="Filled places no longer depend on x, so they get 0; the others pass it through.",
    ),
)

def _index_select_shape(shapes, attrs):
    x, index = shapes
    if len(index) > 1:
        raise ValueError("index_select: a 0-D or 1-D index")
    dim = normalize_axis_index(attrs["dim"], max(len(x), 1))
    return x[:dim] + (math.prod(index),) + x[dim + 1:]


def _take_along_dim_shape(shapes, attrs):
    x, index = shapes
    if attrs.get("dim") is None:
        return (math.prod(index),)
    dim = normalize_axis_index(attrs["dim"], max(len(x), 1))
    if len(index) != len(x):
        raise ValueError("take_along_dim: the index needs as many dimensions as the tensor")
    rest = np.broadcast_shapes(x[:dim] + (1,) + x[dim + 1:], index[:dim] + (1,) + index[dim + 1:])
    return rest[:dim] + (index[dim],) + rest[dim + 1:]


ENTRIES += (
    OpInfo(
        "index_select", arity=2, attrs=(Attr("dim", "dim", None, required=True, suggested=0),),
        description=(
            "The slices of x along dim at the positions a 1-D index of whole numbers names."
        ),
        derivative=r"\bar{x}[\ldots, i_k, \ldots] \mathrel{+}= \bar{y}[\ldots, k, \ldots]",
        apply=lambda x, index, dim: ag.index_select(
            x, dim, _whole_numbers(index, "index_select", "index")),
        example="index_select(x, c, dim=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.index_select({x[0]}, {a['dim']}, "
                                              f"{x[1]}.long())"),
        shape=_index_select_shape, symbols=("x", "i"),
        sentence=(
            "Each picked slice gets its gradient back at its place; one picked twice gets both."
        ),
    ),
    OpInfo(
        "take_along_dim", arity=2, attrs=(Attr("dim", "axis", None),),
        description=(
            "Elements picked along dim by an index of whole numbers (the flat x if no dim)."
        ),
        derivative=r"\bar{x}[\ldots, i, \ldots] \mathrel{+}= \bar{y}",
        apply=refusing(lambda x, index, dim=None: ag.take_along_dim(
            x, _whole_numbers(index, "take_along_dim", "index"), dim)),
        example="take_along_dim(x, c, dim=1)",
        torch=torch_code.code(
            lambda x, a, n: f"torch.take_along_dim({x[0]}, {x[1]}.long()"
                            + ("" if a["dim"] is None else f", dim={a['dim']}") + ")"),
        shape=_take_along_dim_shape, symbols=("x", "i"),
        sentence="Each picked element gets the upstream gradient back; one picked twice gets both.",
    ),
)
