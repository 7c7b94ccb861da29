"""The Train page's pictures: their tables and their Vega-Lite specs."""

import base64
import json
import struct
import zlib

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
        charts.boundary(pictures.boundary_frame(pictures.boundary_values(trainer)), points,
                        points.iloc[:1], trainer.settings.regression),
        charts.loss(history["loss"]), charts.accuracy(history["accuracy"]),
        charts.gradient_norms(history["gradients"]),
    ]


def png_pixels(url: str) -> np.ndarray:
    """The RGB pixels of a PNG data URL as ``pictures.png_data_url`` writes it (8-bit RGB, one
    IDAT chunk, filter 0 on every row)."""
    prefix = "data:image/png;base64,"
    assert url.startswith(prefix)
    png = base64.b64decode(url[len(prefix):])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    size = struct.unpack(">I", png[33:37])[0]
    assert png[37:41] == b"IDAT"
    rows = np.frombuffer(zlib.decompress(png[41:41 + size]), np.uint8).reshape(height, -1)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, 3)


def test_the_boundary_covers_the_plane_on_the_colour_scale():
    trainer = Trainer(TrainSettings())
    values = pictures.boundary_values(trainer, resolution=10)
    assert values.shape == (10, 10) and ((values >= -1) & (values <= 1)).all()
    top_left = trainer.predict(np.array([[-5.4, 5.4]]))[0, 0]  # the first cell's centre
    assert values[0, 0] == pytest.approx(2 * top_left - 1, abs=1e-6)
    plane = pictures.boundary_frame(values)
    assert plane[["x", "y"]].values.tolist() == [[-6, 6]]  # the image's top-left corner
    pixels = png_pixels(plane["image"][0])
    assert pixels.shape == (10, 10, 3)
    assert (pixels == pictures.heat_colours(values, light=True)).all()


def test_heat_colours_run_from_orange_through_grey_to_blue():
    colours = pictures.heat_colours(np.array([-1, -0.5, 0, 1, 7, np.nan]))
    assert [tuple(c) for c in colours] == [
        pictures.ORANGE, (238, 190, 134), pictures.ZERO, pictures.BLUE, pictures.BLUE,
        pictures.ZERO]
    hex_of = "#{:02x}{:02x}{:02x}".format
    assert [hex_of(*c) for c in (pictures.ORANGE, pictures.ZERO, pictures.BLUE)] == \
        charts.DIVERGING["range"]
    assert [hex_of(*c) for c in (pictures.LIGHT_ORANGE, pictures.LIGHT_BLUE)] == [
        charts.LIGHT_ORANGE, charts.LIGHT_BLUE]


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
    cells = picture.layout.cells
    assert len(picture.tiles) == len(picture.heat) == sum(sizes)
    assert all(h.shape == (cells, cells) and (np.abs(h) <= 1).all() for h in picture.heat)
    assert all(png_pixels(url).shape == (cells, cells, 3) for url in picture.tiles["image"])
    assert len(picture.edges) == sum(a * b for a, b in zip(sizes, sizes[1:]))
    assert picture.edges["size"].max() == 1
    assert len(picture.rows) == len(sizes)
    assert picture.tiles["x"].min() >= 0
    assert picture.tiles["x"].max() + picture.layout.tile <= picture.layout.width + 1e-9


def test_a_hidden_tile_is_its_neuron_over_the_plane_scaled_to_its_largest_value():
    trainer = Trainer(TrainSettings(hidden=(3,)))
    picture = pictures.network_picture(trainer)
    cells = picture.layout.cells
    grid = pictures.datasets.grid(cells)
    hidden = trainer.activations(grid)[1][:, 1].reshape(cells, cells)
    assert np.allclose(picture.heat[2 + 1], hidden / np.abs(hidden).max())
    assert picture.tiles["name"][3] == "h1[1]"


def test_the_network_names_its_layers_and_inputs_with_axis_labels_the_theme_colours():
    trainer = Trainer(TrainSettings(features=("x1", "x2", "sinx1"), hidden=(4,)))
    spec = charts.network(pictures.network_picture(trainer))
    assert not any(layer["mark"]["type"] == "text" for layer in spec["layer"])
    x_axis = spec["layer"][0]["encoding"]["x"]["axis"]
    y_axis = spec["layer"][0]["encoding"]["y"]["axis"]
    assert x_axis["orient"] == "top" and len(x_axis["values"]) == 3
    assert '"sin x₁"' in x_axis["labelExpr"]
    assert len(y_axis["values"]) == 3 and '"layer 1"' in y_axis["labelExpr"]
    assert "labelColor" not in x_axis and "labelColor" not in y_axis


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


def test_every_picture_has_a_text_alternative_that_says_what_it_shows():
    """Vega names a chart by its spec's description (a screen reader read "Vega
    visualization" for all five); regression says output rather than probability."""
    said = [s["description"] for s in all_specs(Trainer(TrainSettings()))]
    assert [text.split(":")[0].split(" (")[0] for text in said] == [
        "The network", "Output plane", "Training loss", "Training accuracy",
        "Each layer's weight-gradient norm against the step, on a log scale, one line per layer."]
    assert "probability of blue" in said[1] and "orange for negative" in said[1]
    plane = all_specs(Trainer(TrainSettings(dataset="surface")))[1]["description"]
    assert "the network's output over" in plane and "probability" not in plane
