"""The Train page's loop against the same loop in PyTorch: 1,000 Adam steps of a 2-16-16-1 tanh
network on 200 points, full batch, measured in the same run.

    python benchmarks/train.py [--repeats 7] [--steps 1000]

Each case trains a fresh network (built untimed) for ``--steps`` steps; the repeats of all cases
run interleaved, the collector enabled as in the app, and the table shows each case's median,
its spread over the repeats and its ratio to PyTorch (float64, the engine's precision, one
thread, so neither side gets a second core the other lacks). Rows:

- ``page loop``: ``Trainer.step``, exactly what the Train page runs (sigmoid, then the loss);
- ``engine loop``: the same network and loss written directly with ``autograd.nn`` and
  ``autograd.optim``, without the page's bookkeeping;
- ``pytorch float64`` (the baseline) and ``pytorch float32`` (PyTorch's default precision).

Before timing, each engine trains once and the final losses are compared, so the benchmark never
times a wrong answer. Target: the page loop in under 3 s and at most 1.0x PyTorch.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parent), str(HERE)):  # the repository's packages, and _timing beside us
    if path not in sys.path:
        sys.path.insert(0, path)

from _timing import Case, print_table, time_cases  # noqa: E402

import autograd as ag  # noqa: E402
from autograd import nn, optim  # noqa: E402
from autograd.nn import functional as F  # noqa: E402
from playground.training import Trainer, TrainSettings  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

TARGET_SECONDS = 3.0
TARGET_RATIO = 1.0
LOSSES = {"bce": "binary cross-entropy", "mse": "mean squared error"}


def settings(loss: str) -> TrainSettings:
    """Moons, 400 points of which 200 train; 2-16-16-1 tanh; Adam at 0.01; full batch."""
    return TrainSettings(dataset="moons", points=400, train_percent=50, hidden=(16, 16),
                         activation="tanh", loss=loss, optimizer="adam", learning_rate="0.01",
                         batch_size=0, seed=0)


def page_loop(loss: str, steps: int) -> Case:
    def run(trainer):
        for _ in range(steps):
            trainer.step()
        return trainer.last_loss
    return Case(run=run, setup=lambda: Trainer(settings(loss)))


def engine_loop(loss: str, steps: int) -> Case:
    def setup():
        trainer = Trainer(settings(loss))  # the same data and initial weights
        model = nn.Sequential(*trainer.model)
        x, y = ag.tensor(trainer.train_x), ag.tensor(trainer.train_y)
        return model, optim.Adam(model.parameters(), lr=0.01), x, y

    def run(state):
        model, opt, x, y = state
        for _ in range(steps):
            p = model(x).sigmoid()
            value = F.binary_cross_entropy(p, y) if loss == "bce" else F.mse_loss(p, y)
            opt.zero_grad()
            value.backward()
            opt.step()
        return float(value.data)
    return Case(run=run, setup=setup)


def torch_loop(loss: str, steps: int, dtype) -> Case:
    def setup():
        trainer = Trainer(settings(loss))
        layers = []
        for k, layer in enumerate(trainer.layers):
            linear = torch.nn.Linear(*reversed(layer.weight.shape), dtype=dtype)
            with torch.no_grad():
                linear.weight.copy_(torch.from_numpy(layer.weight.data))
                linear.bias.copy_(torch.from_numpy(layer.bias.data))
            layers += [linear] if k == len(trainer.layers) - 1 else [linear, torch.nn.Tanh()]
        model = torch.nn.Sequential(*layers)
        x = torch.from_numpy(trainer.train_x).to(dtype)
        y = torch.from_numpy(trainer.train_y).to(dtype)
        return model, torch.optim.Adam(model.parameters(), lr=0.01), x, y

    def run(state):
        model, opt, x, y = state
        for _ in range(steps):
            p = torch.sigmoid(model(x))
            value = (torch.nn.functional.binary_cross_entropy(p, y) if loss == "bce"
                     else torch.nn.functional.mse_loss(p, y))
            opt.zero_grad()
            value.backward()
            opt.step()
        return value.item()
    return Case(run=run, setup=setup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    if torch is not None:
        torch.set_num_threads(1)
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"PyTorch {torch.__version__ if torch else 'not installed'}, {os.cpu_count()} cores; "
          f"{args.steps} steps, {args.repeats} repeats\n")

    rows, verdicts = [], []
    for loss, title in LOSSES.items():
        cases = {"page loop": page_loop(loss, args.steps),
                 "engine loop": engine_loop(loss, args.steps)}
        if torch is not None:
            cases["pytorch float64"] = torch_loop(loss, args.steps, torch.float64)
            cases["pytorch float32"] = torch_loop(loss, args.steps, torch.float32)
        finals = {name: case.run(case.setup()) for name, case in cases.items()}
        for name, final in finals.items():
            tolerance = 1e-3 if name.endswith("float32") else 1e-9
            if abs(final - finals["page loop"]) > tolerance * max(1.0, abs(final)):
                raise SystemExit(f"{name} ends at loss {final!r}, the page loop at "
                                 f"{finals['page loop']!r}: not the same computation")
        timings = time_cases(cases, args.repeats, warmup=0)
        baseline = timings["pytorch float64"].median if torch is not None else None
        for name, timing in timings.items():
            ratio = f"{timing.median / baseline:.2f}x" if baseline else "n/a"
            rows.append([title, name, f"{timing.median:.3f}", f"{timing.spread:.2f}x", ratio])
        page = timings["page loop"].median
        verdicts.append(f"{title}: page loop {page:.3f} s "
                        f"(target < {TARGET_SECONDS:.0f} s: "
                        f"{'PASS' if page < TARGET_SECONDS else 'MISS'})"
                        + (f", {page / baseline:.2f}x PyTorch float64 (target <= "
                           f"{TARGET_RATIO:.1f}x: "
                           f"{'PASS' if page / baseline <= TARGET_RATIO else 'MISS'})"
                           if baseline else ""))

    print_table(["loss", "loop", "median s", "spread", "vs pytorch float64"], rows)
    print()
    print("\n".join(verdicts))
    print("spread = slowest or fastest repeat against the median, whichever strays further.")


if __name__ == "__main__":
    main()
