"""What the Step through page shows at step k of a mode: a heading, the chain-rule lines
(LaTeX, with the numbers), notes on shapes and broadcasting, and the drawing's overlay.

Step 0 is the state before the first step (inputs given; or the output seeded with 1); step k
shows the k-th operation (forward pass, forward mode) or the k-th Function the engine's backward
ran (reverse mode), with everything computed so far. Numbers not computed yet are ``?``, as are
those an exercise hides (``hide``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autograd.format import array_lines, array_text, number, shape_text

from . import registry, spoken
from .evaluate import NodeResult, Result
from .notation import HIDDEN, NodeNames, call, eq, scalar
from .render import not_used, not_used_text
from .steps import Backward, Gradient, Tangents, local_partials, summed_axes
from .steps_render import Overlay
from .traces import (
    Hide,
    Line,
    adjoint_line,
    forward_line,
    seed_line,
    show_all,
    sum_line,
    tangent_line,
)

COMPACT_NUMBERS = 3
"""In the compact drawing, tensors up to this many elements still show their numbers."""
TOOLTIP_ELEMENTS = 64
"""A hover text lists a tensor's entries up to this many, else its summary."""


@dataclass(frozen=True)
class StepView:
    """Step ``step`` of ``count`` of one mode, ready to show."""

    step: int
    count: int
    heading: str
    node: str | None
    lines: tuple[str, ...]
    notes: tuple[str, ...]
    overlay: Overlay
    spoken: tuple[str, ...] = ()
    """The heading and the lines in words, for a screen reader (`playground.spoken`)."""


def operations(result: Result) -> list[NodeResult]:
    """The operations in the order the forward pass computes them."""
    return [n for n in result.nodes if n.kind == "op"]


def count(result: Result, mode: str, backward: Backward | None = None) -> int:
    """How many steps a mode has (after step 0)."""
    if mode == "reverse":
        return backward.count
    return len(operations(result))


def view(result: Result, mode: str, k: int, *, backward: Backward | None = None,
         tangents: Tangents | None = None, compact: bool = False,
         hide: Hide = show_all, answered: Hide = show_all) -> StepView:
    """Step ``k`` (clipped to the mode's range) of ``mode`` ("forward", "tangent", "reverse").

    ``answered`` names the numbers an exercise has revealed (or a student found): the drawing
    shows them whatever the step, rather than ``?`` for "not computed yet", which read as if
    the reveal had not worked."""
    n = count(result, mode, backward)
    k = max(0, min(int(k), n))
    if mode == "reverse":
        return _reverse(result, backward, k, compact, hide, answered)
    return _forward(result, mode, k, n, tangents, compact, hide, answered)


def formula_text(n: NodeResult) -> str:
    """``c = a · b``, ``s = sum(x, axis=0)``; a leaf is ``a (input)`` or ``k (constant)``."""
    if n.op is None:
        return f"{n.name} ({'input' if n.kind == 'input' else 'constant'})"
    return f"{n.name} = " + call(n, [eq(o) for o in n.operands]).text


def sentence(n: NodeResult) -> str:
    """The registry's plain sentence on this node's local derivative."""
    return registry.get(n.op).sentence if n.op else ""


# ---------------------------------------------------------------------------------------------
# Forward pass and forward mode.


def _forward(result, mode, k, n, tangents, compact, hide, answered=show_all) -> StepView:
    ops = operations(result)
    done = {x.name for x in result.nodes if x.kind != "op"} | {x.name for x in ops[:k]}
    names = NodeNames(result.output)
    tangent = mode == "tangent"
    focus = ops[k - 1] if k else None
    fields, tips = {}, {}
    for x in result.nodes:
        shown = [("value", x.value)] + ([("tangent", tangents.values[x.name])] if tangent else [])
        row, tip = [], []
        for label, array in shown:
            if array is None:  # a constant's tangent
                row.append((label, ("none",)))
                tip.append((label, "none"))
                continue
            known = (x.name in done or answered(label, x.name)) and not hide(label, x.name)
            row.append((label, tuple(_lines(array, compact, known))))
            tip.append((label, array if known else None))
        fields[x.name] = tuple(row)
        tips[x.name] = _tooltip(x, tip)
    edges, lines, notes = {}, [], []
    if focus is None:
        if tangent:
            heading = (f"Step 0 of {n}: {tangents.wrt} moves (its tangent is one-hot), every "
                       "other input stays put (tangent 0)")
        else:
            heading = f"Step 0 of {n}: the inputs and constants are given"
    else:
        verb = "push the tangent through" if tangent else "compute"
        heading = f"Step {k} of {n}: {verb} {formula_text(focus)}"
        for slot, operand in enumerate(focus.operands):
            shown = tangents.values[operand] if tangent else result.value(operand)
            if shown is None:
                continue
            hidden = hide("tangent" if tangent else "value", operand)
            edges[(focus.name, slot)] = _edge_label(shown, hidden)
        if tangent:
            partials = local_partials(result, focus.name)
            lines.append(tangent_line(result, tangents, focus.name, names, partials, hide))
            if not scalar(tangents.values[focus.name]):
                notes.append(_summary_note(f"tangent of {focus.name}",
                                           tangents.values[focus.name],
                                           hide("tangent", focus.name)))
        else:
            lines.append(forward_line(result, focus.name, names, hide))
            if not scalar(focus.value):
                shapes = ", ".join(f"{o} {shape_text(result.value(o).shape)}"
                                   for o in focus.operands)
                notes.append(f"From {shapes} to **{focus.name}** {shape_text(focus.shape)}.")
                notes.append(_summary_note(focus.name, focus.value,
                                           hide("value", focus.name)))
    overlay = Overlay(fields, (focus.name,) if focus else (), edges, tips,
                      _titles(result, compact))
    return _view(k, n, heading, focus.name if focus else None, lines, notes, overlay)


