"""Test cases of convolution and pooling (issue 19): conv1d, conv2d, conv_transpose1d,
conv_transpose2d, max_pool2d, avg_pool2d, adaptive_avg_pool2d, pad, unfold and fold. The NumPy references loop over output positions, the
plainest reading of PyTorch's definitions."""

import numpy as np

_RNG = np.random.default_rng(19)
IMAGE = _RNG.standard_normal((2, 2, 4, 5))
FILTERS = _RNG.standard_normal((4, 1, 3, 2))  # groups=2: one input channel per filter
BIAS = np.array([0.1, -0.2, 0.3, 0.05])
SIGNAL = _RNG.standard_normal((2, 3, 6))
KERNELS = _RNG.standard_normal((2, 3, 3))
# Distinct values far apart, so that finite differences never change which element is largest.
DISTINCT = (_RNG.permutation(40).reshape(2, 1, 4, 5) - 20.0) / 8


def _pairs(value, n):
    value = value if isinstance(value, tuple) else (value,) * n
    return tuple(value)


def _windows(shape, kernel, stride, dilation, pads):
    """(output position, input positions of its window) for every output position; input
    positions outside the unpadded input are None."""
    out = tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                for n, k, s, d, (lo, hi) in zip(shape, kernel, stride, dilation, pads))
    for position in np.ndindex(*out):
        cells = []
        for offset in np.ndindex(*kernel):
            cell = tuple(o * s + k * d - lo for o, k, s, d, (lo, _)
                         in zip(position, offset, stride, dilation, pads))
            inside = all(0 <= c < n for c, n in zip(cell, shape))
            cells.append(cell if inside else None)
        yield position, cells, out


def _np_conv(x, w, b, stride=1, padding=0, dilation=1, groups=1):
    n = w.ndim - 2
    pads = tuple((p, p) for p in _pairs(padding, n))
    kernel = w.shape[2:]
    per_group, out_per_group = x.shape[1] // groups, w.shape[0] // groups
    windows = list(_windows(x.shape[2:], kernel, _pairs(stride, n), _pairs(dilation, n), pads))
    out = np.zeros((x.shape[0], w.shape[0]) + windows[0][2])
    for position, cells, _ in windows:
        for o in range(w.shape[0]):
            g = o // out_per_group
            total = b[o]
            for cell, offset in zip(cells, np.ndindex(*kernel)):
                if cell is not None:
                    for c in range(per_group):
                        total = total + x[(slice(None), g * per_group + c) + cell] * w[
                            (o, c) + offset]
            out[(slice(None), o) + position] = total
    return out


