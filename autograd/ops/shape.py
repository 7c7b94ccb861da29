"""Shape ops: reshape, transpose, broadcast_to, indexing, concatenate, stack, flip, roll, tile
(repeat), tril, triu, and split, chunk and unbind (which give slices).

Their derivatives move gradients around without changing them: the inverse reshape, the inverse
permutation, a scatter back to the indexed places, a split.
"""

import numpy as np

from ..tensor import Tensor, as_tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed


class Reshape(Op):
    """The same elements in a new shape (one size may be -1); the gradient is reshaped back."""

    __slots__ = ("shape", "new_shape")

    def forward(self, a, shape):
        self.shape, self.new_shape = a.shape, shape
        try:
            return a.reshape(shape)
        except ValueError:
            raise ValueError(
                f"cannot reshape a tensor of shape {a.shape} ({a.size} elements) into {shape}: "
                "the new shape must have the same number of elements"
            ) from None

    def backward(self, grad):
        return grad.reshape(self.shape)

    def jvp(self, tangent):
        return tangent.reshape(self.new_shape)


class Transpose(Op):
    """Permute the axes to ``axes`` (negative axes allowed); the gradient takes the inverse
    permutation back."""

    __slots__ = ("axes",)

    def forward(self, a, axes):
        self.axes = tuple(np.lib.array_utils.normalize_axis_tuple(axes, a.ndim))
        return a.transpose(self.axes)

    def backward(self, grad):
        inverse = tuple(np.argsort(self.axes).tolist())
        return grad.permute(inverse) if isinstance(grad, Tensor) else grad.transpose(inverse)

    def hint(self, inputs, axes):
        ndim = inputs[0].ndim
        return (f"axes must list each of 0..{ndim - 1} exactly once, e.g. "
                f"{list(reversed(range(ndim)))}")

    def jvp(self, tangent):
        return tangent.transpose(self.axes)


@exposed("broadcast_to")
class BroadcastTo(Op):
    """Repeat a along new or size-1 axes; the engine sums the gradient back to a's shape."""

    __slots__ = ()

    def forward(self, a, *, shape):
        return np.broadcast_to(a, tuple(shape))

    def backward(self, grad):
        return grad

    def hint(self, inputs, shape):
        return (f"the target shape is {tuple(shape)}: {_called(inputs[0])}'s sizes must each "
                "equal the target's last sizes or be 1")

    def jvp(self, tangent):
        return tangent  # the engine broadcasts every tangent to its output's shape


class Index(Op):
    """``a[key]`` for slices, integer arrays (repeats allowed) and boolean masks."""

    __slots__ = ("key", "shape")

    def forward(self, a, key):
        self.key = key
        self.shape = a.shape
        return a[key]

    def backward(self, grad):
        return array_or_tensor.index_add(grad, self.key, self.shape)

    def hint(self, inputs, key):
        return (f"the indices of an axis of size n run from 0 to n - 1 (or -n to -1); "
                f"{_called(inputs[0])} has shape {inputs[0].shape}")

    def jvp(self, tangent):
        return tangent[self.key]


class IndexAdd(Op):
    """Scatter-add into zeros: the derivative of indexing, and itself differentiable by indexing."""

    __slots__ = ("key", "shape")

    def forward(self, grad, key, shape):
        self.key, self.shape = key, shape
        return array_or_tensor._index_add_array(grad, key, shape)

    def backward(self, grad):
        return grad[self.key]

    def jvp(self, tangent):
        return array_or_tensor.index_add(tangent, self.key, self.shape)


class Concatenate(Op):
    """Tensors joined along an existing axis; each gets its slice of the gradient."""

    __slots__ = ("axis", "bounds")

    def forward(self, *arrays, axis):
        out = np.concatenate(arrays, axis=axis)
        self.axis = axis % out.ndim
        self.bounds = np.cumsum([0] + [a.shape[self.axis] for a in arrays])
        return out

    def backward(self, grad):
        lead = (slice(None),) * self.axis
        return tuple(grad[lead + (slice(start, stop),)]
                     for start, stop in zip(self.bounds[:-1], self.bounds[1:]))

    def hint(self, inputs, axis):
        return ("concatenate needs operands with the same number of dimensions and the same sizes "
                f"on every axis but the one joined (axis {axis}), which must exist; got shapes "
                f"{', '.join(str(t.shape) for t in inputs)}")

    def jvp(self, *tangents):
        return np.concatenate(tangents, axis=self.axis)


