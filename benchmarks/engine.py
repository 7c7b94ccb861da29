"""Engine benchmarks: our autograd against PyTorch CPU eager and hand-written NumPy.

Run from the repository root:
    python benchmarks/engine.py [--quick] [--only NAME[,NAME]] [--threads N] [--gc-freeze]
                                [--profile]
(--profile prints cProfile's costliest functions of our engine instead of timing.)

Every number is the median of several repeats; the repeats of the engines being compared run
interleaved, so a slow moment of the machine hurts all of them alike. The garbage collector runs
as in a user's program (see _timing.time_cases); --gc-freeze hides the objects alive before
timing from it, as earlier versions of this script did. Each row shows ratios (ours / baseline)
against baselines measured in the same run, the target and PASS or MISS; "spread" is how far our
slowest or fastest repeat strays from our median, and has a target of its own.
PyTorch is optional: without it, its columns read "n/a". Before timing, every workload is run once
in each engine and the results are compared, so a benchmark never times a wrong answer.
"""

import cProfile
import ctypes
import gc
import os
import platform
import pstats
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parent), str(HERE)):  # the repository's autograd, and _timing beside us
    if path not in sys.path:
        sys.path.insert(0, path)

from _timing import (  # noqa: E402
    Case,
    Timing,
    engine_arguments,
    malloc_in_use,
    print_table,
    time_cases,
    traced_peak_bytes,
)

import autograd as ag  # noqa: E402
from autograd import nn, optim  # noqa: E402
from autograd.nn import functional as F  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

BENCHMARKS = ("overhead", "mlp", "deep", "fanin", "scalar")
CHAIN_OPS = 2_000
CHAIN_SHAPE = (16,)
DEEP_OPS = 100_000
FAN_IN = 10_000
MLP_SIZES = (784, 256, 128, 10)
MLP_BATCH = 64
MLP_LR = 0.01
SCALAR_SIZES = (2, 16, 16, 1)

MLP_MEMORY_LIMIT = 1.0  # peak of a training step, ours / hand-written NumPy's (tracemalloc)
SPREAD_LIMIT = 1.3  # our slowest and fastest repeat within this factor of our median

# (repeats, calls per repeat, warm-up calls) for each benchmark, full run and --quick.
FULL = {"overhead": (25, 5, 2), "mlp": (25, 10, 3), "deep": (7, 1, 1), "fanin": (11, 1, 1),
        "scalar": (25, 5, 2)}
QUICK = {"overhead": (3, 1, 1), "mlp": (3, 2, 1), "deep": (1, 1, 0), "fanin": (2, 1, 0),
         "scalar": (3, 1, 1)}


@dataclass
class Row:
    """One line of the table: our number, the baselines', and the target ours must meet."""

    label: str
    unit: str
    ours: float
    torch: float | None
    numpy: float | None
    basis: str  # "torch" or "numpy": the target is a ratio against it; "absolute": a limit on ours
    limit: float
    strict: bool = False
    timing: Timing | None = None  # ours, for the spread over repeats
    calls: int = 1  # calls per repeat

    @property
    def spread(self):
        """Ours: max(slowest / median, median / fastest) over repeats."""
        return None if self.timing is None else self.timing.spread

    def collections_note(self):
        """The full collections inside our timed calls, and the spread without them."""
        seconds = self.timing.full_collection_seconds
        if not seconds:
            return f"{self.label}: none"
        return (f"{self.label}: {len(seconds)}, {statistics.median(seconds) * 1e3:.0f} ms each "
                f"(median); spread without them "
                f"{self.timing.spread_without_full_collections(self.calls):.2f}×")

    def measured(self):
        if self.basis == "absolute":
            return self.ours
        baseline = self.torch if self.basis == "torch" else self.numpy
        return None if baseline is None else self.ours / baseline

    def target(self):
        sign = "<" if self.strict else "≤"
        if self.basis == "absolute":
            return f"{sign} {self.limit:,.0f} {self.unit}"
        name = "PyTorch" if self.basis == "torch" else "NumPy"
        return f"{sign} {self.limit:.2f}× {name}"

    def result(self):
        value = self.measured()
        if value is None:
            return "n/a"
        met = value < self.limit if self.strict else value <= self.limit
        return "PASS" if met else "MISS"

    def cells(self):
        return [
            self.label, self.unit, _number(self.ours), _number(self.torch), _number(self.numpy),
            _ratio(self.ours, self.torch), _ratio(self.ours, self.numpy), self.target(),
            self.result(), _spread_cell(self.spread),
        ]


