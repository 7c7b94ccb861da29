"""Vega-Lite specs of the Train page's pictures, as plain dicts (``st.vega_lite_chart`` takes them,
and sends their named tables to the browser as Arrow, not JSON).

Colours are TensorFlow Playground's, a colour-blind-safe diverging pair: orange for negative
(class 0), blue for positive (class 1), a light grey at zero. Lines that must be told apart also
differ in dash or lightness, never in hue alone.
"""

from __future__ import annotations

import pandas as pd

from .datasets import DOMAIN
from .pictures import NetworkPicture

ORANGE, ZERO, BLUE = "#f59322", "#e8eaeb", "#0877bd"
LIGHT_ORANGE, LIGHT_BLUE = "#f9bf7c", "#74aed6"
"""The same two colours mixed with white, for the plane under the points."""
DIVERGING = {"domain": [-1, 0, 1], "range": [ORANGE, ZERO, BLUE], "clamp": True,
             "interpolate": "rgb"}
"""The colour scale of every heat map, point and weight: [-1, 1] through 0, mixed in RGB (Vega's
default, HCL, passes through green on the way from orange to blue)."""
PICK = "pick"
"""The name of the point selection on the data points (what a click chooses)."""
LABEL_WIDTH = 56
"""Pixels left of the network picture for the layer names."""
LABEL_HEIGHT = 16
"""Pixels above the network picture for the input features' names."""
OVERLAP = 1.05
"""Heat-map cells are drawn this much bigger than their spacing, so no hairline of background
shows between neighbours (anti-aliasing would draw one)."""
BOUNDARY_SIZE = 270
"""Pixels of each side of the plane (axes and legend come on top)."""
LINE_HEIGHT = 170


def boundary(grid: pd.DataFrame, points: pd.DataFrame, chosen: pd.DataFrame,
             regression: bool) -> dict:
    """The output over the plane as a heat map, with the data points on top (test points
    ringed in black), the chosen point circled, and a click selecting a point."""
    cell = 2 * DOMAIN / round(len(grid) ** 0.5)
    axis = {"scale": {"domain": [-DOMAIN, DOMAIN], "nice": False}, "type": "quantitative"}
    what = "value" if regression else "class"
    return {
        "width": BOUNDARY_SIZE, "height": BOUNDARY_SIZE, "autosize": {"type": "pad"},
        "usermeta": {"embedOptions": {"renderer": "svg"}},  # each point an element to click
        "datasets": {"grid": grid, "points": points, "chosen": chosen},
        "layer": [
            {"data": {"name": "grid"}, "mark": {"type": "rect"},
             "transform": _cell_corners(cell * OVERLAP),
             "encoding": {"x": {"field": "x", "title": "x₁", **axis}, "x2": {"field": "x2"},
                          "y": {"field": "y", "title": "x₂", **axis}, "y2": {"field": "y2"},
                          "fill": {**_diverging("v"), "scale": {
                              **DIVERGING, "range": [LIGHT_ORANGE, ZERO, LIGHT_BLUE]}}}},
            {"data": {"name": "points"},
             "mark": {"type": "circle", "size": 40, "opacity": 1, "strokeWidth": 1,
                      "cursor": "pointer"},
             "params": [{"name": PICK, "select": {"type": "point", "fields": ["split", "index"],
                                                   "on": "click"}}],
             "encoding": {"x": {"field": "x", **axis}, "y": {"field": "y", **axis},
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
             "encoding": {"x": {"field": "x", **axis}, "y": {"field": "y", **axis}}},
        ],
    }


def network(picture: NetworkPicture) -> dict:
    """Every neuron's heat map in rows of tiles, one row per layer, and the weights as edges
    whose width is the weight's size and whose colour its sign.

    The spec depends on the architecture only, never on the weights, so while training the
    browser swaps the data of the chart it has instead of building a new one (as for every chart
    here)."""
    lay = picture.layout
    x = {"type": "quantitative", "axis": None,
         "scale": {"domain": [-LABEL_WIDTH, lay.width], "nice": False, "zero": False}}
    y = {"type": "quantitative", "axis": None,
         "scale": {"domain": [-LABEL_HEIGHT, lay.height], "nice": False, "zero": False,
                   "reverse": True}}
    cell = lay.tile / lay.cells
    inputs = picture.tiles.iloc[: int((picture.tiles["y"] == 0).sum())]
    return {
        "width": lay.width + LABEL_WIDTH, "height": lay.height + LABEL_HEIGHT,
        "view": {"stroke": None},
        "datasets": {"cells": picture.cells, "tiles": picture.tiles, "edges": picture.edges,
                     "rows": picture.rows, "inputs": inputs},
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
            {"data": {"name": "cells"}, "mark": {"type": "rect"},
             "transform": _cell_corners(cell * OVERLAP),
             "encoding": {"x": {"field": "x", **x}, "y": {"field": "y", **y},
                          "x2": {"field": "x2"}, "y2": {"field": "y2"},
                          "color": _diverging("v")}},
            {"data": {"name": "tiles"},
             "mark": {"type": "rect", "fillOpacity": 0, "stroke": "#6b7280",
                      "strokeWidth": 0.75},
             "transform": _cell_corners(lay.tile),
             "encoding": {"x": {"field": "x", **x}, "y": {"field": "y", **y},
                          "x2": {"field": "x2"}, "y2": {"field": "y2"},
                          "tooltip": [{"field": "name", "title": "neuron"},
                                      {"field": "what", "title": "is"}]}},
            {"data": {"name": "inputs"},
             "mark": {"type": "text", "baseline": "bottom", "dy": -3, "fontSize": 12},
             "transform": [{"calculate": f"datum.x + {lay.tile / 2}", "as": "mid"}],
             "encoding": {"x": {"field": "mid", **x}, "y": {"field": "y", **y},
                          "text": {"field": "name"}}},
            {"data": {"name": "rows"},
             "mark": {"type": "text", "align": "right", "dx": -6, "fontSize": 12},
             "encoding": {"x": {"datum": 0, **x}, "y": {"field": "y", **y},
                          "text": {"field": "text"}}},
        ],
    }