class Stack(Op):
    """Tensors of one shape joined along a new axis; each gets its slice of the gradient."""

    __slots__ = ("axis", "count")

    def forward(self, *arrays, axis):
        out = np.stack(arrays, axis=axis)
        self.axis = axis % out.ndim
        self.count = len(arrays)
        return out

    def backward(self, grad):
        lead = (slice(None),) * self.axis
        return tuple(grad[lead + (i,)] for i in range(self.count))

    def hint(self, inputs, axis):
        shapes = {t.shape for t in inputs}
        if len(shapes) == 1:
            return None
        return (f"stack needs operands of one shape, got {', '.join(map(str, sorted(shapes)))}; "
                "reshape them to match")

    def jvp(self, *tangents):
        return np.stack(tangents, axis=self.axis)


def shape_arg(shape):
    """Accept a shape as reshape(2, 3) or reshape((2, 3)) (also used by zeros, ones, …)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


@exposed("reshape")
def reshape(x, *shape):
    """x's elements in ``shape`` (a tuple or separate sizes, one of them may be -1), as
    x.reshape in PyTorch."""
    return Reshape.apply(x, shape=shape_arg(shape))


@exposed("transpose")
def transpose(x, *axes):
    """One rule, stated in the README:

    - ``transpose()``: swap the last two axes (PyTorch's ``.mT``; babygrad's ``Transpose()``);
      0-d and 1-d tensors come back unchanged;
    - ``transpose(0, 2)`` or ``transpose((0, 2))``: swap exactly those two axes, at any rank
      (PyTorch's ``transpose(dim0, dim1)``);
    - three or more axes: a full permutation, the same as ``permute`` (NumPy, babygrad).

    ``x.T`` reverses all axes, as in NumPy and PyTorch.
    """
    axes = shape_arg(axes)
    ndim = x.ndim
    if not axes:
        if ndim < 2:
            return Transpose.apply(x, axes=tuple(range(ndim)))
        axes = (-1, -2)
    if len(axes) == 2:
        return swapaxes(x, *axes)
    return Transpose.apply(x, axes=axes)


@exposed("permute")
def permute(x, *axes):
    """Reorder the axes: ``permute(2, 0, 1)`` or ``permute((2, 0, 1))``."""
    return Transpose.apply(x, axes=shape_arg(axes))


@exposed("swapaxes")
def swapaxes(x, axis1, axis2):
    """Swap two axes (negative axes allowed; a 0-d tensor takes 0 and -1, as in PyTorch)."""
    if x.ndim == 0 and {axis1, axis2} <= {0, -1}:
        return Transpose.apply(x, axes=())
    axes = list(range(x.ndim))
    try:
        axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    except IndexError:
        raise np.exceptions.AxisError(
            f"swapaxes({axis1}, {axis2}): {_called(x)} has {x.ndim} dimension(s), so axes run "
            f"from {-x.ndim} to {x.ndim - 1}") from None
    return Transpose.apply(x, axes=tuple(axes))


@exposed("squeeze")
def squeeze(x, axis=None):
    """Drop size-1 axes: all of them, or those named by ``axis`` (an int or a tuple). A named
    axis whose size is not 1 is left as it is, as in PyTorch."""
    if axis is None:
        shape = tuple(n for n in x.shape if n != 1)
    else:
        named = axis if isinstance(axis, (tuple, list)) else (axis,)
        try:
            drop = np.lib.array_utils.normalize_axis_tuple(named, max(x.ndim, 1))
        except np.exceptions.AxisError:
            raise np.exceptions.AxisError(
                f"squeeze: axis {axis} is out of range, and {_called(x)} has shape {x.shape}"
            ) from None
        shape = tuple(n for i, n in enumerate(x.shape) if not (i in drop and n == 1))
    return Reshape.apply(x, shape=shape)


def _called(tensor):
    """How a message refers to a tensor: its name, if it has one."""
    return tensor.name or "the tensor"


@exposed("unsqueeze")
def unsqueeze(x, axis):
    """Insert a size-1 axis at ``axis`` (PyTorch's name; ``expand_dims`` is NumPy's)."""
    return Reshape.apply(x, shape=np.expand_dims(_placeholder(x.shape), axis).shape)


@exposed("expand_dims")
def expand_dims(x, axis):
    """NumPy's name for ``unsqueeze``."""
    return unsqueeze(x, axis)


def _placeholder(shape):
    """An array of ``shape`` that takes no memory, to let NumPy work out (and check) a new shape."""
    return np.broadcast_to(np.empty((), dtype=bool), shape)


@exposed("flatten")
def flatten(x, start_dim=0, end_dim=-1):
    """Merge axes ``start_dim`` to ``end_dim`` into one (all of them by default: a 1-D tensor)."""
    if x.ndim == 0:
        return Reshape.apply(x, shape=(1,))
    start, end = np.lib.array_utils.normalize_axis_tuple((start_dim, end_dim), x.ndim,
                                                         allow_duplicate=True)
    if start > end:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim}")
    # the merged size spelled out: -1 cannot be inferred when another axis is 0
    merged = int(np.prod(x.shape[start:end + 1]))
    return Reshape.apply(x, shape=x.shape[:start] + (merged,) + x.shape[end + 1:])


