"""TrainSettings: the lesson's choices, their checks and their URL parameters."""

import pytest

from playground.training import TrainSettings, settings_from_query
from playground.training import settings as choices

HOSTILE = ["", " ", "-1", "1e9", "²", "０", "nan", "inf", "None", "x" * 10_000, "1,2,3,4,5",
           "0,0", "4,,2", "x1,x1", "x1;x2", "tanh ", "TANH", "0.030", "3e-2", "all,1", "\x00"]


def test_the_defaults_have_an_empty_query():
    assert TrainSettings().to_query() == {}


def test_a_query_carries_only_what_differs_from_the_defaults():
    settings = TrainSettings(dataset="spiral", hidden=(8, 8), activation="relu", batch_size=0)
    assert settings.to_query() == {"data": "spiral", "layers": "8,8", "act": "relu",
                                   "batch": "all"}


def test_no_hidden_layers_is_written_as_none():
    assert TrainSettings(hidden=()).to_query() == {"layers": "none"}


@pytest.mark.parametrize("settings", [
    TrainSettings(),
    TrainSettings(dataset="surface", noise=50, points=1000, train_percent=90, seed=99_999),
    TrainSettings(features=("sinx2", "x1x2", "x1"), hidden=(), activation="linear", loss="mse"),
    TrainSettings(hidden=(16, 16, 16, 16), optimizer="adam", learning_rate="10", momentum="0",
                  batch_size=1, regularizer="l1", reg_rate="0", show_test=True),
])
def test_settings_survive_their_query(settings):
    loaded, ignored = settings_from_query(settings.to_query())
    assert loaded == settings and ignored == []


def test_features_are_kept_in_tensorflow_playgrounds_order():
    assert TrainSettings(features=("sinx1", "x2", "x1")).features == ("x1", "x2", "sinx1")


@pytest.mark.parametrize("param", choices.query_keys())
@pytest.mark.parametrize("junk", HOSTILE)
def test_junk_in_any_parameter_keeps_the_default_and_says_what_is_accepted(param, junk):
    loaded, ignored = settings_from_query({param: junk})
    default_value = getattr(TrainSettings(), choices._PARAMS[param][0])
    assert getattr(loaded, choices._PARAMS[param][0]) == default_value
    assert len(ignored) == 1 and ignored[0].startswith(f"{param}=")
    assert len(ignored[0]) < 300  # a 10,000-character value is quoted short


def test_a_value_that_is_not_text_is_ignored():
    loaded, ignored = settings_from_query({"data": ["moons"], "noise": 5})
    assert loaded == TrainSettings() and len(ignored) == 2


def test_parameters_that_are_not_ours_are_left_alone():
    loaded, ignored = settings_from_query({"graph": "v1.abc", "font": "20", "utm": "x"})
    assert loaded == TrainSettings() and ignored == []


@pytest.mark.parametrize(("field", "value"), [
    ("dataset", "iris"), ("noise", 51), ("points", 19), ("points", True), ("train_percent", 95),
    ("seed", -1), ("features", ()), ("features", ("x1", "x1")), ("features", ("x3",)),
    ("hidden", (17,)), ("hidden", (1, 1, 1, 1, 1)), ("hidden", (0,)), ("activation", "elu"),
    ("loss", "hinge"), ("optimizer", "rmsprop"), ("learning_rate", "0.05"), ("momentum", "1"),
    ("batch_size", 7), ("regularizer", "l3"), ("reg_rate", "0.002"),
])
def test_invalid_settings_are_refused_with_what_is_allowed(field, value):
    with pytest.raises(ValueError, match="invalid training settings"):
        TrainSettings(**{field: value})


def test_regression_always_uses_the_mean_squared_error():
    assert TrainSettings(dataset="surface", loss="bce").effective_loss == "mse"
    assert TrainSettings(dataset="moons", loss="bce").effective_loss == "bce"


def test_the_penalty_rate_is_zero_without_a_regulariser():
    assert TrainSettings(reg_rate="0.3").penalty_rate == 0.0
    assert TrainSettings(regularizer="l2", reg_rate="0.3").penalty_rate == 0.3


@pytest.mark.parametrize(("change", "rebuilds"), [
    ({"learning_rate": "0.3"}, False), ({"optimizer": "adam"}, False), ({"batch_size": 1}, False),
    ({"regularizer": "l1"}, False), ({"show_test": True}, False), ({"momentum": "0"}, False),
    ({"dataset": "xor"}, True), ({"noise": 0}, True), ({"seed": 2}, True),
    ({"features": ("x1",)}, True), ({"hidden": (3,)}, True), ({"activation": "relu"}, True),
    ({"loss": "mse"}, True),
])
def test_only_new_data_or_a_new_network_rebuild(change, rebuilds):
    before = TrainSettings()
    after = TrainSettings(**{**before.__dict__, **change})
    assert after.rebuilds(before) is rebuilds