def _spread_cell(spread):
    if spread is None:
        return ""
    verdict = "PASS" if spread <= SPREAD_LIMIT else "MISS"
    return f"{spread:.2f}× {verdict}"


def _number(value):
    if value is None:
        return "n/a"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def _ratio(ours, baseline):
    return "n/a" if baseline is None else f"{ours / baseline:.2f}×"


# ---------------------------------------------------------------- engines as leaf factories


def ours_leaf(array, requires_grad=False):
    return ag.tensor(array, requires_grad=requires_grad)


def torch_leaf(array, requires_grad=False):
    return torch.tensor(array, requires_grad=requires_grad)


def _check(name, got, want, rtol=1e-10, atol=1e-10):
    """Stop the run when two engines disagree: timing a wrong answer would be worse than useless."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        worst = np.max(np.abs(got - want))
        sys.exit(f"check failed: {name} differs by up to {worst:.3g} (rtol={rtol}, atol={atol})")


# ---------------------------------------------------------------- elementwise chains


def elementwise_chain(y, w, b, n_ops):
    """n_ops ops cycling y * w, y + b, tanh(y): the same Python code drives every engine."""
    for i in range(n_ops):
        step = i % 3
        if step == 0:
            y = y * w
        elif step == 1:
            y = y + b
        else:
            y = y.tanh()
    return y


def chain_case(leaf, shape, n_ops):
    """Build the leaves untimed; time the chain, a final sum and its backward."""
    rng = np.random.default_rng(0)
    x, w, b = (rng.uniform(-1.0, 1.0, shape) for _ in range(3))

    def setup():
        return leaf(x), leaf(w, True), leaf(b, True)

    def run(state):
        x_leaf, w_leaf, b_leaf = state
        elementwise_chain(x_leaf, w_leaf, b_leaf, n_ops).sum().backward()

    return Case(run, setup)


def numpy_chain_case(shape, n_ops):
    """The chain with a hand-written tape in NumPy: the floor for a Python-level engine."""
    rng = np.random.default_rng(0)
    x, w, b = (rng.uniform(-1.0, 1.0, shape) for _ in range(3))

    def run(_):
        tape, y = [], x
        for i in range(n_ops):
            step = i % 3
            if step == 0:
                tape.append(y)
                y = y * w
            elif step == 1:
                tape.append(None)
                y = y + b
            else:
                y = np.tanh(y)
                tape.append(y)
        grad, grad_w, grad_b = np.ones_like(y), np.zeros_like(w), np.zeros_like(b)
        for i in range(n_ops - 1, -1, -1):
            step, saved = i % 3, tape[i]
            if step == 0:
                grad_w = grad_w + grad * saved
                grad = grad * w
            elif step == 1:
                grad_b = grad_b + grad
            else:
                grad = grad * (1.0 - saved * saved)
        return grad_w, grad_b

    return Case(run)


def torch_chain_bytes(n_ops, shape):
    """Bytes PyTorch's graph holds at its largest (after forward or after backward), via malloc."""
    rng = np.random.default_rng(0)
    x, w, b = (torch_leaf(rng.uniform(-1.0, 1.0, shape), i > 0) for i in range(3))
    before = malloc_in_use()
    if before is None:
        return None
    total = elementwise_chain(x, w, b, n_ops).sum()
    after_forward = malloc_in_use()
    total.backward()
    return max(after_forward, malloc_in_use()) - before


def bench_overhead(config, freeze_gc):
    cases = {"ours": chain_case(ours_leaf, CHAIN_SHAPE, CHAIN_OPS)}
    if torch is not None:
        cases["torch"] = chain_case(torch_leaf, CHAIN_SHAPE, CHAIN_OPS)
    _check_chain(cases, CHAIN_SHAPE, CHAIN_OPS, "op overhead chain")
    timings = time_cases(cases, *config, freeze_gc=freeze_gc)
    per_op = {name: t.median / CHAIN_OPS * 1e6 for name, t in timings.items()}
    return [Row("op overhead (2,000-op chain)", "µs/op", per_op["ours"], per_op.get("torch"),
                None, "torch", 0.8, timing=timings["ours"], calls=config[1])]


