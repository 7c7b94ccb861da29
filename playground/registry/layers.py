"""Registry entries: normalisation and attention layers as functions (``torch.nn.functional``'s
names), composed of the engine's ops, so each of their steps has its own gradient node."""

import math

import numpy as np

from autograd.nn import functional as F

from .. import torch_code
from .entry import Attr, OpInfo
from .rules import MACS_PER_UNIT, OP_WORK

EPS = Attr("eps", "float", 1e-5)


def _batch_norm(x, eps=1e-5):
    """F.batch_norm in training mode, without running statistics, weight or bias."""
    return F.batch_norm(x, None, None, training=True, eps=eps)


def _attention_shape(shapes, attrs):
    query, key, value = shapes
    if len(query) < 2 or len(key) < 2 or len(value) < 2:
        raise ValueError("scaled_dot_product_attention needs operands of at least 2 axes")
    if query[-1] != key[-1] or key[-2] != value[-2]:
        raise ValueError("scaled_dot_product_attention: query, key and value do not fit")
    batch = np.broadcast_shapes(query[:-2], key[:-2], value[:-2])
    return tuple(batch) + (query[-2], value[-1])


def _attention_work(shapes, out, attrs):
    """The scores (..., L, S): a softmax over them and two products."""
    scores = math.prod(out[:-1]) * shapes[1][-2]
    return scores * 4 + scores * (shapes[0][-1] + out[-1]) // MACS_PER_UNIT


def _group_norm(x, num_groups, eps=1e-5):
    """F.group_norm without weight or bias."""
    return F.group_norm(x, num_groups, eps=eps)


def _group_norm_shape(shapes, attrs):
    (shape,) = shapes
    if len(shape) < 2 or shape[1] % attrs["num_groups"]:
        raise ValueError("group_norm: the channels (axis 1) must divide into num_groups")
    return shape


def _layer_norm_shape(shapes, attrs):
    shape = tuple(attrs["normalized_shape"])
    if len(shape) > len(shapes[0]) or tuple(shapes[0][len(shapes[0]) - len(shape):]) != shape:
        raise ValueError("layer_norm: normalized_shape must match the input's last axes")
    return shapes[0]


def _batch_norm_shape(shapes, attrs):
    (shape,) = shapes
    if len(shape) < 2:
        raise ValueError("batch_norm: input must have shape (N, C, ...)")
    count = 1
    for i, n in enumerate(shape):
        count *= 1 if i == 1 else n
    if count <= 1:
        raise ValueError("batch_norm: expected more than 1 value per channel when training")
    return shape


