"""The Train page's pictures: their tables and their Vega-Lite specs."""

import json

import numpy as np
import pandas as pd
import pytest

from playground.training import Trainer, TrainSettings, charts, pictures
from playground.training import settings as choices


def spec_without_data(spec: dict) -> str:
    return json.dumps({k: v for k, v in spec.items() if k != "datasets"}, sort_keys=True)


def all_specs(trainer: Trainer) -> list[dict]:
    points = pictures.points_frame(trainer, True)
    history = pictures.history_frames(trainer)
    return [
        charts.network(pictures.network_picture(trainer)),
        charts.boundary(pictures.boundary_frame(trainer), points, points.iloc[:1],
                        trainer.settings.regression),
        charts.loss(history["loss"]), charts.accuracy(history["accuracy"]),
        charts.gradient_norms(history["gradients"]),
    ]


def test_the_boundary_covers_the_plane_on_the_colour_scale():
    trainer = Trainer(TrainSettings())
    grid = pictures.boundary_frame(trainer, resolution=10)
    assert len(grid) == 100 and grid["v"].between(-1, 1).all()
    assert grid["x"].min() == -6 and grid["y"].min() == -6
    probability = trainer.predict(np.array([[grid["x"][0] + 0.6, grid["y"][0] + 0.6]]))[0, 0]
    assert grid["v"][0] == pytest.approx(2 * probability - 1, abs=1e-6)


def test_points_carry_their_set_and_index_so_a_click_names_one():
    trainer = Trainer(TrainSettings(points=100))
    train_only = pictures.points_frame(trainer, False)
    both = pictures.points_frame(trainer, True)
    assert set(train_only["split"]) == {"train"} and len(train_only) == 50
    assert len(both) == 100 and both[both["split"] == "test"]["index"].tolist() == list(range(50))
    assert set(both["v"]) == {-1.0, 1.0}


@pytest.mark.parametrize(("features", "hidden"), [(("x1",), ()), (("x1", "x2"), (4, 2)),
                                                  (tuple(choices.FEATURES), (16,) * 4)])
def test_the_network_has_a_tile_per_neuron_and_an_edge_per_weight(features, hidden):
    trainer = Trainer(TrainSettings(features=features, hidden=hidden))
    picture = pictures.network_picture(trainer)
    sizes = [len(features), *hidden, 1]
    assert len(picture.tiles) == sum(sizes)
    assert len(picture.cells) == sum(sizes) * picture.layout.cells ** 2
    assert len(picture.edges) == sum(a * b for a, b in zip(sizes, sizes[1:]))
    assert picture.cells["v"].between(-1, 1).all() and picture.edges["size"].max() == 1
    assert len(picture.rows) == len(sizes)
    assert picture.tiles["x"].min() >= 0
    assert picture.tiles["x"].max() + picture.layout.tile <= picture.layout.width + 1e-9


def test_an_edge_shows_its_weight():
    trainer = Trainer(TrainSettings(hidden=(3,)))
    edges = pictures.network_picture(trainer).edges.set_index("name")
    assert edges.loc["W1[2, 1]", "w"] == trainer.layers[0].weight.data[2, 1]
    assert edges.loc["W2[0, 2]", "w"] == trainer.layers[1].weight.data[0, 2]


def test_the_history_tables_follow_the_records():
    trainer = Trainer(TrainSettings(hidden=(4, 2)))
    trainer.run(3)
    trainer.run(3)
    history = pictures.history_frames(trainer)
    assert history["loss"]["step"].tolist() == [0, 3, 6] * 2
    assert history["accuracy"]["value"].between(0, 1).all()
    assert sorted(set(history["gradients"]["series"])) == [
        "layer 1 (W1)", "layer 2 (W2)", "output (W3)"]


def test_a_diverged_history_draws_only_finite_values():
    trainer = Trainer(TrainSettings(dataset="surface", learning_rate="10", momentum="0.99",
                                    activation="linear", features=("x1", "x2", "x1sq")))
    trainer.run(500)
    history = pictures.history_frames(trainer)
    assert np.isfinite(history["loss"]["value"]).all()


def test_charts_keep_their_spec_while_training_so_the_browser_only_swaps_data():
    trainer = Trainer(TrainSettings(show_test=True))
    before = [spec_without_data(s) for s in all_specs(trainer)]
    trainer.run(40)
    assert [spec_without_data(s) for s in all_specs(trainer)] == before


@pytest.mark.parametrize("dataset", choices.DATASETS)
def test_every_spec_is_json_apart_from_its_tables(dataset):
    trainer = Trainer(TrainSettings(dataset=dataset, show_test=True))
    trainer.run(2)
    for spec in all_specs(trainer):
        assert all(isinstance(t, pd.DataFrame) for t in spec["datasets"].values())
        json.loads(spec_without_data(spec))


def test_the_palette_is_orange_and_blue_never_red_against_green():
    assert charts.DIVERGING["range"] == [charts.ORANGE, charts.ZERO, charts.BLUE]
    red, green, _ = (int(charts.ORANGE[i:i + 2], 16) for i in (1, 3, 5))
    assert red > green  # orange
    _, green, blue = (int(charts.BLUE[i:i + 2], 16) for i in (1, 3, 5))
    assert blue > green  # blue
    assert charts.DIVERGING["interpolate"] == "rgb"  # HCL would pass through green
