"""Equations in words, for a screen reader: the step-through's chain-rule lines are LaTeX on the
page, which a screen reader reads as markup or not at all, and their plain text is full of
symbols (∂, ·, +=) that many read as nothing. ``words`` says the plain text of a ``Line`` the way
a teacher would say it aloud:

    ∂d/∂a += ∂d/∂c · ∂c/∂a = 1.0000 · 3.0000 = 3.0000
    the gradient of d by a gains the gradient of d by c times the derivative of c by a,
    that is 1.0000 times 3.0000, which is 3.0000
"""

from __future__ import annotations

import re

_PARTIAL = r"∂(\([^()]*(?:\([^()]*\)[^()]*)*\)|[^\s/∂]+)/∂([^\s·+=)]+)"
_TANGENT = r"(\([^()]+\)|\w)\u0307"
_RELATIONS = ((" += ", " gains "), (" · ", " times "), (" @ ", " matrix-times "),
              (" + ", " plus "), (" - ", " minus "), (" / ", " divided by "))
_UNKNOWN = "unknown"


def words(text: str, output: str) -> str:
    """The plain text of an equation (``Line.eq.text``) in words. ``∂output/∂x`` is the
    gradient of the output by x, any other ``∂y/∂x`` a local derivative, ``ẋ`` the tangent of x,
    ``?`` unknown (not computed yet, or hidden by an exercise). The numbers after the relation
    read "that is ..., which is ..." (the last one is the result)."""

    def partial(match: re.Match) -> str:
        of, by = match.group(1), match.group(2)
        kind = "gradient" if of == output else "derivative"
        return f"the {kind} of {of} by {by}"

    text = re.sub(_PARTIAL, partial, text)
    text = re.sub(_TANGENT, lambda m: f"the tangent of {m.group(1).strip('()')}", text)
    for symbol, said in _RELATIONS:
        text = text.replace(symbol, said)
    parts = text.split(" = ")
    if " gains " in parts[0]:
        head, numbers = parts[0], parts[1:]
    else:
        head, numbers = " equals ".join(parts[:2]), parts[2:]
    if numbers:
        head += "".join(f", that is {n}" for n in numbers[:-1]) + f", which is {numbers[-1]}"
    return re.sub(r"(?<![\w.])\?(?![\w.])", _UNKNOWN, head)
