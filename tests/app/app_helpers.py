"""AppTest helpers: run the real entry script headless and read what the pages drew.

Imported by the tests in this folder (pytest puts the folder on sys.path).

One run is enough before driving widgets. AppTest turns Streamlit's legacy multipage mode back on
before every run (streamlit/testing/v1/app_test.py resets `PagesManager.uses_pages_directory`,
which runtime/pages_manager.py sets again because a `pages/` folder sits beside the entry script),
so each run of a page other than the default one starts by executing that page file alone, as a
freshly started server does on its first request. The page's first line,
`frame.route_through_entry_script()`, turns the legacy mode off and reruns through the entry
script, so every test sees the page as `st.navigation` runs it, with the same widget identities
on every run (test_every_page_runs_through_the_entry_script checks it).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from streamlit.testing.v1 import AppTest

from pages.ui import frame, keys
from playground import GraphSpec
from playground.errors import from_markdown

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "navigation.py"
PAGES = tuple(f"pages/{file}" for file, _, _ in frame.PAGES)  # as AppTest.switch_page takes them
BUILD, GRAPH, GRADIENTS, GRADIENT_CHECK, BACKPROP, TRAIN, CLASS = PAGES
GRAPH_PAGES = (BUILD, GRAPH, GRADIENTS, GRADIENT_CHECK)
"""The pages that draw the session's graph from its spec when they open."""
TIMEOUT_S = 60
SVG = "{http://www.w3.org/2000/svg}"


def new_app(query: dict[str, str] | None = None, page: str | None = None,
            painted: bool = True) -> AppTest:
    """A fresh session of the app (as a new browser tab would start one), not yet run.

    A browser tab's first run of Build, Gradients or Train draws the page's main content alone
    and asks for the rest (pages/ui/first_paint.py): with `painted`, the session has drawn a
    page before, so every run draws the whole page; without, its first run is a fresh tab's."""
    at = AppTest.from_file(str(ENTRY), default_timeout=TIMEOUT_S)
    if painted:
        at.session_state[keys.PAINTED] = True
    at.query_params.update(query or {})
    if page is not None:
        at.switch_page(page)
    return at


def start(query: dict[str, str] | None = None, page: str | None = None,
          painted: bool = True) -> AppTest:
    """A new session that has run once, so its widgets can be driven."""
    return run(new_app(query, page, painted))


def run(at: AppTest) -> AppTest:
    """Rerun and fail on any exception the script raised (AppTest records, never raises, them)."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page)
    return run(at)


def new_graph(at: AppTest) -> AppTest:
    """Presses the sidebar's New graph (an empty graph, as an edit Undo takes back)."""
    at.button(key=keys.NEW_GRAPH).click()
    return run(at)


def spec_of(at: AppTest) -> GraphSpec:
    return at.session_state[keys.HISTORY].current


@dataclass(frozen=True)
class Drawing:
    """The drawing on a page, as pages/ui/drawing.py sends it: one SVG per (rankdir, compact)
    drawing, full drawings first, for the browser to pick the one that fits its screen best."""

    layouts: tuple[str, ...]  # the rankdirs of the full drawings (the compact ones if none)
    svg: str  # the first drawing's
    selected: str | None
    clickable: bool
    variants: tuple[tuple[str, bool], ...] = ()  # (rankdir, compact) of every drawing sent

    def _nodes(self) -> dict[str, ET.Element]:
        return {g.findtext(f"{SVG}title"): g for g in ET.fromstring(self.svg).iter(f"{SVG}g")
                if "node" in g.get("class", "").split()}

    @property
    def names(self) -> list[str]:
        """The tensors drawn (an op's oval is titled ``<name>#op``)."""
        return [name for name in self._nodes() if not name.endswith("#op")]

    def texts(self, name: str) -> list[str]:
        """The lines of text of node ``name``'s record, top to bottom."""
        return [t.text for t in self._nodes()[name].iter(f"{SVG}text")]

    def role(self, name: str) -> str:
        """The role class of node ``name``: input, const, op, output or flag."""
        return self._nodes()[name].get("class").split()[1]

    @property
    def text(self) -> str:
        """Every line of text in the drawing, one per line."""
        return "\n".join(t.text for t in ET.fromstring(self.svg).iter(f"{SVG}text"))

    @property
    def font_size(self) -> float:
        return float(next(ET.fromstring(self.svg).iter(f"{SVG}text")).get("font-size"))


def drawing_of(at: AppTest) -> Drawing:
    """The drawing on the current page (the component's data; AppTest runs no JavaScript)."""
    drawings = [c for c in at.get("bidi_component")  # not pages/ui/scroll.py's component
                if "drawings" in json.loads(c.proto.json)]
    assert len(drawings) == 1, f"expected one drawing, found {len(drawings)}"
    data = json.loads(drawings[0].proto.json)
    full = [d for d in data["drawings"] if not d["compact"]] or data["drawings"]
    return Drawing(tuple(d["rankdir"] for d in full), data["drawings"][0]["svg"],
                   data["selected"], data["clickable"],
                   tuple((d["rankdir"], d["compact"]) for d in data["drawings"]))


def share_link_of(at: AppTest) -> str | None:
    """The link the sidebar offers to copy (pages/ui/copy_box.py's data), or None."""
    boxes = [json.loads(c.proto.json) for c in at.sidebar.get("bidi_component")]
    links = [b["text"] for b in boxes if b.get("label") == "Link to this graph"]
    assert len(links) <= 1, links
    return links[0] if links else None


def errors_of(at: AppTest) -> list[str]:
    """The error messages on the page, as plain text (the page escapes them for Markdown)."""
    return [from_markdown(e.value) for e in at.error]
