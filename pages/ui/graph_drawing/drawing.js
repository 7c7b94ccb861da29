// The graph drawing of pages/ui/drawing.py: Graphviz's SVG, made on the server, shown at most
// at the size Graphviz gave it (so its text is the Font size of the sidebar) and fitted whole
// into the room left on the screen below its top (its width, and the window's height under it
// with the page scrolled to the top), with zoom and pan by Panzoom (vendor/, prepended to this
// module), hover text, theme colours and, where the page asks for it, a click that picks a node.
// For a screen reader the SVG is a graphics-document (WAI-ARIA Graphics) whose records are
// graphics-symbols named by their hover text (formula, shape, value, grad) in the graph's
// order, with their role as roledescription; the op ovals and edges, which only repeat it, are
// hidden. From the keyboard the records are one Tab stop: arrows walk them in the graph's order
// (the view pans to the one in focus), Enter or Space picks it where a click would, + and -
// zoom, 0 shows the whole drawing, Shift+arrows pan.
//
// Of the drawings sent (each direction, full and compact), the one shown is the full drawing
// whose fitted text is larger; when that text is under legible_px, the compact drawing with the
// larger text if it beats it. A drawing whose text would still be under legible_px is shown at
// legible_px instead, as much as fits, panned to the nodes in focus (or its start), with a note.
//
// data: {drawings: [{rankdir, compact, svg}, ...] full ones first, selected: node name or null,
//        focus: node names to keep in view, clickable: bool, highlight: CSS colour,
//        label: text for screen readers, roles: {SVG class: role in words},
//        legible_px: the smallest text a fit may make,
//        narrow: [width, px]: below that window width (a phone, held close and
//        zoomed with a pinch) a fit may shrink text down to the second number (the compact
//        drawing is still preferred below legible_px),
//        notes: {compact, part}: what the drawing says when compact or shown in part,
//        announce: text a screen reader says when it changes (Step through's step in words;
//        the live region stays on the page across reruns, so each new text is announced)}

const Panzoom = globalThis.Panzoom;
const POINT = 4 / 3; // Graphviz measures in points; a CSS pixel is 3/4 of a point
const MAX_SCALE = 8;
const MIN_SCALE = 0.05;
const BUTTON_STEP = 1.4; // one press of zoom in or out
const MIN_HEIGHT = 160;
const BOTTOM_GAP = 12; // pixels kept free under the drawing, so its border shows
const CLICK_SLOP = 5; // pixels a pointer may move and still click rather than drag
const PAN_STEP = 40; // pixels one Shift+arrow moves the drawing
const FOCUS_MARGIN = 8; // pixels kept between the record in focus (its outline) and the edge
const NEXT = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
const PAN = { ArrowRight: [-1, 0], ArrowLeft: [1, 0], ArrowDown: [0, -1], ArrowUp: [0, 1] };
const XLINK = "http://www.w3.org/1999/xlink";
const SVG = "http://www.w3.org/2000/svg";

const views = new WeakMap(); // the component's root -> its View, kept across reruns

export default function drawGraph({ data, parentElement, setTriggerValue }) {
  let view = views.get(parentElement);
  if (!view) {
    view = new View(parentElement);
    views.set(parentElement, view);
  }
  view.update(data, setTriggerValue);
  return () => {
    view.destroy();
    views.delete(parentElement);
  };
}

class View {
  constructor(root) {
    this.box = document.createElement("div");
    this.box.className = "drawing";
    this.box.dataset.testid = "graph-drawing";
    this.box.innerHTML = `
      <div class="toolbar" role="toolbar" aria-label="Zoom">
        <span class="note" aria-live="polite"></span>
        <button type="button" data-zoom="in" title="Zoom in" aria-label="Zoom in">+</button>
        <button type="button" data-zoom="out" title="Zoom out" aria-label="Zoom out">&minus;</button>
        <button type="button" data-zoom="fit" title="Show the whole drawing" aria-label="Show the whole drawing">&#x2922;</button>
      </div>
      <div class="viewport"><div class="stage"></div></div>
      <p class="announce" role="status" aria-live="polite" aria-atomic="true"></p>`;
    root.appendChild(this.box);
    this.viewport = this.box.querySelector(".viewport");
    this.note = this.box.querySelector(".note");
    this.announce = this.box.querySelector(".announce");
    this.textBox = textBoxRatio(root);
    this.stage = this.box.querySelector(".stage");
    this.panzoom = Panzoom(this.stage, {
      canvas: true, origin: "0 0", maxScale: MAX_SCALE, minScale: MIN_SCALE, cursor: "grab",
    });
    this.fitted = true; // the view is the starting one, so a resize fits it again
    this.shown = null; // {rankdir, svg} on screen
    this.ready = false; // Panzoom pans to its start in a timeout: lay out after it
    setTimeout(() => {
      this.ready = true;
      this.layout();
    });
    this.listen();
    // Refit when the drawing's width changes, when the window's height does, and when what
    // stands above the drawing grows or shrinks (the page's block resizes with it).
    this.resizes = new ResizeObserver(() => this.layout());
    this.resizes.observe(this.box);
    const page = document.querySelector("[data-testid='stMainBlockContainer']");
    if (page) this.resizes.observe(page);
    this.onWindow = () => this.layout();
    window.addEventListener("resize", this.onWindow);
  }

