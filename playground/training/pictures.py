"""The numbers behind the Train page's pictures, as pandas tables (``charts`` draws them).

Heat maps are small PNG images (``heat_image``: values in [-1, 1] coloured orange, grey, blue),
one per neuron tile and one for the plane, sent as data URLs: the browser draws a few images
instead of thousands of rectangles (the rectangles kept a laptop's browser busy for 0.3 s per
update, so clicks waited; ``benchmarks/train_clicks.py``). The network is a table of neuron
tiles (with their images) and a table of edges, laid out in pixels with one row per layer; the
history is one table per chart, in long form (step, series, value).
"""

from __future__ import annotations

import base64
import struct
import zlib
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import datasets
from .settings import FEATURES
from .trainer import Trainer

BOUNDARY_RESOLUTION = 50
"""Cells along each side of the decision-boundary heat map."""
NETWORK_WIDTH = 300
"""Pixels the widest layer of the network picture takes at most."""
TILE_GAP = 0.2
"""Gap between neighbouring tiles, as a fraction of a tile."""
ROW_GAP = 1.1
"""Gap between layers (where the edges run), as a fraction of a tile."""
TILE_PIXELS = (18, 60)
"""Smallest and largest tile."""
TILE_CELLS = (12, 16)
"""Cells along each side of a neuron's tile: the first for wide layers, the second otherwise."""
ORANGE, ZERO, BLUE = (245, 147, 34), (232, 234, 235), (8, 119, 189)
"""TensorFlow Playground's diverging pair and the grey at zero (``charts`` names them in hex)."""
LIGHT_ORANGE, LIGHT_BLUE = (249, 191, 124), (116, 174, 214)
"""The same two colours mixed with white, for the plane under the points."""


@dataclass(frozen=True)
class NetworkLayout:
    """Where the tiles go: tile size and gaps in pixels, the picture's size, cells per tile."""

    tile: float
    row_step: float
    column_step: float
    width: float
    height: float
    cells: int


def layout(sizes: list[int]) -> NetworkLayout:
    """The layout of a network with ``sizes`` neurons per layer (inputs first, output last)."""
    widest = max(sizes)
    tile = float(np.clip(NETWORK_WIDTH / (widest + (widest - 1) * TILE_GAP), *TILE_PIXELS))
    column_step = tile * (1 + TILE_GAP)
    row_step = tile * (1 + ROW_GAP)
    cells = TILE_CELLS[0] if widest > 8 else TILE_CELLS[1]
    return NetworkLayout(tile, row_step, column_step, widest * column_step - tile * TILE_GAP,
                         (len(sizes) - 1) * row_step + tile, cells)


def signed(values: np.ndarray, regression: bool) -> np.ndarray:
    """The network's outputs on the [-1, 1] colour scale: 2p - 1 for probabilities (so 0.5 is
    the white boundary), values clipped to [-1, 1] for regression."""
    return np.clip(values if regression else 2 * values - 1, -1, 1)


def heat_colours(values: np.ndarray, light: bool = False) -> np.ndarray:
    """RGB bytes of ``values`` on the diverging scale: -1 orange, 0 grey, 1 blue, mixed in RGB
    and clamped (as ``charts.DIVERGING``); NaN is drawn grey. Shape ``values.shape + (3,)``."""
    low, high = (LIGHT_ORANGE, LIGHT_BLUE) if light else (ORANGE, BLUE)
    v = np.clip(np.nan_to_num(np.asarray(values, dtype=np.float64), nan=0.0), -1, 1)[..., None]
    zero = np.array(ZERO, dtype=np.float64)
    side = np.where(v < 0, np.array(low, dtype=np.float64), np.array(high, dtype=np.float64))
    return np.rint(zero + np.abs(v) * (side - zero)).astype(np.uint8)


def png_data_url(rgb: np.ndarray) -> str:
    """An RGB image (rows from the top, uint8) as a ``data:image/png;base64,...`` URL."""
    height, width, _ = rgb.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, -1)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def heat_image(values: np.ndarray, light: bool = False) -> str:
    """A square grid of values in [-1, 1] (rows from the top) as a PNG data URL."""
    return png_data_url(heat_colours(values, light))


def boundary_values(trainer: Trainer, resolution: int = BOUNDARY_RESOLUTION) -> np.ndarray:
    """The output over the plane on the colour scale, ``resolution`` cells a side, rows from the
    top (x₂ = 6) and columns from the left (x₁ = -6)."""
    centres = datasets.grid(resolution)
    out = trainer.predict(datasets.features(centres, trainer.settings.features))[:, 0]
    return signed(out, trainer.settings.regression).reshape(resolution, resolution)


def boundary_frame(values: np.ndarray) -> pd.DataFrame:
    """The plane's picture of ``boundary_values``: one row, its top-left corner (x, y) in data
    units and its image."""
    return pd.DataFrame({"x": [-datasets.DOMAIN], "y": [datasets.DOMAIN],
                         "image": [heat_image(values, light=True)]})


def points_frame(trainer: Trainer, show_test: bool) -> pd.DataFrame:
    """The data points: x, y, v (the label on the colour scale), label (the class, 0 or 1, or
    the value), split and index in it."""
    parts = [("train", trainer.data.train_points, trainer.data.train_labels)]
    if show_test:
        parts.append(("test", trainer.data.test_points, trainer.data.test_labels))
    frames = [pd.DataFrame({
        "x": points[:, 0], "y": points[:, 1],
        "v": signed(labels, trainer.settings.regression), "label": labels, "split": split,
        "index": np.arange(len(points)),
    }) for split, points, labels in parts]
    return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True)
