"""Special functions: lgamma, digamma, polygamma, erfinv (autograd/ops/special.py): the family's
table of cases against PyTorch (torch_checks.TorchChecks)."""

import numpy as np

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    normal_inputs,
    torch_function,
)

r = normal_inputs(19)
INSIDE_ONE = np.array([[0.3, -0.6, 0.9, -0.05], [0.45, -0.99, 0.7, 0.1]])
NO_POLES = np.array([[0.3, -0.6, 2.9, -1.5], [4.5, -2.2, 17.0, 0.1]])  # away from 0, -1, -2, ...


TORCH_CASES = [
        *(Case(name, getattr(ag, name), torch_function(name), [arrays])
      for name, arrays in [("erfinv", INSIDE_ONE)]),
    Case("erfinv of a 0-d tensor", ag.erfinv, torch_function("erfinv"), [np.array(0.5)]),
    # PyTorch's trigamma is good to about 1e-10 (ours to an ulp: test_awkward_points' mpmath)
    *(Case(name, getattr(ag, name), torch_function(name), [NO_POLES], tol64=1e-8)
      for name in ("lgamma", "digamma")),
    Case("polygamma 1", lambda x: ag.polygamma(1, x), lambda x: torch.polygamma(1, x),
         [NO_POLES], tol64=1e-8),
    Case("polygamma 2", lambda x: ag.polygamma(2, x), lambda x: torch.polygamma(2, x),
         [np.abs(NO_POLES)]),
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES
