"""The model without a database: codes and nicknames, lesson steps read from links, marking,
recognised mistakes, the projector's summary and the CSV."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from classroom_helpers import CLASSIC, exercise_link, link, vector_exercise_link

from playground import limits, presets, share
from playground.classroom import Refused, codes, lesson
from playground.classroom.summary import AnswerRow, safe_cell, summarise, to_csv

ROOT = Path(__file__).resolve().parents[2]


def test_codes_use_32_unmistakable_characters_evenly():
    assert len(codes.ALPHABET) == 32 and not set(codes.ALPHABET) & set("0O1I")
    drawn = Counter("".join(codes.new_code() for _ in range(2_000)))
    assert set(drawn) == set(codes.ALPHABET)
    assert max(drawn.values()) < 3 * min(drawn.values())


def test_keys_are_long_random_and_kept_as_digests():
    keys = {codes.new_key() for _ in range(100)}
    assert len(keys) == 100 and all(len(k) >= 43 for k in keys)
    key = keys.pop()
    assert codes.same_digest(codes.digest(key), codes.digest(key))
    assert not codes.same_digest(codes.digest(key), codes.digest(key + "x"))
    assert codes.digest(None) == codes.digest(7) == "-"


@pytest.mark.parametrize("page", list(lesson.PAGES))
def test_a_link_to_every_page_is_a_step(page):
    target = (link(page or "build") if page != "train"
              else "https://x/train?data=xor&act=relu")
    step = lesson.read_link(target)
    assert step.page == page and step.title.startswith(lesson.PAGES[page])
    reopened = lesson.open_step(step.page, step.query)
    if page == "train":
        assert reopened.train_query == {"data": "xor", "act": "relu"}
    else:
        assert reopened.spec == CLASSIC


def test_a_step_keeps_only_the_apps_parameters_and_reads_relative_links():
    step = lesson.read_link("/graph?graph=" + share.encode(CLASSIC)
                            + "&font=28&utm_source=mail&key=secret")
    assert step.target == f"graph?graph={share.encode(CLASSIC)}&font=28"
    assert lesson.read_link("?graph=" + share.encode(CLASSIC)).page == ""


def test_the_pages_are_the_apps_pages():
    """Each page a step opens is one of the app's (url path = file name, the first at "")."""
    from pages.ui import frame

    first, *others = [(Path(file).stem, title) for file, title, _ in frame.PAGES
                      if file != "class.py"]
    assert lesson.PAGES == {"": first[1], **dict(others)}


@pytest.mark.parametrize(("text", "says"), [
    ("https://x/secret_admin?graph=v1.x", "not a page of this app"),
    ("https://x/graph?graph=v1.AAAA", "does not open"),
    ("https://x/graph?graph=v2.AAAA", "another version"),
    ("https://x/graph?graph=" + share.encode(CLASSIC) + "&font=999", "display settings"),
    ("https://x/backprop?ex=grad:a", "no graph"),
    ("https://x/train?lr=77", "Train settings"),
    ("x" * (lesson.MAX_LINK_CHARS + 1), "more than the limit"),
    ("   ", "paste a link"),
    (None, "paste a link"),
])
def test_a_link_the_app_would_not_open_is_refused_saying_why(text, says):
    with pytest.raises(Refused, match=says):
        lesson.read_link(text)


def test_an_exercise_step_keeps_its_answer_key_and_marks_like_the_app():
    step = lesson.read_link(exercise_link())
    key = lesson.read_key(step.answer_key)
    assert key.nodes == ("a", "b", "c") and key.label("a") == "∂d/∂a"
    assert {n: float(key.answers[n]) for n in key.nodes} == {"a": 4.0, "b": 2.0, "c": 1.0}
    assert lesson.grade(key, "a", "4.003").correct  # within 0.1 %, as the app checks
    assert not lesson.grade(key, "a", "4.01").correct
    assert lesson.grade(key, "a", " 4 ").text == "4"
    vector = lesson.read_key(lesson.read_link(vector_exercise_link()).answer_key)
    graded = lesson.grade(vector, "x", "[3, -1]")
    assert graded.correct and graded.number is None


def test_an_exercise_hiding_more_than_the_limit_is_refused():
    from playground import parse

    n = limits.MAX_STEP_HIDDEN_ELEMENTS + 1
    big = parse(f"x = randn({n}, seed=0)\nL = sum(x * x)")
    with pytest.raises(Refused, match=f"more than the {limits.MAX_STEP_HIDDEN_ELEMENTS:,}"):
        lesson.read_link(link("backprop", big, ex="grad:x"))


