"""Registry entries: losses."""

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from autograd.nn import functional as F

from .. import torch_code
from .entry import Attr, OpInfo


def _class_indices(target, op="cross_entropy") -> np.ndarray:
    """A graph's float target, such as [0.0, 2.0], as the integer class indices F expects."""
    labels = np.asarray(target.data, dtype=np.float64)
    if not np.array_equal(labels, np.round(labels)):
        raise ValueError(
            f"{op}: the target must hold whole-number class indices such as [0, 2, 1]"
        )
    return labels.astype(np.int64)


def _nll_loss(log_probs, target, reduction="mean"):
    """F.nll_loss with the graph's float target read as class indices."""
    return F.nll_loss(log_probs, _class_indices(target, "nll_loss"), reduction=reduction)


REDUCTION = Attr("reduction", "reduction", "mean")
MARGIN_0 = Attr("margin", "float", 0.0)
_TRIPLET_ATTRS = (Attr("margin", "float", 1.0), Attr("p", "float", 2.0), Attr("eps", "float", 1e-6),
                  Attr("swap", "bool", False), REDUCTION)


def _call(name, *attrs):
    """``F.<name>(operands, reduction=..., setting=...)``, every setting spelled out."""
    return torch_code.call(f"F.{name}", **{a: a for a in ("reduction", *attrs)})


def _one_number(shapes, attrs):
    """A loss that is always one number."""
    return ()


def _loss_shape(each):
    """A loss's shape: one number, or ``each(shapes)`` (each element's loss) with
    reduction="none"."""
    return lambda shapes, attrs: tuple(each(shapes)) if attrs.get(
        "reduction", "mean") == "none" else ()


def _rows(shape):
    """The shape without its last axis (one loss per row)."""
    normalize_axis_index(-1, len(shape))
    return shape[:-1]


def _triplets(shapes):
    """One loss per triplet of rows."""
    anchor, positive, negative = shapes
    return np.broadcast_shapes(np.broadcast_shapes(anchor, positive)[:-1],
                               np.broadcast_shapes(anchor, negative)[:-1])


def _gaussian_elements(shapes):
    """One loss per element of input and target; var fits the input or it lacks the last axis."""
    x, target, var = shapes
    if var != x and not (x and var in (x[:-1], x[:-1] + (1,))):
        raise ValueError("gaussian_nll_loss: var needs the input's shape, or it with the last "
                         "axis 1 or missing")
    return np.broadcast_shapes(x, target)


def _elements(shapes):
    """One loss per element of the broadcast operands."""
    return np.broadcast_shapes(*shapes)


def _targets(shapes):
    """nll_loss: one loss per row, the target's shape."""
    return shapes[1]


def _rows_of(shapes):
    """One loss per row of the broadcast operands."""
    return _rows(np.broadcast_shapes(*shapes))


def _pairs(shapes):
    """cosine_embedding_loss: one loss per pair of rows, broadcast with the target."""
    return np.broadcast_shapes(_rows(np.broadcast_shapes(*shapes[:2])), shapes[2])


