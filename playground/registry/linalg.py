"""Registry entries: linalg."""

import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

import autograd as ag
from autograd.nn import functional as F
from autograd.ops.linalg import Einsum

from .. import torch_code
from .entry import Attr, OpInfo, binary, refusing
from .rules import MACS_PER_UNIT


def _matmul_shape(shapes, attrs):
    a, b = shapes
    if not a or not b:
        raise ValueError("matmul needs operands with at least one axis")
    a2 = (1, *a) if len(a) == 1 else a
    b2 = (*b, 1) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: {a} @ {b} do not fit")
    batch = tuple(np.broadcast_shapes(a2[:-2], b2[:-2]))
    out = (*batch, a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def _linear_shape(shapes, attrs):
    x, weight, bias = shapes
    if not x or len(weight) != 2 or x[-1] != weight[1]:
        raise ValueError("linear: the input's last axis must match the weight's second")
    return tuple(np.broadcast_shapes((*x[:-1], weight[0]), bias))


def _product_work(left):
    """The multiply-adds of a matrix product whose left factor is operand ``left`` (after the
    added input of addmm and baddbmm): each output element sums over its last axis."""
    def work(shapes, out, attrs):
        inner = shapes[left][-1] if shapes[left] else 1
        return math.prod(out) * inner // MACS_PER_UNIT
    return work


ENTRIES = (
    binary(
        "matmul", symbol="@",
        description="Matrix product a @ b (vectors and stacks of matrices too).",
        derivative=r"\bar{A} = \bar{Y} B^{\top},\quad \bar{B} = A^{\top} \bar{Y}",
        torch=torch_code.infix("@"), shape=_matmul_shape, work=_product_work(0),
        sentence=(
            "A matrix product's gradient is another matrix product: the upstream gradient times "
            'the other operand, transposed.'
        ),
        symbols=("A", "B"),
    ),
    OpInfo(
        "linear", arity=3,
        description="A layer's affine map x @ W.T + b, with W of shape (out, in), as in nn.Linear.",
        derivative=r"\bar{x} = \bar{y} W,\quad \bar{W} = \bar{y}^{\top} x,\quad "
                   r"\bar{b} = \textstyle\sum_{\text{rows}} \bar{y}",
        apply=F.linear, example="linear(x, W, b)", torch=torch_code.call("F.linear"),
        shape=_linear_shape, work=_product_work(0),
        sentence=(
            "A layer's weight gradient is the upstream gradient times the input, summed over the "
            'batch; the bias gets the upstream gradient summed.'
        ),
        symbols=("x", "W", "b"),
    ),
)


def _einsum(*operands, equation):
    """``autograd.einsum`` with the equation as a setting (its multiply-adds are in the budget)."""
    return ag.einsum(equation, *operands)


def _einsum_shape(shapes, attrs):
    terms, output, sizes = Einsum.parse(attrs["equation"], shapes)
    return tuple(sizes[c] for c in output)


def _einsum_work(shapes, out, attrs):
    """Every subscript's size multiplied out: the multiply-adds of the summation."""
    _, _, sizes = Einsum.parse(attrs["equation"], shapes)
    return math.prod(sizes.values()) // MACS_PER_UNIT


def _product_shape(batched):
    def rule(shapes, attrs):
        a, b = shapes
        if batched and (len(a) != 3 or len(b) != 3 or a[0] != b[0] or a[2] != b[1]):
            raise ValueError("bmm: (b, n, m) and (b, m, p)")
        if not batched and (len(a) != 1 or len(b) != 1):
            raise ValueError("outer and dot take vectors")
        return (a[0], a[1], b[2]) if batched else (a[0], b[0])
    return rule


def _dot_shape(shapes, attrs):
    a, b = shapes
    if len(a) != 1 or a != b:
        raise ValueError("dot takes two vectors of one length")
    return ()


ENTRIES += (
    OpInfo(
        "bmm", arity=2,
        description="Batched matrix product of two 3-D tensors with equal batch sizes.",
        derivative=r"\bar{A}_b = \bar{Y}_b B_b^{\top},\quad \bar{B}_b = A_b^{\top} \bar{Y}_b",
        apply=ag.bmm, example="bmm(a, b)", torch=torch_code.call("torch.bmm"),
        shape=_product_shape(batched=True), work=_product_work(0), symbols=("A", "B"),
        sentence=(
            "Each matrix of the batch gets matmul's gradient: the upstream gradient times the "
            "other operand, transposed."
        ),
    ),
    OpInfo(
        "dot", arity=2, description="Dot product of two vectors of one length: sum(a * b).",
        derivative=r"\bar{a} = \bar{y}\, b,\quad \bar{b} = \bar{y}\, a", apply=ag.dot,
        example="dot(a, b)", torch=torch_code.call("torch.dot"), shape=_dot_shape,
        sentence="Each vector's gradient is the other vector, scaled by the upstream gradient.",
    ),
    OpInfo(
        "outer", arity=2, description="Outer product of two vectors: y[i, j] = a[i] * b[j].",
        derivative=r"\bar{a} = \bar{Y} b,\quad \bar{b} = \bar{Y}^{\top} a", apply=ag.outer,
        example="outer(a, b)", torch=torch_code.call("torch.outer"),
        shape=_product_shape(batched=False),
        sentence=(
            "Each a[i] scaled a whole row, so its gradient is that row of the upstream gradient "
            "dotted with b."
        ),
    ),
    OpInfo(
        "einsum", arity=None,
        attrs=(Attr("equation", "equation", None, required=True, suggested="ij,jk->ik"),),
        description=(
            "Einstein summation: multiply along equal subscripts, sum those the output leaves out."
        ),
        derivative=(
            r"\bar{x}_k = \operatorname{einsum}(\bar{y},\ x_{j \neq k} \to "
            r"\text{subscripts of } x_k)"
        ),
        apply=_einsum, example="einsum(a, b, equation='ij,jk->ik')",
        torch=torch_code.code(lambda x, a, n: f"torch.einsum({a['equation']!r}, {', '.join(x)})"),
        shape=_einsum_shape, work=_einsum_work,
        sentence=(
            "Each operand's gradient is another einsum: the upstream gradient times the other "
            "operands, summed back onto its subscripts."
        ),
    ),
)

def _mm_shape(shapes, attrs):
    a, b = shapes[-2:]
    if len(a) != 2 or len(b) != 2 or a[1] != b[0]:
        raise ValueError("mm: (n, m) and (m, p)")
    return (a[0], b[1])


def _mv_shape(shapes, attrs):
    a, v = shapes
    if len(a) != 2 or len(v) != 1 or a[1] != v[0]:
        raise ValueError("mv: (n, m) and (m,)")
    return (a[0],)


def _added(product_rule):
    """The shape rule of beta·input + alpha·product: the product's, which input must fit."""
    def rule(shapes, attrs):
        out = product_rule(shapes[1:], attrs)
        if tuple(np.broadcast_shapes(shapes[0], out)) != out:
            raise ValueError("the input must broadcast to the product's shape")
        return out
    return rule


_SCALES = (Attr("beta", "float", 1.0), Attr("alpha", "float", 1.0))


def _torch_scaled(name):
    return torch_code.code(lambda x, a, n: f"torch.{name}({', '.join(x)}, beta={a['beta']!r}, "
                                           f"alpha={a['alpha']!r})")


ENTRIES += (
    OpInfo(
        "mm", arity=2,
        description="Product of two matrices, (n, m) @ (m, p): no vectors, batches or "
        "broadcasting.",
        derivative=r"\bar{A} = \bar{Y} B^{\top},\quad \bar{B} = A^{\top} \bar{Y}", apply=ag.mm,
        example="mm(a, b)", torch=torch_code.call("torch.mm"), shape=_mm_shape,
        work=_product_work(0), symbols=("A", "B"),
        sentence="As matmul: each matrix gets the upstream gradient times the other, transposed.",
    ),
    OpInfo(
        "mv", arity=2, description="A matrix times a vector, (n, m) @ (m,) -> (n,).",
        derivative=r"\bar{A} = \bar{y}\, v^{\top},\quad \bar{v} = A^{\top} \bar{y}", apply=ag.mv,
        example="mv(a, b)", torch=torch_code.call("torch.mv"), shape=_mv_shape,
        work=_product_work(0), symbols=("A", "v"),
        sentence=(
            "The matrix gets the outer product of the upstream gradient and the vector; the "
            "vector gets the matrix, transposed, times the upstream gradient."
        ),
    ),
    OpInfo(
        "addmm", arity=3, attrs=_SCALES,
        description="Matrix product added to c (which broadcasts): beta·c + "
        "alpha·(a @ b), as a linear layer does.",
        derivative=r"\bar{c} = \beta\,\bar{Y},\quad \bar{A} = \alpha\,\bar{Y} B^{\top},\quad "
                   r"\bar{B} = \alpha\,A^{\top} \bar{Y}",
        apply=lambda c, a, b, beta=1.0, alpha=1.0: ag.addmm(c, a, b, beta=beta, alpha=alpha),
        example="addmm(c, a, b, beta=1.0, alpha=1.0)", torch=_torch_scaled("addmm"),
        shape=_added(_mm_shape), work=_product_work(1), symbols=("c", "A", "B"),
        sentence=(
            "The added term gets the upstream gradient times beta (summed where it broadcast); "
            "the product's factors get matmul's gradient times alpha."
        ),
    ),
    OpInfo(
        "baddbmm", arity=3, attrs=_SCALES,
        description="Batched matrix product added to c: beta·c + alpha·bmm(a, b).",
        derivative=(
            r"\bar{c} = \beta\,\bar{Y},\quad \bar{A}_i = \alpha\,\bar{Y}_i B_i^{\top},\quad "
            r"\bar{B}_i = \alpha\,A_i^{\top} \bar{Y}_i"
        ),
        apply=lambda c, a, b, beta=1.0, alpha=1.0: ag.baddbmm(c, a, b, beta=beta, alpha=alpha),
        example="baddbmm(c, a, b, beta=1.0, alpha=1.0)", torch=_torch_scaled("baddbmm"),
        shape=_added(_product_shape(batched=True)), work=_product_work(1), symbols=("c", "A", "B"),
        sentence=(
            "As addmm for each matrix of the batch: beta times the upstream gradient for c, "
            "alpha times matmul's gradient for the factors."
        ),
    ),
)

def _square_shape(shapes, attrs):
    (a,) = shapes[:1]
    if len(a) < 2 or a[-1] != a[-2]:
        raise ValueError("a square matrix (or a batch of them)")
    return a


def _factorisation_work(shapes, out, attrs):
    """A factorisation of the first operand: m·n·min(m, n) per matrix (n³ if square)."""
    matrix = shapes[0]
    return math.prod(matrix) * min(matrix[-2:]) // MACS_PER_UNIT


def _determinant_shape(shapes, attrs):
    return _square_shape(shapes, attrs)[:-2]


def _solve_shape(shapes, attrs):
    a, b = shapes
    _square_shape([a], attrs)
    if len(b) < 1 or b[-2 if len(b) > 1 else 0] != a[-1]:
        raise ValueError("B's rows must match A's size")
    return b


ENTRIES += (
    OpInfo(
        "inv", arity=1,
        description="Inverse of a square matrix (or of each in a batch): A @ inv(A) = I.",
        derivative=r"\bar{A} = -A^{-\top}\,\bar{Y}\,A^{-\top}", apply=ag.linalg.inv,
        example="inv(x)", torch=torch_code.call("torch.linalg.inv"), shape=_square_shape,
        work=_factorisation_work,
        sentence=(
            "Nudging A moves its inverse the other way, scaled by the inverse on both sides: "
            "-A⁻ᵀ Ȳ A⁻ᵀ."
        ),
    ),
    OpInfo(
        "det", arity=1, description="Determinant of a square matrix (or of each in a batch).",
        derivative=r"\frac{\partial y}{\partial A} = \det(A)\,A^{-\top}", apply=ag.linalg.det,
        example="det(x)", torch=torch_code.call("torch.linalg.det"), shape=_determinant_shape,
        work=_factorisation_work,
        sentence=(
            "Each entry's gradient is its cofactor, det(A)·A⁻ᵀ: how much the volume grows as "
            "that entry does."
        ),
    ),
    OpInfo(
        "slogdet", arity=1,
        description="Log of the absolute determinant, log |det A|, computed stably.",
        derivative=r"\frac{\partial y}{\partial A} = A^{-\top}",
        apply=lambda x: ag.linalg.slogdet(x).logabsdet, example="slogdet(x)",
        torch=torch_code.code(lambda x, a, n: f"torch.linalg.slogdet({x[0]}).logabsdet"),
        shape=_determinant_shape, work=_factorisation_work,
        sentence="The log-determinant's gradient is the inverse transposed, A⁻ᵀ, at any scale.",
    ),
    OpInfo(
        "solve", arity=2, description="The solution X of A @ X = B (B a vector or a matrix).",
        derivative=r"\bar{B} = A^{-\top}\,\bar{X},\quad \bar{A} = -\bar{B}\,X^{\top}",
        apply=ag.linalg.solve, example="solve(a, b)", torch=torch_code.call("torch.linalg.solve"),
        shape=_solve_shape, work=_factorisation_work, symbols=("A", "B"),
        sentence=(
            "B's gradient is another solve, with A transposed; A's is minus that times the "
            "solution, transposed."
        ),
    ),
)

def _svdvals_shape(shapes, attrs):
    (a,) = shapes
    if len(a) < 2:
        raise ValueError("svdvals: a matrix (or a batch of them)")
    return (*a[:-2], min(a[-2:]))


ENTRIES += (
    OpInfo(
        "svdvals", arity=1,
        description="Singular values of a matrix (or of each in a batch), largest first.",
        derivative=r"\bar{A} = U \operatorname{diag}(\bar{s})\, V^{\top}", apply=ag.linalg.svdvals,
        example="svdvals(x)", torch=torch_code.call("torch.linalg.svdvals"), shape=_svdvals_shape,
        work=_factorisation_work,
        sentence=(
            "Each singular value moves with the matrix along its own pair of singular vectors: "
            "its gradient is u vᵀ."
        ),
    ),
)

def _tensordot_shape(shapes, attrs):
    a, b = shapes
    dims = attrs.get("dims", 2)
    if isinstance(dims, int):
        if dims > min(len(a), len(b)):
            raise ValueError("tensordot: dims is more than an operand's axes")
        a_axes, b_axes = list(range(len(a) - dims, len(a))), list(range(dims))
    else:
        a_axes, b_axes = ([d % len(s) for d in np.atleast_1d(axes)]
                          for s, axes in zip((a, b), dims))
    if [a[i] for i in a_axes] != [b[i] for i in b_axes]:
        raise ValueError("tensordot: the contracted axes differ")
    return (*(n for i, n in enumerate(a) if i not in a_axes),
            *(n for i, n in enumerate(b) if i not in b_axes))


def _tensordot_work(shapes, out, attrs):
    """Each output element sums over the contracted axes, whose size squared is a·b/y."""
    a, b = (math.prod(s) for s in shapes)
    inner = math.isqrt(a * b // max(math.prod(out), 1))
    return math.prod(out) * inner // MACS_PER_UNIT


def _kron_shape(shapes, attrs):
    ndim = max(len(s) for s in shapes)
    a, b = ((1,) * (ndim - len(s)) + s for s in shapes)
    return tuple(p * q for p, q in zip(a, b))


def _cross_shape(shapes, attrs):
    shape = np.broadcast_shapes(*shapes)
    if shape[normalize_axis_index(attrs.get("dim", -1), len(shape))] != 3:
        raise ValueError("cross: dim must have length 3")
    return shape


def _cdist_shape(shapes, attrs):
    a, b = shapes
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1]:
        raise ValueError("cdist: (..., P, M) and (..., R, M)")
    return (*np.broadcast_shapes(a[:-2], b[:-2]), a[-2], b[-2])


def _cdist_work(shapes, out, attrs):
    """A difference of M elements per pair of rows, then its norm."""
    return 3 * math.prod(out) * shapes[0][-1]


ENTRIES += (
    OpInfo(
        "tensordot", arity=2, attrs=(Attr("dims", "count", 2),),
        description=(
            "Sum of products over a's last dims axes and b's first dims axes (dims=1: a matrix "
            "product)."
        ),
        derivative=(
            r"\bar{a} = \operatorname{tensordot}(\bar{y}, b)\ \text{over b's free axes},\quad "
            r"\bar{b} = \operatorname{tensordot}(a, \bar{y})\ \text{over a's free axes}"
        ),
        apply=refusing(ag.tensordot), example="tensordot(a, b, dims=1)",
        torch=torch_code.call("torch.tensordot", dims="dims"), shape=_tensordot_shape,
        work=_tensordot_work,
        sentence="As in a matrix product, each operand's gradient is the upstream gradient times "
                 "the other operand.",
    ),
    binary(
        "kron",
        description="Kronecker product: every element of a times the whole of b, in blocks.",
        derivative=r"\bar{a}_i = \textstyle\sum \bar{y}_{\text{block } i} \odot b,\quad "
                   r"\bar{b} = \textstyle\sum_i a_i\, \bar{y}_{\text{block } i}",
        torch=torch_code.call("torch.kron"), shape=_kron_shape,
        sentence="Each element of a scaled one block, so it gets that block's gradient times b.",
    ),
    OpInfo(
        "cross", arity=2, attrs=(Attr("dim", "dim", -1),),
        description=(
            "Cross product of 3-vectors along dim (a and b broadcast), as torch.linalg.cross."
        ),
        derivative=r"\bar{a} = b \times \bar{y},\quad \bar{b} = \bar{y} \times a",
        apply=refusing(lambda a, b, dim=-1: ag.cross(a, b, dim)), example="cross(a, b, dim=-1)",
        torch=torch_code.call("torch.linalg.cross", dim="dim"), shape=_cross_shape,
        sentence="The cross product is linear in each operand: a's gradient is b crossed with "
                 "the upstream gradient.",
    ),
    OpInfo(
        "cdist", arity=2, attrs=(Attr("p", "float", 2.0),),
        description=(
            "The p-norm distance of each row of x1 (P, M) to each row of x2 (R, M): a (P, R) table."
        ),
        derivative=(
            r"\bar{x}_{1,i} = \textstyle\sum_j \bar{y}_{ij}\, \frac{\partial \lVert x_{1,i} - "
            r"x_{2,j} \rVert_p}{\partial x_{1,i}}"
        ),
        apply=refusing(ag.cdist), example="cdist(a, b)",
        torch=torch_code.call("torch.cdist", p="p"), shape=_cdist_shape, work=_cdist_work,
        sentence="Each row is pulled along the unit directions to the rows it was measured to, "
                 "weighted by the gradient.",
        symbols=("x_1", "x_2"),
    ),
)

def _cosine_similarity_shape(shapes, attrs):
    shape = np.broadcast_shapes(*shapes)
    dim = normalize_axis_index(attrs.get("dim", 1), max(len(shape), 1))
    return shape[:dim] + shape[dim + 1:]


def _pairwise_distance_shape(shapes, attrs):
    shape = np.broadcast_shapes(*shapes)
    return shape[:-1] + ((1,) if attrs.get("keepdim") and shape else ())


EPS = Attr("eps", "float", 1e-8)
_PAIRWISE_ATTRS = (Attr("p", "float", 2.0), Attr("eps", "float", 1e-6),
                   Attr("keepdim", "bool", False))

ENTRIES += (
    OpInfo(
        "cosine_similarity", arity=2, attrs=(Attr("dim", "dim", 1), EPS),
        description=(
            "The cosine of the angle between x1 and x2 along dim: their dot product over lengths."
        ),
        derivative=r"\bar{x}_1 = \bar{y}\, \frac{1}{\lVert x_1 \rVert} \bigl(\hat{x}_2 - y\, "
                   r"\hat{x}_1\bigr)",
        apply=F.cosine_similarity, example="cosine_similarity(a, b, dim=1)",
        torch=torch_code.call("F.cosine_similarity", dim="dim", eps="eps"),
        shape=_cosine_similarity_shape,
        sentence="Only the direction counts: each vector's gradient is the part of the other's "
                 "direction across its own.",
        symbols=("x_1", "x_2"),
    ),
    OpInfo(
        "pairwise_distance", arity=2, attrs=_PAIRWISE_ATTRS,
        description=(
            "The p-norm of x1 - x2 + eps along the last axis: one distance per pair of rows."
        ),
        derivative=r"\bar{x}_1 = -\bar{x}_2 = \bar{y}\, \frac{\operatorname{sign}(d)\,|d|^{p-1}}"
                   r"{\lVert d \rVert_p^{p-1}},\ d = x_1 - x_2 + \epsilon",
        apply=F.pairwise_distance, example="pairwise_distance(a, b)",
        torch=torch_code.call("F.pairwise_distance", **{a.name: a.name for a in _PAIRWISE_ATTRS}),
        shape=_pairwise_distance_shape,
        sentence="Each row is pulled along the unit direction from the other, weighted by the "
                 "gradient; the other is pushed the opposite way.",
        symbols=("x_1", "x_2"),
    ),
)
