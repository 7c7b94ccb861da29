"""Drawings of an evaluated graph: Graphviz DOT in micrograd's style, plain-text trees, and SVG.

Every tensor is a record (name | shape | value | grad) and every operation an oval between its
operands and its result, laid out left to right. The fills are light and the text dark so the
drawing reads the same on Streamlit's light and dark themes.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from collections.abc import Iterable

import numpy as np

from playground.evaluate import NodeResult, Result

SMALL_TENSOR = 9  # tensors up to this many elements are printed in full
SUMMARY_ENTRIES = 4  # entries shown after the min/mean/max of a larger tensor

_INK = "#111827"
_EDGE = "#6b7280"
_HIGHLIGHT = "#d97706"
_STYLES = {  # (fill, border, border width) per role; every fill is light, every text dark
    "input": ("#dbeafe", "#1d4ed8", 1.5),
    "const": ("#e5e7eb", "#4b5563", 1.0),
    "op": ("#f9fafb", "#374151", 1.0),
    "output": ("#dcfce7", "#15803d", 2.5),
    "flag": ("#fee2e2", "#b91c1c", 2.5),
    "oval": ("#fef3c7", "#92400e", 1.0),
}
_RECORD_SPECIAL = '\\|{}<>"'


def format_number(x: float) -> str:
    """Four decimals in the everyday range, short scientific notation outside it."""
    x = float(x)
    if not np.isfinite(x):
        return "nan" if np.isnan(x) else ("inf" if x > 0 else "-inf")
    if x == 0.0 or 1e-4 <= abs(x) < 1e6:
        return f"{x:.4f}"
    return f"{x:.4g}"


def format_array(a: np.ndarray, max_elements: int = SMALL_TENSOR) -> list[str]:
    """Lines showing a tensor: every entry when small, else min/mean/max and the first entries."""
    a = np.asarray(a)
    if a.ndim == 0:
        return [format_number(a)]
    if a.size <= max_elements:
        if a.ndim == 1 or a.size == 0:
            return [_bracket(a.ravel())]
        rows = a.reshape(-1, a.shape[-1])
        return ["[" * (a.ndim - 1) + _bracket(rows[0])] + [
            " " * (a.ndim - 1) + _bracket(r) for r in rows[1:]
        ]
    return summarise(a)


def summarise(a: np.ndarray) -> list[str]:
    """min/mean/max of the finite entries, a count of the others, and the first few entries."""
    flat = np.asarray(a, dtype=np.float64).ravel()
    finite = flat[np.isfinite(flat)]
    lines = []
    if finite.size:
        lines.append(
            f"min {format_number(finite.min())}  mean {format_number(finite.mean())}  "
            f"max {format_number(finite.max())}"
        )
    bad = flat.size - finite.size
    if bad:
        lines.append(f"{bad} of {flat.size} not finite")
    lines.append(_bracket(flat[:SUMMARY_ENTRIES], more=flat.size > SUMMARY_ENTRIES))
    return lines


def format_shape(shape: tuple[int, ...]) -> str:
    return "scalar" if shape == () else str(tuple(shape))


def _bracket(values: np.ndarray, more: bool = False) -> str:
    items = [format_number(v) for v in values] + (["…"] if more else [])
    return "[" + ", ".join(items) + "]"


def record_escape(text: str) -> str:
    """Escape a string for a field of a Graphviz record label (inside a quoted DOT string)."""
    return "".join("\\" + ch if ch in _RECORD_SPECIAL else ch for ch in text)


def _quote(text: str) -> str:
    """A DOT double-quoted string (ids, tooltips, plain labels)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _field(lines: list[str]) -> str:
    """A record field of one or more left-aligned lines."""
    escaped = [record_escape(line) for line in lines]
    return escaped[0] if len(escaped) == 1 else "\\l".join(escaped) + "\\l"


def _labelled(label: str, lines: list[str]) -> list[str]:
    """'value 2.0000' on one line, or the label above a multi-line tensor."""
    return [f"{label} {lines[0]}"] if len(lines) == 1 else [label, *lines]


def _role(n: NodeResult, result: Result) -> str:
    if n.flag:
        return "flag"
    if n.name == result.output:
        return "output"
    return n.kind


def _op_label(n: NodeResult) -> str:
    attrs = ", ".join(f"{k}={v}" for k, v in n.attrs.items() if v is not None)
    return f"{n.op} ({attrs})" if attrs else str(n.op)


def _record_label(n: NodeResult, show: str, compact: bool) -> str:
    title = f"{n.name} = {_op_label(n)}" if compact and n.op else n.name
    fields = [record_escape(title), record_escape(format_shape(n.shape))]
    small = 3 if compact else SMALL_TENSOR
    numbers = not compact or n.value.size <= small
    if show in ("both", "value") and numbers:
        fields.append(_field(_labelled("value", format_array(n.value, small))))
    if show in ("both", "grad") and numbers:
        grad = ["none"] if n.grad is None else format_array(n.grad, small)
        fields.append(_field(_labelled("grad", grad)))
    if n.flag and not compact:
        wrapped = textwrap.wrap(n.flag, 36)
        fields.append(_field(["⚠ " + wrapped[0], *wrapped[1:]]))
    return "{ " + " | ".join(fields) + " }"


