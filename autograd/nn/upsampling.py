"""Resizing: PyTorch's ``F.interpolate`` and ``nn.Upsample`` (nearest, linear for 3-D input,
bilinear for 4-D, with ``align_corners``) and ``pixel_shuffle``. Written with indexing and
products, so the gradient of each output pixel flows back to the input pixels it was mixed
from, with its weights."""

import math

import numpy as np

from ..tensor import Tensor
from .module import Module

MODES = {"nearest": None, "linear": 1, "bilinear": 2}
"""Each mode and the number of spatial axes it needs (None: any)."""


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """``input`` (N, C, *spatial) resized to ``size``, or ``scale_factor`` times its size
    (rounded down), as PyTorch computes it: nearest takes the pixel at floor(out · in / out_size);
    (bi)linear mixes the two nearest pixels along each axis, their centres aligned
    (``align_corners=False``, the default) or their corners (``True``)."""
    x = input if isinstance(input, Tensor) else Tensor(np.asarray(input))
    if mode not in MODES:
        raise ValueError(f"interpolate: mode {mode!r} is not supported here; use one of "
                         f"{', '.join(MODES)}")
    n = x.ndim - 2
    if n < 1 or (MODES[mode] is not None and MODES[mode] != n):
        need = f"a {MODES[mode] + 2}-D" if MODES[mode] else "an (N, C, ...)"
        raise ValueError(f"interpolate: mode {mode!r} needs {need} input, got shape {x.shape}")
    if mode == "nearest" and align_corners is not None:
        raise ValueError("interpolate: align_corners only applies to the linear modes; leave it "
                         "out for mode='nearest'")
    if (size is None) == (scale_factor is None):
        raise ValueError("interpolate: give exactly one of size and scale_factor")
    spatial = x.shape[2:]
    if size is not None:
        out = _per_axis(size, n, "size")
        scales = [None] * n
    else:
        scales = _per_axis(scale_factor, n, "scale_factor")
        out = tuple(math.floor(s * f) for s, f in zip(spatial, scales))
    if any(o < 1 for o in out):
        raise ValueError(f"interpolate: the output size {out} must be at least 1 along each axis")
    for axis, (length, target, scale) in enumerate(zip(spatial, out, scales), start=2):
        if mode == "nearest":
            step = length / target if scale is None else 1.0 / scale
            picks = np.minimum(np.floor(np.arange(target) * step).astype(np.int64), length - 1)
            x = _take(x, axis, picks)
        else:
            x = _linear(x, axis, length, target, scale, bool(align_corners))
    return x


def _per_axis(value, n, what):
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if len(values) != n:
        raise ValueError(f"interpolate: {what} needs {n} values for {n} spatial axes, got "
                         f"{value!r}")
    return values


def _take(x, axis, picks):
    return x[(slice(None),) * axis + (picks,)]


def _linear(x, axis, length, target, scale, align_corners):
    """Linear interpolation along one axis: each output a weighted mean of two inputs."""
    where = np.arange(target, dtype=np.float64)
    if align_corners:
        source = where * ((length - 1) / (target - 1)) if target > 1 else np.zeros(target)
    else:
        step = length / target if scale is None else 1.0 / scale
        source = np.maximum((where + 0.5) * step - 0.5, 0.0)
    low = np.minimum(np.floor(source).astype(np.int64), length - 1)
    high = np.minimum(low + 1, length - 1)
    weight = (source - low).reshape((target,) + (1,) * (x.ndim - axis - 1)).astype(x.dtype)
    below, above = _take(x, axis, low), _take(x, axis, high)
    return below + (above - below) * weight


def _check_image(name, x):
    if x.ndim < 3:
        raise ValueError(f"{name} expects input to have at least 3 dimensions (C, H, W), but got "
                         f"input with {x.ndim} dimension(s), shape {x.shape}")


def pixel_shuffle(input, upscale_factor):
    """(N, C·r², H, W) to (N, C, H·r, W·r): each group of r² channels becomes an r x r block of
    pixels (sub-pixel convolution's upsampling)."""
    r = upscale_factor
    _check_image("pixel_shuffle", input)
    *lead, channels, height, width = input.shape
    if channels % (r * r):
        raise ValueError(f"pixel_shuffle expects its input's channel dimension to be divisible "
                         f"by the square of upscale_factor ({r * r}), but input.size(-3)="
                         f"{channels}")
    x = input.reshape(-1, channels // (r * r), r, r, height, width)
    x = x.permute(0, 1, 4, 2, 5, 3)
    return x.reshape(*lead, channels // (r * r), height * r, width * r)


def pixel_unshuffle(input, downscale_factor):
    """The inverse of pixel_shuffle: (N, C, H·r, W·r) to (N, C·r², H, W)."""
    r = downscale_factor
    _check_image("pixel_unshuffle", input)
    *lead, channels, height, width = input.shape
    if height % r or width % r:
        raise ValueError(f"pixel_unshuffle expects height and width ({height}, {width}) to be "
                         f"divisible by downscale_factor ({r})")
    x = input.reshape(-1, channels, height // r, r, width // r, r)
    x = x.permute(0, 1, 3, 5, 2, 4)
    return x.reshape(*lead, channels * r * r, height // r, width // r)


class Upsample(Module):
    """Resizes its input with ``interpolate`` (``size`` or ``scale_factor``, ``mode``)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor
        self.mode, self.align_corners = mode, align_corners

    def forward(self, x):
        return interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners)

    def extra_repr(self):
        what = (f"size={self.size}" if self.size is not None
                else f"scale_factor={float(self.scale_factor)}")
        return f"{what}, mode='{self.mode}'"
