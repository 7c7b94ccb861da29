"""Registry entries: linalg."""

from autograd.nn import functional as F

from .. import torch_code
from .entry import OpInfo, binary

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
