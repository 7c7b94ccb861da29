"""How numbers, arrays and shapes are written, everywhere: notebooks, drawings, tables, pages.

micrograd's habit: a number prints the same way wherever it appears. Four decimals in the everyday
range (``2.0000``, as micrograd's drawing), short scientific notation outside it (``1e+10``).
Arrays are written in full when small, else summarised by min/mean/max and their first entries.
"""

import numpy as np

SMALL_TENSOR = 9
"""Tensors with up to this many elements are written in full."""

SUMMARY_ENTRIES = 4
"""Entries listed after the min/mean/max of a larger tensor."""


def number(x):
    """One number: ``2.0000``, ``-0.7071``, ``1e+10``, ``2.5e-07``, ``nan``, ``-inf``."""
    x = float(x)
    if not np.isfinite(x):
        return "nan" if np.isnan(x) else ("inf" if x > 0 else "-inf")
    if x == 0.0 or 1e-4 <= abs(x) < 1e6:
        return f"{x:.4f}"
    return f"{x:.4g}"


def array_lines(a, max_elements=SMALL_TENSOR):
    """An array as lines: every entry (one line per row) when small, else ``summary_lines``."""
    a = np.asarray(a)
    if a.ndim == 0:
        return [number(a)]
    if a.size <= max_elements:
        if a.ndim == 1 or a.size == 0:
            return [_bracket(a.ravel())]
        rows = [_bracket(r) for r in a.reshape(-1, a.shape[-1])]
        lines = ["[" * (a.ndim - 1) + rows[0]] + [" " * (a.ndim - 1) + r for r in rows[1:]]
        lines[-1] += "]" * (a.ndim - 1)
        return lines
    return summary_lines(a)


def array_text(a, max_elements=SMALL_TENSOR):
    """An array on one line (``array_lines`` joined), for tables and captions; "" for None."""
    if a is None:
        return ""
    return " ".join(line.strip() for line in array_lines(a, max_elements))


def summary_lines(a):
    """min/mean/max of the finite entries, a count of the others, and the first few entries."""
    flat = np.asarray(a, dtype=np.float64).ravel()
    finite = flat[np.isfinite(flat)]
    lines = []
    if finite.size:
        lines.append(f"min {number(finite.min())}  mean {number(finite.mean())}  "
                     f"max {number(finite.max())}")
    bad = flat.size - finite.size
    if bad:
        lines.append(f"{bad} of {flat.size} not finite")
    lines.append(_bracket(flat[:SUMMARY_ENTRIES], more=flat.size > SUMMARY_ENTRIES))
    return lines


def labelled(label, lines):
    """A label before an array's lines: ``grad 4.0000`` on one line, else the label above them."""
    return [f"{label} {lines[0]}"] if len(lines) == 1 else [label, *lines]


def shape_text(shape):
    """A shape for people: ``(2, 3)``, ``(3,)``, or ``scalar`` for a 0-d tensor."""
    return "scalar" if tuple(shape) == () else str(tuple(shape))


def index_text(index):
    """An element's position as NumPy would index it: ``[0, 1]``, or ``scalar``."""
    return "[" + ", ".join(str(i) for i in index) + "]" if index else "scalar"


def _bracket(values, more=False):
    items = [number(v) for v in values] + (["…"] if more else [])
    return "[" + ", ".join(items) + "]"