def _check_chain(cases, shape, n_ops, name):
    want = numpy_chain_case(shape, n_ops).run(None)
    for engine, case in cases.items():
        state = case.setup()
        case.run(state)
        for leaf, expected, label in zip(state[1:], want, "wb", strict=True):
            _check(f"{name}: {engine} grad of {label}", leaf.grad.numpy(), expected)


def bench_deep(config, freeze_gc):
    shape = ()
    cases = {"ours": chain_case(ours_leaf, shape, DEEP_OPS),
             "numpy": numpy_chain_case(shape, DEEP_OPS)}
    if torch is not None:
        cases["torch"] = chain_case(torch_leaf, shape, DEEP_OPS)
    _check_chain({k: v for k, v in cases.items() if k != "numpy"}, shape, DEEP_OPS, "deep chain")
    timings = time_cases(cases, *config, freeze_gc=freeze_gc)
    times = {name: t.median for name, t in timings.items()}
    ours_bytes = traced_peak_bytes(cases["ours"]) / DEEP_OPS
    numpy_bytes = traced_peak_bytes(cases["numpy"]) / DEEP_OPS
    torch_bytes = torch_chain_bytes(DEEP_OPS, shape) if torch is not None else None
    return [
        Row("deep chain (100,000 ops), time", "s", times["ours"], times.get("torch"),
            times["numpy"], "torch", 1.0, timing=timings["ours"], calls=config[1]),
        Row("deep chain, peak memory", "B/op", ours_bytes,
            None if torch_bytes is None else torch_bytes / DEEP_OPS, numpy_bytes,
            "absolute", 800, strict=True),
    ]


# ---------------------------------------------------------------- fan-in


def fan_in_case(leaf):
    """Leaves untimed; time 10,000 products a_i * b_i, their sum as a chain of adds, backward."""
    rng = np.random.default_rng(1)
    a_values, b_values = rng.uniform(-1.0, 1.0, (2, FAN_IN))

    def setup():
        return ([leaf(np.array(v), True) for v in a_values],
                [leaf(np.array(v), True) for v in b_values])

    def run(state):
        a_leaves, b_leaves = state
        products = [a * b for a, b in zip(a_leaves, b_leaves, strict=True)]
        total = products[0]
        for product in products[1:]:
            total = total + product
        total.backward()

    return Case(run, setup), b_values


def bench_fanin(config, freeze_gc):
    case, want = fan_in_case(ours_leaf)
    cases = {"ours": case}
    if torch is not None:
        cases["torch"] = fan_in_case(torch_leaf)[0]
    for engine, case in cases.items():
        state = case.setup()
        case.run(state)
        _check(f"fan-in: {engine} grad of a_i", [a.grad.item() for a in state[0]], want)
    timings = time_cases(cases, *config, freeze_gc=freeze_gc)
    times = {name: t.median for name, t in timings.items()}
    return [Row("fan-in (sum of 10,000 products)", "ms", times["ours"] * 1e3,
                _scaled(times.get("torch"), 1e3), None, "torch", 0.7,
                timing=timings["ours"], calls=config[1])]


def _scaled(value, factor):
    return None if value is None else value * factor


# ---------------------------------------------------------------- scalar MLP


def scalar_mlp_case(leaf):
    """micrograd's demo network from 0-d tensors: each neuron is b + sum of w_i * x_i, then tanh.

    Parameters are built once, as in training; setup only clears their gradients.
    """
    rng = np.random.default_rng(2)
    layers = []
    for fan_in, fan_out in zip(SCALAR_SIZES[:-1], SCALAR_SIZES[1:], strict=True):
        weights = [[leaf(np.array(v), True) for v in row]
                   for row in rng.uniform(-1.0, 1.0, (fan_out, fan_in))]
        biases = [leaf(np.array(v), True) for v in rng.uniform(-1.0, 1.0, fan_out)]
        layers.append((weights, biases))
    inputs = [leaf(np.array(v)) for v in rng.uniform(-1.0, 1.0, SCALAR_SIZES[0])]
    parameters = [p for weights, biases in layers for row in weights for p in row] + [
        b for _, biases in layers for b in biases]

    def setup():
        for p in parameters:
            p.grad = None

    def run(_):
        h = inputs
        for depth, (weights, biases) in enumerate(layers):
            out = []
            for row, bias in zip(weights, biases, strict=True):
                act = bias
                for w, x in zip(row, h, strict=True):
                    act = act + w * x
                out.append(act.tanh() if depth < len(layers) - 1 else act)
            h = out
        loss = (h[0] - 0.5) ** 2
        loss.backward()

    return Case(run, setup), parameters


