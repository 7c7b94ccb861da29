"""The README's "Adding an op", followed as written for the op it shows (exp): every place it names
holds that op, and the one call it shows is the line that builds the op the engine runs."""

import re
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

import autograd as ag
from autograd import ops
from autograd.ops.array_or_tensor import Op
from playground import registry
from playground.registry import elementwise as elementwise_entries
from tests.playground import op_cases

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "README.md").read_text(encoding="utf-8").split("### Adding an op")[1].split(
    "\n## ")[0]


def named_families():
    """The families step 1 names, in the order it names them."""
    step_1 = SECTION.split("1. **Its Function class**")[1].split("as listed in")[0]
    return re.findall(r"`(\w+)`", step_1)


def test_the_families_it_names_are_the_engines_and_each_has_its_three_modules():
    families = named_families()
    assert families == ["arithmetic", "elementwise", "reduce", "shape", "linalg"]
    assert set(families) <= {module.__name__.rsplit(".", 1)[1] for module in ops.FAMILIES}
    for family in families:
        for path in (f"autograd/ops/{family}.py", f"playground/registry/{family}.py",
                     f"tests/autograd/ops/test_{family}.py"):
            assert (ROOT / path).is_file(), path


ELSEWHERE = {"conv_transpose": "tests/autograd/test_nn_upsampling_layers.py"}
"""Families whose tests still sit with the layers that use them."""


def test_every_family_of_the_engine_has_its_test_module():
    """The layout the README states: a module per family under autograd/ops, its tests in
    tests/autograd/ops/test_<family>.py."""
    for module in ops.FAMILIES:
        family = module.__name__.rsplit(".", 1)[1]
        path = ELSEWHERE.get(family, f"tests/autograd/ops/test_{family}.py")
        assert (ROOT / path).is_file(), (family, path)


def test_the_call_it_shows_is_the_line_that_builds_exp_and_builds_an_op_with_its_jvp():
    (block,) = re.findall(r"```python\n(.*?)```", SECTION, re.S)
    assert textwrap.dedent(block) in (ROOT / "autograd/ops/elementwise.py").read_text()
    assert issubclass(ops.Exp, Op)
    assert ops.Exp.__doc__ == "eᵃ, with derivative eᵃ (the output itself)."
    x = ag.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = ag.exp(x)
    assert type(y.grad_fn) is ops.Exp
    np.testing.assert_array_equal(x.exp().data, y.data)
    y.backward(ag.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(x.grad.data, np.exp([0.5, -1.0, 2.0]) * [1.0, 2.0, 3.0], rtol=1e-15)
    # "the backward is also the forward-mode jvp, since the Jacobian is diagonal"
    _, tangent = ag.func.jvp(ag.exp, [ag.tensor([0.5, -1.0, 2.0])], [ag.tensor([1.0, 2.0, 3.0])])
    np.testing.assert_allclose(tangent.data, x.grad.data, rtol=1e-15)


def test_its_registry_entry_sits_in_the_same_family_with_its_shape_rule():
    info = registry.OPS["exp"]
    assert info in elementwise_entries.ENTRIES
    assert info.arity == 1 and info.shape([(3, 2)], {}) == (3, 2)  # unary keeps the shape


def test_its_test_cases_are_where_it_says():
    assert "exp" in op_cases.CASES
    assert any(re.search(r"\bexp\(", program) for program in op_cases.PROGRAMS.values())
    assert '"exp": (ag.exp, mp.exp' in (ROOT / "tests/autograd/test_awkward_points.py").read_text()
    assert '("exp", np.exp' in (ROOT / "tests/autograd/ops/test_elementwise.py").read_text()


def test_the_commit_it_cites_adds_an_op_in_two_product_files_and_five_lines_of_tests():
    commit = re.search(r"`git show (\w+)`", SECTION).group(1)
    shown = subprocess.run(["git", "show", "--numstat", "--format=", commit], cwd=ROOT,
                           capture_output=True, text=True)
    if shown.returncode:
        pytest.skip(f"not a git checkout with commit {commit}")
    rows = [line.split("\t") for line in shown.stdout.split("\n") if line]
    product = [path for _, _, path in rows if not path.startswith("tests/")]
    test_lines = sum(int(added) for added, _, path in rows if path.startswith("tests/"))
    assert len(product) == 2 and test_lines == 5
    assert "two files of product code and five lines of tests" in " ".join(SECTION.split())
