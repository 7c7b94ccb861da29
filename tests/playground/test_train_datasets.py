"""The Train page's data sets and features."""

import numpy as np
import pytest

from playground.training import TrainSettings, datasets
from playground.training.settings import DATASETS, FEATURES, REGRESSION

CLASSIFICATION = [name for name in DATASETS if name not in REGRESSION]


@pytest.mark.parametrize("name", DATASETS)
def test_every_set_is_the_same_for_the_same_seed_and_another_for_another(name):
    a = datasets.points_and_labels(name, 200, 10, seed=3)
    b = datasets.points_and_labels(name, 200, 10, seed=3)
    c = datasets.points_and_labels(name, 200, 10, seed=4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], c[0])


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("n", [20, 21, 1000])
def test_every_set_has_n_points_on_the_plane(name, n):
    points, labels = datasets.points_and_labels(name, n, 0, seed=0)
    assert points.shape == (n, 2) and labels.shape == (n,)
    assert np.abs(points).max() < datasets.DOMAIN
    assert np.isfinite(labels).all()


@pytest.mark.parametrize("name", CLASSIFICATION)
def test_classification_sets_have_two_balanced_classes(name):
    _, labels = datasets.points_and_labels(name, 400, 10, seed=0)
    assert set(np.unique(labels)) == {0.0, 1.0}
    assert 0.4 < labels.mean() < 0.6


def test_xor_labels_points_by_the_sign_of_x1_times_x2():
    points, labels = datasets.points_and_labels("xor", 300, 0, seed=0)
    assert np.array_equal(labels, (points[:, 0] * points[:, 1] > 0).astype(float))


def test_circles_put_one_class_inside_the_other():
    points, labels = datasets.points_and_labels("circles", 300, 0, seed=0)
    radius = np.hypot(points[:, 0], points[:, 1])
    assert radius[labels == 1].max() < radius[labels == 0].min()


def test_the_surface_without_noise_is_the_smooth_function_of_the_point():
    points, labels = datasets.points_and_labels("surface", 300, 0, seed=0)
    assert np.array_equal(labels, datasets.surface(points))
    assert -1.2 < labels.min() < 0 < labels.max() < 1.2


def test_noise_moves_the_points_and_more_noise_moves_them_more():
    quiet, _ = datasets.points_and_labels("moons", 300, 0, seed=0)
    spread = [np.abs(datasets.points_and_labels("moons", 300, noise, seed=0)[0] - quiet).mean()
              for noise in (10, 50)]
    assert 0 < spread[0] < spread[1]


@pytest.mark.parametrize(("points", "percent", "n_train"), [(400, 50, 200), (20, 10, 2),
                                                             (21, 90, 19), (1000, 90, 900)])
def test_the_split_cuts_at_the_training_percentage(points, percent, n_train):
    split = datasets.split(TrainSettings(points=points, train_percent=percent))
    assert len(split.train_points) == len(split.train_labels) == n_train
    assert len(split.test_points) == len(split.test_labels) == points - n_train


def test_the_split_shuffles_so_both_parts_hold_both_classes():
    split = datasets.split(TrainSettings(dataset="spiral"))
    assert set(split.train_labels) == set(split.test_labels) == {0.0, 1.0}


def test_features_are_tensorflow_playgrounds_in_its_order():
    points = np.array([[2.0, -3.0]])
    table = datasets.features(points, tuple(FEATURES))
    assert table.tolist() == [[2.0, -3.0, 4.0, 9.0, -6.0, np.sin(2.0), np.sin(-3.0)]]
    assert datasets.features(points, ("x2", "x1x2")).tolist() == [[-3.0, -6.0]]


def test_the_grid_covers_the_plane_row_by_row_from_the_top():
    centres = datasets.grid(4)
    assert centres.shape == (16, 2)
    assert centres[0].tolist() == [-4.5, 4.5] and centres[-1].tolist() == [4.5, -4.5]