def test_every_exercise_preset_is_a_step():
    for p in presets.EXERCISES:
        ex = f"{p.quantity}{'@' + p.wrt if p.wrt else ''}:{','.join(p.hidden)}"
        step = lesson.read_link(link("backprop", p.spec, ex=ex))
        key = lesson.read_key(step.answer_key)
        assert key.nodes == tuple(p.hidden), p.key
        assert len(step.title) <= limits.MAX_STEP_TITLE_CHARS


def test_titles_are_bounded():
    assert lesson.read_link(link(), "  My   step ").title == "My step"
    with pytest.raises(Refused, match=f"longer than {limits.MAX_STEP_TITLE_CHARS}"):
        lesson.read_link(link(), "x" * (limits.MAX_STEP_TITLE_CHARS + 1))


def test_common_mistakes_are_recognised():
    key = lesson.read_key(lesson.read_link(exercise_link()).answer_key)
    assert lesson.recognise(key, "a", -4.0) == "the right number with the wrong sign"
    assert lesson.recognise(key, "a", 2.0) == "the value of a"
    assert lesson.recognise(key, "a", 6.0) == "the value of c"
    assert lesson.recognise(key, "a", 123.0) is None


def _row(student, node, text, correct):
    try:
        number = float(text)
    except ValueError:
        number = None
    return AnswerRow(student, node, text, number, correct)


def test_the_summary_counts_students_answers_and_mistakes():
    key = lesson.read_key(lesson.read_link(exercise_link()).answer_key)
    rows = [_row(1, "a", "4", True), _row(1, "b", "2", True), _row(1, "c", "1", True),
            _row(2, "a", "2", False), _row(3, "a", "2", False), _row(4, "a", "-4", False),
            _row(5, "a", "4.0", True)]
    s = summarise(key, rows, joined=7)
    assert (s.joined, s.answered, s.all_correct, s.share_correct) == (7, 5, 1, 0.2)
    a = s.nodes[0]
    assert (a.answered, a.correct, a.share_correct) == (5, 2, 0.4)
    assert [(b.answer, b.count, b.correct) for b in a.bars] == [
        ("2", 2, False), ("4", 2, True), ("-4", 1, False)]
    assert [(w.answer, w.count, w.recognised) for w in a.wrong] == [
        ("2", 2, "the value of a"), ("-4", 1, "the right number with the wrong sign")]
    assert summarise(None, rows, 7).nodes == () and summarise(key, [], 0).share_correct is None


def test_many_distinct_answers_end_in_one_other_bar():
    key = lesson.read_key(lesson.read_link(exercise_link()).answer_key)
    rows = [_row(i, "a", str(i), i == 4) for i in range(40)]
    bars = summarise(key, rows, 40).nodes[0].bars
    assert len(bars) == 13 and bars[-1].answer == "other" and sum(b.count for b in bars) == 40


def test_the_csv_never_starts_a_formula():
    assert safe_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert safe_cell("-3.5") == "-3.5" and safe_cell("@x") == "'@x" and safe_cell("ok") == "ok"
    text = to_csv([(0, "=1+1", 1, "+me", "a", "-2", False, 0)])
    assert text.splitlines()[1] == "1,'=1+1,1,'+me,a,-2,no,1970-01-01 00:00:00"


def test_the_rate_limits_count_the_browsers_address_behind_the_apps_own_proxy():
    assert codes.client_address("203.0.113.7", None) == "203.0.113.7"
    assert codes.client_address("127.0.0.1", "198.51.100.1, 203.0.113.9") == "203.0.113.9"
    assert codes.client_address("203.0.113.7", "10.0.0.1") == "203.0.113.7"  # not our proxy
    assert codes.client_address(None, None) == "unknown"


def test_the_join_link_makes_a_qr_code():
    from playground.classroom.qr import qr_png

    png = qr_png("https://class.example/class?join=K7M2QX")
    assert png.startswith(b"\x89PNG") and len(png) > 300


def test_the_projectors_chart_marks_the_right_answer_in_large_type():
    from pages.ui import classroom_chart

    key = lesson.read_key(lesson.read_link(exercise_link()).answer_key)
    node = summarise(key, [_row(1, "a", "4", True), _row(2, "a", "2", False)], 2).nodes[0]
    assert sorted(r["label"] for r in classroom_chart.rows(node)) == ["1", "✔ 1"]
    spec = classroom_chart.answers_spec(node)
    assert spec["encoding"]["x"]["axis"]["labelFontSize"] >= 20
    assert spec["layer"][0]["encoding"]["color"]["scale"]["domain"] == ["right", "not right"]
    projector = classroom_chart.answers_spec(node, scale=2.0)  # text size 28
    assert projector["encoding"]["x"]["axis"]["labelFontSize"] == 32  # the page's text
    assert projector["height"] == 480
