"""Evaluation traces in Griewank and Walther's notation, and their LaTeX and CSV exports."""

import csv
import io

from playground import evaluate, parse, presets
from playground.steps import backward_steps, tangents
from playground.traces import adjoint_trace, primal_trace, tangent_trace, to_csv, to_latex


def two_inputs():
    spec = parse("x1 = 1.5\nx2 = 0.5\nv1 = x1 * x2\nv2 = sin(x1)\ny = v1 + v2\n")
    return spec, evaluate(spec)


def test_the_primal_trace_numbers_inputs_from_minus_n_plus_1_and_ops_from_1():
    _, result = two_inputs()
    rows = primal_trace(result)
    assert [r.equation.text for r in rows] == [
        "v₋₁ = x1",
        "v₀ = x2",
        "v₁ = v₋₁ · v₀ = 1.5000 · 0.5000 = 0.7500",
        "v₂ = sin(v₋₁) = sin(1.5000) = 0.9975",
        "v₃ = v₁ + v₂ = 0.7500 + 0.9975 = 1.7475",
    ]
    assert [r.step for r in rows] == [0, 0, 1, 2, 3]
    assert rows[-1].value == "1.7475"


def test_the_tangent_trace_carries_one_input_direction():
    spec, result = two_inputs()
    rows = tangent_trace(result, tangents(spec, result, "x1"))
    assert [r.equation.text for r in rows][:2] == ["v̇₋₁ = 1", "v̇₀ = 0"]
    assert rows[3].equation.text == "v̇₂ = ∂v₂/∂v₋₁ · v̇₋₁ = 0.0707 · 1.0000 = 0.0707"
    assert rows[-1].value == "0.5707"  # x2 + cos(x1): dy/dx1


def test_the_adjoint_trace_runs_in_reverse_and_lists_both_uses_of_a_variable():
    spec, result = two_inputs()
    rows = adjoint_trace(result, backward_steps(spec))
    assert rows[0].equation.text == "v̄₃ = 1"
    assert [r.step for r in rows] == sorted(r.step for r in rows)
    uses = [r for r in rows if r.node == "x1"]
    assert len(uses) == 2  # x1 feeds v1 and v2: two lines
    assert "sum so far" in uses[-1].value and "0.5707" in uses[-1].value


def test_tensors_show_shapes_and_a_summary_not_numbers_in_the_equation():
    result = evaluate(presets.get("broadcast").spec)
    row = primal_trace(result)[2]
    assert row.equation.text == "v₁ = v₋₁ + v₀"
    assert row.value.startswith("(3, 4) min 11.0000")


def test_hidden_numbers_become_question_marks():
    spec, result = two_inputs()
    rows = adjoint_trace(result, backward_steps(spec), hide=lambda q, n: n == "x1")
    assert all("?" in r.value for r in rows if r.node == "x1")
    assert all("0.5707" not in r.equation.text + r.value for r in rows)


def test_latex_export_is_a_tabular_with_math_equations():
    spec, result = two_inputs()
    rows = adjoint_trace(result, backward_steps(spec))
    tex = to_latex(rows, "Adjoint trace")
    assert tex.startswith("% Adjoint trace\n\\begin{tabular}{rlll}")
    assert tex.rstrip().endswith("\\end{tabular}")
    assert r"$\bar{v}_{3} = 1$" in tex
    assert tex.count("\\\\") == len(rows) + 1  # a header and one line per row
    assert "x1" in tex and "_" not in tex.replace(r"\_", "").replace("_{", "")


def test_csv_export_reads_back_row_for_row():
    _, result = two_inputs()
    rows = primal_trace(result)
    read = list(csv.reader(io.StringIO(to_csv(rows))))
    assert read[0] == ["step", "node", "equation", "value"]
    assert read[3] == ["1", "v1", "v₁ = v₋₁ · v₀ = 1.5000 · 0.5000 = 0.7500", "0.7500"]
