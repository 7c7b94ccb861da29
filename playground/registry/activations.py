"""Registry entries: activations (``torch.nn.functional``'s names)."""

from numpy.lib.array_utils import normalize_axis_index

import autograd as ag
from autograd.nn import functional as F

from .. import torch_code
from . import rules
from .entry import Attr, OpInfo


def _activation(name, *, attrs=(), description, derivative, example, sentence, **torch_keywords):
    """A one-operand activation: ``autograd.<name>``, written ``F.<name>`` in PyTorch."""
    return OpInfo(
        name, arity=1, attrs=attrs, description=description, derivative=derivative,
        apply=getattr(ag, name), example=example,
        torch=torch_code.call(f"F.{name}", **torch_keywords), shape=rules.same, sentence=sentence,
    )


ALPHA = Attr("alpha", "float", 1.0)
LAMBD = Attr("lambd", "float", 0.5)


def _shrink(name, *, description, derivative, sentence):
    """softshrink or hardshrink: ``F.<name>(x, lambd)``."""
    return OpInfo(
        name, arity=1, attrs=(LAMBD,), description=description, derivative=derivative,
        apply=getattr(F, name), example=f"{name}(x, lambd=0.5)",
        torch=torch_code.call(f"F.{name}", lambd="lambd"), shape=rules.same, sentence=sentence,
    )


def _glu_shape(shapes, attrs):
    shape = list(shapes[0])
    dim = normalize_axis_index(attrs.get("dim", -1), len(shape))
    if shape[dim] % 2:
        raise ValueError("glu: the halved axis must have an even size")
    shape[dim] //= 2
    return tuple(shape)

