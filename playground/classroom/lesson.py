"""A lesson step: a link the app already opens (a page and its query), checked like any link.

``read_link`` takes what a teacher pastes or what the app's Share control writes (a whole
address, ``/backprop?graph=...&ex=grad:a,b``, or only ``?graph=...``), keeps the page and the
parameters the app reads, and refuses anything the app would not open. An exercise step (``ex``)
gets its answer key here, once, from the engine: the hidden numbers, and a few numbers of the
same graph a wrong answer may be recognised as (a node's value in place of its gradient, the
gradient of another node, the right number with the wrong sign). ``grade`` marks a student's
guess against that key with the app's own rule (``playground.exercises.check``).

A Step through step may also carry a position, ``at=reverse:3`` (the mode and the step shown;
forward mode also names the input that moves and its element, ``at=tangent:2:x:0``): the class
sees that step of that mode, as the teacher's Step through page shows it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

import numpy as np

from .. import exercises, limits, presets, share, steps, view
from ..errors import SpecError
from ..evaluate import evaluate
from ..exercises import Exercise
from ..spec import GraphSpec
from ..training import settings as train_settings
from .errors import Refused

PAGES = {"": "Build", "graph": "Graph", "gradients": "Gradients",
         "gradient_check": "Gradient check", "backprop": "Step through", "train": "Train"}
"""The url path of each of the app's pages (the default page is "") -> its title; a test keeps
it in step with pages/ui/frame.py."""
MAX_LINK_CHARS = limits.MAX_SHARE_CHARS + 2_000
"""A pasted link: the share string and its address and other parameters."""
MAX_NEAR = 200
"""Numbers of the graph kept per step to recognise wrong answers by."""
POSITION_PARAM = "at"
"""A Step through position: ``mode:step``, or ``tangent:step:input:element``."""


@dataclass(frozen=True)
class StepLink:
    """A step as stored: the page's url path, its query string (only the app's parameters), a
    title, and the answer key (JSON) of an exercise step."""

    page: str
    query: str
    title: str
    answer_key: str | None = None

    @property
    def target(self) -> str:
        """The step as a relative link: ``graph?graph=v1...``."""
        return self.page + (f"?{self.query}" if self.query else "")


@dataclass(frozen=True)
class Position:
    """A Step through position: the mode, the step shown (0 … the mode's count) and, in forward
    mode, the input that moves and its element."""

    mode: str
    step: int
    wrt: tuple[str, int] | None = None

    def to_param(self) -> str:
        return ":".join([self.mode, str(self.step)]
                        + ([self.wrt[0], str(self.wrt[1])] if self.wrt else []))

    def describe(self) -> str:
        along = f" along {self.wrt[0]}" if self.wrt else ""
        return f"{steps.MODES[self.mode].lower()}{along}, step {self.step}"


@dataclass(frozen=True)
class StepContent:
    """What a step opens, read back from its query: the graph, display options, exercise and
    Step through position (None where it has none), or the Train page's parameters."""

    page: str
    spec: GraphSpec | None
    options: view.Options
    exercise: Exercise | None
    train_query: dict[str, str]
    position: Position | None = None


def read_link(text: object, title: object = None) -> StepLink:
    """The step a link describes; Refused, saying why, when the app would not open it."""
    if not isinstance(text, str) or not text.strip():
        raise Refused("paste a link of this app, such as the one under Share in the sidebar")
    if len(text) > MAX_LINK_CHARS:
        raise Refused(f"the link has {len(text):,} characters, more than the limit of "
                      f"{MAX_LINK_CHARS:,}")
    parts = urlsplit(text.strip())
    segments = [s for s in parts.path.split("/") if s]
    page = segments[-1] if segments else ""
    page = "" if page == "build" else page
    if page not in PAGES:
        raise Refused(f"{page[:40]!r} is not a page of this app; a step opens one of "
                      + ", ".join(PAGES.values()))
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, max_num_fields=100)
    except ValueError:
        raise Refused("the link has more than 100 parameters; copy it from the app again") from None
    known = set(view.QUERY_KEYS) | set(train_settings.query_keys()) | {POSITION_PARAM}
    query = {k: v for k, v in pairs if k in known}
    content = _open(page, query)
    kept = _normalised_query(content)
    key = answer_key(content) if content.exercise is not None else None
    return StepLink(page, urlencode(kept, safe=":,"), _title(title, content), key)


def open_step(page: str, query: str) -> StepContent:
    """What a stored step opens (its query was checked when it was added)."""
    return _open(page, dict(parse_qsl(query, keep_blank_values=True, max_num_fields=100)),
                 checked=True)


