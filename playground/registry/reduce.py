"""Registry entries: reduce."""

from numpy.lib.array_utils import normalize_axis_tuple

import autograd as ag

from .. import torch_code
from .entry import AXIS, KEEPDIMS, LAST, Attr, OpInfo, reduction


def _softmax(x, axis=-1):
    """The expression language's softmax: the last axis unless told (its documented default;
    the engine's softmax, as PyTorch's, asks for dim)."""
    return ag.softmax(x, axis)


def _log_softmax(x, axis=-1):
    """log_softmax over the last axis unless told (see _softmax)."""
    return ag.log_softmax(x, axis)


ENTRIES = (
    OpInfo(
        "softmax", 1, (LAST,), "Exponentials normalised to sum to 1 along an axis.",
        r"\frac{\partial y_i}{\partial x_j} = y_i\,(\delta_{ij} - y_j)",
        _softmax, "softmax(x, axis=-1)", torch_code.call("torch.softmax", dim="axis"),
        sentence=(
            'Raising one logit raises its own probability and lowers all others, because the '
            'probabilities must still sum to 1.'
        ),
    ),
    OpInfo(
        "log_softmax", 1, (LAST,), "Logarithm of softmax, computed stably.",
        r"\frac{\partial y_i}{\partial x_j} = \delta_{ij} - \operatorname{softmax}(x)_j",
        _log_softmax, "log_softmax(x, axis=-1)",
        torch_code.call("torch.log_softmax", dim="axis"),
        sentence=(
            "Each output's gradient with respect to logit j is 1 for itself minus that logit's "
            'probability.'
        ),
    ),
    OpInfo(
        "logsumexp", 1, (LAST, KEEPDIMS),
        "Log of the sum of exponentials along an axis, computed stably.",
        r"\frac{\partial y}{\partial x_i} = \operatorname{softmax}(x)_i",
        ag.logsumexp, "logsumexp(x, axis=-1)",
        torch_code.call("torch.logsumexp", dim="axis", keepdim="keepdims"),
        sentence=(
            'A smooth maximum: its gradient is the softmax of the inputs, most weight on the '
            'largest.'
        ),
    ),
    reduction(
        "sum", "Sum of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = 1", "torch.sum",
        sentence='Every element counts once in a sum, so each receives the full upstream gradient.',
    ),
    reduction(
        "mean", "Mean of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \frac{1}{n}", "torch.mean",
        sentence=(
            'Every element counts 1/n in a mean, so each receives the upstream gradient divided '
            'by n.'
        ),
    ),
    reduction(
        "max", "Largest element, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}",
        "torch.amax",
        sentence=(
            'Only the largest element affects the max, so it alone receives the gradient (ties '
            'share it).'
        ),
    ),
    reduction(
        "min", "Smallest element, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i = y]\ \text{(shared among ties)}",
        "torch.amin",
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


def _reduced(shapes, attrs, default=None):
    """The shape of a reduction over ``axis`` (all axes when None)."""
    shape, axis = shapes[0], attrs.get("axis", default)
    axes = range(len(shape)) if axis is None else normalize_axis_tuple(
        axis if isinstance(axis, tuple) else (axis,), max(len(shape), 1))
    if not shape:
        return ()
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else k for i, k in enumerate(shape))
    return tuple(k for i, k in enumerate(shape) if i not in axes)


def _cumsum_shape(shapes, attrs):
    normalize_axis_tuple((attrs["axis"],), max(len(shapes[0]), 1))
    return shapes[0]


ENTRIES += (
    OpInfo(
        "var", 1, (AXIS, CORRECTION, KEEPDIMS),
        "Variance: mean squared distance from the mean, divided by N - correction.",
        r"\frac{\partial y}{\partial x_i} = \frac{2\,(x_i - \mu)}{N - c}",
        _spread("var"), "var(x, axis=0)", _torch_spread("var"),
        sentence=(
            "Elements far from the mean move the variance most: the gradient is twice the "
            "distance from the mean, over N - c."
        ),
    ),
    OpInfo(
        "std", 1, (AXIS, CORRECTION, KEEPDIMS),
        "Standard deviation: the square root of the variance (N - correction in it).",
        r"\frac{\partial y}{\partial x_i} = \frac{x_i - \mu}{(N - c)\, y}",
        _spread("std"), "std(x, axis=0)", _torch_spread("std"),
        sentence=(
            "The gradient is each element's distance from the mean, over (N - c) times the "
            "standard deviation (0 where it is 0)."
        ),
    ),
    OpInfo(
        "prod", 1, (AXIS, KEEPDIMS), "Product of the elements, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \textstyle\prod_{j \neq i} x_j",
        ag.prod, "prod(x, axis=0)", torch_code.code(_torch_prod),
        sentence=(
            "Each element's gradient is the product of all the others, so with one zero only "
            "that zero gets a gradient."
        ),
    ),
    OpInfo(
        "norm", 1, (Attr("p", "norm_p", "fro"), AXIS, KEEPDIMS),
        "The p-norm (default: the 2-norm of all elements), over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \frac{\operatorname{sign}(x_i)\,|x_i|^{p-1}}"
        r"{y^{p-1}}\quad (p = 2:\ x_i / y)",
        lambda x, p="fro", axis=None, keepdims=False: ag.norm(x, _norm_p(p), axis, keepdims),
        "norm(x, p=2)", torch_code.code(_torch_norm),
        sentence=(
            "The 2-norm's gradient is x over its length: the unit vector pointing away from 0 "
            "(0 at 0 itself)."
        ),
    ),
    OpInfo(
        "cumsum", 1, (Attr("axis", "dim", None, required=True),),
        "Running sums along an axis: y_i = x_0 + ... + x_i.",
        r"\bar{x}_j = \textstyle\sum_{i \geq j} \bar{y}_i",
        ag.cumsum, "cumsum(x, axis=0)",
        torch_code.code(lambda x, a, n: f"torch.cumsum({x[0]}, dim={a['axis']})"),
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


def _running(name, description, derivative, sentence):
    """A running reduction along one axis, as cumsum: ``autograd.<name>(x, axis)``."""
    return OpInfo(
        name, 1, (Attr("axis", "dim", None, required=True),), description, derivative,
        getattr(ag, name), f"{name}(x, axis=0)",
        torch_code.code(lambda x, a, n: f"torch.{name}({x[0]}, dim={a['axis']})"),
        sentence=sentence,
    )


ENTRIES += (
    _running(
        "cumprod", "Running products along an axis: y_i = x_0 · ... · x_i.",
        r"\bar{x}_j = \textstyle\sum_{i \geq j} \bar{y}_i \prod_{k \leq i,\, k \neq j} x_k",
        sentence=(
            "Each element multiplies every running product from its place on, so it collects "
            "their gradients times the other factors (exact with zeros)."
        ),
    ),
    _running(
        "logcumsumexp", "Running log-sum-exp along an axis: y_i = log(e^x_0 + ... + e^x_i).",
        r"\bar{x}_j = \textstyle\sum_{i \geq j} \bar{y}_i\, e^{x_j - y_i}",
        sentence=(
            "Each running log-sum-exp passes its gradient back as a softmax over the elements "
            "so far, most to the largest."
        ),
    ),
    reduction(
        "nansum", "Sum of the elements that are not NaN, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \mathbb{1}[x_i \ne \mathrm{NaN}]", "torch.nansum",
        sentence="Every number counts once, NaN not at all: numbers get the full gradient, NaN 0.",
    ),
    reduction(
        "nanmean", "Mean of the elements that are not NaN, over all axes or the given ones.",
        r"\frac{\partial y}{\partial x_i} = \frac{\mathbb{1}[x_i \ne \mathrm{NaN}]}{n}",
        "torch.nanmean",
        sentence=(
            "Each of the n numbers counts 1/n (NaN not at all), so each gets the gradient "
            "divided by n."
        ),
    ),
    OpInfo(
        "quantile", 1, (Attr("q", "float", 0.5), AXIS, KEEPDIMS),
        "The q-th quantile (0.5: the median), linearly interpolated between sorted neighbours.",
        r"\frac{\partial y}{\partial x_{(k)}} = 1 - w,\quad "
        r"\frac{\partial y}{\partial x_{(k+1)}} = w,\quad k + w = q\,(n - 1)",
        _quantile, "quantile(x, q=0.25)", torch_code.code(_torch_quantile),
        sentence=(
            "Only the two sorted neighbours of the quantile's position move it: they share the "
            "gradient as 1 - w and w."
        ),
    ),
    OpInfo(
        "diff", 1, (Attr("n", "count", 1), Attr("axis", "dim", -1)),
        "Differences of neighbours along an axis, y_i = x_(i+1) - x_i, taken n times.",
        r"\bar{x}_j = \bar{y}_{j-1} - \bar{y}_j\quad (n = 1)",
        lambda x, n=1, axis=-1: ag.diff(x, n, axis), "diff(x, n=1, axis=-1)",
        torch_code.code(lambda x, a, n: f"torch.diff({x[0]}, n={a['n']}, dim={a['axis']})"),
        sentence=(
            "Each element enters two differences, once with + and once with -, so it gets the "
            "difference of their gradients."
        ),
    ),
)

SHAPE_RULES = {
    "var": _reduced,
    "std": _reduced,
    "prod": _reduced,
    "norm": _reduced,
    "cumsum": _cumsum_shape,
    "cumprod": _cumsum_shape,
    "logcumsumexp": _cumsum_shape,
    "nansum": _reduced,
    "nanmean": _reduced,
    "quantile": _reduced,
    "diff": _diff_shape,
}
"""Output shapes of this module's newer ops, for playground.budget."""
