"""The Train page's training loop: a small network built from ``autograd.nn``, trained by
``autograd.optim`` on a 2-D data set, with a history of losses and gradient norms.

One Trainer belongs to one browser session (it lives in that session's state); nothing here is
shared between sessions, and the weights are drawn from ``autograd.manual_seed(settings.seed)``,
which is per thread, so the same settings always start from the same network.

Two threads of one session can still meet here: Streamlit starts a click's run in a new thread at
once, while the run it replaces finishes its current statement (a chunk of training, say). So
every change and every read of the weights holds ``lock``, and ``run`` asks ``keep_going`` before
each step: the replaced run stops after one step once the click has paused training.
"""

from __future__ import annotations

import io
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import autograd as ag
from autograd import nn, optim
from autograd.nn import functional as F

from . import datasets
from .settings import FEATURES, TrainSettings


class Activation(nn.Module):
    """An engine function as a module, for the activations ``autograd.nn`` has no module for."""

    def __init__(self, function) -> None:
        super().__init__()
        self.function = function

    def forward(self, x):
        return self.function(x)


ACTIVATION_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU, "sigmoid": nn.Sigmoid,
                      "gelu": lambda: Activation(ag.gelu), "silu": lambda: Activation(ag.silu),
                      "linear": None}
"""Hidden-layer activation -> a function making its module (None: no activation)."""

MAX_RECORDS = 1_000
"""Points of history kept; beyond this every other old point is dropped."""


@dataclass(frozen=True)
class Record:
    """The network's state after some step: losses on all training and test points (without
    the regularisation penalty), accuracies (None for regression) and, per weight layer, the
    norm of the weight gradient of the last step (empty before the first step)."""

    step: int
    epoch: float
    train_loss: float
    test_loss: float
    train_accuracy: float | None
    test_accuracy: float | None
    grad_norms: tuple[float, ...]