# ---------------------------------------------------------------------------------------------
# Reverse mode.


def _reverse(result, backward: Backward, k, compact, hide, answered=show_all) -> StepView:
    n = backward.count
    grads = backward.gradients(k)
    names = NodeNames(result.output)
    unused = not_used(result)
    fields, tips = {}, {}
    for x in result.nodes:
        value = _lines(x.value, compact, not hide("value", x.name))
        if x.name in unused:  # backward never reaches it: no gradient, not a gradient of 0
            fields[x.name] = (("value", tuple(value)), ("", (not_used_text(result),)))
            tips[x.name] = _tooltip(x, [("value", None if hide("value", x.name) else x.value),
                                        ("grad", not_used_text(result))])
            continue
        grad = _grad_lines(x, grads.get(x.name), compact, hide("grad", x.name))
        if grad == [HIDDEN] and answered("grad", x.name) and x.grad is not None:
            grad = array_lines(x.grad, COMPACT_NUMBERS if compact else 9)  # revealed: in full
        fields[x.name] = (("value", tuple(value)), ("grad", tuple(grad)))
        g = grads.get(x.name)
        tips[x.name] = _tooltip(x, [
            ("value", None if hide("value", x.name) else x.value),
            ("grad", "none" if g is None else None if hide("grad", x.name) or g.value is None
             else g.value if g.complete else f"{len(g.terms)} of {g.expected} terms so far")])
    if k == 0:
        heading = (f"Step 0 of {n}: backward starts at {result.output} with gradient 1"
                   + ("" if result.value(result.output).size == 1 else " in every element"))
        lines = [seed_line(result, names, hide)] if backward.seed is not None else []
        notes = () if backward.seed is not None else (
            f"{result.output} is made of constants only: it has no gradient to pass back.",)
        overlay = Overlay(fields, (result.output,), {}, tips, _titles(result, compact))
        return _view(0, n, heading, None, lines, notes, overlay, result.output)
    step = backward.steps[k - 1]
    node = result.node(step.node)
    heading = f"Step {k} of {n}: backward through {formula_text(node)}"
    if step.inner:
        heading += f" (the engine's {step.function}, one of the Functions {node.op} is made of)"
    partials = local_partials(result, node.name)
    lines, notes, edges = [], [], {}
    for c in step.contributions:
        lines.append(adjoint_line(result, c, names, partials, hide))
        axes = summed_axes(node.op, result.value(c.target).shape, node.shape)
        edges[(node.name, c.slot)] = _edge_label(c.value, hide("grad", c.target), axes)
        if axes:
            notes.append(_broadcast_note(node, c.target, result.value(c.target).shape, axes))
        if not scalar(c.value):
            notes.append(_summary_note(f"contribution to {c.target}", c.value,
                                       hide("grad", c.target)))
    for target in dict.fromkeys(c.target for c in step.contributions):
        g = grads[target]
        if g.expected > 1:
            lines.append(sum_line(target, g, names, hide))
            notes.append(_accumulation_note(target, g))
    if step.grad_output is not None and not scalar(step.grad_output) and not step.inner:
        notes.insert(0, _summary_note(f"gradient arriving at {node.name}", step.grad_output,
                                      hide("grad", node.name)))
    if not step.contributions:
        notes.append(f"Nothing leaves this Function for a node of the graph: it passes its "
                     f"gradient on to the next Function inside {node.op}.")
    overlay = Overlay(fields, (node.name,), edges, tips, _titles(result, compact))
    return _view(k, n, heading, node.name, lines, notes, overlay, result.output)


