"""Finite differences against the engine: the element table and the epsilon sweep.

For every element of every input, the central difference (f(x + eps) - f(x - eps)) / (2 eps)
of the output (of its sum, when the output is not one number, matching the ones that seed
backward) is set beside the analytic gradient from ``evaluate``. Each perturbed side costs one
forward pass under ``no_grad``, never a backward, and that pass recomputes only the steps
between the moved input and the output (the rest is computed once, up front).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import autograd as ag
from autograd.gradcheck import ATOL, RTOL, close

from . import budget, limits
from .errors import SpecError
from .evaluate import evaluate, forward, output_name, run
from .spec import ancestors

PASS_RULE = f"|analytic - numeric| <= {ATOL:g} + {RTOL:g} * |numeric|"
"""``ag.gradcheck``'s rule with its tolerances (``autograd.gradcheck.close``), so a graph that
passes one passes the other; a NaN or inf on either side fails."""

EPSILONS = tuple(10.0 ** -k for k in range(1, 11))
EPSILONS_ASCENDING = tuple(sorted(EPSILONS))
"""The steps as the Gradient check's slider offers them: small to large, the way the sweep
chart's axis runs."""
COLUMNS = ["node", "index", "analytic", "numeric", "abs_error", "rel_error", "passed"]


def gradient_check(spec, output=None, eps=1e-6, max_elements=limits.FD_MAX_ELEMENTS):
    """One row per input element: analytic and numeric gradients, their errors, and pass/fail."""
    _check_eps(eps)
    output = output_name(spec, output)
    elements = _elements(spec, max_elements)
    probe = _Probe(spec, output)
    total = len(elements)
    elements = probe.affordable(elements, 2, "the gradient check")
    analytic = evaluate(spec, output)
    probe.start()
    rows = []
    for name, index in elements:
        a = float(analytic.grad(name)[index])
        n = probe.central_difference(name, index, eps)
        rows.append(_row(name, index, a, n))
    table = pd.DataFrame(rows, columns=COLUMNS)
    table.attrs["objective"] = _objective(analytic)
    table.attrs["eps"] = eps
    table.attrs["rule"] = PASS_RULE
    table.attrs["checked"] = len(elements)
    table.attrs["elements"] = total
    return table


def epsilon_sweep(spec, output=None, epsilons=EPSILONS):
    """The largest absolute and relative error at each epsilon: too large an epsilon suffers
    truncation error (about eps**2), too small a one round-off (about 1e-16 / eps)."""
    epsilons = tuple(epsilons)
    for eps in epsilons:
        _check_eps(eps)
    output = output_name(spec, output)
    elements = _spaced(_elements(spec, limits.FD_MAX_ELEMENTS), limits.SWEEP_MAX_ELEMENTS)
    probe = _Probe(spec, output)
    elements = probe.affordable(elements, 2 * len(epsilons), "the epsilon sweep")
    analytic = evaluate(spec, output)
    probe.start()
    rows = []
    for eps in epsilons:
        errors = [_row(name, index, float(analytic.grad(name)[index]),
                       probe.central_difference(name, index, eps))
                  for name, index in elements]
        rows.append({"eps": eps,
                     # np.max, unlike max(), returns NaN whenever any error is NaN
                     "max_abs_error": float(np.max([e["abs_error"] for e in errors])),
                     "max_rel_error": float(np.max([e["rel_error"] for e in errors]))})
    table = pd.DataFrame(rows, columns=["eps", "max_abs_error", "max_rel_error"])
    table.attrs["elements"] = len(elements)
    table.attrs["objective"] = _objective(analytic)
    return table


def _spaced(elements: list, count: int) -> list:
    """``count`` of ``elements``, evenly spaced and including the first and the last (all of
    them when there are no more than ``count``)."""
    if len(elements) <= count:
        return elements
    picks = np.linspace(0, len(elements) - 1, count).round().astype(int)
    return [elements[i] for i in picks]


