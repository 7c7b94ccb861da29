"""Registry entries: arithmetic."""

import autograd as ag

from .. import torch_code
from . import rules
from .entry import OpInfo, binary

ENTRIES = (
    binary(
        "add", symbol="+", description="Elementwise sum a + b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = 1",
        torch=torch_code.infix("+"),
        sentence=(
            'Addition passes the gradient through unchanged to both operands; where an operand '
            'was broadcast, its gradient is summed over the copies.'
        ),
    ),
    binary(
        "sub", symbol="-", description="Elementwise difference a - b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = 1,\quad \frac{\partial y}{\partial b} = -1",
        torch=torch_code.infix("-"),
        sentence=(
            'Subtraction passes the gradient to the first operand unchanged and to the second '
            'with its sign flipped.'
        ),
    ),
    binary(
        "mul", symbol="*", description="Elementwise product a * b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = b,\quad \frac{\partial y}{\partial b} = a",
        torch=torch_code.infix("*"),
        sentence=(
            "Each factor's gradient is the upstream gradient times the other factor: nudging a "
            'moves a*b by b.'
        ),
    ),
    binary(
        "div", symbol="/", description="Elementwise quotient a / b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = \frac{1}{b},\quad "
                   r"\frac{\partial y}{\partial b} = -\frac{a}{b^2}",
        torch=torch_code.infix("/"),
        sentence=(
            "Dividing by b scales a's gradient by 1/b; b's gradient is -a/b², so small "
            'denominators make large gradients.'
        ),
    ),
    binary(
        "pow", symbol="**", description="Elementwise power a ** b, with broadcasting.",
        derivative=r"\frac{\partial y}{\partial a} = b\,a^{b-1},\quad "
                   r"\frac{\partial y}{\partial b} = a^{b} \ln a",
        torch=torch_code.infix("**"),
        sentence=(
            'The power rule b·a^(b-1) for the base; for the exponent a^b·ln a, which needs a > 0.'
        ),
    ),
    OpInfo(
        "neg", arity=1, description="Negation -x.",
        derivative=r"\frac{\partial y}{\partial x} = -1", apply=ag.neg, example="-x",
        torch=torch_code.code(lambda x, a, n: f"-{x[0]}"), shape=rules.same, symbol="-",
        sentence='Negation flips the sign of the gradient.',
    ),
)
