"""Registry entries: convolution and pooling (``torch.nn.functional``'s names and defaults)."""

import math

import autograd as ag
from autograd.nn import functional as F
from autograd.nn.upsampling import MODES
from autograd.ops import conv_transpose
from autograd.ops.conv import result_shape

from .. import torch_code
from .entry import Attr, OpInfo
from .rules import MACS_PER_UNIT, OP_WORK

STRIDE, DILATION = Attr("stride", "size", 1), Attr("dilation", "size", 1)
PADDING = Attr("padding", "padding", 0)
KERNEL = Attr("kernel_size", "size", None, required=True, suggested=2)
POOL_STRIDE = Attr("stride", "size", None)
CEIL_MODE = Attr("ceil_mode", "bool", False)


def _call(name, attrs):
    """``F.<name>(operands, setting=value, ...)`` with every setting spelled out."""
    return torch_code.call(f"F.{name}", **{a.name: a.name for a in attrs})


def _shape_rule(name):
    """The engine's own check of ``name``'s operands and settings, computing nothing."""
    return lambda shapes, attrs: result_shape(name, *shapes, **attrs)


def _conv_work(shapes, out, attrs):
    """Each output element: a filter of C/groups x kernel multiply-adds."""
    return math.prod(out) * math.prod(shapes[1][1:]) // MACS_PER_UNIT


def _conv(name, *, n, example, spatial):
    """conv1d or conv2d: ``autograd.<name>(x, W, b, ...)`` with PyTorch's settings."""
    attrs = (STRIDE, PADDING, DILATION, Attr("groups", "size", 1))
    return OpInfo(
        name, arity=3, attrs=attrs,
        description=(f"Convolution ({n}-D) of x (N, C, {spatial}) with filters W (out, C, k…), "
                     "plus a bias b."),
        derivative=r"\bar{x} = \operatorname{fold}\bigl(W^{\top} \bar{y}\bigr),\quad "
                   r"\bar{W} = \textstyle\sum_{n} \bar{y}\, \operatorname{unfold}(x)^{\top},\quad "
                   r"\bar{b} = \textstyle\sum_{n,\,\text{positions}} \bar{y}",
        apply=getattr(ag, name), example=example, torch=_call(name, attrs),
        shape=_shape_rule(name), work=_conv_work,
        sentence=(
            "A filter's gradient sums the input patches it saw, weighted by the upstream "
            "gradient; each input element gets back every filter weight that touched it."
        ),
    )


def _conv_transpose_shape(name):
    """The engine's own check of a transposed convolution, computing nothing."""
    return lambda shapes, attrs: conv_transpose.output_shape(name, *shapes, **attrs)


def _conv_transpose_work(shapes, out, attrs):
    """Each input element: a filter of out/groups x kernel multiply-adds."""
    return math.prod(shapes[0]) * math.prod(shapes[1][1:]) // MACS_PER_UNIT


def _pool2d_work(shapes, out, attrs):
    """Every output element reads a whole kH x kW window."""
    kernel = attrs["kernel_size"]
    kernel = kernel if isinstance(kernel, tuple) else (kernel,)
    return math.prod(out) * math.prod(kernel * 2 if len(kernel) == 1 else kernel)


def _adaptive_avg_work(shapes, out, attrs):
    """Two products with (out, in) averaging matrices."""
    height, width = shapes[0][-2:]
    return math.prod(out[:-1]) * (height + out[-1]) * width // MACS_PER_UNIT


_TRANSPOSE_ATTRS = (STRIDE, PADDING, Attr("output_padding", "padding", 0),
                    Attr("groups", "size", 1), DILATION)
_MAX_DERIVATIVE = (r"\bar{x}_i = \textstyle\sum_{\text{windows } j \ni i} \bar{y}_j\, "
                   r"\mathbb{1}[x_i = \max \text{window}_j]")
"""A max pool's local derivative: each window's gradient goes to its largest element."""
_MAX_POOL_ATTRS = (KERNEL, POOL_STRIDE, PADDING, DILATION, CEIL_MODE)
_AVG_POOL_ATTRS = (KERNEL, POOL_STRIDE, PADDING, CEIL_MODE,
                   Attr("count_include_pad", "bool", True), Attr("divisor_override", "size", None))
