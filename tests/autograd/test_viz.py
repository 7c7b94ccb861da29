"""autograd.viz: Graphviz records and ovals in micrograd's style, and a text tree for terminals."""

import shutil
import sys

import numpy as np
import pytest

import autograd as ag
from autograd import viz
from autograd.format import array_text


def classic():
    """micrograd's first example: c = a * b, d = c + a, so a.grad = b + 1 = 4 and b.grad = a = 2."""
    a = ag.tensor([2.0], requires_grad=True, name="a")
    b = ag.tensor([3.0], requires_grad=True, name="b")
    c = a * b
    d = c + a
    d.backward(ag.ones_like(d))
    return d


def test_to_dot_draws_a_record_per_tensor_with_its_value_and_gradient():
    source = viz.to_dot(classic()).source
    assert 't0 [label="{ a | shape (1,) | data [2.0000] | grad [4.0000] }"' in source
    assert 't1 [label="{ b | shape (1,) | data [3.0000] | grad [2.0000] }"' in source
    assert 't2 [label="{ shape (1,) | data [6.0000] | grad None }"' in source
    assert 't3 [label="{ shape (1,) | data [8.0000] | grad None }"' in source


def test_to_dot_puts_an_oval_per_op_between_its_inputs_and_its_output():
    source = viz.to_dot(classic()).source
    assert "t2_op [label=Mul shape=oval]" in source
    assert "t3_op [label=Add shape=oval]" in source
    edges = [line.strip() for line in source.splitlines() if "->" in line]
    assert edges == [
        "t2_op -> t2",
        "t3_op -> t3",
        "t0 -> t2_op",
        "t1 -> t2_op",
        "t2 -> t3_op",
        "t0 -> t3_op",
    ]


def test_to_dot_shades_leaves_that_require_grad():
    source = viz.to_dot(classic()).source
    shaded = [line.split()[0] for line in source.splitlines() if "#dbeafe" in line]
    assert shaded == ["t0", "t1"]


def test_to_dot_without_gradients_and_top_to_bottom():
    dot = viz.to_dot(classic(), show_grad=False, rankdir="TB")
    assert "grad" not in dot.source
    assert "rankdir=TB" in dot.source


def test_to_dot_escapes_record_characters_in_names():
    x = ag.tensor([1.0], requires_grad=True, name='w{1}|<in> "q" \\')
    source = viz.to_dot(x * 2).source
    assert r'w\{1\}\|\<in\> \"q\" \\ | shape (1,)' in source


def test_to_dot_summarises_a_large_tensor_with_statistics_and_the_first_entries():
    x = ag.tensor(np.arange(100.0), requires_grad=True, name="x")
    (x * x).sum().backward()
    lines = viz.to_dot(x).source.splitlines()
    label = next(line for line in lines if line.strip().startswith("t0"))
    assert (r"data\lmin 0.0000  mean 49.5000  max 99.0000\l"
            r"[0.0000, 1.0000, 2.0000, 3.0000, …]\l") in label
    assert (r"grad\lmin 0.0000  mean 99.0000  max 198.0000\l"
            r"[0.0000, 2.0000, 4.0000, 6.0000, …]\l") in label
    assert "4.0000, 5.0000" not in label and "6.0000, 8.0000" not in label


def test_to_dot_names_a_non_float64_dtype_next_to_the_shape():
    x = ag.tensor(np.ones(2, dtype=np.float32), requires_grad=True)
    assert "shape (2,) float32" in viz.to_dot(x).source


@pytest.mark.skipif(shutil.which("dot") is None, reason="the Graphviz dot program is not installed")
def test_to_dot_renders_to_svg_with_the_values_in_it():
    svg = viz.to_dot(classic()).pipe(format="svg").decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert ">grad [4.0000]</text>" in svg and ">grad [2.0000]</text>" in svg
    assert ">Mul</text>" in svg


def test_to_dot_without_the_graphviz_package_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match="pip install graphviz"):
        viz.to_dot(classic())


def test_to_ascii_draws_the_result_first_and_each_ops_inputs_below_it():
    assert viz.to_ascii(classic()) == (
        "#3 = Add  shape (1,)  data [8.0000]  grad None\n"
        "├── #2 = Mul  shape (1,)  data [6.0000]  grad None\n"
        "│   ├── a  shape (1,)  data [2.0000]  grad [4.0000]\n"
        "│   └── b  shape (1,)  data [3.0000]  grad [2.0000]\n"
        "└── a (drawn above)"
    )


def test_to_ascii_summarises_large_values_on_one_line():
    x = ag.tensor(np.arange(10.0), name="x")
    assert viz.to_ascii(x) == (
        "x  shape (10,)  data min 0.0000  mean 4.5000  max 9.0000 "
        "[0.0000, 1.0000, 2.0000, 3.0000, …]  grad None"
    )


def test_to_ascii_stops_at_max_depth_on_a_long_chain():
    y = ag.tensor(1.0, requires_grad=True, name="x")
    for _ in range(2_000):
        y = -y
    lines = viz.to_ascii(y, max_depth=3).splitlines()
    assert len(lines) == 5
    assert lines[3] == "        └── #1997 = Neg  shape ()  data -1.0000  grad None"
    assert lines[4] == "            └── … inputs deeper than max_depth=3 not shown"


def test_a_notebook_drawing_writes_numbers_arrays_and_summaries_as_the_app_does():
    w = ag.tensor([[0.5, -1.0], [2.0, 0.1]], requires_grad=True, name="w")
    flags = ag.tensor(np.array([True, False]), name="flags")
    empty = ag.tensor(np.zeros((0, 3)), name="empty")
    assert viz.to_ascii(w) == f"w  shape (2, 2)  data {array_text(w.data)}  grad None"
    assert array_text(w.data) == "[[0.5000, -1.0000] [2.0000, 0.1000]]"
    assert "data [1.0000, 0.0000]" in viz.to_ascii(flags)
    assert "data []" in viz.to_ascii(empty)
    label = viz.to_dot(w).source
    assert r"data\l[[0.5000, -1.0000]\l [2.0000, 0.1000]]\l" in label