ENTRIES = (
    _activation(
        "gelu", attrs=(Attr("approximate", "approximate", "none"),),
        description='Gaussian error linear unit x·Φ(x); approximate="tanh" uses the tanh formula.',
        derivative=r"\frac{dy}{dx} = \Phi(x) + x\,\varphi(x)",
        example='gelu(x, approximate="tanh")',
        sentence=(
            'gelu passes nearly all the gradient for large x and almost none for very negative x, '
            'with a small dip below 0.'
        ),
        approximate="approximate",
    ),
    _activation(
        "elu", attrs=(ALPHA,), description="Elementwise x for x > 0, alpha·(e^x - 1) otherwise.",
        derivative=r"\frac{dy}{dx} = \begin{cases} 1 & x > 0 \\ \alpha e^{x} & x \le 0 \end{cases}",
        example="elu(x, alpha=1.0)",
        sentence=(
            'elu passes the gradient unchanged where x > 0 and a shrinking share alpha·e^x below 0.'
        ),
        alpha="alpha",
    ),
    _activation(
        "celu", attrs=(ALPHA,),
        description="Elementwise x for x > 0, alpha·(e^(x/alpha) - 1) otherwise.",
        derivative=r"\frac{dy}{dx} = \begin{cases} 1 & x > 0 \\ e^{x/\alpha} & x \le 0 \end{cases}",
        example="celu(x, alpha=2.0)",
        sentence=(
            'celu has slope 1 right of 0 and e^(x/alpha) left of it, so its slope is continuous at '
            '0.'
        ),
        alpha="alpha",
    ),
    _activation(
        "selu",
        description="Scaled elu with PyTorch's constants: λ·x for x > 0, λα(e^x - 1) otherwise.",
        derivative=(
            r"\frac{dy}{dx} = \begin{cases} \lambda & x > 0 \\ \lambda\alpha e^{x} & x \le 0 "
            r"\end{cases}"
        ),
        example="selu(x)",
        sentence=(
            'selu scales the gradient by λ ≈ 1.05 where x > 0 and by λα·e^x ≈ 1.76·e^x below 0.'
        ),
    ),
    _activation(
        "softplus", attrs=(Attr("beta", "float", 1.0), Attr("threshold", "float", 20.0)),
        description="Smooth relu log(1 + e^(beta·x)) / beta; x itself where beta·x > threshold.",
        derivative=r"\frac{dy}{dx} = \sigma(\beta x)", example="softplus(x, beta=2.0)",
        sentence=(
            'The slope of softplus is a sigmoid: near 0 for very negative x, near 1 for large x.'
        ),
        beta="beta", threshold="threshold",
    ),
    _activation(
        "softsign", description="Elementwise x / (1 + |x|), squashing to (-1, 1).",
        derivative=r"\frac{dy}{dx} = \frac{1}{(1 + |x|)^2}", example="softsign(x)",
        sentence=(
            'softsign squashes like tanh but its slope 1/(1+|x|)² fades slowly, not exponentially.'
        ),
    ),
    _activation(
        "hardtanh", attrs=(Attr("min_val", "float", -1.0), Attr("max_val", "float", 1.0)),
        description="Elementwise x limited to [min_val, max_val].",
        derivative=r"\frac{dy}{dx} = \mathbb{1}[\min < x < \max]",
        example="hardtanh(x, min_val=-1.0, max_val=1.0)",
        sentence=(
            'hardtanh passes the gradient strictly inside its range; at and beyond the ends it is '
            '0.'
        ),
        min_val="min_val", max_val="max_val",
    ),
    _activation(
        "relu6", description="Elementwise min(max(x, 0), 6).",
        derivative=r"\frac{dy}{dx} = \mathbb{1}[0 < x < 6]", example="relu6(x)",
        sentence='relu6 passes the gradient strictly between 0 and 6 and blocks it elsewhere.',
    ),
    _activation(
        "logsigmoid", description="Elementwise log(sigmoid(x)), computed stably.",
        derivative=r"\frac{dy}{dx} = \sigma(-x) = 1 - \sigma(x)", example="logsigmoid(x)",
        sentence=(
            'logsigmoid passes almost all of the gradient for very negative x and almost none for '
            'very positive x, where sigmoid has saturated.'
        ),
    ),
    _activation(
        "silu", description="Elementwise x·sigmoid(x) (also called swish).",
        derivative=r"\frac{dy}{dx} = \sigma(x)\,\bigl(1 + x\,(1 - \sigma(x))\bigr)",
        example="silu(x)",
        sentence=(
            'silu passes about σ(x) of the gradient, a little more just above 0 and a little less '
            'below.'
        ),
    ),
    _activation(
        "mish", description="Elementwise x·tanh(softplus(x)).",
        derivative=r"\frac{dy}{dx} = \tanh(s) + x\,\sigma(x)\,(1 - \tanh^2 s),\ s = "
                   r"\log(1 + e^{x})",
        example="mish(x)",
        sentence=(
            'mish is a smooth relu: slope near 1 for large x, near 0 for very negative x, 0.6 at 0.'
        ),
    ),
    _activation(
        "hardsigmoid",
        description="Elementwise min(max(x + 3, 0), 6) / 6, a piecewise-linear sigmoid.",
        derivative=r"\frac{dy}{dx} = \tfrac{1}{6}\,\mathbb{1}[-3 < x < 3]",
        example="hardsigmoid(x)",
        sentence=(
            'hardsigmoid passes a sixth of the gradient strictly between -3 and 3, none elsewhere.'
        ),
    ),
    _activation(
        "hardswish", description="Elementwise x·min(max(x + 3, 0), 6) / 6.",
        derivative=(
            r"\frac{dy}{dx} = \begin{cases} 0 & x \le -3 \\ \frac{x}{3} + \frac{1}{2} & -3 < x < 3 "
            r"\\ 1 & x \ge 3 \end{cases}"
        ),
        example="hardswish(x)",
        sentence=(
            'hardswish blocks the gradient up to -3, passes all of it from 3 on, and ramps up in '
            'between.'
        ),
    ),
    OpInfo(
        "prelu", arity=2,
        description=(
            "Elementwise x for x > 0, w·x otherwise; w has 1 element or one per channel (axis 1)."
        ),
        derivative=(
            r"\frac{\partial y}{\partial x} = \begin{cases} 1 & x > 0 \\ w & x \le 0 \end{cases},"
            r"\quad \frac{\partial y}{\partial w} = x\,\mathbb{1}[x \le 0]\ "
            r"\text{(summed per channel)}"
        ),
        apply=ag.prelu, example="prelu(x, W)", torch=torch_code.call("F.prelu"), shape=rules.same,
        sentence=(
            'prelu passes the gradient where x > 0 and w of it elsewhere; w learns from the '
            'negative inputs only.'
        ),
        symbols=("x", "w"),
    ),
    OpInfo(
        "glu", arity=1, attrs=(Attr("dim", "dim", -1),),
        description="Gated linear unit a·sigmoid(b), a and b the two halves of x along dim.",
        derivative=(
            r"\bar{a} = \bar{y}\,\sigma(b),\quad \bar{b} = \bar{y}\, a\, \sigma(b)\,(1 - \sigma(b))"
        ),
        apply=F.glu, example="glu(x, dim=-1)", torch=torch_code.call("F.glu", dim="dim"),
        shape=_glu_shape,
        sentence=(
            "The first half passes the gradient through the gate σ(b); the gate's half learns "
            "how much a should have passed."
        ),
    ),
    OpInfo(
        "softmin", arity=1, attrs=(Attr("dim", "dim", -1),),
        description="Softmax of -x along dim: the smallest entry gets the largest weight.",
        derivative=r"\bar{x} = -y \odot \bigl(\bar{y} - \textstyle\sum_j \bar{y}_j y_j\bigr)",
        apply=lambda x, dim=-1: F.softmin(x, dim), example="softmin(x, dim=-1)",
        torch=torch_code.call("F.softmin", dim="dim"), shape=rules.same,
        sentence=(
            "As for softmax, with the sign turned: raising an entry lowers its own weight and "
            "raises the others'."
        ),
    ),
    OpInfo(
        "tanhshrink", arity=1,
        description="Elementwise x - tanh(x): near 0 flat as x³/3, far out x ∓ 1.",
        derivative=r"\frac{dy}{dx} = \tanh^2 x", apply=F.tanhshrink, example="tanhshrink(x)",
        torch=torch_code.call("F.tanhshrink"), shape=rules.same,
        sentence="tanhshrink's slope tanh²x is 0 at 0 and nears 1 far from it.",
    ),
    _shrink(
        "softshrink", description="Elementwise x moved towards 0 by lambd, and 0 within ±lambd.",
        derivative=r"\frac{dy}{dx} = \mathbb{1}[|x| > \lambda]",
        sentence="softshrink passes the gradient outside ±lambd and blocks it within.",
    ),
    _shrink(
        "hardshrink", description="Elementwise x outside ±lambd, 0 within.",
        derivative=r"\frac{dy}{dx} = \mathbb{1}[|x| > \lambda]",
        sentence="hardshrink passes the gradient where it keeps x and blocks it where it gives 0.",
    ),
    OpInfo(
        "threshold", arity=1, attrs=(Attr("threshold", "float", 0.0), Attr("value", "float", 0.0)),
        description=(
            "Elementwise value where x <= threshold, else x (threshold = value = 0 is relu)."
        ),
        derivative=r"\frac{dy}{dx} = \mathbb{1}[x > \text{threshold}]",
        apply=lambda x, threshold=0.0, value=0.0: F.threshold(x, threshold, value),
        example="threshold(x, threshold=0.5, value=-1.0)",
        torch=torch_code.code(lambda x, a, n: f"F.threshold({x[0]}, {a['threshold']!r}, "
                                              f"{a['value']!r})", "F"),
        shape=rules.same,
        sentence="Above the threshold x passes the gradient; below, the constant value gets 0.",
    ),
)
