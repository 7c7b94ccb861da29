"""Orderings: argmax, argmin, argsort, sort, topk, median, and max/min along a dim. Indices are
not differentiable, so they are constants (as in PyTorch); the values are the input gathered at
its indices, so their gradient goes back to the elements chosen (and forward mode and second
order come from the gather).

``sort``, ``topk``, ``median`` and ``max``/``min`` along a dim return PyTorch's pair, a named tuple
``(values, indices)``: ``x.max(dim=1)[0]`` and ``x.max(1).values`` are the row maxima. NumPy's
keyword ``axis=`` keeps NumPy's meaning for max and min: ``x.max(axis=1)`` is the values alone,
and tied maxima share the gradient (as ``amax`` and the full ``x.max()`` do, in PyTorch too).

NaN counts as larger than every number, as in PyTorch; ties keep their order (a stable sort), where
PyTorch's topk leaves the order of ties unspecified.
"""

from collections import namedtuple

import numpy as np

from ..tensor import Tensor
from . import reduce
from .elementwise import Maximum, Minimum
from .exposed import exposed
from .shape import Index

TopK = namedtuple("TopK", ["values", "indices"])
"""What ``topk`` returns: ``values, indices = x.topk(2)`` or ``x.topk(2).values``."""
Sort = namedtuple("Sort", ["values", "indices"])
"""What ``sort`` returns: ``values, indices = x.sort()``."""
Max = namedtuple("Max", ["values", "indices"])
"""What ``max`` along a dim returns: ``values, indices = x.max(dim=1)``."""
Min = namedtuple("Min", ["values", "indices"])
"""What ``min`` along a dim returns: ``values, indices = x.min(dim=1)``."""
Median = namedtuple("Median", ["values", "indices"])
"""What ``median`` along a dim returns: ``values, indices = x.median(dim=1)``."""


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
    return TopK(*_gathered(x, indices, axis))


def _gathered(x, indices, axis):
    """The elements of ``x`` at ``indices`` along ``axis`` (recorded: their gradient goes back to
    those places), and the indices as a constant."""
    key = list(np.indices(indices.shape, sparse=True))
    key[axis] = indices
    return Index.apply(x, key=tuple(key)), _untracked(indices)


def _as_tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x)


def _dim_index(dim, ndim, name):
    """``dim`` as a non-negative axis (a 0-d tensor takes 0 and -1, as in PyTorch)."""
    if not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{name}: dim must be one int, got {dim!r}; for several axes at once use "
                        f"{'amax' if name == 'max' else 'amin' if name == 'min' else 'a loop'}")
    try:
        return int(np.lib.array_utils.normalize_axis_index(dim, max(ndim, 1)))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"{name}: dim {dim} is out of range for a tensor with {ndim} dimension(s); dims run "
            f"from {-max(ndim, 1)} to {max(ndim, 1) - 1}") from None


@exposed("sort")
def sort(x, dim=-1, descending=False, stable=False, *, axis=None):
    """The elements sorted along ``dim`` (ascending unless ``descending``) and where each came
    from, as ``Sort(values, indices)``, PyTorch's pair. NaN sorts last ascending and first
    descending. The values are differentiable; the sort is always stable."""
    x = _as_tensor(x)
    dim = dim if axis is None else axis
    data = x.data
    if data.ndim == 0:
        _dim_index(dim, 0, "sort")
        return Sort(x[...], _untracked(np.int64(0)))
    axis = _dim_index(dim, data.ndim, "sort")
    return Sort(*_gathered(x, _order(data, axis, descending), axis))


def _reduced_pair(pair, name, x, dim, keepdim, pick_indices):
    """max, min or median along one dim: PyTorch's ``(values, indices)``, the values gathered
    at the indices so that the gradient goes to the element chosen."""
    data = x.data
    axis = _dim_index(dim, data.ndim, name)
    if data.ndim == 0:
        return pair(x[...], _untracked(np.int64(0)))
    if data.shape[axis] == 0:
        raise IndexError(f"{name}(): dim {dim} of the tensor of shape {data.shape} has no "
                         f"elements, so there is no {name} along it (PyTorch refuses it too)")
    indices = np.expand_dims(pick_indices(data, axis), axis)
    values, indices = _gathered(x, indices, axis)
    if not keepdim:
        values, indices = values.squeeze(axis), _untracked(indices.data.squeeze(axis))
    return pair(values, indices)


def _extreme(name, ufunc_pick, pair, reduction, binary):
    """``max`` or ``min`` with PyTorch's three forms and NumPy's keyword (see the module doc)."""

    def extreme(x, dim=None, keepdim=False, *, axis=None, keepdims=None):
        x = _as_tensor(x)
        if isinstance(dim, Tensor):  # torch.max(x, other): the elementwise form
            return binary(x, dim)
        if axis is not None or keepdims is not None:
            if dim is not None:
                raise TypeError(f"{name}: pass dim (PyTorch's name, giving values and indices) "
                                "or axis (NumPy's, giving values), not both")
            return reduction.apply(x, axis=axis, keepdims=bool(keepdims or keepdim))
        if dim is None:
            if keepdim:
                raise TypeError(f"{name}: keepdim needs a dim, e.g. x.{name}(dim=1, keepdim=True)")
            return reduction.apply(x)
        return _reduced_pair(pair, name, x, dim, keepdim, ufunc_pick)

    extreme.__name__ = extreme.__qualname__ = name
    extreme.__doc__ = (
        f"The {'largest' if name == 'max' else 'smallest'} element, in PyTorch's three forms: "
        f"``x.{name}()`` over every element (tied elements share the gradient); ``x.{name}(dim)`` "
        f"along one dim, PyTorch's pair ``{pair.__name__}(values, indices)`` (the first of tied "
        f"elements is chosen and gets the gradient; a NaN wins); ``{name}(x, other)``, the "
        f"elementwise {'maximum' if name == 'max' else 'minimum'}. NumPy's keyword "
        f"``axis=`` gives the values alone, tied elements sharing the gradient.")
    return extreme