@exposed("concatenate", method=False)
def concatenate(tensors, axis=0):
    """``tensors`` joined along ``axis`` (PyTorch's torch.cat)."""
    return Concatenate.apply(*tensors, axis=axis)


@exposed("stack", method=False)
def stack(tensors, axis=0):
    """``tensors`` of one shape joined along a new ``axis``, as torch.stack."""
    return Stack.apply(*tensors, axis=axis)


class Flip(Op):
    """a with its elements in reverse order along ``dims``; the gradient is flipped back."""

    __slots__ = ("dims",)

    def forward(self, a, *, dims):
        self.dims = _distinct_axes(dims, a.ndim, "flip")
        return np.flip(a, self.dims)

    def backward(self, grad):
        if isinstance(grad, Tensor):
            return Flip.apply(grad, dims=self.dims)
        return np.flip(grad, self.dims)

    def jvp(self, tangent):
        return np.flip(tangent, self.dims)


@exposed("flip")
def flip(x, *dims_given, dims=None):
    """Reverse the order of the elements along ``dims``: ``flip(x, 0)``, ``x.flip(0, 1)`` or
    ``flip(x, dims=(0, 1))``. As in PyTorch the dims are required (NumPy's flip flips every
    axis when none are given; PyTorch's does not)."""
    if dims_given and dims is not None:
        raise TypeError("flip got its dims twice: pass them once, e.g. flip(x, dims=(0, 1))")
    dims = shape_arg(dims_given) if dims_given else dims
    if dims is None:
        raise TypeError("flip needs the dims to reverse, e.g. flip(x, dims=(0,)) or x.flip(0); "
                        f"to reverse every axis of a {np.ndim(x)}-D tensor pass all of them")
    return Flip.apply(x, dims=tuple(dims) if isinstance(dims, (tuple, list)) else (dims,))


@exposed("roll")
class Roll(Op):
    """a's elements shifted cyclically by ``shifts`` along ``dims``, as torch.roll: those pushed
    off one end come back at the other. With dims=None the tensor is rolled as if flattened. The
    gradient is rolled back."""

    __slots__ = ("shifts", "dims")

    def forward(self, a, *, shifts, dims=None):
        shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
        if dims is None:
            if len(shifts) != 1:
                raise ValueError(f"roll: {len(shifts)} shifts {shifts} but no dims; give one "
                                 "dim per shift, e.g. roll(x, shifts=(1, 2), dims=(0, 1))")
            self.shifts, self.dims = int(shifts[0]), None
        else:
            dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
            if len(shifts) != len(dims):
                raise ValueError(f"roll: {len(shifts)} shift(s) {shifts} but {len(dims)} dim(s) "
                                 f"{dims}; give one shift per dim")
            self.shifts = tuple(int(s) for s in shifts)
            self.dims = tuple(np.lib.array_utils.normalize_axis_index(d, max(a.ndim, 1))
                              for d in dims)
            if a.ndim == 0:
                self.shifts, self.dims = 0, None
        return np.roll(a, self.shifts, self.dims)

    def backward(self, grad):
        back = -self.shifts if self.dims is None else tuple(-s for s in self.shifts)
        if isinstance(grad, Tensor):
            return Roll.apply(grad, shifts=back, dims=self.dims)
        return np.roll(grad, back, self.dims)

    def hint(self, inputs, shifts, dims=None):
        return f"the tensor has shape {inputs[0].shape}; dims run from {-inputs[0].ndim} to " \
               f"{inputs[0].ndim - 1}"

    def jvp(self, tangent):
        return np.roll(tangent, self.shifts, self.dims)


