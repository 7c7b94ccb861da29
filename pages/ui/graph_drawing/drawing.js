// The graph drawing of pages/ui/drawing.py: Graphviz's SVG, made on the server, shown at the
// size Graphviz gave it (so its text is the Font size of the sidebar), fitted to the width, with
// zoom and pan by Panzoom (vendor/, prepended to this module), hover text, theme colours and,
// where the page asks for it, a click that picks a node.
//
// data: {drawings: [{rankdir, svg}, ...] widest first, selected: node name or null,
//        clickable: bool, highlight: CSS colour, label: text for screen readers,
//        max_height: the most of the window's height the drawing takes, so the page can still
//        be scrolled beside it}

const Panzoom = globalThis.Panzoom;
const POINT = 4 / 3; // Graphviz measures in points; a CSS pixel is 3/4 of a point
const MAX_SCALE = 8;
const MIN_SCALE = 0.05;
const BUTTON_STEP = 1.4; // one press of zoom in or out
const MIN_HEIGHT = 160;
const CLICK_SLOP = 5; // pixels a pointer may move and still click rather than drag
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
        <button type="button" data-zoom="in" title="Zoom in" aria-label="Zoom in">+</button>
        <button type="button" data-zoom="out" title="Zoom out" aria-label="Zoom out">&minus;</button>
        <button type="button" data-zoom="fit" title="Fit to width" aria-label="Fit to width">&#x2922;</button>
      </div>
      <div class="viewport"><div class="stage"></div></div>`;
    root.appendChild(this.box);
    this.viewport = this.box.querySelector(".viewport");
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
    this.resizes = new ResizeObserver(() => this.layout());
    this.resizes.observe(this.box);
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
  }

  update(data, setTriggerValue) {
    this.data = data;
    this.setTriggerValue = setTriggerValue;
    this.box.classList.toggle("clickable", Boolean(data.clickable));
    this.box.style.setProperty("--highlight", data.highlight);
    this.drawings = data.drawings.map((d) => ({ ...d, size: naturalSize(d.svg) }));
    this.layout();
  }

  // The first drawing that fits the width at full size, else the last (the narrowest).
  choose() {
    const width = this.viewport.clientWidth;
    return this.drawings.find((d) => d.size[0] <= width) ?? this.drawings.at(-1);
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
  }

  show(drawing) {
    const svg = new DOMParser().parseFromString(drawing.svg, "image/svg+xml").documentElement;
    svg.setAttribute("width", `${drawing.size[0]}px`);
    svg.setAttribute("height", `${drawing.size[1]}px`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", this.data.label);
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
    }
    this.stage.replaceChildren(svg);
    this.stage.dataset.rankdir = drawing.rankdir;
    this.shown = drawing;
    this.select();
  }

  // Fit to the width, never beyond full size; the viewport is as tall as the drawing then is.
  fit() {
    const [width, height] = this.shown.size;
    const room = this.viewport.clientWidth;
    const scale = Math.min(1, room / width);
    const tall = Math.min(height * scale, window.innerHeight * this.data.max_height);
    this.viewport.style.height = `${Math.max(MIN_HEIGHT, Math.ceil(tall))}px`;
    this.panzoom.zoom(scale, { animate: false, force: true });
    this.panzoom.pan((room - width * scale) / 2 / scale, 0, { animate: false, force: true });
    this.fitted = true;
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

function sameSize(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}
