"""Vega-Lite specs of the Train page's pictures, as plain dicts (``st.vega_lite_chart`` takes them,
and sends their named tables to the browser as Arrow, not JSON).

Colours are TensorFlow Playground's, a colour-blind-safe diverging pair: orange for negative
(class 0), blue for positive (class 1), a light grey at zero. Lines that must be told apart also
differ in dash or lightness, never in hue alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd

from . import pictures, words
from .datasets import DOMAIN
from .pictures import NetworkPicture
from .trainer import Trainer

ORANGE, ZERO, BLUE = "#f59322", "#e8eaeb", "#0877bd"
LIGHT_ORANGE, LIGHT_BLUE = "#f9bf7c", "#74aed6"
"""The same two colours mixed with white, for the plane under the points (``pictures`` colours
the heat-map images with these same six colours)."""
DIVERGING = {"domain": [-1, 0, 1], "range": [ORANGE, ZERO, BLUE], "clamp": True,
             "interpolate": "rgb"}
"""The colour scale of every heat map, point and weight: [-1, 1] through 0, mixed in RGB (Vega's
default, HCL, passes through green on the way from orange to blue)."""
DESCRIPTIONS = {
    "plane": ("Output plane: the network's {what} over x₁ and x₂ from −6 to 6 as a heat map, "
              "orange for negative, blue for positive, with the data points on top in the colour "
              "of their {label} (test points ringed in black); the loss and accuracy are in the "
              "numbers above, and the text below says in words where each colour lies."),
    "network": ("The network: each neuron's output over the plane as a tile, one row of tiles "
                "per layer from the inputs to the output, joined by its weights (line width: the "
                "weight's size; colour: its sign, orange negative and blue positive)."),
    "loss": "Training loss (dashed grey) and test loss (solid blue) against the step.",
    "accuracy": ("Training accuracy (dashed grey) and test accuracy (solid blue) against the "
                 "step, 0 % to 100 %."),
    "gradients": ("Each layer's weight-gradient norm against the step, on a log scale, one line "
                  "per layer."),
}
"""Each picture's text alternative: Vega names the chart with its spec's description (WCAG
1.1.1), which screen readers read in place of "Vega visualization". Fixed texts (the numbers
are the page's metrics), so the specs stay the same while training and the browser only swaps
their data."""
PICK = "pick"
"""The name of the point selection on the data points (what a click chooses)."""
LABEL_AXIS = {"title": None, "grid": False, "ticks": False, "domain": False,
              "labelOverlap": False, "labelFlush": False, "labelBound": False,
              "labelPadding": 4}
"""The network picture's names (layers at the left, input features on top) are axis labels, so
they take the theme's text colour and size: readable on the dark theme as on the light one, and
as large as the page's other text at a projector's Font size (a size written here stayed 12 px)."""
BOUNDARY_SIZE = 270
"""Pixels of each side of the plane (axes and legend come on top)."""
LINE_HEIGHT = 130
"""Pixels of each line chart's plot (axes and legend come on top, the width fits the column)."""


@dataclass(frozen=True)
class Drawn:
    """Everything the Train page draws of a trainer's state: the network's spec, the plane's
    image, the plane in words and the data points (the chosen point is the page's: ``boundary``
    joins them), and the loss, accuracy and gradient-norm specs."""

    network: dict
    plane: pd.DataFrame
    plane_words: str
    points: pd.DataFrame
    loss: dict
    accuracy: dict
    gradients: dict


def drawn(trainer: Trainer) -> Drawn:
    """The pictures of ``trainer`` as it is now (its lock held: never half-way through a step)."""
    with trainer.lock:
        history = pictures.history_frames(trainer)
        values = pictures.boundary_values(trainer)
        return Drawn(network(pictures.network_picture(trainer)),
                     pictures.boundary_frame(values),
                     words.plane(values, trainer.settings.regression, trainer.history[-1]),
                     pictures.points_frame(trainer, trainer.settings.show_test),
                     loss(history["loss"]), accuracy(history["accuracy"]),
                     gradient_norms(history["gradients"]))


def boundary(plane: pd.DataFrame, points: pd.DataFrame, chosen: pd.DataFrame,
             regression: bool) -> dict:
    """The output over the plane as a heat-map image (``pictures.boundary_frame``), with the
    data points on top (test points ringed in black), the chosen point circled, and a click
    selecting a point."""
    axis = {"scale": {"domain": [-DOMAIN, DOMAIN], "nice": False}, "type": "quantitative"}
    what = "value" if regression else "class"
    return {
        "description": DESCRIPTIONS["plane"].format(
            what="output" if regression else "probability of blue", label=what),
        "width": BOUNDARY_SIZE, "height": BOUNDARY_SIZE, "autosize": {"type": "pad"},
        "usermeta": {"embedOptions": {"renderer": "svg"}},  # each point an element to click
        "datasets": {"plane": plane, "points": points, "chosen": chosen},
        "layer": [
            {"data": {"name": "plane"},
             "mark": {"type": "image", "width": BOUNDARY_SIZE, "height": BOUNDARY_SIZE,
                      "align": "left", "baseline": "top", "aspect": False},
             "encoding": {"x": {"field": "x", "title": "x₁", **axis},
                          "y": {"field": "y", "title": "x₂", **axis},
                          "url": {"field": "image", "type": "nominal"}}},
            {"data": {"name": "points"},
             "mark": {"type": "circle", "size": 40, "opacity": 1, "strokeWidth": 1,
                      "cursor": "pointer"},
             "params": [{"name": PICK, "select": {"type": "point", "fields": ["split", "index"],
                                                   "on": "click"}}],
             "encoding": {"x": {"field": "x", "title": "x₁", **axis},
                          "y": {"field": "y", "title": "x₂", **axis},
                          "color": _diverging("v"),
                          "stroke": {"field": "split", "type": "nominal",
                                     "scale": {"domain": ["train", "test"],
                                               "range": ["#ffffff", "#111111"]},
                                     "legend": {"title": None, "orient": "bottom"}
                                     if (points["split"] == "test").any() else None},
                          "tooltip": [{"field": "split", "title": "set"},
                                      {"field": "index", "title": "point"},
                                      {"field": "label", "title": what, "format": ".3~g"}]}},
            {"data": {"name": "chosen"},
             "mark": {"type": "point", "size": 260, "filled": False, "strokeWidth": 2.5,
                      "color": "#111111"},
             "encoding": {"x": {"field": "x", "title": "x₁", **axis},
                          "y": {"field": "y", "title": "x₂", **axis}}},
        ],
    }


def network(picture: NetworkPicture) -> dict:
    """Every neuron's heat map as an image tile, one row of tiles per layer, and the weights as
    edges whose width is the weight's size and whose colour its sign; the layers' names at the
    left and the input features' names on top are axis labels.

    The spec depends on the architecture only, never on the weights, so while training the
    browser swaps the data of the chart it has instead of building a new one (as for every chart
    here)."""
    lay = picture.layout
    inputs = picture.tiles.iloc[: int((picture.tiles["y"] == 0).sum())]
    x = {"type": "quantitative", "title": None,
         "scale": {"domain": [0, lay.width], "nice": False, "zero": False},
         "axis": {**LABEL_AXIS, "orient": "top",
                  "values": [round(v + lay.tile / 2, 2) for v in inputs["x"]],
                  "labelExpr": _label_expr(zip((v + lay.tile / 2 for v in inputs["x"]),
                                               inputs["name"]))}}
    y = {"type": "quantitative", "title": None,
         "scale": {"domain": [0, lay.height], "nice": False, "zero": False, "reverse": True},
         "axis": {**LABEL_AXIS, "orient": "left", "values": [round(v, 2) for v in
                                                              picture.rows["y"]],
                  "labelExpr": _label_expr(zip(picture.rows["y"], picture.rows["text"]))}}
    return {
        "description": DESCRIPTIONS["network"],
        "width": lay.width, "height": lay.height, "autosize": {"type": "pad"},
        "usermeta": {"embedOptions": {"renderer": "svg"}},  # few marks; labels are elements
        "view": {"stroke": None},
        "datasets": {"tiles": picture.tiles, "edges": picture.edges},
        "layer": [
            {"data": {"name": "edges"}, "mark": {"type": "rule", "strokeCap": "round"},
             "encoding": {"x": {"field": "x", **x}, "y": {"field": "y", **y},
                          "x2": {"field": "x2"}, "y2": {"field": "y2"},
                          "color": _diverging("w"),
                          "strokeWidth": {"field": "size", "type": "quantitative",
                                          "scale": {"domain": [0, 1], "range": [0.3, 6]},
                                          "legend": None},
                          "tooltip": [{"field": "name", "title": "weight"},
                                      {"field": "w", "title": "value", "format": ".4g"}]}},
            {"data": {"name": "tiles"},
             "mark": {"type": "image", "width": lay.tile, "height": lay.tile,
                      "align": "left", "baseline": "top", "aspect": False},
             "encoding": {"x": {"field": "x", **x}, "y": {"field": "y", **y},
                          "url": {"field": "image", "type": "nominal"}}},
            {"data": {"name": "tiles"},
             "mark": {"type": "rect", "fillOpacity": 0, "stroke": "#6b7280",
                      "strokeWidth": 0.75},
             "transform": _cell_corners(lay.tile),
             "encoding": {"x": {"field": "x", **x}, "y": {"field": "y", **y},
                          "x2": {"field": "x2"}, "y2": {"field": "y2"},
                          "tooltip": [{"field": "name", "title": "neuron"},
                                      {"field": "what", "title": "is"}]}},
        ],
    }


def _label_expr(labels) -> str:
    """A Vega expression naming each of the axis values (positions in pixels)."""
    expr = "''"
    for position, text in reversed(list(labels)):
        name = json.dumps(str(text), ensure_ascii=False)
        expr = f"abs(datum.value - {position:.2f}) < 0.5 ? {name} : {expr}"
    return expr


def loss(frame: pd.DataFrame) -> dict:
    """Training and test loss against the step, from 0 up with a few round ticks."""
    return _lines(frame, "loss", {"type": "linear", "zero": True, "nice": True},
                  value_format=".2~f", description=DESCRIPTIONS["loss"])


def accuracy(frame: pd.DataFrame) -> dict:
    """Training and test accuracy against the step, 0 % to 100 %."""
    spec = _lines(frame, "accuracy", {"domain": [0, 1]}, value_format=".0%",
                  description=DESCRIPTIONS["accuracy"])
    spec["encoding"]["y"]["axis"]["values"] = [0, 0.25, 0.5, 0.75, 1]
    return spec


def gradient_norms(frame: pd.DataFrame) -> dict:
    """Each layer's weight-gradient norm against the step, on a log scale: stacked sigmoids
    show the first layers' norms falling decades below the last one's. Ticks only at powers of
    ten, written as such (1e-3, 0.01, 0.1, 1, 10), so none overprint."""
    spec = _lines(frame, "gradient norm (log)", {"type": "log"}, value_format=".1~g",
                  description=DESCRIPTIONS["gradients"])
    spec["encoding"]["y"]["axis"].update({
        "labelExpr": "abs(log(datum.value) / LN10 - round(log(datum.value) / LN10)) < 1e-6 "
                     "? (datum.value >= 0.01 && datum.value <= 100 ? format(datum.value, '~g') "
                     ": format(datum.value, '.0e')) : ''",
        "tickCount": 4, "grid": True})
    spec["encoding"]["color"] = {"field": "series", "type": "ordinal", "title": None,
                                 "scale": {"scheme": "viridis"},
                                 "legend": {"orient": "bottom", "offset": 4, "columns": 3}}
    spec["encoding"].pop("strokeDash")
    return spec


def _lines(frame: pd.DataFrame, title: str, scale: dict, value_format: str,
           description: str) -> dict:
    """Lines of ``value`` against ``step`` per ``series`` (train dashed grey, test solid blue).
    The step axis starts at 0 and spans at least 10 steps, so a fresh network's single record
    still has a readable axis; its labels are whole numbers (1k for 1,000)."""
    return {
        "description": description,
        "height": LINE_HEIGHT, "autosize": {"type": "fit-x", "contains": "padding"},
        "usermeta": {"embedOptions": {"renderer": "svg"}},  # a few paths; labels are elements
        "data": {"name": "history"},
        "datasets": {"history": frame},
        "mark": {"type": "line", "strokeWidth": 2, "interpolate": "monotone", "point": False},
        "encoding": {
            "x": {"field": "step", "type": "quantitative", "title": "step",
                  "scale": {"domain": {"unionWith": [0, 10]}, "nice": True},
                  "axis": {"format": "~s", "tickMinStep": 1, "tickCount": 4}},
            "y": {"field": "value", "type": "quantitative", "title": title, "scale": scale,
                  "axis": {"format": value_format, "tickCount": 4}},
            "color": {"field": "series", "type": "nominal", "title": None,
                      "scale": {"domain": ["train", "test"], "range": ["#6b7280", BLUE]},
                      "legend": {"orient": "bottom", "offset": 4}},
            "strokeDash": {"field": "series", "type": "nominal", "legend": None,
                           "scale": {"domain": ["train", "test"], "range": [[5, 3], [1, 0]]}},
            "tooltip": [{"field": "series"}, {"field": "step"},
                        {"field": "value", "format": value_format}],
        },
    }


def _cell_corners(size: float) -> list[dict]:
    """The transform that gives each cell (lower-left x, y) its far corner (x2, y2)."""
    return [{"calculate": f"datum.x + {size}", "as": "x2"},
            {"calculate": f"datum.y + {size}", "as": "y2"}]


def _diverging(field: str) -> dict:
    return {"field": field, "type": "quantitative", "scale": DIVERGING, "legend": None}