ENTRIES = (
    OpInfo(
        "mse_loss", arity=2, description="Mean of squared differences (pred - target)^2.",
        derivative=r"\frac{\partial L}{\partial p_i} = \frac{2\,(p_i - t_i)}{n}", apply=F.mse_loss,
        example="mse_loss(pred, target)", torch=torch_code.call("F.mse_loss"), shape=_one_number,
        sentence=(
            'The gradient points from the target to the prediction, twice the error divided by '
            'the count.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "cross_entropy", arity=2,
        description=(
            "Mean softmax cross-entropy of logits (N, C) against class indices (N,) such as [0, 2]."
        ),
        derivative=r"\frac{\partial L}{\partial z_{ij}} = \frac{\operatorname{softmax}(z)_{ij} - "
                   r"\mathbb{1}[j = t_i]}{N}",
        apply=lambda logits, target: F.cross_entropy(logits, _class_indices(target)),
        example="cross_entropy(logits, target)",
        torch=torch_code.code(lambda x, a, n: f"F.cross_entropy({x[0]}, {x[1]}.long())", "F"),
        shape=_one_number,
        sentence=(
            'Softmax and cross-entropy together give the famously simple gradient p - y: '
            'predicted minus true probabilities.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "binary_cross_entropy", arity=2,
        description="Mean cross-entropy of probabilities p in [0, 1] against targets t in [0, 1].",
        derivative=r"\frac{\partial L}{\partial p_i} = \frac{p_i - t_i}{p_i\,(1 - p_i)\,n}",
        apply=F.binary_cross_entropy, example="binary_cross_entropy(p, target)",
        torch=torch_code.call("F.binary_cross_entropy"), shape=_one_number,
        sentence=(
            'The gradient (p - t) / (p(1 - p)) grows without bound as a confident prediction '
            'turns out wrong.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "l1_loss", arity=2, attrs=(REDUCTION,),
        description="Mean of absolute differences |pred - target|.",
        derivative=r"\frac{\partial L}{\partial p_i} = \frac{\operatorname{sign}(p_i - t_i)}{n}",
        apply=F.l1_loss, example="l1_loss(pred, target)", torch=_call("l1_loss"),
        shape=_loss_shape(_elements),
        sentence=(
            'Every element pulls with the same strength 1/n, only the sign of its error counts '
            '(0 where the error is exactly 0).'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "huber_loss", arity=2, attrs=(REDUCTION, Attr("delta", "float", 1.0)),
        description="Mean Huber loss: squared error below delta, linear (delta |d|) beyond.",
        derivative=r"\frac{\partial L}{\partial p_i} = \frac{\operatorname{clip}(p_i - t_i, "
                   r"-\delta, \delta)}{n}",
        apply=F.huber_loss, example="huber_loss(pred, target, delta=0.5)",
        torch=_call("huber_loss", "delta"), shape=_loss_shape(_elements),
        sentence=(
            'Near the target the gradient is the error itself, as for squared error; beyond delta '
            'it stops growing, so outliers cannot dominate.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "smooth_l1_loss", arity=2, attrs=(REDUCTION, Attr("beta", "float", 1.0)),
        description="Mean smooth L1 loss: Huber's loss divided by beta (beta = 0 is the L1 loss).",
        derivative=r"\frac{\partial L}{\partial p_i} = \frac{\operatorname{clip}((p_i - t_i) / "
                   r"\beta, -1, 1)}{n}",
        apply=F.smooth_l1_loss, example="smooth_l1_loss(pred, target, beta=0.5)",
        torch=_call("smooth_l1_loss", "beta"), shape=_loss_shape(_elements),
        sentence=(
            'The gradient grows with the error up to beta and then stays at 1/n, like L1 far away '
            'and smooth at the target.'
        ),
        symbols=("p", "t"),
    ),
    OpInfo(
        "binary_cross_entropy_with_logits", arity=2, attrs=(REDUCTION,),
        description=(
            "Mean binary cross-entropy of sigmoid(z) against targets t, computed stably from z."
        ),
        derivative=r"\frac{\partial L}{\partial z_i} = \frac{\sigma(z_i) - t_i}{n}",
        apply=F.binary_cross_entropy_with_logits,
        example="binary_cross_entropy_with_logits(logits, target)",
        torch=_call("binary_cross_entropy_with_logits"), shape=_loss_shape(_elements),
        sentence=(
            'Sigmoid and cross-entropy together give the simple gradient sigmoid(z) - t, bounded '
            'however wrong the logit is.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "nll_loss", arity=2, attrs=(REDUCTION,),
        description=(
            "Mean of -z[i, t_i]: log-probabilities (N, C) against class indices (N,) such as [0, "
            "2]."
        ),
        derivative=r"\frac{\partial L}{\partial z_{ij}} = -\frac{\mathbb{1}[j = t_i]}{N}",
        apply=_nll_loss, example="nll_loss(logits, target)",
        torch=torch_code.code(lambda x, a, n: f"F.nll_loss({x[0]}, {x[1]}.long(), "
                                              f"reduction={a['reduction']!r})", "F"),
        shape=_loss_shape(_targets),
        sentence=(
            'Only the log-probability of each true class is picked, so it alone gets -1/N and '
            'every other entry gets 0.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "kl_div", arity=2,
        attrs=(Attr("reduction", "kl_reduction", "mean"), Attr("log_target", "bool", False)),
        description=(
            "Mean of t (log t - z) for log-probabilities z and probabilities t (PyTorch's order)."
        ),
        derivative=r"\frac{\partial L}{\partial z_i} = -\frac{t_i}{n},\quad "
                   r"\frac{\partial L}{\partial t_i} = \frac{\log t_i + 1 - z_i}{n}",
        apply=F.kl_div, example='kl_div(logits, target, reduction="batchmean")',
        torch=_call("kl_div", "log_target"), shape=_loss_shape(_elements),
        sentence=(
            'Each log-probability is pulled up by its target probability; zero-probability '
            'targets exert no pull at all.'
        ),
        symbols=("z", "t"),
    ),
    OpInfo(
        "margin_ranking_loss", arity=3, attrs=(MARGIN_0, REDUCTION),
        description=(
            "Mean of max(0, -t·(x1 - x2) + margin): x1 should rank above x2 where t = 1, below at "
            "-1."
        ),
        derivative=r"\frac{\partial L}{\partial x_{1,i}} = -\frac{\partial L}{\partial x_{2,i}} = "
                   r"-\frac{t_i\, \mathbb{1}[\ell_i > 0]}{n}",
        apply=F.margin_ranking_loss, example="margin_ranking_loss(a, b, target, margin=0.5)",
        torch=_call("margin_ranking_loss", "margin"), shape=_loss_shape(_elements),
        sentence=(
            "Only pairs still inside the margin pull: the one that should rank higher is pushed "
            "up, the other down."
        ),
        symbols=("x_1", "x_2", "t"),
    ),
    OpInfo(
        "hinge_embedding_loss", arity=2, attrs=(Attr("margin", "float", 1.0), REDUCTION),
        description="Mean of x where t = 1 and max(0, margin - x) where t = -1 (x a distance).",
        derivative=r"\frac{\partial L}{\partial x_i} = \frac{1}{n}\begin{cases} 1 & t_i = 1 \\ "
                   r"-\mathbb{1}[x_i < \text{margin}] & t_i = -1 \end{cases}",
        apply=F.hinge_embedding_loss, example="hinge_embedding_loss(x, target)",
        torch=_call("hinge_embedding_loss", "margin"), shape=_loss_shape(_elements),
        sentence=(
            "Similar pairs (t = 1) are pulled together always; dissimilar ones are pushed apart "
            "only while closer than the margin."
        ),
        symbols=("x", "t"),
    ),
    OpInfo(
        "soft_margin_loss", arity=2, attrs=(REDUCTION,),
        description="Mean of log(1 + e^(-t·x)) for targets t of ±1: a smooth hinge.",
        derivative=r"\frac{\partial L}{\partial x_i} = -\frac{t_i\, \sigma(-t_i x_i)}{n}",
        apply=F.soft_margin_loss, example="soft_margin_loss(x, target)",
        torch=_call("soft_margin_loss"), shape=_loss_shape(_elements),
        sentence=(
            "The pull towards the target's side is sigmoid of how wrong x is: strong when wrong, "
            "fading when right."
        ),
        symbols=("x", "t"),
    ),
    OpInfo(
        "multilabel_soft_margin_loss", arity=2, attrs=(REDUCTION,),
        description=(
            "Binary cross-entropy of sigmoid(x) against 0/1 targets, averaged over the classes."
        ),
        derivative=r"\frac{\partial L}{\partial x_{ij}} = \frac{\sigma(x_{ij}) - t_{ij}}{C\, N}",
        apply=F.multilabel_soft_margin_loss, example="multilabel_soft_margin_loss(x, target)",
        torch=_call("multilabel_soft_margin_loss"), shape=_loss_shape(_rows_of),
        sentence=(
            "Each class is its own yes/no question: the gradient is sigmoid(x) - t, shared out "
            "over the classes."
        ),
        symbols=("x", "t"),
    ),
    OpInfo(
        "cosine_embedding_loss", arity=3, attrs=(MARGIN_0, REDUCTION),
        description="Mean of 1 - cos(x1, x2) where t = 1 and max(0, cos - margin) where t = -1.",
        derivative=(
            r"\frac{\partial L}{\partial x_1} = \mp\frac{1}{n}\,\frac{\partial \cos(x_1, x_2)}"
            r"{\partial x_1}\ \text{where the pair counts}"
        ),
        apply=F.cosine_embedding_loss, example="cosine_embedding_loss(a, b, target)",
        torch=_call("cosine_embedding_loss", "margin"), shape=_loss_shape(_pairs),
        sentence=(
            "Similar pairs are turned towards each other; dissimilar ones apart, only while their "
            "cosine is above the margin."
        ),
        symbols=("x_1", "x_2", "t"),
    ),
    OpInfo(
        "triplet_margin_loss", arity=3, attrs=_TRIPLET_ATTRS,
        description="Mean of max(0, d(a, p) - d(a, n) + margin), d the p-norm distance of rows.",
        derivative=(
            r"\frac{\partial L}{\partial a} = \frac{1}{n}\Bigl(\frac{\partial d(a, p)}"
            r"{\partial a} - \frac{\partial d(a, n)}{\partial a}\Bigr)\ \text{inside the margin}"
        ),
        apply=F.triplet_margin_loss, example="triplet_margin_loss(x, a, b)",
        torch=_call("triplet_margin_loss", "margin", "p", "eps", "swap"),
        shape=_loss_shape(_triplets),
        sentence=(
            "While inside the margin, the anchor is pulled towards the positive and pushed away "
            "from the negative."
        ),
        symbols=("a", "p", "n"),
    ),
    OpInfo(
        "poisson_nll_loss", arity=2,
        attrs=(Attr("log_input", "bool", True), Attr("full", "bool", False),
               Attr("eps", "float", 1e-8), REDUCTION),
        description=(
            "Mean Poisson negative log-likelihood of counts t at rate e^x (or x, log_input=False)."
        ),
        derivative=(
            r"\frac{\partial L}{\partial x_i} = \frac{e^{x_i} - t_i}{n}\ \text{(log\_input)}"
        ),
        apply=F.poisson_nll_loss, example="poisson_nll_loss(x, target)",
        torch=_call("poisson_nll_loss", "log_input", "full", "eps"), shape=_loss_shape(_elements),
        sentence=(
            "With a log-rate x the gradient is the predicted rate minus the count, as for other "
            "exponential-family losses."
        ),
        symbols=("x", "t"),
    ),
    OpInfo(
        "gaussian_nll_loss", arity=3,
        attrs=(Attr("full", "bool", False), Attr("eps", "float", 1e-6), REDUCTION),
        description=(
            "Mean Gaussian negative log-likelihood of t for mean x and variance v: ½(log v + d²/v)."
        ),
        derivative=r"\frac{\partial L}{\partial x_i} = \frac{x_i - t_i}{v_i\, n},\quad "
                   r"\frac{\partial L}{\partial v_i} = \frac{1}{2 n}\Bigl(\frac{1}{v_i} - "
                   r"\frac{(x_i - t_i)^2}{v_i^2}\Bigr)",
        apply=F.gaussian_nll_loss, example="gaussian_nll_loss(pred, target, c)",
        torch=_call("gaussian_nll_loss", "full", "eps"), shape=_loss_shape(_gaussian_elements),
        sentence=(
            "The mean is pulled to the target by the error over the variance; the variance grows "
            "when the error is larger than it."
        ),
        symbols=("x", "t", "v"),
    ),
)

