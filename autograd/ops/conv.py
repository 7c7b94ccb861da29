"""Convolution and pooling with PyTorch's ``torch.nn.functional`` names and defaults: conv1d,
conv2d, unfold, fold, max_pool2d, avg_pool2d, adaptive_avg_pool2d and pad.

Every windowed op reads its input through ``sliding_window_view`` or one strided slice per kernel
offset, never a Python loop over pixels. A convolution is im2col (``unfold``: each output
position's window laid out as a column) and one matrix product. Derivatives are the transposed
operations: ``fold`` (col2im) adds columns back onto the image, one strided add per kernel
offset, and ``unfold`` is in turn the derivative of ``fold``. Backwards are written with
``unfold``, ``fold``, ``@``, reshapes and scatters, which run on arrays (the fast path) and on
Tensors (``create_graph``), so second derivatives come out of the same lines: a convolution is
bilinear in input and weight, max-pooling's derivative is a gather, average-pooling is linear.
"""

import math
from typing import NamedTuple

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..tensor import Tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed
from .linalg import torch_name


class Window(NamedTuple):
    """Where the windows of a windowed op lie on its input's trailing (spatial) axes: one entry
    per spatial axis; ``pads`` holds (before, after) pairs."""

    kernel: tuple
    stride: tuple
    dilation: tuple
    pads: tuple

    @property
    def size(self):
        """Elements in one window."""
        return math.prod(self.kernel)

    def spans(self):
        """How far one window reaches on each axis: dilation * (kernel - 1) + 1."""
        return tuple(d * (k - 1) + 1 for k, d in zip(self.kernel, self.dilation))

    def out_shape(self, spatial):
        """The number of window positions along each spatial axis."""
        return tuple((n + lo + hi - span) // s + 1 for n, (lo, hi), span, s
                     in zip(spatial, self.pads, self.spans(), self.stride))

    def offset_key(self, offset, out):
        """The strided slice of the padded input that kernel ``offset`` reads at every output
        position (leading axes whole)."""
        return (Ellipsis,) + tuple(slice(k * d, k * d + s * (o - 1) + 1, s) for k, d, s, o
                                   in zip(offset, self.dilation, self.stride, out))


def _run(cls, operand, **attrs):
    """``cls`` applied to ``operand``: recorded when it is a Tensor (a backward under
    create_graph), else just its forward on the array (the fast path)."""
    if isinstance(operand, Tensor):
        return cls.apply(operand, **attrs)
    return cls().forward(operand, **attrs)


def _padded(x, pads, value=0.0):
    """``x`` with its trailing axes padded by ``pads`` ((before, after) pairs) filled with
    ``value``."""
    if not any(lo or hi for lo, hi in pads):
        return x
    out = np.full(_padded_shape(x.shape, pads), value, dtype=x.dtype)
    lead = x.ndim - len(pads)
    out[(Ellipsis,) + tuple(slice(lo, lo + n) for n, (lo, _) in zip(x.shape[lead:], pads))] = x
    return out


def _cropped(x, pads):
    """The inverse of ``_padded``: the padding cut off again."""
    if not any(lo or hi for lo, hi in pads):
        return x
    return x[(Ellipsis,) + tuple(slice(lo, x.shape[x.ndim - len(pads) + i] - hi)
                                 for i, (lo, hi) in enumerate(pads))]


