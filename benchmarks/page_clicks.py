"""First paint and click-to-update times of every page in a real Chromium, one user.

Starts `streamlit run streamlit_app.py` on a free loopback port with the shipped
.streamlit/config.toml (or uses `--url`), opens every page once to warm the server, then
`--repeats` times, each in a fresh browser session (a student opening a link) at 1280x800 (or
`--viewport`):

- ``first paint``: from navigation start to the page's title and its main content on the
  screen (the drawing's first node, Gradient check's result, Step through's step sentence, the
  Train page's *Start*, the Live class's *Join*);
- one click per page, from the click to the change on the screen: Build *Load a preset*
  (the drawing shows the preset's nodes), Graph *Show on each node: Values* (no gradient left in
  the drawing), Gradients a click on node c (its detail below), Gradient check a larger ε (the
  result for it), Step through *Next* (step 1's sentence), Live class *Open a room* (the
  room's join code); then on Build a second click in the same session, on the *Expression*
  tab (its text box on the screen: only the open tab's form is built, so a tab switch reruns).

The same first paint is measured on a three-line Streamlit app (`load.BASELINE_APP`: one
graphviz chart) under the same settings, so the table says what this app's code costs over
Streamlit's own. Times are taken inside the page (`performance.now()` on every animation
frame), so Playwright's polling adds nothing. Targets: first paint ≤ 2,000 ms, every click's
p95 ≤ 1,000 ms on a warm server. The Train page's clicks while training are
benchmarks/train_clicks.py's.

    python benchmarks/page_clicks.py [--repeats 10] [--url http://127.0.0.1:8501]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parent), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

from _timing import print_table  # noqa: E402
from load import Server, write_baseline_app  # noqa: E402
from train_clicks import ARGS, CHROMIUM, p95  # noqa: E402

JS_HELPERS = """
window.__pages = {
  // Every element matching `selector`, in the page and in the components' shadow roots.
  all(selector, root = document) {
    const found = [...root.querySelectorAll(selector)];
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) found.push(...this.all(selector, host.shadowRoot));
    }
    return found;
  },
  text(selector) { return this.all(selector).map(e => e.textContent).join(' '); },
  title(text) {
    return [...document.querySelectorAll('h1')].some(h => h.innerText.trim() === text);
  },
  idle() { return !document.querySelector('[data-testid="stStatusWidget"]'); },
  // Poll `condition` (a function's source) on every frame: milliseconds since navigation.
  async until(condition, timeoutMs) {
    const done = eval(condition);
    const frame = () => new Promise(r => requestAnimationFrame(r));
    while (!done(this)) {
      if (performance.now() > timeoutMs) return -1;
      await frame();
    }
    return performance.now();
  },
  // Click what `target` (a function's source) returns once it exists, then poll `condition`
  // on every frame: milliseconds from the click, or -1 after `timeoutMs`.
  async clickUntil(target, condition, timeoutMs) {
    const find = eval(target), done = eval(condition);
    const frame = () => new Promise(r => requestAnimationFrame(r));
    const asked = performance.now();
    let element = find(this);
    while (!element) {
      if (performance.now() - asked > timeoutMs) throw new Error('nothing to click: ' + target);
      await frame();
      element = find(this);
    }
    const box = element.getBoundingClientRect();
    const at = {bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2};
    const start = performance.now();
    element.dispatchEvent(new PointerEvent('pointerdown', at));
    element.dispatchEvent(new MouseEvent('mousedown', at));
    element.dispatchEvent(new PointerEvent('pointerup', at));
    element.dispatchEvent(new MouseEvent('mouseup', at));
    element.dispatchEvent(new MouseEvent('click', at));
    while (!done(this)) {
      if (performance.now() - start > timeoutMs) return -1;
      await frame();
    }
    return performance.now() - start;
  },
};
"""

NODES = "[data-testid='graph-drawing'] svg g.node"
PAINTED = {  # page: (address, its title, what shows that its content is on the screen)
    "Build": ("", "Build", f"(p) => p.all(\"{NODES}\").length > 0"),
    "Graph": ("graph", "Graph", f"(p) => p.all(\"{NODES}\").length > 0"),
    "Gradients": ("gradients", "Gradients", f"(p) => p.all(\"{NODES}\").length > 0"),
    "Gradient check": ("gradient_check", "Gradient check",
                       "(p) => p.text('[data-testid=stAlert]').includes('finite-difference')"),
    "Step through": ("backprop", "Step through",
                     "(p) => p.text('[data-testid=stMain] p').includes('Step 0 of')"),
    "Train": ("train", "Train", "(p) => p.all('button').some(b => b.innerText.endsWith('Start'))"),
    "Live class": ("class", "Live class",
                   "(p) => p.all('button').some(b => b.innerText.endsWith('Join'))"),
}
BUTTON = "(p) => p.all('button').find(b => b.innerText.trim().split('\\n').pop() === '{}')"
CLICKS = {  # page: (action, what to click, what shows the answer)
    "Build": ("Load a preset",
              None,  # a selectbox: opened by Playwright, the option clicked in the page
              f"(p) => p.all(\"{NODES}\").length > 6"),
    "Graph": ("Show: Values",
              "(p) => p.all('[data-testid=stSidebar] button').find("
              "b => b.innerText.trim() === 'Values')",
              f"(p) => p.all(\"{NODES}\").length > 0"
              f" && !p.text(\"{NODES} text\").includes('grad')"),
    "Gradients": ("click node c",
                  f"(p) => p.all(\"{NODES}\").find(g => g.querySelector('title')"
                  "?.textContent === 'c')",
                  "(p) => p.text('.katex annotation').includes("
                  "'\\\\partial \\\\mathit{c}}{\\\\partial \\\\mathit{a}}')"),
    "Gradient check": ("larger ε",
                       "(p) => p.all('[data-testid=stMain] [role=slider]')[0]",
                       "(p) => p.text('[data-testid=stMetricValue]') !== window.__before"),
    "Step through": ("Next", BUTTON.format("Next"),
                     "(p) => p.text('[data-testid=stMain] p').includes('Step 1 of')"),
    "Live class": ("Open a room", BUTTON.format("Open a room"),
                   "(p) => p.text('[data-testid=stMain] h3').includes('Preparing the lesson')"),
}

SECOND_CLICKS = {  # page: a second click in the same session, (action, what to click, answer)
    "Build": ("Expression tab",
              "(p) => [...document.querySelectorAll('[role=tab]')].find("
              "t => t.innerText.trim() === 'Expression')",
              "(p) => [...document.querySelectorAll('[data-testid=stMain] textarea')].some("
              "t => t.getClientRects().length > 0)"),
}


def first_paint(browser, url: str, page: str, viewport) -> tuple[object, object, float]:
    """A fresh session opening `page`: (context, tab, milliseconds to its content)."""
    path, title, painted = PAINTED[page]
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_init_script(JS_HELPERS)
    tab = context.new_page()
    tab.goto(f"{url}/{path}", wait_until="commit")
    tab.wait_for_function("() => !!window.__pages", polling="raf", timeout=60_000)
    shown = tab.evaluate(
        "([t, c]) => window.__pages.until(`(p) => p.title('${t}') && (${c})(p)`, 60000)",
        [title, painted])
    return context, tab, float(shown)


def click(tab, page: str, action: tuple[str, str | None, str]) -> float:
    """Milliseconds from the page's click `action` (CLICKS') to its answer on the screen."""
    name, target, condition = action
    tab.wait_for_function("() => window.__pages.idle()", polling=50, timeout=60_000)
    tab.wait_for_timeout(300)  # the drawing's fit after the last run
    if name == "Load a preset":
        tab.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(
            has_text="Load a preset").click()
        target = ("(p) => [...document.querySelectorAll('[role=option]')].find("
                  "o => o.innerText.includes('Two-layer MLP'))")
    if page == "Gradient check":  # a key press, not a click: one step up the slider
        tab.get_by_test_id("stMain").get_by_role("slider").first.focus()
        tab.evaluate("() => { window.__before = window.__pages.text("
                     "'[data-testid=stMetricValue]'); addEventListener('keydown', () => { "
                     "window.__pressed = performance.now(); }, {capture: true, once: true}); }")
        tab.keyboard.press("ArrowRight")
        return tab.evaluate("(c) => window.__pages.until(c, performance.now() + 30000)"
                            ".then(t => t < 0 ? t : t - window.__pressed)", condition)
    return tab.evaluate("([t, c]) => window.__pages.clickUntil(t, c, 30000)", [target, condition])


def baseline_paint(browser, viewport, repeats: int) -> list[float]:
    """First paint of the three-line app (its graphviz chart) under the same settings."""
    with tempfile.TemporaryDirectory() as folder:
        server = Server(write_baseline_app(Path(folder)), [])
        times = []
        try:
            for i in range(repeats + 1):
                context = browser.new_context(
                    viewport={"width": viewport[0], "height": viewport[1]})
                context.add_init_script(JS_HELPERS)
                tab = context.new_page()
                tab.goto(server.url, wait_until="commit")
                tab.wait_for_function("() => !!window.__pages", polling="raf", timeout=60_000)
                shown = tab.evaluate("() => window.__pages.until("
                                     "`(p) => p.all('[data-testid=stGraphVizChart] svg')"
                                     ".length > 0`, 60000)")
                if i:  # the first one warms the server
                    times.append(float(shown))
                context.close()
        finally:
            server.stop()
    return times


def row(name: str, values: list[float]) -> list[str]:
    ok = [v for v in values if v >= 0]
    cells = ([f"{statistics.median(ok):.0f}", f"{p95(ok):.0f}", f"{max(ok):.0f}"] if ok
             else ["-", "-", "-"])
    return [name, *cells, str(len(ok)), str(len(values) - len(ok))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--viewport", default="1280x800")
    parser.add_argument("--pages", default=",".join(PAINTED),
                        help="comma-separated page titles (default: all)")
    args = parser.parse_args()
    viewport = tuple(int(v) for v in args.viewport.split("x"))
    pages = [p.strip() for p in args.pages.split(",")]

    from playwright.sync_api import sync_playwright

    server = None if args.url else Server(HERE.parent / "streamlit_app.py", [])
    url = args.url.rstrip("/") if args.url else server.url
    paint = {page: [] for page in pages}
    clicks = {(page, action[0]): [] for page in pages
              for action in (CLICKS.get(page), SECOND_CLICKS.get(page)) if action}
    started, load_before = time.monotonic(), os.getloadavg()[0]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for page in pages:  # warm the server: every page once
                context, _, _ = first_paint(browser, url, page, viewport)
                context.close()
            for _ in range(args.repeats):
                for page in pages:
                    context, tab, shown = first_paint(browser, url, page, viewport)
                    try:
                        paint[page].append(shown)
                        for action in (CLICKS.get(page), SECOND_CLICKS.get(page)):
                            if action:
                                clicks[page, action[0]].append(click(tab, page, action))
                    finally:
                        context.close()
            base = [] if args.url else baseline_paint(browser, viewport, args.repeats)
            browser.close()
    finally:
        if server is not None:
            server.stop()
    print(f"Every page, one user, {args.viewport}, {args.repeats} fresh sessions each "
          f"({time.monotonic() - started:.0f} s, load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after: other work on the machine slows every row); "
          "milliseconds")
    rows = [row(f"{page}: first paint", paint[page]) for page in pages]
    if base:
        rows.append(row("three-line app: first paint", base))
    rows += [row(f"{page}: {action}", times) for (page, action), times in clicks.items()]
    print_table(["what", "median", "p95", "worst", "n", "timed out"], rows)


if __name__ == "__main__":
    main()
