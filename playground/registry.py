"""Every op the playground offers, described once.

An entry says how many operands the op takes, which attributes it has (type, default), what it
does in one line, its local derivative as LaTeX (for teaching), how to apply it with the engine
and how PyTorch writes it. Parser, validator, evaluator, export and pages all read this table:
an op the engine has (its Function class in ``autograd/ops``) reaches the playground through one
entry here.

Attribute values are kept in a canonical form (tuples, floats, no entries equal to the default),
so two specs that mean the same thing compare equal and ``apply(*tensors, **attrs)`` just works.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

import autograd as ag
from autograd.nn import functional as F

from . import limits, torch_code
from .errors import SpecError
from .torch_code import TorchCode


@dataclass(frozen=True)
class Attr:
    """One attribute of an op; ``type`` is a key of ``ATTR_TYPES``. ``suggested``, when not
    None, is the value a form offers first, for an attribute whose default alone would not make
    a useful node (clip's bounds)."""

    name: str
    type: str
    default: object = None
    required: bool = False
    suggested: object = None


@dataclass(frozen=True)
class OpInfo:
    """One op: ``arity`` is its operand count, or None for "one or more" (stack, concatenate).

    ``symbol`` is its operator in the expression language ("+", "@", unary "-"), if it has one;
    ``example`` is a call a student can copy; ``apply(*tensors, **attrs)`` runs it with the engine;
    ``torch`` is how the PyTorch export writes it; ``sentence`` says in plain words what the
    local derivative does, for the Gradients and Step through pages.
    ``needs_one_of`` names attributes of which at least one must be given (clip: min or max).
    """

    name: str
    arity: int | None
    attrs: tuple[Attr, ...]
    description: str
    derivative: str
    apply: Callable
    example: str
    torch: TorchCode
    symbol: str | None = None
    needs_one_of: tuple[str, ...] = ()
    sentence: str = ""

    def attr(self, name: str) -> Attr | None:
        """The attribute called ``name``, or None."""
        return next((a for a in self.attrs if a.name == name), None)

    def arity_text(self) -> str:
        """The operand count in words, for messages: "2 operands", "one or more operands"."""
        if self.arity is None:
            return "one or more operands"
        return "1 operand" if self.arity == 1 else f"{self.arity} operands"


# ---------------------------------------------------------------------------------------------
# Attribute types: each turns a value into its canonical form or raises ValueError saying why.


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _dim(value) -> int:
    if not _is_int(value):
        raise ValueError("must be a whole number such as 0 or -1")
    if abs(value) > limits.MAX_NDIM:
        raise ValueError(f"must lie between -{limits.MAX_NDIM} and {limits.MAX_NDIM}")
    return value


def _ints(value, what: str) -> tuple[int, ...]:
    if _is_int(value):
        return (value,)
    if not isinstance(value, list | tuple) or not all(_is_int(v) for v in value):
        raise ValueError(f"must be {what}")
    return tuple(value)


def _axis(value):
    if value is None:
        return None
    if _is_int(value):
        return _dim(value)
    axes = _ints(value, "None, a whole number or a tuple of them, such as 0 or (0, 1)")
    if len(axes) > limits.MAX_NDIM:
        raise ValueError(f"lists more than {limits.MAX_NDIM} axes")
    return tuple(_dim(a) for a in axes)


def _axes(value):
    if value is None:
        return None
    axes = _ints(value, "None or a tuple of axes such as (1, 0)")
    if len(axes) > limits.MAX_NDIM:
        raise ValueError(f"lists more than {limits.MAX_NDIM} axes")
    return tuple(_dim(a) for a in axes)


def _shape(value) -> tuple[int, ...]:
    shape = _ints(value, "a tuple of sizes such as (2, 3)")
    if len(shape) > limits.MAX_NDIM:
        raise ValueError(f"has more than {limits.MAX_NDIM} dimensions")
    if any(n < 1 and n != -1 for n in shape) or shape.count(-1) > 1:
        raise ValueError("must hold sizes of at least 1 (and at most one -1, meaning 'the rest')")
    if math.prod(n for n in shape if n > 0) > limits.MAX_ELEMENTS:
        raise ValueError(f"has more than {limits.MAX_ELEMENTS:,} elements")
    return shape


def _index(value) -> tuple[int, ...]:
    index = _ints(value, "a whole number or a tuple of them, such as 0 or (1, 2)")
    if not index or len(index) > limits.MAX_NDIM:
        raise ValueError(f"must hold between 1 and {limits.MAX_NDIM} whole numbers")
    if any(abs(i) > limits.MAX_ELEMENTS for i in index):
        raise ValueError("holds a position far outside any tensor")
    return index


def _float(value) -> float:
    if not _is_number(value):
        raise ValueError("must be a number such as 0.1")
    value = float(value) if abs(value) < 1e308 else math.inf
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


def _optional_float(value):
    return None if value is None else _float(value)


def _bool(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be True or False")
    return value


ATTR_TYPES: Mapping[str, Callable] = {
    "dim": _dim,
    "axis": _axis,
    "axes": _axes,
    "shape": _shape,
    "index": _index,
    "float": _float,
    "optional_float": _optional_float,
    "bool": _bool,
}
"""Attribute type name -> function returning the canonical value or raising ValueError."""


def canonical_attrs(info: OpInfo, attrs: Mapping) -> dict:
    """``attrs`` checked against ``info`` and made canonical; entries equal to the default go.

    Raises SpecError naming the op and the attribute; callers add the node or line.
    """
    if not isinstance(attrs, Mapping):
        raise SpecError(f"the attributes of {info.name} must be a mapping of names to values")
    out = {}
    for key, value in attrs.items():
        attr = info.attr(key) if isinstance(key, str) else None
        if attr is None:
            known = ", ".join(a.name for a in info.attrs) or "none"
            raise SpecError(
                f"{info.name} has no attribute `{str(key)[:40]}` (its attributes: {known}); "
                f"for example {info.example}"
            )
        try:
            value = ATTR_TYPES[attr.type](value)
        except ValueError as err:
            raise SpecError(
                f"attribute `{key}` of {info.name} {err}; got {_short(value)}"
            ) from None
        if value != attr.default or type(value) is not type(attr.default):
            out[key] = value
    for attr in info.attrs:
        if attr.required and attr.name not in out:
            raise SpecError(
                f"{info.name} needs the attribute `{attr.name}`, for example {info.example}"
            )
    if info.needs_one_of and not any(out.get(name) is not None for name in info.needs_one_of):
        names = " and ".join(f"`{name}`" for name in info.needs_one_of)
        raise SpecError(f"{info.name} needs at least one of {names}, for example {info.example}")
    return out


def _short(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------------
# The ops.

_AXIS = Attr("axis", "axis", None)
_KEEPDIMS = Attr("keepdims", "bool", False)
_LAST = Attr("axis", "dim", -1)


def _binary(name, symbol, description, derivative, torch, sentence):
    """An elementwise op of two operands, applied as ``autograd.<name>``."""
    example = f"a {symbol} b" if symbol else f"{name}(a, b)"
    return OpInfo(name, 2, (), description, derivative, getattr(ag, name), example, torch,
                  symbol, sentence=sentence)


def _unary(name, description, derivative, sentence):
    """An elementwise op of one operand: ``autograd.<name>``, written ``torch.<name>``."""
    return OpInfo(name, 1, (), description, derivative, getattr(ag, name), f"{name}(x)",
                  torch_code.call(f"torch.{name}"), sentence=sentence)


def _reduction(name, description, derivative, torch_name, sentence):
    """A reduction over all axes or the given ones: ``autograd.<name>(x, axis, keepdims)``."""
    return OpInfo(name, 1, (_AXIS, _KEEPDIMS), description, derivative, getattr(ag, name),
                  f"{name}(x, axis=0)", torch_code.reduction(torch_name), sentence=sentence)


def _shape_op(name, attrs, description, apply, example, torch, sentence):
    """A shape op: it moves elements, so its gradient moves them back."""
    return OpInfo(name, 1, attrs, description,
                  r"\bar{x} = \operatorname{reshape}(\bar{y},\ \operatorname{shape}(x))", apply,
                  example, torch, sentence=sentence)


def _class_indices(target) -> np.ndarray:
    """A graph's float target, such as [0.0, 2.0], as the integer class indices F expects."""
    labels = np.asarray(target.data, dtype=np.float64)
    if not np.array_equal(labels, np.round(labels)):
        raise ValueError(
            "cross_entropy: the target must hold whole-number class indices such as [0, 2, 1]"
        )
    return labels.astype(np.int64)


def _permutation(axes, ndim: int) -> tuple[int, ...]:
    """The full permutation ``transpose`` applies (the rule is in ``autograd.transpose``)."""
    order = list(range(ndim))
    if axes is None:
        axes = (-1, -2) if ndim >= 2 else ()
    if len(axes) == 2:
        i, j = (a % ndim for a in axes)
        order[i], order[j] = order[j], order[i]
        return tuple(order)
    return tuple(a % ndim for a in axes) if axes else tuple(order)


def _torch_transpose(x, a, n):
    return f"{x[0]}.permute{_permutation(a['axes'], n[0])}"


def _torch_squeeze(x, a, n):
    axis = "" if a["axis"] is None else f", {a['axis']!r}"
    return f"torch.squeeze({x[0]}{axis})"


def _torch_clip(x, a, n):
    bounds = [f"{k}={a[k]!r}" for k in ("min", "max") if a[k] is not None]
    return f"torch.clamp({x[0]}, {', '.join(bounds)})"


def _index_text(index) -> str:
    return ", ".join(str(i) for i in index)


_ENTRIES = (
    _binary(
        "add", "+", "Elementwise sum a + b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = 1",
        torch_code.infix("+"),
        sentence=(
            'Addition passes the gradient through unchanged to both operands; where an operand '
            'was broadcast, its gradient is summed over the copies.'
        ),
    ),
    _binary(
        "sub", "-", "Elementwise difference a - b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = -1",
        torch_code.infix("-"),
        sentence=(
            'Subtraction passes the gradient to the first operand unchanged and to the second '
            'with its sign flipped.'
        ),
    ),
    _binary(
        "mul", "*", "Elementwise product a * b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = b,\quad \frac{\partial y}{\partial b} = a",
        torch_code.infix("*"),
        sentence=(
            "Each factor's gradient is the upstream gradient times the other factor: nudging a "
            'moves a*b by b.'
        ),
    ),
    _binary(
        "div", "/", "Elementwise quotient a / b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = \frac{1}{b},\quad "
        r"\frac{\partial y}{\partial b} = -\frac{a}{b^2}",
        torch_code.infix("/"),
        sentence=(
            "Dividing by b scales a's gradient by 1/b; b's gradient is -a/b², so small "
            'denominators make large gradients.'
        ),
    ),
    _binary(
        "pow", "**", "Elementwise power a ** b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = b\,a^{b-1},\quad "
        r"\frac{\partial y}{\partial b} = a^{b} \ln a",
        torch_code.infix("**"),
        sentence=(
            'The power rule b·a^(b-1) for the base; for the exponent a^b·ln a, which needs a > 0.'
        ),
    ),
    _binary(
        "matmul", "@", "Matrix product a @ b (vectors and stacks of matrices too).",
        r"\bar{A} = \bar{Y} B^{\top},\quad \bar{B} = A^{\top} \bar{Y}",
        torch_code.infix("@"),
        sentence=(
            "A matrix product's gradient is another matrix product: the upstream gradient times "
            'the other operand, transposed.'
        ),
    ),
    OpInfo(
        "neg", 1, (), "Negation -x.", r"\frac{\partial y}{\partial x} = -1",
        ag.neg, "-x", torch_code.code(lambda x, a, n: f"-{x[0]}"), "-",
        sentence='Negation flips the sign of the gradient.',
    ),
    _unary("exp", "Elementwise e to the power x.", r"\frac{dy}{dx} = e^{x}",
        sentence='exp is its own derivative: the gradient is scaled by the output itself.',
    ),
    _unary("log", "Elementwise natural logarithm.", r"\frac{dy}{dx} = \frac{1}{x}",
        sentence='log grows ever more slowly: its slope 1/x is steep near 0 and flat for large x.',
    ),
    _unary("square", "Elementwise x * x.", r"\frac{dy}{dx} = 2x",
        sentence=(
            'Squaring doubles and scales: the slope of x² is 2x, zero at the bottom of the '
            'parabola.'
        ),
    ),
    _unary("sqrt", "Elementwise square root.", r"\frac{dy}{dx} = \frac{1}{2\sqrt{x}}",
        sentence='sqrt rises steeply near 0: its slope 1/(2√x) becomes infinite at 0.',
    ),
    _unary("abs", "Elementwise absolute value.", r"\frac{dy}{dx} = \operatorname{sign}(x)",
        sentence=(
            'abs has slope -1 left of 0 and +1 right of it; at the kink the engine uses 0, as '
            'PyTorch does.'
        ),
    ),
    _unary("sign", "Elementwise sign: -1, 0 or 1.", r"\frac{dy}{dx} = 0",
        sentence=(
            'sign is flat everywhere except its jump at 0, so its gradient is 0: nothing flows '
            'back through it.'
        ),
    ),
    _unary("sin", "Elementwise sine.", r"\frac{dy}{dx} = \cos x",
        sentence='The slope of sin is cos: largest at 0, zero at the peaks.',
    ),
    _unary("cos", "Elementwise cosine.", r"\frac{dy}{dx} = -\sin x",
        sentence='The slope of cos is -sin: zero at 0, where cos peaks.',
    ),
    _unary(
        "tanh", "Elementwise hyperbolic tangent, squashing to (-1, 1).",
        r"\frac{dy}{dx} = 1 - \tanh^2 x",
        sentence=(
            'tanh squashes to (-1, 1); its slope is 1 - tanh², so it stops passing gradient when '
            'saturated.'
        ),
    ),
    _unary(
        "sigmoid", "Elementwise logistic function 1 / (1 + e^-x), squashing to (0, 1).",
        r"\frac{dy}{dx} = \sigma(x)\,\bigl(1 - \sigma(x)\bigr)",
        sentence=(
            'sigmoid squashes to (0, 1); its slope σ(1-σ) is at most 1/4, at 0, and vanishes in '
            'the tails.'
        ),
    ),
    _unary("relu", "Elementwise max(x, 0).", r"\frac{dy}{dx} = \mathbb{1}[x > 0]",
        sentence='relu passes the gradient where its input was positive and blocks it elsewhere.',
    ),
    OpInfo(
        "leaky_relu", 1, (Attr("negative_slope", "float", 0.01),),
        "Elementwise x for x > 0, negative_slope * x otherwise.",
        r"\frac{dy}{dx} = \begin{cases} 1 & x > 0 \\ \alpha & x \le 0 \end{cases}",
        ag.leaky_relu, "leaky_relu(x, negative_slope=0.1)",
        torch_code.call("F.leaky_relu", negative_slope="negative_slope"),
        sentence=(
            'leaky_relu passes the gradient where the input was positive and a small fraction of '
            'it elsewhere, so no unit goes silent.'
        ),
    ),
    OpInfo(
        "softmax", 1, (_LAST,), "Exponentials normalised to sum to 1 along an axis.",
        r"\frac{\partial y_i}{\partial x_j} = y_i\,(\delta_{ij} - y_j)",
        ag.softmax, "softmax(x, axis=-1)", torch_code.call("torch.softmax", dim="axis"),
        sentence=(
            'Raising one logit raises its own probability and lowers all others, because the '
            'probabilities must still sum to 1.'
        ),
    ),
    OpInfo(
        "log_softmax", 1, (_LAST,), "Logarithm of softmax, computed stably.",
        r"\frac{\partial y_i}{\partial x_j} = \delta_{ij} - \operatorname{softmax}(x)_j",
        ag.log_softmax, "log_softmax(x, axis=-1)",
        torch_code.call("torch.log_softmax", dim="axis"),
        sentence=(
            "Each output's gradient with respect to logit j is 1 for itself minus that logit's "
            'probability.'
        ),
    ),
    OpInfo(
        "logsumexp", 1, (_LAST, _KEEPDIMS),
        "Log of the sum of exponentials along an axis, computed stably.",
        r"\frac{\partial y}{\partial x_i} = \operatorname{softmax}(x)_i",
        ag.logsumexp, "logsumexp(x, axis=-1)",
        torch_code.call("torch.logsumexp", dim="axis", keepdim="keepdims"),
        sentence=(
            'A smooth maximum: its gradient is the softmax of the inputs, most weight on the '
            'largest.'
        ),
    ),
    _reduction(
        "sum", "Sum of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = 1", "torch.sum",
        sentence='Every element counts once in a sum, so each receives the full upstream gradient.',
    ),
    _reduction(
        "mean", "Mean of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \frac{1}{n}", "torch.mean",
        sentence=(
            'Every element counts 1/n in a mean, so each receives the upstream gradient divided '
            'by n.'
        ),
    ),
    _reduction(
        "max", "Largest element, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}",
        "torch.amax",
        sentence=(
            'Only the largest element affects the max, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
    _reduction(
        "min", "Smallest element, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}",
        "torch.amin",
        sentence=(
            'Only the smallest element affects the min, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
    _shape_op(
        "reshape", (Attr("shape", "shape", None, required=True),),
        "The same elements in a new shape; -1 stands for 'the rest'.",
        lambda x, shape: ag.reshape(x, *shape), "reshape(x, shape=(2, 3))",
        torch_code.code(lambda x, a, n: f"{x[0]}.reshape{tuple(a['shape'])}"),
        sentence=(
            "Reshaping moves no values, so the gradient is reshaped back to the input's shape."
        ),
    ),
    OpInfo(
        "transpose", 1, (Attr("axes", "axes", None),),
        "The last two axes swapped; or the two axes given swapped, or all axes permuted.",
        r"\bar{x} = \operatorname{transpose}(\bar{y},\ \text{inverse permutation})",
        lambda x, axes=None: ag.transpose(x, *(axes or ())), "transpose(x, axes=(1, 0))",
        torch_code.code(_torch_transpose),
        sentence=(
            'Transposing moves values around; the gradient is moved back by the inverse '
            'permutation.'
        ),
    ),
    _shape_op(
        "flatten", (), "All elements in one row (a 1-D tensor).",
        lambda x: ag.flatten(x), "flatten(x)", torch_code.call("torch.flatten"),
        sentence=(
            "Flattening moves no values, so the gradient is reshaped back to the input's shape."
        ),
    ),
    _shape_op(
        "squeeze", (_AXIS,), "Axes of size 1 removed (all of them, or the given ones).",
        ag.squeeze, "squeeze(x, axis=0)", torch_code.code(_torch_squeeze),
        sentence='Removing size-1 axes moves no values, so the gradient is reshaped back.',
    ),
    _shape_op(
        "unsqueeze", (Attr("axis", "dim", None, required=True),),
        "A new axis of size 1 inserted at the given position.",
        ag.unsqueeze, "unsqueeze(x, axis=0)",
        torch_code.code(lambda x, a, n: f"{x[0]}.unsqueeze({a['axis']})"),
        sentence='Adding a size-1 axis moves no values, so the gradient is reshaped back.',
    ),
    OpInfo(
        "broadcast_to", 1, (Attr("shape", "shape", None, required=True),),
        "The tensor repeated along new or size-1 axes to fill the given shape.",
        r"\bar{x} = \textstyle\sum_{\text{broadcast axes}} \bar{y}",
        ag.broadcast_to, "broadcast_to(x, shape=(3, 2))",
        torch_code.code(lambda x, a, n: f"{x[0]}.broadcast_to({tuple(a['shape'])})"),
        sentence=(
            'An element copied n times contributes n times, so its gradient is the sum over its '
            'copies.'
        ),
    ),
    OpInfo(
        "index", 1, (Attr("index", "index", None, required=True),),
        "One element or sub-tensor picked by whole-number positions, as in x[0] or x[1, 2].",
        r"\bar{x}[i] = \bar{y},\ \text{zero elsewhere}",
        lambda x, index: x[index], "x[0]",
        torch_code.code(lambda x, a, n: f"{x[0]}[{_index_text(a['index'])}]"),
        sentence=(
            'Only the picked elements affected the output, so they get the gradient and the rest '
            'get 0.'
        ),
    ),
    OpInfo(
        "stack", None, (Attr("axis", "dim", 0),),
        "Tensors of one shape joined along a new axis; [a, b] in an expression.",
        r"\bar{x}_k = \bar{y}[k]\ \text{along the new axis}",
        lambda *xs, axis=0: ag.stack(xs, axis=axis), "stack(a, b, axis=0)",
        torch_code.code(lambda x, a, n: f"torch.stack([{', '.join(x)}], dim={a['axis']})"),
        sentence=(
            'Each operand filled one slice of the stack, so it gets that slice of the gradient '
            'back.'
        ),
    ),
    OpInfo(
        "concatenate", None, (Attr("axis", "dim", 0),),
        "Tensors joined end to end along an existing axis.",
        r"\bar{x}_k = \text{the slice of } \bar{y} \text{ that } x_k \text{ filled}",
        lambda *xs, axis=0: ag.concatenate(xs, axis=axis), "concatenate(a, b, axis=0)",
        torch_code.code(lambda x, a, n: f"torch.cat([{', '.join(x)}], dim={a['axis']})"),
        sentence=(
            'Each operand filled one stretch of the result, so it gets that stretch of the '
            'gradient back.'
        ),
    ),
    _binary(
        "maximum", None, "Elementwise larger of a and b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = \mathbb{1}[a > b],\quad "
        r"\frac{\partial y}{\partial b} = \mathbb{1}[b > a]\ \text{(ties shared)}",
        torch_code.call("torch.maximum"),
        sentence=(
            'Whichever operand was larger gets the gradient; the other gets 0 (ties share it).'
        ),
    ),
    _binary(
        "minimum", None, "Elementwise smaller of a and b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = \mathbb{1}[a < b],\quad "
        r"\frac{\partial y}{\partial b} = \mathbb{1}[b < a]\ \text{(ties shared)}",
        torch_code.call("torch.minimum"),
        sentence=(
            'Whichever operand was smaller gets the gradient; the other gets 0 (ties share it).'
        ),
    ),
    OpInfo(
        "clip", 1,
        (
            Attr("min", "optional_float", None, suggested=0.0),
            Attr("max", "optional_float", None, suggested=1.0),
        ),
        "Elementwise x limited to the range [min, max]; a missing bound means no limit.",
        r"\frac{dy}{dx} = \mathbb{1}[\min \le x \le \max]",
        ag.clip, "clip(x, min=0.0, max=1.0)", torch_code.code(_torch_clip),
        needs_one_of=("min", "max"),
        sentence=(
            'Inside the range clip passes the gradient; where it clipped, the output did not '
            'move, so the gradient is 0.'
        ),
    ),
    OpInfo(
        "where", 3, (),
        "Elementwise choice: x where the condition c is nonzero, else y.",
        r"\frac{\partial y}{\partial x} = \mathbb{1}[c \ne 0],\quad "
        r"\frac{\partial y}{\partial y_0} = \mathbb{1}[c = 0]",
        lambda c, x, y: ag.where(c.data != 0, x, y), "where(c, x, y)",
        torch_code.code(lambda x, a, n: f"torch.where({x[0]} != 0, {x[1]}, {x[2]})"),
        sentence=(
            'The chosen operand gets the gradient at each position; the one not chosen gets 0.'
        ),
    ),
    OpInfo(
        "linear", 3, (),
        "A layer's affine map x @ W.T + b, with W of shape (out, in), as in nn.Linear.",
        r"\bar{x} = \bar{y} W,\quad \bar{W} = \bar{y}^{\top} x,\quad "
        r"\bar{b} = \textstyle\sum_{\text{rows}} \bar{y}",
        F.linear, "linear(x, W, b)", torch_code.call("F.linear"),
        sentence=(
            "A layer's weight gradient is the upstream gradient times the input, summed over the "
            'batch; the bias gets the upstream gradient summed.'
        ),
    ),
    OpInfo(
        "mse_loss", 2, (), "Mean of squared differences (pred - target)^2.",
        r"\frac{\partial L}{\partial p_i} = \frac{2\,(p_i - t_i)}{n}",
        F.mse_loss, "mse_loss(pred, target)", torch_code.call("F.mse_loss"),
        sentence=(
            'The gradient points from the target to the prediction, twice the error divided by '
            'the count.'
        ),
    ),
    OpInfo(
        "cross_entropy", 2, (),
        "Mean softmax cross-entropy of logits (N, C) against class indices (N,) such as [0, 2].",
        r"\frac{\partial L}{\partial z_{ij}} = \frac{\operatorname{softmax}(z)_{ij} - "
        r"\mathbb{1}[j = t_i]}{N}",
        lambda logits, target: F.cross_entropy(logits, _class_indices(target)),
        "cross_entropy(logits, target)",
        torch_code.code(lambda x, a, n: f"F.cross_entropy({x[0]}, {x[1]}.long())", "F"),
        sentence=(
            'Softmax and cross-entropy together give the famously simple gradient p - y: '
            'predicted minus true probabilities.'
        ),
    ),
    OpInfo(
        "binary_cross_entropy", 2, (),
        "Mean cross-entropy of probabilities p in [0, 1] against targets t in [0, 1].",
        r"\frac{\partial L}{\partial p_i} = \frac{p_i - t_i}{p_i\,(1 - p_i)\,n}",
        F.binary_cross_entropy, "binary_cross_entropy(p, target)",
        torch_code.call("F.binary_cross_entropy"),
        sentence=(
            'The gradient (p - t) / (p(1 - p)) grows without bound as a confident prediction '
            'turns out wrong.'
        ),
    ),
)

OPS: Mapping[str, OpInfo] = {info.name: info for info in _ENTRIES}
"""Op name -> OpInfo, in a teaching order (arithmetic, activations, reductions, shapes, losses)."""

OPERATORS: Mapping[tuple[str, int], str] = {
    (info.symbol, info.arity): info.name for info in _ENTRIES if info.symbol
}
"""(operator symbol, operand count) -> op name, e.g. ("-", 1) -> "neg", ("-", 2) -> "sub"."""


def get(name: str) -> OpInfo:
    """The op called ``name``; SpecError listing similar names when there is none."""
    info = OPS.get(name)
    if info is None:
        raise SpecError(f"unknown op `{str(name)[:40]}`; {suggest(name)}")
    return info


def suggest(name) -> str:
    """A hint for an unknown op name: the closest known names, or where the list is."""
    close = difflib.get_close_matches(str(name), list(OPS), n=3) if isinstance(name, str) else []
    if close:
        return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    return "the ops are: " + ", ".join(OPS)
