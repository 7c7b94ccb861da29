"""Reductions (sum, mean, max, min, logsumexp) and the softmax family."""

import numpy as np

from ..function import Function
from . import array_or_tensor
from .exposed import exposed


def _axes(axis, ndim):
    """Normalise axis (None, an int, or a tuple or list of ints) to a sorted tuple of
    non-negative axes. A 0-d tensor accepts axis 0 and -1, as in PyTorch."""
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if ndim == 0 and all(a in (0, -1) for a in axes):
        return ()
    try:
        return tuple(sorted(np.lib.array_utils.normalize_axis_tuple(axes, ndim)))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"axis {axis} is out of range for a tensor with {ndim} dimension(s)"
        ) from None


def _kept_shape(shape, axes):
    """The shape of the reduction with keepdims=True."""
    return tuple([1 if i in axes else n for i, n in enumerate(shape)])


class _Reduction(Function):
    """Shared bookkeeping: the input shape and the reduced axes, to expand the gradient back."""

    __slots__ = ("shape", "kept")

    def _setup(self, a, axis):
        axes = _axes(axis, a.ndim)
        self.shape = a.shape
        self.kept = _kept_shape(a.shape, axes)
        return axes

    def _reduce(self, tangent):
        """A tangent summed over the reduced axes (the engine reshapes it to the output's)."""
        axes = tuple(i for i, (k, n) in enumerate(zip(self.kept, self.shape)) if k != n)
        return tangent.sum(axis=axes, keepdims=True)

    def _expand(self, grad):
        """The gradient of the reduced output, broadcast back over the reduced axes."""
        return array_or_tensor.broadcast_to(grad.reshape(self.kept), self.shape)


@exposed("sum")
class Sum(_Reduction):
    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, axis=None, keepdims=False):
        axes = self._setup(a, axis)
        return a.sum(axis=axes, keepdims=keepdims)

    def backward(self, grad):
        return self._expand(grad)

    jvp = _Reduction._reduce


@exposed("mean")
class Mean(_Reduction):
    __slots__ = ("count",)
    backward_runs_on_arrays = True

    def forward(self, a, axis=None, keepdims=False):
        axes = self._setup(a, axis)
        self.count = int(np.prod([a.shape[i] for i in axes]))
        return a.mean(axis=axes, keepdims=keepdims)

    def backward(self, grad):
        return self._expand(grad / self.count)

    def jvp(self, tangent):
        return self._reduce(tangent) / self.count


class _Extreme(_Reduction):
    """max or min over axes. Tied elements share the gradient equally; where a slice holds NaN,
    the result is NaN and its NaN elements share the gradient (PyTorch's max() and min())."""

    __slots__ = ()
    backward_runs_on_arrays = True
    pick = None

    def forward(self, a, axis=None, keepdims=False):
        axes = self._setup(a, axis)
        if a.size == 0:
            raise ValueError(f"{self.name} of an empty tensor (shape {a.shape}) has no value")
        best = type(self).pick(a, axis=axes, keepdims=True)
        winners = (a == best) | (np.isnan(a) & np.isnan(best))
        self.save_for_backward(winners / winners.sum(axis=axes, keepdims=True, dtype=a.dtype))
        return best if keepdims else best.reshape([n for i, n in enumerate(a.shape)
                                                   if i not in axes])

    def backward(self, grad):
        (share,) = self.saved_tensors
        return self._expand(grad) * share

    def jvp(self, tangent):
        (share,) = self.saved_tensors
        return self._reduce(tangent * share)


@exposed("max")
class Max(_Extreme):
    __slots__ = ()
    pick = np.max


@exposed("min")
class Min(_Extreme):
    __slots__ = ()
    pick = np.min


@exposed("logsumexp")
class LogSumExp(_Reduction):
    """log(sum(exp(a))) over axes, shifted by the max so large inputs do not overflow."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, axis=-1, keepdims=False):
        axes = self._setup(a, axis)
        shift = np.max(a, axis=axes, keepdims=True)
        shift = np.where(np.isfinite(shift), shift, 0)
        out = np.log(np.exp(a - shift).sum(axis=axes, keepdims=True)) + shift
        out = out if keepdims else out.reshape([n for i, n in enumerate(a.shape) if i not in axes])
        self.save_for_backward(a, out)
        return out

    def backward(self, grad):
        a, out = self.saved_tensors
        return self._expand(grad) * array_or_tensor.exp(a - out.reshape(self.kept))

    def jvp(self, tangent):
        a, out = self.saved_tensors
        return self._reduce(tangent * np.exp(a - out.reshape(self.kept)))


@exposed("softmax")
class Softmax(Function):
    """exp(a) / sum(exp(a)) along one axis, shifted by the max for stability."""

    __slots__ = ("axis",)
    backward_runs_on_arrays = True

    def forward(self, a, axis=-1):
        self.axis = axis
        e = np.exp(a - a.max(axis=axis, keepdims=True))
        out = e / e.sum(axis=axis, keepdims=True)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return out * (grad - (grad * out).sum(axis=self.axis, keepdims=True))

    def jvp(self, tangent):
        (out,) = self.saved_tensors
        return out * (tangent - (tangent * out).sum(axis=self.axis, keepdims=True))


@exposed("log_softmax")
class LogSoftmax(Function):
    """a - logsumexp(a) along one axis."""

    __slots__ = ("axis",)
    backward_runs_on_arrays = True

    def forward(self, a, axis=-1):
        self.axis = axis
        shifted = a - a.max(axis=axis, keepdims=True)
        out = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad - array_or_tensor.exp(out) * grad.sum(axis=self.axis, keepdims=True)

    def jvp(self, tangent):
        (out,) = self.saved_tensors
        return tangent - (np.exp(out) * tangent).sum(axis=self.axis, keepdims=True)
