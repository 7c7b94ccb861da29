"""Spec -> tensors -> Result: every node's value, gradient, shape, local derivative and flag."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class NodeResult:
    """One node after forward and backward: what the drawing and the tables show."""

    name: str
    kind: str
    op: str | None
    operands: tuple[str, ...]
    attrs: dict[str, Any]
    value: np.ndarray
    grad: np.ndarray | None
    derivative: str | None = None
    flag: str | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)


@dataclass(frozen=True)
class Result:
    """A whole evaluated graph; nodes are in spec order."""

    spec: Any
    output: str
    seeded_with_ones: bool
    nodes: tuple[NodeResult, ...]
    flags: dict[str, str] = field(default_factory=dict)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {n.name: i for i, n in enumerate(self.nodes)})

    def node(self, name: str) -> NodeResult:
        return self.nodes[self._index[name]]

    def value(self, name: str) -> np.ndarray:
        return self.node(name).value

    def grad(self, name: str) -> np.ndarray | None:
        return self.node(name).grad
