"""Shape ops: reshape, transpose, broadcast_to, indexing, concatenate, stack.

Their derivatives move gradients around without changing them: the inverse reshape, the inverse
permutation, a scatter back to the indexed places, a split.
"""

import numpy as np

from ..function import Function
from . import array_or_tensor
from .exposed import exposed


class Reshape(Function):
    __slots__ = ("shape", "new_shape")
    backward_runs_on_arrays = True

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


class Transpose(Function):
    """Permute the axes to ``axes`` (negative axes allowed); the gradient takes the inverse
    permutation back."""

    __slots__ = ("axes",)
    backward_runs_on_arrays = True

    def forward(self, a, axes):
        self.axes = tuple(np.lib.array_utils.normalize_axis_tuple(axes, a.ndim))
        return a.transpose(self.axes)

    def backward(self, grad):
        return grad.transpose(tuple(np.argsort(self.axes)))

    def hint(self, inputs, axes):
        ndim = inputs[0].ndim
        return (f"axes must list each of 0..{ndim - 1} exactly once, e.g. "
                f"{list(reversed(range(ndim)))}")

    def jvp(self, tangent):
        return tangent.transpose(self.axes)


@exposed("broadcast_to")
class BroadcastTo(Function):
    """Repeat a along new or size-1 axes; the engine sums the gradient back to a's shape."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, *, shape):
        return np.broadcast_to(a, tuple(shape))

    def backward(self, grad):
        return grad

    def hint(self, inputs, shape):
        return (f"the target shape is {tuple(shape)}: {_called(inputs[0])}'s sizes must each "
                "equal the target's last sizes or be 1")

    def jvp(self, tangent):
        return tangent  # the engine broadcasts every tangent to its output's shape


class Index(Function):
    """``a[key]`` for slices, integer arrays (repeats allowed) and boolean masks."""

    __slots__ = ("key", "shape")
    backward_runs_on_arrays = True

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


class IndexAdd(Function):
    """Scatter-add into zeros: the derivative of indexing, and itself differentiable by indexing."""

    __slots__ = ("key", "shape")
    backward_runs_on_arrays = True

    def forward(self, grad, key, shape):
        self.key, self.shape = key, shape
        return array_or_tensor._index_add_array(grad, key, shape)

    def backward(self, grad):
        return grad[self.key]

    def jvp(self, tangent):
        return array_or_tensor.index_add(tangent, self.key, self.shape)


class Concatenate(Function):
    __slots__ = ("axis", "bounds")
    backward_runs_on_arrays = True

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


class Stack(Function):
    __slots__ = ("axis", "count")
    backward_runs_on_arrays = True

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
    """Swap two axes (negative axes allowed)."""
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
    return Reshape.apply(x, shape=x.shape[:start] + (-1,) + x.shape[end + 1:])


@exposed("concatenate", method=False)
def concatenate(tensors, axis=0):
    return Concatenate.apply(*tensors, axis=axis)


@exposed("stack", method=False)
def stack(tensors, axis=0):
    return Stack.apply(*tensors, axis=axis)