class NetworkPicture:
    """The network picture's tables and layout: one row of ``tiles`` per neuron (x, y, name,
    what, and its heat map as a PNG data URL ``image``), one row of ``edges`` per weight (from
    x, y to x2, y2; weight w, its size relative to the largest weight, and its name), one label
    per layer in ``rows``, and ``heat``, each tile's values (cells by cells, rows from the top)."""

    heat: tuple[np.ndarray, ...]
    tiles: pd.DataFrame
    edges: pd.DataFrame
    rows: pd.DataFrame
    layout: NetworkLayout


def network_picture(trainer: Trainer) -> NetworkPicture:
    """Every neuron's output over the plane as a small heat map, one row of tiles per layer
    (inputs at the top, the output at the bottom), joined by one edge per weight.

    Each tile's colours are its own values divided by their largest magnitude, so a neuron's
    shape shows whatever its range; white is 0.
    """
    settings = trainer.settings
    sizes = [len(settings.features), *settings.hidden, 1]
    lay = layout(sizes)
    centres = datasets.grid(lay.cells)
    outputs = trainer.activations(datasets.features(centres, settings.features))
    heat, tiles = [], []
    names = [[FEATURES[f] for f in settings.features]]
    names += [[f"h{k}[{u}]" for u in range(n)] for k, n in enumerate(settings.hidden, 1)]
    names += [["output"]]
    lefts = [_lefts(n, lay) for n in sizes]
    for r, values in enumerate(outputs):
        if r == len(outputs) - 1:
            values = signed(values, settings.regression)
        else:
            values = values / np.maximum(np.abs(values).max(axis=0), 1e-12)
        top = r * lay.row_step
        for u in range(values.shape[1]):
            heat.append(values[:, u].reshape(lay.cells, lay.cells))
            tiles.append((lefts[r][u], top, names[r][u], _what(trainer, r, u),
                          heat_image(heat[-1])))
    tile_frame = pd.DataFrame(tiles, columns=["x", "y", "name", "what", "image"])
    edges = []
    for k, layer in enumerate(trainer.layers):
        weights = layer.weight.data
        y_from, y_to = k * lay.row_step + lay.tile, (k + 1) * lay.row_step
        for v in range(weights.shape[0]):
            for u in range(weights.shape[1]):
                edges.append((lefts[k][u] + lay.tile / 2, y_from, lefts[k + 1][v] + lay.tile / 2,
                              y_to, weights[v, u], f"W{k + 1}[{v}, {u}]"))
    edge_frame = pd.DataFrame(edges, columns=["x", "y", "x2", "y2", "w", "name"])
    magnitude = edge_frame["w"].abs()
    edge_frame["size"] = magnitude / max(float(magnitude.max()), 1e-12)
    labels = ["inputs", *(f"layer {k}" for k in range(1, len(sizes) - 1)), "output"]
    rows = pd.DataFrame({"y": np.arange(len(sizes)) * lay.row_step + lay.tile / 2,
                         "text": labels})
    return NetworkPicture(tuple(heat), tile_frame, edge_frame, rows, lay)


def _lefts(n: int, lay: NetworkLayout) -> np.ndarray:
    """Left edges of ``n`` tiles centred in the picture's width."""
    used = n * lay.column_step - lay.tile * TILE_GAP
    return (lay.width - used) / 2 + np.arange(n) * lay.column_step


def _what(trainer: Trainer, row: int, unit: int) -> str:
    """A tile's tooltip: the feature, or the neuron's bias."""
    if row == 0:
        return "input feature"
    bias = trainer.layers[row - 1].bias.data[unit]
    kind = "output" if row == len(trainer.layers) else f"{trainer.settings.activation} neuron"
    return f"{kind}, bias {bias:.3g}"


def history_frames(trainer: Trainer) -> dict[str, pd.DataFrame]:
    """The history in long form for the loss, accuracy and gradient-norm charts."""
    records = trainer.history
    steps = [r.step for r in records]
    loss = pd.DataFrame({
        "step": steps * 2,
        "series": ["train"] * len(records) + ["test"] * len(records),
        "value": [r.train_loss for r in records] + [r.test_loss for r in records],
    })
    accuracy = pd.DataFrame({
        "step": steps * 2,
        "series": ["train"] * len(records) + ["test"] * len(records),
        "value": [r.train_accuracy for r in records] + [r.test_accuracy for r in records],
    }).dropna()
    layers = len(trainer.layers)
    norm_rows = [(r.step, _layer_name(k, layers), norm)
                 for r in records for k, norm in enumerate(r.grad_norms, 1) if norm > 0]
    gradients = pd.DataFrame(norm_rows, columns=["step", "series", "value"])
    return {"loss": _finite(loss), "accuracy": accuracy, "gradients": _finite(gradients)}


def _layer_name(k: int, layers: int) -> str:
    return f"output (W{k})" if k == layers else f"layer {k} (W{k})"


def _finite(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows with a finite value: a diverged step has nothing to draw."""
    return frame[np.isfinite(frame["value"].to_numpy(dtype=float))]