def _unfold_array(x, window, groups=None):
    """im2col: (N, C, *spatial) -> (N, C * window size, positions), PyTorch's F.unfold layout
    (channel major, then kernel offsets in row-major order). Given ``groups``, the rows come in
    that many blocks, each with a last row of ones, (N, groups, rows + 1, positions): a
    convolution's bias then rides in its matrix product, and its gradient in the weight's."""
    n = len(window.kernel)
    views = sliding_window_view(_padded(x, window.pads), window.spans(),
                                axis=tuple(range(x.ndim - n, x.ndim)))
    views = views[(Ellipsis,) + tuple(slice(None, None, s) for s in window.stride)
                  + tuple(slice(None, None, d) for d in window.dilation)]
    lead = x.ndim - n
    out = views.shape[lead:lead + n]
    order = tuple(range(lead)) + tuple(range(x.ndim, x.ndim + n)) + tuple(range(lead, x.ndim))
    columns = views.transpose(order)
    if groups is None:
        return columns.reshape(x.shape[:lead - 1] + (x.shape[lead - 1] * window.size,
                                                    math.prod(out)))
    batch, channels = x.shape[:lead - 1], x.shape[lead - 1]
    blocks = batch + (groups, channels // groups) + tuple(window.kernel) + out
    rows = channels // groups * window.size
    result = np.empty(batch + (groups, rows + 1, math.prod(out)), dtype=x.dtype)
    np.copyto(result[..., :rows, :].reshape(blocks, copy=False), columns.reshape(blocks))
    result[..., rows, :] = 1
    return result


def _fold_array(columns, spatial, window):
    """col2im, the transpose of ``_unfold_array``: (N, C * window size, positions) ->
    (N, C, *spatial), adding where windows overlap."""
    out = window.out_shape(spatial)
    lead = columns.shape[:-2]
    channels = columns.shape[-2] // window.size
    parts = columns.reshape(lead + (channels,) + tuple(window.kernel) + out)
    image = np.zeros(_padded_shape(lead + (channels,) + tuple(spatial), window.pads),
                     columns.dtype)
    offsets = (slice(None),) * (len(lead) + 1)
    for offset in np.ndindex(*window.kernel):
        image[window.offset_key(offset, out)] += parts[offsets + offset]
    return _cropped(image, window.pads)


# ---------------------------------------------------------------------------------------------
# unfold and fold: im2col and col2im, each the other's derivative.


class Unfold(Op):
    """Sliding windows as columns (PyTorch's F.unfold): (N, C, H, W) -> (N, C*kH*kW, L)."""

    __slots__ = ("window", "spatial")

    def forward(self, x, *, window):
        self.window, self.spatial = window, x.shape[-len(window.kernel):]
        return _unfold_array(x, window)

    def backward(self, grad):
        return _run(Fold, grad, spatial=self.spatial, window=self.window)

    def jvp(self, tangent):
        return _unfold_array(tangent, self.window)


class Fold(Op):
    """Columns added back onto an image (PyTorch's F.fold, col2im): (N, C*kH*kW, L) ->
    (N, C, *output_size), summing where windows overlap."""

    __slots__ = ("window", "spatial")

    def forward(self, columns, *, spatial, window):
        self.window, self.spatial = window, spatial
        return _fold_array(columns, spatial, window)

    def backward(self, grad):
        return _run(Unfold, grad, window=self.window)

    def jvp(self, tangent):
        return _fold_array(tangent, self.spatial, self.window)


@exposed("unfold", method=False)
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Extract sliding blocks as columns (im2col), PyTorch's ``F.unfold``: input (N, C, H, W) or
    (C, H, W) gives (N, C * kH * kW, L), L the number of window positions; column l holds the
    window at position l, channel by channel, each in row-major order."""
    attrs, _ = _plan_unfold(_shape_of(input), kernel_size, dilation, padding, stride)
    return Unfold.apply(input, **attrs)


def _plan_unfold(shape, kernel_size, dilation=1, padding=0, stride=1):
    _check_ndim("unfold", shape, 2, "input")
    window = _window("unfold", shape[-2:], kernel_size, stride, dilation, padding, 2)
    out = window.out_shape(shape[-2:])
    return {"window": window}, shape[:-3] + (shape[-3] * window.size, math.prod(out))


@exposed("fold", method=False)
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Add sliding blocks back onto an image (col2im), PyTorch's ``F.fold``, the transpose of
    ``unfold``: (N, C * kH * kW, L) gives (N, C, *output_size), summing overlapping windows."""
    attrs, _ = _plan_fold(_shape_of(input), output_size, kernel_size, dilation, padding, stride)
    return Fold.apply(input, **attrs)


def _plan_fold(shape, output_size, kernel_size, dilation=1, padding=0, stride=1):
    spatial = _ints("fold", "output_size", output_size, 2, minimum=1)
    window = _window("fold", spatial, kernel_size, stride, dilation, padding, 2)
    if len(shape) not in (2, 3) or shape[-2] % window.size or (
            shape[-1] != math.prod(window.out_shape(spatial))):
        raise ValueError(
            f"fold: input of shape {shape} must be (N, C * {window.size}, "
            f"{math.prod(window.out_shape(spatial))}) or unbatched (C * {window.size}, "
            f"{math.prod(window.out_shape(spatial))}): the kernel {window.kernel} has "
            f"{window.size} offsets and fits {window.out_shape(spatial)} positions into "
            f"output_size {spatial}; pass unfold's output with unfold's settings")
    return ({"spatial": spatial, "window": window},
            shape[:-2] + (shape[-2] // window.size,) + spatial)


def _unfold(x, window):
    return _run(Unfold, x, window=window)


def _fold(columns, spatial, window):
    return _run(Fold, columns, spatial=spatial, window=window)


# ---------------------------------------------------------------------------------------------
# Convolution: unfold, then one matrix product per group.


class Conv(Op):
    """Cross-correlation of x (N, C, *spatial) with weight (out, C / groups, *kernel), plus bias
    (out,), as PyTorch's conv1d and conv2d (unbatched input, without N, too)."""

    __slots__ = ("window", "groups", "batched")

    def forward(self, x, weight, bias=None, *, window, groups):
        _check_dtypes(f"conv{len(window.kernel)}d", x, weight, bias)
        self.window, self.groups = window, groups
        self.batched = x.ndim == weight.ndim
        images = x if self.batched else x[None]
        kernels = weight.reshape(groups, weight.shape[0] // groups, -1)
        if bias is None:
            columns = _unfold_array(images, window).reshape(
                images.shape[0], groups, kernels.shape[-1],
                math.prod(window.out_shape(images.shape[2:])))
        else:  # a row of ones under each group's columns, the bias beside its kernels
            columns = _unfold_array(images, window, groups)
            kernels = np.concatenate([kernels, bias.reshape(groups, -1, 1)], axis=-1)
        out = np.matmul(kernels, columns).reshape(
            (images.shape[0], weight.shape[0]) + window.out_shape(images.shape[2:]))
        self.save_for_backward(x, weight, columns)
        return out if self.batched else out[0]

    def backward(self, grad):
        x, weight, columns = self.saved_tensors
        needs = self.needs_input_grad
        window, groups = self.window, self.groups
        if not self.batched:
            grad, x = grad.reshape((1,) + grad.shape), x.reshape((1,) + x.shape)
        batch, out_channels = grad.shape[:2]
        # sizes spelled out rather than -1, which NumPy cannot infer for a batch of 0
        positions = math.prod(grad.shape[2:])
        per_group = grad.reshape(batch, groups, out_channels // groups, positions)
        grad_x = grad_weight = grad_bias = None
        if needs[0]:
            kernels = weight.reshape(groups, out_channels // groups, -1).swapaxes(-1, -2)
            grad_columns = (kernels @ per_group).reshape(
                batch, groups * kernels.shape[-2], positions)
            grad_x = _fold(grad_columns, x.shape[2:], window).reshape(self._x_shape(x))
        with_bias = len(needs) == 3 and needs[2]
        if needs[1] and not isinstance(grad, Tensor):
            # the weight's gradient, and the bias's from the row of ones when there is one
            products = (per_group @ columns.swapaxes(-1, -2)).sum(axis=0)
            rows = math.prod(weight.shape[1:])
            grad_weight = products[..., :rows].reshape(weight.shape)
            if with_bias:
                return grad_x, grad_weight, products[..., rows].reshape(-1)
        elif needs[1]:  # the saved columns are a constant: unfold x again, in the graph
            columns = _unfold(x, window)
            columns = columns.reshape(batch, groups, columns.shape[1] // groups,
                                      columns.shape[-1])
            grad_weight = (per_group @ columns.swapaxes(-1, -2)).sum(axis=0).reshape(weight.shape)
        if with_bias:
            grad_bias = grad.sum(axis=(0,) + tuple(range(2, grad.ndim)))
        return (grad_x, grad_weight, grad_bias)[:len(needs)]

    def _x_shape(self, x):
        return x.shape if self.batched else x.shape[1:]

    def jvp(self, tangent_x, tangent_weight, tangent_bias=None):
        x, weight, columns = self.saved_tensors
        images = tangent_x if self.batched else tangent_x[None]
        rows = math.prod(weight.shape[1:])
        out = (_by_groups(weight, _unfold_array(images, self.window), self.groups)
               + np.matmul(tangent_weight.reshape(self.groups, weight.shape[0] // self.groups,
                                                  -1), columns[..., :rows, :]))
        out = out.reshape((images.shape[0], weight.shape[0])
                          + self.window.out_shape(images.shape[2:]))
        if tangent_bias is not None:
            out += tangent_bias.reshape((-1,) + (1,) * len(self.window.kernel))
        return out if self.batched else out[0]


def _check_dtypes(name, x, weight, bias):
    """Refuse an input, weight and bias of different dtypes, as PyTorch does (NumPy would
    promote a float32 input and a float64 weight to float64 silently, and cast the bias)."""
    for what, other in (("weight", weight), ("bias", bias)):
        if other is not None and other.dtype != x.dtype:
            raise TypeError(
                f"{name}: Input type ({torch_name(x.dtype)}) and {what} type "
                f"({torch_name(other.dtype)}) should be the "
                f"same (input {x.dtype}, {what} {other.dtype}), as PyTorch says. Cast one to "
                f"the other's dtype, e.g. x.to({what}.dtype), or a layer with .double() (or "
                ".float())")


def _by_groups(weight, columns, groups):
    """Each group's kernels times its columns: (N, groups, out / groups, positions)."""
    batch, rows, positions = columns.shape
    kernels = weight.reshape(groups, weight.shape[0] // groups, -1)
    return np.matmul(kernels, columns.reshape(batch, groups, rows // groups, positions))


@exposed("conv1d", method=False)
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution (cross-correlation, as in PyTorch) of input (N, C, L) or (C, L) with
    weight (out_channels, C / groups, k), plus bias (out_channels,)."""
    return _conv(_plan_conv1d, input, weight, bias, stride, padding, dilation, groups)


@exposed("conv2d", method=False)
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (cross-correlation, as in PyTorch) of input (N, C, H, W) or (C, H, W) with
    weight (out_channels, C / groups, kH, kW), plus bias (out_channels,). ``padding`` may be
    ``"same"`` (output as large as the input; stride 1 only) or ``"valid"`` (no padding)."""
    return _conv(_plan_conv2d, input, weight, bias, stride, padding, dilation, groups)


def _conv(plan, x, weight, bias, stride, padding, dilation, groups):
    operands = (x, weight) if bias is None else (x, weight, bias)
    attrs, _ = plan(*[_shape_of(t) for t in operands], stride=stride, padding=padding,
                    dilation=dilation, groups=groups)
    return Conv.apply(*operands, **attrs)


def _plan_conv1d(x_shape, w_shape, b_shape=None, stride=1, padding=0, dilation=1, groups=1):
    return _plan_conv("conv1d", 1, x_shape, w_shape, b_shape, stride, padding, dilation, groups)


def _plan_conv2d(x_shape, w_shape, b_shape=None, stride=1, padding=0, dilation=1, groups=1):
    return _plan_conv("conv2d", 2, x_shape, w_shape, b_shape, stride, padding, dilation, groups)


def _plan_conv(name, n, x_shape, w_shape, b_shape, stride, padding, dilation, groups):
    """A convolution's operands and settings checked as PyTorch checks them."""
    sizes = ("L",) if n == 1 else ("H", "W")
    kernel_names = ", ".join(f"k{s}" if n > 1 else "k" for s in sizes)
    if len(w_shape) != n + 2:
        raise ValueError(
            f"{name}: the weight must be {n + 2}-D (out_channels, in_channels / groups, "
            f"{kernel_names}), got shape {w_shape}; a single filter needs its channel axis too, "
            f"e.g. weight.reshape(1, 1, {', '.join('3' * n)}) for one {'x'.join('3' * n)} "
            "filter on one channel")
    _check_ndim(name, x_shape, n, "input")
    if not isinstance(groups, (int, np.integer)) or isinstance(groups, bool) or groups < 1:
        raise ValueError(f"{name}: groups must be a whole number of at least 1, got {groups!r}")
    channels = x_shape[-n - 1]
    if w_shape[0] == 0:
        raise ValueError(
            f"{name}: Given groups={groups}, expected weight to be at least 1 at dimension 0, "
            f"but got weight of size {list(w_shape)} instead, as PyTorch says: a convolution "
            "needs at least one filter (out_channels >= 1)")
    if w_shape[0] % groups:
        raise ValueError(
            f"{name}: groups={groups} splits the weight's {w_shape[0]} output channels (weight "
            f"shape {w_shape}) into equal groups, but {w_shape[0]} is not divisible by {groups}; "
            "use a number of filters that is a multiple of groups")
    if channels != w_shape[1] * groups:
        raise ValueError(
            f"{name}: input of shape {x_shape} has {channels} channels (axis {-n - 1}), but the "
            f"weight of shape {w_shape} with groups={groups} expects {w_shape[1] * groups} "
            f"(weight is (out_channels, in_channels / groups, {kernel_names})); give the "
            f"weight {channels // groups if channels % groups == 0 else '?'} input channels, or "
            "check that the input is (N, C, " + ", ".join(sizes) + ") with channels first")
    if b_shape is not None and tuple(b_shape) != (w_shape[0],):
        raise ValueError(
            f"{name}: the bias must have shape ({w_shape[0]},), one value per output channel of "
            f"the weight of shape {w_shape}, got {tuple(b_shape)}; pass one value per filter, or "
            "no bias")
    spatial = x_shape[-n:]
    if isinstance(padding, str):
        padding = _string_padding(name, padding, w_shape[2:], stride, dilation, n)
    window = _window(name, spatial, w_shape[2:], stride, dilation, padding, n)
    out = x_shape[:-n - 1] + (w_shape[0],) + window.out_shape(spatial)
    return {"window": window, "groups": int(groups)}, out


def _string_padding(name, padding, kernel, stride, dilation, n):
    """PyTorch's padding="valid" (none) and "same" (odd totals put the extra element after)."""
    if padding == "valid":
        return 0
    if padding != "same":
        raise ValueError(f"{name}: padding must be a number, a tuple, 'same' or 'valid', got "
                         f"{padding!r}; e.g. padding=1 or padding='same'")
    if any(s != 1 for s in _ints(name, "stride", stride, n, minimum=1)):
        raise ValueError(f"{name}: padding='same' is not supported for strided convolutions "
                         f"(stride={stride!r}), as in PyTorch; use stride=1, or pad by hand")
    dilation = _ints(name, "dilation", dilation, n, minimum=1)
    totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
    return tuple((total // 2, total - total // 2) for total in totals)


# ---------------------------------------------------------------------------------------------
# Pooling.


class MaxPool(Op):
    """The largest element of each window; the gradient goes to that element (the first one,
    in row-major window order, when several tie; the last NaN when a window holds NaN: as in
    PyTorch). ``chosen`` keeps which kernel offset won at each output position."""

    __slots__ = ("window", "chosen", "shape")

    def forward(self, x, *, window):
        self.window, self.shape = window, x.shape
        n = len(window.kernel)
        fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        padded = _padded(x, window.pads, fill)
        out_shape = window.out_shape(x.shape[-n:])
        slices = [padded[window.offset_key(offset, out_shape)]
                  for offset in np.ndindex(*window.kernel)]
        best = slices[0].copy()
        chosen = np.zeros(best.shape, dtype=np.min_scalar_type(window.size - 1))
        if any(lo for lo, _ in window.pads):  # a window that starts in the padding
            np.copyto(chosen, _first_inside(window, out_shape), casting="unsafe")
        for k, values in enumerate(slices[1:], start=1):
            np.copyto(chosen, k, where=values > best, casting="unsafe")
            np.maximum(best, values, out=best)  # NaN wins, as in PyTorch
        if best.dtype.kind == "f" and np.isnan(best).any():
            for k, values in enumerate(slices):  # PyTorch's index: the window's last NaN
                np.copyto(chosen, k, where=np.isnan(values), casting="unsafe")
        self.chosen = chosen
        return best

    def backward(self, grad):
        if isinstance(grad, Tensor):
            return _scatter(grad, self.indices(), self.shape, len(self.window.kernel))
        window = self.window
        out_shape = grad.shape[grad.ndim - len(window.kernel):]
        padded = np.zeros(_padded_shape(self.shape, window.pads), dtype=grad.dtype)
        overlapping = any(s < d * (k - 1) + 1 for k, s, d in
                          zip(window.kernel, window.stride, window.dilation))
        for k, offset in enumerate(np.ndindex(*window.kernel)):
            won = self.chosen == k
            target = padded[window.offset_key(offset, out_shape)]
            if overlapping:
                target += np.where(won, grad, 0)
            else:  # each input element is in one window at most: no sums needed
                np.copyto(target, grad, where=won)
        return _cropped(padded, window.pads)

    def indices(self):
        """Flat indices into each input plane of the chosen elements (PyTorch's
        return_indices)."""
        return _input_indices(self.chosen, self.window, self.shape[-len(self.window.kernel):])

    def jvp(self, tangent):
        return _gather(tangent, self.indices(), len(self.window.kernel))


def _padded_shape(shape, pads):
    lead = len(shape) - len(pads)
    return shape[:lead] + tuple(n + lo + hi for n, (lo, hi) in zip(shape[lead:], pads))


def _first_inside(window, out_shape):
    """For each output position, the first kernel offset (row-major index) that falls inside
    the input rather than in the padding: PyTorch's choice when a window holds only -inf."""
    first = 0
    for i, (k, d, s, o, (lo, _)) in enumerate(zip(window.kernel, window.dilation, window.stride,
                                                   out_shape, window.pads)):
        starts = np.arange(o) * s - lo
        offset = np.maximum(0, -(starts // d))  # ceil(-start / d) where start < 0
        offset = np.minimum(offset, k - 1).reshape((-1,) + (1,) * (len(out_shape) - i - 1))
        first = first * k + offset
    return first


def _input_indices(chosen, window, spatial):
    """Kernel offsets chosen at each output position -> flat indices into each input plane
    (PyTorch's return_indices)."""
    offsets = [o.astype(np.intp) for o in np.unravel_index(chosen, window.kernel)]
    flat = 0
    n = len(spatial)
    for i, (k_i, d, s, (lo, _), size) in enumerate(zip(offsets, window.dilation, window.stride,
                                                       window.pads, spatial)):
        starts = (np.arange(chosen.shape[chosen.ndim - n + i]) * s - lo).reshape(
            (-1,) + (1,) * (n - i - 1))
        flat = flat * size + starts + k_i * d
    return flat


def _global(indices, shape, n):
    """Indices within each input plane -> indices into the flattened input."""
    plane = math.prod(shape[-n:])
    planes = math.prod(shape[:-n])
    rows = indices.reshape(planes, math.prod(indices.shape[indices.ndim - n:]))
    return (rows + (np.arange(planes) * plane)[:, None]).ravel()


def _scatter(grad, indices, shape, n):
    """The gradient of a gather: ``grad`` added into zeros of ``shape`` at the chosen
    elements."""
    where = _global(indices, shape, n)
    size = math.prod(shape)
    if isinstance(grad, Tensor):
        flat = array_or_tensor.index_add(grad.reshape(-1), (where,), (size,))
        return flat.reshape(shape)
    flat = np.bincount(where, weights=grad.ravel(), minlength=size)
    return flat.astype(grad.dtype, copy=False).reshape(shape)


def _gather(values, indices, n):
    where = _global(indices, values.shape, n)
    return values.reshape(-1)[where].reshape(indices.shape)


@exposed("max_pool2d", method=False)
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest element of each kH x kW window of input (N, C, H, W) or (C, H, W), as
    PyTorch's ``F.max_pool2d`` (stride defaults to kernel_size); with ``return_indices=True``
    also where each maximum sits in its input plane (flat index h * W + w)."""
    attrs, _ = _plan_max_pool2d(_shape_of(input), kernel_size, stride, padding, dilation,
                                ceil_mode)
    fn = MaxPool()
    out = fn(input, **attrs)
    if return_indices:
        return out, Tensor._make(fn.indices().astype(np.int64), False, None)
    return out


def _plan_max_pool2d(shape, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                     return_indices=False):
    window = _pool_window("max_pool2d", shape, kernel_size, stride, padding, dilation, ceil_mode)
    return {"window": window}, shape[:-2] + window.out_shape(shape[-2:])


class AvgPool(Op):
    """The mean of each window: its sum divided by the window's size (see avg_pool2d)."""

    __slots__ = ("window", "divisor", "spatial")

    def forward(self, x, *, window, padding, count_include_pad, divisor_override):
        n = len(window.kernel)
        self.window, self.spatial = window, x.shape[-n:]
        out_shape = window.out_shape(self.spatial)
        self.divisor = _divisors(window, padding, self.spatial, out_shape, count_include_pad,
                                 divisor_override).astype(x.dtype)
        return _window_sums(x, window, out_shape) / self.divisor

    def backward(self, grad):
        n = len(self.window.kernel)
        share = grad / self.divisor
        lead = grad.shape[:-n]
        positions = math.prod(grad.shape[-n:])  # spelled out: -1 fails for a batch of 0
        spread = share.reshape(lead + (1, positions))
        spread = array_or_tensor.broadcast_to(spread, lead + (self.window.size,
                                                              spread.shape[-1]))
        columns = spread.reshape(lead[:-1] + (lead[-1] * self.window.size, positions))
        return _fold(columns, self.spatial, self.window)

    def jvp(self, tangent):
        return _window_sums(tangent, self.window, self.divisor.shape) / self.divisor


def _window_sums(x, window, out_shape):
    """The sum of each window of ``x``, zero padding included: one strided add per offset."""
    padded = _padded(x, window.pads)
    total = np.zeros(x.shape[:x.ndim - len(out_shape)] + out_shape, dtype=x.dtype)
    for offset in np.ndindex(*window.kernel):
        total += padded[window.offset_key(offset, out_shape)]
    return total


def _divisors(window, padding, spatial, out_shape, count_include_pad, divisor_override):
    """What each window's sum is divided by, as PyTorch's avg_pool2d counts it: the window's
    size, cut at the padded border (a ceil_mode window may reach past it); without
    count_include_pad only the input elements it covers; or divisor_override."""
    if divisor_override is not None:
        return np.full(out_shape, float(divisor_override))
    divisor = np.ones(())
    for k, s, p, o, size in zip(window.kernel, window.stride, padding, out_shape, spatial):
        starts = np.arange(o) * s - p
        ends = np.minimum(starts + k, size + p)
        if not count_include_pad:
            starts, ends = np.maximum(starts, 0), np.minimum(ends, size)
        divisor = np.multiply.outer(divisor, ends - starts)
    return divisor.astype(np.float64)


@exposed("avg_pool2d", method=False)
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each kH x kW window of input (N, C, H, W) or (C, H, W), as PyTorch's
    ``F.avg_pool2d`` (stride defaults to kernel_size; zero padding counts towards the mean
    unless ``count_include_pad=False``)."""
    attrs, _ = _plan_avg_pool2d(_shape_of(input), kernel_size, stride, padding, ceil_mode,
                                count_include_pad, divisor_override)
    return AvgPool.apply(input, **attrs)


def _plan_avg_pool2d(shape, kernel_size, stride=None, padding=0, ceil_mode=False,
                     count_include_pad=True, divisor_override=None):
    window = _pool_window("avg_pool2d", shape, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None and (
            not isinstance(divisor_override, (int, np.integer)) or divisor_override < 1):
        raise ValueError(f"avg_pool2d: divisor_override must be a positive whole number, got "
                         f"{divisor_override!r}; leave it None to divide by the window's size")
    attrs = {"window": window, "padding": _ints("avg_pool2d", "padding", padding, 2, minimum=0),
             "count_include_pad": bool(count_include_pad), "divisor_override": divisor_override}
    return attrs, shape[:-2] + window.out_shape(shape[-2:])


def _pool_window(name, shape, kernel_size, stride, padding, dilation, ceil_mode):
    """A pooling window checked as PyTorch checks it; ceil_mode adds room after the input for a
    last, partial window that still starts inside the input or its padding."""
    _check_ndim(name, shape, 2, "input")
    kernel = _ints(name, "kernel_size", kernel_size, 2, minimum=1)
    stride = kernel if stride is None or stride == () else _ints(name, "stride", stride, 2,
                                                                minimum=1)
    padding = _ints(name, "padding", padding, 2, minimum=0)
    dilation = _ints(name, "dilation", dilation, 2, minimum=1)
    for p, k, d in zip(padding, kernel, dilation):
        if 2 * p > d * (k - 1) + 1:
            raise ValueError(
                f"{name}: padding {p} is more than half the window (kernel_size {k}, dilation "
                f"{d}); PyTorch allows at most half, so that every window overlaps the input: "
                "use a smaller padding or a larger kernel")
    pads = []
    spatial = shape[-2:]
    for size, k, s, p, d in zip(spatial, kernel, stride, padding, dilation):
        span = d * (k - 1) + 1
        reach = size + 2 * p - span
        out = (-(-reach // s) if ceil_mode else reach // s) + 1
        if ceil_mode and (out - 1) * s >= size + p:
            out -= 1  # the last window must start inside the input or the padding before it
        if out < 1:
            raise ValueError(
                f"{name}: input of shape {shape} is too small for kernel_size {kernel} with "
                f"padding {padding} and dilation {dilation}: no window fits; use a smaller "
                "kernel or more padding")
        pads.append((p, max(p, (out - 1) * s + span - size - p)))
    return Window(kernel, stride, dilation, tuple(pads))


class AdaptiveAvgPool(Op):
    """Means over windows that split each spatial axis into ``output_size`` near-equal parts
    (PyTorch's adaptive_avg_pool2d): out = P_h @ x @ P_w.T, each P an averaging matrix."""

    __slots__ = ("rows", "cols")

    def forward(self, x, *, output_size):
        self.rows = _averaging(x.shape[-2], output_size[0], x.dtype)
        self.cols = _averaging(x.shape[-1], output_size[1], x.dtype)
        return self.rows @ x @ self.cols.T

    def backward(self, grad):
        return self.rows.T @ grad @ self.cols

    def jvp(self, tangent):
        return self.rows @ tangent @ self.cols.T


def _averaging(size, out, dtype):
    """The (out, size) matrix whose row i averages input elements floor(i * size / out) up to
    ceil((i + 1) * size / out), PyTorch's adaptive windows."""
    starts = (np.arange(out) * size) // out
    ends = -((-(np.arange(1, out + 1) * size)) // out)
    positions = np.arange(size)
    inside = (positions >= starts[:, None]) & (positions < ends[:, None])
    return (inside / (ends - starts)[:, None]).astype(dtype)


@exposed("adaptive_avg_pool2d", method=False)
def adaptive_avg_pool2d(input, output_size):
    """Average-pool input (N, C, H, W) or (C, H, W) to exactly ``output_size`` (an int, a pair,
    None keeping that axis), as PyTorch's ``F.adaptive_avg_pool2d``: the windows split each
    axis into near-equal, possibly overlapping parts."""
    attrs, _ = _plan_adaptive_avg_pool2d(_shape_of(input), output_size)
    return AdaptiveAvgPool.apply(input, **attrs)


def _plan_adaptive_avg_pool2d(shape, output_size):
    _check_ndim("adaptive_avg_pool2d", shape, 2, "input")
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * 2
    if len(sizes) != 2:
        raise ValueError(f"adaptive_avg_pool2d: output_size must be an int or a pair, got "
                         f"{output_size!r}; e.g. output_size=1 or output_size=(2, 3)")
    sizes = tuple(shape[-2 + i] if s is None else s for i, s in enumerate(sizes))
    sizes = _ints("adaptive_avg_pool2d", "output_size", sizes, 2, minimum=0)
    return {"output_size": sizes}, shape[:-2] + sizes


# ---------------------------------------------------------------------------------------------
# pad


PAD_MODES = ("constant", "reflect", "replicate", "circular")


class Pad(Op):
    """PyTorch's F.pad: ``pad`` lists (before, after) amounts from the last axis backwards;
    negative amounts crop. Constant padding's derivative crops again (a pad by -pad); the other
    modes copy input elements, so their derivative adds each copy's gradient back (a scatter)."""

    __slots__ = ("pad", "mode", "shape", "sources")

    def forward(self, x, *, pad, mode, value):
        self.pad, self.mode, self.shape = pad, mode, x.shape
        pairs = [(pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]
        if mode == "constant":
            crop = [(max(-lo, 0), max(-hi, 0)) for lo, hi in pairs]
            cropped = _cropped(x, crop[::-1])
            return _padded(cropped, [(max(lo, 0), max(hi, 0)) for lo, hi in pairs][::-1],
                           0.0 if value is None else value)
        self.sources = []
        out = x
        for i, (lo, hi) in enumerate(pairs):
            axis = x.ndim - 1 - i
            source = _source_positions(x.shape[axis], lo, hi, mode)
            self.sources.append((axis, source))
            out = out[(slice(None),) * axis + (source,)]
        return out

    def backward(self, grad):
        if self.mode == "constant":
            return _run(Pad, grad, pad=tuple(-p for p in self.pad), mode="constant", value=None)
        shape = list(grad.shape)
        for axis, source in reversed(self.sources):
            shape[axis] = self.shape[axis]
            grad = array_or_tensor.index_add(grad, (slice(None),) * axis + (source,),
                                             tuple(shape))
        return grad

    def jvp(self, tangent):
        return Pad().forward(tangent, pad=self.pad, mode=self.mode, value=None)


def _source_positions(size, before, after, mode):
    """Which input element each output position along one axis copies. Negative amounts crop
    first, as in PyTorch; the padding then copies from what is left."""
    start = max(-before, 0)
    size = size - start - max(-after, 0)
    positions = np.arange(-max(before, 0), size + max(after, 0))
    if mode == "replicate":
        positions = np.clip(positions, 0, size - 1)
    elif mode == "circular":
        positions = positions % size
    else:
        positions = np.abs(positions)  # reflect: the edge element is not repeated
        positions = np.where(positions > size - 1, 2 * (size - 1) - positions, positions)
    return positions + start


@exposed("pad", method=False)
def pad(input, pad, mode="constant", value=None):
    """Pad the last axes (PyTorch's ``F.pad``): ``pad=(left, right)`` pads the last axis,
    ``(left, right, top, bottom)`` the last two, and so on, last axis first; negative amounts
    crop. ``mode`` is "constant" (``value``, default 0), "reflect", "replicate" or "circular"."""
    attrs, _ = _plan_pad(_shape_of(input), pad, mode, value)
    return Pad.apply(input, **attrs)


def _plan_pad(shape, pad, mode="constant", value=None):
    pad = tuple(pad) if isinstance(pad, (tuple, list)) else pad
    if not isinstance(pad, tuple) or not all(
            isinstance(p, (int, np.integer)) and not isinstance(p, bool) for p in pad):
        raise ValueError(f"pad: pad must be a tuple of whole numbers, got {pad!r}; e.g. "
                         "pad=(1, 1) pads the last axis by one on each side")
    if len(pad) % 2:
        raise ValueError(f"pad: pad={pad} has an odd length; it lists (before, after) pairs, "
                         "last axis first, e.g. (1, 1) or (1, 1, 2, 2)")
    if len(pad) // 2 > len(shape):
        raise ValueError(f"pad: pad={pad} pads {len(pad) // 2} axes, but the input of shape "
                         f"{shape} has only {len(shape)}; give at most {2 * len(shape)} amounts")
    if mode not in PAD_MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(map(repr, PAD_MODES))}, got "
                         f"{mode!r}; ({'circular' if mode == 'wrap' else 'replicate'} may be the "
                         "one you mean)")
    pairs = [(pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]
    if mode != "constant":
        if value is not None and value != 0:
            raise ValueError(f'pad: mode "{mode}" takes no value (only "constant" does); drop '
                             f"value={value!r}")
        padded_axes = len(pairs)
        if len(shape) not in (padded_axes + 1, padded_axes + 2):
            raise ValueError(
                f"pad: mode {mode!r} pads {padded_axes} axes of a "
                f"{padded_axes + 1}-D (unbatched) or {padded_axes + 2}-D (batched) input, as in "
                f"PyTorch, but the input has shape {shape}; reshape it (e.g. add a batch axis "
                "with unsqueeze(0)) or pad with mode='constant'")
        for i, (lo, hi) in enumerate(pairs):
            size = shape[len(shape) - 1 - i] + min(lo, 0) + min(hi, 0)
            limit = size if mode == "circular" else size - 1
            if mode != "replicate" and max(lo, hi) > limit:
                raise ValueError(
                    f"pad: mode {mode!r} can pad axis {len(shape) - 1 - i} (size {size}) by at "
                    f"most {limit} on each side, got ({lo}, {hi}); use mode='replicate' or "
                    "'constant', or pad in steps")
    for i, (lo, hi) in enumerate(pairs):
        if shape[len(shape) - 1 - i] + lo + hi < 0 or (
                mode != "constant" and shape[len(shape) - 1 - i] + min(lo, 0) + min(hi, 0) < 1):
            raise ValueError(f"pad: pad={pad} crops more than axis {len(shape) - 1 - i} holds "
                             f"(input shape {shape}); crop less")
    out = list(shape)
    for i, (lo, hi) in enumerate(pairs):
        out[len(shape) - 1 - i] += lo + hi
    return ({"pad": tuple(int(p) for p in pad), "mode": mode,
             "value": None if value is None else float(value)}, tuple(out))


_PLANS = {"conv1d": _plan_conv1d, "conv2d": _plan_conv2d, "unfold": _plan_unfold,
          "fold": _plan_fold, "max_pool2d": _plan_max_pool2d, "avg_pool2d": _plan_avg_pool2d,
          "adaptive_avg_pool2d": _plan_adaptive_avg_pool2d, "pad": _plan_pad}


def result_shape(name, *shapes, **settings):
    """The shape ``autograd.<name>`` returns for operands of these shapes and these settings
    (the op's own keywords), checked as the op checks them (ValueError where it would fail),
    without computing anything: for cost estimates. ``name`` is one of this module's ops."""
    return _PLANS[name](*[tuple(s) for s in shapes], **settings)[1]


# ---------------------------------------------------------------------------------------------
# Checking settings as PyTorch does.


def _shape_of(x):
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def _check_ndim(name, shape, n, what):
    if len(shape) not in (n + 1, n + 2):
        sizes = "L" if n == 1 else "H, W"
        raise ValueError(
            f"{name}: expected a {n + 1}-D (unbatched: C, {sizes}) or {n + 2}-D (batched: N, C, "
            f"{sizes}) {what}, got shape {shape}; add the missing axes with reshape or "
            f"unsqueeze, e.g. x.reshape(1, 1, {', '.join(['-1'] + ['1'] * (n - 1))}) for a "
            "single channel")


def _ints(name, what, value, n, minimum):
    """``value`` as n whole numbers (an int repeats; a 1-tuple too, as in PyTorch)."""
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if len(values) == 1:
        values = values * n
    if len(values) != n or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                   for v in values):
        raise ValueError(f"{name}: {what} must be a whole number or {n} of them, got {value!r}; "
                         f"e.g. {what}={minimum + 1} or {what}={(minimum + 1,) * n}")
    if any(v < minimum for v in values):
        least = "positive" if minimum == 1 else "at least 0"
        raise ValueError(f"{name}: {what} must be {least}, got {value!r}; e.g. "
                         f"{what}={minimum + 1}")
    return tuple(int(v) for v in values)


def _window(name, spatial, kernel_size, stride, dilation, padding, n):
    """The Window of a convolution, unfold or fold, checked: every window must fit."""
    kernel = _ints(name, "kernel_size", kernel_size, n, minimum=1)
    stride = _ints(name, "stride", stride, n, minimum=1)
    dilation = _ints(name, "dilation", dilation, n, minimum=1)
    if isinstance(padding, tuple) and padding and isinstance(padding[0], tuple):
        pads = padding  # (before, after) pairs, as padding="same" gives
        if len(pads) != n or any(len(pair) != 2 or not all(
                isinstance(p, (int, np.integer)) and not isinstance(p, bool) and p >= 0
                for p in pair) for pair in pads):
            raise ValueError(f"{name}: padding must be whole numbers of at least 0 (negative "
                             f"padding is not supported, as in PyTorch), got {padding!r}; "
                             "crop the input with F.pad(x, (-1, -1)) or slicing instead")
    else:
        pads = tuple((p, p) for p in _ints(name, "padding", padding, n, minimum=0))
    window = Window(kernel, stride, dilation, pads)
    padded = tuple(size + lo + hi for size, (lo, hi) in zip(spatial, pads))
    if any(size < span for size, span in zip(padded, window.spans())):
        raise ValueError(
            f"{name}: the padded input is {' x '.join(map(str, padded))} per channel, smaller "
            f"than the kernel's reach {' x '.join(map(str, window.spans()))} (kernel "
            f"{kernel}, dilation {dilation}); use a smaller kernel or dilation, or more padding")
    return window
