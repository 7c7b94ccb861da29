"""Drawings of an evaluated graph: Graphviz DOT in micrograd's style, plain-text trees, and SVG.

Every tensor is a record (name | shape | value | grad) and every operation an oval between its
operands and its result. Each role (input, constant, operation, output, flagged node, node the
output does not use) has a colour of the Okabe–Ito palette, which people with any common
colour-vision deficiency can tell apart, and a second cue that needs no colour at all: constants
have rounded corners, the output a thick border, a flagged node a dashed border and a ⚠ line, a
node the output is not computed from a dotted border and "not used by <output>" where its
gradient would be. The DOT fills are light tints with dark text; the app's drawing component
(pages/ui/drawing.py) re-tints them from the same border colours for Streamlit's light or dark
theme. Every node carries its role as an SVG class and a tooltip with its formula and its full
value and gradient.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap

from autograd.format import SMALL_TENSOR, array_lines, array_text, labelled, shape_text
from autograd.viz import record_escape, record_field
from playground.evaluate import NodeResult, Result
from playground.spec import ancestors

OKABE_ITO = {
    "orange": "#e69f00", "sky_blue": "#56b4e9", "bluish_green": "#009e73", "yellow": "#f0e442",
    "blue": "#0072b2", "vermillion": "#d55e00", "reddish_purple": "#cc79a7", "grey": "#999999",
}
"""Okabe & Ito's palette for colour-blind readers (https://jfly.uni-koeln.de/color/)."""
HIGHLIGHT = OKABE_ITO["reddish_purple"]
"""The outline of a selected node, in the app's drawing."""
TOOLTIP_ELEMENTS = 64
"""A tooltip lists a tensor's every entry up to this many, else its summary."""

_INK = "#111827"
_EDGE = "#6b7280"
_ROLES = {  # role -> (border colour, border width, extra style): the second cue needs no colour
    "input": (OKABE_ITO["blue"], 1.5, ""),
    "const": (OKABE_ITO["grey"], 1.0, ",rounded"),
    "op": ("#555555", 1.0, ""),
    "output": (OKABE_ITO["bluish_green"], 3.5, ""),
    "flag": (OKABE_ITO["vermillion"], 2.5, ",dashed"),
    "oval": (OKABE_ITO["orange"], 1.0, ""),
    "unused": (OKABE_ITO["grey"], 1.0, ",dotted"),
}
ROLE_WORDS = {"input": "input", "const": "constant", "op": "operation", "output": "output",
              "flag": "flagged node", "oval": "operation", "unused": "node not used"}
"""Each role's SVG class in words: what a screen reader says a node of the drawing is."""
_TINT = 0.2  # a fill is its border colour at this strength over white


def tint(colour: str, strength: float = _TINT) -> str:
    """``colour`` (#rrggbb) at ``strength`` over white: the light fill of a role."""
    rgb = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - strength * (255 - c)):02x}" for c in rgb)