class Tile(Op):
    """a repeated ``reps`` times along each axis, the whole block each time (np.tile; PyTorch's
    tile and Tensor.repeat); the gradient adds up the copies."""

    __slots__ = ("reps", "shape")

    def forward(self, a, *, reps):
        reps = tuple(int(r) for r in reps)
        if any(r < 0 for r in reps):
            raise ValueError(f"the repeats {reps} must be 0 or more")
        self.shape = a.shape
        self.reps = (1,) * (a.ndim - len(reps)) + reps
        return np.tile(a, self.reps)

    def backward(self, grad):
        inner = (1,) * (len(self.reps) - len(self.shape)) + self.shape
        pairs = tuple(n for r, s in zip(self.reps, inner) for n in (r, s))
        summed = grad.reshape(pairs).sum(axis=tuple(range(0, len(pairs), 2)))
        return summed.reshape(self.shape)

    def hint(self, inputs, reps):
        return f"{_called(inputs[0])} has shape {inputs[0].shape}"

    def jvp(self, tangent):
        return np.tile(tangent, self.reps)


@exposed("repeat")
def repeat(x, *sizes):
    """PyTorch's Tensor.repeat: x tiled ``sizes`` times along each axis, ``x.repeat(2, 1)`` —
    like np.tile, not np.repeat (that is repeat_interleave). Give at least one size per axis;
    extra sizes add leading axes."""
    if not sizes:
        raise TypeError("repeat() missing 1 required positional arguments: \"repeats\" (as "
                        "PyTorch says): give one size per dimension, e.g. x.repeat(2, 1); "
                        "x.repeat(()) for a 0-d x")
    sizes = shape_arg(sizes)
    ndim = np.ndim(getattr(x, "data", x))
    if len(sizes) < ndim:
        raise ValueError(
            f"repeat: {len(sizes)} size(s) {tuple(sizes)} for a tensor of shape "
            f"{np.shape(getattr(x, 'data', x))}; give one size per dimension, e.g. "
            f"x.repeat{(1,) * (ndim - 1) + (2,)}, or use tile, which fills missing sizes with 1")
    return Tile.apply(x, reps=sizes)


@exposed("tile")
def tile(x, *dims):
    """x tiled ``dims`` times along each axis, as torch.tile and np.tile: ``tile(x, (2, 1))``.
    With fewer dims than axes, the leading axes are repeated once."""
    return Tile.apply(x, reps=shape_arg(dims))


class _Triangle(Op):
    """Keep one triangle of the last two axes (a matrix, or each of a batch) and zero the rest;
    ``diagonal`` shifts the border (0: the main diagonal, 1: one above). The gradient keeps the
    same triangle."""

    __slots__ = ("keep",)
    lower = True

    def forward(self, a, diagonal=0):
        if a.ndim < 2:
            name = type(self).__name__.lower()
            raise ValueError(f"{name} needs a matrix or a batch of them (2 or more dimensions), "
                             f"got shape {a.shape}; reshape it, e.g. x.reshape(1, -1)")
        rows, cols = a.shape[-2:]
        if self.lower:
            self.keep = np.tri(rows, cols, int(diagonal), dtype=bool)
        else:
            self.keep = ~np.tri(rows, cols, int(diagonal) - 1, dtype=bool)
        return np.where(self.keep, a, np.zeros((), dtype=a.dtype))

    def backward(self, grad):
        return array_or_tensor.where(self.keep, grad, 0.0)

    def jvp(self, tangent):
        return np.where(self.keep, tangent, 0.0)


