"""Evaluation traces: the whole computation as a table, in the literature's notation.

Three traces, each a list of ``Row``: the primal trace (every input ``v₋ₙ₊₁ … v₀`` and every
operation ``vᵢ = …`` in forward order, with its value), the tangent trace (``v̇ᵢ`` for one input
direction, forward mode) and the adjoint trace (``v̄ᵢ`` in the order the engine's backward ran,
one line per contribution, so a variable used twice gets two lines). Each row knows the step of
its mode, so the page can highlight the current one; ``to_latex`` and ``to_csv`` export a trace
for lecture notes.

The equations are written by the functions ``forward_line``, ``tangent_line``, ``adjoint_line``
and ``sum_line``, which the step-through's chain-rule lines share. Scalars are written with their
numbers; tensors by name, their numbers summarised in the value column. ``hide(quantity, name)``
says which numbers an exercise hides ("value", "grad" or "tangent" of a node): they become ``?``.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .evaluate import Result
from .notation import (
    EQUALS,
    PLUS,
    PLUS_EQUALS,
    TIMES,
    Eq,
    VNames,
    call,
    eq,
    factor,
    join,
    num,
    scalar,
    summary,
)
from .steps import Backward, Contribution, Gradient, Tangents, local_partials

Hide = Callable[[str, str], bool]
"""(quantity, node name) -> whether an exercise hides that number."""


def show_all(quantity: str, name: str) -> bool:
    return False


@dataclass(frozen=True)
class Row:
    """One line of a trace: the step of its mode it belongs to, the node, the equation and the
    value it gives (a cell of text)."""

    step: int
    node: str
    equation: Eq
    value: str


# ---------------------------------------------------------------------------------------------
# Lines.


@dataclass(frozen=True)
class Line:
    """One equation: ``lhs rel rhs``, then ``= numbers[0] = numbers[1] …`` where numbers apply."""

    lhs: Eq
    rel: Eq
    rhs: Eq
    numbers: tuple[Eq, ...] = ()

    @property
    def eq(self) -> Eq:
        """The whole equation on one line."""
        out = self.lhs + self.rel + self.rhs
        for part in self.numbers:
            out = out + EQUALS + part
        return out

    @property
    def aligned(self) -> str:
        """LaTeX with the numbers on a second line, aligned under the first relation."""
        body = f"{self.lhs.tex} &{self.rel.tex.strip()} {self.rhs.tex}"
        if self.numbers:
            body += r" \\ &= " + " = ".join(part.tex for part in self.numbers)
        return r"\begin{aligned}" + body + r"\end{aligned}"


def forward_line(result: Result, name: str, names, hide: Hide = show_all) -> Line:
    """``c = a · b = 2.0000 · 3.0000 = 6.0000``; for tensors ``c = a · b``."""
    n = result.node(name)
    line = Line(names.var(name), EQUALS, call(n, [names.var(o) for o in n.operands]))
    operands = [result.value(o) for o in n.operands]
    if all(scalar(v) for v in operands) and scalar(n.value):
        numbers = [num(v, hide("value", o)) for o, v in zip(n.operands, operands)]
        line = replace(line, numbers=(call(n, numbers), num(n.value, hide("value", name))))
    return line


def tangent_line(result: Result, tangents: Tangents, name: str, names,
                 partials: dict[int, float], hide: Hide = show_all) -> Line:
    """``ċ = ∂c/∂a · ȧ + ∂c/∂b · ḃ = 3.0000 · 1.0000 + 2.0000 · 0.0000 = 3.0000``: the tangent of
    an operation from its operands' tangents (operands without a tangent, constants, drop out)."""
    n = result.node(name)
    slots = [i for i, o in enumerate(n.operands) if tangents.values[o] is not None]
    if not slots:
        return Line(names.dot(name), EQUALS, eq("0 (made of constants only)", "0"))
    terms = join([names.partial(name, n.operands[i]) + TIMES + names.dot(n.operands[i])
                  for i in slots], PLUS)
    line = Line(names.dot(name), EQUALS, terms)
    tangent = tangents.values[name]
    if all(i in partials for i in slots) and scalar(tangent):
        products = join([factor(num(partials[i])) + TIMES
                         + factor(num(tangents.values[n.operands[i]],
                                      hide("tangent", n.operands[i])))
                         for i in slots], PLUS)
        line = replace(line, numbers=(products, num(tangent, hide("tangent", name))))
    return line


def adjoint_line(result: Result, c: Contribution, names, partials: dict[int, float],
                 hide: Hide = show_all) -> Line:
    """``∂d/∂a += ∂d/∂c · ∂c/∂a = 1.0000 · 3.0000 = 3.0000``: one contribution of the chain rule,
    the source's gradient times its local derivative by this operand."""
    line = Line(names.bar(c.target), PLUS_EQUALS,
                names.bar(c.source) + TIMES + names.local(result.node(c.source), c.target))
    upstream = result.grad(c.source)
    if c.slot in partials and scalar(upstream) and scalar(c.value):
        product = (factor(num(upstream, hide("grad", c.source))) + TIMES
                   + factor(num(partials[c.slot])))
        line = replace(line, numbers=(product, num(c.value, hide("grad", c.target))))
    return line


