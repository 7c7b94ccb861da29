"""Orderings: argmax, argmin, argsort and topk. Indices are not differentiable, so they are
constants (as in PyTorch); topk's values are the input gathered at its indices, so their gradient
goes back to the elements chosen.

NaN counts as larger than every number, as in PyTorch; ties keep their order (a stable sort), where
PyTorch's topk leaves the order of ties unspecified.
"""

from collections import namedtuple

import numpy as np

from ..tensor import Tensor
from .exposed import exposed
from .shape import Index

TopK = namedtuple("TopK", ["values", "indices"])
"""What ``topk`` returns: ``values, indices = x.topk(2)`` or ``x.topk(2).values``."""


def _data(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


def _untracked(array):
    return Tensor._make(np.asarray(array), False, None)


def _pick(dim, axis, default):
    """PyTorch's ``dim`` or NumPy's ``axis`` (either spelling), else ``default``."""
    if dim is not None and axis is not None:
        raise TypeError("pass dim (PyTorch's name) or axis (NumPy's), not both")
    return default if dim is None and axis is None else (axis if dim is None else dim)


def _arg_extreme(name, x, dim, keepdim):
    data = _data(x)
    if dim is None:
        index = getattr(data, name)()
        return _untracked(np.reshape(index, (1,) * data.ndim) if keepdim else index)
    return _untracked(getattr(data, name)(axis=dim, keepdims=keepdim))


@exposed("argmax")
def argmax(x, dim=None, keepdim=False, *, axis=None, keepdims=None):
    """The index of the largest element (of the flattened tensor, or along ``dim``); the first
    one on ties, and a NaN counts as largest. A constant int64 tensor."""
    return _arg_extreme("argmax", x, _pick(dim, axis, None), bool(keepdims or keepdim))


@exposed("argmin")
def argmin(x, dim=None, keepdim=False, *, axis=None, keepdims=None):
    """The index of the smallest element (of the flattened tensor, or along ``dim``); the first
    one on ties, and a NaN wins, as in PyTorch. A constant int64 tensor."""
    return _arg_extreme("argmin", x, _pick(dim, axis, None), bool(keepdims or keepdim))


def _order(data, dim, descending):
    """Stable sorting indices along ``dim``; descending keeps ties in their first-come order."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    flipped = np.flip(data, axis=dim)
    order = np.flip(np.argsort(flipped, axis=dim, kind="stable"), axis=dim)
    return data.shape[dim] - 1 - order


@exposed("argsort")
def argsort(x, dim=-1, descending=False, stable=False):
    """The indices that sort x along ``dim`` (ascending unless ``descending``), NaN last when
    ascending and first when descending, as in PyTorch. Always stable. A constant tensor."""
    data = _data(x)
    if data.ndim == 0:
        return _untracked(np.zeros((), dtype=np.int64))
    return _untracked(_order(data, dim, descending))


@exposed("topk")
def topk(x, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - PyTorch's keyword name
    """The ``k`` largest elements along ``dim`` (smallest with ``largest=False``) and their
    indices, as ``TopK(values, indices)``. The values are differentiable (the gradient goes back to
    the chosen elements); the indices are a constant. Always sorted."""
    if not isinstance(x, Tensor):
        x = Tensor(x)
    data = x.data
    if data.ndim == 0:
        if k != 1:
            raise ValueError(f"topk: k ({k}) is out of range for a 0-d tensor; use k=1")
        return TopK(x[...], _untracked(np.int64(0)))
    axis = np.lib.array_utils.normalize_axis_index(dim, data.ndim)
    size = data.shape[axis]
    if not 0 <= k <= size:
        raise ValueError(f"topk: k ({k}) is out of range: axis {dim} of the tensor of shape "
                         f"{data.shape} has {size} elements; use k between 0 and {size}")
    indices = np.take(_order(data, axis, largest), np.arange(k), axis=axis)
    key = list(np.indices(indices.shape, sparse=True))
    key[axis] = indices
    values = Index.apply(x, key=tuple(key))
    return TopK(values, _untracked(indices))
