"""Every op the playground offers, described once, in families that mirror ``autograd/ops``.

An entry (``OpInfo``) says how many operands the op takes, which attributes it has (type,
default), what it does in one line, its local derivative as LaTeX and in a plain sentence (for
teaching), how to apply it with the engine, how PyTorch writes it, and its shape rule (with which
``playground.budget`` knows every node's shape and cost before computing it). Parser, validator,
evaluator, cost guard, export and pages all read this table: an op the engine has (its Function
class in ``autograd/ops/<family>.py``) reaches the playground through one entry in the family
module here (``playground/registry/<family>.py``).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from ..errors import SpecError
from . import (
    activations,
    arithmetic,
    conv,
    elementwise,
    indexing,
    layers,
    linalg,
    losses,
    rearrange,
    reduce,
    shape,
)
from .attrs import ATTR_TYPES, canonical_attrs
from .entry import Attr, OpInfo

OPS: Mapping[str, OpInfo] = {
    info.name: info
    for family in (arithmetic, linalg, elementwise, activations, reduce, shape, rearrange,
                   indexing, conv, layers, losses)
    for info in family.ENTRIES
}
"""Op name -> OpInfo, in a teaching order (arithmetic, matrices, activations, reductions, shapes,
losses)."""

_FAMILY_LABELS = ((arithmetic, "arithmetic"), (linalg, "matrix"), (elementwise, "elementwise"),
                  (activations, "activation"), (reduce, "reduction"), (shape, "shape"),
                  (rearrange, "shape"),
                  (indexing, "indexing"), (conv, "convolution"), (layers, "layer"),
                  (losses, "loss"))
_ACTIVATIONS = ("tanh", "sigmoid", "relu", "leaky_relu")
"""Elementwise in the engine (autograd/ops), activations in a lesson (and in torch.nn)."""
FAMILY: Mapping[str, str] = {
    info.name: "activation" if info.name in _ACTIVATIONS else label
    for family, label in _FAMILY_LABELS for info in family.ENTRIES
}
"""Op name -> its family, as the Build page's Operation list groups them ("activation · tanh"):
typing a family's name in the list finds its ops."""
BY_FAMILY: tuple[str, ...] = tuple(sorted(
    OPS, key=lambda name: [label for _, label in _FAMILY_LABELS].index(FAMILY[name])))
"""Every op name, family by family (in OPS's teaching order within each)."""

OPERATORS: Mapping[tuple[str, int], str] = {
    (info.symbol, info.arity): info.name for info in OPS.values() if info.symbol
}
"""(operator symbol, operand count) -> op name, e.g. ("-", 1) -> "neg", ("-", 2) -> "sub"."""

__all__ = ["ATTR_TYPES", "BY_FAMILY", "FAMILY", "OPERATORS", "OPS", "Attr", "OpInfo",
           "canonical_attrs", "get", "suggest"]


def get(name: str) -> OpInfo:
    """The op called ``name``; SpecError listing similar names when there is none."""
    info = OPS.get(name)
    if info is None:
        raise SpecError(f"unknown op `{str(name)[:40]}`; {suggest(name)}")
    return info


def suggest(name) -> str:
    """A hint for an unknown op name: the closest known names, or where the list is."""
    close = difflib.get_close_matches(str(name), list(OPS), n=3) if isinstance(name, str) else []
    if close:
        return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    return "the ops are: " + ", ".join(OPS)
