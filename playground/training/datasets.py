"""The 2-D data sets of the Train page, generated with NumPy, and the input features.

Every set lives on TensorFlow Playground's plane, [-6, 6] in both coordinates, and is the same
for the same (name, points, noise, seed). Classification labels are 0 (drawn orange) and 1
(blue); the regression surface's labels lie in about [-1, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .settings import FEATURES, TrainSettings

DOMAIN = 6.0
"""The plane is [-DOMAIN, DOMAIN] squared."""
NOISE_SCALE = 3.0
"""Noise of 100 % would be a Gaussian jitter of this standard deviation (plane units)."""
_SURFACE_BUMPS = ((-4.0, 2.5, 1.0), (0.0, 2.5, -1.0), (4.0, 2.5, 1.0),
                  (-4.0, -2.5, -1.0), (0.0, -2.5, 1.0), (4.0, -2.5, -1.0))
"""(centre x, centre y, sign) of the regression surface's Gaussian bumps."""


@dataclass(frozen=True)
class Split:
    """A data set cut into training and test points: raw points (n, 2) and labels (n,)."""

    train_points: np.ndarray
    train_labels: np.ndarray
    test_points: np.ndarray
    test_labels: np.ndarray


def points_and_labels(name: str, n: int, noise: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points of the set ``name`` with ``noise`` percent of jitter, from ``seed``."""
    rng = np.random.default_rng(seed)
    jitter = NOISE_SCALE * noise / 100
    half = n // 2
    labels = np.concatenate([np.ones(half), np.zeros(n - half)])
    if name == "circles":
        radius = np.concatenate([rng.uniform(0, 2.5, half), rng.uniform(3.5, 5.0, n - half)])
        angle = rng.uniform(0, 2 * np.pi, n)
        points = radius[:, None] * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    elif name == "moons":
        t = rng.uniform(0, np.pi, n)
        upper = np.stack([np.cos(t), np.sin(t)], axis=1)
        lower = np.stack([1 - np.cos(t), 0.5 - np.sin(t)], axis=1)
        points = (np.where(labels[:, None] == 1, upper, lower) - [0.5, 0.25]) * 3.0
    elif name == "xor":
        points = rng.uniform(-5, 5, (n, 2))
        points += np.where(points > 0, 0.3, -0.3)  # keep the points off the axes
        labels = (points[:, 0] * points[:, 1] > 0).astype(np.float64)
    elif name == "spiral":
        i = np.concatenate([np.arange(half), np.arange(n - half)]) / max(half, 1)
        turn = 1.75 * 2 * np.pi * i + np.where(labels == 1, 0.0, np.pi)
        points = (5 * i)[:, None] * np.stack([np.sin(turn), np.cos(turn)], axis=1)
    elif name == "blobs":
        centre = np.where(labels[:, None] == 1, 2.0, -2.0)
        points = centre + rng.normal(0, 1.0, (n, 2))
    elif name == "surface":
        points = rng.uniform(-5, 5, (n, 2))
        labels = surface(points) + rng.normal(0, noise / 100, n)
        return points, labels
    else:
        raise ValueError(f"unknown data set {name!r}")
    return points + rng.normal(0, jitter, (n, 2)), labels


def surface(points: np.ndarray) -> np.ndarray:
    """The regression set's smooth surface: six Gaussian bumps of alternating sign."""
    total = np.zeros(len(points))
    for cx, cy, sign in _SURFACE_BUMPS:
        total += sign * np.exp(-((points[:, 0] - cx) ** 2 + (points[:, 1] - cy) ** 2) / 4.5)
    return total


def split(settings: TrainSettings) -> Split:
    """The settings' data set, shuffled with its seed and cut at the training percentage."""
    points, labels = points_and_labels(settings.dataset, settings.points, settings.noise,
                                       settings.seed)
    order = np.random.default_rng(settings.seed + 1).permutation(len(points))
    n_train = max(1, min(len(points) - 1, round(len(points) * settings.train_percent / 100)))
    train, test = order[:n_train], order[n_train:]
    return Split(points[train], labels[train], points[test], labels[test])


def features(points: np.ndarray, keys: tuple[str, ...]) -> np.ndarray:
    """The chosen input features of raw points (n, 2), one column per key, in FEATURES order."""
    x1, x2 = points[:, 0], points[:, 1]
    columns = {"x1": x1, "x2": x2, "x1sq": x1 * x1, "x2sq": x2 * x2, "x1x2": x1 * x2,
               "sinx1": np.sin(x1), "sinx2": np.sin(x2)}
    return np.stack([columns[k] for k in FEATURES if k in keys], axis=1)


def grid(resolution: int) -> np.ndarray:
    """Cell centres of a ``resolution`` squared grid over the plane, row by row from the top:
    shape (resolution ** 2, 2)."""
    step = 2 * DOMAIN / resolution
    centres = -DOMAIN + step * (np.arange(resolution) + 0.5)
    x1, x2 = np.meshgrid(centres, centres[::-1])
    return np.stack([x1.ravel(), x2.ravel()], axis=1)
