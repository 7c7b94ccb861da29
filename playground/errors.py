"""SpecError: the one exception for anything wrong in what a person typed, pasted or clicked.

Every message says where (line and column, or node), what is wrong and how to fix it, so a
page can show ``str(err)`` as it is.
"""

from __future__ import annotations


class SpecError(ValueError):
    """A graph, expression, document or share link that cannot be accepted.

    ``problem`` is the bare explanation; ``node`` (a node name), ``line`` and ``col`` (1-based)
    say where, when known. ``str(err)`` puts the place first: "line 3, column 9: ...".
    """

    def __init__(
        self,
        problem: str,
        *,
        node: str | None = None,
        line: int | None = None,
        col: int | None = None,
    ) -> None:
        self.problem = problem
        self.node = node
        self.line = line
        self.col = col
        super().__init__(_format(problem, node, line, col))

    def located(
        self, *, node: str | None = None, line: int | None = None, col: int | None = None
    ) -> SpecError:
        """A copy that also says where, keeping any place this error already names."""
        return SpecError(
            self.problem,
            node=self.node if self.node is not None else node,
            line=self.line if self.line is not None else line,
            col=self.col if self.col is not None else col,
        )

    def __reduce__(self):
        return (_rebuild, (self.problem, self.node, self.line, self.col))


def _rebuild(problem: str, node: str | None, line: int | None, col: int | None) -> SpecError:
    return SpecError(problem, node=node, line=line, col=col)


def _format(problem: str, node: str | None, line: int | None, col: int | None) -> str:
    where = []
    if line is not None:
        where.append(f"line {line}" if col is None else f"line {line}, column {col}")
    if node is not None:
        where.append(f"node `{node}`")
    return f"{', '.join(where)}: {problem}" if where else problem
