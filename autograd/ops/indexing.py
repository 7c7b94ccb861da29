"""Ops that pick or place elements by an index tensor or a mask: gather, scatter_add, masked_fill,
and one_hot (a constant).

Index tensors and masks are never differentiated: they are attributes of the op, not operands.
"""

import numpy as np

from ..tensor import Tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed


class Gather(Op):
    """Elements of a picked along ``axis`` by ``index``, as torch.gather: for axis 1,
    out[i][j] = a[i][index[i][j]]. The output has the index's shape; the gradient goes back to
    the picked places, adding up where an index repeats."""

    __slots__ = ("key", "shape")

    def forward(self, a, *, axis, index):
        self.shape = a.shape
        if a.ndim == 0:  # PyTorch: a 0-d tensor is gathered by zeros, in an index of up to 1-D
            index = _index_array(index, "gather")
            self.key = index.shape
            if index.ndim > 1 or axis not in (0, -1) or index.any():
                raise IndexError(f"gather: a 0-d tensor takes axis 0 and an index of zeros of at "
                                 f"most one dimension, got axis {axis} and index {index.tolist()}")
            return np.broadcast_to(a, index.shape).copy()
        self.key = _places(a.shape, axis, index, "gather")
        return a[self.key]

    def backward(self, grad):
        if not self.shape:
            return grad.sum()
        return array_or_tensor.index_add(grad, self.key, self.shape)

    def jvp(self, tangent):
        return np.broadcast_to(tangent, self.key) if not self.shape else tangent[self.key]


@exposed("gather")
def gather(x, axis, index):
    """``x.gather(1, index)``: out[i][j] = x[i][index[i][j]] (for axis 1), as torch.gather. The
    index is a tensor of whole numbers with as many dimensions as x."""
    return Gather.apply(x, axis=axis, index=index)


class ScatterAdd(Op):
    """a with the elements of src added at the places ``index`` names along ``axis``, as
    torch.scatter_add: for axis 1, out[i][index[i][j]] += src[i][j] (repeats add up). Only the
    index-shaped corner of src is used. a's gradient is the upstream gradient; src's is gathered
    from the places each element went to."""

    __slots__ = ("key", "used", "src_shape")

    def forward(self, a, src, *, axis, index):
        index = _index_array(index, "scatter_add")
        if src.ndim != index.ndim or any(i > s for i, s in zip(index.shape, src.shape)):
            raise ValueError(
                f"scatter_add: the index of shape {index.shape} must have as many dimensions as "
                f"src (shape {src.shape}) and be no larger along any of them")
        self.key = _places(a.shape, axis, index, "scatter_add")
        self.used = tuple(slice(0, n) for n in index.shape)
        self.src_shape = src.shape
        out = a.copy()
        np.add.at(out, self.key, src[self.used])
        return out

    def backward(self, grad):
        need_a, need_src = self.needs_input_grad
        grad_src = None
        if need_src:
            grad_src = grad[self.key]
            if grad_src.shape != self.src_shape:  # the unused part of src gets 0
                grad_src = array_or_tensor.index_add(grad_src, self.used, self.src_shape)
        return (grad if need_a else None, grad_src)

    def jvp(self, tangent_a, tangent_src):
        out = np.array(tangent_a, copy=True)
        np.add.at(out, self.key, tangent_src[self.used])
        return out


@exposed("scatter_add")
def scatter_add(x, axis, index, src):
    """``x.scatter_add(1, index, src)``: x with out[i][index[i][j]] += src[i][j] (for axis 1),
    as torch.scatter_add. The index is a tensor of whole numbers."""
    same_dtype_as_self("scatter_add", x, src)
    return ScatterAdd.apply(x, src, axis=axis, index=index)


def same_dtype_as_self(name, x, src):
    """PyTorch's rule for scatter, scatter_add and index_add: a src tensor has x's dtype (NumPy
    would cast it into x silently, or promote)."""
    if isinstance(x, Tensor) and isinstance(src, Tensor) and src.dtype != x.dtype:
        raise RuntimeError(f"{name}: expected src to have the dtype of self, got {src.dtype} for "
                           f"{x.dtype}, as PyTorch refuses too; cast it with src.to({x.dtype})")


def _index_array(index, name):
    """An index tensor, list or array as an integer ndarray; TypeError for anything else."""
    array = np.asarray(index.data if isinstance(index, Tensor) else index)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name}: the index must hold integers, got dtype {array.dtype}; "
                        "convert it with index.long()")
    return array


