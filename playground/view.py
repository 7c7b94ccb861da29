"""The app's view model: display options, their URL parameters and the share link's query.

Plain Python, tested with pytest; the pages only move these values between ``st.session_state``,
``st.query_params`` and the widgets (``pages/ui/session.py``).

A link's query is ``graph`` (``share.encode(spec)``: the chosen output travels inside the spec;
left out when it is longer than any link opens, LINK_TOO_LONG) plus one short parameter per
display option that differs from its default: ``show``, ``dir``, ``font`` and ``compact``; and
``ex``, an exercise on the graph, when there is one (and the graph). Reading a
query never raises: a parameter that is not one of its allowed values is ignored, and the
message says what it accepts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from . import limits, share
from .spec import GraphSpec

SHOW_LABELS = {"both": "Both", "value": "Values", "grad": "Gradients"}
"""What each record of the drawing shows -> its label in the sidebar."""
RANKDIR_LABELS = {"auto": "Auto", "LR": "Across →", "TB": "Down ↓"}
"""The drawing's direction -> its label in the sidebar."""
LEGIBLE_PX = 12
"""The smallest text, in CSS pixels, a drawing is shrunk to when fitted to the screen: a laptop
or a projector, read from a distance."""
NARROW_SCREEN = 640
"""A window narrower than this many CSS pixels is a phone's (Streamlit stacks columns there)."""
LEGIBLE_PX_NARROW = 8
"""The smallest text a drawing is shrunk to on a phone, held close and zoomed with a pinch: the
whole of a preset's drawing fits a 390-pixel-wide phone above this size."""
FONT_SIZES = (10, 40)
"""Smallest and largest font size of the drawing."""
LARGE_GRAPH = 60
"""Nodes above which the full (not compact) drawing gets crowded."""
PAGE_FONT_PX = 16
"""The page's root font size at the default Font size: .streamlit/config.toml's
``[theme] baseFontSize``, to which Streamlit sizes all its text (in rem)."""
SIDEBAR_PX = 300
"""Streamlit's sidebar width; projector mode widens it with the text, up to a third of the
window."""
MAIN_SIDE_PX, MAIN_TOP_PX = 80, 96
"""Streamlit's padding (5rem, 6rem) around the page on a wide screen: kept as it is in projector
mode, where the text, not the margins, should grow."""

GRAPH_PARAM = "graph"
EXERCISE_PARAM = "ex"
"""An exercise on the graph (``playground.exercises``): which numbers are hidden, never guesses."""
QUERY_KEYS = (GRAPH_PARAM, "show", "dir", "font", "compact", EXERCISE_PARAM)
"""Every URL parameter the app reads and writes; it leaves any other alone."""
ECHO_CHARS = 40
"""A refused parameter is quoted in the message up to this many characters."""

_FONT = r"[0-9]{1,3}"  # ASCII digits only: "²".isdigit() is True, and int() refuses it


@dataclass(frozen=True)
class Options:
    """How the drawing looks; shared by every page and carried in the share link."""

    show: str = "both"
    rankdir: str = "auto"
    font_size: int = 14
    compact: bool = False

    def layouts(self) -> tuple[str, ...]:
        """The Graphviz rankdirs to draw the graph in: "auto" offers both, across first (as
        micrograd draws), and the browser keeps the one that shows the whole drawing in the room
        left on its screen with the larger text; a chosen direction is the only one."""
        if self.rankdir != "auto":
            return (self.rankdir,)
        return ("LR", "TB")

    def variants(self, n_nodes: int) -> tuple[tuple[str, bool], ...]:
        """(rankdir, compact) of each drawing to send the browser, full drawings first.

        The browser shows the full drawing that fits its screen with the larger text; when even
        that one's smallest text would be under ``LEGIBLE_PX`` it shows the compact drawing
        instead, if that one's text is larger (no op ovals, so half as many shapes in a row).
        A compact drawing chosen in the sidebar, or forced by a crowded graph, is the only kind.
        """
        compact = (True,) if self.compact or self.crowded(n_nodes) else (False, True)
        return tuple((rankdir, c) for c in compact for rankdir in self.layouts())

    def crowded(self, n_nodes: int) -> bool:
        """True when a graph this big needs the compact drawing to stay legible."""
        return n_nodes > LARGE_GRAPH and not self.compact

    def to_query(self) -> dict[str, str]:
        """The URL parameters of the options that differ from the defaults."""
        default = Options()
        query = {}
        if self.show != default.show:
            query["show"] = self.show
        if self.rankdir != default.rankdir:
            query["dir"] = self.rankdir
        if self.font_size != default.font_size:
            query["font"] = str(self.font_size)
        if self.compact != default.compact:
            query["compact"] = "1"
        return query