def bench_scalar(config, freeze_gc):
    cases, grads = {}, {}
    for engine, leaf in (("ours", ours_leaf), ("torch", torch_leaf)):
        if engine == "torch" and torch is None:
            continue
        cases[engine], parameters = scalar_mlp_case(leaf)
        cases[engine].setup()
        cases[engine].run(None)
        grads[engine] = [p.grad.item() for p in parameters]
    if "torch" in grads:
        _check("scalar MLP: ours vs torch parameter grads", grads["ours"], grads["torch"])
    timings = time_cases(cases, *config, freeze_gc=freeze_gc)
    times = {name: t.median for name, t in timings.items()}
    return [Row("scalar MLP 2-16-16-1 (0-d tensors)", "ms", times["ours"] * 1e3,
                _scaled(times.get("torch"), 1e3), None, "torch", 1.0, strict=True,
                timing=timings["ours"], calls=config[1])]


# ---------------------------------------------------------------- MLP training step


def mlp_data(dtype):
    """A batch, integer targets and PyTorch-layout weights (out, in), the same for every engine."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((MLP_BATCH, MLP_SIZES[0])).astype(dtype)
    y = rng.integers(0, MLP_SIZES[-1], MLP_BATCH)
    params = []
    for fan_in, fan_out in zip(MLP_SIZES[:-1], MLP_SIZES[1:], strict=True):
        bound = 1.0 / np.sqrt(fan_in)
        params.append(rng.uniform(-bound, bound, (fan_out, fan_in)).astype(dtype))
        params.append(rng.uniform(-bound, bound, fan_out).astype(dtype))
    return x, y, params


class NumpyMLP:
    """The training step by hand: forward, the backward worked out on paper, SGD in place."""

    def __init__(self, params):
        self.params = [p.copy() for p in params]

    def step(self, x, y):
        w1, b1, w2, b2, w3, b3 = self.params
        n, rows = len(y), np.arange(len(y))
        z1 = x @ w1.T
        z1 += b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2.T
        z2 += b2
        h2 = np.maximum(z2, 0)
        z3 = h2 @ w3.T
        z3 += b3
        z3 -= z3.max(axis=1, keepdims=True)
        e = np.exp(z3)
        s = e.sum(axis=1, keepdims=True)
        loss = np.log(s[:, 0]).mean() - z3[rows, y].mean()
        g3 = e / s
        g3[rows, y] -= 1
        g3 /= n
        g2 = g3 @ w3
        g2 *= z2 > 0
        g1 = g2 @ w2
        g1 *= z1 > 0
        grads = (g1.T @ x, g1.sum(axis=0), g2.T @ h1, g2.sum(axis=0), g3.T @ h2, g3.sum(axis=0))
        for param, grad in zip(self.params, grads, strict=True):
            grad *= MLP_LR
            param -= grad
        return float(loss)


def _ours_mlp(params):
    layers = []
    for i in range(0, len(params), 2):
        out_features, in_features = params[i].shape
        layer = nn.Linear(in_features, out_features)
        layer.weight = ag.tensor(params[i].copy(), requires_grad=True)
        layer.bias = ag.tensor(params[i + 1].copy(), requires_grad=True)
        layers += [layer, nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def _torch_mlp(params):
    layers = []
    for i in range(0, len(params), 2):
        out_features, in_features = params[i].shape
        layer = torch.nn.Linear(in_features, out_features, dtype=torch.from_numpy(params[i]).dtype)
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(params[i]))
            layer.bias.copy_(torch.from_numpy(params[i + 1]))
        layers += [layer, torch.nn.ReLU()]
    return torch.nn.Sequential(*layers[:-1])


def plain_loss(x, y, rows, params, row_max):
    """The step's loss written with plain ops, as a student would: ``x @ W + b`` (W stored
    (in, out)), relu, and cross-entropy as log-sum-exp minus the picked logit, shifted by the
    row maximum taken as a constant. ``row_max(z)`` is the engine's spelling of that maximum."""
    w1, b1, w2, b2, w3, b3 = params
    h = (x @ w1 + b1).relu()
    h = (h @ w2 + b2).relu()
    z = h @ w3 + b3
    shift = row_max(z.detach())
    log_sum_exp = (z - shift).exp().sum(1).log() + shift.reshape(-1)
    return (log_sum_exp - z[rows, y]).mean()