_UNFOLD_ATTRS = (KERNEL, DILATION, PADDING, STRIDE)
_FOLD_ATTRS = (Attr("output_size", "size", None, required=True, suggested=(3, 3)), KERNEL,
               DILATION, PADDING, STRIDE)
_PAD_ATTRS = (Attr("pad", "pads", None, required=True, suggested=(1, 1)),
              Attr("mode", "pad_mode", "constant"), Attr("value", "optional_float", None))

ENTRIES = (
    _conv("conv1d", n=1, example="conv1d(x, W, b, stride=2)", spatial="L"),
    _conv("conv2d", n=2, example="conv2d(x, W, b, padding=1)", spatial="H, W"),
    OpInfo(
        "conv_transpose1d", arity=3, attrs=_TRANSPOSE_ATTRS,
        description=(
            "Transposed convolution of x (N, C, L) by W (C, out, k), plus b: stride 2 doubles L."
        ),
        derivative=r"\bar{x} = \operatorname{conv1d}(\bar{y}, W),\quad "
                   r"\bar{W} = \textstyle\sum_{n} x\, \operatorname{unfold}(\bar{y})^{\top},\quad "
                   r"\bar{b} = \textstyle\sum_{n,\,\text{positions}} \bar{y}",
        apply=ag.conv_transpose1d, example="conv_transpose1d(x, W, b, stride=2)",
        torch=_call("conv_transpose1d", _TRANSPOSE_ATTRS),
        shape=_conv_transpose_shape("conv_transpose1d"), work=_conv_transpose_work,
        sentence=(
            "Each input element was spread over a stretch of the output, so it gets that "
            "stretch's gradient back through the filter: a convolution of the gradient."
        ),
    ),
    OpInfo(
        "conv_transpose2d", arity=3, attrs=_TRANSPOSE_ATTRS,
        description=(
            "Transposed convolution of x (N, C, H, W) by W (C, out, kH, kW), plus b: stride 2 "
            "doubles H, W."
        ),
        derivative=r"\bar{x} = \operatorname{conv2d}(\bar{y}, W),\quad "
                   r"\bar{W} = \textstyle\sum_{n} x\, \operatorname{unfold}(\bar{y})^{\top},\quad "
                   r"\bar{b} = \textstyle\sum_{n,\,\text{positions}} \bar{y}",
        apply=ag.conv_transpose2d, example="conv_transpose2d(x, W, b, stride=2)",
        torch=_call("conv_transpose2d", _TRANSPOSE_ATTRS),
        shape=_conv_transpose_shape("conv_transpose2d"), work=_conv_transpose_work,
        sentence=(
            "Each input pixel was spread over a window of the output, so it gets back that "
            "window's gradient weighted by the filter: a plain convolution of the gradient."
        ),
    ),
    OpInfo(
        "max_pool2d", arity=1, attrs=_MAX_POOL_ATTRS,
        description=(
            "The largest element of each kH x kW window of x (N, C, H, W); stride defaults to the "
            "kernel."
        ),
        derivative=_MAX_DERIVATIVE, apply=ag.max_pool2d, example="max_pool2d(x, kernel_size=2)",
        torch=_call("max_pool2d", _MAX_POOL_ATTRS), shape=_shape_rule("max_pool2d"),
        work=_pool2d_work,
        sentence=(
            "Only the largest element of each window affected the output, so it alone receives "
            "that window's gradient; the others get 0."
        ),
    ),
    OpInfo(
        "avg_pool2d", arity=1, attrs=_AVG_POOL_ATTRS,
        description=(
            "The mean of each kH x kW window of x (N, C, H, W); stride defaults to the kernel."
        ),
        derivative=r"\bar{x}_i = \textstyle\sum_{\text{windows } j \ni i} \bar{y}_j \,/\, "
                   r"|\text{window}_j|",
        apply=ag.avg_pool2d, example="avg_pool2d(x, kernel_size=2)",
        torch=_call("avg_pool2d", _AVG_POOL_ATTRS), shape=_shape_rule("avg_pool2d"),
        work=_pool2d_work,
        sentence=(
            "Each element counts 1/k in the mean of a window of k elements, so it receives every "
            "covering window's gradient divided by k."
        ),
    ),
    OpInfo(
        "adaptive_avg_pool2d", arity=1,
        attrs=(Attr("output_size", "size", None, required=True, suggested=1),),
        description=(
            "Means over near-equal windows that give exactly output_size (H, W) per channel."
        ),
        derivative=r"y = P_h\, x\, P_w^{\top},\quad \bar{x} = P_h^{\top}\, \bar{y}\, P_w",
        apply=ag.adaptive_avg_pool2d, example="adaptive_avg_pool2d(x, output_size=1)",
        torch=torch_code.call("F.adaptive_avg_pool2d", output_size="output_size"),
        shape=_shape_rule("adaptive_avg_pool2d"), work=_adaptive_avg_work,
        sentence=(
            "Each output is a mean over its window, so every element in that window receives the "
            "output's gradient divided by the window's size."
        ),
    ),
    OpInfo(
        "pad", arity=1, attrs=_PAD_ATTRS,
        description=(
            "The last axes padded (pad lists amounts last axis first): constant, reflect, "
            "replicate."
        ),
        derivative=(
            r"\bar{x}_i = \textstyle\sum_{\text{outputs } j \text{ copied from } x_i} \bar{y}_j"
        ),
        apply=ag.pad, example='pad(x, pad=(1, 1), mode="replicate")',
        torch=_call("pad", _PAD_ATTRS), shape=_shape_rule("pad"),
        sentence=(
            "Padding copies elements: each input element gets the summed gradient of its copies, "
            "and the constant border passes none back."
        ),
    ),
    OpInfo(
        "unfold", arity=1, attrs=_UNFOLD_ATTRS,
        description=(
            "Each kH x kW window of x (N, C, H, W) as a column: (N, C·kH·kW, windows), im2col."
        ),
        derivative=r"\bar{x} = \operatorname{fold}(\bar{y})", apply=ag.unfold,
        example="unfold(x, kernel_size=2)", torch=_call("unfold", _UNFOLD_ATTRS),
        shape=_shape_rule("unfold"),
        sentence=(
            "unfold copies each element into every window that covers it, so fold adds those "
            "copies' gradients back onto the element."
        ),
    ),
    OpInfo(
        "fold", arity=1, attrs=_FOLD_ATTRS,
        description=(
            "Columns (N, C·kH·kW, windows) added back onto an image of output_size, col2im."
        ),
        derivative=r"\bar{x} = \operatorname{unfold}(\bar{y})", apply=ag.fold,
        example="fold(x, output_size=(3, 3), kernel_size=2)", torch=_call("fold", _FOLD_ATTRS),
        shape=_shape_rule("fold"),
        sentence=(
            "fold adds each column entry onto one image element, so each entry gets back that "
            "element's gradient: unfold of the gradient."
        ),
    ),
)

