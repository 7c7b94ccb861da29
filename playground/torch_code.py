"""How an op is written in PyTorch, for the export: each registry entry carries one of these.

``code(args, attrs, ndims)`` gives the right-hand side of the op's line from the operands'
variable names, the op's attributes (defaults filled in) and the operands' numbers of dimensions;
``uses`` names the imports or helpers the line needs ("F", or a helper the script defines).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class TorchCode:
    code: Callable[[list, dict, list], str]
    uses: tuple[str, ...] = ()


def infix(symbol: str) -> TorchCode:
    """``a <symbol> b``."""
    return TorchCode(lambda x, a, n: f"{x[0]} {symbol} {x[1]}")


def call(fn: str, **keywords: str) -> TorchCode:
    """``fn(operands, torch_name=attr, ...)``; ``keywords`` maps torch's names to ours."""
    uses = ("F",) if fn.startswith("F.") else ()
    return TorchCode(
        lambda x, a, n: f"{fn}({', '.join([*x, *(f'{k}={a[v]!r}' for k, v in keywords.items())])})",
        uses,
    )


def code(write: Callable[[list, dict, list], str], *uses: str) -> TorchCode:
    """Any other spelling, written by ``write(args, attrs, ndims)``."""
    return TorchCode(write, uses)


def reduction(fn: str) -> TorchCode:
    """A reduction over ``axis`` (all axes when None), keeping the reduced axes if asked."""

    def write(x, a, n):
        axis, keepdims = a["axis"], a["keepdims"]
        if axis is None and not keepdims:
            return f"{fn}({x[0]})"
        dims = tuple(range(n[0])) if axis is None else axis
        return f"{fn}({x[0]}, dim={dims!r}" + (", keepdim=True)" if keepdims else ")")

    return TorchCode(write)
