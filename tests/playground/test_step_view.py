"""What the Step through page shows at each step, and the drawing's overlay."""

import re
import shutil
import subprocess

import pytest

from playground import evaluate, parse, presets, render
from playground.step_view import count, view
from playground.steps import backward_steps, tangents
from playground.steps_render import Overlay, overlay_dot


def classic():
    spec = presets.get("classic").spec
    result = evaluate(spec)
    return result, backward_steps(spec), tangents(spec, result, "a")


def labels(dot: str) -> dict[str, str]:
    """Each node's last declared record label, as Graphviz reads a node declared twice."""
    found = {}
    for name, label in re.findall(r'^\s*"([^"#]+)" \[(?:shape=record, )?label="([^"]*)"',
                                  dot, re.M):
        found[name] = label
    return found


def test_reverse_step_1_of_the_classic_graph_leaves_b_blank_and_a_half_summed():
    result, backward, _ = classic()
    shown = view(result, "reverse", 1, backward=backward)
    assert shown.heading == "Step 1 of 2: backward through d = c + a"
    fields = dict(shown.overlay.fields["b"])
    assert fields["grad"] == ("?",)
    assert dict(shown.overlay.fields["a"])["grad"] == ("1.0000 + ? = …",)
    assert set(shown.overlay.edges) == {("d", 0), ("d", 1)}
    assert shown.overlay.focus == ("d",)
    assert any("1.0000 \\cdot 1.0000 = 1.0000" in line for line in shown.lines)


def test_reverse_step_2_shows_the_total_with_both_terms():
    result, backward, _ = classic()
    shown = view(result, "reverse", 2, backward=backward)
    assert dict(shown.overlay.fields["a"])["grad"] == ("1.0000 + 3.0000 = 4.0000",)
    assert shown.lines[0].startswith(r"\begin{aligned}\frac{\partial \mathit{d}}"
                                     r"{\partial \mathit{a}} &\mathrel{+}=")
    assert "1.0000 \\cdot 3.0000 = 3.0000" in shown.lines[0]
    assert any("both" in note or "2 paths" in note for note in shown.notes)


def test_forward_pass_blanks_what_is_not_computed_yet():
    result, _, _ = classic()
    first = view(result, "forward", 0)
    assert dict(first.overlay.fields["c"])["value"] == ("?",)
    assert dict(first.overlay.fields["a"])["value"] == ("2.0000",)
    second = view(result, "forward", 1)
    assert dict(second.overlay.fields["c"])["value"] == ("6.0000",)
    assert dict(second.overlay.fields["d"])["value"] == ("?",)
    assert "2.0000 \\cdot 3.0000 = 6.0000" in second.lines[0]


def test_forward_mode_pushes_the_tangent_of_a():
    result, _, moved = classic()
    shown = view(result, "tangent", 2, tangents=moved)
    assert dict(shown.overlay.fields["d"])["tangent"] == ("4.0000",)
    assert "1.0000 \\cdot 3.0000 + 1.0000 \\cdot 1.0000 = 4.0000" in shown.lines[0]


def test_steps_clip_to_the_range_of_their_mode():
    result, backward, _ = classic()
    assert count(result, "reverse", backward) == 2
    assert view(result, "reverse", 99, backward=backward).step == 2
    assert view(result, "forward", -3).step == 0


def test_broadcasting_is_explained_with_its_axes():
    spec = presets.get("broadcast").spec
    result = evaluate(spec)
    backward = backward_steps(spec)
    shown = view(result, "reverse", 2, backward=backward)
    notes = " ".join(shown.notes)
    assert "col has shape (3, 1) but s has (3, 4)" in notes and "axis 1" in notes
    assert "row has shape (4,)" in notes and "axis 0" in notes
    assert shown.overlay.edges[("s", 0)] == "(3, 1) (Σ axis 1)"


def test_an_exercise_hides_its_numbers_everywhere_on_the_step():
    result, backward, _ = classic()
    shown = view(result, "reverse", 2, backward=backward, hide=lambda q, n: (q, n) == ("grad", "a"))
    assert dict(shown.overlay.fields["a"])["grad"] == ("?",)
    assert "4.0000" not in " ".join(shown.lines) + shown.overlay.tooltips["a"]
    assert shown.overlay.edges[("c", 0)] == "?"


def test_the_overlay_replaces_labels_bolds_edges_and_keeps_the_base_drawing():
    result, backward, _ = classic()
    shown = view(result, "reverse", 2, backward=backward)
    base = render.to_dot(result, rankdir="TB")
    dot = overlay_dot(base, result, shown.overlay)
    assert all(line in dot for line in base.splitlines() if "->" not in line and line != "}")
    assert labels(dot)["a"] == "{ a | scalar | value 2.0000 | grad 1.0000 + 3.0000 = 4.0000 }"
    across = overlay_dot(render.to_dot(result, rankdir="LR"), result, shown.overlay)
    assert labels(across)["a"] == "a | scalar | value 2.0000 | grad 1.0000 + 3.0000 = 4.0000"
    carried = [line for line in dot.splitlines() if 'class="carry"' in line]
    assert [line.split("[")[0].strip() for line in carried] == ['"a" -> "c#op"', '"b" -> "c#op"']
    assert 'label="3.0000"' in carried[0]


def test_the_overlay_finds_the_second_edge_of_an_operand_used_twice():
    spec = presets.get("shared").spec
    result = evaluate(spec)
    shown = Overlay(edges={("z", 1): "second"})
    dot = overlay_dot(render.to_dot(result, compact=True), result, shown)
    edges = [line for line in dot.splitlines() if '"y" -> "z"' in line]
    assert len(edges) == 2 and "second" not in edges[0] and "second" in edges[1]


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("key", ["classic", "mlp", "broadcast", "shared"])
def test_every_step_of_every_mode_is_a_drawing_graphviz_reads(key):
    spec = presets.get(key).spec
    result = evaluate(spec)
    backward = backward_steps(spec)
    moved = tangents(spec, result, next(n.name for n in result.nodes if n.kind == "input"))
    for mode in ("forward", "tangent", "reverse"):
        for compact in (False, True):
            for k in range(count(result, mode, backward) + 1):
                shown = view(result, mode, k, backward=backward, tangents=moved, compact=compact)
                dot = overlay_dot(render.to_dot(result, compact=compact), result, shown.overlay)
                done = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True,
                                      timeout=30, check=False)
                assert done.returncode == 0, (mode, k, done.stderr.decode()[:300])


def test_a_big_graph_steps_in_compact_mode_without_listing_big_tensors():
    lines = ["x = randn(4, 4, seed=0)"] + [f"h{i} = tanh(x)" if i == 0 else
                                           f"h{i} = tanh(h{i - 1})" for i in range(80)]
    spec = parse("\n".join(lines) + "\nL = sum(h79)\n")
    result = evaluate(spec)
    backward = backward_steps(spec)
    shown = view(result, "reverse", 40, backward=backward, compact=True)
    assert dict(shown.overlay.fields["h10"])["grad"] == ("?",)
    assert dict(shown.overlay.fields["h60"])["grad"] == ("✓",)
    assert shown.overlay.titles["h60"] == "h60 = tanh"
