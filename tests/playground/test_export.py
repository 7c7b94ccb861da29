"""The PyTorch export: a mapping for every op, and scripts that reproduce evaluate's numbers."""

import contextlib
import io

import numpy as np
import pytest

from playground import evaluate, parse, registry
from playground.errors import SpecError
from playground.export import SCRIPT_NAMES, to_pytorch, variable_names
from playground.presets import PRESETS, get
from playground.torch_code import TorchCode
from tests.playground.op_cases import PROGRAMS as OP_PROGRAMS

NAMES_THE_SCRIPT_USES = """\
torch = 2.0
np = 3.0
torch_ = 4.0
F = torch * np + torch_
print = full(2, value=0.5)
range = ones(2)
reversed = print * range + F
"""

PROGRAMS = {**OP_PROGRAMS, "names": NAMES_THE_SCRIPT_USES}


def run_script(source):
    """Run our own generated script (never user text) and return its variables and output."""
    namespace = {"__name__": "exported"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, "<exported>", "exec"), namespace)  # noqa: S102
    return namespace, printed.getvalue()


def assert_script_matches_evaluate(spec):
    torch = pytest.importorskip("torch")
    result = evaluate(spec)
    namespace, _ = run_script(to_pytorch(spec))
    names = variable_names(spec)
    for node in result.nodes:
        tensor = namespace[names[node.name]]
        assert tensor.dtype == torch.float64, node.name
        np.testing.assert_allclose(tensor.detach().numpy(), node.value, rtol=1e-10, atol=1e-10,
                                   err_msg=f"value of {node.name}")
        if node.grad is None:
            assert not tensor.requires_grad, f"{node.name} should carry no gradient"
            continue
        grad = tensor.grad.numpy() if tensor.grad is not None else np.zeros(node.value.shape)
        np.testing.assert_allclose(grad, node.grad, rtol=1e-10, atol=1e-10,
                                   err_msg=f"gradient of {node.name}")


def test_every_registry_op_has_a_torch_spelling():
    missing = [name for name, info in registry.OPS.items() if not isinstance(info.torch, TorchCode)]
    assert not missing, f"registry entries without a PyTorch spelling (OpInfo.torch): {missing}"


def test_the_test_programs_use_every_op():
    used = {node.op for text in PROGRAMS.values() for node in parse(text).nodes if node.op}
    assert used == set(registry.OPS)


@pytest.mark.torch
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_the_script_of_every_preset_reproduces_every_value_and_gradient(preset):
    assert_script_matches_evaluate(preset.spec)


@pytest.mark.torch
@pytest.mark.parametrize("key", PROGRAMS)
def test_the_script_of_every_op_reproduces_every_value_and_gradient(key):
    assert_script_matches_evaluate(parse(PROGRAMS[key]))


@pytest.mark.torch
def test_the_script_differentiates_a_chosen_output():
    pytest.importorskip("torch")
    spec = get("classic").spec
    namespace, _ = run_script(to_pytorch(spec, output="c"))
    assert namespace["a"].grad.item() == 3.0
    assert namespace["b"].grad.item() == 2.0
    assert namespace["d"].grad is None


@pytest.mark.torch
def test_the_script_prints_each_gradient_by_node_name():
    pytest.importorskip("torch")
    _, printed = run_script(to_pytorch(get("classic").spec))
    assert printed.splitlines() == [
        "a.grad = tensor(4., dtype=torch.float64)",
        "b.grad = tensor(2., dtype=torch.float64)",
        "c.grad = tensor(1., dtype=torch.float64)",
        "d.grad = tensor(1., dtype=torch.float64)",
    ]


def test_the_classic_script_reads_like_the_graph():
    assert to_pytorch(get("classic").spec).endswith(
        "import torch\n"
        "\n"
        "a = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)\n"
        "b = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)\n"
        "c = a * b\n"
        "c.retain_grad()\n"
        "d = c + a\n"
        "d.retain_grad()\n"
        "\n"
        "d.backward()\n"
        "\n"
        'print("a.grad =", a.grad)\n'
        'print("b.grad =", b.grad)\n'
        'print("c.grad =", c.grad)\n'
        'print("d.grad =", d.grad)\n'
    )


def test_a_vector_output_is_seeded_with_ones_and_says_so():
    script = to_pytorch(get("vectors").spec)
    assert "d.backward(torch.ones_like(d))" in script
    assert "backward starts from ones" in script


def test_generators_are_drawn_with_numpys_seeded_generator():
    script = to_pytorch(get("mlp").spec)
    assert "import numpy as np" in script
    assert ("W1 = torch.tensor(np.random.default_rng(1).standard_normal((3, 5)), "
            "requires_grad=True)") in script
    assert "b1 = torch.zeros((5,), dtype=torch.float64, requires_grad=True)" in script
    assert "L = F.cross_entropy(logits, y.long())" in script


def test_constants_do_not_require_grad_and_imports_are_only_what_is_used():
    script = to_pytorch(get("two_paths").spec)
    assert "c_1 = torch.tensor(3.0, dtype=torch.float64)\n" in script
    assert "numpy" not in script and "functional" not in script
    assert "c_1.grad" not in script


def test_node_names_the_script_needs_are_renamed():
    names = variable_names(parse(NAMES_THE_SCRIPT_USES))
    assert names["torch"] == "torch__" and names["torch_"] == "torch_"
    assert names["np"] == "np_" and names["F"] == "F_"
    assert set(names.values()).isdisjoint(SCRIPT_NAMES)
    assert len(set(names.values())) == len(names)


def test_a_graph_without_inputs_has_nothing_to_differentiate():
    script = to_pytorch(parse("a = const(2.0)\nb = a * 3.0"))
    assert "backward" not in script
    assert "depends on no input" in script


def test_a_graph_that_does_not_evaluate_cannot_be_exported():
    with pytest.raises(SpecError, match="node `c`.*matmul"):
        to_pytorch(parse("a = [[1.0, 2.0]]\nb = [[1.0, 2.0]]\nc = a @ b"))
