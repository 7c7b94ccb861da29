"""Model benchmarks: one training step of two models a course writes after micrograd, ours
against PyTorch CPU eager in the same run, and the digits CNN trained to its test accuracy.

Run from the repository root:
    python benchmarks/models.py [--quick] [--threads N] [--only cnn,transformer,lstm,unet,encoder,
                                accuracy]
                                [--profile NAME]

Workloads (each model's source is written once and built twice, with ``autograd`` and with
``torch``: the same classes, layers and calls; ours starts from PyTorch's initial weights, copied
through ``state_dict``):
- cnn: scikit-learn's bundled 8x8 digits (``load_digits``), a batch of 64 through Conv2d(1, 16,
  3) - BatchNorm2d - ReLU - MaxPool2d(2) - Conv2d(16, 32, 3) - ReLU - AdaptiveAvgPool2d(1) -
  Linear(32, 10), cross-entropy, AdamW; target <= 2x PyTorch.
- transformer: a one-block character transformer (token and position Embedding, LayerNorm,
  causal MultiheadAttention, LayerNorm, GELU MLP, residuals, LayerNorm, Linear head) on a text
  made here, batch 16 x 32 characters, width 64, 4 heads, cross-entropy, SGD with momentum and
  clip_grad_norm_; target <= 2x PyTorch.
- lstm: a character-level LSTM language model (Embedding 32, a 2-layer LSTM of 64 units, batch
  first, Linear head) on the same text, batch 16 x 32 characters, cross-entropy, Adam and
  clip_grad_norm_; target <= 2x PyTorch (whose LSTM is one fused kernel per layer; ours is one
  node per layer too, LSTMSequence, stepping through time in NumPy).
- unet: a small U-Net-like denoiser (Conv2d, GroupNorm, SiLU, max-pool down, ConvTranspose2d
  and bilinear interpolate up, a skip connection) from noisy to clean digits, batch 32, MSE,
  AdamW; target <= 2x PyTorch.
- encoder: token classification with a 2-layer TransformerEncoder (width 64, 4 heads, GELU,
  pre-norm) over padded sequences of 32 tokens with a padding mask, batch 16, cross-entropy that
  ignores the padding, SGD with momentum; target <= 2x PyTorch.
- accuracy: the digits CNN (ours) trained for 20 epochs in batches of 64 (AdamW, cosine
  schedule) on 80 % of the digits, tested on the other 20 %; target >= 95 % (seeds 0-2 give
  97-99 %).

A step is zero_grad, forward, loss, backward, (clipping,) optimizer step. Repeats run
interleaved (ours, PyTorch, ours, ...) with the garbage collector on, as in a user's program;
"spread" is how far our slowest or fastest repeat strays from our median. NumPy's BLAS and
PyTorch get the same number of threads (--threads, default 1). Before timing, three steps run in
both engines from the same weights on the same batches, and the losses and parameters must agree
(float64 to 1e-8, float32 to 1e-3 relative), so a wrong answer is never timed.
"""

import cProfile
import pstats
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parent), str(HERE)):  # the repository's autograd, and the helpers beside us
    if path not in sys.path:
        sys.path.insert(0, path)

from _timing import Case, engine_arguments, print_table, time_cases  # noqa: E402
from course_models import (  # noqa: E402
    char_lstm,
    char_transformer,
    digits_cnn,
    small_unet,
    token_tagger,
)
from engine import machine_report  # noqa: E402 - one way to set and report threads

import autograd as ag  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

BENCHMARKS = ("cnn", "transformer", "lstm", "unet", "encoder", "accuracy")
STEP_TARGET = 2.0  # ours / PyTorch, one training step
ACCURACY_TARGET = 0.95
FULL, QUICK = (15, 5, 3), (3, 2, 1)  # (repeats, steps per repeat, warm-up steps)
CNN_BATCH = 64
TEXT_BATCH, BLOCK, WIDTH, HEADS = 16, 32, 64, 4
LSTM_WIDTH, LSTM_HIDDEN = 32, 64


def twins(build, dtype):
    """The model built with PyTorch and with autograd, ours loaded from PyTorch's weights."""
    theirs = build(torch).to(getattr(torch, np.dtype(dtype).name))
    ours = build(ag).to(dtype)
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    return ours, theirs


# --- data ------------------------------------------------------------------------------------


def digits():
    """(train images, train labels, test images, test labels): (N, 1, 8, 8) floats in [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    data = load_digits()
    images = (data.images / 16.0)[:, None]
    x_train, x_test, y_train, y_test = train_test_split(
        images, data.target, test_size=0.2, random_state=0, stratify=data.target)
    return x_train, y_train, x_test, y_test


def text():
    """A short text with a few hundred distinct windows, and its characters' codes."""
    words = ("the quick brown fox jumps over the lazy dog while a small autograd engine counts "
             "every gradient of every weight and checks them against pytorch ").split()
    order = np.random.default_rng(0).permutation(len(words) * 6) % len(words)
    corpus = " ".join(words[i] for i in order)
    chars = sorted(set(corpus))
    return np.array([chars.index(c) for c in corpus]), len(chars)


