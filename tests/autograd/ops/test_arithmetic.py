"""+ - * / ** and negation (autograd/ops/arithmetic.py): the family's table of cases against NumPy
(numpy_checks.NumpyChecks), then the behaviours worth a test of their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.numpy_checks import (
    GRID,
    NUMBER,
    ROW,
    NumpyChecks,
    Op,
    away_from_zero,
    binary_cases,
    positive,
    uniform,
)
from tests.autograd.vs_torch import close


def negation_cases():
    for shape in [(), (5,), (2, 3), (2, 1, 3)]:
        yield Op(f"neg-{shape}", lambda x: -x, np.negative, (uniform(*shape),))


BINARY = [
    ("add", lambda a, b: a + b, np.add, uniform, uniform),
    ("sub", lambda a, b: a - b, np.subtract, uniform, uniform),
    ("mul", lambda a, b: a * b, np.multiply, uniform, uniform),
    ("div", lambda a, b: a / b, np.divide, uniform, away_from_zero),
    ("pow", lambda a, b: a**b, np.power, positive, uniform),
]


def operand_cases():
    """Operators with a Python number or an ndarray on either side of a (2, 3) tensor."""
    for label, c in (("number", NUMBER), ("row", ROW), ("grid", GRID)):
        yield Op(f"x+{label}", lambda x, c=c: x + c, lambda a, c=c: a + c, (uniform(2, 3),))
        yield Op(f"{label}+x", lambda x, c=c: c + x, lambda a, c=c: c + a, (uniform(2, 3),))
        yield Op(f"x-{label}", lambda x, c=c: x - c, lambda a, c=c: a - c, (uniform(2, 3),))
        yield Op(f"{label}-x", lambda x, c=c: c - x, lambda a, c=c: c - a, (uniform(2, 3),))
        yield Op(f"x*{label}", lambda x, c=c: x * c, lambda a, c=c: a * c, (uniform(2, 3),))
        yield Op(f"{label}*x", lambda x, c=c: c * x, lambda a, c=c: c * a, (uniform(2, 3),))
        yield Op(f"x/{label}", lambda x, c=c: x / c, lambda a, c=c: a / c, (uniform(2, 3),))
        yield Op(f"{label}/x", lambda x, c=c: c / x, lambda a, c=c: c / a,
                   (away_from_zero(2, 3),))
        yield Op(f"x**{label}", lambda x, c=c: x**c, lambda a, c=c: a**c, (positive(2, 3),))
        yield Op(f"{label}**x", lambda x, c=c: c**x, lambda a, c=c: c**a, (uniform(2, 3),))
    for p in (2, 3, 2.5, -1.5, 0.5, 0, 1):
        values = uniform if isinstance(p, int) else positive
        yield Op(f"x**{p}", lambda x, p=p: x**p, lambda a, p=p: a**p, (values(2, 3),))
    yield Op("x**2-scalar", lambda x: x**2, np.square, (uniform(),))


class TestAgainstNumpy(NumpyChecks):
    CASES = [*negation_cases(), *binary_cases(BINARY), *operand_cases()]


@pytest.mark.parametrize(
    "op",
    [
        lambda c, x: c + x,
        lambda c, x: c - x,
        lambda c, x: c * x,
        lambda c, x: c / x,
        lambda c, x: c**x,
        lambda c, x: c @ x.T,
    ],
    ids=["add", "sub", "mul", "div", "pow", "matmul"],
)
def test_an_ndarray_on_the_left_gives_a_tensor_that_tracks_gradients(op):
    x = ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    out = op(GRID, x)
    assert isinstance(out, ag.Tensor)
    assert out.requires_grad and out.grad_fn is not None
    np.testing.assert_allclose(out.data, op(GRID, x.data))


def test_pow_with_a_number_exponent_differentiates_negative_bases():
    x = ag.tensor([-2.0, -0.5, 3.0], requires_grad=True)
    (x**3).sum().backward()
    np.testing.assert_allclose(x.grad.data, 3 * x.data**2)


def test_pow_with_a_tensor_exponent_differentiates_both_sides():
    base = ag.tensor([2.0, 3.0], requires_grad=True)
    exponent = ag.tensor([3.0, 0.5], requires_grad=True)
    (base**exponent).sum().backward()
    np.testing.assert_allclose(base.grad.data, [3 * 2.0**2, 0.5 * 3.0**-0.5])
    np.testing.assert_allclose(exponent.grad.data, [8 * np.log(2.0), np.sqrt(3.0) * np.log(3.0)])


@pytest.mark.parametrize(
    "op",
    [lambda a, b: a + b, lambda a, b: a * b, ag.maximum, lambda a, b: ag.where(a > 0, a, b)],
    ids=["add", "mul", "maximum", "where"],
)
def test_a_broadcasting_mismatch_names_both_shapes(op):
    with pytest.raises(ValueError) as info:
        op(ag.ones(2, 3, requires_grad=True), ag.ones(4, requires_grad=True))
    message = str(info.value)
    assert "(2, 3)" in message and "(4,)" in message
    assert "broadcast" in message


ZERO_DIM_OPS = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2"]


def _leaf(lib, array):
    return (ag.tensor(array.copy(), requires_grad=True) if lib is ag
            else torch.tensor(array.copy(), requires_grad=True))


@pytest.mark.torch
@pytest.mark.parametrize("zero_first", [False, True])
@pytest.mark.parametrize("op", ZERO_DIM_OPS)
def test_a_float64_zero_dim_operand_keeps_a_float32_tensor_float32_as_in_pytorch(op, zero_first,
                                                                                   rng):
    """NumPy would compute x32 * s64 in float64; PyTorch keeps the dimensioned operand's dtype
    and gives the 0-d operand its gradient in its own dtype."""
    x = rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
    s = np.array(1.25)
    results = {}
    for lib in (ag, torch):
        xt, st = _leaf(lib, x), _leaf(lib, s)
        out = getattr(lib, op)(*((st, xt) if zero_first else (xt, st)))
        out.sum().backward()
        results[lib] = out, xt.grad, st.grad
    (out, gx, gs), (tout, tgx, tgs) = results[ag], results[torch]
    assert str(out.dtype) == str(tout.dtype).removeprefix("torch.") == "float32"
    assert str(gx.dtype) == "float32" and str(gs.dtype) == "float64" == str(tgs.dtype)[6:]
    close(out, tout, rtol=1e-6, atol=1e-6)
    close(gx, tgx, rtol=1e-5, atol=1e-6)
    close(gs, tgs, rtol=1e-5, atol=1e-5)


@pytest.mark.torch
def test_where_and_comparisons_keep_the_dimensioned_operands_dtype_as_in_pytorch():
    x = np.array([0.1, 0.2, 0.3], np.float32)
    mask = np.array([True, False, True])
    ours = ag.where(mask, ag.tensor(x), ag.tensor(0.5))
    theirs = torch.where(torch.from_numpy(mask), torch.from_numpy(x), torch.tensor(0.5).double())
    assert str(ours.dtype) == "float32" and theirs.dtype == torch.float32
    # 0.1 as float32 is 0.10000000149 > 0.1: compared in float64 it would not be <= 0.1
    for compare in ("__le__", "__lt__", "__eq__", "__ge__", "__gt__", "__ne__"):
        got = getattr(ag.tensor(x), compare)(ag.tensor(0.1)).data
        want = getattr(torch.from_numpy(x), compare)(torch.tensor(0.1).double()).numpy()
        np.testing.assert_array_equal(got, want, err_msg=compare)


@pytest.mark.torch
def test_a_zero_dim_operand_of_a_higher_category_still_promotes(rng):
    """An integer tensor times a float 0-d tensor is floating point, in both engines."""
    ours = ag.tensor(np.array([1, 2], np.int32)) * ag.tensor(2.5)
    theirs = torch.tensor([1, 2], dtype=torch.int32) * torch.tensor(2.5).double()
    assert str(ours.dtype) == "float64" and theirs.dtype == torch.float64
    close(ours, theirs)
