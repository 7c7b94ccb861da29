"""PyTorch's selecting, stacking and rearranging functions, written with the engine's indexing,
shape and product ops, so their gradients (and second derivatives) come from those: index_select
masked_select take_along_dim narrow movedim moveaxis repeat_interleave unflatten, hstack vstack
dstack column_stack, diag diagonal diag_embed, tensordot kron cross cdist meshgrid, the
out-of-place scatter and index_add, and Tensor.unfold's sliding windows."""

import numpy as np

from ..tensor import Tensor
from .aliases import cat
from .exposed import exposed
from .linalg import same_dtype
from .shape import stack


def _t(x):
    return x if isinstance(x, Tensor) else Tensor(np.asarray(x))


def _indices(index, name):
    array = np.asarray(index.data if isinstance(index, Tensor) else index)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name}: the index must hold integers, got dtype {array.dtype}; convert "
                        "it with .long()")
    return array.astype(np.int64, copy=False)


def _dim(x, dim, name):
    if not -max(x.ndim, 1) <= dim < max(x.ndim, 1):
        raise IndexError(f"{name}: dim {dim} is out of range for a tensor of shape {x.shape} "
                         f"(dims run from {-max(x.ndim, 1)} to {max(x.ndim, 1) - 1})")
    return dim % max(x.ndim, 1)


def _along(x, dim, key):
    """x indexed by ``key`` along ``dim`` alone."""
    return x[(slice(None),) * dim + (key,)]


@exposed("index_select")
def index_select(x, dim, index):
    """The slices of x at ``index`` (0-D or 1-D integers) along ``dim``; a repeated index gets
    the sum of its slices' gradients. As in PyTorch, indices run from 0 (no negative ones), and
    a 0-d x (one slice) takes one index, 0."""
    x, index = _t(x), _indices(index, "index_select")
    if index.ndim > 1:
        raise IndexError(f"index_select: index should be 0-D or 1-D, got shape {index.shape}; "
                         "flatten it, or use take_along_dim / gather for one index per element")
    dim = _dim(x, dim, "index_select")
    n = x.shape[dim] if x.ndim else 1
    if index.size and not 0 <= index.min() <= index.max() < n:
        raise IndexError(f"index_select: index out of range in self: the indices of a dimension "
                         f"of size {n} run from 0 to {n - 1} (PyTorch's index_select takes no "
                         f"negative ones), got {index.tolist()}")
    if not x.ndim:
        if index.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{index.size} value(s)")
        return x.clone()
    return _along(x, dim, index.reshape(-1))


@exposed("masked_select")
def masked_select(x, mask):
    """The elements of x where the boolean ``mask`` (broadcast with x) is True, as a 1-D
    tensor in row-major order."""
    x = _t(x)
    mask = np.asarray(mask.data if isinstance(mask, Tensor) else mask)
    if mask.dtype != bool:
        raise TypeError(f"masked_select: mask must be a bool tensor, got {mask.dtype}; compare "
                        "to make one, e.g. x > 0")
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return x.broadcast_to(shape)[np.broadcast_to(mask, shape)]


@exposed("take_along_dim")
def take_along_dim(x, indices, dim=None):
    """Elements of x picked by ``indices`` along ``dim`` (the two broadcast on the other axes),
    as ``np.take_along_axis``; without ``dim`` both are flattened first."""
    x, idx = _t(x), _indices(indices, "take_along_dim")
    if dim is None:
        return x.reshape(-1)[idx.reshape(-1)]
    dim = _dim(x, dim, "take_along_dim")
    if idx.ndim != x.ndim:
        raise RuntimeError(f"take_along_dim: input and indices should have the same number of "
                           f"dimensions, but got {x.ndim} and {idx.ndim}")
    rest = np.broadcast_shapes(*[tuple(s[:dim] + (1,) + s[dim + 1:])
                                 for s in (x.shape, idx.shape)])
    x = x.broadcast_to(rest[:dim] + (x.shape[dim],) + rest[dim + 1:])
    idx = np.broadcast_to(idx, rest[:dim] + (idx.shape[dim],) + rest[dim + 1:])
    grids = np.indices(idx.shape, sparse=True)
    return x[tuple(idx if axis == dim else grid for axis, grid in enumerate(grids))]


