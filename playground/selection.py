"""What a browser sends back (a chart's or a table's selection, a drawing's click, a widget's
value), checked before any page uses it.

A browser is not trusted: a forged websocket message can put any JSON where a chart's selection
or a table's selected rows go, and a value of any type in a widget. Each function here takes that
raw value and what the page offers, and gives back the choice it names, or None when it names
none of them (the page then keeps what it had). None of them ever raises.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence


def whole_number(value: object) -> int | None:
    """``value`` as an int when it is a whole number: an int (not a bool), or a finite float
    without a fraction (JSON's numbers); None for text, NaN, infinities, lists and the rest."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def index_in(value: object, count: int) -> int | None:
    """``value`` when it is a whole number from 0 to ``count`` - 1 (no negative index)."""
    number = whole_number(value)
    return number if number is not None and 0 <= number < count else None


def chosen_row(rows: object, count: int) -> int | None:
    """The first selected row of a table of ``count`` rows (``st.dataframe``'s
    ``selection.rows``), or None when the selection names no row of it."""
    if not isinstance(rows, Sequence) or isinstance(rows, str) or not rows:
        return None
    return index_in(rows[0], count)


def chosen_name(value: object, names: Collection[str]) -> str | None:
    """``value`` when it is one of ``names`` (a node name from a click, a selectbox)."""
    return value if isinstance(value, str) and value in names else None


def chosen_option(value: object, options: Sequence) -> object | None:
    """``value`` when it equals one of ``options``, by type and value (so True is not 1 and
    1.0 is not 1), else None."""
    for option in options:
        if type(option) is type(value) and option == value:
            return option
    return None


def drawn_node(state: object, names: Collection[str]) -> str | None:
    """The node a click on the drawing names (the component's state, ``{"node": name}``), or
    None when the state names no node of ``names``."""
    return chosen_name(state.get("node"), names) if isinstance(state, Mapping) else None


def chosen_point(points: object, sizes: Mapping[str, int]) -> tuple[str, int] | None:
    """The (split, index) of the first point a chart's point selection names, when that point
    exists: ``sizes`` gives the number of points of each split shown ({"train": 140, ...})."""
    if not isinstance(points, Sequence) or isinstance(points, str) or not points:
        return None
    first = points[0]
    if not isinstance(first, Mapping):
        return None
    return point(first.get("split"), first.get("index"), sizes)


def point(split: object, index: object, sizes: Mapping[str, int]) -> tuple[str, int] | None:
    """(split, index) when ``split`` is one of ``sizes`` and ``index`` one of its points."""
    if not isinstance(split, str) or split not in sizes:
        return None
    number = index_in(index, sizes[split])
    return None if number is None else (split, number)