def _row(value, first):
    """A 1-D pooling setting as its 2-D one over (N, C, 1, L), as autograd.nn's 1-D pools
    pass it."""
    return (first, *(value if isinstance(value, tuple) else (value,)))


def _pool1d_shape(name):
    """max_pool1d / avg_pool1d / adaptive_avg_pool1d: the 2-D pool's own check over (N, C, 1, L)."""
    def rule(shapes, attrs):
        (x,) = shapes
        if not x:
            raise ValueError(f"{name}: an (N, C, L) or (C, L) input")
        settings = {key: value if value is None else _row(value, 0 if key == "padding" else 1)
                    for key, value in attrs.items()
                    if key in ("kernel_size", "stride", "padding", "dilation", "output_size")}
        out = result_shape(name.replace("1d", "2d"), x[:-1] + (1,) + x[-1:],
                           **{**attrs, **settings})
        return out[:-2] + out[-1:]
    return rule


def _pool1d_work(shapes, out, attrs):
    """Every output element reads a window of k."""
    kernel = attrs["kernel_size"]
    return math.prod(out) * math.prod(kernel if isinstance(kernel, tuple) else (kernel,))


def _adaptive_max_shape(shapes, attrs):
    (x,) = shapes
    sizes = attrs["output_size"]
    sizes = sizes if isinstance(sizes, tuple) else (sizes, sizes)
    if len(x) < 2 or len(sizes) != 2:
        raise ValueError("adaptive_max_pool2d: an input of at least 2 axes, two output sizes")
    return x[:-2] + tuple(n if s is None else s for n, s in zip(x[-2:], sizes))


