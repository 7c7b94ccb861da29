"""The op registry: complete entries, canonical attributes, and ops that agree with NumPy and
with finite differences when applied with the engine."""

import inspect

import numpy as np
import pytest

import autograd as ag
from playground.errors import SpecError
from playground.expr import parse
from playground.registry import OPERATORS, OPS, canonical_attrs, get
from tests.autograd.helpers import check_second_order
from tests.playground.op_cases import CASES
from tests.playground.op_cases.core import X


def test_every_op_has_a_test_case():
    assert set(CASES) == set(OPS)


@pytest.mark.parametrize("name", list(OPS))
def test_every_entry_describes_itself(name):
    info = OPS[name]
    assert info.name == name
    assert info.description[0].isupper() and info.description.endswith(".")
    assert len(info.description) < 100
    assert "\\" in info.derivative or "=" in info.derivative
    assert info.sentence[0].isalpha() and info.sentence.endswith(".")
    assert 20 < len(info.sentence) < 160
    assert info.arity in (1, 2, 3, None)


@pytest.mark.parametrize("name", list(OPS))
def test_every_example_is_valid_in_the_expression_language(name):
    example = OPS[name].example
    spec = parse(
        f"a = 1.0\nb = 2.0\nc = 1.0\nx = 3.0\ny = 4.0\nW = 2.0\np = 0.5\npred = 1.0\nlogits = 1.0\n"
        f"target = 1.0\n"
        f"y_out = {example}"
    )
    assert spec["y_out"].op == name


@pytest.mark.parametrize("name", list(OPS))
def test_apply_defaults_match_the_registered_defaults(name):
    info = OPS[name]
    parameters = inspect.signature(info.apply).parameters
    for attr in info.attrs:
        assert attr.name in parameters
        default = parameters[attr.name].default
        expected = inspect.Parameter.empty if attr.required else attr.default
        assert default == expected, f"{name}.{attr.name}"


@pytest.mark.parametrize("name", list(OPS))
def test_applying_an_op_with_the_engine_matches_numpy(name):
    arrays, attrs, reference, _ = CASES[name]
    out = OPS[name].apply(*[ag.tensor(a) for a in arrays], **attrs)
    np.testing.assert_allclose(out.numpy(), reference(*arrays), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(OPS))
def test_gradients_of_every_op_match_finite_differences(name):
    arrays, attrs, _, differentiable = CASES[name]
    tensors = [ag.tensor(a, requires_grad=i in differentiable) for i, a in enumerate(arrays)]
    assert ag.gradcheck(lambda *ts: OPS[name].apply(*ts, **attrs), tensors)


def test_cross_entropy_refuses_fractional_class_indices():
    with pytest.raises(ValueError, match="whole-number class indices"):
        OPS["cross_entropy"].apply(ag.tensor(X), ag.tensor([0.5, 1.0]))


def test_cross_entropy_describes_its_target_as_class_indices_not_probabilities():
    info = OPS["cross_entropy"]
    assert "class indices" in info.description
    assert "probabilit" not in info.description.lower()
    assert r"\mathbb{1}[j = t_i]" in info.derivative  # one-hot of an index, not a soft target


def test_clip_without_min_or_max_is_refused_when_the_node_is_made():
    with pytest.raises(SpecError, match=r"clip needs at least one of `min` and `max`, for "
                       r"example clip\(x, min=0.0, max=1.0\)"):
        canonical_attrs(OPS["clip"], {})
    with pytest.raises(SpecError, match="clip needs at least one of"):
        canonical_attrs(OPS["clip"], {"min": None, "max": None})
    with pytest.raises(SpecError) as info:
        parse("x = 1.0\ny = clip(x)")
    assert (info.value.line, info.value.col) == (2, 5)
    assert canonical_attrs(OPS["clip"], {"max": 1}) == {"max": 1.0}


_NO_REQUIRED = [n for n, info in OPS.items() if not any(a.required for a in info.attrs)]


@pytest.mark.parametrize("name", _NO_REQUIRED)
def test_the_attributes_a_form_offers_first_make_a_valid_node(name):
    info = OPS[name]
    offered = {a.name: a.default if a.suggested is None else a.suggested for a in info.attrs}
    canonical_attrs(info, offered)  # a SpecError here: a form that cannot add the op as offered


def test_a_form_offers_clip_the_unit_interval():
    offered = {a.name: a.suggested for a in OPS["clip"].attrs}
    assert canonical_attrs(OPS["clip"], offered) == {"min": 0.0, "max": 1.0}


def test_operators_map_symbol_and_arity_to_ops():
    assert OPERATORS[("-", 1)] == "neg"
    assert OPERATORS[("-", 2)] == "sub"
    assert OPERATORS[("@", 2)] == "matmul"
    assert OPERATORS[("**", 2)] == "pow"
    assert len(OPERATORS) == 7