def text_batches(codes, count, batch=TEXT_BATCH, block=BLOCK, seed=1):
    rng = np.random.default_rng(seed)
    starts = rng.integers(0, len(codes) - block - 1, (count, batch))
    windows = starts[..., None] + np.arange(block + 1)
    return [(codes[w[:, :-1]], codes[w[:, 1:]]) for w in windows]


# --- one training step, either engine ---------------------------------------------------------


def tagged_batches(codes, count, batch=TEXT_BATCH, block=BLOCK, seed=2):
    """Windows of the text with their last characters padded away (lengths from half the
    block up), each token tagged 1 where it is a space; padding tagged -100 (ignored)."""
    rng = np.random.default_rng(seed)
    batches = []
    for idx, _ in text_batches(codes, count, batch, block, seed):
        padding = np.arange(block)[None, :] >= rng.integers(block // 2, block + 1, (batch, 1))
        tags = np.where(padding, -100, idx == codes.min()).astype(np.int64)
        batches.append((np.where(padding, 0, idx), padding, tags))
    return batches


def step_fn(lib, model, opt, clip=None, mse=False, tagged=False):
    """zero_grad, forward, cross-entropy (or MSE), backward, (clip,) step; returns the loss.
    With ``tagged`` the step takes (tokens, padding mask, tags) and the loss ignores -100."""
    functional = lib.nn.functional

    def step(x, *rest):
        opt.zero_grad()
        *mask, y = rest
        out = model(x, *mask)
        loss = (functional.mse_loss(out, y) if mse else
                functional.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1),
                                         ignore_index=-100))
        loss.backward()
        if clip is not None:
            lib.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        return loss

    return step


def workloads(dtype):
    """name -> (our step, PyTorch's step, our model, PyTorch's, batches as arrays)."""
    x_train, y_train, _, _ = digits()
    rng = np.random.default_rng(2)
    picks = [rng.choice(len(x_train), CNN_BATCH, replace=False) for _ in range(8)]
    cnn_batches = [(x_train[p].astype(dtype), y_train[p]) for p in picks]
    ours, theirs = twins(digits_cnn, dtype)
    cnn = (step_fn(ag, ours, ag.optim.AdamW(ours.parameters(), lr=1e-2)),
           step_fn(torch, theirs, torch.optim.AdamW(theirs.parameters(), lr=1e-2)),
           ours, theirs, cnn_batches)
    codes, vocab = text()
    ours, theirs = twins(lambda lib: char_transformer(lib, vocab, BLOCK, WIDTH, HEADS), dtype)
    transformer = (
        step_fn(ag, ours, ag.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9), clip=1.0),
        step_fn(torch, theirs, torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9),
                clip=1.0),
        ours, theirs, text_batches(codes, 8))
    ours, theirs = twins(lambda lib: char_lstm(lib, vocab, LSTM_WIDTH, LSTM_HIDDEN), dtype)
    lstm = (step_fn(ag, ours, ag.optim.Adam(ours.parameters(), lr=1e-2), clip=1.0),
            step_fn(torch, theirs, torch.optim.Adam(theirs.parameters(), lr=1e-2), clip=1.0),
            ours, theirs, text_batches(codes, 8))
    noise = np.random.default_rng(3).standard_normal((8, 32, 1, 8, 8))
    unet_batches = [((x_train[p[:32]] + 0.3 * n).astype(dtype), x_train[p[:32]].astype(dtype))
                    for p, n in zip(picks, noise)]
    ours, theirs = twins(small_unet, dtype)
    unet = (step_fn(ag, ours, ag.optim.AdamW(ours.parameters(), lr=1e-2), mse=True),
            step_fn(torch, theirs, torch.optim.AdamW(theirs.parameters(), lr=1e-2), mse=True),
            ours, theirs, unet_batches)
    ours, theirs = twins(lambda lib: token_tagger(lib, vocab, 2, WIDTH, HEADS, norm_first=True),
                         dtype)
    encoder = (step_fn(ag, ours, ag.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9),
                       tagged=True),
               step_fn(torch, theirs, torch.optim.SGD(theirs.parameters(), lr=0.1,
                                                      momentum=0.9), tagged=True),
               ours, theirs, tagged_batches(codes, 8))
    return {"cnn": cnn, "transformer": transformer, "lstm": lstm, "unet": unet,
            "encoder": encoder}