@exposed("tril")
class Tril(_Triangle):
    """The lower triangle of the last two axes, zero above ``diagonal`` (torch.tril)."""

    __slots__ = ()
    lower = True


@exposed("triu")
class Triu(_Triangle):
    """The upper triangle of the last two axes, zero below ``diagonal`` (torch.triu)."""

    __slots__ = ()
    lower = False


@exposed("split")
def split(x, split_size_or_sections, axis=0):
    """x cut into pieces along ``axis``, as torch.split: pieces of ``split_size_or_sections``
    elements (the last one smaller if they do not divide the axis), or of each size in a list
    (which must add up to the axis' size). A tuple of slices of x, each its own node."""
    x = x if isinstance(x, Tensor) else as_tensor(x)
    axis, n = _split_axis(x, axis, "split")
    sizes = split_size_or_sections
    if isinstance(sizes, (int, np.integer)) and not isinstance(sizes, bool):
        size = int(sizes)
        if size < 0 or (size == 0 and n != 0):
            raise ValueError(f"split: the piece size must be at least 1, got {size} (axis {axis} "
                             f"of shape {x.shape} has {n} elements)")
        starts = list(range(0, n, size)) if size else []
        bounds = [(start, min(start + size, n)) for start in starts] or [(0, 0)]
    else:
        sizes = [int(s) for s in sizes]
        if any(s < 0 for s in sizes) or sum(sizes) != n:
            raise ValueError(
                f"split: the sizes {sizes} add up to {sum(sizes)}, but axis {axis} of shape "
                f"{x.shape} has {n} elements; give sizes of 0 or more that add up to {n}, or one "
                "number for pieces of that size")
        ends = np.cumsum(sizes)
        bounds = [(int(end) - s, int(end)) for s, end in zip(sizes, ends)]
    lead = (slice(None),) * axis
    return tuple(x[lead + (slice(start, stop),)] for start, stop in bounds)


@exposed("chunk")
def chunk(x, chunks, axis=0):
    """x cut into ``chunks`` pieces of equal size along ``axis`` (the last one smaller), as
    torch.chunk: the size is ceil(n / chunks), so there may be fewer pieces than asked for."""
    x = x if isinstance(x, Tensor) else as_tensor(x)
    if isinstance(chunks, bool) or not isinstance(chunks, (int, np.integer)) or chunks < 1:
        raise ValueError(f"chunk: the number of chunks must be a whole number of at least 1, "
                         f"got {chunks!r}")
    axis, n = _split_axis(x, axis, "chunk")
    if n == 0:
        return split(x, [0] * int(chunks), axis)
    return split(x, -(-n // int(chunks)), axis)


@exposed("unbind")
def unbind(x, axis=0):
    """The slices of x along ``axis``, that axis removed, as torch.unbind (x[0], x[1], … for
    axis 0): a tuple, each slice its own node."""
    x = x if isinstance(x, Tensor) else as_tensor(x)
    axis, n = _split_axis(x, axis, "unbind")
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(n))


def _split_axis(x, axis, name):
    """The axis to cut along, made non-negative, and its size."""
    if x.ndim == 0:
        raise ValueError(f"{name}: a 0-d tensor has no axis to cut; reshape it first "
                         "(x.reshape(1))")
    try:
        axis = int(np.lib.array_utils.normalize_axis_index(axis, x.ndim))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"{name}: axis {axis} is out of range for shape {x.shape}; axes run from "
            f"{-x.ndim} to {x.ndim - 1}") from None
    return axis, x.shape[axis]


def _distinct_axes(axes, ndim, name):
    """``axes`` made non-negative, each at most once (a 0-d tensor takes 0 and -1)."""
    if ndim == 0 and all(a in (0, -1) for a in axes):
        return ()
    try:
        return tuple(np.lib.array_utils.normalize_axis_tuple(axes, ndim))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"{name}: dims {tuple(axes)} are out of range for a tensor with {ndim} "
            f"dimension(s); dims run from {-max(ndim, 1)} to {max(ndim, 1) - 1}") from None
    except ValueError:
        raise ValueError(f"{name}: a dim appears more than once in {tuple(axes)}; name each "
                         "dim once") from None
