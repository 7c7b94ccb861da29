"""Compositions of ops (a cross-entropy, a layer of a network, a mask times its input, an input
used twice) through the same checks against NumPy as every op (numpy_checks.NumpyChecks)."""

import numpy as np

from tests.autograd.numpy_checks import (
    NumpyChecks,
    Op,
    away_from_zero,
    log_softmax,
    sigmoid,
    uniform,
)


def compositions():
    yield Op("cross-entropy-like",
               lambda x: -x.log_softmax(axis=1)[np.arange(3), np.array([2, 0, 2])].mean(),
               lambda a: -log_softmax(a, axis=1)[np.arange(3), [2, 0, 2]].mean(),
               (uniform(3, 4),))
    yield Op("bool-mask-multiply", lambda x: x * (x > 0), lambda a: a * (a > 0),
               (away_from_zero(2, 3),))
    yield Op("mlp-layer", lambda x, w, b: (x @ w + b).tanh().sum(axis=1),
               lambda a, w, b: np.tanh(a @ w + b).sum(axis=1),
               (uniform(4, 3), uniform(3, 2), uniform(2)))
    yield Op("same-input-twice", lambda x: x * x + x.exp() / x.sigmoid(),
               lambda a: a * a + np.exp(a) / sigmoid(a), (uniform(3),))


class TestAgainstNumpy(NumpyChecks):
    CASES = [*compositions()]
