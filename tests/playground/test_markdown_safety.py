"""Messages quote what people typed; `as_markdown` makes them safe for Streamlit's Markdown:
the text reads the same, and no link, image, HTML or LaTeX it holds is ever rendered."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.errors import as_markdown, from_markdown, one_line

ATTACKS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[click me](javascript:alert(1))",
    "![x](https://evil.example/x.png)",
    "$\\href{javascript:alert(1)}{x}$",
    "$$\\begin{matrix} x \\end{matrix}$$",
    "see https://evil.example now",
    "www.evil.example",
    "**bold** _it_ ~~strike~~ # heading | table |",
    ":red[coloured] :material/home:",
    "` [x](javascript:alert(1)) `",
    "``[x](javascript:alert(1))``",
    "`",
]


def _outside_code_spans(markdown: str) -> str:
    """The text of `markdown` that is not inside a code span (where nothing is interpreted)."""
    unescaped_ticks = re.split(r"(?<!\\)`", markdown)
    return "".join(unescaped_ticks[0::2]).replace("&#8288;", "")  # as_markdown's word joiner


def _unescaped(markdown: str, chars: str) -> list[str]:
    return re.findall(r"(?<!\\)[" + re.escape(chars) + "]", markdown)


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("template", ["{}", "line 1: `{}` — not a function", "show={!r} (use both)",
                                      "unknown field `{}`; a node has name"])
def test_a_quoted_attack_is_shown_as_text_never_rendered(attack, template):
    message = template.format(attack)
    markdown = as_markdown(message)
    assert from_markdown(markdown) == message
    outside = _outside_code_spans(markdown)
    assert not _unescaped(outside, "<>[]$!*_~|#"), outside
    assert "://" not in outside.replace("\\://", "")


def test_the_messages_own_code_spans_stay_code_spans():
    assert as_markdown("`x` is not defined; did you mean `y`?") == (
        "`x` is not defined\\; did you mean `y`\\?")
    assert from_markdown(as_markdown("`a\\_b` and a\\_b")) == "`a\\_b` and a\\_b"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_reads_back_the_same_and_renders_nothing(text):
    markdown = as_markdown(text)
    assert from_markdown(markdown) == one_line(text)  # a line break reads ⏎
    assert not _unescaped(_outside_code_spans(markdown), "<>[]$")
