"""as_markdown, the one escaping function: whatever a link, a file or a student wrote, the
Markdown it makes shows that text and renders nothing else (markdown_check says what that means
for CommonMark, GitHub's extensions and Streamlit's own: maths, directives, shortcodes)."""

from __future__ import annotations

import base64
import json
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground import GraphSpec, SpecError, limits, share
from playground.errors import as_markdown, from_markdown, one_line, quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
from markdown_check import markdown_problems  # noqa: E402

ATTACKS = [
    "x\n\n![pixel](https://evil.example/pixel.png)",
    "x\n\n[click](https://evil.example/phish)",
    "x\r\rhttps://evil.example/bare",
    "x\r\n\r\n<img src=https://evil.example/p.png>",
    "x\n\n<https://evil.example/autolink>",
    "x\n\n[r]: https://evil.example/ref\n\n[r]",
    "x\n\n# heading\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    "x\n\n$\\href{https://evil.example}{x}$ $$x$$",
    "x\n\n:red[alert] :smile: :material/home: :+1:",
    "x\n\n    indented code",
    "x\n\n- item\n1. item\n> quote\n***\n===",
    "x\n\n```\nfenced\n```",
    "<div>www.evil.example a@evil.example mailto:a@evil.example</div>",
    "*emphasis* _emphasis_ ~~strike~~ ~strike~ \\",
    "&lt;b&gt; &#91;x&#93;(y) &amp;",
    "[x][r] [x] ![y][r]",
    "    four spaces first",
    "\t tab first",
    "`",
    "``",
    "```",
    ":smile:",
    ":material/home:",
    "a`b`c`d",
    "see http://evil.example/x, HTTPS://evil.example",
    "WWW.evil.example and a.b+c@evil.example",
    "x -> y <= z -- w ~= v <-> u >= t <- s",
    ":streamlit: :+1: :-1: :red_circle:",
]
TEMPLATES = [
    "{}",
    "node `{}`: unknown field `extra`; an input node has kind, name, value",
    "`{}` is not a valid name; use letters, digits and underscores",
    "Ignored link settings: show={!r} (use one of value, grad, both)",
    "This link's graph could not be opened, so the default graph is shown. line 1: `{}`",
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("template", TEMPLATES)
def test_a_quoted_attack_is_text_and_nothing_else(attack, template):
    message = template.format(attack)
    markdown = as_markdown(message)
    assert not markdown_problems(markdown), (markdown, markdown_problems(markdown))
    assert from_markdown(markdown) == one_line(message)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("`\\\n\r\t *_[]()!<>$:~|#-+.=&@/ax1é⏎")),
               max_size=60))
def test_any_text_of_markdowns_characters_is_text(text):
    markdown = as_markdown(text)
    assert not markdown_problems(markdown), (text, markdown)
    assert from_markdown(markdown) == one_line(text)


def test_bare_urls_addresses_shortcodes_and_arrows_get_a_word_joiner():
    """Streamlit's Markdown finds these in the text after parsing, escapes resolved: a bare
    http:// link was still made a link although every punctuation character was escaped."""
    assert as_markdown("http://e.x") == "http\\:&#8288;\\/\\/e\\.x"
    assert as_markdown("www.e.x a@e.x") == "www&#8288;\\.e\\.x a&#8288;\\@e\\.x"
    assert as_markdown("a -> b") == "a \\-&#8288;\\> b"
    assert from_markdown(as_markdown("http://e.x www.e.x a@e.x a -> b")) == (
        "http://e.x www.e.x a@e.x a -> b")


def test_a_line_break_reads_as_a_sign_and_the_message_is_one_line():
    assert as_markdown("a\n\nb") == "a⏎⏎b"
    assert as_markdown("`a\r\nb`") == "`a⏎b`"


def test_blanks_that_would_indent_a_code_block_are_character_references():
    assert as_markdown("    x") == "&#32;&#32;&#32;&#32;x"
    assert from_markdown(as_markdown(" \tx")) == " \tx"


def test_a_code_span_holding_a_shortcode_is_shown_escaped_not_as_code():
    """Streamlit turns :material/...: into an icon even in a code span (it rewrites the source
    before parsing) and loads remark-emoji for the whole text when any :name: appears."""
    assert as_markdown("`:smile:`") == "\\`\\:&#8288;smile\\:\\`"
    assert as_markdown("`:material/home:`") == "\\`\\:&#8288;material\\/home\\:\\`"


def test_a_colon_before_a_blank_stays_a_plain_colon():
    """Only a colon a shortcode or a URL could follow gets the word joiner, so the app's own
    sentences ("Step 1 of 2: backward ...") copy and read as they look."""
    assert as_markdown("Step 1 of 2: d") == "Step 1 of 2\\: d"


def test_a_long_quote_and_a_long_message_are_cut_with_an_ellipsis():
    markdown = as_markdown("node `" + "a" * 10_000 + "`: too long " + "b" * 10_000)
    assert "`" + "a" * (limits.MAX_QUOTE_CHARS - 1) + "…`" in markdown
    assert len(from_markdown(markdown)) == limits.MAX_MESSAGE_CHARS
    assert from_markdown(markdown).endswith("b…")
    assert quote("a\nb" * 100) == ("a⏎b" * 100)[: limits.MAX_QUOTE_CHARS - 1] + "…"


def _bad_name_doc(name: str) -> str:
    return json.dumps({"version": 1, "nodes": [
        {"name": name, "kind": "input", "value": 1.0, "extra": 1}]})


PAGE = "![pixel](https://evil.example/p.png) [click](https://evil.example/x) " * 500


def _link(doc: str) -> str:
    return "v1." + base64.urlsafe_b64encode(zlib.compress(doc.encode(), 9)).decode().rstrip("=")


@pytest.mark.parametrize("read", [GraphSpec.from_json, lambda doc: share.decode(_link(doc))])
def test_a_node_name_carrying_a_markdown_page_is_quoted_short_on_one_line(read):
    """An unknown field's error names its node, whose name nothing had checked yet: a blank
    line in it ended the code span, and a whole Markdown page followed, from a share link."""
    with pytest.raises(SpecError) as caught:
        read(_bad_name_doc("x\n\n" + PAGE))
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("node `x⏎⏎![pixel](https://evil.example/p.png) [click]")
    assert len(message) < 2 * limits.MAX_QUOTE_CHARS + 100
    assert not markdown_problems(as_markdown(message))


def test_an_invalid_name_with_a_blank_line_is_quoted_on_one_line():
    with pytest.raises(SpecError) as caught:
        GraphSpec.from_json(json.dumps({"version": 1, "nodes": [
            {"name": "x\n\n![p](https://evil.example/p)", "kind": "input", "value": 1.0}]}))
    assert "x⏎⏎![p](https://evil.example/p)" in str(caught.value)
    assert not markdown_problems(as_markdown(str(caught.value)))