def _view(k: int, n: int, heading: str, node: str | None, lines: list[Line], notes,
          overlay: Overlay, output: str = "") -> StepView:
    """A StepView whose lines are LaTeX for the page and, with its heading, words for a screen
    reader; `output` names whose gradients the lines are (reverse mode)."""
    said = (spoken.words(heading, ""), *(spoken.words(line.eq.text, output) for line in lines))
    return StepView(k, n, heading, node, tuple(line.aligned for line in lines), tuple(notes),
                    overlay, said)


def _grad_lines(x: NodeResult, g: Gradient | None, compact: bool, hidden: bool) -> list[str]:
    """A record's gradient at this step: none, ?, the sum so far, or the total (with its
    terms listed when more than one path brought it)."""
    if g is None:
        return ["none"]
    if hidden:
        return [HIDDEN]
    if g.value is None:
        return [HIDDEN]
    small = g.value.size == 1
    if compact and g.value.size > COMPACT_NUMBERS:
        return ["✓" if g.complete else f"{len(g.terms)} of {g.expected} terms"]
    if len(g.terms) < 2 and g.complete:
        return array_lines(g.value, COMPACT_NUMBERS if compact else 9)
    if small:
        terms = [number(t.value.reshape(-1)[0]) for t in g.terms]
        terms += [HIDDEN] * (g.expected - len(g.terms))
        total = number(g.value.reshape(-1)[0]) if g.complete else "…"
        return [" + ".join(terms) + f" = {total}"]
    status = (f"sum of {g.expected} terms" if g.complete
              else f"{len(g.terms)} of {g.expected} terms so far")
    return [*array_lines(g.value, COMPACT_NUMBERS if compact else 9), status]


# ---------------------------------------------------------------------------------------------
# Small pieces.


def _lines(array, compact: bool, known: bool) -> list[str]:
    if not known:
        return [HIDDEN]
    a = np.asarray(array)
    if compact and a.size > COMPACT_NUMBERS:
        return ["✓"]
    return array_lines(a, COMPACT_NUMBERS if compact else 9)


def _titles(result: Result, compact: bool) -> dict[str, str]:
    """The records' titles: the name, or in the compact drawing "name = op" (as render draws)."""
    if not compact:
        return {}
    out = {}
    for n in result.nodes:
        if n.op:
            attrs = ", ".join(f"{k}={v}" for k, v in n.attrs.items() if v is not None)
            out[n.name] = f"{n.name} = {n.op}" + (f" ({attrs})" if attrs else "")
    return out


def _edge_label(array, hidden: bool, axes=()) -> str:
    if hidden:
        return HIDDEN
    a = np.asarray(array)
    label = number(a.reshape(-1)[0]) if a.size == 1 else shape_text(a.shape)
    if axes:
        label += f" (Σ axis {', '.join(map(str, axes))})"
    return label


def _tooltip(n: NodeResult, fields) -> str:
    """Hover text: the node's formula and shape, and each field in full (or ? / a status)."""
    lines = [formula_text(n), f"shape {shape_text(n.shape)}"]
    for label, value in fields:
        if value is None:
            lines.append(f"{label} {HIDDEN}")
        elif isinstance(value, str):
            lines.append(f"{label} {value}")
        else:
            lines.append(f"{label} {array_text(value, TOOLTIP_ELEMENTS)}")
    return "\n".join(lines)


def _summary_note(what: str, array, hidden: bool) -> str:
    if hidden:
        return f"The {what} is hidden in this exercise."
    a = np.asarray(array)
    return f"The {what}, shape {shape_text(a.shape)}: `{array_text(a)}`"


def _broadcast_note(node: NodeResult, operand: str, shape, axes) -> str:
    copies = int(np.prod([node.shape[a] for a in axes]))
    axis_word = "axis" if len(axes) == 1 else "axes"
    return (f"**Broadcasting:** {operand} has shape {shape_text(shape)} but {node.name} has "
            f"{shape_text(node.shape)}, so each element of {operand} was used {copies} times, "
            f"copied along {axis_word} {', '.join(map(str, axes))}. Every copy sends back its "
            f"own gradient, so backward sums over {axis_word} {', '.join(map(str, axes))} to "
            f"give {operand} a gradient of its own shape.")


def _accumulation_note(target: str, g: Gradient) -> str:
    sources = ", ".join(f"from {t.source} (step {t.step})" for t in g.terms)
    if g.complete:
        return (f"**{target}** is reached along {g.expected} paths: its gradient is the sum of "
                f"all {g.expected} terms ({sources}).")
    return (f"**{target}** is reached along {g.expected} paths: {len(g.terms)} term(s) so far "
            f"({sources}); the rest arrive later, and only then is its gradient complete.")
