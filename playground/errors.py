"""SpecError: the one exception for anything wrong in what a person typed, pasted or clicked.

Every message says where (line and column, or node), what is wrong and how to fix it, so a
page can show ``str(err)`` as it is.
"""

from __future__ import annotations

import re


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
        problem = _printable(problem)
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


def _printable(text: str) -> str:
    """``text`` with anything UTF-8 cannot carry (a lone surrogate, which a JSON document may
    spell as \\ud800) written as its escape, so every message can be sent to a browser."""
    return str(text).encode("utf-8", "backslashreplace").decode("utf-8")


def _format(problem: str, node: str | None, line: int | None, col: int | None) -> str:
    where = []
    if line is not None:
        where.append(f"line {line}" if col is None else f"line {line}, column {col}")
    if node is not None:
        where.append(f"node `{node}`")
    return _printable(f"{', '.join(where)}: {problem}" if where else problem)


_MARKDOWN_SPECIALS = r"([\\*_\[\]<>$~|#!{}])"  # a plain string: re caches the pattern
_LINK_STARTS = r"(://|www\.)"


def as_markdown(message: str) -> str:
    """``message`` made safe to show through a Markdown renderer such as ``st.error``.

    Messages quote what a person typed or put in a link (a snippet, a value, a parameter),
    which could hold Markdown, HTML, LaTeX or a link. The message's own code spans (text between
    backticks) stay code spans, where nothing is interpreted; everywhere else every character
    Markdown, LaTeX or HTML would act on is escaped, and so is a backtick without its partner.
    So the page shows the message's text as it is, whatever was quoted in it.
    """
    parts = str(message).split("`")
    last_code = len(parts) - 2 if len(parts) % 2 == 1 else len(parts) - 3
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 1 and i <= last_code:
            out.append(f"`{part}`" if part.strip() else "\\`" + _escaped(part) + "\\`")
        else:
            if i % 2 == 1:  # a backtick with no partner
                out.append("\\`")
            out.append(_escaped(part))
    return "".join(out)


def _escaped(text: str) -> str:
    text = re.sub(_MARKDOWN_SPECIALS, r"\\\1", text)
    return re.sub(_LINK_STARTS, lambda m: m.group(1).replace(":", "\\:").replace(".", "\\."), text)


def from_markdown(text: str) -> str:
    """The plain message that ``as_markdown`` escaped (for tests and for the record)."""
    out, code, i = [], False, 0
    while i < len(text):
        char = text[i]
        if code:
            code = char != "`"
            out.append(char if code else "`")
        elif char == "\\" and i + 1 < len(text):
            i += 1
            out.append(text[i])
        else:
            code = char == "`"
            out.append(char)
        i += 1
    return "".join(out)
