"""Registry entries: linalg."""

import autograd as ag
from autograd.nn import functional as F
from autograd.ops.linalg import Einsum

from .. import torch_code
from .entry import Attr, OpInfo, binary

ENTRIES = (
    binary(
        "matmul", "@", "Matrix product a @ b (vectors and stacks of matrices too).",
        r"\bar{A} = \bar{Y} B^{\top},\quad \bar{B} = A^{\top} \bar{Y}",
        torch_code.infix("@"),
        sentence=(
            "A matrix product's gradient is another matrix product: the upstream gradient times "
            'the other operand, transposed.'
        ),
        symbols=("A", "B"),
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
        symbols=("x", "W", "b"),
    ),
)


def _einsum(*operands, equation):
    """``autograd.einsum`` with the equation as a setting (its multiply-adds are in the budget)."""
    return ag.einsum(equation, *operands)


def _einsum_shape(shapes, attrs):
    terms, output, sizes = Einsum.parse(attrs["equation"], shapes)
    return tuple(sizes[c] for c in output)


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
        "bmm", 2, (), "Batched matrix product of two 3-D tensors with equal batch sizes.",
        r"\bar{A}_b = \bar{Y}_b B_b^{\top},\quad \bar{B}_b = A_b^{\top} \bar{Y}_b",
        ag.bmm, "bmm(a, b)", torch_code.call("torch.bmm"), symbols=("A", "B"),
        sentence=(
            "Each matrix of the batch gets matmul's gradient: the upstream gradient times the "
            "other operand, transposed."
        ),
    ),
    OpInfo(
        "dot", 2, (), "Dot product of two vectors of one length: sum(a * b).",
        r"\bar{a} = \bar{y}\, b,\quad \bar{b} = \bar{y}\, a",
        ag.dot, "dot(a, b)", torch_code.call("torch.dot"),
        sentence="Each vector's gradient is the other vector, scaled by the upstream gradient.",
    ),
    OpInfo(
        "outer", 2, (), "Outer product of two vectors: y[i, j] = a[i] * b[j].",
        r"\bar{a} = \bar{Y} b,\quad \bar{b} = \bar{Y}^{\top} a",
        ag.outer, "outer(a, b)", torch_code.call("torch.outer"),
        sentence=(
            "Each a[i] scaled a whole row, so its gradient is that row of the upstream gradient "
            "dotted with b."
        ),
    ),
    OpInfo(
        "einsum", None, (Attr("equation", "equation", None, required=True,
                              suggested="ij,jk->ik"),),
        "Einstein summation: multiply along equal subscripts, sum those the output leaves out.",
        r"\bar{x}_k = \operatorname{einsum}(\bar{y},\ x_{j \neq k} \to \text{subscripts of } x_k)",
        _einsum, "einsum(a, b, equation='ij,jk->ik')",
        torch_code.code(lambda x, a, n: f"torch.einsum({a['equation']!r}, {', '.join(x)})"),
        sentence=(
            "Each operand's gradient is another einsum: the upstream gradient times the other "
            "operands, summed back onto its subscripts."
        ),
    ),
)

SHAPE_RULES = {
    "bmm": _product_shape(batched=True),
    "outer": _product_shape(batched=False),
    "dot": _dot_shape,
    "einsum": _einsum_shape,
}
"""Output shapes of this module's newer ops, for playground.budget."""
