"""Named example graphs, each with a title and one sentence for a student.

The first ones are the worked examples of the classic autograd tutorials, with their numbers:
numpygrad's d = a*b + a, the micrograd-style notebook's d = (a + 3) + (a * 2), babygrad's
c = a*b, d = c*w on vectors, MiniTorchBR's sum of a product, micrograd's tanh neuron and PyGrad's
z = y + y. Then small models (logistic regression, a two-layer MLP) and lessons: broadcasting,
softmax of large logits written naively next to its stable form, convolution and pooling,
attention, batch norm, a transposed convolution, group norm, and an LSTM cell's forget gate
carrying the gradient back in time.

Each graph is written in the expression language and parsed once, at import.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SpecError
from .expr import parse
from .spec import GraphSpec


@dataclass(frozen=True)
class Preset:
    """One example: ``key`` for links and menus, ``title``, one sentence, and the graph."""

    key: str
    title: str
    explanation: str
    spec: GraphSpec


_SOURCES = (
    (
        "classic",
        "d = a·b + a",
        "a reaches d along two paths, directly and through c = a·b, so its gradient is the "
        "sum of both: ∂d/∂a = b + 1 = 4, while ∂d/∂b = a = 2.",
        """
        a = 2.0
        b = 3.0
        c = a * b
        d = c + a
        """,
    ),
    (
        "two_paths",
        "d = (a + 3) + (a · 2)",
        "Every + passes its gradient on unchanged and × 2 doubles it, so the two paths from a "
        "give 1 + 2 = 3; the numbers 3 and 2 are constants and get no gradient.",
        """
        a = 2.0
        b = a + 3.0
        c = a * 2.0
        d = b + c
        """,
    ),
    (
        "vectors",
        "c = a·b, d = c·w on vectors",
        "Each element of a is multiplied by b and then by w, so its gradient is b·w = [12, 10] "
        "(the chain rule, element by element); d is a vector, so backward starts from ones.",
        """
        a = [2.0, 3.0]
        b = [4.0, 5.0]
        w = [3.0, 2.0]
        c = a * b
        d = c * w
        """,
    ),
    (
        "sum_of_product",
        "loss = sum(x · y)",
        "Summing passes a gradient of 1 to every element, and the product swaps its operands, "
        "so the gradient of x is y = [4, 5] and the gradient of y is x = [2, 3].",
        """
        x = [2.0, 3.0]
        y = [4.0, 5.0]
        z = x * y
        loss = sum(z)
        """,
    ),
    (
        "neuron",
        "A single tanh neuron",
        "micrograd's neuron o = tanh(x1·w1 + x2·w2 + b): tanh′ = 1 − o² = 0.5 here, and each "
        "weight's gradient is its input times 0.5, so w2, whose input x2 is 0, gets none.",
        """
        x1 = 2.0
        x2 = 0.0
        w1 = -3.0
        w2 = 1.0
        b = 6.8813735870195432
        x1w1 = x1 * w1
        x2w2 = x2 * w2
        x1w1x2w2 = x1w1 + x2w2
        n = x1w1x2w2 + b
        o = tanh(n)
        """,
    ),
    (
        "logistic",
        "Logistic regression on four points",
        "With zero weights every point gets probability 0.5 and the loss is ln 2 ≈ 0.693; "
        "the gradient Xᵀ(p − y)/n points the weights towards the three positive points.",
        """
        X = const([[1.0, 2.0], [2.0, 1.0], [0.0, 1.0], [-2.0, -1.0]])
        y = const([1.0, 1.0, 1.0, 0.0])
        w = [0.0, 0.0]
        b = 0.0
        z = X @ w + b
        p = sigmoid(z)
        L = binary_cross_entropy(p, y)
        """,
    ),
    (
        "mlp",
        "Two-layer MLP with softmax cross-entropy",
        "Four samples of three features go through five tanh units to three class scores; "
        "the gradient of the cross-entropy with respect to the scores is (softmax − one-hot)/4, "
        "and backward carries it through both layers to every weight.",
        """
        X = const(randn(4, 3, seed=0))
        y = const([0, 2, 1, 2])
        W1 = randn(3, 5, seed=1)
        b1 = zeros(5)
        h = tanh(X @ W1 + b1)
        W2 = randn(5, 3, seed=2)
        b2 = zeros(3)
        logits = h @ W2 + b2
        L = cross_entropy(logits, y)
        """,
    ),
    (
        "broadcast",
        "Broadcasting a column and a row",
        "A (3, 1) column plus a (4,) row makes a (3, 4) table, so each entry of the column is "
        "used 4 times and each entry of the row 3 times: backward sums the gradient back to "
        "4s and 3s in the operands' own shapes.",
        """
        col = [[1.0], [2.0], [3.0]]
        row = [10.0, 20.0, 30.0, 40.0]
        s = col + row
        L = sum(s)
        """,
    ),
    (
        "shared",
        "A shared subexpression: z = y + y with y = x·x",
        "Gradients from every use add up: z uses y twice, so ∂z/∂y = 2, and y uses x twice, "
        "so ∂z/∂x = 2 · 2x = 12.",
        """
        x = 3.0
        y = x * x
        z = y + y
        """,
    ),
    (
        "softmax_naive",
        "Naive softmax of large logits (unstable)",
        "exp(1000) is larger than the largest float64, so exp overflows to inf, inf / inf is "
        "NaN, and the loss and every gradient are lost.",
        """
        z = [1000.0, 1001.0, 1002.0]
        e = exp(z)
        p = e / sum(e)
        p2 = p[2]
        L = -log(p2)
        """,
    ),
    (
        "softmax_stable",
        "Stable softmax: subtract the max first",
        "Softmax does not change when every logit moves by the same amount, so subtracting "
        "max(z) keeps exp at most 1 and gives the right answer, as softmax(z) does inside.",
        """
        z = [1000.0, 1001.0, 1002.0]
        shifted = z - max(z)
        e = exp(shifted)
        p = e / sum(e)
        p2 = p[2]
        L = -log(p2)
        """,
    ),
    (
        "conv_pool",
        "What each output of a convolution and a max-pool saw",
        "A 3×3 filter of ones slides over the 5×5 image (padding 1) and a 2×2 max-pool keeps "
        "the largest of each block, so img's gradient heat map counts how many of the 4 "
        "outputs saw each pixel (the 3×3 patch behind each block's winner, 0 where none "
        "looked); set L = pooled[0, 0, 1, 0] to see one output's patch alone.",
        """
        img = randn(1, 1, 5, 5, seed=0)
        K = ones(1, 1, 3, 3)
        bias = [0.0]
        fmap = conv2d(img, K, bias, padding=1)
        pooled = max_pool2d(fmap, kernel_size=2)
        L = sum(pooled)
        """,
    ),
    (
        "attention",
        "One head of attention on three tokens",
        "Each row of out is a mean of V's rows weighted by softmax(Q Kᵀ/√2), so V's gradient is "
        "those weights transposed times out's gradient (a token many queries attend to gets "
        "much of it), while Q and K are reached only through the softmax.",
        """
        Q = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
        K = [[1.0, 0.5], [0.0, 1.0], [-1.0, 0.0]]
        V = [[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]]
        out = scaled_dot_product_attention(Q, K, V)
        target = const([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        L = mse_loss(out, target)
        """,
    ),
    (
        "batch_norm",
        "A batch-norm layer on a batch of four",
        "Each column of x is normalised with the batch's own mean and variance, so moving one "
        "sample moves every output of its column: x's gradient sums to zero down each column "
        "(adding the same amount to a whole column changes nothing).",
        """
        x = [[1.0, 2.0, 0.5], [3.0, -1.0, 0.0], [0.5, 0.0, 2.0], [2.5, 1.0, -0.5]]
        h = batch_norm(x)
        target = const([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
        L = mse_loss(h, target)
        """,
    ),
    (
        "transposed_conv",
        "A transposed convolution undoes a stride-2 convolution's shape",
        "conv2d with stride 2 halves the 4×4 image to 2×2 (two channels), and conv_transpose2d "
        "with stride 2 spreads each of those pixels over a 3×3 window of a 4×4 image again: the "
        "shape comes back, not the values, and U's gradient adds each window's error times the "
        "pixel that spread it.",
        """
        img = randn(1, 1, 4, 4, seed=0)
        K = randn(2, 1, 3, 3, seed=1)
        b = [0.0, 0.0]
        down = conv2d(img, K, b, stride=2, padding=1)
        U = randn(2, 1, 3, 3, seed=2)
        c = [0.0]
        up = conv_transpose2d(down, U, c, stride=2, padding=1, output_padding=1)
        L = mse_loss(up, img)
        """,
    ),
    (
        "group_norm",
        "Group norm: two groups of two channels",
        "Each group of channels is normalised with its own mean and variance, over its channels "
        "and positions and never the batch, so x's gradient sums to zero within each group "
        "(adding the same amount to a whole group changes nothing).",
        """
        x = [[[1.0, 2.0], [0.5, -1.0], [3.0, 0.0], [2.0, 2.5]]]
        h = group_norm(x, num_groups=2)
        w = const([[[1.0, 0.0], [0.0, 2.0], [1.0, -1.0], [0.5, 0.5]]])
        L = sum(h * w)
        """,
    ),
    (
        "lstm_cell",
        "An LSTM cell over three steps",
        "The cell state carries the first input to the end: c1 → c2 → c3, multiplied by the "
        "forget gate f = σ(bf) ≈ 0.98 at each step, so c1's gradient 0.620 is 0.98² of c3's "
        "0.643 and x1 still gets 0.130; set bf = −4 (f ≈ 0.018) and it all but vanishes.",
        """
        x1 = 1.0
        x2 = 0.5
        x3 = -0.5
        bf = 4.0
        bi = 0.0
        bo = 1.0
        f = sigmoid(bf)
        i = sigmoid(bi)
        o = sigmoid(bo)
        g1 = tanh(x1)
        g2 = tanh(x2)
        g3 = tanh(x3)
        c1 = i * g1
        fc1 = f * c1
        ig2 = i * g2
        c2 = fc1 + ig2
        fc2 = f * c2
        ig3 = i * g3
        c3 = fc2 + ig3
        t3 = tanh(c3)
        h3 = o * t3
        """,
    ),
)


def _program(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines()) + "\n"


PRESETS: tuple[Preset, ...] = tuple(
    Preset(key, title, explanation, parse(_program(text)))
    for key, title, explanation, text in _SOURCES
)
"""Every preset, in the order a menu shows them."""

DEFAULT_KEY = "classic"
"""The preset a new session starts from: d = a·b + a with a = 2, b = 3."""

_BY_KEY = {preset.key: preset for preset in PRESETS}


def get(key: str) -> Preset:
    """The preset called ``key``; SpecError listing the keys when there is none."""
    preset = _BY_KEY.get(key) if isinstance(key, str) else None
    if preset is None:
        raise SpecError(
            f"there is no preset called {str(key)[:40]!r}; the presets are: " + ", ".join(_BY_KEY)
        )
    return preset


@dataclass(frozen=True)
class ExercisePreset:
    """A graph with some numbers hidden for students to work out, and a teaching note.

    ``quantity`` is "grad", "value" or "tangent" (along input ``wrt``); ``hidden`` the nodes."""

    key: str
    title: str
    note: str
    spec: GraphSpec
    quantity: str
    hidden: tuple[str, ...]
    wrt: str | None = None


_EXERCISE_SOURCES = (
    (
        "paths_meet", "Gradients add where paths meet",
        "a is used twice: once inside c = a·b and once directly in d = c + a. Backward sends a "
        "gradient back along each use, and a's gradient is their sum: 1 from the direct path "
        "plus ∂d/∂c · ∂c/∂a = 1 · b from the other. Guess ∂d/∂a, ∂d/∂b and ∂d/∂c, then step "
        "through reverse mode and watch a's gradient arrive in two parts.",
        """
        a = 2.0
        b = 3.0
        c = a * b
        d = c + a
        """, "grad", ("a", "b", "c"), None,
    ),
    (
        "tanh_chain", "The chain rule through tanh",
        "micrograd's neuron: o = tanh(n) with n = x·w + b = 0.8814, so o = 0.7071. The slope of "
        "tanh is 1 − tanh² = 1 − o² = 0.5, so every gradient below o is halved first; then + "
        "passes it on unchanged to xw and b, and × hands each factor the other one times the "
        "gradient. Work from o back to the inputs.",
        """
        x = 2.0
        w = -3.0
        b = 6.8813735870195432
        xw = x * w
        n = xw + b
        o = tanh(n)
        """, "grad", ("n", "xw", "b", "x", "w"), None,
    ),
    (
        "broadcast_sum", "Broadcasting sums the gradient",
        "col has shape (2, 1) and row shape (3,); col + row broadcasts both to (2, 3), so each "
        "entry of col is used 3 times and each entry of row twice. Summing s gives every entry "
        "of s a gradient of 1, and backward adds up the copies: type col's gradient as "
        "[[…], […]] and row's as […, …, …].",
        """
        col = [[1.0], [2.0]]
        row = [10.0, 20.0, 30.0]
        s = col + row
        L = sum(s)
        """, "grad", ("s", "col", "row"), None,
    ),
    (
        "softmax_xent", "Softmax + cross-entropy gives p − y",
        "The loss is the cross-entropy of softmax(z) against class 0. Its gradient with respect "
        "to the logits is famously simple: p − y, the predicted probabilities minus the one-hot "
        "truth. Here softmax(z) = [0.6590, 0.2424, 0.0986] and y = [1, 0, 0]: type z's gradient "
        "as [[…, …, …]].",
        """
        z = [[2.0, 1.0, 0.1]]
        y = const([0.0])
        L = cross_entropy(z, y)
        """, "grad", ("z",), None,
    ),
    (
        "count_passes", "Forward or reverse mode: count the passes",
        "f has three inputs and one output. Forward mode moves one input at a time (here x, "
        "with ẋ = 1 and ẏ = ż = 0) and one pass gives ∂f/∂x only, so the whole gradient takes "
        "three passes; reverse mode gets all three partial derivatives in one backward pass. "
        "Guess the tangents along x, then compare the passes panel of both modes.",
        """
        x = 1.0
        y = 2.0
        z = 0.5
        xy = x * y
        s = sin(z)
        f = xy + s
        """, "tangent", ("xy", "s", "f"), "x",
    ),
)

EXERCISES: tuple[ExercisePreset, ...] = tuple(
    ExercisePreset(key, title, note, parse(_program(text)), quantity, hidden, wrt)
    for key, title, note, text, quantity, hidden, wrt in _EXERCISE_SOURCES
)
"""The exercise presets, in the order the Step through page offers them."""
