"""How the step-through and the evaluation traces write their equations, as text and as LaTeX.

Every piece is an ``Eq``: the same mathematics as plain text (for tables and CSV) and as LaTeX
(for ``st.latex`` and the LaTeX export). Variables are written in one of two ways:
``NodeNames`` uses the graph's own names (``∂d/∂a``, as the step-through says it), ``VNames``
the automatic-differentiation literature's numbering (Griewank and Walther; Baydin et al.):
inputs ``v₋ₙ₊₁ … v₀``, operations ``v₁ … vₘ`` in the order they are computed, tangents ``v̇ᵢ``
and adjoints ``v̄ᵢ``. Constants keep their names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from autograd.format import array_text, number, shape_text

from .evaluate import NodeResult, Result

HIDDEN = "?"
"""How a number not computed yet, or hidden by an exercise, is written."""

_SUBSCRIPTS = str.maketrans("0123456789-", "₀₁₂₃₄₅₆₇₈₉₋")
_INFIX = {  # op -> (text, LaTeX) between its two operands
    "add": (" + ", " + "),
    "sub": (" − ", " - "),
    "mul": (" · ", r" \cdot "),
    "div": (" / ", " / "),
    "matmul": (" @ ", r" \mathbin{@} "),
}


@dataclass(frozen=True)
class Eq:
    """One piece of an equation, as plain text and as LaTeX."""

    text: str
    tex: str

    def __add__(self, other: Eq) -> Eq:
        return Eq(self.text + other.text, self.tex + other.tex)


def eq(text: str, tex: str | None = None) -> Eq:
    return Eq(text, text if tex is None else tex)


def join(parts: Iterable[Eq], sep: Eq) -> Eq:
    out = None
    for part in parts:
        out = part if out is None else out + sep + part
    return out if out is not None else eq("")


EQUALS = eq(" = ")
PLUS_EQUALS = eq(" += ", r" \mathrel{+}= ")
TIMES = eq(" · ", r" \cdot ")
PLUS = eq(" + ")


def tex_name(name: str) -> str:
    """A node name in LaTeX: italic, underscores escaped (as ``playground.formulas`` writes it)."""
    return r"\mathit{" + name.replace("_", r"\_") + "}"


def num(value, hidden: bool = False) -> Eq:
    """A single number (``3.0000``), or ``?`` when hidden or not computed yet."""
    if hidden or value is None:
        return eq(HIDDEN, r"\text{?}")
    return eq(number(np.asarray(value).reshape(-1)[0]))


def factor(e: Eq) -> Eq:
    """``e`` as a factor of a product: a negative number in parentheses, ``2 · (-3)``."""
    return eq("(") + e + eq(")") if e.text.startswith("-") else e


def scalar(array) -> bool:
    return array is not None and np.asarray(array).size == 1


class NodeNames:
    """Variables in the graph's own names; gradients are d(output)/d(node)."""

    def __init__(self, output: str) -> None:
        self.output = output

    def var(self, name: str) -> Eq:
        return eq(name, tex_name(name))

    def bar(self, name: str) -> Eq:
        return eq(f"∂{self.output}/∂{name}",
                  rf"\frac{{\partial {tex_name(self.output)}}}{{\partial {tex_name(name)}}}")

    def dot(self, name: str) -> Eq:
        return eq(f"{name}\u0307" if len(name) == 1 else f"({name})\u0307",
                  rf"\dot{{{tex_name(name)}}}")

    def partial(self, of: str, by: str) -> Eq:
        return eq(f"∂{of}/∂{by}",
                  rf"\frac{{\partial {tex_name(of)}}}{{\partial {tex_name(by)}}}")

    def local(self, n: NodeResult, by: str) -> Eq:
        """The local derivative of node ``n`` by operand ``by``. For the output itself it is
        written on its formula, ∂(c + a)/∂a, since ∂d/∂a already names the whole gradient."""
        if n.name != self.output:
            return self.partial(n.name, by)
        inner = call(n, [self.var(o) for o in n.operands])
        return eq(f"∂({inner.text})/∂{by}",
                  rf"\frac{{\partial ({inner.tex})}}{{\partial {tex_name(by)}}}")


class VNames:
    """Variables numbered as in the literature: inputs v₋ₙ₊₁ … v₀, operations v₁ … vₘ."""

    def __init__(self, result: Result) -> None:
        inputs = [n.name for n in result.nodes if n.kind == "input"]
        ops = [n.name for n in result.nodes if n.kind == "op"]
        self.index = {name: i - len(inputs) + 1 for i, name in enumerate(inputs)}
        self.index.update({name: i + 1 for i, name in enumerate(ops)})

    def _sub(self, name: str, mark: str, tex_mark: str) -> Eq:
        i = self.index.get(name)
        if i is None:  # a constant keeps its name
            return eq(name, tex_name(name))
        return eq(f"v{mark}{str(i).translate(_SUBSCRIPTS)}", rf"{tex_mark}{{v}}_{{{i}}}")

    def var(self, name: str) -> Eq:
        return self._sub(name, "", "")

    def bar(self, name: str) -> Eq:
        return self._sub(name, "\u0304", r"\bar")

    def dot(self, name: str) -> Eq:
        return self._sub(name, "\u0307", r"\dot")

    def partial(self, of: str, by: str) -> Eq:
        a, b = self.var(of), self.var(by)
        return eq(f"∂{a.text}/∂{b.text}", rf"\frac{{\partial {a.tex}}}{{\partial {b.tex}}}")

    def local(self, n: NodeResult, by: str) -> Eq:
        return self.partial(n.name, by)


def call(n: NodeResult, args: list[Eq]) -> Eq:
    """How node ``n`` is computed from ``args`` (its operands written somehow): ``a · b``,
    ``-a``, ``a^b``, ``tanh(a)``, ``sum(a, axis=0)``."""
    if n.op in _INFIX and len(args) == 2:
        text, tex = _INFIX[n.op]
        return factor(args[0]) + eq(text, tex) + factor(args[1])
    if n.op == "neg" and len(args) == 1:
        return eq("−", "-") + factor(args[0])
    if n.op == "pow" and len(args) == 2:
        return factor(args[0]) + eq("^(", "^{") + args[1] + eq(")", "}")
    settings = [eq(f"{k}={v}", rf"\text{{{_tex_setting(k)}}}={_tex_setting(v)}")
                for k, v in n.attrs.items() if v is not None]
    inside = join([*args, *settings], eq(", ", r",\ "))
    op_tex = n.op.replace("_", r"\_")
    return eq(f"{n.op}(", rf"\operatorname{{{op_tex}}}(") + inside + eq(")")


def _tex_setting(value) -> str:
    return str(value).replace("_", r"\_").replace(" ", r"\ ")


def summary(array, hidden: bool = False) -> str:
    """A value as a table cell: a number, a small tensor in full, or its shape and summary."""
    if hidden or array is None:
        return HIDDEN
    a = np.asarray(array)
    if a.size == 1:
        return number(a.reshape(-1)[0])
    return f"{shape_text(a.shape)} {array_text(a)}"