def _quote(text: str) -> str:
    """A DOT double-quoted string (ids, tooltips, plain labels)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def not_used(result: Result) -> set[str]:
    """The nodes the output is not computed from: backward never reaches them, so they have no
    gradient of the output to show (the engine leaves them at 0, which reads as a bug)."""
    return {n.name for n in result.nodes} - ancestors(result.nodes, result.output)


def not_used_text(result: Result) -> str:
    """What a node the output does not use shows instead of a gradient."""
    return f"not used by {result.output}"


def _role(n: NodeResult, result: Result, unused: set[str] = frozenset()) -> str:
    if n.flag:
        return "flag"
    if n.name == result.output:
        return "output"
    if n.name in unused:
        return "unused"
    return n.kind


def _op_label(n: NodeResult) -> str:
    attrs = ", ".join(f"{k}={v}" for k, v in n.attrs.items() if v is not None)
    return f"{n.op} ({attrs})" if attrs else str(n.op)


def formula(n: NodeResult) -> str:
    """How a node is made, in the expression language's words: ``c = mul(a, b)``,
    ``s = sum(x, axis=0)``; a leaf is ``a (input)`` or ``k (constant)``."""
    if n.op is None:
        return f"{n.name} ({'input' if n.kind == 'input' else 'constant'})"
    args = [*n.operands, *(f"{k}={v}" for k, v in n.attrs.items() if v is not None)]
    return f"{n.name} = {n.op}({', '.join(args)})"


def tooltip(n: NodeResult, result: Result, show: str = "both") -> str:
    """A node's hover text: its formula, shape, full value and gradient (those `show` shows on
    the record: "value" hides the gradient while a class predicts it), and any flag."""
    grad = ["none"] if n.grad is None else array_lines(n.grad, TOOLTIP_ELEMENTS)
    if n.name in not_used(result):
        grad = [not_used_text(result)]
    lines = [formula(n) + ("  (the output)" if n.name == result.output else ""),
             f"shape {shape_text(n.shape)}"]
    if show in ("both", "value"):
        lines += labelled("value", array_lines(n.value, TOOLTIP_ELEMENTS))
    if show in ("both", "grad"):
        lines += labelled("grad", grad)
    if n.flag:
        lines.append("⚠ " + n.flag)
    return "\n".join(lines)


def record(fields: list[str], rankdir: str) -> str:
    """A record label whose fields stack top to bottom in either direction of the drawing.

    Graphviz lays a record's top-level fields across the rank direction: side by side when the
    graph goes down (TB) and stacked when it goes across (LR); braces turn them a quarter. So
    the fields are braced only in a drawing that goes down, and a record reads name, shape,
    value, grad from the top either way (across, micrograd's side-by-side record made drawings
    twice as wide and their text half as big once fitted to a screen).
    """
    body = " | ".join(fields)
    return body if rankdir in ("LR", "RL") else "{ " + body + " }"


def _record_label(n: NodeResult, show: str, compact: bool, rankdir: str,
                  unused: str | None = None) -> str:
    title = f"{n.name} = {_op_label(n)}" if compact and n.op else n.name
    fields = [record_escape(title), record_escape(shape_text(n.shape))]
    small = 3 if compact else SMALL_TENSOR
    numbers = not compact or n.value.size <= small
    if show in ("both", "value") and numbers:
        fields.append(record_field(labelled("value", array_lines(n.value, small))))
    if show in ("both", "grad") and (numbers or unused):
        grad = ["none"] if n.grad is None else array_lines(n.grad, small)
        fields.append(record_field([unused] if unused else labelled("grad", grad)))
    if n.flag and not compact:
        wrapped = textwrap.wrap(n.flag, 36)
        fields.append(record_field(["⚠ " + wrapped[0], *wrapped[1:]]))
    return record(fields, rankdir)


def _attrs(**kw: object) -> str:
    return "[" + ", ".join(f"{k}={v}" for k, v in kw.items()) + "]"


def _look(role: str) -> dict[str, object]:
    """The DOT attributes of a role: SVG class, light fill, border colour, width and style."""
    border, width, style = _ROLES[role]
    return {"class": _quote(role), "fillcolor": _quote(tint(border)), "color": _quote(border),
            "penwidth": width, "style": _quote("filled" + style)}


def to_dot(
    result: Result,
    show: str = "both",
    rankdir: str = "LR",
    font_size: int = 14,
    compact: bool = False,
) -> str:
    """The evaluated graph as DOT source (st.graphviz_chart and the `dot` program accept it).

    `show` picks the numbers in each record ("both", "value" or "grad"). `compact` drops the op
    ovals and the larger tensors' numbers so big graphs stay legible.
    """
    if show not in ("both", "value", "grad"):
        raise ValueError(f"show must be 'both', 'value' or 'grad', not {show!r}")
    if rankdir not in ("LR", "TB", "RL", "BT"):
        raise ValueError(f"rankdir must be LR or TB, not {rankdir!r}")
    sep = (0.15, 0.25) if compact else (0.3, 0.45)
    lines = [
        "digraph G {",
        "  graph " + _attrs(rankdir=rankdir, bgcolor='"transparent"', nodesep=sep[0],
                            ranksep=sep[1], fontname='"Helvetica"'),
        "  node " + _attrs(fontname='"Helvetica"', fontsize=int(font_size),
                           fontcolor=f'"{_INK}"'),
        "  edge " + _attrs(color=f'"{_EDGE}"', arrowsize=0.7, penwidth=1.2,
                           fontname='"Helvetica"', fontsize=int(font_size)),
    ]
    unused = not_used(result)
    for n in result.nodes:
        label = _record_label(n, show, compact, rankdir,
                              not_used_text(result) if n.name in unused else None)
        lines.append(f"  {_quote(n.name)} " + _attrs(
            shape="record", label='"' + label + '"',
            tooltip=_quote(tooltip(n, result, show)), **_look(_role(n, result, unused))))
        if n.op is None:
            continue
        target = n.name
        if not compact:
            target = n.name + "#op"
            lines.append(f"  {_quote(target)} " + _attrs(
                shape="ellipse", label=_quote(_op_label(n)), tooltip=_quote(formula(n)),
                **_look("oval")))
            lines.append(f"  {_quote(target)} -> {_quote(n.name)}")
        for operand in n.operands:
            lines.append(f"  {_quote(operand)} -> {_quote(target)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _ascii_line(n: NodeResult, result: Result, show: str = "both") -> str:
    head = formula(n) if n.op else n.name
    tags = [n.kind] if n.op is None else []
    if n.name == result.output:
        tags.append("output")
    if n.flag:
        tags.append("⚠ " + n.flag)
    tail = f"  [{'; '.join(tags)}]" if tags else ""
    grad = "none" if n.grad is None else array_text(n.grad)
    numbers = ([f"value {array_text(n.value)}"] if show in ("both", "value") else []) + (
        [f"grad {grad}"] if show in ("both", "grad") else [])
    return "  ".join([head, shape_text(n.shape), *numbers]) + tail


def to_ascii(result: Result, show: str = "both") -> str:
    """A plain-text tree from the output down to the leaves, one line per node, with the
    numbers `show` picks (as the drawing's records).

    An operation reached a second time (a shared subexpression) is not expanded again; it is
    marked "(see above)". Nodes the output does not depend on are listed after the tree.
    """
    by_name = {n.name: n for n in result.nodes}
    out: list[str] = []
    expanded: set[str] = set()
    # (name, prefix of its own line, prefix of its children's lines)
    stack: list[tuple[str, str, str]] = [(result.output, "", "")]
    while stack:
        name, prefix, child_prefix = stack.pop()
        n = by_name[name]
        if n.op and name in expanded:
            out.append(f"{prefix}{name} (see above)")
            continue
        out.append(prefix + _ascii_line(n, result, show))
        expanded.add(name)
        kids = list(n.operands)
        for i in reversed(range(len(kids))):
            last = i == len(kids) - 1
            stack.append((kids[i], child_prefix + ("└── " if last else "├── "),
                          child_prefix + ("    " if last else "│   ")))
    reached = ancestors(result.nodes, result.output)
    rest = [n for n in result.nodes if n.name not in reached]
    if rest:
        out.append("")
        out.append("not used by the output:")
        out.extend("  " + _ascii_line(n, result, show) for n in rest)
    return "\n".join(out) + "\n"


def shape_count(dot_source: str) -> int:
    """The records and op ovals of a drawing made by ``to_dot``: what Graphviz lays out."""
    return dot_source.count("shape=record") + dot_source.count("shape=ellipse")


def to_svg(dot_source: str, timeout: float = 10.0) -> str | None:
    """SVG text of a DOT drawing; None when the `dot` program is missing, fails or is too slow."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    try:
        done = subprocess.run(  # noqa: S603 - fixed program, the DOT text goes to stdin
            [dot, "-Tsvg"], input=dot_source.encode("utf-8"), capture_output=True,
            timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8")