def mlp_cases(dtype):
    """One SGD step per call, in each engine, from the same weights, plus a one-step check.

    ``ours`` and ``torch`` use the fused layers (nn.Linear, F.cross_entropy); ``ours_plain`` and
    ``torch_plain`` the same step written with plain ops (``plain_loss``)."""
    x, y, params = mlp_data(dtype)
    reference = NumpyMLP(params)
    cases = {"numpy": Case(lambda _: reference.step(x, y))}
    rows = np.arange(len(y))

    model = _ours_mlp(params)
    opt = optim.SGD(model.parameters(), lr=MLP_LR)
    x_ours, y_ours = ag.tensor(x), ag.tensor(y)

    def ours_step(_):
        opt.zero_grad()
        loss = F.cross_entropy(model(x_ours), y_ours)
        loss.backward()
        opt.step()
        return loss

    plain = [ag.tensor(p.T.copy() if p.ndim == 2 else p.copy(), requires_grad=True)
             for p in params]
    plain_opt = optim.SGD(plain, lr=MLP_LR)

    def ours_plain_step(_):
        plain_opt.zero_grad()
        loss = plain_loss(x_ours, y, rows, plain, lambda z: z.max(axis=1, keepdims=True))
        loss.backward()
        plain_opt.step()
        return loss

    cases["ours"] = Case(ours_step)
    cases["ours_plain"] = Case(ours_plain_step)
    engines = {"ours": lambda: [p.numpy() for p in model.parameters()],
               "ours_plain": lambda: [p.numpy().T for p in plain]}

    if torch is not None:
        torch_model = _torch_mlp(params)
        torch_opt = torch.optim.SGD(torch_model.parameters(), lr=MLP_LR)
        x_torch, y_torch = torch.from_numpy(x), torch.from_numpy(y)

        def torch_step(_):
            torch_opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(torch_model(x_torch), y_torch)
            loss.backward()
            torch_opt.step()
            return loss

        torch_plain = [torch.tensor(p.T.copy() if p.ndim == 2 else p.copy(), requires_grad=True)
                       for p in params]
        torch_plain_opt = torch.optim.SGD(torch_plain, lr=MLP_LR)
        rows_torch = torch.from_numpy(rows)

        def torch_plain_step(_):
            torch_plain_opt.zero_grad()
            loss = plain_loss(x_torch, y_torch, rows_torch, torch_plain,
                              lambda z: z.amax(dim=1, keepdim=True))
            loss.backward()
            torch_plain_opt.step()
            return loss

        cases["torch"] = Case(torch_step)
        cases["torch_plain"] = Case(torch_plain_step)
        engines["torch"] = lambda: [p.detach().numpy() for p in torch_model.parameters()]
        engines["torch_plain"] = lambda: [p.detach().numpy().T for p in torch_plain]

    tol = {"rtol": 1e-8, "atol": 1e-8} if dtype == np.float64 else {"rtol": 1e-4, "atol": 1e-5}
    want_loss = cases["numpy"].run(None)
    for engine, parameters in engines.items():
        _check(f"MLP {np.dtype(dtype).name}: {engine} loss", cases[engine].run(None).item(),
               want_loss, **tol)
        for i, (got, want) in enumerate(zip(parameters(), reference.params, strict=True)):
            _check(f"MLP {np.dtype(dtype).name}: {engine} parameter {i} after one step", got,
                   want, **tol)
    return cases


def bench_mlp(config, freeze_gc):
    rows = []
    for dtype in (np.float64, np.float32):
        name = np.dtype(dtype).name
        cases = mlp_cases(dtype)
        timings = time_cases(cases, *config, freeze_gc=freeze_gc)
        ms = {engine: t.median * 1e3 for engine, t in timings.items()}
        rows.append(Row(f"MLP step 784-256-128-10, fused, {name}", "ms", ms["ours"],
                        ms.get("torch"), ms["numpy"], "numpy", 1.05,
                        timing=timings["ours"], calls=config[1]))
        rows.append(Row(f"MLP step 784-256-128-10, plain ops, {name}", "ms", ms["ours_plain"],
                        ms.get("torch_plain"), ms["numpy"], "numpy", 1.15,
                        timing=timings["ours_plain"], calls=config[1]))
        if dtype == np.float64:
            kib = {engine: traced_peak_bytes(cases[engine]) / 1024
                   for engine in ("numpy", "ours", "ours_plain")}
            rows.append(Row("MLP step, fused, peak memory", "KiB", kib["ours"], None,
                            kib["numpy"], "numpy", MLP_MEMORY_LIMIT))
            rows.append(Row("MLP step, plain ops, peak memory", "KiB", kib["ours_plain"], None,
                            kib["numpy"], "numpy", MLP_MEMORY_LIMIT))
    return rows