def _np_conv_transpose(x, w, b, stride, padding, output_padding, groups):
    """Each input pixel times each filter tap, added at pixel · stride + tap - padding."""
    (sh, sw), (ph, pw), (oh, ow) = (_pairs(v, 2) for v in (stride, padding, output_padding))
    batch, channels, height, width = x.shape
    per_group, out_per_group = channels // groups, w.shape[1]
    kh, kw = w.shape[2:]
    out = np.zeros((batch, out_per_group * groups, (height - 1) * sh - 2 * ph + kh + oh,
                    (width - 1) * sw - 2 * pw + kw + ow))
    for c, i, j, o, a, e in np.ndindex(channels, height, width, out_per_group, kh, kw):
        row, col = i * sh + a - ph, j * sw + e - pw
        if 0 <= row < out.shape[2] and 0 <= col < out.shape[3]:
            out[:, (c // per_group) * out_per_group + o, row, col] += x[:, c, i, j] * w[c, o, a, e]
    return out + b[None, :, None, None]


def _np_pool(x, kernel, stride, padding, reduce):
    pads = ((padding, padding),) * 2
    windows = list(_windows(x.shape[2:], (kernel,) * 2, (stride,) * 2, (1, 1), pads))
    out = np.zeros(x.shape[:2] + windows[0][2])
    for position, cells, _ in windows:
        values = np.stack([x[(slice(None), slice(None)) + cell] for cell in cells
                           if cell is not None], axis=-1)
        out[(slice(None), slice(None)) + position] = reduce(values, len(cells))
    return out


def _np_adaptive(x, size):
    out = np.zeros(x.shape[:2] + size)
    for i, j in np.ndindex(*size):
        rows = slice(i * x.shape[2] // size[0], -(-(i + 1) * x.shape[2] // size[0]))
        cols = slice(j * x.shape[3] // size[1], -(-(j + 1) * x.shape[3] // size[1]))
        out[:, :, i, j] = x[:, :, rows, cols].mean(axis=(2, 3))
    return out


def _np_unfold(x, kernel, stride):
    windows = list(_windows(x.shape[2:], kernel, stride, (1, 1), ((0, 0), (0, 0))))
    columns = [np.stack([x[(slice(None), slice(None)) + cell] for cell in cells], axis=-1)
               .reshape(x.shape[0], -1) for _, cells, _ in windows]
    return np.stack(columns, axis=-1)


def _np_fold(columns, size, kernel, stride):
    out = np.zeros((columns.shape[0], columns.shape[1] // int(np.prod(kernel))) + size)
    windows = _windows(size, kernel, stride, (1, 1), ((0, 0), (0, 0)))
    for l, (_, cells, _) in enumerate(windows):
        block = columns[:, :, l].reshape(columns.shape[0], -1, len(cells))
        for k, cell in enumerate(cells):
            out[(slice(None), slice(None)) + cell] += block[:, :, k]
    return out


def _np_reflect(x):
    """pad=(1, 2, 2, 0), mode="reflect": (1, 2) on the last axis, (2, 0) on the one before."""
    return np.pad(x, ((0, 0), (0, 0), (2, 0), (1, 2)), mode="reflect")


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "conv2d": ((IMAGE, FILTERS, BIAS), {"stride": (2, 1), "padding": 1, "groups": 2},
               lambda x, w, b: _np_conv(x, w, b, stride=(2, 1), padding=1, groups=2), (0, 1, 2)),
    "conv1d": ((SIGNAL, KERNELS, BIAS[:2]), {"padding": 2, "dilation": 2},
               lambda x, w, b: _np_conv(x, w, b, padding=2, dilation=2), (0, 1, 2)),
    "conv_transpose2d": (
        (IMAGE, _RNG.standard_normal((2, 3, 3, 2)), BIAS[:3].repeat(2)[:6]),
        {"stride": 2, "padding": (1, 0), "output_padding": (1, 0), "groups": 2},
        lambda x, w, b: _np_conv_transpose(x, w, b, 2, (1, 0), (1, 0), 2), (0, 1, 2)),
    "conv_transpose1d": (
        (SIGNAL, _RNG.standard_normal((3, 2, 2)), BIAS[:2]),
        {"stride": 3, "padding": 1, "output_padding": 2},
        lambda x, w, b: _np_conv_transpose(x[:, :, None], w[:, :, None], b, (1, 3), (0, 1),
                                           (0, 2), 1)[:, :, 0], (0, 1, 2)),
    "max_pool2d": ((DISTINCT,), {"kernel_size": 3, "stride": 2, "padding": 1},
                   lambda x: _np_pool(x, 3, 2, 1, lambda v, k: v.max(axis=-1)), (0,)),
    "avg_pool2d": ((IMAGE,), {"kernel_size": 2, "stride": 1, "padding": 1},
                   lambda x: _np_pool(x, 2, 1, 1, lambda v, k: v.sum(axis=-1) / k), (0,)),
    "adaptive_avg_pool2d": ((IMAGE,), {"output_size": (3, 2)},
                            lambda x: _np_adaptive(x, (3, 2)), (0,)),
    "pad": ((IMAGE,), {"pad": (1, 2, 2, 0), "mode": "reflect"}, _np_reflect, (0,)),
    "unfold": ((IMAGE,), {"kernel_size": (2, 3), "stride": (1, 2)},
               lambda x: _np_unfold(x, (2, 3), (1, 2)), (0,)),
    "fold": ((_RNG.standard_normal((2, 8, 6)),), {"output_size": (3, 4), "kernel_size": 2},
             lambda c: _np_fold(c, (3, 4), (2, 2), (1, 1)), (0,)),
}

CONV = """\
img = randn(2, 2, 5, 5, seed=0)
W = randn(4, 1, 3, 2, seed=1)
b = [0.1, -0.2, 0.3, 0.0]
c = conv2d(img, W, b, padding=(1, 0), groups=2, stride=(2, 1))
d = conv2d(img, W, b, padding="same", dilation=2, groups=2)
seq = randn(2, 3, 7, seed=2)
K = randn(2, 3, 3, seed=3)
kb = [0.5, -0.5]
e = conv1d(seq, K, kb, stride=2, padding=1)
m = max_pool2d(c, kernel_size=2, stride=1, padding=1)
a = avg_pool2d(d, kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
g = adaptive_avg_pool2d(d, output_size=(2, 3))
p = pad(img, pad=(1, 2, 0, 1), mode="reflect")
q = pad(img, pad=(1, -1), value=0.5)
r = pad(d, pad=(2, 1, 1, 3), mode="replicate")
u = unfold(p, kernel_size=2, stride=2)
f = fold(u, output_size=(6, 8), kernel_size=2, stride=2)
T = randn(4, 3, 2, 2, seed=4)
tb = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
t = conv_transpose2d(c, T, tb, stride=2, padding=1, output_padding=1, groups=2)
T1 = randn(2, 4, 3, seed=5)
t1 = conv_transpose1d(e, T1, [0.1, 0.2, 0.3, 0.4], stride=2, dilation=2, output_padding=1)
t2 = conv_transpose1d(seq, randn(3, 1, 2, seed=6), [0.5, -0.5, 0.2], groups=3, padding=1)
L = sum(c * c) + sum(d * d) + sum(e * e) + sum(m * m) + sum(a * a) + sum(g * g) + sum(f * f) + sum(q * q) + sum(r * r) + sum(t * t) + sum(t1 * t1) + sum(t2 * t2)
"""  # noqa: E501

PROGRAMS = {"conv": CONV}
