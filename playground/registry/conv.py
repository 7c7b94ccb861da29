"""Registry entries: convolution and pooling (``torch.nn.functional``'s names and defaults)."""

import autograd as ag
from autograd.ops import conv_transpose
from autograd.ops.conv import result_shape

from .. import torch_code
from .entry import Attr, OpInfo

STRIDE, DILATION = Attr("stride", "size", 1), Attr("dilation", "size", 1)
PADDING = Attr("padding", "padding", 0)
KERNEL = Attr("kernel_size", "size", None, required=True, suggested=2)
POOL_STRIDE = Attr("stride", "size", None)
CEIL_MODE = Attr("ceil_mode", "bool", False)


def _call(name, attrs):
    """``F.<name>(operands, setting=value, ...)`` with every setting spelled out."""
    return torch_code.call(f"F.{name}", **{a.name: a.name for a in attrs})


def _conv(name, n, example, spatial):
    attrs = (STRIDE, PADDING, DILATION, Attr("groups", "size", 1))
    return OpInfo(
        name, 3, attrs,
        f"Convolution ({n}-D) of x (N, C, {spatial}) with filters W (out, C, k…), plus a bias b.",
        r"\bar{x} = \operatorname{fold}\bigl(W^{\top} \bar{y}\bigr),\quad "
        r"\bar{W} = \textstyle\sum_{n} \bar{y}\, \operatorname{unfold}(x)^{\top},\quad "
        r"\bar{b} = \textstyle\sum_{n,\,\text{positions}} \bar{y}",
        getattr(ag, name), example, _call(name, attrs),
        sentence=(
            "A filter's gradient sums the input patches it saw, weighted by the upstream "
            "gradient; each input element gets back every filter weight that touched it."
        ),
    )


def _shape_rule(name):
    return lambda shapes, attrs: result_shape(name, *shapes, **attrs)


_TRANSPOSE_ATTRS = (STRIDE, PADDING, Attr("output_padding", "padding", 0),
                    Attr("groups", "size", 1), DILATION)
_MAX_POOL_ATTRS = (KERNEL, POOL_STRIDE, PADDING, DILATION, CEIL_MODE)
_AVG_POOL_ATTRS = (KERNEL, POOL_STRIDE, PADDING, CEIL_MODE,
                   Attr("count_include_pad", "bool", True), Attr("divisor_override", "size", None))
_UNFOLD_ATTRS = (KERNEL, DILATION, PADDING, STRIDE)
_FOLD_ATTRS = (Attr("output_size", "size", None, required=True, suggested=(3, 3)), KERNEL,
               DILATION, PADDING, STRIDE)
_PAD_ATTRS = (Attr("pad", "pads", None, required=True, suggested=(1, 1)),
              Attr("mode", "pad_mode", "constant"), Attr("value", "optional_float", None))