tensor_max = exposed("max")(_extreme("max", np.argmax, Max, reduce.Max, Maximum.apply))
tensor_min = exposed("min")(_extreme("min", np.argmin, Min, reduce.Min, Minimum.apply))


@exposed("amax")
def amax(x, dim=(), keepdim=False):
    """The largest elements over ``dim`` (one or several axes; all for ``()``), tied elements
    sharing the gradient equally, as torch.amax."""
    return reduce.Amax.apply(_as_tensor(x), axis=None if dim == () else dim, keepdims=keepdim)


@exposed("amin")
def amin(x, dim=(), keepdim=False):
    """The smallest elements over ``dim`` (one or several axes; all for ``()``), tied elements
    sharing the gradient equally, as torch.amin."""
    return reduce.Amin.apply(_as_tensor(x), axis=None if dim == () else dim, keepdims=keepdim)


def _lower_median_index(data, axis):
    """Where the lower median of each slice sits (PyTorch's median: the smaller of the two middle
    elements for an even count), or the first NaN's place where a slice holds NaN."""
    order = np.argsort(data, axis=axis, kind="stable")
    middle = np.take(order, [(data.shape[axis] - 1) // 2], axis=axis).squeeze(axis)
    nan = np.isnan(data)
    return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), middle)


@exposed("median")
def median(x, dim=None, keepdim=False):
    """The lower median (the smaller middle element for an even count; NaN if any element is
    NaN), as torch.median: ``x.median()`` over every element, or along ``dim`` PyTorch's pair
    ``Median(values, indices)``. The gradient goes to the element chosen."""
    x = _as_tensor(x)
    if dim is not None:
        return _reduced_pair(Median, "median", x, dim, keepdim, _lower_median_index)
    if keepdim:
        raise TypeError("median: keepdim needs a dim, e.g. x.median(dim=1, keepdim=True)")
    if x.data.size == 0:
        return Tensor._make(np.array(np.nan, dtype=x.dtype), False, None)
    return MedianOfAll.apply(x)


class MedianOfAll(reduce._Extreme):
    """The lower median of every element; tied elements share the gradient, as in
    torch.median() (the shares are max's and min's)."""

    __slots__ = ()

    def forward(self, a):
        self._setup(a, None)
        flat = a.reshape(-1)
        best = flat[_lower_median_index(flat, 0)].reshape(self.kept)
        self.save_for_backward(a, best)
        return best.reshape(())


@exposed("quantile")
def quantile(x, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The q-th quantiles along ``dim`` (of all elements when None), PyTorch's linear
    interpolation: sorted values v, position p = q·(n − 1), result lerp(v[⌊p⌋], v[⌈p⌉], p − ⌊p⌋).
    ``q`` is a number or a 1-d tensor of them, in [0, 1]; a tensor q gives a new first axis.
    A slice that holds NaN gives NaN, as in PyTorch. Built from sort, gather and lerp, so the
    gradient goes to the two neighbours."""
    from .elementwise import lerp
    from .indexing import gather

    x = _as_tensor(x)
    if interpolation != "linear":
        raise ValueError(f"quantile() interpolation {interpolation!r}: only 'linear' (PyTorch's "
                         "default) is implemented here")
    qs = np.asarray(_data(q), dtype=x.dtype)
    if qs.ndim > 1:
        raise ValueError(f"quantile() q must be a number or a 1-d tensor, got shape {qs.shape}")
    if qs.size and not ((qs >= 0) & (qs <= 1)).all():
        raise ValueError(f"quantile() q must be in the range [0, 1] but got {qs.tolist()}: a "
                         "quantile is a fraction (0.5 for the median), not a percentage")
    shape = x.shape
    if dim is None or x.ndim == 0:
        if dim is not None:
            _dim_index(dim, 0, "quantile")
        x, axis = x.reshape(-1), 0
    else:
        axis = _dim_index(dim, x.ndim, "quantile")
    if x.shape[axis] == 0:
        raise ValueError(f"quantile() needs at least one element along dim {dim}, and the tensor "
                         f"has shape {shape}")
    values = sort(x, dim=axis).values
    values = values.permute(*[i for i in range(values.ndim) if i != axis], axis)
    last = values.shape[-1] - 1
    position = np.atleast_1d(qs) * last
    below, above = np.floor(position).astype(np.int64), np.ceil(position).astype(np.int64)
    weight = (position - below).astype(x.dtype)
    # A slice holding NaN gives NaN, its last sorted element, which takes the gradient (torch)
    has_nan = np.isnan(values.data).any(axis=-1, keepdims=True)
    picks = (*values.shape[:-1], len(position))
    below, above = (np.broadcast_to(np.where(has_nan, last, i), picks) for i in (below, above))
    out = lerp(gather(values, -1, below), gather(values, -1, above), weight)  # (..., len(q))
    if keepdim:
        kept = (1,) * len(shape) if dim is None else tuple(
            1 if i == axis else n for i, n in enumerate(shape))
        out = out.reshape(*kept, out.shape[-1])
    out = out.permute(out.ndim - 1, *range(out.ndim - 1))
    return out if qs.ndim else out[0]
