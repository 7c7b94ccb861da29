"""What a lesson is: the data set, features, network and hyperparameters, and their URL form.

``TrainSettings`` holds every choice of the Train page except the weights. A share link carries
the settings that differ from the defaults as short, readable parameters, in the spirit of
TensorFlow Playground's links (``?data=spiral&layers=8,8&act=relu``). Reading a query never
raises: a parameter outside its whitelist keeps its default and the message says what it accepts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

DATASETS = {
    "circles": "Circles",
    "moons": "Two moons",
    "xor": "XOR",
    "spiral": "Spiral",
    "blobs": "Gaussian blobs",
    "surface": "Smooth surface (regression)",
}
"""Data set key -> its label; every set is a classification but the last."""
REGRESSION = frozenset({"surface"})

FEATURES = {
    "x1": "x₁",
    "x2": "x₂",
    "x1sq": "x₁²",
    "x2sq": "x₂²",
    "x1x2": "x₁x₂",
    "sinx1": "sin x₁",
    "sinx2": "sin x₂",
}
"""Input feature key -> its label, TensorFlow Playground's set, in its order."""

ACTIVATIONS = {"tanh": "Tanh", "relu": "ReLU", "sigmoid": "Sigmoid", "gelu": "GELU",
               "silu": "SiLU", "linear": "Linear"}
"""Hidden-layer activation -> label."""
LOSSES = {"bce": "Binary cross-entropy", "mse": "Mean squared error"}
OPTIMIZERS = {"sgd": "SGD", "adam": "Adam"}
REGULARIZERS = {"none": "None", "l1": "L1", "l2": "L2"}

LEARNING_RATES = ("0.00001", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1", "3",
                  "10")
"""TensorFlow Playground's learning rates, as written in a link."""
REG_RATES = ("0", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1", "3", "10")
MOMENTA = ("0", "0.5", "0.9", "0.99")
BATCH_SIZES = (1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 128, 0)
"""Batch sizes offered; 0 means the whole training set (full batch)."""

MAX_HIDDEN_LAYERS = 4
MAX_UNITS = 16
POINTS = (20, 1000)
"""Fewest and most points in a data set."""
NOISE = (0, 50)
"""Noise in percent."""
TRAIN_PERCENT = (10, 90)
MAX_SEED = 99_999
ECHO_CHARS = 40
"""A refused parameter is quoted in the message up to this many characters."""

_INT = r"[0-9]{1,6}"  # ASCII digits only: "²".isdigit() is True


@dataclass(frozen=True)
class TrainSettings:
    """Everything that defines a lesson except the weights (seeded, so reproducible)."""

    dataset: str = "circles"
    noise: int = 10
    points: int = 400
    train_percent: int = 50
    seed: int = 1
    features: tuple[str, ...] = ("x1", "x2")
    hidden: tuple[int, ...] = (4, 2)
    activation: str = "tanh"
    loss: str = "bce"
    optimizer: str = "sgd"
    learning_rate: str = "0.03"
    momentum: str = "0.9"
    batch_size: int = 10
    regularizer: str = "none"
    reg_rate: str = "0.001"
    show_test: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.features, tuple | list):  # one order everywhere: FEATURES'
            object.__setattr__(self, "features",
                               tuple(sorted(self.features, key=_feature_rank)))
        object.__setattr__(self, "hidden", tuple(self.hidden))
        problems = _problems(self)
        if problems:
            raise ValueError("invalid training settings: " + "; ".join(problems))

    @property
    def regression(self) -> bool:
        return self.dataset in REGRESSION

    @property
    def effective_loss(self) -> str:
        """The loss used: regression always uses MSE (cross-entropy needs classes)."""
        return "mse" if self.regression else self.loss

    @property
    def lr(self) -> float:
        return float(self.learning_rate)

    @property
    def penalty_rate(self) -> float:
        """The regularisation rate, 0 when no regulariser is chosen."""
        return 0.0 if self.regularizer == "none" else float(self.reg_rate)

    def rebuilds(self, other: TrainSettings) -> bool:
        """Whether going from ``other`` to these settings needs new data or a new network (the
        optimizer's settings and the display change on the fly, as in TensorFlow Playground)."""
        live = {"optimizer", "learning_rate", "momentum", "batch_size", "regularizer",
                "reg_rate", "show_test"}
        return any(getattr(self, f.name) != getattr(other, f.name)
                   for f in fields(self) if f.name not in live)

    def to_query(self) -> dict[str, str]:
        """The URL parameters of the settings that differ from the defaults."""
        default = TrainSettings()
        return {param: write(getattr(self, name)) for param, (name, _, write) in _PARAMS.items()
                if getattr(self, name) != getattr(default, name)}