class Trainer:
    """A network, its optimizer and its data, for one session. ``step`` is the training loop's
    single update; ``run`` does several and records the result."""

    def __init__(self, settings: TrainSettings) -> None:
        self.lock = threading.RLock()
        self.settings = settings
        self.data = datasets.split(settings)
        self.train_x = datasets.features(self.data.train_points, settings.features)
        self.test_x = datasets.features(self.data.test_points, settings.features)
        self.train_y = self.data.train_labels[:, None]
        self.test_y = self.data.test_labels[:, None]
        self._all_x, self._all_y = ag.tensor(self.train_x), ag.tensor(self.train_y)
        ag.manual_seed(settings.seed)
        sizes = [len(settings.features), *settings.hidden, 1]
        self.layers = [nn.Linear(n_in, n_out) for n_in, n_out in zip(sizes, sizes[1:])]
        activation = ACTIVATION_MODULES[settings.activation]
        self._blocks = [(layer, activation() if activation else None)
                        for layer in self.layers[:-1]] + [(self.layers[-1], None)]
        self.model = nn.Sequential(*(m for block in self._blocks for m in block if m))
        self._initial = [p.data.copy() for p in self.model.parameters()]
        self.reset()

    # --- the loop -------------------------------------------------------------------------

    def objective(self, x: ag.Tensor, y: ag.Tensor) -> ag.Tensor:
        """The loss the loop minimises on a batch: the data loss plus, when chosen, the rate
        times the sum of every weight's |w| (L1) or w² (L2); biases are not penalised."""
        out = self.model(x)
        if not self.settings.regression:
            out = out.sigmoid()
        if self.settings.effective_loss == "bce":
            loss = F.binary_cross_entropy(out, y)
        else:
            loss = F.mse_loss(out, y)
        rate = self.settings.penalty_rate
        if rate:
            terms = [(layer.weight.abs() if self.settings.regularizer == "l1"
                      else layer.weight.square()).sum() for layer in self.layers]
            penalty = terms[0]
            for term in terms[1:]:
                penalty = penalty + term
            loss = loss + ag.tensor(rate) * penalty
        return loss

    def step(self, indices: np.ndarray | None = None) -> float:
        """One update on the next batch (or on the training points ``indices``); the loss."""
        with self.lock:
            if indices is None:
                x, y = self._next_batch()
            else:
                x, y = ag.tensor(self.train_x[indices]), ag.tensor(self.train_y[indices])
            with np.errstate(all="ignore"):
                loss = self.objective(x, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            self.steps += 1
            self.samples_seen += len(x)
            self.last_loss = float(loss.data)
            return self.last_loss

    def run(self, steps: int, budget_s: float | None = None,
            keep_going: Callable[[], bool] = lambda: True) -> int:
        """Up to ``steps`` updates, fewer if ``budget_s`` seconds pass first (at least one), the
        loss stops being finite or ``keep_going()`` turns false (asked before each step); then
        one history record, if a step ran. How many steps ran."""
        with self.lock:
            start = time.perf_counter()
            done = 0
            while done < steps and not self.diverged and keep_going():
                self.step()
                done += 1
                if budget_s is not None and time.perf_counter() - start > budget_s:
                    break
            if done:
                self.record()
            return done

    def reset(self) -> None:
        """Back to the initial weights, a fresh optimizer and an empty history."""
        with self.lock:
            for p, initial in zip(self.model.parameters(), self._initial, strict=True):
                p.data[...] = initial
                p.grad = None
            self.optimizer = self._make_optimizer()
            self.steps = 0
            self.samples_seen = 0
            self.last_loss = math.nan
            self.history: list[Record] = []
            self._shuffler = np.random.default_rng(self.settings.seed + 2)
            self._order = np.arange(0)
            self.record()

    def apply(self, settings: TrainSettings) -> Trainer:
        """This trainer with ``settings`` applied: the optimizer's settings change in place, as
        in TensorFlow Playground; new data or a new network give a new Trainer."""
        if settings.rebuilds(self.settings):
            return Trainer(settings)
        with self.lock:
            old, self.settings = self.settings, settings
            if (settings.optimizer, settings.momentum) != (old.optimizer, old.momentum):
                self.optimizer = self._make_optimizer()
            self.optimizer.lr = settings.lr
            return self

    @property
    def epoch(self) -> float:
        """Passes over the training points so far."""
        return self.samples_seen / len(self.train_x)

    @property
    def diverged(self) -> bool:
        """True once the loss of a step was NaN or infinite."""
        return self.steps > 0 and not math.isfinite(self.last_loss)

    def _make_optimizer(self) -> optim.Optimizer:
        params = self.model.parameters()
        if self.settings.optimizer == "adam":
            return optim.Adam(params, lr=self.settings.lr)
        return optim.SGD(params, lr=self.settings.lr, momentum=float(self.settings.momentum))

    def _next_batch(self) -> tuple[ag.Tensor, ag.Tensor]:
        """The next batch of an epoch in shuffled order; the whole set for a full batch."""
        n, size = len(self.train_x), self.settings.batch_size
        if size == 0 or size >= n:
            return self._all_x, self._all_y
        if not len(self._order):
            self._order = self._shuffler.permutation(n)
        batch, self._order = self._order[:size], self._order[size:]
        return ag.tensor(self.train_x[batch]), ag.tensor(self.train_y[batch])

    # --- what the pictures read -------------------------------------------------------------

    def record(self) -> None:
        """Append the current losses, accuracies and gradient norms to the history."""
        with self.lock:
            train_out, test_out = self.predict(self.train_x), self.predict(self.test_x)
            norms = tuple(float(np.linalg.norm(layer.weight.grad.data))
                          for layer in self.layers if layer.weight.grad is not None)
            self.history.append(Record(
                self.steps, self.epoch,
                self._data_loss(train_out, self.train_y), self._data_loss(test_out, self.test_y),
                None if self.settings.regression else _accuracy(train_out, self.train_y),
                None if self.settings.regression else _accuracy(test_out, self.test_y),
                norms,
            ))
            if len(self.history) > MAX_RECORDS:
                self.history = self.history[-1::-2][::-1]

    def activations(self, inputs: np.ndarray) -> list[np.ndarray]:
        """Every neuron's output on the rows of ``inputs`` (features), layer by layer: the
        inputs themselves, each hidden layer after its activation, and the network's output
        (a probability for classification). Each array has one column per neuron."""
        outputs = [inputs]
        with self.lock, ag.no_grad(), np.errstate(all="ignore"):
            h = ag.tensor(np.asarray(inputs, dtype=np.float64))  # the weights are float64
            for layer, activation in self._blocks:
                h = activation(layer(h)) if activation else layer(h)
                outputs.append(h.data)
            if not self.settings.regression:
                outputs[-1] = h.sigmoid().data
        return outputs

    def predict(self, inputs: np.ndarray) -> np.ndarray:
        """The network's output on the rows of ``inputs``: probabilities of class 1, or values."""
        return self.activations(inputs)[-1]

    def named_parameters(self) -> list[tuple[str, ag.Tensor]]:
        """("W1", tensor), ("b1", tensor), ... layer by layer: the names the sample graph uses."""
        return [(f"{kind}{k}", getattr(layer, attr))
                for k, layer in enumerate(self.layers, 1)
                for kind, attr in (("W", "weight"), ("b", "bias"))]

    def weights_npz(self) -> bytes:
        """The current weights and biases as a NumPy ``.npz`` file (``np.load`` reads it), with
        the feature names and the share-link settings alongside."""
        buffer = io.BytesIO()
        with self.lock:
            arrays = {name: tensor.data.copy() for name, tensor in self.named_parameters()}
            steps = self.steps
        features = np.array([FEATURES[f] for f in self.settings.features])
        query = "&".join(f"{k}={v}" for k, v in self.settings.to_query().items())
        np.savez(buffer, **arrays, features=features, settings=np.array(query),
                 step=np.array(steps))
        return buffer.getvalue()

    def _data_loss(self, out: np.ndarray, y: np.ndarray) -> float:
        """The data loss (as the objective computes it, without the penalty) on all points."""
        with ag.no_grad(), np.errstate(all="ignore"):
            if self.settings.effective_loss == "bce":
                return float(F.binary_cross_entropy(ag.tensor(out), y).data)
            return float(F.mse_loss(ag.tensor(out), y).data)


def _accuracy(out: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((out > 0.5) == (y > 0.5)))
