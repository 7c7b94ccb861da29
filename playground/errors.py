"""SpecError: the one exception for anything wrong in what a person typed, pasted or clicked.

Every message says where (line and column, or node), what is wrong and how to fix it, on one
line, so a page can show ``str(err)`` through ``as_markdown``, the one function that makes any
text (a message that quotes what a person typed, or a link, a file, a name) safe to show through
Streamlit's Markdown.
"""

from __future__ import annotations

import re

from . import limits


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
        problem = one_line(problem)
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
        where.append(f"node `{quote(node)}`")
    return _printable(f"{', '.join(where)}: {problem}" if where else problem)


LINE_BREAK_SIGN = "⏎"
"""What a line break inside a message is shown as: a message is one line of Markdown, so a blank
line in quoted text can never end a code span or start a block (a heading, a list, a table)."""
ELLIPSIS = "…"
_LINE_BREAKS = r"\r\n|\r|\n"  # CommonMark's line endings; plain strings: re caches the patterns
_ASCII_PUNCTUATION = r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])"""
_LEADING_BLANKS = r"^[ \t]+"
_SHORTCODE = r":[\w+-][\w+-]*:|:material/"
"""What Streamlit's Markdown turns into an icon: an emoji shortcode (which also makes it load
remark-emoji for the whole text) or a Material icon; a code span holding one is shown escaped."""
_ENTITIES = {" ": "&#32;", "\t": "&#9;"}
_JOIN = "\u2060"
"""A word joiner: invisible, and no word or punctuation character. Backslash escapes act while
Markdown is parsed, but GitHub's autolink literals (``http://``, ``www.``, ``a@b.c``) are found
again afterwards in the parsed text, and so are Streamlit's ``:emoji:`` and ``:streamlit:``
shortcodes and its typographic arrows (``->``, ``<=``, ``--``): a word joiner after a colon that
a shortcode or a URL could follow (a word character, ``+``, ``-`` or ``/``; "Step 1: next" keeps
its plain colon), before every ``@``, between ``www`` and its dot and between two of ``<>=~-``
breaks each."""
_JOIN_REFERENCE = "&#8288;"
_JOIN_BEFORE = r"(?<=:)(?=[\w+/-])|(?=@)|(?i:(?<=www)(?=\.))|(?<=[<>=~-])(?=[<>=~-])"


def one_line(text: object) -> str:
    """``text`` on one line: each line break shown as ⏎ (a quote of what a person typed)."""
    return re.sub(_LINE_BREAKS, LINE_BREAK_SIGN, _printable(text))


def shorten(text: str, limit: int = limits.MAX_QUOTE_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, the last of them an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def quote(text: object, limit: int = limits.MAX_QUOTE_CHARS) -> str:
    """What a person typed, as a message quotes it: one line, at most ``limit`` characters."""
    return shorten(one_line(text), limit)


def as_markdown(message: object) -> str:
    """``message`` as Markdown that shows its text, as it is, through Streamlit's renderer
    (``st.error``, ``st.warning``, ``st.caption``, ``st.markdown``, ...): the one escaping
    function for every text that comes from a link, a file or a student.

    Messages quote what a person typed or put in a link, which may hold Markdown, HTML, LaTeX,
    links, images or Streamlit's own shortcodes. The result is one line: every line break is
    shown as ⏎, so no quoted blank line ends a code span or a paragraph and nothing starts a
    block (heading, list, quote, table, fenced or indented code, HTML block, link reference
    definition); leading blanks are written as character references, so they cannot indent a
    code block. Outside the message's code spans every ASCII punctuation character is
    backslash-escaped, as CommonMark allows for each: no emphasis, link, image, autolink, raw
    HTML, entity, ``$`` maths, ``~`` strike-through, ``:red[...]`` directive or shortcode can
    start; and a word joiner (``_JOIN``) keeps a bare ``http://``, ``www.`` or e-mail address, a
    shortcode or an arrow from being found in the parsed text afterwards. A code span (text
    between a pair of backticks, where Markdown interprets nothing) stays a code span, cut to
    ``limits.MAX_QUOTE_CHARS`` characters with an ellipsis, unless it holds a shortcode
    (Streamlit rewrites ``:material/`` even there) or only blanks: then it is shown escaped
    between literal backticks. The whole message is cut to ``limits.MAX_MESSAGE_CHARS``
    characters. ``from_markdown`` reads the text back.
    """
    parts = one_line(message).split("`")
    last_code = len(parts) - 2 if len(parts) % 2 == 1 else len(parts) - 3
    pieces = []  # (a code span's text, or None; the text otherwise)
    for i, part in enumerate(parts):
        if i % 2 == 1 and i <= last_code:
            pieces.append((shorten(part), None))
        else:
            if i % 2 == 1:  # a backtick with no partner
                pieces.append((None, "`"))
            pieces.append((None, part))
    out, room = [], limits.MAX_MESSAGE_CHARS
    for code, text in pieces:
        shown = f"`{code}`" if code is not None else text
        if len(shown) > room:
            out.append(_escaped(shorten(shown, room) if room else ""))
            break
        room -= len(shown)
        if code is None:
            out.append(_escaped(text))
        elif code.strip() and not re.search(_SHORTCODE, code):
            out.append(shown)
        else:
            out.append(_escaped(shown))
    markdown = "".join(out)
    return re.sub(_LEADING_BLANKS, lambda m: "".join(_ENTITIES[c] for c in m.group()), markdown)


def _escaped(text: str) -> str:
    """``text`` with every ASCII punctuation character backslash-escaped, and a word joiner
    (U+2060, written as a character reference) where Streamlit's Markdown would still find a
    bare URL, an e-mail address, a shortcode or an arrow in the text it parsed (see _JOIN)."""
    text = re.sub(_JOIN_BEFORE, _JOIN, text)
    escaped = re.sub(_ASCII_PUNCTUATION, r"\\\1", text)
    return escaped.replace(_JOIN, _JOIN_REFERENCE)


def from_markdown(text: str) -> str:
    """The plain text that ``as_markdown`` shows (for tests and for the record)."""
    lead = re.match(r"(?:&#32;|&#9;)*", text).group()
    text = text[len(lead):]
    out = [lead.replace("&#32;", " ").replace("&#9;", "\t")]
    code, i = False, 0
    while i < len(text):
        char = text[i]
        if not code and text.startswith(_JOIN_REFERENCE, i):
            i += len(_JOIN_REFERENCE)
            continue
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