def _check_eps(eps):
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not 0 < eps < 1:
        raise SpecError(f"epsilon must lie between 0 and 1, got {eps!r:.20}; 1e-6 is a good start")


def _elements(spec, max_elements):
    inputs = [node for node in spec.nodes if node.kind == "input"]
    if not inputs:
        raise SpecError("there is no input to check: gradients are taken with respect to inputs "
                        "(x = 2.0); constants (const(...)) have none")
    total = sum(int(np.prod(node.shape)) for node in inputs)
    if total > max_elements:
        raise SpecError(f"the inputs have {total:,} elements in all, more than the "
                        f"{max_elements:,} the finite-difference check perturbs (two forward "
                        "passes each); make the inputs smaller to check them")
    return [(node.name, index) for node in inputs for index in np.ndindex(*node.shape)]


class _Probe:
    """Forward passes of the output with one input element moved.

    The plan is made once, before anything is computed: for each input the op nodes to
    recompute when it moves (those that depend on it and feed the output) and their work.
    ``start()`` then computes every node's tensor at the unmoved inputs.
    """

    def __init__(self, spec, output):
        self.spec = spec
        self.output = output
        self.estimate = budget.check_evaluation(spec)
        self.deadline = budget.Deadline("the finite-difference check")
        self.base: dict[str, ag.Tensor] = {}
        feeds_output = ancestors(spec.nodes, output)
        depends_on: dict[str, set[str]] = {}
        self.steps: dict[str, list] = {}
        for node in spec.nodes:
            if node.kind == "input":
                depends_on[node.name] = {node.name}
                self.steps[node.name] = []
            elif node.kind == "op":
                depends_on[node.name] = set().union(*(depends_on.get(o, set())
                                                      for o in node.operands))
                if node.name in feeds_output:
                    for name in depends_on[node.name]:
                        self.steps[name].append(node)

    def pass_work(self, name) -> int:
        """Work units of one pass with input ``name`` moved."""
        return sum(self.estimate.work.get(node.name, budget.OP_WORK)
                   for node in self.steps[name]) + 1

    def affordable(self, elements, passes, what):
        """``elements``, or as many of them as ``limits.MAX_CHECK_WORK`` allows, evenly spaced."""
        work = {name: self.pass_work(name) for name in self.steps}
        count = budget.finite_difference_count([work[name] for name, _ in elements], passes, what)
        return _spaced(elements, count)

    def start(self) -> None:
        with ag.no_grad():
            self.base = forward(self.spec, self.estimate, self.deadline)

    def value(self, name, moved):
        self.deadline.check()
        with ag.no_grad():
            tensors = run(self.steps[name], {**self.base, name: ag.Tensor(moved)},
                          self.estimate, self.deadline)
        return float(np.sum(tensors[self.output].data))

    def central_difference(self, name, index, eps):
        moved = self.base[name].data.copy()
        original = moved[index]
        moved[index] = original + eps
        plus = self.value(name, moved)
        moved = moved.copy()
        moved[index] = original - eps
        minus = self.value(name, moved)
        return (plus - minus) / (2 * eps)


def _row(name, index, analytic, numeric):
    """One element's comparison. When either gradient is NaN or infinite the relative error is
    NaN (there is no scale to measure it against) and the element fails; when both are exactly
    zero it is 0."""
    finite = math.isfinite(analytic) and math.isfinite(numeric)
    abs_error = abs(analytic - numeric)
    scale = max(abs(analytic), abs(numeric))
    if not finite:
        rel_error = math.nan
    else:
        rel_error = abs_error / scale if scale > 0 else 0.0
    passed = bool(close(analytic, numeric))
    return {"node": name, "index": index, "analytic": analytic, "numeric": numeric,
            "abs_error": abs_error, "rel_error": rel_error, "passed": passed}


def _objective(result):
    if result.seeded_with_ones:
        return f"sum({result.output})"
    return result.output
