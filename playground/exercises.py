"""Exercises: the teacher hides some nodes' gradients, values or tangents; students guess them.

An ``Exercise`` names the quantity ("grad", "value" or "tangent"; a tangent along which input)
and the hidden nodes. It travels in the share link as one parameter, ``ex``, such as
``grad:a,b`` or ``tangent@x:c,d``; the guesses never do. ``check`` marks a guess right within a
relative tolerance of 1e-3 (1e-6 absolute near zero), element by element for tensors.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from autograd.format import number, shape_text

from . import limits
from .errors import SpecError
from .evaluate import Result
from .expr import parse_value

QUANTITIES = {"grad": "gradients", "value": "values", "tangent": "tangents"}
"""Quantity -> its name in the page's words."""
MODE_OF = {"grad": "reverse", "value": "forward", "tangent": "tangent"}
"""Quantity -> the step-through mode that shows it (``playground.steps.MODES``)."""
RELATIVE = 1e-3
ABSOLUTE = 1e-6
MAX_GUESS_CHARS = 2_000
"""Characters in one guess: a 10 x 10 matrix written out is about 700."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PARAM = rf"(grad|value|tangent)(?:@({_NAME}))?:({_NAME}(?:,{_NAME})*)"


@dataclass(frozen=True)
class Exercise:
    """Which ``quantity`` of which ``nodes`` is hidden; ``wrt`` is the input whose tangents
    (quantity "tangent" only), moved along its first element."""

    quantity: str
    nodes: tuple[str, ...]
    wrt: str | None = None

    def to_param(self) -> str:
        """The share link's ``ex`` parameter: ``grad:a,b`` or ``tangent@x:c``."""
        at = f"@{self.wrt}" if self.wrt else ""
        return f"{self.quantity}{at}:{','.join(self.nodes)}"

    def hides(self, quantity: str, name: str) -> bool:
        return quantity == self.quantity and name in self.nodes


def hideable(result: Result, quantity: str) -> list[str]:
    """The nodes whose ``quantity`` an exercise can hide: every node's value; the gradient and
    tangent of every node that has one (not the constants)."""
    if quantity == "value":
        return [n.name for n in result.nodes]
    return [n.name for n in result.nodes if n.grad is not None]


def make(result: Result, quantity: str, nodes, wrt: str | None = None) -> Exercise:
    """An exercise on this graph; SpecError saying what is wrong otherwise."""
    if quantity not in QUANTITIES:
        raise SpecError(f"an exercise hides one of {', '.join(QUANTITIES)}, not {quantity!r:.30}")
    allowed = hideable(result, quantity)
    nodes = tuple(dict.fromkeys(nodes))
    for name in nodes:
        if name not in allowed:
            what = "is not a node" if name not in {n.name for n in result.nodes} else (
                "has no gradient or tangent (a constant)")
            raise SpecError(f"{name!r:.40} {what} of this graph, so the exercise cannot hide it")
    if quantity == "tangent":
        inputs = [n.name for n in result.nodes if n.kind == "input"]
        if wrt not in inputs:
            raise SpecError("a tangent exercise needs the input to move: one of "
                            + ", ".join(inputs))
    else:
        wrt = None
    return Exercise(quantity, nodes, wrt)


def from_param(text: str | None, result: Result) -> tuple[Exercise | None, list[str]]:
    """The exercise a link's ``ex`` parameter describes, and what was ignored (never raises)."""
    if text is None:
        return None, []
    if not isinstance(text, str) or len(text) > limits.MAX_NODES * (limits.MAX_NAME_CHARS + 1):
        return None, ["ex (too long to be an exercise)"]
    match = re.fullmatch(_PARAM, text)
    if match is None:
        return None, [f"ex={text[:40]!r} (write it as grad:a,b or tangent@x:c)"]
    quantity, wrt, names = match.groups()
    try:
        return make(result, quantity, names.split(","), wrt), []
    except SpecError as err:
        return None, [f"ex ({err})"]


def answers(exercise: Exercise, result: Result,
            tangents: Mapping[str, np.ndarray | None] | None = None) -> dict[str, np.ndarray]:
    """The hidden numbers: node -> its value, gradient or tangent (``tangents`` for the last)."""
    out = {}
    for name in exercise.nodes:
        if exercise.quantity == "value":
            out[name] = result.value(name)
        elif exercise.quantity == "grad":
            out[name] = result.grad(name)
        else:
            out[name] = tangents[name]
    return out