def settings_from_query(query: Mapping[str, str | None]) -> tuple[TrainSettings, list[str]]:
    """Settings read from URL parameters (absent ones keep their defaults), and what was ignored.

    Never raises: each parameter outside its whitelist keeps its default and adds one line to
    the list, saying what it accepts.
    """
    values, ignored = {}, []
    for param, (name, read, _) in _PARAMS.items():
        text = query.get(param)
        if text is None:
            continue
        value, accepts = read(text) if isinstance(text, str) else (None, "text")
        if value is None:
            ignored.append(f"{param}={_echo(text)} ({accepts})")
        else:
            values[name] = value
    settings = TrainSettings()
    for name, value in values.items():
        try:
            settings = replace(settings, **{name: value})
        except ValueError as err:
            ignored.append(str(err).removeprefix("invalid training settings: "))
    return settings, ignored


def query_keys() -> tuple[str, ...]:
    """Every URL parameter the Train page reads and writes."""
    return tuple(_PARAMS)


# --- checks and readers ---------------------------------------------------------------------


def _problems(s: TrainSettings) -> list[str]:
    out = []
    for name, allowed in (("dataset", DATASETS), ("activation", ACTIVATIONS), ("loss", LOSSES),
                          ("optimizer", OPTIMIZERS), ("regularizer", REGULARIZERS),
                          ("learning_rate", LEARNING_RATES), ("momentum", MOMENTA),
                          ("reg_rate", REG_RATES), ("batch_size", BATCH_SIZES)):
        if getattr(s, name) not in allowed:
            out.append(f"{name} must be one of {', '.join(map(str, allowed))}")
    for name, (low, high) in (("noise", NOISE), ("points", POINTS),
                              ("train_percent", TRAIN_PERCENT), ("seed", (0, MAX_SEED))):
        value = getattr(s, name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            out.append(f"{name} must be a whole number from {low} to {high}")
    if not s.features or any(f not in FEATURES for f in s.features) or (
            len(set(s.features)) != len(s.features)):
        out.append("choose at least one input feature, each once, from " + ", ".join(FEATURES))
    if len(s.hidden) > MAX_HIDDEN_LAYERS or any(
            not isinstance(n, int) or not 1 <= n <= MAX_UNITS for n in s.hidden):
        out.append(f"use up to {MAX_HIDDEN_LAYERS} hidden layers of 1 to {MAX_UNITS} units")
    return out


def _feature_rank(key) -> int:
    return list(FEATURES).index(key) if key in FEATURES else len(FEATURES)


def _choice(allowed):
    def read(text):
        return (text if text in allowed else None), "use one of " + ", ".join(allowed)
    return read


def _whole(low, high):
    def read(text):
        ok = re.fullmatch(_INT, text) and low <= int(text) <= high
        return (int(text) if ok else None), f"use a whole number from {low} to {high}"
    return read


def _read_batch(text):
    accepts = "use all or one of " + ", ".join(str(b) for b in BATCH_SIZES if b)
    if text == "all":
        return 0, accepts
    ok = re.fullmatch(_INT, text) and int(text) in BATCH_SIZES and int(text) > 0
    return (int(text) if ok else None), accepts


def _read_features(text):
    keys = tuple(text.split(",")) if len(text) <= 80 else ()
    ok = keys and all(k in FEATURES for k in keys) and len(set(keys)) == len(keys)
    return (tuple(k for k in FEATURES if k in keys) if ok else None), (
        "use a comma-separated list of " + ", ".join(FEATURES))


def _read_hidden(text):
    accepts = (f"use none or up to {MAX_HIDDEN_LAYERS} comma-separated unit counts from 1 to "
               f"{MAX_UNITS}, such as 4,2")
    if text == "none":
        return (), accepts
    parts = text.split(",") if len(text) <= 20 else []
    ok = 1 <= len(parts) <= MAX_HIDDEN_LAYERS and all(
        re.fullmatch(r"[0-9]{1,2}", p) and 1 <= int(p) <= MAX_UNITS for p in parts)
    return (tuple(int(p) for p in parts) if ok else None), accepts


def _read_flag(text):
    return ({"0": False, "1": True}.get(text)), "use 0 or 1"


def _echo(value: object) -> str:
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 1] + "…"


_PARAMS = {  # URL parameter -> (field, reader giving (value or None, what it accepts), writer)
    "data": ("dataset", _choice(DATASETS), str),
    "noise": ("noise", _whole(*NOISE), str),
    "points": ("points", _whole(*POINTS), str),
    "train": ("train_percent", _whole(*TRAIN_PERCENT), str),
    "seed": ("seed", _whole(0, MAX_SEED), str),
    "features": ("features", _read_features, ",".join),
    "layers": ("hidden", _read_hidden, lambda h: ",".join(map(str, h)) or "none"),
    "act": ("activation", _choice(ACTIVATIONS), str),
    "loss": ("loss", _choice(LOSSES), str),
    "opt": ("optimizer", _choice(OPTIMIZERS), str),
    "lr": ("learning_rate", _choice(LEARNING_RATES), str),
    "momentum": ("momentum", _choice(MOMENTA), str),
    "batch": ("batch_size", _read_batch, lambda b: str(b) if b else "all"),
    "reg": ("regularizer", _choice(REGULARIZERS), str),
    "rate": ("reg_rate", _choice(REG_RATES), str),
    "test": ("show_test", _read_flag, lambda flag: "1" if flag else "0"),
}
