"""The hostile corpus (hostile_corpus.py) through every door of the running app, in AppTest.

For each case: no exception reaches Streamlit's red box; a refused case shows a specific message
(the fragment the case names, or exactly the model's own message for that input) and the graph
on screen is the one from before; a case the limits allow shows its graph without an error; and
no page element ever renders a link, image, HTML or LaTeX that the payload carried. The time of
each case is the benchmark's business (benchmarks/hostile.py prints it): tests never time.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from app_helpers import (
    BUILD,
    GRADIENT_CHECK,
    GRADIENTS,
    GRAPH,
    errors_of,
    open_page,
    run,
    spec_of,
)
from hostile_corpus import (
    ACCEPTED,
    CASES,
    DEFAULT,
    DOORS,
    MODEL,
    NEW_SESSION_DOORS,
    SAFE,
    TEXT_LIMITS,
    Case,
    fresh_session,
)
from markdown_check import markdown_problems

from pages.ui import keys
from playground import GraphSpec, SpecError, edits, parse, share
from playground.errors import from_markdown
from playground.evaluate import evaluate
from playground.expr import parse_value
from playground.spec import Node

ATTACK_TOKENS = ("alert(1)", "evil.example", "\\href", ":red[alert]", "\\begin{matrix}",
                 "smile", "material/")
LIVE_MARKUP = [r"(?<!\\)<[a-zA-Z/!]", r"(?<!\\)\]\(", r"(?<!\\)!\[", r"(?<!\\)\$", r"(?<!\\):red\["]
STALE = "the form changed as its button was pressed"

_SESSIONS: dict[str, object] = {}


def _session():
    """A session on Build showing the default graph: the last one while it still does."""
    at = _SESSIONS.get("build")
    if at is None or spec_of(at) != DEFAULT or at.exception:
        at = _SESSIONS["build"] = fresh_session()
    return at


def test_the_corpus_has_at_least_300_cases_at_every_door():
    assert len(CASES) >= 300
    assert {case.door for case in CASES} == set(DOORS) | set(NEW_SESSION_DOORS)


def _model_outcome(case: Case) -> tuple[bool, str | None]:
    """What the model does with the case's input on the default graph, as its door hands it
    over (cut at the text box's `max_chars`): (accepted, message). Message None: not computable
    here."""
    payload = case.payload
    if isinstance(payload, str) and case.door in TEXT_LIMITS:
        payload = payload[: TEXT_LIMITS[case.door]]
    try:
        if case.door == "expression":
            spec = parse(payload)
        elif case.door == "add_list":
            spec = edits.add_node(DEFAULT, Node("v", "input", value=parse_value(payload)))
        elif case.door == "edit_value":
            spec = edits.set_value(DEFAULT, "a", parse_value(payload))
        elif case.door == "add_name":
            name = payload.strip() or edits.fresh_name(DEFAULT, "x")
            spec = edits.add_node(DEFAULT, Node(name, "input", value=1.0))
        elif case.door == "edit_rename":
            spec = edits.rename(DEFAULT, "a", payload.strip())
        elif case.door in ("import_paste", "import_upload"):
            if not payload.strip():
                return False, "paste its JSON"
            spec = GraphSpec.from_json(payload)
        elif case.door == "graph_param":
            spec = share.decode(payload)
        else:
            return False, None
        if len(spec):
            evaluate(spec)
    except SpecError as err:
        return False, str(err)
    return True, None


def _markup_problems(at) -> list[str]:
    """Page elements whose Markdown would render something a payload carried: a message box
    that quotes a payload must be text through and through (markdown_check), other elements
    must hold it on one line with no live link, image, HTML, maths or directive."""
    problems = []
    alerts = [*at.error, *at.warning, *at.info, *at.success]
    for element in [*at.markdown, *at.caption, *alerts]:
        body = str(element.value)
        if not any(token in from_markdown(body) for token in ATTACK_TOKENS):
            continue
        if any(element is alert for alert in alerts):
            problems += [f"{p} in {body[:120]!r}" for p in markdown_problems(body)]
        if "\n" in body or "\r" in body:
            problems.append(f"a line break in {body[:120]!r}")
        outside = "".join(re.split(r"(?<!\\)`", body)[0::2])
        problems += [f"{pattern} in {body[:120]!r}" for pattern in LIVE_MARKUP
                     if re.search(pattern, outside)]
    return problems


def _visible_messages(at) -> list[str]:
    return [*errors_of(at), *(from_markdown(w.value) for w in at.warning)]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hostile_case_is_refused_clearly_or_accepted_within_the_limits(case):
    if case.door in NEW_SESSION_DOORS:
        at = run(NEW_SESSION_DOORS[case.door](case.payload))
        before = DEFAULT
    else:
        at = _session()
        at.session_state[keys.ERRORS] = {}  # no message left over from an earlier case
        before = spec_of(at)
        DOORS[case.door](at, case.payload)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    messages = _visible_messages(at)
    expected = case.expected
    if expected == MODEL:
        accepted, message = _model_outcome(case)
        expected = ACCEPTED if accepted else message or MODEL
    if expected == SAFE:
        assert all(np.isfinite(n.value).all() for n in evaluate(spec_of(at)).nodes
                   if n.kind != "op")
    elif expected == ACCEPTED:
        assert not errors_of(at), errors_of(at)
        assert spec_of(at) != before or case.door in NEW_SESSION_DOORS
    else:
        assert spec_of(at) == before
        assert messages, "no message on the page"
        assert not any(STALE in m for m in messages), messages
        if expected == MODEL:
            assert any(len(m) > 30 for m in messages), messages
        else:
            assert any(expected in m for m in messages), (expected, messages)
    assert not _markup_problems(at), _markup_problems(at)


@pytest.mark.parametrize("payload", [
    "x = 1.0\ny = __import__('os').system('id')\n",
    "x = zeros(1000, 1000)\n" + "".join(f"h{i} = tanh(h{i - 1} if False else x)\n"
                                         for i in range(3)),
    "x = 1.0\ny = <script>alert(1)</script>\n",
])
def test_after_a_failed_edit_every_page_opens_and_the_graph_and_the_typing_stay(payload):
    at = fresh_session()
    at.text_area(key=keys.EXPR_TEXT).set_value(payload)
    at.button(key=keys.EXPR_APPLY).click()
    run(at)
    assert errors_of(at)
    for page in (GRAPH, GRADIENTS, GRADIENT_CHECK, BUILD):
        open_page(at, page)
        assert spec_of(at) == DEFAULT
    assert errors_of(at), "the error is still next to the editor"
    assert at.text_area(key=keys.EXPR_TEXT).value == payload
