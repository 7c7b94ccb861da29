"""The presets: each reproduces its tutorial's numbers, and every stable one passes the check.

Expected numbers are written out from the tutorials (numpygrad, the micrograd-style notebook,
babygrad, MiniTorchBR, micrograd, PyGrad) or derived by hand; the MLP's come from a NumPy
forward and backward written here, never from the engine under test.
"""

import dataclasses
import math

import numpy as np
import pytest

from playground import edits, evaluate, gradient_check, parse
from playground.errors import SpecError
from playground.presets import DEFAULT_KEY, PRESETS, Preset, get
from playground.share import encode

UNSTABLE = "softmax_naive"


def grads(result, *names):
    return [result.grad(name).tolist() for name in names]


def test_the_default_is_the_classic_graph_and_comes_first():
    assert DEFAULT_KEY == "classic"
    assert PRESETS[0].key == DEFAULT_KEY
    assert get(DEFAULT_KEY) is PRESETS[0]


def test_classic_matches_numpygrad_a_grad_4_and_b_grad_2():
    result = evaluate(get("classic").spec)
    assert result.output == "d"
    assert result.value("c") == 6.0 and result.value("d") == 8.0
    assert grads(result, "a", "b", "c", "d") == [4.0, 2.0, 1.0, 1.0]


def test_two_paths_matches_the_notebook_d_9_and_a_grad_3():
    result = evaluate(get("two_paths").spec)
    assert [result.value(n).item() for n in ("a", "b", "c", "d")] == [2.0, 5.0, 4.0, 9.0]
    assert grads(result, "a", "b", "c", "d") == [3.0, 1.0, 1.0, 1.0]
    constants = [n for n in result.nodes if n.kind == "const"]
    assert [n.value.item() for n in constants] == [3.0, 2.0]
    assert all(n.grad is None for n in constants)


def test_vectors_match_babygrad_a_grad_12_10_and_b_grad_6_6():
    result = evaluate(get("vectors").spec)
    assert result.seeded_with_ones
    assert result.value("c").tolist() == [8.0, 15.0]
    assert result.value("d").tolist() == [24.0, 30.0]
    assert grads(result, "a", "b", "c", "w") == [[12.0, 10.0], [6.0, 6.0], [3.0, 2.0],
                                                [8.0, 15.0]]


def test_sum_of_product_matches_minitorchbr_x_grad_is_y_and_y_grad_is_x():
    result = evaluate(get("sum_of_product").spec)
    assert result.value("loss") == 23.0
    assert grads(result, "x", "y") == [[4.0, 5.0], [2.0, 3.0]]


def test_neuron_matches_micrograd_o_0_7071_and_its_gradients():
    result = evaluate(get("neuron").spec)
    assert result.value("n") == pytest.approx(0.8813735870195432, abs=1e-15)
    assert result.value("o") == pytest.approx(0.7071067811865476, abs=1e-15)
    expected = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5, "n": 0.5, "o": 1.0}
    for name, grad in expected.items():
        assert result.grad(name) == pytest.approx(grad, abs=1e-12), name


def test_the_transposed_convolution_gives_the_image_its_shape_back():
    result = evaluate(get("transposed_conv").spec)
    assert result.value("down").shape == (1, 2, 2, 2)
    assert result.value("up").shape == result.value("img").shape == (1, 1, 4, 4)
    error = result.value("up") - result.value("img")
    u_grad = np.zeros((2, 1, 3, 3))  # each tap: the error where it lands, times its pixel
    for ch, i, j, a, b in np.ndindex(2, 2, 2, 3, 3):
        row, col = 2 * i + a - 1, 2 * j + b - 1
        if 0 <= row < 4 and 0 <= col < 4:
            pixel = result.value("down")[0, ch, i, j]
            u_grad[ch, 0, a, b] += 2 / 16 * error[0, 0, row, col] * pixel
    np.testing.assert_allclose(result.grad("U"), u_grad, rtol=1e-12)


