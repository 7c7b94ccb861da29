"""The drawing of one step: the usual drawing (``render.to_dot``) with the step laid over it.

An ``Overlay`` says what each record shows at this step (its value and its gradient or tangent,
``?`` where not computed yet or hidden by an exercise), which node is in focus, and which edges
carry this step's numbers, with the number on the edge. ``overlay_dot`` appends it to the DOT
source: Graphviz merges a node declared twice (the later attributes win) and reads several
attribute lists on one edge, so the base drawing is left as it is, palette, layout and all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from autograd.format import shape_text

from .evaluate import Result
from .render import record, record_escape, record_field

FOCUS = "#cc79a7"
"""Outline of the operation in focus and of its result (Okabe–Ito reddish purple)."""
CARRY = "#0072b2"
"""Colour of the edges that carry this step's numbers (Okabe–Ito blue)."""

_ID = r'"(?:[^"\\]|\\.)*"'
_EDGE = rf"^(\s*)({_ID})\s*->\s*({_ID})(.*)$"
_OVAL = r'^\s*"((?:[^"\\]|\\.)*)#op" \['  # an operation's oval: its record's name + "#op"


@dataclass(frozen=True)
class Overlay:
    """What one step lays over the drawing.

    ``fields``: node -> its number fields, each (label, lines), replacing the record's own;
    ``focus``: nodes outlined (with their operation's oval); ``edges``: (node, operand position)
    -> the label of that operand's edge, drawn bold; ``tooltips``: node -> hover text.
    """

    fields: Mapping[str, tuple[tuple[str, tuple[str, ...]], ...]] = field(default_factory=dict)
    focus: tuple[str, ...] = ()
    edges: Mapping[tuple[str, int], str] = field(default_factory=dict)
    tooltips: Mapping[str, str] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=dict)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


def _record(title: str, shape, fields, rankdir: str) -> str:
    parts = [record_escape(title), record_escape(shape_text(shape))]
    for label, lines in fields:
        lines = [f"{label} {lines[0]}".strip()] if len(lines) == 1 else [label, *lines]
        parts.append(record_field(lines))
    return '"' + record(parts, rankdir) + '"'


def overlay_dot(base: str, result: Result, overlay: Overlay) -> str:
    """``base`` (a drawing of ``result`` by ``render.to_dot``) with ``overlay`` laid over it."""
    lines = base.rstrip().splitlines()
    if not lines or lines[-1].strip() != "}":
        raise ValueError("overlay_dot needs a whole DOT graph, ending with }")
    ovals = {_unquote(f'"{oval}"') for oval in re.findall(_OVAL, base, re.M)}
    direction = re.search(r"rankdir=([A-Z]{2})", base)
    rankdir = direction.group(1) if direction else "TB"
    seen: dict[tuple[str, str], int] = {}
    wanted = _edge_labels(result, overlay, ovals)
    out = []
    for line in lines[:-1]:
        match = re.match(_EDGE, line) if "->" in line else None
        if match:
            indent, tail, head, rest = match.groups()
            key = (_unquote(tail), _unquote(head))
            seen[key] = seen.get(key, -1) + 1
            label = wanted.get((*key, seen[key]))
            if label is not None:
                line = (f"{indent}{tail} -> {head}{rest} [penwidth=3.5, color=\"{CARRY}\", "
                        f"fontcolor=\"{CARRY}\", class=\"carry\", label={_quote(label)}]")
        out.append(line)
    by_name = {n.name: n for n in result.nodes}
    for name, fields in overlay.fields.items():
        n = by_name[name]
        title = overlay.titles.get(name, name)
        attrs = [f"label={_record(title, n.shape, fields, rankdir)}"]
        if name in overlay.tooltips:
            attrs.append(f"tooltip={_quote(overlay.tooltips[name])}")
        out.append(f"  {_quote(name)} [{', '.join(attrs)}]")
    for name in overlay.focus:
        out.append(f'  {_quote(name)} [color="{FOCUS}", penwidth=4]')
        if name in ovals:
            out.append(f'  {_quote(name + "#op")} [color="{FOCUS}", penwidth=4]')
    out.append("}")
    return "\n".join(out) + "\n"


def _edge_labels(result: Result, overlay: Overlay, ovals) -> dict[tuple[str, str, int], str]:
    """(tail, head, how many earlier edges join the same two) -> label, for each marked edge."""
    by_name = {n.name: n for n in result.nodes}
    out = {}
    for (name, slot), label in overlay.edges.items():
        operands = by_name[name].operands
        operand = operands[slot]
        repeat = operands[:slot].count(operand)
        head = name + "#op" if name in ovals else name
        out[(operand, head, repeat)] = label
    return out