# ---------------------------------------------------------------- machine and main


def _openblas_call(name, restype=ctypes.c_int):
    """A function of the OpenBLAS library NumPy loaded (scipy-openblas symbol names), or None."""
    libs = Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(libs.glob("*openblas*")):
        lib = ctypes.CDLL(str(path))
        for suffix in ("64_", "_64", ""):
            fn = getattr(lib, f"scipy_openblas_{name}{suffix}", None)
            if fn is not None:
                fn.restype = restype
                return fn
    return None


def set_threads(threads):
    """Give NumPy's BLAS and PyTorch the same number of threads; return what BLAS reports.

    One thread is the default: on a small machine shared with other work, a BLAS or OpenMP
    thread that loses its core stalls every matmul (a 2 ms step then takes 100 ms).
    """
    setter = _openblas_call("set_num_threads", restype=None)
    if setter is not None:
        setter(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    getter = _openblas_call("get_num_threads")
    return None if getter is None else getter()


def machine_report(threads):
    """Describe the machine and set the thread count of both engines."""
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    blas_threads = set_threads(threads)
    corename = _openblas_call("get_corename", restype=ctypes.c_char_p)
    core = corename().decode() if corename is not None else "unknown"
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text()
                .splitlines() if line.startswith("model name")), platform.processor())
    lines = [
        f"machine : {cpu}, {os.cpu_count()} cores ({len(os.sched_getaffinity(0))} usable), "
        f"{platform.system()} {platform.machine()}",
        f"python  : {platform.python_version()}, numpy {np.__version__}, "
        f"BLAS {blas['name']} {blas['version']} (core {core}), BLAS threads: {blas_threads}",
    ]
    if torch is not None:
        lines.append(f"torch   : {torch.__version__}, intra-op threads: {torch.get_num_threads()}")
    else:
        lines.append("torch   : not installed (its columns read n/a)")
    env = ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
    lines.append("env     : " + ", ".join(f"{k}={os.environ.get(k, '(unset)')}" for k in env))
    return lines


NOTES = """\
op overhead: 2,000 ops cycling y*w, y+b, tanh(y) on float64 shape (16,) tensors (w, b leaves),
  then .sum().backward(); time per op covers forward, backward and freeing the graph.
MLP step: batch 64, Linear-ReLU-Linear-ReLU-Linear, softmax cross-entropy with integer targets,
  zero_grad + forward + backward + SGD(lr=0.01); NumPy is the same step written by hand. "fused"
  uses nn.Linear and F.cross_entropy; "plain ops" writes it as x @ W + b, relu, and log-sum-exp
  from exp/sum/log minus the indexed logit (PyTorch's column: the same code in torch). Each step
  was checked to agree with NumPy (loss and weights; float64 to 1e-8, float32 to 1e-4 relative).
  Peak memory: tracemalloc over one step, ours and NumPy's hand-written step.
deep chain: the op-overhead chain with 100,000 ops on 0-d float64 tensors. NumPy here is a
  hand-written tape (saved values in a list, a reverse loop). Peak memory: tracemalloc for ours
  and NumPy; PyTorch's allocator is invisible to tracemalloc, so its column is glibc malloc's
  in-use growth while the graph is alive (approximate, and not the same instrument).
fan-in: 10,000 products a_i*b_i of 0-d float64 leaves, summed as a chain of 9,999 adds
  (not pairwise), then backward; 20,000 leaves are built untimed.
scalar MLP: micrograd's 2-16-16-1 net from 0-d float64 tensors (tanh hidden, linear output),
  neuron = b + sum of w_i*x_i, loss (out - 0.5)**2, forward + backward of one sample.
Threads: NumPy's BLAS and PyTorch get the same count (--threads, default 1).
Garbage collector: {gc_mode}
spread: max(slowest repeat / median, median / fastest repeat) for ours; target <= {spread:.2f}x.
Every workload ran once in each engine and agreed before it was timed.
Ratios are ours / baseline: below 1 means ours is faster (or smaller)."""


