"""Shape ops: reshape, transpose, broadcast_to, indexing, concatenate, stack.

Their derivatives move gradients around without changing them: the inverse reshape, the inverse
permutation, a scatter back to the indexed places, a split.
"""

import numpy as np

from ..function import Function
from . import array_or_tensor


class Reshape(Function):
    __slots__ = ("shape",)
    backward_runs_on_arrays = True

    def forward(self, a, shape):
        self.shape = a.shape
        try:
            return a.reshape(shape)
        except ValueError:
            raise ValueError(
                f"cannot reshape a tensor of shape {a.shape} ({a.size} elements) into {shape}: "
                "the new shape must have the same number of elements"
            ) from None

    def backward(self, grad):
        return grad.reshape(self.shape)


class Transpose(Function):
    """Permute axes; no axes reverses them all (NumPy's rule)."""

    __slots__ = ("axes",)
    backward_runs_on_arrays = True

    def forward(self, a, axes):
        self.axes = tuple(range(a.ndim))[::-1] if axes is None else axes
        return a.transpose(self.axes)

    def backward(self, grad):
        return grad.transpose(tuple(np.argsort(self.axes)))

    def hint(self, inputs, axes):
        ndim = inputs[0].ndim
        return (f"axes must list each of 0..{ndim - 1} exactly once, e.g. "
                f"{list(reversed(range(ndim)))}")


class BroadcastTo(Function):
    """Repeat a along new or size-1 axes; the engine sums the gradient back to a's shape."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, shape):
        return np.broadcast_to(a, shape)

    def backward(self, grad):
        return grad

    def hint(self, inputs, shape):
        return (f"the target shape is {tuple(shape)}: {_called(inputs[0])}'s sizes must each "
                "equal the target's last sizes or be 1")


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


class IndexAdd(Function):
    """Scatter-add into zeros: the derivative of indexing, and itself differentiable by indexing."""

    __slots__ = ("key",)
    backward_runs_on_arrays = True

    def forward(self, grad, key, shape):
        self.key = key
        return array_or_tensor._index_add_array(grad, key, shape)

    def backward(self, grad):
        return grad[self.key]


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


def _shape_arg(shape):
    """Accept a shape as reshape(2, 3) or reshape((2, 3))."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def reshape(x, *shape):
    return Reshape.apply(x, shape=_shape_arg(shape))


def transpose(x, axes=None):
    """Reverse the axes (no ``axes``), or permute them to ``axes``."""
    return Transpose.apply(x, axes=None if axes is None else tuple(axes))


def permute(x, *axes):
    return Transpose.apply(x, axes=_shape_arg(axes))


def swapaxes(x, axis1, axis2):
    axes = list(range(x.ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return Transpose.apply(x, axes=tuple(axes))


def broadcast_to(x, shape):
    return BroadcastTo.apply(x, shape=tuple(shape))


def squeeze(x, axis=None):
    """Drop size-1 axes (all of them, or the ones named)."""
    try:
        shape = np.squeeze(_placeholder(x.shape), axis=axis).shape
    except ValueError:
        raise ValueError(f"squeeze can only remove an axis of size 1, and {_called(x)} has shape "
                         f"{x.shape}; leave out axis to drop every size-1 axis") from None
    return Reshape.apply(x, shape=shape)


def _called(tensor):
    """How a message refers to a tensor: its name, if it has one."""
    return tensor.name or "the tensor"


def unsqueeze(x, axis):
    """Insert a size-1 axis at ``axis`` (PyTorch's name; ``expand_dims`` is NumPy's)."""
    return Reshape.apply(x, shape=np.expand_dims(_placeholder(x.shape), axis).shape)


def _placeholder(shape):
    """An array of ``shape`` that takes no memory, to let NumPy work out (and check) a new shape."""
    return np.broadcast_to(np.empty((), dtype=bool), shape)


expand_dims = unsqueeze


def flatten(x):
    return Reshape.apply(x, shape=(-1,))


def concatenate(tensors, axis=0):
    return Concatenate.apply(*tensors, axis=axis)


def stack(tensors, axis=0):
    return Stack.apply(*tensors, axis=axis)


def index(x, key):
    return Index.apply(x, key=key)
