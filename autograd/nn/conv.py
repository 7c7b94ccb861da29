"""Convolution, transposed convolution and pooling layers over the engine's conv ops, with
PyTorch's arguments, defaults and initialisation."""

import numpy as np

from ..ops import adaptive_avg_pool2d, avg_pool2d, conv1d, conv2d, max_pool2d, pad, stack
from ..ops.conv_transpose import conv_transpose1d, conv_transpose2d
from . import init
from .module import Module

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _tuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """Shared by Conv1d and Conv2d: weight (out, in / groups, *kernel) and bias (out,) start
    uniform in ±1/√fan_in (fan_in = in / groups · kernel elements), as in PyTorch."""

    n = 0
    op = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=np.float64):
        super().__init__()
        name = type(self).__name__
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must both be divisible by groups ({groups})")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"{name}: padding_mode must be one of {_PADDING_MODES}, got "
                             f"{padding_mode!r}")
        if isinstance(padding, str) and padding not in ("same", "valid"):
            raise ValueError(f"{name}: padding must be 'same', 'valid' or numbers, got "
                             f"{padding!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _tuple(kernel_size, self.n)
        self.stride, self.dilation = _tuple(stride, self.n), _tuple(dilation, self.n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, self.n)
        self.groups, self.padding_mode = groups, padding_mode
        shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = init.parameter(shape, dtype, "weight")
        self.bias = init.parameter((out_channels,), dtype, "bias") if bias else None
        init.default_weight_and_bias(self.weight, self.bias)

    def _pads(self):
        """The (before, after) padding per spatial axis, last axis first, for ``pad``."""
        if self.padding == "valid":
            return (0, 0) * self.n
        if self.padding == "same":
            pairs = []
            for k, d in zip(reversed(self.kernel_size), reversed(self.dilation)):
                total = d * (k - 1)
                pairs += [total // 2, total - total // 2]
            return tuple(pairs)
        return tuple(p for p in reversed(self.padding) for _ in range(2))

    def forward(self, x):
        if self.padding_mode != "zeros":
            x = pad(x, self._pads(), mode=self.padding_mode)
            return self.op(x, self.weight, self.bias, self.stride, 0, self.dilation,
                           self.groups)
        return self.op(x, self.weight, self.bias, self.stride, self.padding, self.dilation,
                       self.groups)

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * self.n:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * self.n:
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    """1-D convolution of (N, C_in, L) (or unbatched (C_in, L)) into (N, C_out, L_out)."""

    n = 1
    op = staticmethod(conv1d)


class Conv2d(_ConvNd):
    """2-D convolution of (N, C_in, H, W) (or unbatched) into (N, C_out, H_out, W_out)."""

    n = 2
    op = staticmethod(conv2d)


class _ConvTransposeNd(Module):
    """Shared by ConvTranspose1d and ConvTranspose2d: weight (in, out / groups, *kernel), drawn
    as PyTorch draws it (uniform in ±1/√fan_in, fan_in = out / groups · kernel elements)."""

    n = 0
    op = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=np.float64):
        super().__init__()
        name = type(self).__name__
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must both be divisible by groups ({groups})")
        if padding_mode != "zeros":
            raise ValueError(f"{name}: only padding_mode='zeros' is supported, as in PyTorch")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _tuple(kernel_size, self.n)
        self.stride, self.padding = _tuple(stride, self.n), _tuple(padding, self.n)
        self.output_padding = _tuple(output_padding, self.n)
        self.dilation, self.groups, self.padding_mode = _tuple(dilation, self.n), groups, "zeros"
        shape = (in_channels, out_channels // groups) + self.kernel_size
        self.weight = init.parameter(shape, dtype, "weight")
        self.bias = init.parameter((out_channels,), dtype, "bias") if bias else None
        init.default_weight_and_bias(self.weight, self.bias)

    def forward(self, x, output_size=None):
        extra = self.output_padding
        if output_size is not None:
            extra = self._padding_for(x, output_size)
        return self.op(x, self.weight, self.bias, self.stride, self.padding, extra,
                       self.groups, self.dilation)

    def _padding_for(self, x, output_size):
        """The output_padding that makes the output ``output_size`` (PyTorch's argument)."""
        wanted = tuple(output_size)[-self.n:]
        smallest = tuple((size - 1) * s - 2 * p + d * (k - 1) + 1 for size, s, p, d, k in zip(
            x.shape[-self.n:], self.stride, self.padding, self.dilation, self.kernel_size))
        extra = tuple(w - m for w, m in zip(wanted, smallest))
        if any(not 0 <= e < s for e, s in zip(extra, self.stride)):
            raise ValueError(f"{type(self).__name__}: output_size {wanted} is not reachable "
                             f"from input {tuple(x.shape)}: sizes from {smallest} to "
                             f"{tuple(m + s - 1 for m, s in zip(smallest, self.stride))} are")
        return extra

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        for name, default in (("padding", 0), ("output_padding", 0), ("dilation", 1)):
            if getattr(self, name) != (default,) * self.n:
                text += f", {name}={getattr(self, name)}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        return text + (", bias=False" if self.bias is None else "")


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed 1-D convolution: (N, C_in, L) into (N, C_out, L_out), L_out growing with
    the stride (the inverse of a strided Conv1d's shape)."""

    n = 1
    op = staticmethod(conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed 2-D convolution: (N, C_in, H, W) into (N, C_out, H_out, W_out); stride 2
    doubles the size a stride-2 Conv2d halved."""

    n = 2
    op = staticmethod(conv_transpose2d)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """``F.max_pool1d``: max_pool2d over (N, C, 1, L), so the same rules and gradient."""
    out = max_pool2d(input.unsqueeze(-2), (1, *_tuple(kernel_size, 1)),
                     None if stride is None else (1, *_tuple(stride, 1)),
                     (0, *_tuple(padding, 1)), (1, *_tuple(dilation, 1)), ceil_mode,
                     return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """``F.avg_pool1d``: avg_pool2d over (N, C, 1, L)."""
    return avg_pool2d(input.unsqueeze(-2), (1, *_tuple(kernel_size, 1)),
                      None if stride is None else (1, *_tuple(stride, 1)),
                      (0, *_tuple(padding, 1)), ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input, output_size):
    """``F.adaptive_avg_pool1d``: adaptive_avg_pool2d over (N, C, 1, L)."""
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, output_size)).squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest element of each of ``output_size`` near-equal windows of the last two axes
    (window i of an axis of n spans floor(i·n/out) to ceil((i+1)·n/out)), as PyTorch's
    ``F.adaptive_max_pool2d``; the gradient goes to that element."""
    if return_indices:
        raise NotImplementedError("adaptive_max_pool2d: return_indices is not supported; use "
                                  "max_pool2d(..., return_indices=True) with a fixed window")
    sizes = _tuple(output_size, 2)
    sizes = tuple(input.shape[-2 + i] if s is None else s for i, s in enumerate(sizes))

    def bounds(n, out):
        return [(i * n // out, -(-(i + 1) * n // out)) for i in range(out)]

    rows = []
    for top, bottom in bounds(input.shape[-2], sizes[0]):
        cells = [input[..., top:bottom, left:right].flatten(-2).max(-1)[0]
                 for left, right in bounds(input.shape[-1], sizes[1])]
        rows.append(stack(cells, -1))
    return stack(rows, -2)


class MaxPool2d(Module):
    """The maximum of each window (kernel_size, stride = kernel_size by default)."""

    op = staticmethod(max_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def forward(self, x):
        return self.op(x, self.kernel_size, self.stride, self.padding, self.dilation,
                       self.ceil_mode, self.return_indices)

    def extra_repr(self):
        stride = self.kernel_size if self.stride is None else self.stride
        return (f"kernel_size={self.kernel_size}, stride={stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """The mean of each window (kernel_size, stride = kernel_size by default)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def forward(self, x):
        return avg_pool2d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class MaxPool1d(MaxPool2d):
    """The maximum of each window of (N, C, L) (stride = kernel_size by default)."""

    op = staticmethod(max_pool1d)


class AvgPool1d(AvgPool2d):
    """The mean of each window of (N, C, L) (stride = kernel_size by default)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)

    def forward(self, x):
        return avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad)

    def extra_repr(self):
        stride = self.kernel_size if self.stride is None else self.stride
        return f"kernel_size={self.kernel_size}, stride={stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed ``output_size`` (e.g. 1: one number per channel)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, x):
        return adaptive_avg_pool2d(x, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"
