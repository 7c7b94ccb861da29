"""Normalisation: layer_norm, batch_norm, group_norm and instance_norm (functions and
modules), written with the engine's ops (mean, var, rsqrt, ...), so every gradient can be read
node by node and second derivatives work. Running statistics are buffers, updated in place as
PyTorch updates them."""

import numpy as np

from ..grad_mode import no_grad
from ..ops import pad
from ..tensor import Tensor
from .module import Module


def _moments(x, axes):
    """The mean over ``axes``, x minus it, and the biased variance (the mean square of that)."""
    mean = x.mean(axis=axes, keepdims=True)
    centred = x - mean
    return mean, centred, (centred * centred).mean(axis=axes, keepdims=True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Each sample normalised over its last ``len(normalized_shape)`` axes to mean 0 and
    variance 1 (biased, plus ``eps``), then scaled by ``weight`` and shifted by ``bias``
    (both of ``normalized_shape``)."""
    shape = _shape_tuple(normalized_shape)
    if input.shape[input.ndim - len(shape):] != shape or len(shape) > input.ndim:
        raise ValueError(
            f"layer_norm: normalized_shape {shape} must match the last {len(shape)} axes of the "
            f"input, whose shape is {input.shape}; pass normalized_shape={input.shape[-1:]} to "
            "normalise over the last axis")
    for name, parameter in (("weight", weight), ("bias", bias)):
        if isinstance(parameter, Tensor) and parameter.dtype != input.dtype:
            raise TypeError(f"layer_norm: the {name} is {parameter.dtype} and the input "
                            f"{input.dtype}; PyTorch refuses mixed dtypes too. Cast one: "
                            f"{name}.to(input.dtype), or the model with .float() or .double()")
    _, centred, var = _moments(input, tuple(range(-len(shape), 0)))
    out = centred * (var + eps).rsqrt()
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``input`` divided by its ``p``-norm along ``dim``, at least ``eps`` (so a zero vector
    stays zero), as torch's F.normalize."""
    return input / input.norm(p, dim, keepdims=True).clamp(min=eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Each sample's channels (axis 1) split into ``num_groups`` groups, each normalised over
    its channels and spatial axes to mean 0 and variance 1 (biased, plus ``eps``), then scaled
    and shifted per channel. The gradient of a group's outputs sums to zero within the group."""
    if input.ndim < 2 or input.shape[1] % num_groups:
        raise ValueError(f"group_norm: expected an (N, C, ...) input whose C is divisible by "
                         f"num_groups={num_groups}, got shape {input.shape}")
    grouped = input.reshape(input.shape[0], num_groups, -1)
    _, centred, var = _moments(grouped, (2,))
    return _per_channel((centred * (var + eps).rsqrt()).reshape(input.shape), weight, bias)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Each sample's each channel normalised over its spatial axes alone (group_norm with one
    channel per group); with running statistics, as PyTorch's InstanceNorm keeps them."""
    if input.ndim < 3:
        raise ValueError(f"instance_norm: expected an (N, C, L) or (N, C, H, W) input, got "
                         f"shape {input.shape}")
    channels = input.shape[1]
    if not use_input_stats:
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    axes = tuple(range(2, input.ndim))
    mean, centred, var = _moments(input, axes)
    if running_mean is not None or running_var is not None:
        count = int(np.prod(input.shape[2:]))
        with no_grad():
            if running_mean is not None:
                running_mean.data[...] = ((1 - momentum) * running_mean.data + momentum
                                          * mean.data.reshape(input.shape[0], channels).mean(0))
            if running_var is not None:
                unbiased = var.data.reshape(input.shape[0], channels) * (count / max(count - 1, 1))
                running_var.data[...] = ((1 - momentum) * running_var.data
                                         + momentum * unbiased.mean(0))
    return _per_channel(centred * (var + eps).rsqrt(), weight, bias)


def _per_channel(out, weight, bias):
    """``out`` scaled by ``weight`` and shifted by ``bias``, one value per channel (axis 1)."""
    column = (1, out.shape[1]) + (1,) * (out.ndim - 2)
    if weight is not None:
        out = out * weight.reshape(column)
    if bias is not None:
        out = out + bias.reshape(column)
    return out


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Each element divided by (k + alpha · the mean square over ``size`` neighbouring channels,
    zero padded) ** beta (AlexNet's normalisation across channels)."""
    if input.ndim < 3:
        raise ValueError(f"local_response_norm: expected a 3-D or higher input (N, C, ...), got "
                         f"shape {input.shape}")
    channels = input.shape[1]
    squares = pad(input * input, (0, 0) * (input.ndim - 2) + (size // 2, (size - 1) // 2))
    window = sum(squares[:, i:i + channels] for i in range(1, size))
    mean = (squares[:, :channels] + window) / size if size > 1 else squares / size
    return input / (mean * alpha + k) ** beta


def _shape_tuple(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(shape)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Each channel (axis 1) normalised over the batch and any spatial axes. With ``training``
    the batch's own mean and biased variance are used, and the running statistics (when given)
    move towards the batch's mean and unbiased variance by ``momentum``; without, the running
    statistics are used."""
    if input.ndim < 2:
        raise ValueError(f"batch_norm: input must have shape (N, C, ...), got {input.shape}")
    channels = input.shape[1]
    axes = (0,) + tuple(range(2, input.ndim))
    column = (1, channels) + (1,) * (input.ndim - 2)
    if training:
        count = input.size // channels if channels else 0
        if count <= 1:
            raise ValueError(
                f"batch_norm: expected more than 1 value per channel when training, got input of "
                f"shape {input.shape}; use a batch of at least 2 samples, or call .eval() to use "
                "the running statistics")
        mean, centred, var = _moments(input, axes)
        with no_grad():
            if running_mean is not None:
                running_mean.data[...] = ((1 - momentum) * running_mean.data
                                          + momentum * mean.data.reshape(channels))
            if running_var is not None:
                unbiased = var.data.reshape(channels) * (count / (count - 1))
                running_var.data[...] = (1 - momentum) * running_var.data + momentum * unbiased
    else:
        if running_mean is None or running_var is None:
            raise ValueError("batch_norm: without training=True it needs running_mean and "
                             "running_var; pass them, or training=True to use the batch's own "
                             "statistics")
        mean = _data(running_mean).reshape(column).astype(input.dtype, copy=False)
        var = _data(running_var).reshape(column).astype(input.dtype, copy=False)
        centred = input - mean
    # The per-channel factors multiply first, so the full-size tensor sees one product and
    # one sum: centred * (weight / sqrt(var + eps)) + bias.
    scale = (var + eps).rsqrt() if training else 1 / np.sqrt(var + eps)
    if weight is not None:
        scale = scale * weight.reshape(column)
    out = centred * scale
    if bias is not None:
        out = out + bias.reshape(column)
    return out


def _data(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


class LayerNorm(Module):
    """Normalises each sample over its last axes (``normalized_shape``), then applies a learned
    elementwise scale (``weight``, ones) and shift (``bias``, zeros)."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=np.float64):
        super().__init__()
        self.normalized_shape = _shape_tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Tensor(np.ones(self.normalized_shape, dtype), requires_grad=True)
            if bias:
                self.bias = Tensor(np.zeros(self.normalized_shape, dtype), requires_grad=True)

    def forward(self, x):
        return layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class _BatchNorm(Module):
    """Batch normalisation over channel axis 1, with running statistics as buffers
    (``running_mean``, ``running_var``, ``num_batches_tracked``) and, when ``affine``, a learned
    scale and shift per channel. ``momentum=None`` keeps a cumulative average instead."""

    dims = ()  # the input ranks this layer accepts

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=np.float64, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = self.bias = None
        if affine:
            self.weight = Tensor(np.ones(num_features, dtype), requires_grad=True)
            if bias:
                self.bias = Tensor(np.zeros(num_features, dtype), requires_grad=True)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor(np.zeros(num_features, dtype)))
            self.register_buffer("running_var", Tensor(np.ones(num_features, dtype)))
            self.register_buffer("num_batches_tracked", Tensor(np.array(0, dtype=np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.data[...] = 0
            self.running_var.data[...] = 1
            self.num_batches_tracked.data[...] = 0

    def forward(self, x):
        if x.ndim not in self.dims or (x.ndim > 1 and x.shape[1] != self.num_features):
            ranks = " or ".join(f"{d}-D" for d in self.dims)
            raise ValueError(
                f"{type(self).__name__}({self.num_features}): expected {ranks} input with "
                f"{self.num_features} channels on axis 1, got shape {x.shape}")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.data += 1
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked.data)
        use_batch = self.training or self.running_mean is None
        tracked = not self.training or self.track_running_stats
        return batch_norm(x, self.running_mean if tracked else None,
                          self.running_var if tracked else None, self.weight, self.bias,
                          use_batch, factor, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs, per channel C."""

    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) images, per channel C."""

    dims = (4,)


class GroupNorm(Module):
    """Normalises each sample over groups of channels (``num_groups`` of them) and the spatial
    axes, then a learned scale and shift per channel (``affine``): independent of the batch."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=np.float64):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels ({num_channels}) must be divisible by "
                             f"num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = (num_groups, num_channels,
                                                                     eps, affine)
        self.weight = self.bias = None
        if affine:
            self.weight = Tensor(np.ones(num_channels, dtype), requires_grad=True)
            self.bias = Tensor(np.zeros(num_channels, dtype), requires_grad=True)

    def forward(self, x):
        return group_norm(x, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class _InstanceNorm(_BatchNorm):
    """Instance normalisation: each channel of each sample over its spatial axes; no affine and
    no running statistics by default, as in PyTorch."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, dtype=np.float64):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)

    def forward(self, x):
        if x.ndim not in self.dims or x.shape[-len(self.spatial) - 1] != self.num_features:
            raise ValueError(
                f"{type(self).__name__}({self.num_features}): expected input of shape "
                f"(N, {self.num_features}, {', '.join(self.spatial)}) or "
                f"({self.num_features}, {', '.join(self.spatial)}), got {x.shape}")
        batched = x.ndim == self.dims[-1]
        x = x if batched else x.unsqueeze(0)
        use_input_stats = self.training or not self.track_running_stats
        out = instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            use_input_stats, self.momentum, self.eps)
        return out if batched else out.squeeze(0)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L) inputs."""

    dims, spatial = (2, 3), ("L",)


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) images."""

    dims, spatial = (3, 4), ("H", "W")
