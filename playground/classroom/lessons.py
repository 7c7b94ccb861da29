"""Whole lessons: the three that ship with the app, and a lesson saved as a JSON file or a link.

A lesson is its steps, each a link of the app and a title (``lesson.StepLink``). Saved, it is a
small JSON document, ``{"format": "autograd-playground-lesson", "version": 1, "steps":
[{"link": "backprop?graph=v1...&ex=grad:a", "title": "..."}, ...]}``, and as a link the same
document packed as a share link packs a graph (zlib, URL-safe base64, behind ``l1.``). Reading
either checks every step as a pasted link is checked, so a file or link from anybody can add
only steps the app would open.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlencode

from .. import limits, presets, share
from ..training import settings as train_settings
from .errors import Refused
from .lesson import MAX_LINK_CHARS, POSITION_PARAM, StepLink, read_link

FORMAT = "autograd-playground-lesson"
VERSION = 1
PARAM = "lesson"
"""The Live class page's parameter that carries a lesson: ``/class?lesson=l1....``."""
PREFIX = "l1."
MAX_FILE_CHARS = limits.MAX_ROOM_STEPS * MAX_LINK_CHARS
"""A lesson file: the most steps a lesson has, each as long as a pasted link may be."""
_BODY = r"[A-Za-z0-9_\-]*"


@dataclass(frozen=True)
class ReadyLesson:
    key: str
    title: str
    summary: str
    steps: tuple[tuple[str, str], ...]  # (link, title)


def _link(page: str, key: str, **params: str) -> str:
    """A step's link: the preset (or exercise preset) ``key`` on ``page``, with ``params``."""
    found = next((p for p in presets.EXERCISES if p.key == key), None)
    spec = found.spec if found else presets.get(key).spec
    return f"{page}?{urlencode({'graph': share.encode(spec), **params}, safe=':,')}"


def _train(**choices: str) -> str:
    """A Train page step with these settings (the others at their defaults)."""
    settings, ignored = train_settings.settings_from_query(choices)
    if ignored:
        raise ValueError(f"not Train settings: {ignored}")
    return f"train?{urlencode(settings.to_query(), safe=',')}"


READY = (
    ReadyLesson(
        "paths_meet", "Gradients add where paths meet",
        "d = a·b + a: a reaches d twice, so backward sends it two parts and adds them; then "
        "two more graphs where a number is used twice.",
        ((_link("graph", "classic"), "Look: a reaches d along two paths"),
         (_link("backprop", "paths_meet", ex="grad:a,b,c"), "Your turn: ∂d/∂a, ∂d/∂b, ∂d/∂c"),
         (_link("backprop", "classic", **{POSITION_PARAM: "reverse:1"}),
          "Backward, step 1: + sends 1 to c and 1 to a"),
         (_link("backprop", "classic", **{POSITION_PARAM: "reverse:2"}),
          "Step 2: × sends b = 3 more to a, and 1 + 3 = 4"),
         (_link("backprop", "two_paths", ex="grad:a"), "Again: d = (a + 3) + (a · 2)"),
         (_link("backprop", "shared", ex="grad:x,y"), "Used twice, added twice: z = y + y"))),
    ReadyLesson(
        "tanh_chain", "The chain rule through tanh",
        "micrograd's neuron: tanh's slope 1 − o² halves every gradient below it, then + passes "
        "it on and × swaps its factors; which weight learns when its input is 0?",
        ((_link("graph", "neuron"), "micrograd's neuron: o = tanh(x1·w1 + x2·w2 + b)"),
         (_link("backprop", "tanh_chain", **{POSITION_PARAM: "reverse:1"}),
          "tanh's backward: 1 − o² = 0.5"),
         (_link("backprop", "tanh_chain", ex="grad:n,xw,b,x,w"),
          "Your turn: from o back to every input"),
         (_link("backprop", "neuron", ex="grad:w1,w2"), "Which weight learns? (x2 = 0)"),
         (_train(data="xor", act="tanh"), "Train tanh units on XOR"))),
    ReadyLesson(
        "softmax_xent", "Softmax + cross-entropy gives p − y",
        "The gradient of cross-entropy with respect to the logits is the probabilities minus "
        "the one-hot truth: guess it, watch it arrive in one step, find it again with large "
        "logits and inside a network.",
        ((_link("graph", "softmax_stable"), "Softmax: subtract the max, exp, normalise"),
         (_link("backprop", "softmax_xent", ex="grad:z"), "Your turn: ∂L/∂z for class 0"),
         (_link("backprop", "softmax_xent", **{POSITION_PARAM: "reverse:1"}),
          "Cross-entropy's backward: p − y in one step"),
         (_link("backprop", "softmax_stable", ex="grad:z"), "Large logits, class 2: p − y again"),
         (_link("gradients", "mlp"), "In a network: (softmax − one-hot)/4 at the logits"))),
)
"""The ready lessons, in the order the teacher's menu shows them."""


