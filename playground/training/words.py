"""The output plane in words, for a reader who cannot see its colours (WCAG 1.1.1): how much of
the plane the network gives each colour, in which parts of it, where it is unsure, and how many
points it gets right. The Train page shows the sentence under the plane; it changes as training
does."""

from __future__ import annotations

import numpy as np

from .trainer import Record

PARTS = (("top left", "top", "top right"),
         ("left", "centre", "right"),
         ("bottom left", "bottom", "bottom right"))
"""The plane's nine parts, rows from the top (x₂ = 6) and columns from the left (x₁ = −6), as
the heat map's grid runs."""
UNSURE = 0.2
"""Outputs within this of 0 on the colour scale are unsure: a probability of blue between 40
and 60 % (a regression output between −0.2 and 0.2)."""


def plane(values: np.ndarray, regression: bool, record: Record) -> str:
    """One sentence on the output plane: ``values`` are ``pictures.boundary_values`` (the
    output on the [−1, 1] colour scale, rows from the top), ``record`` the trainer's last."""
    blue = values > 0  # the class the accuracy counts: a probability of blue over 50 %
    if regression:
        colours = ("negative (orange)", "positive (blue)")
        said = (f"The network's output is negative (orange) on {_percent(1 - blue.mean())} of "
                f"the plane and positive (blue) on {_percent(blue.mean())}")
        unsure = "near 0 (between −0.2 and 0.2)"
    else:
        colours = ("orange", "blue")
        said = (f"The network calls {_percent(1 - blue.mean())} of the plane orange and "
                f"{_percent(blue.mean())} blue")
        unsure = "unsure (a probability of blue between 40 and 60 %)"
    said += ": " + _where(blue, colours)
    near = np.abs(values) < UNSURE
    if near.any():
        said += f"; {unsure} on {_percent(near.mean())} of it"
    if record.train_accuracy is not None:
        said += f". It classifies {_percent(record.train_accuracy)} of the training points right"
        if record.test_accuracy is not None:
            said += f" and {_percent(record.test_accuracy)} of the test points"
    return said + "."


def _where(blue: np.ndarray, colours: tuple[str, str]) -> str:
    """Which parts of the plane are mostly each colour: the colour of fewer parts by name, the
    other one "elsewhere"."""
    rows = np.array_split(np.arange(blue.shape[0]), 3)
    columns = np.array_split(np.arange(blue.shape[1]), 3)
    mostly_blue = {PARTS[i][j]: blue[np.ix_(r, c)].mean() > 0.5
                   for i, r in enumerate(rows) for j, c in enumerate(columns)}
    named = {colour: [part for part, b in mostly_blue.items() if b == is_blue]
             for colour, is_blue in zip(colours, (False, True))}
    fewer, more = sorted(colours, key=lambda colour: len(named[colour]))
    if not named[fewer]:
        return f"mostly {more} in every part"
    return f"{fewer} in the {_listed(named[fewer])}, {more} elsewhere"


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _percent(share: float) -> str:
    return f"{100 * share:.0f} %"
