"""The graph's drawing, as the Build, Graph and Gradients pages show it, and its legend.

Graphviz's `dot` (the apt package in packages.txt) makes the SVG on the server and a component
of ours (graph_drawing/) shows it: fitted whole into the room left on the screen, zoomable and
pannable, in the theme's colours, with each node's hover text. `st.graphviz_chart` could not
show the sidebar's Font size: its container styles every element inside it, SVG text included,
with one small font size (`"& *": {fontSize: ...}` in Streamlit's GraphVizChart), and a CSS
rule beats the `font-size` attribute Graphviz writes on each text. The component keeps the SVG
in its own shadow root, where no page style reaches. Where `dot` is missing,
`st.graphviz_chart` still draws the graph, and FALLBACK_STYLE gives its text back the font size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import streamlit as st

from pages.ui import cached, keys
from pages.ui import session as state
from playground import limits, render, view

ALT = "Computation graph with values and gradients"
FALLBACK_STYLE = (
    "<style>[data-testid='stGraphVizChart'] svg text { font-size: revert-layer !important; }"
    "</style>"
)
"""Gives st.graphviz_chart's text back the size Graphviz wrote on it: `revert-layer` drops
Streamlit's rule, which sits in no cascade layer, and falls back to the SVG's own attribute."""
COMPACT_NOTE = "Drawn compact to fit the screen: hover over a node for all its numbers."
"""Shown on the drawing when the browser chose the compact drawing for larger text."""
PART_NOTE = ("Too big to show whole at a readable size: drag to see the rest, or press − to "
             "zoom out.")
"""Shown on the drawing when even its compact form would shrink its text below
`view.LEGIBLE_PX`."""
_ASSETS = Path(__file__).with_name("graph_drawing")
_COMPONENT = st.components.v2.component(
    "graph_drawing",
    css=_ASSETS.with_name("component_buttons.css").read_text(encoding="utf-8") + "\n"
    + (_ASSETS / "drawing.css").read_text(encoding="utf-8"),
    js=(_ASSETS / "vendor" / "panzoom-4.6.2.min.js").read_text(encoding="utf-8") + "\n"
    + (_ASSETS / "drawing.js").read_text(encoding="utf-8"),
)


def sources(spec_json: str) -> list[tuple[str, bool, str]]:
    """(rankdir, compact, DOT source) of each drawing the sidebar's options allow
    (`view.Options.variants`), full drawings first."""
    opts = state.options()
    return [(rankdir, compact,
             cached.dot(spec_json, opts.show, rankdir, opts.font_size, compact))
            for rankdir, compact in opts.variants(len(state.spec()))]


def drawing_source(spec_json: str) -> str:
    """The DOT source of the drawing's first layout, for the Graph page's downloads."""
    return sources(spec_json)[0][2]


def drawing(spec_json: str, selected: str | None = None,
            on_select: Callable[[str], None] | None = None) -> None:
    """The graph drawn with the sidebar's options, with a hint when it is too big to read.

    `selected` is outlined; with `on_select`, a click on a node calls it with the node's name.
    """
    opts, n_nodes = state.options(), len(state.spec())
    if opts.crowded(n_nodes):
        st.info(f"This graph has {n_nodes} nodes: it is drawn compact, without the op ovals and "
                "the numbers of larger tensors (hover over a node for them).",
                icon=":material/info:")
    show(sources(spec_json), selected, on_select)


def show(layouts: list[tuple[str, bool, str]], selected: str | None = None,
         on_select: Callable[[str], None] | None = None, focus: tuple[str, ...] = (),
         announce: str = "") -> None:
    """Draw (rankdir, compact, DOT source) drawings, full ones first. The browser fits the
    drawing to the room left on its screen, in both directions, and keeps the drawing whose
    text comes out larger (`view.Options.variants`); `focus` (Step through's nodes in focus)
    is panned into view when the drawing is too big to fit whole; `announce` is said by a screen
    reader each time it changes (a live region of the drawing). A drawing over
    `limits.MAX_DRAWN_SHAPES`, or one Graphviz could not lay out (no `dot` program here), is
    laid out by the browser instead: the last one, without zoom or theme colours."""
    small = all(render.shape_count(dot) <= limits.MAX_DRAWN_SHAPES for _, _, dot in layouts)
    svgs = ([cached.svg(dot, limits.MAX_DRAWN_SECONDS)[0] for _, _, dot in layouts] if small
            else [None])
    if None in svgs:
        st.html(FALLBACK_STYLE)
        st.graphviz_chart(layouts[-1][2], alt=ALT)
        return
    callbacks = {"on_node_change": lambda: _picked(on_select)} if on_select else {}
    _COMPONENT(
        key=keys.DRAWING,
        data={
            "drawings": [{"rankdir": rankdir, "compact": compact, "svg": svg}
                         for (rankdir, compact, _), svg in zip(layouts, svgs)],
            "selected": selected,
            "focus": list(focus),
            "clickable": on_select is not None,
            "highlight": render.HIGHLIGHT,
            "label": ALT,
            "roles": render.ROLE_WORDS,
            "legible_px": view.LEGIBLE_PX,
            "narrow": [view.NARROW_SCREEN, view.LEGIBLE_PX_NARROW],
            "notes": {"compact": COMPACT_NOTE, "part": PART_NOTE},
            "announce": announce,
        },
        **callbacks,
    )
    st.caption("Scroll or pinch to zoom, drag to move, **⤢** to see the whole drawing again; "
               "hover over a node for its full value and gradient"
               + ("; click a node to see it in detail." if on_select else ".")
               + " Keyboard: Tab to the drawing, arrows walk its nodes, + and − zoom, 0 fits, "
               "Shift+arrows move it" + (", Enter picks a node." if on_select else "."))


def _picked(on_select: Callable[[str], None]) -> None:
    """A click on the drawing: its node's name to ``on_select`` (a forged state is ignored;
    the page checks the name against its graph)."""
    clicked = st.session_state.get(keys.DRAWING)
    name = clicked.get("node") if isinstance(clicked, Mapping) else None
    if isinstance(name, str):
        on_select(name)


def legend() -> None:
    """What the shapes, borders and colours of the drawing mean (colour is never the only cue)."""
    st.markdown(
        "**Reading the drawing**\n\n"
        "- :blue-background[input]: a leaf that requires grad; backward fills in its gradient\n"
        "- :gray-background[constant]: a leaf without gradient, with rounded corners\n"
        "- :orange-background[oval]: the operation that made the record it points to\n"
        "- :green-background[output]: thick border; backward starts here, with gradient 1\n"
        "- :red-background[flagged]: dashed border and ⚠; NaN or infinity first appears here\n"
        "- :gray-background[not used]: dotted border, greyed; the output is not computed from "
        "it, so it has no gradient to show\n\n"
        "Each record reads *name | shape | value | grad*. A gradient is d(output)/d(node): "
        "how much the output moves per unit change of that node."
    )