  listen() {
    const wheel = (event) => {
      this.panzoom.zoomWithWheel(event);
      this.fitted = false;
    };
    this.viewport.addEventListener("wheel", wheel, { passive: false });
    this.stage.addEventListener("panzoomstart", () => { this.fitted = false; });
    this.box.querySelector(".toolbar").addEventListener("click", (event) => {
      const zoom = event.target.closest("button")?.dataset.zoom;
      if (zoom === "fit") this.fit();
      else if (zoom) this.zoomBy(zoom === "in" ? BUTTON_STEP : 1 / BUTTON_STEP);
    });
    this.viewport.addEventListener("pointerdown", (event) => {
      this.pressed = [event.clientX, event.clientY];
    });
    this.viewport.addEventListener("click", (event) => this.click(event));
    this.stage.addEventListener("keydown", (event) => this.key(event));
    this.stage.addEventListener("focusin", (event) => this.focusOn(event.target));
  }

  update(data, setTriggerValue) {
    this.data = data;
    this.setTriggerValue = setTriggerValue;
    this.box.classList.toggle("clickable", Boolean(data.clickable));
    this.box.style.setProperty("--highlight", data.highlight);
    if (this.announce.textContent !== (data.announce ?? "")) {
      this.announce.textContent = data.announce ?? "";
    }
    this.drawings = data.drawings.map((d) => ({
      ...d, size: naturalSize(d.svg), text: smallestFont(d.svg) * POINT * this.textBox,
    }));
    this.layout();
  }

  // The room the drawing may fill: its width, and the window's height below the drawing's top
  // as it stands with the page scrolled to the top (at least MIN_HEIGHT).
  room() {
    const top = this.viewport.getBoundingClientRect().top + scroller().scrollTop;
    const height = window.innerHeight - top - BOTTOM_GAP;
    return [this.viewport.clientWidth, Math.max(MIN_HEIGHT, height)];
  }

  // The smallest text a fit may make on this screen.
  legible() {
    const [narrow, small] = this.data.narrow;
    return window.innerWidth < narrow ? small : this.data.legible_px;
  }

  // The scale that shows drawing `d` whole in the room, never above full size.
  fitScale(d, [width, height]) {
    return Math.min(1, width / d.size[0], height / d.size[1]);
  }

  // The full drawing with the larger fitted text; the compact one if that text is too small
  // and the compact drawing's is larger.
  choose() {
    const room = this.room();
    const text = (d) => d.text * this.fitScale(d, room);
    const best = (list) => list.reduce((a, b) => (text(b) > text(a) + 0.01 ? b : a));
    const full = this.drawings.filter((d) => !d.compact);
    const compact = this.drawings.filter((d) => d.compact);
    if (!full.length) return best(compact);
    const chosen = best(full);
    if (text(chosen) >= this.data.legible_px || !compact.length) return chosen;
    const small = best(compact);
    return text(small) > text(chosen) ? small : chosen;
  }

  layout() {
    if (!this.ready || !this.drawings || !this.viewport.clientWidth) return;
    const chosen = this.choose();
    if (!this.shown || chosen.svg !== this.shown.svg) {
      const keep = this.shown && !this.fitted && sameSize(this.shown.size, chosen.size);
      this.show(chosen);
      if (keep) return;
      this.fitted = true;
    }
    if (this.fitted) this.fit();
    this.select();
    this.note.textContent = this.partial ? this.data.notes.part
      : this.shown.compact && this.drawings.some((d) => !d.compact) ? this.data.notes.compact
        : "";
  }