def parse_guess(text: str, shape) -> np.ndarray:
    """A typed guess as an array of ``shape``: a number, or a nested list for a tensor (read by
    the expression language's value reader, never evaluated). SpecError says what to type."""
    shape = tuple(shape)
    if not isinstance(text, str) or not text.strip():
        raise SpecError("type a number" + (f", or a list of shape {shape_text(shape)}"
                                           if shape else ""))
    if len(text) > MAX_GUESS_CHARS:
        raise SpecError(f"a guess has at most {MAX_GUESS_CHARS:,} characters")
    value = parse_value(text.strip())
    if isinstance(value, dict):
        raise SpecError("type the numbers themselves, such as 4 or [1, 2]")
    guess = np.asarray(value, dtype=np.float64)
    if guess.size == 1 and int(np.prod(shape)) == 1:
        return guess.reshape(shape)
    if guess.shape != shape:
        raise SpecError(f"this node has shape {shape_text(shape)}, but the guess has shape "
                        f"{shape_text(guess.shape)}: type one number per element, as "
                        f"{_example(shape)}")
    return guess


def _example(shape) -> str:
    if int(np.prod(shape)) > 12:
        return f"a nested list of {len(shape)} levels"
    return str(np.zeros(shape, dtype=int).tolist())


def check(guess: np.ndarray, answer: np.ndarray) -> bool:
    """Right when every element is within 1e-3 of the answer, relatively (1e-6 absolutely near
    zero); NaN and inf must be matched exactly."""
    answer = np.asarray(answer, dtype=np.float64)
    guess = np.asarray(guess, dtype=np.float64)
    if guess.shape != answer.shape:
        return False
    finite = np.isfinite(answer)
    if not np.array_equal(guess[~finite], answer[~finite], equal_nan=True):
        return False
    error = np.abs(guess[finite] - answer[finite])
    return bool(np.all(error <= np.maximum(RELATIVE * np.abs(answer[finite]), ABSOLUTE)))


def score(marks: Mapping[str, object], total: int) -> str:
    """``3 of 5 correct``: how many checked guesses are right (marked True), out of all hidden
    nodes; before any guess is checked, no score (a 0 would mark the class wrong before it
    tried)."""
    if not marks:
        return "none yet: type your guesses and press Check"
    right = sum(1 for ok in marks.values() if ok is True)
    return f"{right} of {total} correct"


def still_hidden(exercise: Exercise | None, revealed, marks: Mapping[str, object]
                 ) -> Exercise | None:
    """The exercise without the nodes revealed or already guessed right (None when nothing is
    hidden any more: every answer revealed or found, so the closed pages open)."""
    if exercise is None:
        return None
    nodes = tuple(n for n in exercise.nodes if n not in revealed and marks.get(n) is not True)
    return Exercise(exercise.quantity, nodes, exercise.wrt) if nodes else None


def answered(exercise: Exercise | None, revealed, marks: Mapping[str, object]
             ) -> Exercise | None:
    """The exercise's nodes revealed or guessed right: shown in the drawing at every step."""
    if exercise is None:
        return None
    nodes = tuple(n for n in exercise.nodes if n in revealed or marks.get(n) is True)
    return Exercise(exercise.quantity, nodes, exercise.wrt) if nodes else None


def next_to_reveal(exercise: Exercise, revealed, marks: Mapping[str, object]) -> str | None:
    """The answer *Reveal the next answer* shows: the first node guessed wrong (or unreadably),
    else the first not guessed yet; never one already right or revealed (None: nothing left)."""
    left = [n for n in exercise.nodes if n not in revealed and marks.get(n) is not True]
    wrong = [n for n in left if n in marks]
    return (wrong or left or [None])[0]


def answer_text(answer: np.ndarray) -> str:
    """An answer as it is revealed: a number, or a tensor's entries."""
    a = np.asarray(answer)
    if a.size == 1:
        return number(a.reshape(-1)[0])
    return np.array2string(a, precision=4, separator=", ", threshold=200)
