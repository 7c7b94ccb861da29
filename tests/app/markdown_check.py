"""What Markdown a page element would render: the check the hostile tests apply to every message
that quotes what a link, a file or a student wrote (playground.errors.as_markdown's promise).

Imported by the tests in this folder (pytest puts the folder on sys.path).
"""

from __future__ import annotations

import re
import string

from playground import limits

SHORTCODE = r":[\w+-][\w+-]*:|:material/"
JOIN = "&#8288;"
AFTER_PARSING = {
    "a bare URL": r"(?i)(https?://|www(?=\.))",
    "an e-mail address": r"[-.\w+]+@[-\w]+(\.[-\w]+)+",
    "a shortcode": r":[\w+-]+:",
    "an arrow": r"(^|\s)(<->|->|<-|--|>=|<=|~=)(\s|$)",
}
"""What Streamlit's Markdown still finds in the text it parsed, backslash escapes resolved:
GitHub's autolink literals (mdast-util-gfm-autolink-literal), remark-emoji's and Streamlit's
:streamlit: shortcodes, and Streamlit's typographic arrows."""


def markdown_problems(markdown: str) -> list[str]:
    """Why ``markdown`` could render something other than its text, or [] if it cannot.

    Text that renders as itself: one line (no line break can end a code span or start a block),
    no leading blank (an indented code block), every ASCII punctuation character backslash-
    escaped outside code spans (no link, image, autolink, HTML, emphasis, maths, directive,
    shortcode, bare URL or e-mail link can start), no bare URL, e-mail address, shortcode or
    arrow left in the parsed text (AFTER_PARSING), and each code span on that line short, not
    blank and free of Streamlit's icon shortcodes.
    """
    problems = []
    text = ""  # the parsed text outside code spans, as the plugins after parsing see it
    if re.search(r"[\r\n]", markdown):
        problems.append("a line break")
    i = re.match(r"(?:&#32;|&#9;)*", markdown).end()
    if markdown[i:i + 1] in (" ", "\t"):
        problems.append("a leading blank")
    code_start = None
    while i < len(markdown):
        char = markdown[i]
        if code_start is None and markdown.startswith(JOIN, i):
            text += "\u2060"
            i += len(JOIN)
            continue
        if code_start is not None:
            if char == "`":
                span = markdown[code_start:i]
                if len(span) > limits.MAX_QUOTE_CHARS or not span.strip():
                    problems.append(f"code span of {len(span)} characters: {span[:40]!r}")
                if re.search(SHORTCODE, span):
                    problems.append(f"shortcode in a code span: {span!r}")
                code_start = None
                text += "\x00"  # a code span: no text run goes across it
        elif char == "\\":
            if i + 1 == len(markdown) or markdown[i + 1] not in string.punctuation:
                problems.append(f"a backslash that escapes nothing at {i}")
            text += markdown[i + 1:i + 2]
            i += 1
        elif char == "`":
            code_start = i + 1
        elif char in string.punctuation:
            problems.append(f"unescaped {char!r} at {i}: {markdown[max(0, i - 20):i + 20]!r}")
        else:
            text += char
        i += 1
    for what, pattern in AFTER_PARSING.items():
        for run in text.split("\x00"):
            found = re.search(pattern, run)
            if found:
                problems.append(f"{what} in the parsed text: {run[found.start():][:40]!r}")
    if code_start is not None:
        problems.append("a code span that never closes")
    return problems