def test_canonical_attrs_drop_defaults_and_normalise_types():
    assert canonical_attrs(OPS["sum"], {"axis": [0, 1], "keepdims": False}) == {"axis": (0, 1)}
    assert canonical_attrs(OPS["softmax"], {"axis": -1}) == {}
    assert canonical_attrs(OPS["softmax"], {"axis": 0}) == {"axis": 0}
    assert canonical_attrs(OPS["clip"], {"min": 0}) == {"min": 0.0}
    assert canonical_attrs(OPS["index"], {"index": 3}) == {"index": (3,)}
    assert canonical_attrs(OPS["reshape"], {"shape": 6}) == {"shape": (6,)}


def test_canonical_attrs_refuse_a_non_mapping():
    with pytest.raises(SpecError, match="attributes of sum must be a mapping"):
        canonical_attrs(OPS["sum"], [("axis", 0)])


def test_get_suggests_close_names():
    assert get("tanh") is OPS["tanh"]
    with pytest.raises(SpecError, match="unknown op `softmx`; did you mean `softmax`"):
        get("softmx")
    with pytest.raises(SpecError, match="the ops are: add, sub"):
        get("qqqqqq")


PIECEWISE_LINEAR = {
    "add", "sub", "neg", "sign", "reshape", "transpose", "flatten", "squeeze", "unsqueeze",
    "broadcast_to", "index", "stack", "concatenate", "sum", "mean", "max", "min", "maximum",
    "minimum", "clip", "where", "floor", "ceil", "trunc", "round", "clone",
    "cumsum", "flip", "roll", "repeat", "tile", "tril", "triu", "split", "chunk", "unbind",
    "gather", "scatter_add", "masked_fill", "nll_loss", "nansum", "nanmean", "quantile", "diff",
    "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "pad", "unfold", "fold",
    "index_select", "take_along_dim", "narrow", "movedim", "moveaxis", "repeat_interleave",
    "unflatten", "hstack", "vstack", "dstack", "column_stack", "diag", "diagonal", "diag_embed",
    "softshrink", "hardshrink", "threshold", "margin_ranking_loss", "hinge_embedding_loss",
    "max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool2d", "interpolate",
    "pixel_shuffle", "pixel_unshuffle",
}
"""Ops whose first derivative does not depend on their inputs: their gradient is not connected to
the inputs, so a second derivative is an error, as in PyTorch."""


def _over_differentiable(name):
    """The op as a function of its differentiable operands only, the others held fixed."""
    arrays, attrs, _, differentiable = CASES[name]

    def f(*variables):
        given = iter(variables)
        operands = [next(given) if i in differentiable else ag.tensor(a)
                    for i, a in enumerate(arrays)]
        return OPS[name].apply(*operands, **attrs)

    return f, [arrays[i] for i in differentiable]


@pytest.mark.parametrize("name", list(OPS))
def test_second_derivatives_of_every_op_match_finite_differences(name):
    f, arrays = _over_differentiable(name)
    if name in PIECEWISE_LINEAR:
        leaves = [ag.tensor(a, requires_grad=True) for a in arrays]
        out = f(*leaves)
        grads = ag.grad(out, leaves, grad_outputs=ag.ones_like(out), create_graph=True)
        assert not any(g.requires_grad for g in grads)
    else:
        check_second_order(f, *arrays, rng=np.random.default_rng(0))


@pytest.mark.parametrize("name", list(OPS))
def test_forward_mode_of_every_op_matches_finite_differences_and_reverse_mode(name):
    """The tangent J t from forward mode equals central differences along t, and agrees with
    reverse mode: <u, J t> = <J^T u, t> for random t and u."""
    f, arrays = _over_differentiable(name)
    rng = np.random.default_rng(1)
    tangents = [rng.standard_normal(np.shape(a)) for a in arrays]
    value, pushed = ag.func.jvp(f, [ag.tensor(a) for a in arrays],
                                [ag.tensor(t) for t in tangents])
    eps = 1e-6
    plus = f(*[ag.tensor(a + eps * t) for a, t in zip(arrays, tangents)]).data
    minus = f(*[ag.tensor(a - eps * t) for a, t in zip(arrays, tangents)]).data
    np.testing.assert_allclose(pushed.data, (plus - minus) / (2 * eps), rtol=1e-5, atol=1e-7)
    u = rng.standard_normal(value.shape)
    _, vjp_fn = ag.func.vjp(f, *[ag.tensor(a) for a in arrays])
    pulled = vjp_fn(ag.tensor(u))
    np.testing.assert_allclose(np.sum(u * pushed.data),
                               sum(np.sum(g.data * t) for g, t in zip(pulled, tangents)),
                               rtol=1e-10, atol=1e-10)


def test_every_op_has_a_family_and_the_list_by_family_holds_each_once():
    from playground.registry import BY_FAMILY, FAMILY, OPS

    assert set(FAMILY) == set(OPS) and sorted(BY_FAMILY) == sorted(OPS)
    assert BY_FAMILY[0] == "add"  # the form's default stays first
    families = [FAMILY[name] for name in BY_FAMILY]
    assert all(families[i] == families[i + 1] or families[i + 1] not in families[:i + 1]
               for i in range(len(families) - 1))  # each family in one run
    assert {FAMILY[n] for n in ("tanh", "sigmoid", "relu", "gelu")} == {"activation"}
