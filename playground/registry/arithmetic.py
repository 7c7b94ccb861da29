"""Registry entries: arithmetic."""

import autograd as ag

from .. import torch_code
from .entry import OpInfo, binary

ENTRIES = (
    binary(
        "add", "+", "Elementwise sum a + b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = 1",
        torch_code.infix("+"),
        sentence=(
            'Addition passes the gradient through unchanged to both operands; where an operand '
            'was broadcast, its gradient is summed over the copies.'
        ),
    ),
    binary(
        "sub", "-", "Elementwise difference a - b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = -1",
        torch_code.infix("-"),
        sentence=(
            'Subtraction passes the gradient to the first operand unchanged and to the second '
            'with its sign flipped.'
        ),
    ),
    binary(
        "mul", "*", "Elementwise product a * b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = b,\quad \frac{\partial y}{\partial b} = a",
        torch_code.infix("*"),
        sentence=(
            "Each factor's gradient is the upstream gradient times the other factor: nudging a "
            'moves a*b by b.'
        ),
    ),
    binary(
        "div", "/", "Elementwise quotient a / b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = \frac{1}{b},\quad "
        r"\frac{\partial y}{\partial b} = -\frac{a}{b^2}",
        torch_code.infix("/"),
        sentence=(
            "Dividing by b scales a's gradient by 1/b; b's gradient is -a/b², so small "
            'denominators make large gradients.'
        ),
    ),
    binary(
        "pow", "**", "Elementwise power a ** b, with broadcasting.",
        r"\frac{\partial y}{\partial a} = b\,a^{b-1},\quad "
        r"\frac{\partial y}{\partial b} = a^{b} \ln a",
        torch_code.infix("**"),
        sentence=(
            'The power rule b·a^(b-1) for the base; for the exponent a^b·ln a, which needs a > 0.'
        ),
    ),
    OpInfo(
        "neg", 1, (), "Negation -x.", r"\frac{\partial y}{\partial x} = -1",
        ag.neg, "-x", torch_code.code(lambda x, a, n: f"-{x[0]}"), "-",
        sentence='Negation flips the sign of the gradient.',
    ),
)
