"""From the training loop to the graph: one sample's loss as a GraphSpec with the real weights.

The graph repeats, op for op, what ``Trainer.objective`` computes on a batch of that one sample:
``linear`` per layer, the activation, ``sigmoid`` for classification, the loss, and the
regularisation penalty when one is chosen. The weights are inputs (so every one gets its
gradient), the sample's features and label are constants, and the loss is the output. Evaluated
by ``playground.evaluate``, it gives the same gradients as the engine in the training loop, bit
for bit (tests/playground/test_train_bridge.py checks it).
"""

from __future__ import annotations

from ..spec import GraphSpec, Node
from .trainer import Trainer

SPLITS = ("train", "test")


def sample_arrays(trainer: Trainer, split: str, index: int):
    """The features (1, d) and label (1, 1) of point ``index`` of the ``split`` set."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    x, y = (trainer.train_x, trainer.train_y) if split == "train" else (
        trainer.test_x, trainer.test_y)
    if not 0 <= index < len(x):
        raise ValueError(f"there are {len(x)} {split} points; pick one from 0 to {len(x) - 1}")
    return x[index : index + 1], y[index : index + 1]


def sample_spec(trainer: Trainer, split: str, index: int) -> GraphSpec:
    """The graph of one sample's loss at the trainer's current weights."""
    settings = trainer.settings
    x, y = sample_arrays(trainer, split, index)
    nodes = [Node.const("x", x.tolist())]
    h = "x"
    with trainer.lock:  # the weights after one step, never half-way through the next
        weights = {name: tensor.data.tolist() for name, tensor in trainer.named_parameters()}
    last = len(trainer.layers)
    for k in range(1, last + 1):
        nodes += [Node.input(f"W{k}", weights[f"W{k}"]),
                  Node.input(f"b{k}", weights[f"b{k}"]),
                  Node.operation(f"z{k}", "linear", h, f"W{k}", f"b{k}")]
        h = f"z{k}"
        if k < last and settings.activation != "linear":
            nodes.append(Node.operation(f"h{k}", settings.activation, h))
            h = f"h{k}"
    if not settings.regression:
        nodes.append(Node.operation("p", "sigmoid", h))
        h = "p"
    loss_op = "binary_cross_entropy" if settings.effective_loss == "bce" else "mse_loss"
    nodes += [Node.const("y", y.tolist()), Node.operation("loss", loss_op, h, "y")]
    if not settings.penalty_rate:
        return GraphSpec(nodes, output="loss")
    each = "abs" if settings.regularizer == "l1" else "square"
    for k in range(1, last + 1):
        nodes += [Node.operation(f"{each[0]}{k}", each, f"W{k}"),
                  Node.operation(f"r{k}", "sum", f"{each[0]}{k}")]
    total = "r1"
    for k in range(2, last + 1):
        name = "reg" if k == last else f"reg{k}"
        nodes.append(Node.operation(name, "add", total, f"r{k}"))
        total = name
    nodes += [Node.const("rate", settings.penalty_rate),
              Node.operation("penalty", "mul", "rate", total),
              Node.operation("total", "add", "loss", "penalty")]
    return GraphSpec(nodes, output="total")