def _places(shape, axis, index, name):
    """The NumPy key that picks, for every element of ``index``, the element of a tensor of
    ``shape`` it names along ``axis`` (its own position along every other axis)."""
    if not shape:
        raise ValueError(f"{name} needs a tensor with at least one dimension; reshape it "
                         "(x.reshape(1))")
    index = _index_array(index, name)
    ndim = len(shape)
    try:
        axis = int(np.lib.array_utils.normalize_axis_index(axis, ndim))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"{name}: axis {axis} is out of range for shape {shape}; axes run from {-ndim} to "
            f"{ndim - 1}") from None
    if index.ndim != ndim:
        raise ValueError(f"{name}: the index of shape {index.shape} must have as many dimensions "
                         f"as the tensor of shape {shape}")
    bigger = [d for d in range(ndim) if d != axis and index.shape[d] > shape[d]]
    if bigger:
        raise ValueError(
            f"{name}: the index of shape {index.shape} is larger than the tensor of shape "
            f"{shape} along axis {bigger[0]}; along every axis but {axis} it may be no larger")
    if index.size and (index.min() < 0 or index.max() >= shape[axis]):
        bad = index.min() if index.min() < 0 else index.max()
        raise IndexError(
            f"{name}: index {bad} is out of range for axis {axis} of size {shape[axis]} (shape "
            f"{shape}); indices run from 0 to {shape[axis] - 1} (negative ones are refused, as in "
            "PyTorch)")
    key = tuple(index if d == axis else
                np.arange(n).reshape((-1,) + (1,) * (ndim - d - 1))
                for d, n in enumerate(index.shape))
    return key


class MaskedFill(Op):
    """a with ``value`` wherever ``mask`` is True (the mask broadcasts against a), as
    torch.masked_fill; the filled places no longer depend on a, so their gradient is 0."""

    __slots__ = ("mask",)

    def forward(self, a, *, mask, value):
        self.mask = mask
        return np.where(mask, np.asarray(value, dtype=a.dtype), a)

    def backward(self, grad):
        return array_or_tensor.where(self.mask, 0.0, grad)

    def hint(self, inputs, mask, value):
        return (f"the mask of shape {np.shape(mask)} must broadcast against the tensor of shape "
                f"{inputs[0].shape}")

    def jvp(self, tangent):
        return np.where(self.mask, 0.0, tangent)


@exposed("masked_fill")
def masked_fill(x, mask, value):
    """x with ``value`` wherever the boolean ``mask`` is True, as torch.masked_fill: e.g.
    ``scores.masked_fill(mask == 0, float('-inf'))``. ``value`` is a number or a 0-d tensor
    (which then gets the gradient of the places it filled)."""
    mask_array = np.asarray(mask.data if isinstance(mask, Tensor) else mask)
    if mask_array.dtype != bool:
        raise TypeError(f"masked_fill takes a boolean mask, got dtype {mask_array.dtype}; make "
                        "one by comparing, e.g. mask == 0 or x > 0 (or mask.bool())")
    if isinstance(value, Tensor):  # its gradient (or tangent) is the sum over the filled places
        if value.ndim != 0:
            raise ValueError(f"masked_fill: the value must be a number or a 0-d tensor, got "
                             f"shape {value.shape}; use where(mask, values, x) to fill from a "
                             "tensor")
        from .elementwise import where

        dtype = np.asarray(getattr(x, "data", x)).dtype
        return where(mask_array, value if value.dtype == dtype else value.to(dtype), x)
    return MaskedFill.apply(x, mask=mask_array, value=value)


@exposed("one_hot", method=False)
def one_hot(tensor, num_classes=-1):
    """Class indices as rows of zeros with a 1 at each index, as
    torch.nn.functional.one_hot: int64, a constant (cast it with .double() to multiply)."""
    labels = _index_array(tensor, "one_hot")
    if labels.size and labels.min() < 0:
        raise ValueError(f"one_hot: class index {labels.min()} is negative; classes run from 0")
    if num_classes == -1:
        if not labels.size:
            raise ValueError("one_hot: cannot infer the number of classes from an empty tensor; "
                             "pass num_classes")
        num_classes = int(labels.max()) + 1
    if labels.size and labels.max() >= num_classes:
        raise ValueError(f"one_hot: class index {labels.max()} is not smaller than num_classes "
                         f"{num_classes}; raise num_classes or check the labels")
    out = (labels[..., None] == np.arange(num_classes)).astype(np.int64)
    return Tensor._make(out, False, None)
