"""The shape rules many ops share, and the cost constants of ``playground.budget``.

Each registry entry owns its shape rule (``OpInfo.shape``): operand shapes and attributes -> the
output shape, as NumPy and the engine work it out, or ValueError when the operands do not fit.
An op with extra work beyond its elements (a matrix product's multiply-adds, a pool's windows)
also owns a work rule (``OpInfo.work``). The rules here serve many families; a rule one family
needs lives in that family's module, above its entries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

Shape = tuple[int, ...]
ShapeRule = Callable[[list[Shape], Mapping], Shape]
"""Operand shapes and attributes -> the output shape; ValueError when the operands do not fit."""
WorkRule = Callable[[list[Shape], Shape, Mapping], int]
"""Operand shapes, output shape and attributes -> work units beyond the elementwise count."""

OP_WORK = 1_000
"""Work units of one op application besides its elements: its fixed cost."""
MACS_PER_UNIT = 16
"""Multiply-adds of a matrix product that cost one work unit."""


def placeholder(shape: Shape) -> np.ndarray:
    """An array of ``shape`` that takes no memory: NumPy works out views of it for free."""
    return np.broadcast_to(np.empty((), dtype=bool), shape)


def same(shapes, attrs) -> Shape:
    """An elementwise op of one operand (or one that keeps its first operand's shape)."""
    return shapes[0]


def broadcast(shapes, attrs) -> Shape:
    """An elementwise op of several operands: their broadcast shape."""
    return tuple(np.broadcast_shapes(*shapes))


def reduced(shapes, attrs) -> Shape:
    """A reduction over ``axis`` (all axes when None), keeping them as 1s with ``keepdims``."""
    shape, axis = shapes[0], attrs.get("axis")
    axes = range(len(shape)) if axis is None else normalize_axis_tuple(
        axis if isinstance(axis, tuple) else (axis,), max(len(shape), 1))
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)