def _open(page: str, query: dict[str, str], checked: bool = False) -> StepContent:
    if page == "train":
        settings, ignored = train_settings.settings_from_query(query)
        if ignored:
            raise Refused("the link's Train settings are not ones the app opens: "
                          + "; ".join(ignored))
        return StepContent(page, None, view.Options(), None, settings.to_query())
    spec = None
    if query.get(view.GRAPH_PARAM):
        try:
            spec = share.decode(query[view.GRAPH_PARAM])
        except SpecError as err:
            raise Refused(f"the link's graph does not open: {err}") from None
    options, ignored = view.options_from_query(query)
    if ignored:
        raise Refused("the link's display settings are not ones the app opens: "
                      + "; ".join(ignored))
    exercise = None
    if query.get(view.EXERCISE_PARAM) is not None:
        if spec is None:
            raise Refused("the link has an exercise but no graph")
        try:
            result = evaluate(spec)
        except SpecError as err:
            raise Refused(f"the link's graph cannot be evaluated: {err}") from None
        exercise, ignored = exercises.from_param(query[view.EXERCISE_PARAM], result)
        if ignored:
            raise Refused("the link's exercise does not fit its graph: " + "; ".join(ignored))
    position = None
    if query.get(POSITION_PARAM) is not None:
        if page != "backprop" or spec is None:
            raise Refused("a Step through position needs a graph on the Step through page")
        position = read_position(query[POSITION_PARAM], None if checked else spec)
    return StepContent(page, spec, options, exercise, {}, position)


def step_count(spec: GraphSpec, mode: str) -> int:
    """The steps of ``mode`` through ``spec``: the engine's backward Functions in reverse mode,
    the operations otherwise (as the Step through page counts them)."""
    if mode == "reverse":
        return steps.backward_steps(spec).count
    return sum(1 for node in spec.nodes if node.kind == "op")


def read_position(text: object, spec: GraphSpec | None) -> Position:
    """A Step through position of ``spec`` from ``at=...``; Refused, saying why, otherwise
    (with ``spec`` None, as stored: only its form is read)."""
    example = "such as reverse:3 or tangent:2:x:0"
    parts = text.split(":") if isinstance(text, str) and len(text) <= 200 else []
    if len(parts) not in (2, 4) or parts[0] not in steps.MODES or not parts[1].isdigit():
        raise Refused(f"a Step through position is a mode and a step, {example}")
    mode, step = parts[0], int(parts[1])
    if mode == "tangent" and len(parts) == 2:
        raise Refused(f"forward mode names the input that moves and its element, {example}")
    if mode != "tangent" and len(parts) == 4:
        raise Refused(f"only forward mode names an input that moves, {example}")
    if spec is None:
        return Position(mode, step, (parts[2], int(parts[3])) if len(parts) == 4 else None)
    try:
        count = step_count(spec, mode)
        result = evaluate(spec) if mode == "tangent" else None
    except SpecError as err:
        raise Refused(f"the link's graph cannot be stepped through: {err}") from None
    if step > count:
        raise Refused(f"{steps.MODES[mode]} has {count} steps through this graph, not {step}")
    wrt = None
    if mode == "tangent":
        name, element = parts[2], parts[3]
        inputs = [n.name for n in result.nodes if n.kind == "input"]
        if name not in inputs:
            raise Refused(f"forward mode moves an input of the graph ({', '.join(inputs)})")
        size = result.value(name).size
        if not element.isdigit() or int(element) >= size:
            raise Refused(f"{name} has {size} element{'s' if size != 1 else ''}, numbered "
                          "from 0")
        wrt = (name, int(element))
    return Position(mode, step, wrt)


def _normalised_query(content: StepContent) -> dict[str, str]:
    if content.page == "train":
        return dict(content.train_query)
    query = view.share_query(content.spec, content.options) if content.spec else {}
    if content.exercise is not None:
        query[view.EXERCISE_PARAM] = content.exercise.to_param()
    if content.position is not None:
        query[POSITION_PARAM] = content.position.to_param()
    return query


def _title(title: object, content: StepContent) -> str:
    if isinstance(title, str) and title.strip():
        text = " ".join(title.split())
        if len(text) > limits.MAX_STEP_TITLE_CHARS:
            raise Refused(f"a step's title is longer than {limits.MAX_STEP_TITLE_CHARS} "
                          "characters")
        return text
    if title is not None and not isinstance(title, str):
        raise Refused("a step's title is text")
    name = PAGES[content.page]
    if content.page == "train":
        settings = content.train_query
        detail = ", ".join(f"{k}={v}" for k, v in settings.items()) or "default settings"
        return _cut(f"{name}: {detail}")
    if content.spec is None:
        return name
    if content.exercise is not None:
        preset = next((p for p in presets.EXERCISES if p.spec == content.spec), None)
        what = exercises.QUANTITIES[content.exercise.quantity]
        hidden = f"work out the {what} of {', '.join(content.exercise.nodes)}"
        return _cut(f"{name}: {preset.title + ' — ' if preset else ''}{hidden}")
    preset = next((p for p in presets.PRESETS + presets.EXERCISES if p.spec == content.spec),
                  None)
    what = preset.title if preset else f"a graph of {len(content.spec)} nodes"
    at = f", {content.position.describe()}" if content.position else ""
    return _cut(f"{name}: {what}{at}")


def _cut(text: str) -> str:
    limit = limits.MAX_STEP_TITLE_CHARS
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the answer key of an exercise step, and marking ---------------------------------------------


def answer_key(content: StepContent) -> str:
    """JSON: the exercise, the output's name, each hidden node's shape and answer, and the
    numbers wrong answers may be recognised as. Refused over MAX_STEP_HIDDEN_ELEMENTS."""
    ex, spec = content.exercise, content.spec
    result = evaluate(spec)
    moved = (steps.tangents(spec, result, ex.wrt, 0).values if ex.quantity == "tangent"
             else None)
    hidden = exercises.answers(ex, result, moved)
    size = sum(int(np.asarray(a).size) for a in hidden.values())
    if size > limits.MAX_STEP_HIDDEN_ELEMENTS:
        raise Refused(f"the exercise hides {size:,} numbers, more than the "
                      f"{limits.MAX_STEP_HIDDEN_ELEMENTS:,} a class step can mark")
    near = []
    for node in result.nodes:
        for label, array in ((f"the value of {node.name}", node.value),
                             (f"∂{result.output}/∂{node.name}", node.grad)):
            if array is not None and np.asarray(array).size == 1:
                near.append((label, _plain(np.asarray(array).reshape(-1)[0])))
    return json.dumps({
        "quantity": ex.quantity, "wrt": ex.wrt, "output": result.output,
        "nodes": {name: {"shape": list(np.shape(a)),
                         "answer": [_plain(x) for x in np.asarray(a, dtype=float).reshape(-1)]}
                  for name, a in hidden.items()},
        "near": near[:MAX_NEAR],
    })


def _plain(x) -> float | str:
    """A number for JSON: floats as they are, NaN and infinities as text (JSON has none)."""
    x = float(x)
    return x if math.isfinite(x) else repr(x)


def _array(values, shape) -> np.ndarray:
    return np.asarray([float(v) for v in values], dtype=np.float64).reshape(shape)


@dataclass(frozen=True)
class Key:
    """An exercise step's answer key, read back."""

    quantity: str
    wrt: str | None
    output: str
    shapes: dict[str, tuple[int, ...]]
    answers: dict[str, np.ndarray]
    near: tuple[tuple[str, float], ...]

    @property
    def nodes(self) -> tuple[str, ...]:
        return tuple(self.shapes)

    def label(self, node: str) -> str:
        if self.quantity == "grad":
            return f"∂{self.output}/∂{node}"
        if self.quantity == "tangent":
            return f"tangent of {node} (along {self.wrt})"
        return f"value of {node}"

    def answer_text(self, node: str) -> str:
        return exercises.answer_text(self.answers[node])


def read_key(text: str) -> Key:
    data = json.loads(text)
    shapes = {n: tuple(d["shape"]) for n, d in data["nodes"].items()}
    answers = {n: _array(d["answer"], shapes[n]) for n, d in data["nodes"].items()}
    near = tuple((label, float(v)) for label, v in data["near"])
    return Key(data["quantity"], data["wrt"], data["output"], shapes, answers, near)


@dataclass(frozen=True)
class Graded:
    text: str
    number: float | None
    correct: bool


def grade(key: Key, node: object, text: object) -> Graded:
    """A student's guess for ``node``, read and marked; Refused with what to type otherwise."""
    if not isinstance(node, str) or node not in key.shapes:
        raise Refused("this step hides no such number")
    if not isinstance(text, str):
        raise Refused("type a number")
    try:
        guess = exercises.parse_guess(text, key.shapes[node])
    except SpecError as err:
        raise Refused(str(err)) from None
    number = float(guess.reshape(-1)[0]) if guess.size == 1 else None
    if number is not None and not math.isfinite(number):
        number = None
    return Graded(text.strip(), number, exercises.check(guess, key.answers[node]))


def recognise(key: Key, node: str, wrong: float) -> str | None:
    """What a wrong number is, when it is one of the graph's other numbers (or the answer with
    its sign flipped); None when it is none of them."""
    answer = key.answers[node]
    if answer.size != 1 or not math.isfinite(wrong):
        return None
    right = float(answer.reshape(-1)[0])

    def near(a: float, b: float) -> bool:
        return abs(a - b) <= max(exercises.RELATIVE * abs(b), exercises.ABSOLUTE)

    if right != 0 and near(wrong, -right):
        return "the right number with the wrong sign"
    for label, value in key.near:
        if not near(value, right) and near(wrong, value):
            return label
    return None
