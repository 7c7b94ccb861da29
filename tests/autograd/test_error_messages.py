"""Shape errors name the op, the tensor and the fix, not only NumPy's terse complaint."""

import numpy as np
import pytest

import autograd as ag

A = ag.tensor([1.0, 2.0, 3.0], name="a")


@pytest.mark.parametrize(
    ("make", "error", "advice"),
    [
        (lambda: ag.stack([A, ag.tensor([1.0, 2.0])]), ValueError,
         r"Stack: .*stack needs operands of one shape, got \(2,\), \(3,\)"),
        (lambda: ag.concatenate([A.reshape(1, 3), ag.ones(1, 2)]), ValueError,
         r"Concatenate: .*same sizes on every axis but the one joined \(axis 0\).*"
         r"\(1, 3\), \(1, 2\)"),
        (lambda: A.broadcast_to((2, 2)), ValueError,
         r"BroadcastTo: .*the target shape is \(2, 2\): a's sizes must each equal"),
        (lambda: A.squeeze(1), np.exceptions.AxisError,
         r"squeeze: axis 1 is out of range, and a has shape \(3,\)"),
        (lambda: A.reshape(1, 3).permute((0, 0)), ValueError,
         r"Transpose: .*axes must list each of 0\.\.1 exactly once, e\.g\. \[1, 0\]"),
        (lambda: A[5], IndexError,
         r"Index: index 5 is out of bounds.*a has shape \(3,\)"),
    ],
)
def test_a_shape_error_says_what_to_do(make, error, advice):
    with pytest.raises(error, match=advice):
        make()


def test_an_axis_error_keeps_its_type():
    with pytest.raises(np.exceptions.AxisError):
        ag.stack([A, A], axis=3)
