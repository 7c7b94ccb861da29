"""Registry entries: reduce."""

from numpy.lib.array_utils import normalize_axis_tuple

import autograd as ag

from .. import torch_code
from . import rules
from .entry import AXIS, KEEPDIMS, LAST, Attr, OpInfo, reduction


def _softmax(x, axis=-1):
    """The expression language's softmax: the last axis unless told (its documented default;
    the engine's softmax, as PyTorch's, asks for dim)."""
    return ag.softmax(x, axis)


def _log_softmax(x, axis=-1):
    """log_softmax over the last axis unless told (see _softmax)."""
    return ag.log_softmax(x, axis)


def _logsumexp_shape(shapes, attrs):
    """A reduction over the last axis unless told."""
    return rules.reduced(shapes, {"axis": attrs.get("axis", -1), "keepdims": attrs.get("keepdims")})


ENTRIES = (
    OpInfo(
        "softmax", arity=1, attrs=(LAST,),
        description="Exponentials normalised to sum to 1 along an axis.",
        derivative=r"\frac{\partial y_i}{\partial x_j} = y_i\,(\delta_{ij} - y_j)", apply=_softmax,
        example="softmax(x, axis=-1)", torch=torch_code.call("torch.softmax", dim="axis"),
        shape=rules.same,
        sentence=(
            'Raising one logit raises its own probability and lowers all others, because the '
            'probabilities must still sum to 1.'
        ),
    ),
    OpInfo(
        "log_softmax", arity=1, attrs=(LAST,), description="Logarithm of softmax, computed stably.",
        derivative=r"\frac{\partial y_i}{\partial x_j} = \delta_{ij} - \operatorname{softmax}(x)_j",
        apply=_log_softmax, example="log_softmax(x, axis=-1)",
        torch=torch_code.call("torch.log_softmax", dim="axis"), shape=rules.same,
        sentence=(
            "Each output's gradient with respect to logit j is 1 for itself minus that logit's "
            'probability.'
        ),
    ),
    OpInfo(
        "logsumexp", arity=1, attrs=(LAST, KEEPDIMS),
        description="Log of the sum of exponentials along an axis, computed stably.",
        derivative=r"\frac{\partial y}{\partial x_i} = \operatorname{softmax}(x)_i",
        apply=ag.logsumexp, example="logsumexp(x, axis=-1)",
        torch=torch_code.call("torch.logsumexp", dim="axis", keepdim="keepdims"),
        shape=_logsumexp_shape,
        sentence=(
            'A smooth maximum: its gradient is the softmax of the inputs, most weight on the '
            'largest.'
        ),
    ),
    reduction(
        "sum", description="Sum of the elements, over all axes or the given ones.",
        derivative=r"\frac{\partial y}{\partial x_i} = 1", torch_name="torch.sum",
        sentence='Every element counts once in a sum, so each receives the full upstream gradient.',
    ),
    reduction(
        "mean", description="Mean of the elements, over all axes or the given ones.",
        derivative=r"\frac{\partial y}{\partial x_i} = \frac{1}{n}", torch_name="torch.mean",
        sentence=(
            'Every element counts 1/n in a mean, so each receives the upstream gradient divided '
            'by n.'
        ),
    ),
    reduction(
        "max", description="Largest element, over all axes or the given ones.",
        derivative=(
            r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}"
        ),
        torch_name="torch.amax",
        sentence=(
            'Only the largest element affects the max, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
    reduction(
        "min", description="Smallest element, over all axes or the given ones.",
        derivative=(
            r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}"
        ),
        torch_name="torch.amin",
        sentence=(
            'Only the smallest element affects the min, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
)


CORRECTION = Attr("correction", "float", 1.0)


def _spread(name):
    """var or std with PyTorch's keywords: dim, correction (1 unless given), keepdim."""
    fn = getattr(ag, name)

    def apply(x, axis=None, correction=1.0, keepdims=False):
        return fn(x, axis, keepdims=keepdims, correction=correction)

    return apply


def _torch_spread(name):
    return torch_code.code(lambda x, a, n: f"torch.{name}({x[0]}, dim={a['axis']!r}, "
                                           f"correction={a['correction']!r}, "
                                           f"keepdim={a['keepdims']!r})")


def _torch_prod(x, a, n):
    """torch.prod takes one dim: several are reduced one after another, the last first."""
    axis, keepdims = a["axis"], a["keepdims"]
    if axis is None:
        whole = f"torch.prod({x[0]})"
        return f"{whole}.reshape({(1,) * n[0]})" if keepdims else whole
    axes = sorted({d % max(n[0], 1) for d in (axis if isinstance(axis, tuple) else (axis,))},
                  reverse=True)
    return x[0] + "".join(f".prod(dim={d}, keepdim={keepdims})" for d in axes)


def _norm_p(p):
    """The registry's p ("fro", a number, "inf" or "-inf") as autograd.norm takes it."""
    return float(p) if p in ("inf", "-inf") else p


def _torch_norm(x, a, n):
    p = a["p"]
    p = f"float({p!r})" if p in ("inf", "-inf") else repr(p)
    return f"torch.norm({x[0]}, p={p}, dim={a['axis']!r}, keepdim={a['keepdims']!r})"


def _cumsum_shape(shapes, attrs):
    """A running reduction along ``axis`` keeps the input's shape."""
    normalize_axis_tuple((attrs["axis"],), max(len(shapes[0]), 1))
    return shapes[0]


ENTRIES += (
    OpInfo(
        "var", arity=1, attrs=(AXIS, CORRECTION, KEEPDIMS),
        description="Variance: mean squared distance from the mean, divided by N - correction.",
        derivative=r"\frac{\partial y}{\partial x_i} = \frac{2\,(x_i - \mu)}{N - c}",
        apply=_spread("var"), example="var(x, axis=0)", torch=_torch_spread("var"),
        shape=rules.reduced,
        sentence=(
            "Elements far from the mean move the variance most: the gradient is twice the "
            "distance from the mean, over N - c."
        ),
    ),
    OpInfo(
        "std", arity=1, attrs=(AXIS, CORRECTION, KEEPDIMS),
        description="Standard deviation: the square root of the variance (N - correction in it).",
        derivative=r"\frac{\partial y}{\partial x_i} = \frac{x_i - \mu}{(N - c)\, y}",
        apply=_spread("std"), example="std(x, axis=0)", torch=_torch_spread("std"),
        shape=rules.reduced,
        sentence=(
            "The gradient is each element's distance from the mean, over (N - c) times the "
            "standard deviation (0 where it is 0)."
        ),
    ),
    OpInfo(
        "prod", arity=1, attrs=(AXIS, KEEPDIMS),
        description="Product of the elements, over all axes or the given ones.",
        derivative=r"\frac{\partial y}{\partial x_i} = \textstyle\prod_{j \neq i} x_j",
        apply=ag.prod, example="prod(x, axis=0)", torch=torch_code.code(_torch_prod),
        shape=rules.reduced,
        sentence=(
            "Each element's gradient is the product of all the others, so with one zero only "
            "that zero gets a gradient."
        ),
    ),
    OpInfo(
        "norm", arity=1, attrs=(Attr("p", "norm_p", "fro"), AXIS, KEEPDIMS),
        description=(
            "The p-norm (default: the 2-norm of all elements), over all axes or the given ones."
        ),
        derivative=(
            r"\frac{\partial y}{\partial x_i} = \frac{\operatorname{sign}(x_i)\,|x_i|^{p-1}}"
            r"{y^{p-1}}\quad (p = 2:\ x_i / y)"
        ),
        apply=lambda x, p="fro", axis=None, keepdims=False: ag.norm(x, _norm_p(p), axis, keepdims),
        example="norm(x, p=2)", torch=torch_code.code(_torch_norm), shape=rules.reduced,
        sentence=(
            "The 2-norm's gradient is x over its length: the unit vector pointing away from 0 "
            "(0 at 0 itself)."
        ),
    ),
    OpInfo(
        "cumsum", arity=1, attrs=(Attr("axis", "dim", None, required=True),),
        description="Running sums along an axis: y_i = x_0 + ... + x_i.",
        derivative=r"\bar{x}_j = \textstyle\sum_{i \geq j} \bar{y}_i", apply=ag.cumsum,
        example="cumsum(x, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.cumsum({x[0]}, dim={a['axis']})"),
        shape=_cumsum_shape,
        sentence=(
            "Each element counts in every running sum from its place on, so it collects all "
            "their upstream gradients."
        ),
    ),
)

def _quantile(x, q=0.5, axis=None, keepdims=False):
    """quantile with the registry's names (q a number here)."""
    return ag.quantile(x, q, axis, keepdims)


def _torch_quantile(x, a, n):
    return (f"torch.quantile({x[0]}, {a['q']!r}, dim={a['axis']!r}, "
            f"keepdim={a['keepdims']!r})")


def _diff_shape(shapes, attrs):
    shape = list(shapes[0])
    (axis,) = normalize_axis_tuple((attrs.get("axis", -1),), len(shape))
    shape[axis] = max(shape[axis] - attrs.get("n", 1), 0)
    return tuple(shape)


def _running(name, *, description, derivative, sentence):
    """A running reduction along one axis, as cumsum: ``autograd.<name>(x, axis)``."""
    return OpInfo(
        name, arity=1, attrs=(Attr("axis", "dim", None, required=True),), description=description,
        derivative=derivative, apply=getattr(ag, name), example=f"{name}(x, axis=0)",
        torch=torch_code.code(lambda x, a, n: f"torch.{name}({x[0]}, dim={a['axis']})"),
        shape=_cumsum_shape, sentence=sentence,
    )


ENTRIES += (
    _running(
        "cumprod", description="Running products along an axis: y_i = x_0 · ... · x_i.",
        derivative=(
            r"\bar{x}_j = \textstyle\sum_{i \geq j} \bar{y}_i \prod_{k \leq i,\, k \neq j} x_k"
        ),
        sentence=(
            "Each element multiplies every running product from its place on, so it collects "
            "their gradients times the other factors (exact with zeros)."
        ),
    ),
    _running(
        "logcumsumexp",
        description="Running log-sum-exp along an axis: y_i = log(e^x_0 + ... + e^x_i).",
        derivative=r"\bar{x}_j = \textstyle\sum_{i \geq j} \bar{y}_i\, e^{x_j - y_i}",
        sentence=(
            "Each running log-sum-exp passes its gradient back as a softmax over the elements "
            "so far, most to the largest."
        ),
    ),
    reduction(
        "nansum",
        description="Sum of the elements that are not NaN, over all axes or the given ones.",
        derivative=r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i \ne \mathrm{NaN}]",
        torch_name="torch.nansum",
        sentence="Every number counts once, NaN not at all: numbers get the full gradient, NaN 0.",
    ),
    reduction(
        "nanmean",
        description="Mean of the elements that are not NaN, over all axes or the given ones.",
        derivative=r"\frac{\partial y}{\partial x_i} = \frac{\mathbb{1}[x_i \ne \mathrm{NaN}]}{n}",
        torch_name="torch.nanmean",
        sentence=(
            "Each of the n numbers counts 1/n (NaN not at all), so each gets the gradient "
            "divided by n."
        ),
    ),
    OpInfo(
        "quantile", arity=1, attrs=(Attr("q", "float", 0.5), AXIS, KEEPDIMS),
        description=(
            "The q-th quantile (0.5: the median), linearly interpolated between sorted neighbours."
        ),
        derivative=r"\frac{\partial y}{\partial x_{(k)}} = 1 - w,\quad "
                   r"\frac{\partial y}{\partial x_{(k+1)}} = w,\quad k + w = q\,(n - 1)",
        apply=_quantile, example="quantile(x, q=0.25)", torch=torch_code.code(_torch_quantile),
        shape=rules.reduced,
        sentence=(
            "Only the two sorted neighbours of the quantile's position move it: they share the "
            "gradient as 1 - w and w."
        ),
    ),
    OpInfo(
        "diff", arity=1, attrs=(Attr("n", "count", 1), Attr("axis", "dim", -1)),
        description="Differences of neighbours along an axis, y_i = x_(i+1) - x_i, taken n times.",
        derivative=r"\bar{x}_j = \bar{y}_{j-1} - \bar{y}_j\quad (n = 1)",
        apply=lambda x, n=1, axis=-1: ag.diff(x, n, axis), example="diff(x, n=1, axis=-1)",
        torch=torch_code.code(lambda x, a, n: f"torch.diff({x[0]}, n={a['n']}, dim={a['axis']})"),
        shape=_diff_shape,
        sentence=(
            "Each element enters two differences, once with + and once with -, so it gets the "
            "difference of their gradients."
        ),
    ),
)
