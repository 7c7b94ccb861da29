"""Convolution and pooling benchmarks: our autograd against PyTorch CPU eager, in the same run.

Run from the repository root:
    python benchmarks/conv.py [--quick] [--threads N]

Workloads (forward and backward, a fresh graph each call, float32 and float64):
- conv2d: a (64, 3, 32, 32) batch through 16 3x3 filters with bias, padding=1; target <= 1.5x
  PyTorch;
- max_pool2d: 2x2 windows, stride 2, on a (64, 16, 32, 32) batch; target <= 2x PyTorch.

Repeats run interleaved (ours, PyTorch, ours, ...) with the garbage collector on, as in a user's
program; each row shows the median, the ratio ours / PyTorch and its target with PASS or MISS, and
"spread", how far our slowest or fastest repeat strays from our median. NumPy's BLAS and PyTorch
get the same number of threads (--threads, default 1). Before timing, each workload runs once in
both engines and the outputs and gradients are compared, so a wrong answer is never timed.
"""

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parent), str(HERE)):  # the repository's autograd, and the helpers beside us
    if path not in sys.path:
        sys.path.insert(0, path)

from _timing import Case, engine_arguments, print_table, time_cases  # noqa: E402
from engine import machine_report  # noqa: E402 - one way to set and report threads

import autograd as ag  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

CONV_INPUT, CONV_WEIGHT = (64, 3, 32, 32), (16, 3, 3, 3)
POOL_INPUT = (64, 16, 32, 32)
TARGETS = {"conv2d": 1.5, "max_pool2d": 2.0}
FULL, QUICK = (21, 3, 3), (3, 1, 1)  # (repeats, calls per repeat, warm-up calls)


def workloads(dtype):
    """name -> (input arrays, our function, PyTorch's), the same maths on the same numbers."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(CONV_INPUT).astype(dtype)
    w = (rng.standard_normal(CONV_WEIGHT) / 3).astype(dtype)
    b = rng.standard_normal(CONV_WEIGHT[0]).astype(dtype)
    pooled = rng.standard_normal(POOL_INPUT).astype(dtype)
    tf = torch.nn.functional if torch is not None else None
    return {
        "conv2d": ((x, w, b), lambda x, w, b: ag.conv2d(x, w, b, padding=1),
                   lambda x, w, b: tf.conv2d(x, w, b, padding=1)),
        "max_pool2d": ((pooled,), lambda x: ag.max_pool2d(x, 2),
                       lambda x: tf.max_pool2d(x, 2)),
    }


def ours_case(arrays, fn):
    """Forward and backward from fresh leaves, seeded with ones as y.sum().backward() would."""

    def setup():
        return [ag.tensor(a, requires_grad=True) for a in arrays]

    def run(leaves):
        out = fn(*leaves)
        out.backward(np.ones(out.shape, dtype=out.dtype))
        return out, leaves

    return Case(run, setup)


def torch_case(arrays, fn):
    def setup():
        return [torch.tensor(a, requires_grad=True) for a in arrays]

    def run(leaves):
        out = fn(*leaves)
        out.backward(torch.ones_like(out))
        return out, leaves

    return Case(run, setup)


def check(name, cases):
    """Stop the run if the engines disagree on the output or any gradient."""
    (ours, our_leaves), (theirs, their_leaves) = (case.run(case.setup()) for case in cases)
    tol = {"rtol": 1e-4, "atol": 1e-4} if ours.dtype == np.float32 else {"rtol": 1e-9,
                                                                         "atol": 1e-9}
    pairs = [(ours.data, theirs.detach().numpy(), "output")]
    pairs += [(a.grad.data, b.grad.numpy(), f"gradient {i}")
              for i, (a, b) in enumerate(zip(our_leaves, their_leaves, strict=True))]
    for got, want, what in pairs:
        if got.shape != want.shape or not np.allclose(got, want, **tol):
            sys.exit(f"check failed: {name} {what} differs from PyTorch")


def main(argv=None):
    parser = engine_arguments(__doc__)
    args = parser.parse_args(argv)
    print("\n".join(machine_report(args.threads)))
    repeats, number, warmup = QUICK if args.quick else FULL
    print(f"run     : {'--quick' if args.quick else 'full'}; {repeats} repeats of {number} calls, "
          f"{warmup} warm-up calls, interleaved, garbage collector on\n")
    rows = []
    for dtype in (np.float32, np.float64):
        for name, (arrays, ours_fn, torch_fn) in workloads(dtype).items():
            cases = {"ours": ours_case(arrays, ours_fn)}
            if torch is not None:
                cases["torch"] = torch_case(arrays, torch_fn)
                check(f"{name} {np.dtype(dtype).name}", list(cases.values()))
            timings = time_cases(cases, repeats, number, warmup)
            ours = timings["ours"].median * 1e3
            theirs = timings["torch"].median * 1e3 if "torch" in timings else None
            ratio = None if theirs is None else ours / theirs
            verdict = "n/a" if ratio is None else ("PASS" if ratio <= TARGETS[name] else "MISS")
            rows.append([f"{name} forward+backward, {np.dtype(dtype).name}", f"{ours:.2f}",
                         "n/a" if theirs is None else f"{theirs:.2f}",
                         "n/a" if ratio is None else f"{ratio:.2f}×",
                         f"≤ {TARGETS[name]:.1f}× PyTorch", verdict,
                         f"{timings['ours'].spread:.2f}×"])
    print_table(["benchmark", "ours ms", "PyTorch ms", "vs PyTorch", "target", "result",
                 "spread"], rows)
    print(f"\nconv2d: input {CONV_INPUT}, weight {CONV_WEIGHT}, bias, padding=1. max_pool2d: "
          f"input {POOL_INPUT}, kernel 2, stride 2.\nEach call builds fresh leaves (untimed), "
          "runs forward and backward with a gradient of ones. Ratios are ours / PyTorch: below 1 "
          "means ours is faster.")


if __name__ == "__main__":
    main()
