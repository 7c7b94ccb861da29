"""What the teacher's projector shows about one step, and the CSV of a whole lesson: pure
functions of the answers' rows, tested without a database."""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from .lesson import Key, recognise

MAX_BARS = 12
"""Distinct answers drawn per hidden number; the rest are counted together as "other"."""
MAX_WRONG = 5
"""Common wrong answers listed per hidden number."""


@dataclass(frozen=True)
class AnswerRow:
    """One student's latest answer to one hidden number of a step."""

    student: int
    node: str
    text: str
    number: float | None
    correct: bool


@dataclass(frozen=True)
class Bar:
    answer: str  # the number as shown (4 significant digits), or the text typed
    count: int
    correct: bool


@dataclass(frozen=True)
class Wrong:
    answer: str
    count: int
    recognised: str | None  # what this number is, when it is another number of the graph


@dataclass(frozen=True)
class NodeSummary:
    node: str
    label: str
    answered: int
    correct: int
    bars: tuple[Bar, ...]
    wrong: tuple[Wrong, ...]

    @property
    def share_correct(self) -> float | None:
        return self.correct / self.answered if self.answered else None


@dataclass(frozen=True)
class StepSummary:
    joined: int
    answered: int  # students who answered at least one hidden number
    all_correct: int  # students whose answers to every hidden number are right
    nodes: tuple[NodeSummary, ...]

    @property
    def share_correct(self) -> float | None:
        """Of the students who answered, the share who got every hidden number right."""
        return self.all_correct / self.answered if self.answered else None


def shown(row: AnswerRow) -> str:
    """An answer as the chart groups it: a number to 4 significant digits, else its text."""
    if row.number is not None and math.isfinite(row.number):
        return f"{row.number:.4g}"
    return row.text if len(row.text) <= 24 else row.text[:23] + "…"


def summarise(key: Key | None, rows: Iterable[AnswerRow], joined: int) -> StepSummary:
    rows = list(rows)
    if key is None:
        return StepSummary(joined, 0, 0, ())
    by_student: dict[int, dict[str, bool]] = {}
    for row in rows:
        by_student.setdefault(row.student, {})[row.node] = row.correct
    all_correct = sum(1 for marks in by_student.values()
                      if len(marks) == len(key.nodes) and all(marks.values()))
    nodes = tuple(_node(key, node, [r for r in rows if r.node == node]) for node in key.nodes)
    return StepSummary(joined, len(by_student), all_correct, nodes)


def _node(key: Key, node: str, rows: list[AnswerRow]) -> NodeSummary:
    counts = Counter((shown(r), r.correct) for r in rows)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    bars = [Bar(answer, n, ok) for (answer, ok), n in ranked[:MAX_BARS]]
    rest = sum(n for _, n in ranked[MAX_BARS:])
    if rest:
        bars.append(Bar("other", rest, False))
    numbers = {shown(r): r.number for r in rows if not r.correct}
    wrong = [Wrong(answer, n, recognise(key, node, numbers[answer])
                   if numbers.get(answer) is not None else None)
             for (answer, ok), n in ranked if not ok][:MAX_WRONG]
    return NodeSummary(node, key.label(node), len(rows), sum(r.correct for r in rows),
                       tuple(bars), tuple(wrong))


# --- CSV --------------------------------------------------------------------------------------

CSV_COLUMNS = ("step", "step_title", "student", "nickname", "hidden_number", "answer", "correct",
               "answered_at_utc")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one that would start a formula gets a leading '
    (numbers such as -3 stay numbers)."""
    if text.startswith(_FORMULA_STARTS):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def to_csv(rows: Iterable[tuple]) -> str:
    """Rows of (step position, step title, student number, nickname, node, answer, correct,
    answered at in ms) as CSV text, one line per answer."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for position, title, number, nickname, node, text, correct, at_ms in rows:
        when = datetime.fromtimestamp(at_ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        writer.writerow([position + 1, safe_cell(title), number, safe_cell(nickname or ""),
                         node, safe_cell(text), "yes" if correct else "no", when])
    return out.getvalue()
