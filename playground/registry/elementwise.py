"""Registry entries: elementwise."""

import autograd as ag

from .. import torch_code
from . import rules
from .entry import Attr, OpInfo, binary, unary


def _torch_clip(x, a, n):
    bounds = [f"{k}={a[k]!r}" for k in ("min", "max") if a[k] is not None]
    return f"torch.clamp({x[0]}, {', '.join(bounds)})"


ENTRIES = (
    unary(
        "exp", description="Elementwise e to the power x.", derivative=r"\frac{dy}{dx} = e^{x}",
        sentence='exp is its own derivative: the gradient is scaled by the output itself.',
    ),
    unary(
        "log", description="Elementwise natural logarithm.",
        derivative=r"\frac{dy}{dx} = \frac{1}{x}",
        sentence='log grows ever more slowly: its slope 1/x is steep near 0 and flat for large x.',
    ),
    unary(
        "square", description="Elementwise x * x.", derivative=r"\frac{dy}{dx} = 2x",
        sentence=(
            'Squaring doubles and scales: the slope of x² is 2x, zero at the bottom of the '
            'parabola.'
        ),
    ),
    unary(
        "sqrt", description="Elementwise square root.",
        derivative=r"\frac{dy}{dx} = \frac{1}{2\sqrt{x}}",
        sentence='sqrt rises steeply near 0: its slope 1/(2√x) becomes infinite at 0.',
    ),
    unary(
        "abs", description="Elementwise absolute value.",
        derivative=r"\frac{dy}{dx} = \operatorname{sign}(x)",
        sentence=(
            'abs has slope -1 left of 0 and +1 right of it; at the kink the engine uses 0, as '
            'PyTorch does.'
        ),
    ),
    unary(
        "sign", description="Elementwise sign: -1, 0 or 1.", derivative=r"\frac{dy}{dx} = 0",
        sentence=(
            'sign is flat everywhere except its jump at 0, so its gradient is 0: nothing flows '
            'back through it.'
        ),
    ),
    unary(
        "sin", description="Elementwise sine.", derivative=r"\frac{dy}{dx} = \cos x",
        sentence='The slope of sin is cos: largest at 0, zero at the peaks.',
    ),
    unary(
        "cos", description="Elementwise cosine.", derivative=r"\frac{dy}{dx} = -\sin x",
        sentence='The slope of cos is -sin: zero at 0, where cos peaks.',
    ),
    unary(
        "tanh", description="Elementwise hyperbolic tangent, squashing to (-1, 1).",
        derivative=r"\frac{dy}{dx} = 1 - \tanh^2 x",
        sentence=(
            'tanh squashes to (-1, 1); its slope is 1 - tanh², so it stops passing gradient when '
            'saturated.'
        ),
    ),
    unary(
        "sigmoid", description="Elementwise logistic function 1 / (1 + e^-x), squashing to (0, 1).",
        derivative=r"\frac{dy}{dx} = \sigma(x)\,\bigl(1 - \sigma(x)\bigr)",
        sentence=(
            'sigmoid squashes to (0, 1); its slope σ(1-σ) is at most 1/4, at 0, and vanishes in '
            'the tails.'
        ),
    ),
    unary(
        "relu", description="Elementwise max(x, 0).",
        derivative=r"\frac{dy}{dx} = \mathbb{1}[x > 0]",
        sentence='relu passes the gradient where its input was positive and blocks it elsewhere.',
    ),
    OpInfo(
        "leaky_relu", arity=1, attrs=(Attr("negative_slope", "float", 0.01),),
        description="Elementwise x for x > 0, negative_slope * x otherwise.",
        derivative=r"\frac{dy}{dx} = \begin{cases} 1 & x > 0 \\ \alpha & x \le 0 \end{cases}",
        apply=ag.leaky_relu, example="leaky_relu(x, negative_slope=0.1)",
        torch=torch_code.call("F.leaky_relu", negative_slope="negative_slope"), shape=rules.same,
        sentence=(
            'leaky_relu passes the gradient where the input was positive and a small fraction of '
            'it elsewhere, so no unit goes silent.'
        ),
    ),
    binary(
        "maximum", description="Elementwise larger of a and b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = \mathbb{1}[a > b],\quad "
                   r"\frac{\partial y}{\partial b} = \mathbb{1}[b > a]\ \text{(ties shared)}",
        torch=torch_code.call("torch.maximum"),
        sentence=(
            'Whichever operand was larger gets the gradient; the other gets 0 (ties share it).'
        ),
    ),
    binary(
        "minimum", description="Elementwise smaller of a and b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = \mathbb{1}[a < b],\quad "
                   r"\frac{\partial y}{\partial b} = \mathbb{1}[b < a]\ \text{(ties shared)}",
        torch=torch_code.call("torch.minimum"),
        sentence=(
            'Whichever operand was smaller gets the gradient; the other gets 0 (ties share it).'
        ),
    ),
    OpInfo(
        "clip", arity=1,
        attrs=(
            Attr("min", "optional_float", None, suggested=0.0),
            Attr("max", "optional_float", None, suggested=1.0),
        ),
        description=(
            "Elementwise x limited to the range [min, max]; a missing bound means no limit."
        ),
        derivative=r"\frac{dy}{dx} = \mathbb{1}[\min \le x \le \max]", apply=ag.clip,
        example="clip(x, min=0.0, max=1.0)", torch=torch_code.code(_torch_clip), shape=rules.same,
        needs_one_of=("min", "max"),
        sentence=(
            'Inside the range clip passes the gradient; where it clipped, the output did not '
            'move, so the gradient is 0.'
        ),
    ),
    OpInfo(
        "where", arity=3,
        description="Elementwise choice: x where the condition c is nonzero, else y.",
        derivative=r"\frac{\partial y}{\partial x} = \mathbb{1}[c \ne 0],\quad "
                   r"\frac{\partial y}{\partial y_0} = \mathbb{1}[c = 0]",
        apply=lambda c, x, y: ag.where(c.data != 0, x, y), example="where(c, x, y)",
        torch=torch_code.code(lambda x, a, n: f"torch.where({x[0]} != 0, {x[1]}, {x[2]})"),
        shape=rules.broadcast,
        sentence=(
            'The chosen operand gets the gradient at each position; the one not chosen gets 0.'
        ),
        symbols=("c", "x", "y_0"),
    ),
    unary(
        "tan", description="Elementwise tangent.", derivative=r"\frac{dy}{dx} = 1 + \tan^2 x",
        sentence='The slope of tan is 1 + tan², at least 1 and unbounded near ±π/2.',
    ),
    unary(
        "sinh", description="Elementwise hyperbolic sine.", derivative=r"\frac{dy}{dx} = \cosh x",
        sentence='The slope of sinh is cosh: 1 at 0 and growing exponentially on both sides.',
    ),
    unary(
        "cosh", description="Elementwise hyperbolic cosine.", derivative=r"\frac{dy}{dx} = \sinh x",
        sentence='The slope of cosh is sinh: 0 at the bottom of the curve, at x = 0.',
    ),
    unary(
        "asinh", description="Elementwise inverse hyperbolic sine.",
        derivative=r"\frac{dy}{dx} = \frac{1}{\sqrt{x^2 + 1}}",
        sentence='asinh grows like a logarithm: its slope is 1 at 0 and fades like 1/|x|.',
    ),
    unary(
        "acosh", description="Elementwise inverse hyperbolic cosine, for x >= 1.",
        derivative=r"\frac{dy}{dx} = \frac{1}{\sqrt{x^2 - 1}}",
        sentence='acosh starts vertically at x = 1 (infinite slope) and flattens like 1/x.',
    ),
    unary(
        "atanh", description="Elementwise inverse hyperbolic tangent, for -1 < x < 1.",
        derivative=r"\frac{dy}{dx} = \frac{1}{1 - x^2}",
        sentence='atanh undoes tanh: its slope 1/(1 - x²) is 1 at 0 and infinite at ±1.',
    ),
    unary(
        "erf", description="Elementwise error function 2/√π ∫₀ˣ e^(-t²) dt.",
        derivative=r"\frac{dy}{dx} = \frac{2}{\sqrt{\pi}}\,e^{-x^2}",
        sentence='The slope of erf is a bell curve: steepest at 0, vanishing in both tails.',
    ),
    unary(
        "log2", description="Elementwise base-2 logarithm.",
        derivative=r"\frac{dy}{dx} = \frac{1}{x \ln 2}",
        sentence='log2 is log divided by ln 2, so its slope is 1/x divided by ln 2 ≈ 0.693.',
    ),
    unary(
        "log10", description="Elementwise base-10 logarithm.",
        derivative=r"\frac{dy}{dx} = \frac{1}{x \ln 10}",
        sentence='log10 is log divided by ln 10, so its slope is 1/x divided by ln 10 ≈ 2.303.',
    ),
    unary(
        "exp2", description="Elementwise 2 to the power x.",
        derivative=r"\frac{dy}{dx} = 2^{x} \ln 2",
        sentence='The slope of 2^x is the output itself times ln 2 ≈ 0.693.',
    ),
    unary(
        "log1p", description="Elementwise log(1 + x), accurate for tiny x.",
        derivative=r"\frac{dy}{dx} = \frac{1}{1 + x}",
        sentence='log1p is log shifted left by 1: its slope 1/(1 + x) is 1 at 0.',
    ),
    unary(
        "expm1", description="Elementwise e^x - 1, accurate for tiny x.",
        derivative=r"\frac{dy}{dx} = e^{x}",
        sentence='expm1 is exp shifted down by 1, so its slope is e^x, the output plus 1.',
    ),
    unary(
        "rsqrt", description="Elementwise 1 / sqrt(x).",
        derivative=r"\frac{dy}{dx} = -\frac{1}{2}\,x^{-3/2}",
        sentence='rsqrt falls as x grows: its slope -½x^(-3/2) is steep near 0 and flat far out.',
    ),
    unary(
        "reciprocal", description="Elementwise 1 / x.",
        derivative=r"\frac{dy}{dx} = -\frac{1}{x^2}",
        sentence=(
            'The reciprocal 1/x always falls: its slope -1/x² is steep near 0, flat for large |x|.'
        ),
    ),
    OpInfo(
        "lerp", arity=3,
        description="Linear interpolation a + w·(b - a), elementwise with broadcasting.",
        derivative=(
            r"\frac{\partial y}{\partial a} = 1 - w,\quad \frac{\partial y}{\partial b} = w,"
            r"\quad \frac{\partial y}{\partial w} = b - a"
        ),
        apply=ag.lerp, example="lerp(a, b, p)", torch=torch_code.call("torch.lerp"),
        shape=rules.broadcast,
        sentence='Each end gets its share of the gradient, 1 - w and w; the weight gets b - a.',
        symbols=("a", "b", "w"),
    ),
    binary(
        "atan2", description="Elementwise angle of the point (b, a): atan2(a, b), in (-π, π].",
        derivative=r"\frac{\partial y}{\partial a} = \frac{b}{a^2 + b^2},\quad "
                   r"\frac{\partial y}{\partial b} = \frac{-a}{a^2 + b^2}",
        torch=torch_code.call("torch.atan2"),
        sentence=(
            'Moving the point turns its angle fastest across the radius; at the origin both '
            'partials are 0.'
        ),
    ),
    unary(
        "floor", description="Elementwise largest whole number <= x.",
        derivative=r"\frac{dy}{dx} = 0",
        sentence='floor is flat between its jumps, so its gradient is 0 (PyTorch\'s rule).',
    ),
    unary(
        "ceil", description="Elementwise smallest whole number >= x.",
        derivative=r"\frac{dy}{dx} = 0",
        sentence='ceil is flat between its jumps, so its gradient is 0 (PyTorch\'s rule).',
    ),
    unary(
        "trunc", description="Elementwise x rounded toward 0.", derivative=r"\frac{dy}{dx} = 0",
        sentence='trunc is flat between its jumps, so its gradient is 0 (PyTorch\'s rule).',
    ),
    unary(
        "round", description="Elementwise x rounded to the nearest whole number (halves to even).",
        derivative=r"\frac{dy}{dx} = 0",
        sentence='round is flat between its jumps, so its gradient is 0 (PyTorch\'s rule).',
    ),
    unary(
        "clone", description="A copy of x that stays in the graph.",
        derivative=r"\frac{dy}{dx} = 1", sentence='A copy passes the gradient back unchanged.',
    ),
    unary(
        "asin", description="Elementwise inverse sine, for -1 <= x <= 1.",
        derivative=r"\frac{dy}{dx} = \frac{1}{\sqrt{1 - x^2}}",
        sentence='asin is steepest at its ends: its slope 1/√(1 - x²) is 1 at 0, infinite at ±1.',
    ),
    unary(
        "acos", description="Elementwise inverse cosine, for -1 <= x <= 1.",
        derivative=r"\frac{dy}{dx} = -\frac{1}{\sqrt{1 - x^2}}",
        sentence='acos is asin turned over: its slope is -1/√(1 - x²), infinite at ±1.',
    ),
    unary(
        "atan", description="Elementwise inverse tangent, in (-π/2, π/2).",
        derivative=r"\frac{dy}{dx} = \frac{1}{1 + x^2}",
        sentence='atan flattens on both sides: its slope 1/(1 + x²) is 1 at 0 and fades like 1/x².',
    ),
    unary(
        "logit", description="Elementwise log(x / (1 - x)), the inverse of sigmoid, for 0 < x < 1.",
        derivative=r"\frac{dy}{dx} = \frac{1}{x\,(1 - x)}",
        sentence="logit undoes sigmoid: its slope 1/(x(1 - x)) is 4 at ½ and infinite at 0 and 1.",
    ),
    binary(
        "hypot", description="Elementwise length √(a² + b²) of the point (a, b), without overflow.",
        derivative=(
            r"\frac{\partial y}{\partial a} = \frac{a}{y},\quad \frac{\partial y}{\partial b} = "
            r"\frac{b}{y}"
        ),
        torch=torch_code.call("torch.hypot"),
        sentence='Each side gets its share of the length, a/y and b/y: the unit vector to (a, b).',
    ),
    binary(
        "logaddexp", description="Elementwise log(e^a + e^b), computed stably: a smooth maximum.",
        derivative=r"\frac{\partial y}{\partial a} = \sigma(a - b),\quad "
                   r"\frac{\partial y}{\partial b} = \sigma(b - a)",
        torch=torch_code.call("torch.logaddexp"),
        sentence='The larger operand gets most of the gradient; the two shares always sum to 1.',
    ),
    binary(
        "logaddexp2", description="Elementwise log2(2^a + 2^b), computed stably.",
        derivative=r"\frac{\partial y}{\partial a} = \frac{2^a}{2^a + 2^b},\quad "
                   r"\frac{\partial y}{\partial b} = \frac{2^b}{2^a + 2^b}",
        torch=torch_code.call("torch.logaddexp2"),
        sentence='As logaddexp in base 2: the shares 2^a/(2^a + 2^b) and 2^b/(2^a + 2^b) sum to 1.',
    ),
    binary(
        "xlogy", description="Elementwise a·log(b), and 0 where a = 0 (so 0·log 0 = 0).",
        derivative=r"\frac{\partial y}{\partial a} = \log b,\quad \frac{\partial y}{\partial b} = "
                   r"\frac{a}{b}",
        torch=torch_code.call("torch.xlogy"),
        sentence=(
            'The weight a gets log b, the argument b gets a/b; where a = 0 and b ≤ 0 the weight '
            'gets 0, as in PyTorch, so entropy terms 0·log 0 pass no NaN back.'
        ),
    ),
    unary(
        "erfinv", description="Elementwise inverse error function, for -1 <= x <= 1.",
        derivative=r"\frac{dy}{dx} = \frac{\sqrt{\pi}}{2}\,e^{y^2}",
        sentence='erfinv undoes erf: its slope √π/2·e^(y²) is √π/2 at 0 and infinite at ±1.',
    ),
    unary(
        "lgamma",
        description="Elementwise log |Γ(x)|, the log of the gamma function (x! = Γ(x + 1)).",
        derivative=r"\frac{dy}{dx} = \psi(x)",
        sentence=(
            'The slope of log Γ is the digamma function ψ: negative below x ≈ 1.46, where Γ has '
            'its minimum, positive above.'
        ),
    ),
    unary(
        "digamma", description="Elementwise digamma ψ(x), the derivative of log Γ(x).",
        derivative=r"\frac{dy}{dx} = \psi^{(1)}(x)",
        sentence=(
            'The slope of digamma is trigamma ψ⁽¹⁾, positive everywhere: ψ always rises between '
            'its poles.'
        ),
    ),
    binary(
        "fmod", description="Elementwise remainder of a / b with the sign of a (C's fmod).",
        derivative=r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = "
                   r"-\operatorname{trunc}(a / b)",
        torch=torch_code.call("torch.fmod"),
        sentence=(
            'a - trunc(a/b)·b: between jumps the remainder moves with a one to one, and with b '
            'by minus the whole quotient.'
        ),
    ),
    binary(
        "remainder", description="Elementwise remainder of a / b with the sign of b (Python's %).",
        derivative=r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = "
                   r"-\lfloor a / b \rfloor",
        torch=torch_code.call("torch.remainder"),
        sentence=(
            'a - floor(a/b)·b: between jumps the remainder moves with a one to one, and with b '
            'by minus the floored quotient.'
        ),
    ),
)
