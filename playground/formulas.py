"""A node's local derivative as LaTeX, in the node's own names and, for scalars, its numbers.

The registry writes each op's derivative once, with generic names: ``\\frac{\\partial y}{\\partial
a} = b`` for ``mul``. For the node ``c = mul(a, b)`` with a = 2 and b = 3 this module writes
``∂c/∂a = b = 3.0000`` and ``∂c/∂b = a = 2.0000``: the generic names are replaced, token by token,
by the node's and its operands' names, and where the node and an operand are single numbers the
partial derivative's value follows, computed by the engine on the node's own operands.
"""

from __future__ import annotations

import re

import numpy as np

import autograd as ag
from autograd.format import number

from . import registry
from .evaluate import Result

OUTPUT_SYMBOLS = ("y", "Y", "L")
"""How the registry's derivatives name an op's result."""
DEFAULT_SYMBOLS = {1: ("x",), 2: ("a", "b")}
"""The operands' names in a derivative whose registry entry gives no ``symbols``."""

_TOKEN = r"\\[A-Za-z]+|\\.|\s+|."
_VERBATIM = {r"\text", r"\operatorname", r"\mathbb", r"\mathrm", r"\begin", r"\end"}
"""Control words whose braced argument is words, not symbols: copied as they are."""
_SEPARATOR = r",\quad"
_NUMBER = r"-?[0-9]+(\.[0-9]+)?"


def local_derivative(result: Result, name: str) -> str | None:
    """The local derivative of op node ``name`` as LaTeX (None for an input or constant).

    One line per operand the registry differentiates, stacked with ``gathered``; each line ends
    with ``= <value>`` when the node and that operand are single numbers and the formula's right
    side is not already a plain number.
    """
    node = result.node(name)
    if node.op is None:
        return None
    info = registry.get(node.op)
    symbols = info.symbols or DEFAULT_SYMBOLS.get(len(node.operands), ())
    names = dict(zip(symbols, node.operands, strict=False))
    names.update(dict.fromkeys(OUTPUT_SYMBOLS, name))
    partials = _partials(result, name) if node.value.size == 1 else {}
    lines = []
    for piece in info.derivative.split(_SEPARATOR):
        latex, operand = _rename(piece.strip(), names)
        value = partials.get(operand)
        right = latex.split("=")[-1].strip()
        if value is not None and not re.fullmatch(_NUMBER, right):
            latex += f" = {number(value)}"
        lines.append(latex)
    if len(lines) == 1:
        return lines[0]
    return r"\begin{gathered}" + r" \\ ".join(lines) + r"\end{gathered}"


GENERIC_OPERANDS = {"a": "u", "b": "v"}
"""How the Local derivatives panel renames the registry's generic operands ``a`` and ``b``: a
graph has its own ``a`` and ``b`` (the classic one does), and a rule in the same letters read as
if it were about them."""


def rule(op: str) -> str:
    """The op's local derivative as the Local derivatives panel shows it, for any node: the
    registry's formula with its operands ``a``, ``b`` written ``u``, ``v``."""
    info = registry.get(op)
    symbols = info.symbols or DEFAULT_SYMBOLS.get(info.arity or 0, ())
    names = {s: GENERIC_OPERANDS[s] for s in symbols if s in GENERIC_OPERANDS}
    if not names:
        return info.derivative
    return _SEPARATOR.join(_rename(piece.strip(), names)[0]
                           for piece in info.derivative.split(_SEPARATOR))


_SENTENCE_OPERAND = r"(?<![A-Za-z0-9_\\])(?:(?<=nudging )a|a(?! [a-z]{2,})|b)(?![A-Za-z0-9_])"
"""A standalone ``a`` or ``b`` in an op's sentence that names an operand: ``b``, and ``a``
unless it is the article before a word ("a whole row"; "nudging a moves" names the operand)."""


def rule_sentence(op: str) -> str:
    """The op's sentence as the Local derivatives panel shows it, in the operand names of
    `rule` (``u``, ``v``)."""
    info = registry.get(op)
    symbols = info.symbols or DEFAULT_SYMBOLS.get(info.arity or 0, ())
    if not set(symbols) & set(GENERIC_OPERANDS):
        return info.sentence
    return re.sub(_SENTENCE_OPERAND, lambda m: GENERIC_OPERANDS[m.group(0)], info.sentence)


def _rename(latex: str, names: dict[str, str]) -> tuple[str, int | None]:
    """``latex`` with every generic symbol replaced by its name (``\\mathit{name}``), and the
    operand position its left side differentiates by (None when it names no operand)."""
    tokens = re.findall(_TOKEN, latex)
    symbols = sorted(((re.findall(_TOKEN, s), s) for s in names), key=lambda t: -len(t[0]))
    operands = [s for s in names if s not in OUTPUT_SYMBOLS]
    out, operand, left, i = [], None, True, 0
    while i < len(tokens):
        if tokens[i] in _VERBATIM and tokens[i + 1:i + 2] == ["{"]:
            end = _closing_brace(tokens, i + 1)
            out.extend(tokens[i:end + 1])
            i = end + 1
            continue
        left = left and tokens[i] != "="
        match = next((s for parts, s in symbols if tokens[i:i + len(parts)] == parts), None)
        if match is None:
            out.append(tokens[i])
            i += 1
            continue
        if left and operand is None and match in operands:
            operand = operands.index(match)
        out.append(r"\mathit{" + names[match].replace("_", r"\_") + "}")
        i += len(re.findall(_TOKEN, match))
    return "".join(out), operand


def _closing_brace(tokens: list[str], start: int) -> int:
    """The index of the ``}`` that closes the ``{`` at ``start``."""
    depth = 0
    for i in range(start, len(tokens)):
        depth += {"{": 1, "}": -1}.get(tokens[i], 0)
        if depth == 0:
            return i
    return len(tokens) - 1


def _partials(result: Result, name: str) -> dict[int, float]:
    """d node / d operand at the node's operand values, for each single-number operand that
    gets a gradient (operand position -> value), from the engine's own backward."""
    node = result.node(name)
    inputs = [ag.tensor(np.array(result.value(o), dtype=np.float64), requires_grad=True)
              for o in node.operands]
    with np.errstate(all="ignore"):
        registry.get(node.op).apply(*inputs, **node.attrs).sum().backward()
    return {i: float(t.grad.data.reshape(-1)[0]) for i, t in enumerate(inputs)
            if t.grad is not None and t.size == 1}