def seed_line(result: Result, names, hide: Hide = show_all) -> Line:
    """``∂d/∂d = 1``: backward starts from the output (ones for a tensor output)."""
    if hide("grad", result.output):
        return Line(names.bar(result.output), EQUALS, num(None))
    if result.value(result.output).size == 1:
        return Line(names.bar(result.output), EQUALS, eq("1"))
    return Line(names.bar(result.output), EQUALS,
                eq("1 (every element)", r"1\ 	ext{(every element)}"))


def sum_line(name: str, gradient: Gradient, names, hide: Hide = show_all) -> Line:
    """``∂d/∂a = 1.0000 + 3.0000 = 4.0000``: a gradient as the sum of the terms that reached it;
    a term still to come is ``?``."""
    hidden = hide("grad", name)
    terms = [num(t.value, hidden) if scalar(t.value) else eq(
        f"(from {t.source})", rf"(\text{{from }}{names.var(t.source).tex})")
        for t in gradient.terms]
    terms += [num(None)] * (gradient.expected - len(gradient.terms))
    line = Line(names.bar(name), EQUALS, join(terms, PLUS))
    if gradient.complete and scalar(gradient.value):
        line = replace(line, numbers=(num(gradient.value, hidden),))
    return line


# ---------------------------------------------------------------------------------------------
# The three traces.


def primal_trace(result: Result, hide: Hide = show_all) -> list[Row]:
    """Inputs and constants (step 0), then every operation in forward order (step i)."""
    names = VNames(result)
    rows = []
    for n in result.nodes:
        if n.kind != "op":
            what = eq(f" = {n.name}", rf" = \text{{{_tex_text(n.name)}}}")
            if n.kind == "const":
                what = eq(" (constant)", r"\ \text{(constant)}")
            rows.append(Row(0, n.name, names.var(n.name) + what,
                            summary(n.value, hide("value", n.name))))
    for step, n in enumerate((n for n in result.nodes if n.kind == "op"), start=1):
        rows.append(Row(step, n.name, forward_line(result, n.name, names, hide).eq,
                        summary(n.value, hide("value", n.name))))
    return rows


def tangent_trace(result: Result, tangents: Tangents, hide: Hide = show_all) -> list[Row]:
    """Each input's tangent (one-hot on the chosen element, step 0), then every operation's."""
    names = VNames(result)
    rows = []
    for n in result.nodes:
        if n.kind == "input":
            direction = tangents.values[n.name]
            if n.name != tangents.wrt:
                start = eq(" = 0")
            elif direction.size == 1:
                start = eq(" = 1")
            else:
                k = tangents.element
                start = eq(f" = e{str(k).translate(_SUB)} (one-hot)",
                           rf" = e_{{{k}}}\ 	ext{{(one-hot)}}")
            rows.append(Row(0, n.name, names.dot(n.name) + start,
                            summary(direction, hide("tangent", n.name))))
    for step, n in enumerate((n for n in result.nodes if n.kind == "op"), start=1):
        partials = local_partials(result, n.name)
        rows.append(Row(step, n.name, tangent_line(result, tangents, n.name, names, partials,
                                                   hide).eq,
                        summary(tangents.values[n.name], hide("tangent", n.name))))
    return rows


def adjoint_trace(result: Result, backward: Backward, hide: Hide = show_all) -> list[Row]:
    """The output's seed (step 0), then one line per contribution, in the engine's order, with
    the sum so far in the value column."""
    names = VNames(result)
    rows = []
    if backward.seed is not None:
        rows.append(Row(0, result.output, seed_line(result, names, hide).eq,
                        summary(backward.seed, hide("grad", result.output))))
    partials: dict[str, dict[int, float]] = {}
    running: dict[str, np.ndarray] = {}
    arrivals = Counter(c.target for step in backward.steps for c in step.contributions)
    for step in backward.steps:
        if step.node not in partials:
            partials[step.node] = local_partials(result, step.node)
        for c in step.contributions:
            running[c.target] = c.value if c.target not in running else running[c.target] + c.value
            hidden = hide("grad", c.target)
            value = summary(c.value, hidden)
            if arrivals[c.target] > 1:
                value += f" (sum so far {summary(running[c.target], hidden)})"
            rows.append(Row(c.step, c.target,
                            adjoint_line(result, c, names, partials[step.node], hide).eq,
                            value))
    return rows


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


# ---------------------------------------------------------------------------------------------
# Export.

COLUMNS = ("step", "node", "equation", "value")


def to_csv(rows: list[Row]) -> str:
    """The trace as CSV: step, node, equation (plain text), value."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow((r.step, r.node, r.equation.text, r.value))
    return out.getvalue()


def to_latex(rows: list[Row], caption: str = "") -> str:
    """The trace as a LaTeX ``tabular`` (equations in math mode), ready for lecture notes."""
    lines = [r"\begin{tabular}{rlll}", r"\hline",
             r"step & node & equation & value \\", r"\hline"]
    for r in rows:
        lines.append(f"{r.step} & {_tex_text(r.node)} & ${r.equation.tex}$ & "
                     f"{_tex_text(r.value)} \\\\")
    lines += [r"\hline", r"\end{tabular}"]
    if caption:
        lines.insert(0, f"% {caption}")
    return "\n".join(lines) + "\n"


_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "…": r"\ldots{}", "−": "-", "·": r"$\cdot$",
}


def _tex_text(text: str) -> str:
    """Plain text made safe for LaTeX's text mode."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)
