"""Pure edits of a GraphSpec, and an undo/redo History of specs.

Every edit takes a spec and returns a new one (specs are immutable), checked by the same
constructor as any other spec, so an edit that would break the graph raises SpecError instead.
Deleting a node that others use names them; deleting them too is an explicit ``cascade=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import limits
from .errors import SpecError
from .spec import RESERVED, GraphSpec, Node, check_name, next_name


def _node(spec: GraphSpec, name: str) -> Node:
    if name not in spec:
        raise SpecError(f"there is no node named `{name!s:.30}`")
    return spec[name]


def add_node(spec: GraphSpec, node: Node) -> GraphSpec:
    """``spec`` with ``node`` appended (its operands must already be in ``spec``)."""
    if node.name in spec:
        raise SpecError(
            f"the name `{node.name}` is taken; try `{fresh_name(spec, node.name)}`",
            node=node.name,
        )
    return spec.replace(nodes=[*spec.nodes, node])


def rename(spec: GraphSpec, old: str, new: str) -> GraphSpec:
    """``spec`` with node ``old`` called ``new``, in every operand and the output choice too."""
    _node(spec, old)
    if new == old:
        return spec
    try:
        check_name(new)
    except SpecError as err:
        raise err.located(node=old) from None
    if new in spec:
        raise SpecError(f"the name `{new}` is taken by another node", node=old)
    nodes = [
        replace(
            n,
            name=new if n.name == old else n.name,
            operands=tuple(new if o == old else o for o in n.operands),
        )
        for n in spec.nodes
    ]
    return spec.replace(nodes=nodes, output=new if spec.output == old else spec.output)


def set_value(spec: GraphSpec, name: str, value) -> GraphSpec:
    """``spec`` with the leaf ``name`` holding ``value`` (number, nested list or generator)."""
    node = _node(spec, name)
    if not node.is_leaf:
        raise SpecError(
            f"`{name}` is an op node; its value comes from its operands, so only inputs and "
            "consts can be given a value",
            node=name,
        )
    node = replace(node, value=value)
    return spec.replace(nodes=[node if n.name == name else n for n in spec.nodes])


def set_output(spec: GraphSpec, name: str | None) -> GraphSpec:
    """``spec`` with ``name`` chosen as the output; None goes back to "the last node"."""
    if name is not None:
        _node(spec, name)
    return spec.replace(output=name)


def dependents(spec: GraphSpec, name: str) -> tuple[str, ...]:
    """Every node that uses ``name``, directly or through others, in graph order."""
    _node(spec, name)
    reached = {name}
    for node in spec.nodes:
        if any(o in reached for o in node.operands):
            reached.add(node.name)
    return tuple(n.name for n in spec.nodes if n.name in reached and n.name != name)


LOSS_TARGETS = ("mse_loss", "cross_entropy", "binary_cross_entropy", "l1_loss", "huber_loss",
                "smooth_l1_loss", "binary_cross_entropy_with_logits", "nll_loss", "kl_div")
"""The losses whose second operand is the target (a label), as PyTorch's loss(input, target)."""


def inputs_used_as_targets(spec: GraphSpec) -> tuple[str, ...]:
    """The inputs (leaves that get a gradient) used only as a loss's target: a label typed as
    ``y = [1.0, 0.0, 0.0]`` becomes an input, differentiated like a weight, where a label is
    usually a constant (``y = const([1.0, 0.0, 0.0])``). The page says so; the graph stays as
    typed (a gradient of the target is a fair question too)."""
    uses: dict[str, set[bool]] = {}
    for node in spec.nodes:
        for i, operand in enumerate(node.operands):
            uses.setdefault(operand, set()).add(node.op in LOSS_TARGETS and i == 1)
    return tuple(n.name for n in spec.nodes
                 if n.kind == "input" and uses.get(n.name) == {True})


def delete(spec: GraphSpec, name: str, cascade: bool = False) -> GraphSpec:
    """``spec`` without ``name``; with ``cascade=True`` also without every node that uses it."""
    users = dependents(spec, name)
    if users and not cascade:
        listed = ", ".join(f"`{u}`" for u in users[:8]) + (", ..." if len(users) > 8 else "")
        raise SpecError(
            f"{listed} {'use' if len(users) > 1 else 'uses'} this node; delete "
            f"{'them' if len(users) > 1 else 'it'} too (cascade) or change "
            f"{'their' if len(users) > 1 else 'its'} operands first",
            node=name,
        )
    gone = {name, *users}
    output = None if spec.output in gone else spec.output
    return spec.replace(nodes=[n for n in spec.nodes if n.name not in gone], output=output)


def fresh_name(spec: GraphSpec, stem: str) -> str:
    """An unused, valid name built on ``stem``: ``tanh_1``, ``tanh_2``, ... (as the parser does)."""
    stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in stem)
    stem = stem.lstrip("_")[: limits.MAX_NAME_CHARS - 6] or "node"
    if not stem[0].isalpha():
        stem = "n" + stem
    return next_name(stem, set(spec.names) | RESERVED)


@dataclass(frozen=True)
class History:
    """An undo/redo history of specs; every method returns a new History.

    ``undo()`` and ``redo()`` with nothing to undo or redo return the history unchanged, so a
    button can call them without checking ``can_undo`` first. At most ``limits.MAX_HISTORY``
    earlier specs are kept, and all specs kept (past, current and future) take at most
    ``limits.MAX_HISTORY_BYTES`` together (``GraphSpec.nbytes``): a push forgets the oldest first.
    """

    current: GraphSpec
    past: tuple[GraphSpec, ...] = ()
    future: tuple[GraphSpec, ...] = ()

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)

    def push(self, spec: GraphSpec) -> History:
        """``spec`` becomes current; redo is cleared; the oldest steps go beyond MAX_HISTORY or
        MAX_HISTORY_BYTES. Pushing the current spec changes nothing."""
        if spec == self.current:
            return self
        past = (*self.past, self.current)[-limits.MAX_HISTORY :]
        budget = limits.MAX_HISTORY_BYTES - spec.nbytes
        start = len(past)
        while start and past[start - 1].nbytes <= budget:
            start -= 1
            budget -= past[start].nbytes
        return History(spec, past[start:], ())

    def undo(self) -> History:
        """Back to the previous spec."""
        if not self.past:
            return self
        return History(self.past[-1], self.past[:-1], (self.current, *self.future))

    def redo(self) -> History:
        """Forward to the spec that was undone last."""
        if not self.future:
            return self
        return History(self.future[0], (*self.past, self.current), self.future[1:])
