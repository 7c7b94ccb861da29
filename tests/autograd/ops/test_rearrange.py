"""index_select masked_select take_along_dim narrow movedim moveaxis repeat_interleave unflatten,
hstack vstack dstack column_stack, diag diagonal diag_embed, tensordot kron cross cdist meshgrid,
scatter index_add and Tensor.unfold
against torch in float64: values and every operand's gradient under a random upstream gradient;
gradcheck through a few; PyTorch's errors."""

import numpy as np
import pytest

import autograd as ag

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)


def normal(*shape):
    return RNG.standard_normal(shape)


X = normal(3, 4, 5)
V1, V2 = normal(3), normal(3)
INDEX = np.array([2, 0, 2])
MASK = normal(4, 5) > 0
PICKS = RNG.integers(0, 4, (3, 2, 5))


def agree(ours_fn, theirs_fn, arrays):
    ours = [ag.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    mine, reference = ours_fn(*ours), theirs_fn(*theirs)
    if isinstance(reference, (tuple, list)):  # several outputs: weigh each differently
        for m, r in zip(mine, reference):
            np.testing.assert_allclose(m.data, r.detach().numpy(), rtol=1e-10)
        mine = sum((m * (i + 1)).sum() for i, m in enumerate(mine))
        reference = sum((r * (i + 1)).sum() for i, r in enumerate(reference))
    np.testing.assert_allclose(mine.data, reference.detach().numpy(), rtol=1e-10, atol=1e-12)
    upstream = RNG.standard_normal(tuple(reference.shape))
    (mine * ag.tensor(upstream)).sum().backward()
    (reference * torch.tensor(upstream)).sum().backward()
    for i, (o, t) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(o.grad.data, t.grad.numpy(), rtol=1e-10, atol=1e-12,
                                   err_msg=f"gradient of operand {i}")


CASES = {
    "index_select": (lambda a: ag.index_select(a, 1, INDEX),
                     lambda a: torch.index_select(a, 1, torch.tensor(INDEX)), [X]),
    "index_select method": (lambda a: a.index_select(-1, INDEX),
                            lambda a: a.index_select(-1, torch.tensor(INDEX)), [X]),
    "masked_select": (lambda a: ag.masked_select(a, MASK),
                      lambda a: torch.masked_select(a, torch.tensor(MASK)), [X]),
    "take_along_dim": (lambda a: ag.take_along_dim(a, PICKS, 1),
                       lambda a: torch.take_along_dim(a, torch.tensor(PICKS), 1), [X]),
    "take_along_dim broadcast": (lambda a: ag.take_along_dim(a, PICKS[:1, :, :1], 1),
                                 lambda a: torch.take_along_dim(
                                     a, torch.tensor(PICKS[:1, :, :1]), 1), [X]),
    "take_along_dim flat": (lambda a: ag.take_along_dim(a, np.array([0, 5, 59])),
                            lambda a: torch.take_along_dim(a, torch.tensor([0, 5, 59])), [X]),
    "narrow": (lambda a: a.narrow(2, -3, 2), lambda a: a.narrow(2, -3, 2), [X]),
    "movedim": (lambda a: ag.movedim(a, (0, 1), (2, 0)),
                lambda a: torch.movedim(a, (0, 1), (2, 0)), [X]),
    "moveaxis": (lambda a: a.moveaxis(0, -1), lambda a: a.moveaxis(0, -1), [X]),
    "repeat_interleave": (lambda a: a.repeat_interleave(2, dim=1),
                          lambda a: a.repeat_interleave(2, dim=1), [X]),
    "repeat_interleave counts": (lambda a: a.repeat_interleave(np.array([1, 0, 3]), dim=0),
                                 lambda a: a.repeat_interleave(torch.tensor([1, 0, 3]), dim=0),
                                 [X]),
    "repeat_interleave flat": (lambda a: ag.repeat_interleave(a, 2),
                               lambda a: torch.repeat_interleave(a, 2), [X]),
    "unflatten": (lambda a: a.unflatten(1, (2, -1)), lambda a: a.unflatten(1, (2, -1)), [X]),
    "hstack 2-D": (lambda a, b: ag.hstack([a, b]), lambda a, b: torch.hstack([a, b]),
                   [normal(2, 3), normal(2, 4)]),
    "vstack 2-D": (lambda a, b: ag.vstack([a, b]), lambda a, b: torch.vstack([a, b]),
                   [normal(2, 3), normal(1, 3)]),
    "dstack 2-D": (lambda a, b: ag.dstack([a, b]), lambda a, b: torch.dstack([a, b]),
                   [normal(2, 3), normal(2, 3)]),
    "column_stack": (lambda a, b: ag.column_stack([a, b]),
                     lambda a, b: torch.column_stack([a, b]), [normal(2), normal(2, 4)]),
    "tensordot": (lambda a, b: ag.tensordot(a, b), lambda a, b: torch.tensordot(a, b),
                  [normal(2, 3, 4), normal(3, 4, 5)]),
    "tensordot axes": (lambda a, b: ag.tensordot(a, b, ([1], [0])),
                       lambda a, b: torch.tensordot(a, b, ([1], [0])),
                       [normal(2, 3, 4), normal(3, 4, 5)]),
    "tensordot 0": (lambda a, b: ag.tensordot(a, b, 0), lambda a, b: torch.tensordot(a, b, 0),
                    [V1, V2]),
    "kron": (lambda a, b: ag.kron(a, b), lambda a, b: torch.kron(a, b),
             [normal(2, 3), normal(4, 2)]),
    "kron of ranks 1 and 2": (lambda a, b: a.kron(b), lambda a, b: a.kron(b),
                              [normal(2), normal(3, 2)]),
    "cross": (lambda a, b: ag.cross(a, b, dim=1), lambda a, b: torch.cross(a, b, dim=1),
              [normal(4, 3), normal(1, 3)]),
    "cross, first axis of 3": (lambda a, b: a.cross(b),
                               lambda a, b: torch.linalg.cross(a, b, dim=0),
                               [normal(3, 4), normal(3, 4)]),
    "cdist": (lambda a, b: ag.cdist(a, b), lambda a, b: torch.cdist(a, b),
              [normal(2, 4, 3), normal(2, 5, 3)]),
    "cdist p=1": (lambda a, b: ag.cdist(a, b, p=1.0), lambda a, b: torch.cdist(a, b, p=1.0),
                  [normal(4, 3), normal(5, 3)]),
    "meshgrid ij": (lambda a, b: ag.meshgrid(a, b, indexing="ij"),
                    lambda a, b: torch.meshgrid(a, b, indexing="ij"), [V1, normal(4)]),
    "meshgrid xy": (lambda a, b, c: ag.meshgrid(a, b, c, indexing="xy"),
                    lambda a, b, c: torch.meshgrid(a, b, c, indexing="xy"),
                    [V1, normal(4), normal(2)]),
}
SCATTER_AT = np.array([[0, 1, 2, 0], [1, 2, 0, 1]])
CASES.update({
    "scatter": (lambda x, s: ag.scatter(x, 0, SCATTER_AT, s),
                lambda x, s: torch.scatter(x, 0, torch.tensor(SCATTER_AT), s),
                [normal(3, 4), normal(2, 4)]),
    "index_add": (lambda x, s: x.index_add(0, np.array([2, 0, 2]), s, alpha=2.0),
                  lambda x, s: x.index_add(0, torch.tensor([2, 0, 2]), s, alpha=2.0),
                  [normal(3, 4), normal(3, 4)]),
})
for _args in [(1, 3, 2), (1, 2, 1), (0, 3, 1), (-1, 1, 1), (1, 4, 3)]:
    CASES[f"Tensor.unfold{_args}"] = (lambda x, a=_args: x.unfold(*a),
                                      lambda x, a=_args: x.unfold(*a), [X])
for _name in ("hstack", "vstack", "dstack", "column_stack"):
    CASES[f"{_name} 1-D"] = (lambda a, b, n=_name: getattr(ag, n)([a, b]),
                             lambda a, b, n=_name: getattr(torch, n)([a, b]), [V1, V2])
for _k in (0, 1, -2):
    CASES[f"diag of a vector, {_k}"] = (lambda a, k=_k: ag.diag(a, k),
                                        lambda a, k=_k: torch.diag(a, k), [V1])
    CASES[f"diag of a matrix, {_k}"] = (lambda a, k=_k: a.diag(k), lambda a, k=_k: a.diag(k),
                                        [normal(3, 5)])
    CASES[f"diagonal, {_k}"] = (lambda a, k=_k: a.diagonal(k, 2, 0),
                                lambda a, k=_k: a.diagonal(k, 2, 0), [X])
    CASES[f"diag_embed, {_k}"] = (lambda a, k=_k: a.diag_embed(k, 0, 2),
                                  lambda a, k=_k: a.diag_embed(k, 0, 2), [normal(2, 3)])


@pytest.mark.parametrize("case", list(CASES))
def test_matches_torch(case):
    agree(*CASES[case])


def test_gradcheck_through_take_along_dim_kron_cross_and_cdist():
    a, b = ag.randn(3, 3, requires_grad=True), ag.randn(2, 3, requires_grad=True)
    picks = np.array([[0, 2, 1], [2, 2, 0]])
    assert ag.gradcheck(lambda a: ag.take_along_dim(a, picks, 0), (a,))
    assert ag.gradcheck(lambda a, b: ag.kron(a, b), (a, b))
    assert ag.gradcheck(lambda a, b: ag.cross(a, b, dim=1), (a[:2], b))
    assert ag.gradcheck(lambda a, b: ag.cdist(a, b), (a, b))


@pytest.mark.filterwarnings("ignore:The reduce argument of torch.scatter:UserWarning")
def test_scatter_with_reduce_add_matches_torchs_values_and_passes_gradcheck():
    """PyTorch has no derivative for scatter with reduce; ours is checked by finite
    differences."""
    x, src, at = normal(2, 4), normal(2, 3), SCATTER_AT[:, :3]
    ours = ag.scatter(ag.tensor(x), 1, at, ag.tensor(src), reduce="add")
    theirs = torch.scatter(torch.tensor(x), 1, torch.tensor(at), torch.tensor(src), reduce="add")
    np.testing.assert_allclose(ours.data, theirs.numpy(), rtol=1e-12)
    assert ag.gradcheck(lambda a, b: ag.scatter(a, 1, at, b, reduce="add"),
                        (ag.tensor(x, requires_grad=True), ag.tensor(src, requires_grad=True)))


def test_errors_say_what_is_wrong():
    x = ag.randn(3, 4)
    with pytest.raises(IndexError, match="0-D or 1-D"):
        x.index_select(0, np.array([[0, 1]]))
    with pytest.raises(TypeError, match="must be a bool tensor"):
        ag.masked_select(x, np.ones((3, 4)))
    with pytest.raises(IndexError, match=r"start \(3\) \+ length \(2\) exceeds"):
        x.narrow(0, 3, 2)
    with pytest.raises(RuntimeError, match="contracted dimensions need to match"):
        ag.tensordot(x, ag.randn(3, 4), 1)
    with pytest.raises(RuntimeError, match="must have length 3"):
        ag.cross(x, x, dim=1)
    with pytest.raises(RuntimeError, match="same number of columns"):
        ag.cdist(x, ag.randn(2, 5))


@pytest.mark.parametrize("dim", [1, -2, 2])
def test_cross_refuses_a_dim_out_of_range_as_torch(dim):
    a, b = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.linalg.cross(torch.tensor(a), torch.tensor(b), dim=dim)
    with pytest.raises(IndexError, match=f"cross: dim {dim} is out of range"):
        ag.cross(ag.tensor(a), ag.tensor(b), dim=dim)


@pytest.mark.parametrize("name", ["cross", "cdist"])
def test_cross_and_cdist_refuse_float32_with_float64_as_torch(name):
    a, b = np.ones((3, 3), np.float32), np.ones((3, 3))
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        getattr(torch, name)(torch.tensor(a), torch.tensor(b))
    with pytest.raises(TypeError, match=f"{name}: expected .* the same dtype"):
        getattr(ag, name)(ag.tensor(a, dtype=np.float32), ag.tensor(b))  # float64 before


@pytest.mark.parametrize("call", [
    lambda m: m.cdist(m.zeros(3), m.zeros(2, 3)),
    lambda m: m.cdist(m.zeros(2, 3), m.zeros(3)),
    lambda m: m.movedim(m.zeros(2, 3), (0, 1), (0, 0)),
    lambda m: m.movedim(m.zeros(2, 3), (0, 1), (1, -1)),
    lambda m: m.diag_embed(m.zeros(3), 0, 1, -1),
], ids=["cdist of a 1-D x1", "cdist of a 1-D x2", "movedim to one place twice",
        "movedim to 1 and -1 of two axes", "diag_embed on one axis twice"])
def test_refuses_what_torch_refuses(call):
    with pytest.raises(RuntimeError):
        call(torch)
    with pytest.raises((RuntimeError, ValueError)):
        call(ag)
