"""Test cases of the 1-D and adaptive pools, resizing and the per-channel norms:
max_pool1d, avg_pool1d, adaptive_avg_pool1d, adaptive_max_pool2d, interpolate, pixel_shuffle,
pixel_unshuffle, instance_norm and local_response_norm. The NumPy references loop over windows
and output pixels, the plainest reading of PyTorch's definitions."""

import math

import numpy as np

_RNG = np.random.default_rng(31)
SIGNAL = _RNG.standard_normal((2, 3, 7))
# Distinct values far apart, so that finite differences never change which element is largest.
DISTINCT = (_RNG.permutation(60).reshape(2, 2, 3, 5) - 30.0) / 8
IMAGE = _RNG.standard_normal((2, 8, 3, 2))


def _np_pool1d(x, kernel, stride, padding, reduce):
    padded = np.pad(x, ((0, 0), (0, 0), (padding, padding)), constant_values=np.nan)
    starts = range(0, padded.shape[-1] - kernel + 1, stride)
    return np.stack([reduce(padded[..., s:s + kernel]) for s in starts], axis=-1)


def _bounds(n, out):
    return [(i * n // out, -(-(i + 1) * n // out)) for i in range(out)]


def _np_adaptive_max(x, out):
    return np.array([[[[x[b, c, t:u, l:r].max() for l, r in _bounds(x.shape[3], out[1])]
                       for t, u in _bounds(x.shape[2], out[0])]
                      for c in range(x.shape[1])] for b in range(x.shape[0])])


def _np_linear(x, size):
    """Linear resizing of the last axis, pixel centres aligned (align_corners=False)."""
    n = x.shape[-1]
    out = np.empty(x.shape[:-1] + (size,))
    for j in range(size):
        source = max((j + 0.5) * n / size - 0.5, 0.0)
        low = min(math.floor(source), n - 1)
        high = min(low + 1, n - 1)
        out[..., j] = x[..., low] * (1 - (source - low)) + x[..., high] * (source - low)
    return out


def _np_shuffle(x, r):
    n, c, h, w = x.shape
    out = np.empty((n, c // (r * r), h * r, w * r))
    for k, i, j in np.ndindex(c, h, w):
        out[:, k // (r * r), i * r + (k % (r * r)) // r, j * r + k % r] = x[:, k, i, j]
    return out


def _np_lrn(x, size, alpha, beta, k):
    out = np.empty_like(x)
    channels = x.shape[1]
    for c in range(channels):
        window = range(c - size // 2, c + (size - 1) // 2 + 1)
        total = sum(x[:, d] ** 2 for d in window if 0 <= d < channels)
        out[:, c] = x[:, c] / (k + alpha * total / size) ** beta
    return out


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "max_pool1d": ((DISTINCT[:, :, 0],), {"kernel_size": 3, "stride": 2, "padding": 1},
                   lambda x: _np_pool1d(x, 3, 2, 1, lambda v: np.nanmax(v, axis=-1)), (0,)),
    "avg_pool1d": ((SIGNAL,), {"kernel_size": 3, "stride": 2},
                   lambda x: _np_pool1d(x, 3, 2, 0, lambda v: v.mean(axis=-1)), (0,)),
    "adaptive_avg_pool1d": (
        (SIGNAL,), {"output_size": 3},
        lambda x: np.stack([x[..., a:b].mean(-1) for a, b in _bounds(7, 3)], -1), (0,)),
    "adaptive_max_pool2d": ((DISTINCT,), {"output_size": (2, 3)},
                            lambda x: _np_adaptive_max(x, (2, 3)), (0,)),
    "interpolate": ((SIGNAL,), {"size": 5, "mode": "linear"}, lambda x: _np_linear(x, 5), (0,)),
    "pixel_shuffle": ((IMAGE,), {"upscale_factor": 2}, lambda x: _np_shuffle(x, 2), (0,)),
    "pixel_unshuffle": ((_np_shuffle(IMAGE, 2),), {"downscale_factor": 2}, lambda x: IMAGE,
                        (0,)),
    "instance_norm": ((IMAGE,), {"eps": 1e-3},
                      lambda x: (x - x.mean(axis=(2, 3), keepdims=True))
                      / np.sqrt(x.var(axis=(2, 3), keepdims=True) + 1e-3), (0,)),
    "local_response_norm": ((IMAGE,), {"size": 3, "alpha": 0.5, "beta": 0.75, "k": 2.0},
                            lambda x: _np_lrn(x, 3, 0.5, 0.75, 2.0), (0,)),
}

RESIZING = """\
s = randn(2, 3, 7, seed=1)
img = randn(2, 4, 4, 6, seed=2)
mp = max_pool1d(s, kernel_size=3, stride=2, padding=1)
md = max_pool1d(s, kernel_size=2, dilation=2, ceil_mode=True)
ap = avg_pool1d(s, kernel_size=3, stride=2, padding=1, count_include_pad=False)
aa = adaptive_avg_pool1d(s, output_size=3)
am = adaptive_max_pool2d(img, output_size=(3, 4))
ni = interpolate(img, size=(5, 9))
nl = interpolate(s, scale_factor=1.5, mode="linear", align_corners=True)
bi = interpolate(img, size=(3, 8), mode="bilinear")
bs = interpolate(img, scale_factor=2.0, mode="bilinear", align_corners=True)
ps = pixel_shuffle(img, upscale_factor=2)
pu = pixel_unshuffle(ps, downscale_factor=2)
pv = pixel_unshuffle(img, downscale_factor=2)
inn = instance_norm(img, eps=0.01)
lr = local_response_norm(img, size=3, alpha=0.5, beta=0.75, k=2.0)
l2 = local_response_norm(s, size=2)
L = sum(mp * mp) + sum(md * md) + sum(ap * ap) + sum(aa * aa) + sum(am * am) + sum(ni * ni) + sum(nl * nl) + sum(bi * bi) + sum(bs * bs) + sum(ps * ps) + sum(pu * img) + sum(pv * pv) + sum(inn * img) + sum(lr * lr) + sum(l2 * l2)
"""  # noqa: E501

PROGRAMS = {"resizing": RESIZING}