def loss(frame: pd.DataFrame) -> dict:
    """Training and test loss against the step."""
    return _lines(frame, "loss", {"type": "linear", "zero": True})


def accuracy(frame: pd.DataFrame) -> dict:
    """Training and test accuracy against the step."""
    return _lines(frame, "accuracy", {"domain": [0, 1]}, value_format="%")


def gradient_norms(frame: pd.DataFrame) -> dict:
    """Each layer's weight-gradient norm against the step, on a log scale: stacked sigmoids
    show the first layers' norms falling decades below the last one's."""
    spec = _lines(frame, "gradient norm (log scale)", {"type": "log"}, value_format="~e")
    spec["encoding"]["color"] = {"field": "series", "type": "ordinal", "title": None,
                                 "scale": {"scheme": "viridis"},
                                 "legend": {"orient": "bottom", "columns": 3}}
    spec["encoding"].pop("strokeDash")
    return spec


def _lines(frame: pd.DataFrame, title: str, scale: dict, value_format: str = ".3g") -> dict:
    """Lines of ``value`` against ``step`` per ``series`` (train dashed grey, test solid blue)."""
    return {
        "height": LINE_HEIGHT,
        "data": {"name": "history"},
        "datasets": {"history": frame},
        "mark": {"type": "line", "strokeWidth": 2, "interpolate": "monotone"},
        "encoding": {
            "x": {"field": "step", "type": "quantitative", "title": "step"},
            "y": {"field": "value", "type": "quantitative", "title": title, "scale": scale,
                  "axis": {"format": value_format}},
            "color": {"field": "series", "type": "nominal", "title": None,
                      "scale": {"domain": ["train", "test"], "range": ["#6b7280", BLUE]},
                      "legend": {"orient": "bottom"}},
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
