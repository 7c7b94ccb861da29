"""Drawings of a computation graph: Graphviz in micrograd's style, and plain text for terminals.

Each tensor shows its name, shape, value and gradient, written by ``autograd.format`` exactly as
the playground app writes them (``2.0000``); large arrays are summarised (min, mean, max and the
first few entries) so a drawing stays readable. graphviz is imported only by ``to_dot``.
"""

import numpy as np

from .format import array_lines, array_text, labelled
from .graph import trace

_RECORD_SPECIALS = str.maketrans({c: "\\" + c for c in '\\{}|<>"'})


def to_dot(root, show_grad=True, rankdir="LR"):
    """A ``graphviz.Digraph``: a record per tensor ({name | shape | data | grad}), an oval per op.

    Leaves that require grad (the values you can change) are shaded. Render it with
    ``.pipe(format="svg")``, or show it directly in a notebook.
    """
    try:
        import graphviz
    except ImportError as error:
        raise ImportError(
            "autograd.viz.to_dot needs the graphviz Python package: pip install graphviz "
            "(and the Graphviz 'dot' program, e.g. apt-get install graphviz, to render it)"
        ) from error
    nodes, edges = trace(root)
    ids = {id(t): f"t{i}" for i, t in enumerate(nodes)}
    dot = graphviz.Digraph(graph_attr={"rankdir": rankdir}, node_attr={"fontname": "Helvetica"})
    for t in nodes:
        node_id = ids[id(t)]
        fields = [record_escape(t.name)] if t.name else []
        fields.append(record_escape(_shape_text(t)))
        fields.append(_field("data", t.data))
        if show_grad:
            fields.append(_field("grad", None if t.grad is None else t.grad.data))
        shaded = t.grad_fn is None and t.requires_grad
        dot.node(
            node_id,
            label="{ " + " | ".join(fields) + " }",
            shape="record",
            style="filled",
            fillcolor="#dbeafe" if shaded else "white",
        )
        if t.grad_fn is not None:
            dot.node(node_id + "_op", label=t.grad_fn.name, shape="oval")
            dot.edge(node_id + "_op", node_id)
    for source, target in edges:
        dot.edge(ids[id(source)], ids[id(target)] + "_op")
    return dot


def to_ascii(root, max_depth=50):
    """A text tree of the graph, the result first and each op's inputs indented below it.

    A tensor used twice is drawn once; later uses point back to it. Inputs deeper than
    ``max_depth`` levels are left out (a chain of thousands of ops would not fit a screen);
    ``autograd.trace`` lists every node.
    """
    nodes, _ = trace(root)
    labels = {id(t): t.name or f"#{i}" for i, t in enumerate(nodes)}
    lines = []
    drawn = set()
    stack = [(root, "", "", 0)]
    while stack:
        t, lead, indent, depth = stack.pop()
        if id(t) in drawn:
            lines.append(f"{lead}{labels[id(t)]} (drawn above)")
            continue
        drawn.add(id(t))
        lines.append(lead + _ascii_line(t, labels[id(t)]))
        if not t.parents:
            continue
        if depth + 1 > max_depth:
            lines.append(f"{indent}└── … inputs deeper than max_depth={max_depth} not shown")
            continue
        last = len(t.parents) - 1
        for position in range(last, -1, -1):
            is_last = position == last
            stack.append((
                t.parents[position],
                indent + ("└── " if is_last else "├── "),
                indent + ("    " if is_last else "│   "),
                depth + 1,
            ))
    return "\n".join(lines)


def _ascii_line(t, label):
    op = f" = {t.grad_fn.name}" if t.grad_fn is not None else ""
    grad = "None" if t.grad is None else array_text(t.grad.data)
    return f"{label}{op}  {_shape_text(t)}  data {array_text(t.data)}  grad {grad}"


def _shape_text(t):
    dtype = "" if t.dtype == np.float64 else f" {t.dtype}"
    return f"shape {tuple(t.shape)}{dtype}"


def _field(label, array):
    """A record field: ``data 2.0000`` centred, or the label above an array's lines, flush left."""
    return record_field(labelled(label, ["None"] if array is None else array_lines(array)))


def record_field(lines):
    """A field of a Graphviz record: one line centred, or several lines flush left."""
    escaped = [record_escape(line) for line in lines]
    return escaped[0] if len(escaped) == 1 else "\\l".join(escaped) + "\\l"


def record_escape(text):
    """Escape what a Graphviz record label treats as structure, and the quote that would end the
    DOT string around it."""
    return str(text).translate(_RECORD_SPECIALS)