  show(drawing) {
    const svg = new DOMParser().parseFromString(drawing.svg, "image/svg+xml").documentElement;
    svg.setAttribute("width", `${drawing.size[0]}px`);
    svg.setAttribute("height", `${drawing.size[1]}px`);
    svg.setAttribute("role", "graphics-document");
    svg.setAttribute("aria-label", this.data.label);
    svg.querySelector("g.graph > title")?.remove(); // "G", Graphviz's name of the graph
    for (const edge of svg.querySelectorAll("g.edge")) edge.setAttribute("aria-hidden", "true");
    for (const link of svg.querySelectorAll("a")) {
      const text = link.getAttributeNS(XLINK, "title"); // Chromium shows <title>, not this
      if (!text) continue;
      const title = document.createElementNS(SVG, "title");
      title.textContent = text;
      link.prepend(title);
    }
    for (const node of svg.querySelectorAll("g.node")) {
      const shape = node.querySelector("[stroke]:not([fill='none'])");
      if (shape) node.style.setProperty("--role", shape.getAttribute("stroke"));
      node.dataset.name = node.querySelector("title").textContent.replace(/#op$/, "");
      this.describe(node);
    }
    const focused = this.stage.contains(this.box.getRootNode().activeElement)
      && this.focused?.dataset.name;
    this.stage.replaceChildren(svg);
    this.records = [...svg.querySelectorAll("g.node[role='graphics-symbol']")];
    this.focused = this.records.find((n) => n.dataset.name === focused)
      ?? this.records.find((n) => n.dataset.name === this.data.selected) ?? this.records[0];
    this.focused?.setAttribute("tabindex", "0");
    if (focused) this.focused?.focus({ preventScroll: true });
    this.stage.dataset.rankdir = drawing.rankdir;
    this.shown = drawing;
    this.select();
  }

  // Show the whole drawing in the room, never beyond full size and never with text under
  // legible_px: a drawing too big for that is shown in part, panned to its focus or its start.
  fit() {
    const [width, height] = this.shown.size;
    const [roomWidth, roomHeight] = this.room();
    const legible = Math.min(1, this.legible() / this.shown.text);
    const scale = Math.max(this.fitScale(this.shown, [roomWidth, roomHeight]), legible);
    this.partial = width * scale > roomWidth + 1 || height * scale > roomHeight + 1;
    const tall = Math.min(height * scale, roomHeight);
    this.viewport.style.height = `${Math.max(MIN_HEIGHT, Math.ceil(tall))}px`;
    this.panzoom.zoom(scale, { animate: false, force: true });
    let [x, y] = [(roomWidth - width * scale) / 2 / scale, 0];
    if (this.partial) [x, y] = this.towardsFocus(scale, roomWidth, tall);
    this.panzoom.pan(x, y, { animate: false, force: true });
    this.fitted = true;
  }

  // The pan (in drawing units) that centres the nodes in focus (else the selected node), or
  // shows the drawing's start when there are none, within the drawing's bounds.
  towardsFocus(scale, roomWidth, roomHeight) {
    const [width, height] = this.shown.size;
    const names = this.data.focus?.length ? this.data.focus : [this.data.selected];
    const nodes = [...this.stage.querySelectorAll("g.node")]
      .filter((node) => names.includes(node.dataset.name));
    const clamp = (pan, room, size) => Math.min(0, Math.max(pan, room / scale - size));
    if (!nodes.length) return [clamp(0, roomWidth, width), 0];
    const stage = this.stage.getBoundingClientRect();
    const now = this.panzoom.getScale();
    const boxes = nodes.map((node) => node.getBoundingClientRect());
    const centre = (lo, hi) => (Math.min(...boxes.map(lo)) + Math.max(...boxes.map(hi))) / 2;
    const cx = (centre((b) => b.left, (b) => b.right) - stage.left) / now;
    const cy = (centre((b) => b.top, (b) => b.bottom) - stage.top) / now;
    return [clamp(roomWidth / 2 / scale - cx, roomWidth, width),
      clamp(roomHeight / 2 / scale - cy, roomHeight, height)];
  }

  // A record is a graphics-symbol named by its hover text, one line a phrase; an op oval
  // (whose formula the record it points to repeats) is hidden from screen readers.
  describe(node) {
    const role = [...node.classList].find((c) => c in this.data.roles);
    const text = node.querySelector("a")?.getAttributeNS(XLINK, "title");
    if (role === "oval" || !text) {
      node.setAttribute("aria-hidden", "true");
      return;
    }
    node.setAttribute("role", "graphics-symbol");
    if (role) node.setAttribute("aria-roledescription", this.data.roles[role]);
    node.setAttribute("aria-label", text.replace(/\n(?=[^\s[])/g, "; ").replace(/\s+/g, " "));
    node.setAttribute("tabindex", "-1");
  }

  // Keys on a record: walk the records, pick one, zoom, pan.
  key(event) {
    const at = this.records.indexOf(event.target.closest("g.node"));
    if (at < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
    const last = this.records.length - 1;
    let next = null;
    if (event.key in NEXT && event.shiftKey) {
      const [dx, dy] = PAN[event.key];
      this.panzoom.pan(dx * PAN_STEP, dy * PAN_STEP, { relative: true, animate: false });
      this.fitted = false;
    } else if (event.key in NEXT) next = Math.min(last, Math.max(0, at + NEXT[event.key]));
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = last;
    else if (event.key === "+" || event.key === "=") this.zoomBy(BUTTON_STEP);
    else if (event.key === "-") this.zoomBy(1 / BUTTON_STEP);
    else if (event.key === "0") this.fit();
    else if ((event.key === "Enter" || event.key === " ") && this.data.clickable) {
      this.setTriggerValue("node", this.records[at].dataset.name);
    } else return;
    event.preventDefault();
    event.stopPropagation(); // not Streamlit's own shortcuts
    if (next !== null) this.records[next].focus({ preventScroll: true });
  }

  // The record in focus is the drawing's one Tab stop and is panned into view (with a margin
  // for its outline) unless the whole drawing is on the screen.
  focusOn(node) {
    if (!this.records.includes(node)) return;
    for (const record of this.records) record.setAttribute("tabindex", "-1");
    node.setAttribute("tabindex", "0");
    this.focused = node;
    // Tab's focus scrolls the viewport (overflow: hidden) to the node; Panzoom alone moves it.
    this.viewport.scrollTop = 0;
    this.viewport.scrollLeft = 0;
    if (this.fitted && !this.partial) return; // the whole drawing is on the screen
    const box = node.getBoundingClientRect();
    const room = this.viewport.getBoundingClientRect();
    const [left, right] = [room.left + FOCUS_MARGIN, room.right - FOCUS_MARGIN];
    const [top, bottom] = [room.top + FOCUS_MARGIN, room.bottom - FOCUS_MARGIN];
    const dx = Math.max(0, left - box.left) - Math.max(0, box.right - right);
    const dy = Math.max(0, top - box.top) - Math.max(0, box.bottom - bottom);
    if (!dx && !dy) return;
    const scale = this.panzoom.getScale();
    this.panzoom.pan(dx / scale, dy / scale, { relative: true, animate: false });
    this.fitted = false;
  }

  zoomBy(factor) {
    const rect = this.viewport.getBoundingClientRect();
    const centre = { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
    this.panzoom.zoomToPoint(this.panzoom.getScale() * factor, centre, { animate: false });
    this.fitted = false;
  }

  select() {
    for (const node of this.stage.querySelectorAll("g.node")) {
      node.classList.toggle("selected", node.dataset.name === this.data.selected);
    }
  }

  click(event) {
    const [x, y] = this.pressed ?? [event.clientX, event.clientY];
    const dragged = Math.hypot(event.clientX - x, event.clientY - y) > CLICK_SLOP;
    const node = event.target.closest("g.node");
    if (!this.data.clickable || dragged || !node) return;
    this.setTriggerValue("node", node.dataset.name);
  }

  destroy() {
    this.resizes.disconnect();
    window.removeEventListener("resize", this.onWindow);
    this.panzoom.destroy();
    this.box.remove();
  }
}

// The SVG's width and height in CSS pixels ("240pt" in Graphviz's output).
function naturalSize(svg) {
  const head = svg.slice(svg.indexOf("<svg"), svg.indexOf(">", svg.indexOf("<svg")));
  const size = (name) => parseFloat(head.match(new RegExp(`${name}="([0-9.]+)pt"`))[1]) * POINT;
  return [size("width"), size("height")];
}

// The smallest font size written in the SVG (Graphviz's points, the drawing's own units).
function smallestFont(svg) {
  const sizes = [...svg.matchAll(/font-size="([0-9.]+)"/g)].map((m) => parseFloat(m[1]));
  return sizes.length ? Math.min(...sizes) : 14;
}

// The height of a text's box per unit of font size, in the drawing's font (what a reader sees
// as the text's size, and what the browser tests measure).
function textBoxRatio(root) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("style", "position:absolute;visibility:hidden;width:0;height:0");
  const text = document.createElementNS(SVG, "text");
  text.setAttribute("font-family", "Helvetica,sans-Serif");
  text.setAttribute("font-size", "100");
  text.textContent = "value 2.0000";
  svg.appendChild(text);
  root.appendChild(svg);
  const ratio = text.getBBox().height / 100;
  svg.remove();
  return ratio > 0.5 && ratio < 2 ? ratio : 1.15;
}

// The element Streamlit's page scrolls in (its main area), else the document's.
function scroller() {
  return document.querySelector("[data-testid='stMain']") ?? document.scrollingElement;
}

function sameSize(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}