@exposed("narrow")
def narrow(x, dim, start, length):
    """``length`` elements of x along ``dim`` from ``start`` (negative counts from the end)."""
    x = _t(x)
    dim = _dim(x, dim, "narrow")
    size = x.shape[dim]
    start = start + size if start < 0 else start
    if not (0 <= start <= size and 0 <= length <= size - start):
        raise IndexError(f"narrow: start ({start}) + length ({length}) exceeds dimension size "
                         f"({size}) of dim {dim}")
    return _along(x, dim, slice(start, start + length))


@exposed("scatter")
def scatter(x, dim, index, src=None, value=None, reduce=None):
    """A copy of x with ``src`` (or the number ``value``) written at ``index`` along ``dim``
    (``x[i][index[i][j]] = src[i][j]`` for dim 1), as torch.scatter; ``reduce="add"`` adds."""
    return _t(x).clone().scatter_(dim, index, src, value, reduce)


@exposed("index_add")
def index_add(x, dim, index, source, alpha=1):
    """A copy of x with ``alpha * source``'s slices added at ``index`` along ``dim``."""
    return _t(x).clone().index_add_(dim, index, source, alpha)


def windows(x, dimension, size, step):
    """Every window of ``size`` elements ``step`` apart along ``dimension``, as a new last axis
    (PyTorch's Tensor.unfold): a (5,) tensor with size 2, step 1 gives (4, 2)."""
    x = _t(x)
    dim = _dim(x, dimension, "unfold") if x.ndim else 0
    length = x.shape[dim] if x.ndim else 1
    if size < 0 or size > length or step <= 0:
        raise RuntimeError(f"unfold: size {size} must be between 0 and the dimension's length "
                           f"{length}, and step {step} above 0")
    starts = np.arange((length - size) // step + 1) * step
    picks = starts[:, None] + np.arange(size)[None, :]
    if not x.ndim:
        return x.reshape(1)[picks.reshape(-1)].reshape(size)
    return movedim(movedim(x, dim, -1)[..., picks], -2, dim)


@exposed("movedim")
def movedim(x, source, destination):
    """x with its axes ``source`` moved to ``destination`` (the others keep their order)."""
    x = _t(x)
    source, destination = (
        [_dim(x, int(d), "movedim") for d in np.atleast_1d(axes)] for axes in (source,
                                                                              destination))
    if len(source) != len(destination) or len(set(source)) != len(source) or len(
            set(destination)) != len(destination):
        raise ValueError(f"movedim: source {source} and destination {destination} must name as "
                         "many axes, each once")
    if not x.ndim:  # 0 and -1 name the one place of a 0-d tensor, as in PyTorch
        return x.reshape(())
    order = [axis for axis in range(x.ndim) if axis not in source]
    for to, axis in sorted(zip(destination, source)):
        order.insert(to, axis)
    return x.permute(*order)


@exposed("moveaxis")
def moveaxis(x, source, destination):
    """NumPy's name for movedim."""
    return movedim(x, source, destination)


@exposed("repeat_interleave")
def repeat_interleave(x, repeats, dim=None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times, in place: [1, 2] with 2
    gives [1, 1, 2, 2]. Without ``dim`` x is flattened first."""
    x = _t(x)
    if dim is None:
        x, dim = x.reshape(-1), 0
    dim = _dim(x, dim, "repeat_interleave")
    counts = _indices(repeats, "repeat_interleave")
    if counts.ndim and counts.shape != (x.shape[dim],):
        raise ValueError(f"repeat_interleave: repeats must have the shape ({x.shape[dim]},) of "
                         f"dim {dim}, or be one number, got shape {counts.shape}")
    if (counts < 0).any():
        raise ValueError("repeat_interleave: repeats can not be negative")
    return _along(x, dim, np.repeat(np.arange(x.shape[dim]), counts))


@exposed("unflatten")
def unflatten(x, dim, sizes):
    """Axis ``dim`` of x split into ``sizes`` (one of them may be -1)."""
    x = _t(x)
    dim = _dim(x, dim, "unflatten")
    return x.reshape(*x.shape[:dim], *sizes, *x.shape[dim + 1:])


def _at_least(x, ndim):
    """x with axes added as PyTorch's atleast_2d / atleast_3d add them."""
    x = _t(x)
    if ndim == 2:
        return x.reshape(1, -1) if x.ndim < 2 else x
    if x.ndim == 0:
        return x.reshape(1, 1, 1)
    if x.ndim == 1:
        return x.reshape(1, -1, 1)
    return x.unsqueeze(-1) if x.ndim == 2 else x


@exposed("hstack", method=False)
def hstack(tensors):
    """Join along axis 1, or axis 0 when every tensor is 1-D (or 0-D)."""
    tensors = [_t(t).reshape(-1) if _t(t).ndim == 0 else _t(t) for t in tensors]
    return cat(tensors, 0 if all(t.ndim == 1 for t in tensors) else 1)


@exposed("vstack", method=False)
def vstack(tensors):
    """Join as rows: 1-D tensors become rows (1, n), then join along axis 0."""
    return cat([_at_least(t, 2) for t in tensors], 0)


@exposed("dstack", method=False)
def dstack(tensors):
    """Join along the third axis, after making each at least 3-D."""
    return cat([_at_least(t, 3) for t in tensors], 2)


@exposed("column_stack", method=False)
def column_stack(tensors):
    """Join as columns: 0-D and 1-D tensors become columns (n, 1), then join along axis 1."""
    return cat([_t(t).reshape(-1, 1) if _t(t).ndim < 2 else _t(t) for t in tensors], 1)


def _diagonal_places(n, offset):
    """Row and column indices of the ``offset`` diagonal of an (n + |offset|)-square matrix."""
    rows = np.arange(n) + max(-offset, 0)
    return rows, rows + offset


@exposed("diag_embed")
def diag_embed(x, offset=0, dim1=-2, dim2=-1):
    """Square matrices whose ``offset`` diagonal is x's last axis, the two new axes at ``dim1``
    and ``dim2``. Each place picks an element of x or an appended 0, so the gradient is picked
    back (an infinite one stays infinite, not inf · 0)."""
    x = _t(x)
    n = x.shape[-1] if x.ndim else 1
    size = n + abs(offset)
    rows, cols = _diagonal_places(n, offset)
    source = np.full((size, size), n)
    source[rows, cols] = np.arange(n)
    x = x.reshape(*x.shape[:-1], n)
    padded = cat([x, Tensor(np.zeros((*x.shape[:-1], 1), x.dtype))], -1)
    return movedim(_along(padded, padded.ndim - 1, source), (-2, -1), (dim1, dim2))


@exposed("diagonal")
def diagonal(x, offset=0, dim1=0, dim2=1):
    """The ``offset`` diagonal of the matrices on axes ``dim1`` and ``dim2``, as a last axis."""
    return _diagonal(x, offset, dim1, dim2)


def _diagonal(x, offset, dim1, dim2):
    x = _t(x)
    if x.ndim < 2:
        raise RuntimeError(f"diagonal: the input needs at least 2 dimensions, got shape "
                           f"{x.shape}")
    x = movedim(x, (dim1, dim2), (-2, -1))
    rows_n, cols_n = x.shape[-2:]
    n = max(0, min(rows_n - max(-offset, 0), cols_n - max(offset, 0)))
    rows, cols = _diagonal_places(n, offset)
    return x[..., rows, cols]


@exposed("diag")
def diag(x, diagonal=0):
    """A 1-D x as the ``diagonal`` of a square matrix; a 2-D x's ``diagonal`` as a 1-D
    tensor."""
    x = _t(x)
    if x.ndim == 1:
        return diag_embed(x, diagonal)
    if x.ndim == 2:
        return _diagonal(x, diagonal, 0, 1)
    raise RuntimeError(f"diag: expected a 1-D or 2-D input, got shape {x.shape}; use "
                       "diag_embed or diagonal for batches")


@exposed("tensordot", method=False)
def tensordot(a, b, dims=2):
    """The sum of products over the last ``dims`` axes of a and the first ``dims`` of b, or over
    the axes listed in ``dims = ([a's], [b's])``."""
    a, b = _t(a), _t(b)
    if isinstance(dims, int):
        a_axes, b_axes = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        a_axes, b_axes = ([d % a.ndim for d in np.atleast_1d(dims[0])],
                          [d % b.ndim for d in np.atleast_1d(dims[1])])
    if [a.shape[i] for i in a_axes] != [b.shape[i] for i in b_axes]:
        raise RuntimeError(f"tensordot: contracted dimensions need to match, but a's "
                           f"{[a.shape[i] for i in a_axes]} (axes {a_axes} of {a.shape}) and b's "
                           f"{[b.shape[i] for i in b_axes]} (axes {b_axes} of {b.shape}) differ")
    a_free = [i for i in range(a.ndim) if i not in a_axes]
    b_free = [i for i in range(b.ndim) if i not in b_axes]
    inner = int(np.prod([a.shape[i] for i in a_axes]))
    left = a.permute(*a_free, *a_axes).reshape(-1, inner)
    right = b.permute(*b_axes, *b_free).reshape(inner, -1)
    return (left @ right).reshape(*[a.shape[i] for i in a_free], *[b.shape[i] for i in b_free])


@exposed("kron")
def kron(a, b):
    """The Kronecker product: every element of a times the whole of b, in blocks."""
    a, b = _t(a), _t(b)
    ndim = max(a.ndim, b.ndim)
    a_shape, b_shape = ((1,) * (ndim - t.ndim) + t.shape for t in (a, b))
    paired_a = a.reshape(*[n for size in a_shape for n in (size, 1)])
    paired_b = b.reshape(*[n for size in b_shape for n in (1, size)])
    return (paired_a * paired_b).reshape(*[p * q for p, q in zip(a_shape, b_shape)])


@exposed("cross")
def cross(a, b, dim=None):
    """The cross product of 3-vectors along ``dim`` (a and b broadcast); without ``dim``, the
    first axis of size 3, as torch.cross."""
    a, b = _t(a), _t(b)
    same_dtype("cross", a.data, b.data, what=("input", "other"))
    shape = np.broadcast_shapes(a.shape, b.shape)
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError(f"cross: no dimension of size 3 in input of shape {shape}")
    if not -len(shape) <= dim < len(shape):
        raise IndexError(f"cross: dim {dim} is out of range for inputs of shape {shape} (dims "
                         f"run from {-len(shape)} to {len(shape) - 1})")
    dim %= len(shape)
    if shape[dim] != 3:
        raise RuntimeError(f"cross: inputs dimension {dim} must have length 3, got shape "
                           f"{shape}")
    a1, a2, a3 = a.broadcast_to(shape).unbind(dim)
    b1, b2, b3 = b.broadcast_to(shape).unbind(dim)
    return stack([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1], dim)


@exposed("cdist", method=False)
def cdist(x1, x2, p=2.0):
    """The ``p``-norm distance between every row of x1 (..., P, M) and every row of x2
    (..., R, M): a (..., P, R) tensor (gradient 0 where two rows are equal)."""
    x1, x2 = _t(x1), _t(x2)
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.ndim}D; "
                               "make a single row (1, M) with x.unsqueeze(0)")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"cdist: X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    same_dtype("cdist", x1.data, x2.data, what=("x1", "x2"))
    return (x1.unsqueeze(-2) - x2.unsqueeze(-3)).norm(p, -1)


@exposed("meshgrid", method=False)
def meshgrid(*tensors, indexing="ij"):
    """Coordinate grids: the k-th output repeats the k-th 1-D tensor along every other axis.
    ``indexing="ij"`` (PyTorch's default) gives shape (len0, len1, ...); "xy" swaps the first
    two, as NumPy's default."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', got {indexing!r}")
    flat = [_t(t).reshape(-1) for t in tensors]
    order = list(range(len(flat)))
    if indexing == "xy" and len(flat) > 1:
        order[0], order[1] = 1, 0
    shape = tuple(flat[i].shape[0] for i in order)
    grids = []
    for k, t in enumerate(flat):
        axis = order.index(k)
        grids.append(t.reshape(*[-1 if i == axis else 1 for i in range(len(flat))])
                     .broadcast_to(shape))
    return tuple(grids)
