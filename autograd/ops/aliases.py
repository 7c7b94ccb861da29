"""PyTorch's other spellings of ops defined elsewhere: ``cat``, ``clamp``, ``t``, ``expand``,
``expand_as``, ``view``, ``view_as``. Each is a thin function over the op it names, so it adds no
derivative of its own (``clamp`` with tensor bounds is built from ``where``)."""

import numpy as np

from ..tensor import Tensor
from .elementwise import clip, promoted, where
from .exposed import exposed
from .shape import BroadcastTo, concatenate, reshape, shape_arg, transpose


@exposed("cat", method=False)
def cat(tensors, dim=0, *, axis=None):
    """Join tensors along an existing axis: PyTorch's name for ``concatenate``."""
    return concatenate(tensors, axis=dim if axis is None else axis)


@exposed("clamp")
def clamp(x, min=None, max=None):  # noqa: A002 - PyTorch's keyword names
    """Limit x to [min, max], PyTorch's name for ``clip``. The bounds may be numbers or tensors
    (which broadcast, and receive gradient where they are the result, as in PyTorch)."""
    if min is None and max is None:
        raise ValueError("clamp needs min, max or both: e.g. clamp(x, min=0.0) or "
                         "clamp(x, -1.0, 1.0)")
    if not isinstance(min, Tensor) and not isinstance(max, Tensor):
        return clip(x, min, max)
    return _clamp_by_tensors(x, min, max)


def _clamp_by_tensors(x, low, high):
    """min(max(x, low), high), in PyTorch's result dtype (see ``promoted``), with PyTorch's
    share of the gradient: x gets it where low ≤ x ≤ high; low where x < low < high; high where
    x > high or high < low; nobody where x < low = high."""
    given = [bound for bound in (low, high) if bound is not None]
    x, *given = promoted(x, *given)
    low = given.pop(0) if low is not None else None
    high = given.pop(0) if high is not None else None
    data = _array(x)
    lo = None if low is None else _array(low)
    hi = None if high is None else _array(high)
    value = data if lo is None else np.maximum(data, lo)
    value = value if hi is None else np.minimum(value, hi)
    ones = np.ones(value.shape, dtype=bool)
    inside = ones & (True if lo is None else data >= lo) & (True if hi is None else data <= hi)
    if lo is None:
        takes_low = ~ones
    else:
        takes_low = data < lo if hi is None else (data < lo) & (lo < hi)
    takes_high = ~ones if hi is None else (data > hi) | (False if lo is None else hi < lo)
    # The value where no operand is the result (x < low = high, or NaN): a constant. An absent
    # bound's placeholder is a zero of x's dtype (a number would be float64 beside 0-d arrays).
    zero = np.zeros((), dtype=data.dtype)
    out = where(takes_high, high if high is not None else zero, value)
    out = where(takes_low, low if low is not None else zero, out)
    return where(inside, x, out)


def _array(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


@exposed("t")
def t(x):
    """A matrix transposed; a 0-d or 1-d tensor comes back unchanged (PyTorch's ``t()``)."""
    if x.ndim > 2:
        raise ValueError(f"t() expects a tensor with at most 2 dimensions, but this one has shape "
                         f"{x.shape}; use x.transpose(0, 1), x.mT or x.permute(...)")
    return transpose(x)


@exposed("expand")
def expand(x, *sizes):
    """x repeated along size-1 axes (and new leading axes) to ``sizes``; -1 keeps an axis's size:
    ``x.expand(3, -1)``. The gradient is summed back, as for ``broadcast_to``."""
    sizes = shape_arg(sizes)
    lead = len(sizes) - x.ndim
    if lead < 0:
        raise ValueError(f"expand: the number of sizes given ({len(sizes)}) must be at least the "
                         f"number of dimensions of the tensor, of shape {x.shape}")
    shape = []
    for i, size in enumerate(sizes):
        if size == -1:
            if i < lead:
                raise ValueError(f"expand: -1 is not allowed for a new leading axis ({i}) in "
                                 f"{tuple(sizes)}; give its size")
            size = x.shape[i - lead]
        elif i >= lead and x.shape[i - lead] not in (1, size):
            raise ValueError(
                f"expand: the size of axis {i - lead} ({x.shape[i - lead]}) must be 1 or match "
                f"the target size {size}; target {tuple(sizes)}, tensor shape {x.shape}. "
                "Only size-1 axes can be expanded; use repeat-like ops (concatenate) otherwise")
        shape.append(size)
    return BroadcastTo.apply(x, shape=tuple(shape))


@exposed("expand_as")
def expand_as(x, other):
    """``x.expand(other.shape)``."""
    return expand(x, tuple(other.shape))


@exposed("view")
def view(x, *shape):
    """PyTorch's ``view``: here the same as ``reshape`` (NumPy arrays need no contiguity)."""
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer, tuple, list)):
        raise TypeError(f"view takes sizes such as view(2, -1), got {shape[0]!r}; to change the "
                        "dtype use x.to(dtype)")
    return reshape(x, *shape)


@exposed("view_as")
def view_as(x, other):
    """``x.view(other.shape)``."""
    return reshape(x, tuple(other.shape))
