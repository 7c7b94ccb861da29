"""The defects found by trying the running app as an attacker would (issue 16), each through
AppTest: the page shows a specific message, no exception reaches Streamlit's red box, and the
previous graph stays. Stale form requests are in test_hostile_forms.py."""

import sys

import pytest
from app_helpers import (
    GRADIENT_CHECK,
    GRAPH,
    errors_of,
    new_app,
    run,
    spec_of,
    start,
)

from pages.ui import keys
from playground import limits, parse, presets, share
from playground.errors import from_markdown

DEFAULT = presets.get(presets.DEFAULT_KEY).spec


def _never(*args, **kwargs):
    raise AssertionError("an op ran although the graph is over budget")


def _tanh_program(lines: int) -> str:
    body = "".join(f"h{i} = tanh({'x' if i == 0 else f'h{i - 1}'})\n" for i in range(lines))
    return "x = zeros(1000, 1000)\n" + body


def _apply(at, text):
    at.text_area(key=keys.EXPR_TEXT).input(text)
    at.button(key=keys.EXPR_APPLY).click()
    return run(at)


@pytest.mark.parametrize("font", ["²", "9" * 5_000, "1e1", "٣٠", " 20", "-20", "0x14"])
def test_a_font_parameter_that_is_no_ascii_number_is_ignored_with_a_warning(font):
    at = run(new_app(query={"graph": share.encode(DEFAULT), "font": font}, page=GRAPH))
    assert spec_of(at) == DEFAULT
    warnings = [from_markdown(w.value) for w in at.warning]
    assert any(w.startswith("Ignored link settings: font=") for w in warnings), warnings
    assert all(len(w) < 200 for w in warnings)


@pytest.mark.parametrize("lines", [60, 1_000])
def test_a_tanh_chain_on_a_million_elements_is_refused_before_any_op_runs(lines, monkeypatch):
    """60 lines took 7.7 s; 1,000 lines asked for 16 GB and ended in a MemoryError."""
    at = start()
    monkeypatch.setattr(sys.modules["playground.evaluate"], "apply_node", _never)
    _apply(at, _tanh_program(lines))
    assert spec_of(at) == DEFAULT
    (error,) = errors_of(at)
    assert f"{(lines + 1) * 1_000_000:,} elements together" in error
    assert f"limit of {limits.MAX_GRAPH_ELEMENTS:,}" in error


def test_a_link_to_chained_big_matrix_products_is_refused_before_any_op_runs(monkeypatch):
    """Ten chained 1000x1000 products in a 238-character link took 1.8 s."""
    spec = parse("a = randn(1000, 1000, seed=0)\n" + "".join(
        f"m{i} = sum({'a' if i == 0 else f'm{i - 1}'} @ a, axis=0, keepdims=True)\n"
        for i in range(10)))
    link = share.encode(spec)
    assert len(link) < 400
    at = new_app(query={"graph": link}, page=GRAPH)
    monkeypatch.setattr(sys.modules["playground.evaluate"], "apply_node", _never)
    run(at)
    assert spec_of(at) == DEFAULT
    (error,) = errors_of(at)
    assert error.startswith("This link's graph could not be opened, so the default graph is shown.")
    assert f"limit of {limits.MAX_WORK:,}" in error


def test_the_gradient_check_of_a_million_element_step_compares_a_few_elements_and_says_so():
    """The Gradient check page took 6.3 s on a legal graph with a 1M-element intermediate."""
    spec = parse("x = randn(1000, seed=0)\na = reshape(x, shape=(1000, 1))\n"
                 "b = reshape(x, shape=(1, 1000))\no = a * b\nt = tanh(o)\nL = sum(t)\n")
    at = run(new_app(query={"graph": share.encode(spec)}, page=GRADIENT_CHECK))
    captions = " ".join(c.value for c in at.caption)
    assert "of the inputs' 1,000 elements, evenly spaced" in captions
    assert not errors_of(at)


def _wide_graph(n_nodes: int):
    """A legal graph of ``n_nodes`` nodes that Graphviz takes long to lay out: many inputs, each
    feeding several sums."""
    lines = [f"x{i} = {i}.0" for i in range(n_nodes // 4)]
    names = [f"x{i}" for i in range(n_nodes // 4)]
    k = 0
    while len(lines) < n_nodes - 1:
        lines.append(f"s{k} = {names[k % len(names)]} + {names[(7 * k + 3) % len(names)]}")
        names.append(f"s{k}")
        k += 1
    lines.append(f"L = sum({names[-1]})")
    return parse("\n".join(lines) + "\n")


def test_the_graph_page_of_a_2000_node_graph_lays_out_nothing_until_asked(monkeypatch):
    """The Graph page ran `dot -Tsvg` on every visit for its download button: 10 s here."""
    spec = _wide_graph(2_000)
    assert len(spec) == 2_000
    at = new_app(query={"graph": share.encode(spec)}, page=GRAPH)
    monkeypatch.setattr("playground.render.to_svg", _never)
    run(at)
    assert spec_of(at) == spec
    at.button(key=keys.DOWNLOAD + "make_svg").click()
    run(at)
    (warning,) = [w.value for w in at.warning if "SVG" in w.value]
    assert f"more than the {limits.MAX_LAYOUT_NODES:,} the server lays out as SVG" in warning


def test_the_documented_sum_of_100_terms_is_accepted_and_101_terms_refused():
    at = start()
    _apply(at, "a = 1.0\nb = " + " + ".join(["a"] * 100) + "\n")
    assert not errors_of(at)
    assert spec_of(at).effective_output == "b"
    _apply(at, "a = 1.0\nb = " + " + ".join(["a"] * 101) + "\n")
    (error,) = errors_of(at)
    assert f"nested more than {limits.MAX_EXPR_DEPTH} levels deep" in error
    assert spec_of(at).effective_output == "b"


def test_the_servers_layout_is_bounded_in_passes_and_in_time(monkeypatch):
    """`a + a + ... + a` (100 terms, a legal graph) took Graphviz more than 20 s to lay out: a
    node feeding a hundred others. The server's layout caps Graphviz's passes and the page's
    drawing waits at most MAX_DRAWN_SECONDS before the browser lays it out instead."""
    seen = []

    def to_svg(dot, timeout):
        seen.append((dot, timeout))
        return None  # as if Graphviz gave up: the browser draws it

    monkeypatch.setattr("playground.render.to_svg", to_svg)
    at = start()
    _apply(at, "fan = 1.0\nout = " + " + ".join(["fan"] * 100) + "\n")  # a graph no test drew
    assert not errors_of(at) and not at.exception
    assert seen and all("nslimit=5, nslimit1=5" in dot for dot, _ in seen)
    assert {timeout for _, timeout in seen} == {limits.MAX_DRAWN_SECONDS}
    assert at.get("graphviz_chart"), "the browser lays out what the server did not"
