"""The op table is complete: every Function the engine defines reaches the playground, the PyTorch
export, a gradient check and the PyTorch oracle. Adding an op without one of them fails here,
naming what is missing."""

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import autograd as ag
from playground import parse, registry
from tests.playground.op_cases import CASES, PROGRAMS

INTERNAL = {
    "Op": "the base class of the built-in ops, not an op itself",
    "Copy": "x.copy_(src) and fill_, recorded; the playground's expressions change nothing in "
            "place",
    "IndexPut": "x[key] = value, recorded; the playground's expressions change nothing in place",
    "IndexAdd": "the backward of indexing, recorded only under create_graph",
    "Cast": "x.to(dtype); the playground computes in float64 only",
    "CrossEntropy": "cross_entropy against class probabilities; the playground's cross_entropy "
                    "takes class indices (ClassCrossEntropy)",
    "Select": "the backward of a mask (relu, clip, hardtanh, ...), recorded only under "
              "create_graph",
    "MedianOfAll": "x.median() of every element; the playground has no median yet",
    **{name: "torch.amax/amin: max and min whose backward multiplies by the ties' shares (NaN "
             "beside the best under an infinite gradient); the playground's max and min select"
       for name in ("Amax", "Amin")},
    "NormalCdf": "Φ(x), gelu's backward recorded only under create_graph",
    **{name: "reads one triangle of a symmetric input and has PyTorch's symmetric gradient, "
             "which finite differences of the raw input do not show; autograd.linalg's "
             "cholesky and eigh, not in the playground"
       for name in ("Cholesky", "EighValues", "EighVectors")},
    **{name: "a factor of linalg.svd, whose signs are a convention; the playground offers the "
             "singular values (svdvals)" for name in ("SvdU", "SvdVh")},
    **{name: "a factor of linalg.qr (Q, R): the playground has no op of two results yet"
       for name in ("QrQ", "QrR")},
    "LSTMSequence": "nn.LSTM's fused layer; the playground draws an LSTM step gate by gate "
                    "(the lstm_cell preset)",
    "Polygamma": "ψ⁽ⁿ⁾(x), digamma's derivatives, recorded only under create_graph (and "
                 "ag.polygamma(n, x), which the playground does not offer)",
}
"""Function classes with no registry entry, and why."""


def engine_functions():
    """Every Function subclass that autograd defines (abstract bases start with _)."""
    found, todo = {}, [ag.Function]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("autograd.") and not sub.__name__.startswith("_"):
                found[sub.__name__] = sub
    return found


def recorded_functions(out):
    """The Function classes in the graph of ``out``."""
    names, seen, todo = set(), set(), [out]
    while todo:
        t = todo.pop()
        if id(t) in seen or t.grad_fn is None:
            continue
        seen.add(id(t))
        names.add(type(t.grad_fn).__name__)
        todo.extend(t.parents)
    return names


def registry_functions():
    """Function class name -> the registry ops whose test case records it."""
    reached = {}
    for name, (arrays, attrs, _, differentiable) in CASES.items():
        tensors = [ag.tensor(a, requires_grad=i in differentiable) for i, a in enumerate(arrays)]
        out = registry.OPS[name].apply(*tensors, **attrs)
        for fn in recorded_functions(out):
            reached.setdefault(fn, []).append(name)
    return reached


def test_every_engine_function_has_a_registry_entry():
    reached = registry_functions()
    missing = sorted(set(engine_functions()) - set(reached) - set(INTERNAL))
    assert not missing, (
        f"Function classes that no registry entry applies: {missing}. Add an entry to "
        "playground/registry/<family>.py (with a case in tests/playground/op_cases/), or list "
        "the class in INTERNAL with the reason it has none"
    )


def test_the_internal_list_names_only_real_functions():
    assert set(INTERNAL) <= set(engine_functions())


def test_every_registry_entry_has_a_gradient_check_and_a_torch_oracle_case():
    in_programs = {node.op for text in PROGRAMS.values() for node in parse(text).nodes if node.op}
    problems = [f"{name}: no case in tests/playground/op_cases (gradcheck)" for name in registry.OPS
                if name not in CASES]
    problems += [f"{name}: not used by an op_cases program (torch oracle)"
                 for name in registry.OPS if name not in in_programs]
    problems += [f"{name}: no PyTorch spelling" for name, info in registry.OPS.items()
                 if info.torch is None]
    assert not problems, "; ".join(problems)


def test_every_exposed_op_is_a_function_and_a_method_with_its_class_docstring():
    for name, fn in ag.ops.PUBLIC.items():
        assert getattr(ag, name) is fn
        cls = getattr(fn, "function_class", None)
        if cls is not None:
            assert fn.__doc__ == cls.__doc__
            assert list(inspect.signature(fn).parameters)[0] in ("a", "x")
    for name in ag.ops.METHODS:
        assert getattr(ag.Tensor, name) is ag.ops.PUBLIC[name]


def test_the_type_stubs_list_every_op_and_tensor_method_as_the_engine_makes_them():
    from autograd.ops import stubs

    # In a fresh interpreter: a test earlier in this process may have set an attribute on Tensor.
    fresh = subprocess.run(
        [sys.executable, "-c", "import json; from autograd.ops import stubs; "
         "print(json.dumps({str(p): t for p, t in stubs.current().items()}))"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    stale = [path for path, text in json.loads(fresh.stdout).items()
             if not Path(path).exists() or Path(path).read_text(encoding="utf-8") != text]
    assert not stale, f"{stale} out of date: write them with python -m autograd.ops.stubs"
    assert "    exp = _ops.exp\n" in stubs.tensor_stub()
    assert "\ndef exp(a):\n" in stubs.ops_stub() and "import Exp as Exp\n" in stubs.ops_stub()


def test_a_made_function_accepts_pytorch_keywords_and_rejects_unknown_ones():
    x = ag.tensor(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(ag.sum(x, dim=1, keepdim=True).data, [[3.0], [12.0]])
    np.testing.assert_array_equal(x.mean(1).data, [1.0, 4.0])
    for call, message in [
        (lambda: ag.sum(x, axs=1), "unexpected keyword argument 'axs'"),
        (lambda: ag.sum(x, 1, axis=1), "got 'axis' twice"),
        (lambda: ag.add(x), "missing its operand"),
        (lambda: ag.exp(x, 1, 2), "takes 1 positional"),
    ]:
        with pytest.raises(TypeError, match=re.escape(message)):
            call()