def check(name, ours_step, theirs_step, ours, theirs, batches):
    """Three steps in both engines from the same weights must agree (loss and parameters)."""
    rtol = 1e-8 if ours.parameters()[0].dtype == np.float64 else 1e-3
    for batch in batches[:3]:
        mine = ours_step(*batch).item()
        reference = theirs_step(*map(torch.from_numpy, batch)).item()
        if not np.isclose(mine, reference, rtol=rtol, atol=0):
            sys.exit(f"check failed: {name} loss {mine} differs from PyTorch's {reference}")
    for (key, a), b in zip(ours.state_dict().items(), theirs.state_dict().values(), strict=True):
        if not np.allclose(a.numpy(), b.numpy(), rtol=rtol, atol=rtol):
            sys.exit(f"check failed: {name} parameter {key} differs from PyTorch's")


def step_case(step, batches, convert):
    """A Case that runs one step on the next batch each call."""
    converted = [tuple(convert(a) for a in batch) for batch in batches]
    position = [0]

    def run(_):
        batch = converted[position[0] % len(converted)]
        position[0] += 1
        step(*batch)

    return Case(run)


def bench_steps(names, settings):
    rows = []
    repeats, number, warmup = settings
    for dtype in (np.float64, np.float32):
        for name, (ours_step, theirs_step, ours, theirs, batches) in workloads(dtype).items():
            if name not in names:
                continue
            check(f"{name} {np.dtype(dtype).name}", ours_step, theirs_step, ours, theirs,
                  batches)
            cases = {"ours": step_case(ours_step, batches, lambda a: a),
                     "torch": step_case(theirs_step, batches, torch.from_numpy)}
            timings = time_cases(cases, repeats, number, warmup)
            mine, reference = timings["ours"].median * 1e3, timings["torch"].median * 1e3
            ratio = mine / reference
            rows.append([f"{name} training step, {np.dtype(dtype).name}", f"{mine:.2f}",
                         f"{reference:.2f}", f"{ratio:.2f}×", f"≤ {STEP_TARGET:.1f}× PyTorch",
                         "PASS" if ratio <= STEP_TARGET else "MISS",
                         f"{timings['ours'].spread:.2f}×"])
    return rows


def train_digits(epochs=20, batch=64, seed=0):
    """Our digits CNN trained with AdamW and a cosine schedule; its test accuracy."""
    x_train, y_train, x_test, y_test = digits()
    ag.manual_seed(seed)
    model = digits_cnn(ag)
    opt = ag.optim.AdamW(model.parameters(), lr=1e-2)
    steps_per_epoch = -(-len(x_train) // batch)
    schedule = ag.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * steps_per_epoch)
    step = step_fn(ag, model, opt)
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        order = rng.permutation(len(x_train))
        for start in range(0, len(x_train), batch):
            picked = order[start:start + batch]
            if len(picked) > 1:  # BatchNorm needs two samples
                step(x_train[picked], y_train[picked])
            schedule.step()
    model.eval()
    with ag.no_grad():
        predicted = model(x_test).data.argmax(axis=1)
    return float((predicted == y_test).mean())


def profile(name):
    """cProfile's costliest functions of our engine on one workload's steps."""
    ours_step, _, _, _, batches = workloads(np.float64)[name]
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(60):
        ours_step(*batches[i % len(batches)])
    profiler.disable()
    print(f"\n--- profile of ours on {name}: 60 steps, sorted by own time ---")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


def main(argv=None):
    parser = engine_arguments(__doc__)
    parser.add_argument("--only", metavar="NAME[,NAME]",
                        help=f"run only these, from: {', '.join(BENCHMARKS)}")
    parser.add_argument("--profile", metavar="NAME", choices=BENCHMARKS[:-1],
                        help="instead of timing, profile our engine on one workload")
    args = parser.parse_args(argv)
    chosen = BENCHMARKS if args.only is None else tuple(args.only.split(","))
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    if torch is None:
        sys.exit("PyTorch is needed for these ratios: pip install -r requirements-oracle.txt")
    print("\n".join(machine_report(args.threads)))
    if args.profile:
        profile(args.profile)
        return
    settings = QUICK if args.quick else FULL
    print(f"run     : {'--quick' if args.quick else 'full'}; {settings[0]} repeats of "
          f"{settings[1]} steps, {settings[2]} warm-up steps, interleaved, garbage collector "
          "on\n")
    rows = bench_steps(chosen, settings)
    if "accuracy" in chosen:
        accuracy = train_digits()
        rows.append(["digits CNN test accuracy (ours, 20 epochs)", f"{accuracy:.1%}", "", "",
                     f"≥ {ACCURACY_TARGET:.0%}",
                     "PASS" if accuracy >= ACCURACY_TARGET else "MISS", ""])
    print_table(["benchmark", "ours ms", "PyTorch ms", "vs PyTorch", "target", "result",
                 "spread"], rows)
    print("\nRatios are ours / PyTorch: below 1 means ours is faster. Each step's loss and "
          "parameters were checked against PyTorch's before timing.")


if __name__ == "__main__":
    main()
