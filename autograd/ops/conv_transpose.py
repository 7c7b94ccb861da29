"""Transposed convolution, PyTorch's ``F.conv_transpose1d`` and ``F.conv_transpose2d``: the
gradient of a convolution with respect to its input, run forwards. Each input pixel spreads its
channels through the kernel onto a window of the output, and overlapping windows add up: one
matrix product (kernels times pixels) then ``fold``, so its backward is ``unfold`` and another
product, and second derivatives work as they do for conv2d."""

import numpy as np

from ..tensor import Tensor
from .conv import _check_ndim, _ints, fold
from .exposed import exposed


@exposed("conv_transpose1d", method=False)
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """Transposed 1-D convolution of input (N, C_in, L) or (C_in, L) with weight
    (C_in, C_out / groups, k): output length (L - 1)·stride - 2·padding + dilation·(k - 1) +
    output_padding + 1."""
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)


@exposed("conv_transpose2d", method=False)
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """Transposed 2-D convolution of input (N, C_in, H, W) or (C_in, H, W) with weight
    (C_in, C_out / groups, kH, kW): a stride-2 one doubles the size a stride-2 conv2d halved."""
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)


def output_shape(name, x_shape, w_shape, b_shape=None, stride=1, padding=0, output_padding=0,
                 groups=1, dilation=1):
    """The output shape of conv_transpose1d/2d on operands of these shapes, checked as PyTorch
    checks them (ValueError with the fix), without computing anything."""
    return _plan(name, int(name[-2]), tuple(x_shape), tuple(w_shape), b_shape, stride, padding,
                 output_padding, groups, dilation)[-1]


def _plan(name, n, x_shape, w_shape, b_shape, stride, padding, output_padding, groups,
          dilation):
    """The settings as n-tuples and the output shape, or ValueError naming what is wrong."""
    _check_ndim(name, x_shape, n, "input")
    if len(w_shape) != n + 2:
        raise ValueError(f"{name}: the weight must be {n + 2}-D (in_channels, out_channels / "
                         f"groups, {'k' if n == 1 else 'kH, kW'}), got shape {w_shape}")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"{name}: groups must be a whole number of at least 1, got {groups!r}")
    channels = x_shape[-n - 1]
    if channels != w_shape[0] or channels % groups:
        raise ValueError(
            f"{name}: input of shape {x_shape} has {channels} channels (axis {-n - 1}), but "
            f"the weight of shape {w_shape} is (in_channels, out_channels / groups, ...) "
            f"with in_channels {w_shape[0]} (and groups={groups} must divide it); the "
            "weight's first axis is the input's channels, unlike conv's")
    stride, padding, dilation, extra = (
        _ints(name, what, value, n, minimum)
        for what, value, minimum in (("stride", stride, 1), ("padding", padding, 0),
                                     ("dilation", dilation, 1),
                                     ("output_padding", output_padding, 0)))
    if any(e >= s for e, s in zip(extra, stride)):
        raise ValueError(f"{name}: output_padding {extra} must be smaller than the stride "
                         f"{stride}: it only adds the rows a strided convolution dropped")
    out_channels = w_shape[1] * groups
    if b_shape is not None and tuple(b_shape) != (out_channels,):
        raise ValueError(f"{name}: the bias must have shape ({out_channels},), one value per "
                         f"output channel, got {tuple(b_shape)}")
    size = tuple((length - 1) * s - 2 * p + d * (k - 1) + e + 1 for length, s, p, d, k, e in
                 zip(x_shape[-n:], stride, padding, dilation, w_shape[2:], extra))
    if min(size) < 1:
        raise ValueError(f"{name}: the output would be {size}, smaller than 1; use less "
                         "padding")
    return stride, padding, dilation, extra, x_shape[:-n - 1] + (out_channels,) + size


def _conv_transpose(name, n, x, weight, bias, stride, padding, output_padding, groups,
                    dilation):
    x = x if isinstance(x, Tensor) else Tensor(np.asarray(x))
    stride, padding, dilation, extra, _ = _plan(
        name, n, x.shape, weight.shape, None if bias is None else bias.shape, stride, padding,
        output_padding, groups, dilation)
    channels, out_channels = x.shape[-n - 1], weight.shape[1] * groups
    batched = x.ndim == n + 2
    x = x if batched else x.unsqueeze(0)
    if n == 1:  # as 2-D with a height of 1
        x, weight = x.unsqueeze(2), weight.unsqueeze(2)
        stride, dilation = (1,) + stride, (1,) + dilation
        padding, extra = (0,) + padding, (0,) + extra
    kernel, spatial = weight.shape[2:], x.shape[2:]
    out_size = tuple((size - 1) * s - 2 * p + d * (k - 1) + e + 1 for size, s, p, d, k, e in
                     zip(spatial, stride, padding, dilation, kernel, extra))
    batch, per_group = x.shape[0], channels // groups
    kernels = weight.reshape(groups, per_group, -1).swapaxes(-1, -2)  # (g, C_out/g · k, C_in/g)
    pixels = x.reshape(batch, groups, per_group, -1)
    columns = (kernels @ pixels).reshape(batch, out_channels * int(np.prod(kernel)), -1)
    out = fold(columns, out_size, kernel, dilation, padding, stride)
    if bias is not None:
        out = out + bias.reshape(1, out_channels, 1, 1)
    if n == 1:
        out = out.squeeze(2)
    return out if batched else out.squeeze(0)