GC_ON = """on, as in a user's program: it sees every object the process holds (torch's
  100,000 too) and is never run by hand between calls, so each repeat pays for the collections
  its own allocations trigger, full ones included."""
GC_FROZEN = """--gc-freeze: objects alive before timing are frozen out of its sight and
  it runs before every timed call, so collections cost only what the workload's objects cost."""


def profile(name, top=18):
    """Profile our engine alone on one workload with cProfile and print the costliest functions."""
    builders = {
        "overhead": (lambda: chain_case(ours_leaf, CHAIN_SHAPE, CHAIN_OPS), 30),
        "mlp": (lambda: mlp_cases(np.float64)["ours"], 200),
        "deep": (lambda: chain_case(ours_leaf, (), DEEP_OPS), 1),
        "fanin": (lambda: fan_in_case(ours_leaf)[0], 3),
        "scalar": (lambda: scalar_mlp_case(ours_leaf)[0], 100),
    }
    build, runs = builders[name]
    case = build()
    states = [case.setup() if case.setup else None for _ in range(runs + 1)]
    case.run(states.pop())
    gc.collect()
    gc.freeze()
    profiler = cProfile.Profile()
    profiler.enable()
    for state in states:
        case.run(state)
    profiler.disable()
    gc.unfreeze()
    print(f"\n--- profile of ours on {name}: {runs} run(s), sorted by own time ---")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv=None):
    parser = engine_arguments(__doc__)
    parser.add_argument("--only", metavar="NAME[,NAME]",
                        help=f"run only these benchmarks, from: {', '.join(BENCHMARKS)}")
    parser.add_argument("--gc-freeze", action="store_true",
                        help="freeze the objects alive before timing out of the garbage "
                             "collector's sight and collect before each call (the old mode)")
    parser.add_argument("--engine-only", action="store_true",
                        help="skip the course workloads (benchmarks/conv.py and models.py: "
                             "conv2d, max_pool2d, the digits CNN and transformer steps)")
    parser.add_argument("--profile", action="store_true",
                        help="instead of timing, profile our engine on the chosen benchmarks")
    args = parser.parse_args(argv)
    chosen = BENCHMARKS if args.only is None else tuple(args.only.split(","))
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    settings = QUICK if args.quick else FULL

    print("\n".join(machine_report(args.threads)))
    if args.profile:
        for name in chosen:
            profile(name)
        return
    gc_mode = GC_FROZEN if args.gc_freeze else GC_ON
    print(f"run     : {'--quick' if args.quick else 'full'}, garbage collector "
          f"{'frozen (--gc-freeze)' if args.gc_freeze else 'on'}; (repeats, calls per repeat, "
          "warm-ups) " + ", ".join(f"{name} {settings[name]}" for name in chosen) + "\n")
    runners = {"overhead": bench_overhead, "mlp": bench_mlp, "deep": bench_deep,
               "fanin": bench_fanin, "scalar": bench_scalar}
    held = len(gc.get_objects())  # what every full collection walks, before any workload
    rows = [row for name in chosen
            for row in runners[name](settings[name], freeze_gc=args.gc_freeze)]
    print_table(["benchmark", "unit", "ours", "PyTorch", "NumPy", "vs PyTorch", "vs NumPy",
                 "target", "result", "spread"], [row.cells() for row in rows])
    print("\n" + NOTES.format(gc_mode=gc_mode, spread=SPREAD_LIMIT))
    timed = [row for row in rows if row.timing is not None]
    print(f"\nFull collections (generation 2) inside our timed calls: each walks every object "
          f"the process holds ({held:,} before the workloads, torch's and NumPy's included):")
    print("\n".join("  " + row.collections_note() for row in timed))
    if not (args.engine_only or args.only):
        import conv
        import models

        course = ["--quick"] if args.quick else []
        print("\n# The course workloads (convolution, pooling, a CNN and a transformer step)\n")
        conv.main(course + ["--threads", str(args.threads)])
        models.main(course + ["--threads", str(args.threads)])


if __name__ == "__main__":
    main()