ENTRIES = (
    _conv("conv1d", 1, "conv1d(x, W, b, stride=2)", "L"),
    _conv("conv2d", 2, "conv2d(x, W, b, padding=1)", "H, W"),
    OpInfo(
        "conv_transpose1d", 3, _TRANSPOSE_ATTRS,
        "Transposed convolution of x (N, C, L) by W (C, out, k), plus b: stride 2 doubles L.",
        r"\bar{x} = \operatorname{conv1d}(\bar{y}, W),\quad "
        r"\bar{W} = \textstyle\sum_{n} x\, \operatorname{unfold}(\bar{y})^{\top},\quad "
        r"\bar{b} = \textstyle\sum_{n,\,\text{positions}} \bar{y}",
        ag.conv_transpose1d, "conv_transpose1d(x, W, b, stride=2)",
        _call("conv_transpose1d", _TRANSPOSE_ATTRS),
        sentence=(
            "Each input element was spread over a stretch of the output, so it gets that "
            "stretch's gradient back through the filter: a convolution of the gradient."
        ),
    ),
    OpInfo(
        "conv_transpose2d", 3, _TRANSPOSE_ATTRS,
        "Transposed convolution of x (N, C, H, W) by W (C, out, kH, kW), plus b: stride 2 "
        "doubles H, W.",
        r"\bar{x} = \operatorname{conv2d}(\bar{y}, W),\quad "
        r"\bar{W} = \textstyle\sum_{n} x\, \operatorname{unfold}(\bar{y})^{\top},\quad "
        r"\bar{b} = \textstyle\sum_{n,\,\text{positions}} \bar{y}",
        ag.conv_transpose2d, "conv_transpose2d(x, W, b, stride=2)",
        _call("conv_transpose2d", _TRANSPOSE_ATTRS),
        sentence=(
            "Each input pixel was spread over a window of the output, so it gets back that "
            "window's gradient weighted by the filter: a plain convolution of the gradient."
        ),
    ),
    OpInfo(
        "max_pool2d", 1, _MAX_POOL_ATTRS,
        "The largest element of each kH x kW window of x (N, C, H, W); stride defaults to the "
        "kernel.",
        r"\bar{x}_i = \textstyle\sum_{\text{windows } j \ni i} \bar{y}_j\, "
        r"\mathbb{1}[x_i = \max \text{window}_j]",
        ag.max_pool2d, "max_pool2d(x, kernel_size=2)", _call("max_pool2d", _MAX_POOL_ATTRS),
        sentence=(
            "Only the largest element of each window affected the output, so it alone receives "
            "that window's gradient; the others get 0."
        ),
    ),
    OpInfo(
        "avg_pool2d", 1, _AVG_POOL_ATTRS,
        "The mean of each kH x kW window of x (N, C, H, W); stride defaults to the kernel.",
        r"\bar{x}_i = \textstyle\sum_{\text{windows } j \ni i} \bar{y}_j \,/\, "
        r"|\text{window}_j|",
        ag.avg_pool2d, "avg_pool2d(x, kernel_size=2)", _call("avg_pool2d", _AVG_POOL_ATTRS),
        sentence=(
            "Each element counts 1/k in the mean of a window of k elements, so it receives every "
            "covering window's gradient divided by k."
        ),
    ),
    OpInfo(
        "adaptive_avg_pool2d", 1, (Attr("output_size", "size", None, required=True,
                                        suggested=1),),
        "Means over near-equal windows that give exactly output_size (H, W) per channel.",
        r"y = P_h\, x\, P_w^{\top},\quad \bar{x} = P_h^{\top}\, \bar{y}\, P_w",
        ag.adaptive_avg_pool2d, "adaptive_avg_pool2d(x, output_size=1)",
        torch_code.call("F.adaptive_avg_pool2d", output_size="output_size"),
        sentence=(
            "Each output is a mean over its window, so every element in that window receives the "
            "output's gradient divided by the window's size."
        ),
    ),
    OpInfo(
        "pad", 1, _PAD_ATTRS,
        "The last axes padded (pad lists amounts last axis first): constant, reflect, replicate.",
        r"\bar{x}_i = \textstyle\sum_{\text{outputs } j \text{ copied from } x_i} \bar{y}_j",
        ag.pad, 'pad(x, pad=(1, 1), mode="replicate")', _call("pad", _PAD_ATTRS),
        sentence=(
            "Padding copies elements: each input element gets the summed gradient of its copies, "
            "and the constant border passes none back."
        ),
    ),
    OpInfo(
        "unfold", 1, _UNFOLD_ATTRS,
        "Each kH x kW window of x (N, C, H, W) as a column: (N, C·kH·kW, windows), im2col.",
        r"\bar{x} = \operatorname{fold}(\bar{y})",
        ag.unfold, "unfold(x, kernel_size=2)", _call("unfold", _UNFOLD_ATTRS),
        sentence=(
            "unfold copies each element into every window that covers it, so fold adds those "
            "copies' gradients back onto the element."
        ),
    ),
    OpInfo(
        "fold", 1, _FOLD_ATTRS,
        "Columns (N, C·kH·kW, windows) added back onto an image of output_size, col2im.",
        r"\bar{x} = \operatorname{unfold}(\bar{y})",
        ag.fold, "fold(x, output_size=(3, 3), kernel_size=2)", _call("fold", _FOLD_ATTRS),
        sentence=(
            "fold adds each column entry onto one image element, so each entry gets back that "
            "element's gradient: unfold of the gradient."
        ),
    ),
)

SHAPE_RULES = {
    **{info.name: _shape_rule(info.name) for info in ENTRIES},
    **{name: lambda shapes, attrs, name=name: conv_transpose.output_shape(name, *shapes, **attrs)
       for name in ("conv_transpose1d", "conv_transpose2d")},
}
"""Output shapes of this module's ops, for playground.budget: the engine's own checks, without
computing anything."""
