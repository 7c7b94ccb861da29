"""Click-to-update times on the Train page in a real Chromium, one user: what a class feels.

Starts `streamlit run streamlit_app.py` on a free loopback port (or uses `--url`), opens the
Train page once to warm the server, then, `--repeats` times, in a fresh browser session at
1280x800 (or `--viewport`):

- ``first Start``: from navigation start to the *Start* button on the screen;
- ``whole page``: from navigation start to every chart drawn (the page draws its controls
  first and the rest a moment later); the clicks below wait for it, as they did when Start came
  last, so they measure a drawn page, not one still loading its charts' code;
- ``Start``: click to the button reading *Pause*;
- ``Pause (training)``: click, while training, to the button reading *Start*; the step counter
  is then watched for 1.5 s and a run where it moved is counted as "did not stop";
- ``Step``: click to the step counter one higher;
- ``Reset (training)``: click, while training, to the step counter reading 0;
- ``Open graph (training)``: click *Open one sample's graph*, while training, to the Graph
  page's heading.

Every time is measured inside the page (the click is dispatched and the condition polled on
every animation frame, with ``performance.now()``), so Playwright's own polling adds nothing.
The table gives each action's median, 95th percentile and worst in milliseconds. Target: every
p95 under 1,000 ms and the first Start under 2,000 ms on a warm server.

    python benchmarks/train_clicks.py [--repeats 10] [--url http://127.0.0.1:8501]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parent), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

from _timing import print_table  # noqa: E402
from load import Server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

JS_HELPERS = """
window.__train = {
  button(label) {
    return [...document.querySelectorAll('button')].find(
      b => b.innerText.trim().split('\\n').pop().trim() === label);
  },
  step() {
    const metric = [...document.querySelectorAll('[data-testid="stMetric"]')].find(
      m => m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === 'Step');
    return metric ? metric.querySelector('[data-testid="stMetricValue"]').innerText.trim()
                  : null;
  },
  heading(text) {
    return [...document.querySelectorAll('h1')].some(h => h.innerText.trim() === text);
  },
  idle() { return !document.querySelector('[data-testid="stStatusWidget"]'); },
  // Wait for `label` (enabled), click it, then poll `condition` (a function's source) on every
  // frame: milliseconds from the click, or -1 after `timeoutMs`.
  async clickUntil(label, condition, timeoutMs) {
    const done = eval(condition);
    const frame = () => new Promise(r => requestAnimationFrame(r));
    const asked = performance.now();
    let button = this.button(label);
    while (!button || button.disabled) {
      if (performance.now() - asked > timeoutMs) throw new Error('no button ' + label);
      await frame();
      button = this.button(label);
    }
    const before = this.step();
    const start = performance.now();
    button.click();
    while (!done(this, before)) {
      if (performance.now() - start > timeoutMs) return -1;
      await frame();
    }
    return performance.now() - start;
  },
};
"""

CONDITIONS = {  # action -> (button, condition on (helpers, step before the click))
    "Start": ("Start", "(t) => !!t.button('Pause')"),
    "Pause (training)": ("Pause", "(t) => !!t.button('Start')"),
    "Step": ("Step", "(t, before) => t.step() === String(Number(before.replace(/,/g, '')) + 1)"),
    "Reset (training)": ("Reset", "(t) => t.step() === '0' && !!t.button('Start')"),
    "Open graph (training)": ("Open one sample's graph", "(t) => t.heading('Graph')"),
}
ACTIONS = ("first Start", "whole page", *CONDITIONS)
CHARTS = 5
"""Charts the Train page draws (plane, network, loss, accuracy, gradient norms)."""


def click(tab, action: str) -> float:
    label, condition = CONDITIONS[action]
    return tab.evaluate("([l, c]) => window.__train.clickUntil(l, c, 30000)", [label, condition])


def wait_idle(tab) -> None:
    tab.wait_for_function("() => window.__train && window.__train.idle()", polling=50,
                          timeout=60_000)


def open_train(browser, url: str, viewport: tuple[int, int]):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_init_script(JS_HELPERS)
    tab = context.new_page()
    tab.goto(f"{url}/train", wait_until="commit")
    shown = tab.wait_for_function("() => window.__train && window.__train.button('Start') "
                                  "&& performance.now()", polling="raf", timeout=60_000)
    return context, tab, float(shown.json_value())


def paused(tab) -> None:
    """Wait for the page to be idle and paused (pressing Pause again if an earlier one was
    lost, as a person would)."""
    for _ in range(10):
        wait_idle(tab)
        if tab.evaluate("!!window.__train.button('Start')"):
            return
        click(tab, "Pause (training)")
    raise RuntimeError("training never paused")


def train_for(tab, seconds: float) -> None:
    """Start training and let it run (the fragment's timer redraws meanwhile)."""
    paused(tab)
    if click(tab, "Start") < 0:
        raise RuntimeError("Start did not answer")
    tab.wait_for_timeout(seconds * 1000)


def one_session(browser, url: str, viewport, times: dict, stuck: list) -> None:
    context, tab, first = open_train(browser, url, viewport)
    times["first Start"].append(first)
    try:
        drawn = tab.wait_for_function(
            f"() => document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg').length "
            f">= {CHARTS} && performance.now()", polling="raf", timeout=60_000)
        times["whole page"].append(float(drawn.json_value()))
        wait_idle(tab)
        times["Start"].append(click(tab, "Start"))
        tab.wait_for_timeout(1500)
        times["Pause (training)"].append(click(tab, "Pause (training)"))
        stopped_at = tab.evaluate("window.__train.step()")
        tab.wait_for_timeout(1500)
        stuck.append(tab.evaluate("window.__train.step()") != stopped_at
                     or tab.evaluate("!window.__train.button('Start')"))
        paused(tab)
        times["Step"].append(click(tab, "Step"))
        train_for(tab, 1.2)
        times["Reset (training)"].append(click(tab, "Reset (training)"))
        wait_idle(tab)
        train_for(tab, 1.2)
        times["Open graph (training)"].append(click(tab, "Open graph (training)"))
    finally:
        context.close()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--viewport", default="1280x800")
    args = parser.parse_args()
    viewport = tuple(int(v) for v in args.viewport.split("x"))

    from playwright.sync_api import sync_playwright

    server = None if args.url else Server(HERE.parent / "streamlit_app.py", [])
    url = args.url.rstrip("/") if args.url else server.url
    times: dict[str, list[float]] = {action: [] for action in ACTIONS}
    stuck: list[bool] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context, _, _ = open_train(browser, url, viewport)  # warm the server
            context.close()
            started = time.monotonic()
            for _ in range(args.repeats):
                one_session(browser, url, viewport, times, stuck)
            browser.close()
    finally:
        if server is not None:
            server.stop()
    rows = []
    for action in ACTIONS:
        values = [v for v in times[action] if v >= 0]
        lost = len(times[action]) - len(values)
        rows.append([action, f"{statistics.median(values):.0f}" if values else "-",
                     f"{p95(values):.0f}" if values else "-",
                     f"{max(values):.0f}" if values else "-", str(len(values)),
                     str(lost)])
    print(f"Train page, one user, {args.viewport}, {args.repeats} sessions "
          f"({time.monotonic() - started:.0f} s); milliseconds from click to update")
    print_table(["action", "median", "p95", "worst", "n", "timed out (30 s)"], rows)
    print(f"Pause did not stop training: {sum(stuck)} of {len(stuck)}")


if __name__ == "__main__":
    main()