def _adaptive_max_work(shapes, out, attrs):
    """Three engine ops per window, over the batch."""
    return 3 * OP_WORK * math.prod(out[-2:]) + 2 * math.prod(shapes[0])


def _interpolate_shape(shapes, attrs):
    (x,) = shapes
    mode, size, scale = attrs.get("mode", "nearest"), attrs.get("size"), attrs.get("scale_factor")
    n = len(x) - 2
    if n < 1 or MODES[mode] not in (None, n) or (size is None) == (scale is None):
        raise ValueError("interpolate: an (N, C, ...) input of the mode's axes; size or scale")
    if size is not None:
        out = size if isinstance(size, tuple) else (size,) * n
    else:
        out = tuple(math.floor(s * scale) for s in x[2:])
    if len(out) != n or min(out) < 1:
        raise ValueError("interpolate: one output size of at least 1 per spatial axis")
    return x[:2] + tuple(out)


def _shuffle_shape(shapes, attrs):
    *lead, channels, height, width = shapes[0]
    r = attrs["upscale_factor"]
    if channels % (r * r):
        raise ValueError("pixel_shuffle: channels must divide by upscale_factor squared")
    return (*lead, channels // (r * r), height * r, width * r)


def _unshuffle_shape(shapes, attrs):
    *lead, channels, height, width = shapes[0]
    r = attrs["downscale_factor"]
    if height % r or width % r:
        raise ValueError("pixel_unshuffle: height and width must divide by downscale_factor")
    return (*lead, channels * r * r, height // r, width // r)


def _interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False):
    """F.interpolate, align_corners left unset for "nearest" unless asked for (as PyTorch
    wants it)."""
    return F.interpolate(x, size, scale_factor, mode,
                         align_corners if mode != "nearest" or align_corners else None)


def _torch_interpolate(x, a, n):
    settings = [f"{key}={a[key]!r}" for key in ("size", "scale_factor") if a[key] is not None]
    settings.append(f"mode={a['mode']!r}")
    if a["mode"] != "nearest":
        settings.append(f"align_corners={a['align_corners']!r}")
    return f"F.interpolate({x[0]}, {', '.join(settings)})"


_MAX_POOL1D_ATTRS = (KERNEL, POOL_STRIDE, PADDING, DILATION, CEIL_MODE)
_AVG_POOL1D_ATTRS = (KERNEL, POOL_STRIDE, PADDING, CEIL_MODE,
                     Attr("count_include_pad", "bool", True))
_INTERPOLATE_ATTRS = (Attr("size", "size", None, suggested=4),
                      Attr("scale_factor", "optional_float", None),
                      Attr("mode", "interpolate_mode", "nearest"),
                      Attr("align_corners", "bool", False))

ENTRIES += (
    OpInfo(
        "max_pool1d", arity=1, attrs=_MAX_POOL1D_ATTRS,
        description="The largest element of each window of k along the last axis of x (N, C, L).",
        derivative=_MAX_DERIVATIVE, apply=F.max_pool1d, example="max_pool1d(x, kernel_size=2)",
        torch=_call("max_pool1d", _MAX_POOL1D_ATTRS), shape=_pool1d_shape("max_pool1d"),
        work=_pool1d_work,
        sentence=(
            "Only the largest element of each window affected the output, so it alone receives "
            "that window's gradient."
        ),
    ),
    OpInfo(
        "avg_pool1d", arity=1, attrs=_AVG_POOL1D_ATTRS,
        description="The mean of each window of k along the last axis of x (N, C, L).",
        derivative=r"\bar{x}_i = \textstyle\sum_{\text{windows } j \ni i} \bar{y}_j \,/\, k",
        apply=F.avg_pool1d, example="avg_pool1d(x, kernel_size=2)",
        torch=_call("avg_pool1d", _AVG_POOL1D_ATTRS), shape=_pool1d_shape("avg_pool1d"),
        work=_pool1d_work,
        sentence=(
            "Each element counts 1/k in the mean of a window of k, so it gets each covering "
            "window's gradient divided by k."
        ),
    ),
    OpInfo(
        "adaptive_avg_pool1d", arity=1,
        attrs=(Attr("output_size", "size", None, required=True, suggested=1),),
        description=(
            "Means over near-equal windows that give exactly output_size values per channel."
        ),
        derivative=r"y = x\, P^{\top},\quad \bar{x} = \bar{y}\, P", apply=F.adaptive_avg_pool1d,
        example="adaptive_avg_pool1d(x, output_size=1)",
        torch=torch_code.call("F.adaptive_avg_pool1d", output_size="output_size"),
        shape=_pool1d_shape("adaptive_avg_pool1d"),
        sentence=(
            "Each output is a mean over its window, so each element of the window gets the "
            "output's gradient over the window's size."
        ),
    ),
    OpInfo(
        "adaptive_max_pool2d", arity=1,
        attrs=(Attr("output_size", "size", None, required=True, suggested=1),),
        description=(
            "The largest element of each of near-equal windows giving exactly output_size (H, W)."
        ),
        derivative=_MAX_DERIVATIVE, apply=F.adaptive_max_pool2d,
        example="adaptive_max_pool2d(x, output_size=1)",
        torch=torch_code.call("F.adaptive_max_pool2d", output_size="output_size"),
        shape=_adaptive_max_shape, work=_adaptive_max_work,
        sentence=(
            "Only each window's largest element affected the output, so it alone gets that "
            "window's gradient."
        ),
    ),
    OpInfo(
        "interpolate", arity=1, attrs=_INTERPOLATE_ATTRS,
        description=(
            "The image x (N, C, ...) resized to size or by scale_factor: nearest, linear, bilinear."
        ),
        derivative=r"\bar{x}_i = \textstyle\sum_{\text{outputs } j} w_{ji}\, \bar{y}_j",
        apply=_interpolate, example='interpolate(x, size=4, mode="linear")',
        torch=torch_code.code(
            _torch_interpolate, "F"),
        shape=_interpolate_shape, needs_one_of=("scale_factor", "size"),
        sentence=(
            "Each output mixed a few input pixels with weights w; each input pixel gets back the "
            "gradients of the outputs it fed, times those weights."
        ),
    ),
    OpInfo(
        "pixel_shuffle", arity=1,
        attrs=(Attr("upscale_factor", "size", None, required=True, suggested=2),),
        description=(
            "Shape (N, C·r², H, W) to (N, C, H·r, W·r): each r² channels become an r x r block."
        ),
        derivative=r"\bar{x} = \operatorname{pixel\_unshuffle}(\bar{y})", apply=F.pixel_shuffle,
        example="pixel_shuffle(x, upscale_factor=2)",
        torch=torch_code.call("F.pixel_shuffle", upscale_factor="upscale_factor"),
        shape=_shuffle_shape,
        sentence="pixel_shuffle only moves values, so the gradient is moved back: unshuffled.",
    ),
    OpInfo(
        "pixel_unshuffle", arity=1,
        attrs=(Attr("downscale_factor", "size", None, required=True, suggested=2),),
        description=(
            "Shape (N, C, H·r, W·r) to (N, C·r², H, W): each r x r block becomes r² channels."
        ),
        derivative=r"\bar{x} = \operatorname{pixel\_shuffle}(\bar{y})", apply=F.pixel_unshuffle,
        example="pixel_unshuffle(x, downscale_factor=2)",
        torch=torch_code.call("F.pixel_unshuffle", downscale_factor="downscale_factor"),
        shape=_unshuffle_shape,
        sentence="pixel_unshuffle only moves values, so the gradient is moved back: shuffled.",
    ),
)
