"""The Gradient check page in AppTest: the check passes on every preset that stays finite, a too
large epsilon fails it with truncation error, and the epsilon slider runs as the chart's axis."""

from __future__ import annotations

import pytest
from app_helpers import (
    GRADIENT_CHECK,
    new_app,
    run,
    start,
)

from pages.ui import keys
from playground import presets, share
from playground.evaluate import evaluate

PRESET_KEYS = [p.key for p in presets.PRESETS]


@pytest.mark.parametrize("key", PRESET_KEYS)
def test_gradient_check_passes_on_every_preset_that_stays_finite(key):
    preset = presets.get(key)
    at = run(new_app(query={"graph": share.encode(preset.spec)}, page=GRADIENT_CHECK))
    table = at.dataframe[0].value
    assert len(table) == sum(n.array().size for n in preset.spec.nodes if n.kind == "input")
    if evaluate(preset.spec).flags:  # the naive softmax overflows on purpose: NaN fails
        assert not table["passed"].any()
        assert "differ from the finite-difference estimate" in at.error[0].value
    else:
        assert table["passed"].all(), table[~table["passed"]]
        assert at.success[0].value.startswith(f"All {len(table)} elements match")


def test_a_too_large_epsilon_fails_the_check_with_truncation_error():
    neuron = share.encode(presets.get("neuron").spec)
    at = start(query={"graph": neuron}, page=GRADIENT_CHECK)
    assert at.dataframe[0].value["passed"].all()
    at.select_slider(key=keys.EPS_WIDGET).set_value(1e-1)
    run(at)
    assert at.session_state[keys.EPS] == 1e-1
    table = at.dataframe[0].value
    assert table["abs_error"].max() > 1e-3  # tanh's curvature over a step of 0.1
    assert not table["passed"].all()
    assert "differ from the finite-difference estimate" in at.error[0].value


def test_the_epsilon_slider_runs_small_to_large_as_the_charts_axis():
    at = start(page=GRADIENT_CHECK)
    slider = at.select_slider(key=keys.EPS_WIDGET)
    assert list(slider.options) == sorted(slider.options, key=float)
    assert slider.options[0] == "1e-10" and slider.options[-1] == "1e-01"