def options_from_query(query: Mapping[str, str | None]) -> tuple[Options, list[str]]:
    """Options read from URL parameters (absent ones take their defaults), and what was ignored.

    Never raises, whatever the parameters hold: each one that is not an allowed value keeps its
    default and adds one line to the list, saying what it accepts.
    """
    options, ignored = Options(), []
    show, rankdir, font, compact = (query.get(k) for k in ("show", "dir", "font", "compact"))
    if show is not None:
        if show in SHOW_LABELS:
            options = replace(options, show=show)
        else:
            ignored.append(f"show={_echo(show)} (use one of {', '.join(SHOW_LABELS)})")
    if rankdir is not None:
        if rankdir in RANKDIR_LABELS:
            options = replace(options, rankdir=rankdir)
        else:
            ignored.append(f"dir={_echo(rankdir)} (use {', '.join(RANKDIR_LABELS)})")
    if font is not None:
        size = int(font) if isinstance(font, str) and re.fullmatch(_FONT, font) else None
        if size is not None and FONT_SIZES[0] <= size <= FONT_SIZES[1]:
            options = replace(options, font_size=size)
        else:
            ignored.append(f"font={_echo(font)} (use a whole number from {FONT_SIZES[0]} to "
                           f"{FONT_SIZES[1]})")
    if compact is not None:
        if compact in ("0", "1"):
            options = replace(options, compact=compact == "1")
        else:
            ignored.append(f"compact={_echo(compact)} (use 0 or 1)")
    return options, ignored


def changed(options: Options, field: str, value: object) -> Options:
    """``options`` with ``field`` set to ``value`` when it is one of the field's allowed values
    (those a link may give); otherwise, as from a forged request, ``options`` unchanged."""
    allowed = {
        "show": value in SHOW_LABELS,
        "rankdir": value in RANKDIR_LABELS,
        "font_size": isinstance(value, int) and not isinstance(value, bool)
        and FONT_SIZES[0] <= value <= FONT_SIZES[1],
        "compact": isinstance(value, bool),
    }
    return replace(options, **{field: value}) if allowed.get(field) else options


def _echo(value: object) -> str:
    """A refused parameter as the message quotes it: its repr, cut to ECHO_CHARS characters."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 1] + "…"


def page_scale(font_size: int) -> float:
    """How much the page's own text (captions, sentences, tables, metrics, the sidebar) is
    enlarged at this Font size: in proportion above the default, so 28 doubles it for a
    projector; never shrunk below the default, where a small drawing font is for fitting a big
    graph, not for reading the page closer."""
    return max(1.0, font_size / Options().font_size)


def page_style(font_size: int) -> str:
    """The stylesheet that enlarges the page's text at this Font size, or "" at the default.

    Streamlit sizes its text, paddings and the dataframe's cells in rem (the dataframe reads the
    root's font size when it is drawn), so one rule on the root's font size scales them all; the
    sidebar, whose width Streamlit sets in pixels, widens with it up to a third of the window,
    and the page's margins keep their size.
    The drawing has its own font size and fit, in a shadow root: untouched. A fixed text with
    numbers only, nothing a person typed: ``font_size`` is an allowed Font size or refused.
    """
    if not (isinstance(font_size, int) and FONT_SIZES[0] <= font_size <= FONT_SIZES[1]):
        raise ValueError(f"font size {font_size!r} is not one of {FONT_SIZES[0]}..{FONT_SIZES[1]}")
    scale = page_scale(font_size)
    if scale == 1.0:
        return ""
    root = round(PAGE_FONT_PX * scale, 2)
    sidebar = round(SIDEBAR_PX * scale)
    return ("<style>"
            f"html:root {{ font-size: {root}px; }}"
            "section[data-testid='stSidebar'] { "
            f"width: min({sidebar}px, 33vw) !important; "
            f"min-width: min({sidebar}px, 33vw) !important; }}"
            f"@media (min-width: {NARROW_SCREEN}px) {{ "
            "[data-testid='stMainBlockContainer'] { "
            f"padding-left: {MAIN_SIDE_PX}px; padding-right: {MAIN_SIDE_PX}px; "
            f"padding-top: {MAIN_TOP_PX}px; }} }}"
            "</style>")


LINK_TOO_LONG = (
    f"This graph is too big for a link: its link would be longer than the "
    f"{limits.MAX_SHARE_CHARS:,} characters a link may have, so no one could open it. Share it "
    "as a JSON file instead (Import on the Build page opens it)."
)
"""What the share control says instead of a link that could not be opened."""


def share_query(spec: GraphSpec, options: Options) -> dict[str, str]:
    """The URL parameters that reproduce this graph, output and view in a fresh browser; without
    the graph when its link is longer than limits.MAX_SHARE_CHARS (see LINK_TOO_LONG)."""
    link = share.encode(spec)
    graph = {GRAPH_PARAM: link} if len(link) <= limits.MAX_SHARE_CHARS else {}
    return {**graph, **options.to_query()}


def app_query(params: Mapping[str, str]) -> dict[str, str | None]:
    """The app's parameters of a URL query (None where absent); other parameters are not ours."""
    return {key: params.get(key) for key in QUERY_KEYS}


def is_new_link(
    incoming: Mapping[str, str | None], written: Mapping[str, str | None] | None
) -> bool:
    """Whether a running session's URL brings something new: it has some of the app's
    parameters and they differ from what the app last wrote there (someone pasted a link, or the
    browser went back). Switching pages may drop the parameters: that means "nothing new"."""
    return any(v is not None for v in incoming.values()) and dict(incoming) != dict(written or {})


def query_updates(
    params: Mapping[str, str], wanted: Mapping[str, str]
) -> tuple[dict[str, str], list[str]]:
    """What to set and what to delete so that the app's parameters of ``params`` are ``wanted``;
    only what differs, so an address bar that is already right is left untouched."""
    updates = {k: v for k, v in wanted.items() if params.get(k) != v}
    removals = [k for k in QUERY_KEYS if k not in wanted and k in params]
    return updates, removals