def _attrs(**kw: object) -> str:
    return "[" + ", ".join(f"{k}={v}" for k, v in kw.items()) + "]"


def _split_highlight(highlight: Iterable) -> tuple[set[str], set[tuple[str, str]]]:
    nodes: set[str] = set()
    edges: set[tuple[str, str]] = set()
    for item in highlight:
        if isinstance(item, str):
            nodes.add(item)
        else:
            src, dst = item
            edges.add((str(src), str(dst)))
    return nodes, edges


def to_dot(
    result: Result,
    show: str = "both",
    rankdir: str = "LR",
    highlight: Iterable = (),
    font_size: int = 14,
    compact: bool = False,
) -> str:
    """The evaluated graph as DOT source (st.graphviz_chart and the `dot` program accept it).

    `show` picks the numbers in each record ("both", "value" or "grad"). `highlight` holds node
    names and (operand, result) pairs; they are drawn with a thick amber outline, for stepping
    through a forward or backward pass. `compact` drops the op ovals and the larger tensors'
    numbers so big graphs stay legible.
    """
    if show not in ("both", "value", "grad"):
        raise ValueError(f"show must be 'both', 'value' or 'grad', not {show!r}")
    if rankdir not in ("LR", "TB", "RL", "BT"):
        raise ValueError(f"rankdir must be LR or TB, not {rankdir!r}")
    lit_nodes, lit_edges = _split_highlight(highlight)
    sep = (0.15, 0.25) if compact else (0.3, 0.45)
    lines = [
        "digraph G {",
        "  graph " + _attrs(rankdir=rankdir, bgcolor='"transparent"', nodesep=sep[0],
                            ranksep=sep[1], fontname='"Helvetica"'),
        "  node " + _attrs(fontname='"Helvetica"', fontsize=int(font_size),
                           fontcolor=f'"{_INK}"', style='"filled"'),
        "  edge " + _attrs(color=f'"{_EDGE}"', arrowsize=0.7, penwidth=1.2),
    ]
    for n in result.nodes:
        fill, border, width = _STYLES[_role(n, result)]
        lit = n.name in lit_nodes
        extra = {"tooltip": _quote(n.flag)} if n.flag else {}
        lines.append(f"  {_quote(n.name)} " + _attrs(
            shape="record", label='"' + _record_label(n, show, compact) + '"',
            fillcolor=f'"{fill}"', color=f'"{_HIGHLIGHT if lit else border}"',
            penwidth=4 if lit else width, **extra))
        if n.op is None:
            continue
        target = n.name
        if not compact:
            target = n.name + "#op"
            ofill, oborder, owidth = _STYLES["oval"]
            lines.append(f"  {_quote(target)} " + _attrs(
                shape="ellipse", label=_quote(_op_label(n)), fillcolor=f'"{ofill}"',
                color=f'"{_HIGHLIGHT if lit else oborder}"', penwidth=4 if lit else owidth,
                fontsize=max(8, int(font_size) - 2)))
            lines.append(f"  {_quote(target)} -> {_quote(n.name)}"
                         + (" " + _attrs(color=f'"{_HIGHLIGHT}"', penwidth=3) if lit else ""))
        for operand in n.operands:
            edge_lit = (operand, n.name) in lit_edges
            lines.append(f"  {_quote(operand)} -> {_quote(target)}"
                         + (" " + _attrs(color=f'"{_HIGHLIGHT}"', penwidth=3) if edge_lit else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _inline(a: np.ndarray | None) -> str:
    if a is None:
        return "none"
    lines = format_array(a)
    return lines[0] if len(lines) == 1 else " ".join(line.strip() for line in lines)


def _ascii_line(n: NodeResult, result: Result) -> str:
    head = f"{n.name} = {n.op}({', '.join(n.operands)})" if n.op else n.name
    tags = [n.kind] if n.op is None else []
    if n.name == result.output:
        tags.append("output")
    if n.flag:
        tags.append("⚠ " + n.flag)
    tail = f"  [{'; '.join(tags)}]" if tags else ""
    numbers = f"value {_inline(n.value)}  grad {_inline(n.grad)}"
    return f"{head}  {format_shape(n.shape)}  {numbers}{tail}"


def to_ascii(result: Result) -> str:
    """A plain-text tree from the output down to the leaves, one line per node.

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
        out.append(prefix + _ascii_line(n, result))
        expanded.add(name)
        kids = list(n.operands)
        for i in reversed(range(len(kids))):
            last = i == len(kids) - 1
            stack.append((kids[i], child_prefix + ("└── " if last else "├── "),
                          child_prefix + ("    " if last else "│   ")))
    reached = _ancestors(result)
    rest = [n for n in result.nodes if n.name not in reached]
    if rest:
        out.append("")
        out.append("not used by the output:")
        out.extend("  " + _ascii_line(n, result) for n in rest)
    return "\n".join(out) + "\n"


def _ancestors(result: Result) -> set[str]:
    by_name = {n.name: n for n in result.nodes}
    seen = {result.output}
    todo = [result.output]
    while todo:
        for operand in by_name[todo.pop()].operands:
            if operand not in seen:
                seen.add(operand)
                todo.append(operand)
    return seen


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