ENTRIES = (
    OpInfo(
        "layer_norm", arity=1,
        attrs=(Attr("normalized_shape", "shape", None, required=True, suggested=(2,)), EPS),
        description=(
            "Each sample normalised over its last axes (normalized_shape) to mean 0, variance 1."
        ),
        derivative=(
            r"\bar{x} = \frac{1}{\sigma}\bigl(\bar{y} - \operatorname{mean}(\bar{y}) - \hat{x}\, "
            r"\operatorname{mean}(\bar{y}\,\hat{x})\bigr)"
        ),
        apply=F.layer_norm, example="layer_norm(x, normalized_shape=(2,))",
        torch=torch_code.call("F.layer_norm", normalized_shape="normalized_shape", eps="eps"),
        shape=_layer_norm_shape,
        sentence=(
            "Shifting or scaling a sample's features leaves the output unchanged, so the gradient "
            "loses its mean and its part along the normalised x."
        ),
    ),
    OpInfo(
        "batch_norm", arity=1, attrs=(EPS,),
        description=(
            "Each channel (axis 1) normalised over the batch with the batch's own mean and "
            "variance."
        ),
        derivative=(
            r"\bar{x} = \frac{1}{\sigma}\bigl(\bar{y} - "
            r"\operatorname{mean}_{\text{batch}}(\bar{y}) "
            r"- \hat{x}\, \operatorname{mean}_{\text{batch}}(\bar{y}\,\hat{x})\bigr)"
        ),
        apply=_batch_norm, example="batch_norm(x)",
        torch=torch_code.code(lambda x, a, n: f"F.batch_norm({x[0]}, None, None, training=True, "
                                              f"eps={a['eps']!r})", "F"),
        shape=_batch_norm_shape,
        sentence=(
            "Every sample moves the batch's mean and variance, so each channel's input gradient "
            "sums to zero over the batch."
        ),
    ),
    OpInfo(
        "group_norm", arity=1,
        attrs=(Attr("num_groups", "size", None, required=True, suggested=2), EPS),
        description=(
            "Each sample's channels split into num_groups groups, each normalised to mean 0, "
            "variance 1."
        ),
        derivative=(
            r"\bar{x} = \frac{1}{\sigma}\bigl(\bar{y} - "
            r"\operatorname{mean}_{\text{group}}(\bar{y}) "
            r"- \hat{x}\, \operatorname{mean}_{\text{group}}(\bar{y}\,\hat{x})\bigr)"
        ),
        apply=_group_norm, example="group_norm(x, num_groups=2)",
        torch=torch_code.call("F.group_norm", num_groups="num_groups", eps="eps"),
        shape=_group_norm_shape,
        sentence=(
            "Shifting every input of a group by the same amount changes nothing, so each group's "
            "input gradient sums to zero; the batch plays no part."
        ),
    ),
    OpInfo(
        "scaled_dot_product_attention", arity=3,
        attrs=(Attr("is_causal", "bool", False), Attr("scale", "optional_float", None)),
        description=(
            "Attention: softmax(Q K^T / sqrt(d)) V, each query's mean of the values weighted by "
            "keys."
        ),
        derivative=r"\bar{V} = P^{\top} \bar{Y},\quad \bar{Q} = s\, \bar{S} K,\quad "
                   r"\bar{K} = s\, \bar{S}^{\top} Q",
        apply=F.scaled_dot_product_attention, example="scaled_dot_product_attention(a, b, c)",
        torch=torch_code.call("F.scaled_dot_product_attention", is_causal="is_causal",
                              scale="scale"),
        shape=_attention_shape, work=_attention_work,
        sentence=(
            "Each value gets the gradient weighted by its attention; queries and keys get the "
            "scores' gradient S-bar, through the softmax P."
        ),
        symbols=("Q", "K", "V"),
    ),
)

def _channels_shape(name):
    def rule(shapes, attrs):
        if len(shapes[0]) < 3:
            raise ValueError(f"{name}: an (N, C, ...) input of at least 3 axes")
        return shapes[0]
    return rule


def _lrn_work(shapes, out, attrs):
    """local_response_norm: a sum of ``size`` shifted copies of the squares."""
    size = attrs["size"]
    return (OP_WORK + math.prod(out)) * math.prod(size if isinstance(size, tuple) else (size,))


ENTRIES += (
    OpInfo(
        "instance_norm", arity=1, attrs=(EPS,),
        description=(
            "Each sample's each channel normalised over its positions to mean 0, variance 1."
        ),
        derivative=r"\bar{x} = \frac{1}{\sigma}\bigl(\bar{y} - \operatorname{mean}(\bar{y}) "
                   r"- \hat{x}\, \operatorname{mean}(\bar{y}\,\hat{x})\bigr)\ \text{per channel}",
        apply=lambda x, eps=1e-5: F.instance_norm(x, eps=eps), example="instance_norm(x)",
        torch=torch_code.call("F.instance_norm", eps="eps"), shape=_channels_shape("instance_norm"),
        sentence=(
            "Shifting a channel's positions by one amount changes nothing, so each channel's "
            "gradient sums to zero."
        ),
    ),
    OpInfo(
        "local_response_norm", arity=1,
        attrs=(Attr("size", "size", None, required=True, suggested=2),
               Attr("alpha", "float", 1e-4), Attr("beta", "float", 0.75),
               Attr("k", "float", 1.0)),
        description=(
            "Each element over (k + alpha · mean square of size neighbouring channels) ** beta."
        ),
        derivative=r"\bar{x}_c = \frac{\bar{y}_c}{d_c^{\beta}} - \frac{2 \alpha \beta\, x_c}{n}"
                   r"\textstyle\sum_{c' \ni c} \frac{\bar{y}_{c'}\, x_{c'}}{d_{c'}^{\beta + 1}}",
        apply=F.local_response_norm, example="local_response_norm(x, size=2)",
        torch=torch_code.call("F.local_response_norm", size="size", alpha="alpha", beta="beta",
                              k="k"),
        shape=_channels_shape("local_response_norm"), work=_lrn_work,
        sentence=(
            "Each element is damped by its neighbouring channels' energy, so its gradient is "
            "damped too and partly sent to those neighbours."
        ),
    ),
)