def test_group_norms_gradient_sums_to_zero_within_each_group():
    result = evaluate(get("group_norm").spec)
    grad = result.grad("x")
    np.testing.assert_allclose(grad.reshape(2, 4).sum(axis=1), [0.0, 0.0], atol=1e-12)
    assert np.abs(grad).max() > 0.1
    h = result.value("h").reshape(2, 4)
    np.testing.assert_allclose(h.mean(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(h.var(axis=1), 1.0, rtol=1e-4)  # eps = 1e-5 in the variance


def lstm_first_input_gradient(forget_bias):
    """∂h3/∂x1 of the lstm_cell preset with bf = forget_bias, by hand: o · tanh'(c3) · f² ·
    i · tanh'(x1)."""
    sig = lambda v: 1 / (1 + math.exp(-v))  # noqa: E731
    f, i, o = sig(forget_bias), sig(0.0), sig(1.0)
    c1 = i * math.tanh(1.0)
    c3 = f * (f * c1 + i * math.tanh(0.5)) + i * math.tanh(-0.5)
    return o * (1 - math.tanh(c3) ** 2) * f * f * i * (1 - math.tanh(1.0) ** 2)


def test_the_lstm_cell_carries_the_first_inputs_gradient_through_the_forget_gate():
    result = evaluate(get("lstm_cell").spec)
    assert result.output == "h3" and len(result.nodes) == 21
    assert result.grad("x1") == pytest.approx(lstm_first_input_gradient(4.0), rel=1e-12)
    assert result.grad("x1") == pytest.approx(0.130, abs=5e-4)
    assert result.grad("c1") == pytest.approx(0.620, abs=5e-4)
    assert result.grad("c3") == pytest.approx(0.643, abs=5e-4)
    assert result.grad("c1") == pytest.approx(result.grad("c3") * result.value("f") ** 2,
                                              rel=1e-12)
    shut = edits.set_value(get("lstm_cell").spec, "bf", -4.0)
    assert evaluate(shut).grad("x1") == pytest.approx(lstm_first_input_gradient(-4.0),
                                                      rel=1e-12)
    assert lstm_first_input_gradient(-4.0) < 1e-4


def test_logistic_regression_starts_at_ln_2_with_gradient_xt_p_minus_y_over_n():
    result = evaluate(get("logistic").spec)
    assert result.value("p").tolist() == [0.5, 0.5, 0.5, 0.5]
    assert result.value("L") == pytest.approx(math.log(2), abs=1e-15)
    # (p - y) = [-0.5, -0.5, -0.5, 0.5]; X^T (p - y) / 4 and sum(p - y) / 4:
    assert result.grad("w").tolist() == pytest.approx([-0.625, -0.625], abs=1e-15)
    assert result.grad("b") == pytest.approx(-0.25, abs=1e-15)
    assert result.grad("X") is None and result.grad("y") is None


def numpy_mlp():
    """The MLP preset's loss and gradients, forward and backward written out in NumPy."""
    X = np.random.default_rng(0).standard_normal((4, 3))
    W1 = np.random.default_rng(1).standard_normal((3, 5))
    W2 = np.random.default_rng(2).standard_normal((5, 3))
    labels = np.array([0, 2, 1, 2])
    h = np.tanh(X @ W1)
    logits = h @ W2
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = exp / exp.sum(axis=1, keepdims=True)
    loss = -np.log(probs[np.arange(4), labels]).mean()
    d_logits = (probs - np.eye(3)[labels]) / 4
    d_h = d_logits @ W2.T
    d_pre = d_h * (1 - h**2)
    return loss, {"logits": d_logits, "W2": h.T @ d_logits, "b2": d_logits.sum(axis=0),
                  "h": d_h, "W1": X.T @ d_pre, "b1": d_pre.sum(axis=0)}


def test_mlp_matches_a_numpy_forward_and_backward():
    result = evaluate(get("mlp").spec)
    loss, expected = numpy_mlp()
    assert result.value("L") == pytest.approx(loss, abs=1e-12)
    assert result.value("logits").shape == (4, 3)
    for name, grad in expected.items():
        np.testing.assert_allclose(result.grad(name), grad, rtol=1e-10, atol=1e-12,
                                   err_msg=name)


def test_mlp_targets_are_whole_class_indices_in_a_constant():
    spec = get("mlp").spec
    assert spec["y"].kind == "const" and spec["y"].value == [0.0, 2.0, 1.0, 2.0]
    assert spec["L"].op == "cross_entropy"


def test_broadcast_sums_the_gradient_back_to_each_operands_shape():
    result = evaluate(get("broadcast").spec)
    assert result.value("s").shape == (3, 4)
    assert result.value("L") == 324.0
    assert result.grad("col").tolist() == [[4.0], [4.0], [4.0]]
    assert result.grad("row").tolist() == [3.0, 3.0, 3.0, 3.0]


def test_shared_subexpression_accumulates_like_pygrad_x_grad_12():
    result = evaluate(get("shared").spec)
    assert result.value("z") == 18.0
    assert grads(result, "x", "y", "z") == [12.0, 2.0, 1.0]


def test_naive_softmax_overflows_and_is_flagged_only_at_exp():
    result = evaluate(get(UNSTABLE).spec)
    assert list(result.flags) == ["e"]
    assert "overflows" in result.flags["e"]
    assert np.isinf(result.value("e")).all()
    assert np.isnan(result.value("p")).all() and np.isnan(result.value("L"))
    assert np.isnan(result.grad("z")).all()


def test_stable_softmax_gives_the_softmax_of_0_1_2_and_gradient_p_minus_onehot():
    result = evaluate(get("softmax_stable").spec)
    assert result.flags == {}
    assert result.value("shifted").tolist() == [-2.0, -1.0, 0.0]
    np.testing.assert_allclose(result.value("p"), [0.09003057, 0.24472847, 0.66524096],
                               atol=1e-8)
    assert result.value("L") == pytest.approx(math.log(1 + math.exp(-1) + math.exp(-2)),
                                              abs=1e-14)
    np.testing.assert_allclose(result.grad("z"), [0.09003057, 0.24472847, -0.33475904],
                               atol=1e-8)


def test_attention_values_get_the_weights_transposed_times_the_outputs_gradient():
    result = evaluate(get("attention").spec)
    q, k = result.value("Q"), result.value("K")
    scores = q @ k.T / np.sqrt(2)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(result.value("out"), weights @ result.value("V"), rtol=1e-12)
    np.testing.assert_allclose(result.grad("V"), weights.T @ result.grad("out"), rtol=1e-12)
    assert np.abs(result.grad("Q")).max() > 0 and np.abs(result.grad("K")).max() > 0


def test_batch_norm_gradient_sums_to_zero_over_the_batch():
    result = evaluate(get("batch_norm").spec)
    assert result.value("x").shape == (4, 3)
    np.testing.assert_allclose(result.value("h").mean(axis=0), 0, atol=1e-12)
    grad = result.grad("x")
    assert np.abs(grad).max() > 0.01
    np.testing.assert_allclose(grad.sum(axis=0), 0, atol=1e-12)


def test_stable_softmax_agrees_with_the_softmax_op():
    direct = evaluate(parse("z = [1000.0, 1001.0, 1002.0]\np = softmax(z)"))
    np.testing.assert_allclose(evaluate(get("softmax_stable").spec).value("p"),
                               direct.value("p"), rtol=1e-14)


@pytest.mark.parametrize("preset", [p for p in PRESETS if p.key != UNSTABLE],
                         ids=lambda p: p.key)
def test_every_stable_preset_passes_the_gradient_check(preset):
    table = gradient_check(preset.spec)
    assert len(table) == sum(np.prod(preset.spec[n].shape, dtype=int)
                             for n in preset.spec.names_of("input"))
    assert table["passed"].all(), table[~table["passed"]]


def test_the_unstable_preset_fails_the_gradient_check():
    assert not gradient_check(get(UNSTABLE).spec)["passed"].any()


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_every_preset_round_trips_through_text_and_fits_a_short_link(preset):
    assert parse(preset.spec.to_text()) == preset.spec
    assert len(encode(preset.spec)) < 2_000


def test_presets_have_unique_keys_a_title_and_one_sentence():
    keys = [p.key for p in PRESETS]
    assert len(keys) == len(set(keys)) == 17
    for preset in PRESETS:
        assert preset.title and preset.explanation.endswith(".")
        assert ". " not in preset.explanation, preset.key


def test_a_preset_cannot_be_changed():
    with pytest.raises(dataclasses.FrozenInstanceError):
        get("classic").title = "changed"  # type: ignore[misc]
    assert isinstance(get("classic"), Preset)


def test_an_unknown_key_is_refused_with_the_list_of_keys():
    with pytest.raises(SpecError, match="no preset called 'nope'.*classic, two_paths"):
        get("nope")
    with pytest.raises(SpecError, match="no preset called"):
        get(None)
