"""The checks every op of a family's table of cases gets against PyTorch: values and gradients in
float64 and float32 with a random upstream gradient, second derivatives where PyTorch has them
(and none where it has none), forward mode and finite differences.

A family's test module (tests/autograd/ops/) lists its ``Case``s in a subclass of
``TorchChecks`` named ``Test…``; tests/autograd/conftest.py runs each check once per case."""

import functools
from dataclasses import dataclass, field

import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import check_gradients, check_second_order, torch


def normal_inputs(seed):
    """``r(*shape)``: standard normal arrays drawn in order from a generator of its own, so a
    family's cases get the same inputs whichever modules run beside it."""
    rng = np.random.default_rng(seed)
    return lambda *shape: rng.standard_normal(shape)


@dataclass
class Case:
    id: str
    ours: object
    theirs: object
    arrays: list
    linear: bool = False  # the gradient does not depend on the inputs: no second derivative
    tol32: float = 2e-5
    tol64: float = 1e-10
    skip: tuple = field(default_factory=tuple)


def torch_function(name):
    """PyTorch's function ``name`` (``"xlogy"``, ``"linalg.inv"``), looked up when a case runs,
    so a module of cases imports where PyTorch is missing."""
    return lambda *args: functools.reduce(getattr, name.split("."), torch)(*args)


def pieces(lib, parts):
    """The pieces scaled apart (by 1, 2, 3, …) and joined back, so each piece's gradient shows."""
    scaled = [p * (i + 1) for i, p in enumerate(parts)]
    return ag.concatenate([p.flatten() for p in scaled]) if lib is ag else torch.cat(
        [p.flatten() for p in scaled])


def ours_and_theirs(case, dtype):
    """Leaves of each library in ``dtype`` (float64 or float32) and each library's output."""
    arrays = [np.asarray(a, dtype=dtype) for a in case.arrays]
    leaves = [ag.tensor(a.copy(), requires_grad=True) for a in arrays]
    tleaves = [torch.tensor(a.copy(), requires_grad=True) for a in arrays]
    return leaves, case.ours(*leaves), tleaves, case.theirs(*tleaves)


def assert_close(ours, theirs, rtol, atol, what):
    theirs = theirs.detach().numpy() if isinstance(theirs, torch.Tensor) else theirs
    ours = ours.data if isinstance(ours, ag.Tensor) else ours
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{what}: dtype {ours.dtype} vs {theirs.dtype}"
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, err_msg=what)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
class TorchChecks:
    CASES: list[Case] = []

    @classmethod
    def cases_for(cls, test):
        """The cases ``test`` (a method's name) runs on."""
        skip = {"test_gradients_match_finite_differences": "fd",
                "test_second_derivatives_match_finite_differences": "second",
                "test_second_derivatives_match_torch_or_are_absent_as_in_torch": "torch second"}
        cases = [c for c in cls.CASES if skip.get(test) not in c.skip]
        if test == "test_second_derivatives_match_finite_differences":
            cases = [c for c in cases if not c.linear]
        return cases

    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    def test_values_and_gradients_match_torch(self, case, dtype):
        leaves, out, tleaves, tout = ours_and_theirs(case, dtype)
        tol = case.tol64 if dtype == np.float64 else case.tol32
        assert_close(out, tout, tol, tol, "value")
        upstream = np.asarray(np.random.default_rng(4).standard_normal(out.shape), dtype=dtype)
        out.backward(upstream)
        tout.backward(torch.tensor(upstream))
        for i, (leaf, tleaf) in enumerate(zip(leaves, tleaves)):
            if tleaf.grad is None:  # PyTorch gives no gradient (norm with p=0): neither do we
                assert leaf.grad is None, f"input {i} has a gradient where PyTorch has none"
            else:
                assert_close(leaf.grad, tleaf.grad, tol, tol, f"gradient of input {i}")

    def test_gradients_match_finite_differences(self, case):
        check_gradients(case.ours, *case.arrays, rng=np.random.default_rng(0))

    def test_second_derivatives_match_finite_differences(self, case):
        check_second_order(case.ours, *case.arrays, rng=np.random.default_rng(1))

    def test_second_derivatives_match_torch_or_are_absent_as_in_torch(self, case):
        leaves, out, tleaves, tout = ours_and_theirs(case, np.float64)
        rng = np.random.default_rng(2)
        upstream = rng.standard_normal(out.shape)
        grads = ag.grad(out, leaves, ag.tensor(upstream), create_graph=True, allow_unused=True)
        tgrads = torch.autograd.grad(tout, tleaves, torch.tensor(upstream), create_graph=True,
                                     allow_unused=True)
        for g, tg in zip(grads, tgrads):
            assert (g is not None and g.requires_grad) == (tg is not None and tg.requires_grad)
        pairs = [(g, tg, leaf.shape) for g, tg, leaf in zip(grads, tgrads, leaves)
                 if tg is not None and tg.requires_grad]
        if not pairs:
            return
        directions = [rng.standard_normal(shape) for _, _, shape in pairs]
        s = sum((g * ag.tensor(v)).sum() for (g, _, _), v in zip(pairs, directions))
        ts = sum((tg * torch.tensor(v)).sum() for (_, tg, _), v in zip(pairs, directions))
        second = ag.grad(s, leaves, allow_unused=True)
        tsecond = torch.autograd.grad(ts, tleaves, allow_unused=True)
        for i, (h, th) in enumerate(zip(second, tsecond)):
            expected = np.zeros(leaves[i].shape) if th is None else th.detach().numpy(force=True)
            got = np.zeros(leaves[i].shape) if h is None else h.data
            np.testing.assert_allclose(got, expected, rtol=max(1e-9, case.tol64),
                                       atol=max(1e-9, case.tol64),
                                       err_msg=f"second derivative, input {i}")

    def test_forward_mode_matches_torch(self, case):
        arrays = [np.asarray(a, dtype=np.float64) for a in case.arrays]
        rng = np.random.default_rng(3)
        tangents = [rng.standard_normal(a.shape) for a in arrays]
        _, pushed = ag.func.jvp(case.ours, [ag.tensor(a) for a in arrays],
                                [ag.tensor(t) for t in tangents])
        _, tpushed = torch.func.jvp(case.theirs, tuple(torch.tensor(a) for a in arrays),
                                    tuple(torch.tensor(t) for t in tangents))
        assert_close(pushed, tpushed, case.tol64, case.tol64, "tangent")
