"""gather, scatter_add, masked_fill and one_hot (autograd/ops/indexing.py): the family's table of
cases against PyTorch (torch_checks.TorchChecks), then the behaviours worth a test of their own."""


import numpy as np
import pytest

import autograd as ag
from tests.autograd.helpers import torch
from tests.autograd.torch_checks import (
    Case,
    TorchChecks,
    assert_close,
    normal_inputs,
)

r = normal_inputs(19)
G1 = np.array([[2, 0], [1, 1], [0, 3]])
G0 = np.array([[1, 0, 1, 1], [0, 0, 1, 0]])
S1 = np.array([[0, 0, 2], [1, 3, 1], [2, 2, 2]])
ROW = np.array([True, False, True, False])


TORCH_CASES = [
    # gather, scatter_add, masked_fill
    Case("gather", lambda x: x.gather(1, G1), lambda x: x.gather(1, torch.tensor(G1)), [r(3, 4)],
         linear=True),
    Case("gather along 0 with an index smaller than x",
         lambda x: ag.gather(x, 0, G0), lambda x: torch.gather(x, 0, torch.tensor(G0)), [r(3, 5)],
         linear=True),
    Case("gather with repeats and a negative dim", lambda x: x.gather(-1, S1),
         lambda x: x.gather(-1, torch.tensor(S1)), [r(3, 4)], linear=True),
    Case("gather from a 0-d tensor", lambda x: x.gather(0, np.array([0, 0])),
         lambda x: x.gather(0, torch.tensor([0, 0])), [r()], linear=True),
    Case("scatter_add", lambda x, s: x.scatter_add(1, S1, s),
         lambda x, s: x.scatter_add(1, torch.tensor(S1), s), [r(3, 4), r(3, 3)], linear=True),
    Case("scatter_add along 0", lambda x, s: ag.scatter_add(x, 0, G0, s),
         lambda x, s: torch.scatter_add(x, 0, torch.tensor(G0), s), [r(3, 5), r(2, 4)],
         linear=True),
    Case("masked_fill with a broadcast mask", lambda x: x.masked_fill(ROW, -1.5),
         lambda x: x.masked_fill(torch.tensor(ROW), -1.5), [r(3, 4)], linear=True),
    Case("masked_fill broadcasts x to the mask", lambda x: x.masked_fill(ROW[:, None], 2.0),
         lambda x: x.masked_fill(torch.tensor(ROW[:, None]), 2.0), [r(3)], linear=True),
    Case("masked_fill from a 0-d tensor that requires grad",
         lambda x, v: x.masked_fill(ROW, v), lambda x, v: x.masked_fill(torch.tensor(ROW), v),
         [r(2, 4), r()], linear=True),
]


class TestAgainstTorch(TorchChecks):
    CASES = TORCH_CASES

    test_second_derivatives_match_finite_differences = None  # every case is linear


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:var.*degrees of freedom:UserWarning")
def test_one_hot_is_an_untracked_int64_tensor_like_torch():
    labels = np.array([[0, 2], [3, 1]])
    ours = ag.one_hot(ag.tensor(labels))
    theirs = torch.nn.functional.one_hot(torch.tensor(labels))
    assert_close(ours, theirs, 0, 0, "one_hot")
    assert not ours.requires_grad and ours.grad_fn is None
    assert_close(ag.one_hot(labels, num_classes=6), torch.nn.functional.one_hot(
        torch.tensor(labels), num_classes=6), 0, 0, "num_classes")
    assert ag.one_hot(np.array(1), 3).tolist() == [0, 1, 0]