def ready(key: object) -> ReadyLesson:
    found = next((r for r in READY if r.key == key), None)
    if found is None:
        raise Refused("there is no such ready lesson; choose one of " +
                      ", ".join(r.title for r in READY))
    return found


# --- saving -----------------------------------------------------------------------------------


def _document(steps: Iterable[tuple[str, str]]) -> dict:
    return {"format": FORMAT, "version": VERSION,
            "steps": [{"link": link, "title": title} for link, title in steps]}


def to_json(steps: Iterable[tuple[str, str]]) -> str:
    """A lesson of (link, title) steps as its JSON document."""
    return json.dumps(_document(steps), ensure_ascii=False, indent=1)


def to_param(steps: Iterable[tuple[str, str]]) -> str:
    """A lesson as the ``lesson`` parameter of a link (``l1.`` and the packed document)."""
    document = json.dumps(_document(steps), ensure_ascii=False, separators=(",", ":"))
    packed = zlib.compress(document.encode("utf-8"), 9)
    return PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


# --- loading ----------------------------------------------------------------------------------


def read_json(text: object) -> tuple[StepLink, ...]:
    """The steps of a lesson document, each checked as a pasted link; Refused, saying which
    step and why, otherwise."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("the lesson file is not text (UTF-8)") from None
    if not isinstance(text, str):
        raise Refused("a lesson is a JSON document")
    if len(text) > MAX_FILE_CHARS:
        raise Refused(f"the lesson has {len(text):,} characters, more than the limit of "
                      f"{MAX_FILE_CHARS:,}")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("this is not a lesson: it is not a JSON document (save the lesson from "
                      "the Live class page again)") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Refused(f"this JSON document is not a lesson (a lesson says \"format\": "
                      f"\"{FORMAT}\")")
    if document.get("version") != VERSION:
        raise Refused(f"this lesson was saved by another version of the app (this one reads "
                      f"version {VERSION})")
    steps = document.get("steps")
    if not isinstance(steps, list) or not steps:
        raise Refused("the lesson has no steps")
    if len(steps) > limits.MAX_ROOM_STEPS:
        raise Refused(f"the lesson has {len(steps)} steps; a lesson has at most "
                      f"{limits.MAX_ROOM_STEPS} steps")
    for number, step in enumerate(steps, 1):
        if not isinstance(step, dict) or not isinstance(step.get("link"), str):
            raise Refused(f"step {number} of the lesson has no link")
    return read_steps((step["link"], step.get("title")) for step in steps)


def read_steps(steps: Iterable[tuple[object, object]]) -> tuple[StepLink, ...]:
    """(link, title) steps, each checked as a pasted link; Refused naming the step otherwise."""
    made = []
    for number, (link, title) in enumerate(steps, 1):
        try:
            made.append(read_link(link, title))
        except Refused as err:
            raise Refused(f"step {number} of the lesson: {err}") from None
    return tuple(made)


def read_param(text: object) -> tuple[StepLink, ...]:
    """The steps of a lesson link's ``lesson`` parameter (see ``read_json``)."""
    if not isinstance(text, str) or not text.strip():
        raise Refused("paste the lesson link the Live class page gave you")
    body = text.strip()
    if "lesson=" in body:  # a whole address
        body = body.split("lesson=", 1)[1].split("&", 1)[0]
    if len(body) > MAX_LINK_CHARS:
        raise Refused(f"the lesson link has {len(body):,} characters, more than the limit of "
                      f"{MAX_LINK_CHARS:,}; save the lesson as a file instead")
    if not body.startswith(PREFIX) or not re.fullmatch(_BODY, body[len(PREFIX):]):
        raise Refused(f"this is not a lesson link (its lesson starts with {PREFIX}); copy the "
                      "whole link again")
    body = body[len(PREFIX):]
    damaged = "the lesson link is damaged; copy the whole link again"
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_FILE_CHARS + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise Refused(damaged) from None
    if len(raw) > MAX_FILE_CHARS or inflater.unconsumed_tail:
        raise Refused(f"the lesson link unpacks to more than {MAX_FILE_CHARS:,} bytes")
    if not inflater.eof or inflater.unused_data:
        raise Refused(damaged)
    return read_json(raw)
