"""Matrix multiplication with NumPy's matmul rules: 1-D vectors and batched stacks."""

import numpy as np

from ..function import Function
from .exposed import exposed


@exposed("matmul")
class MatMul(Function):
    """a @ b. A 1-D operand is treated as a row (left) or column (right) vector, as NumPy does;
    batch dimensions broadcast, and the engine sums the gradient back over them."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, a, b):
        self.save_for_backward(a, b)
        try:
            return np.matmul(a, b)
        except ValueError:
            raise ValueError(_shape_message(a.shape, b.shape)) from None

    def backward(self, grad):
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        a_vector, b_vector = a.ndim == 1, b.ndim == 1
        if b_vector:
            b = b.reshape(b.shape + (1,))
            grad = grad.reshape(grad.shape + (1,))
        if a_vector:
            a = a.reshape((1,) + a.shape)
            grad = grad.reshape(grad.shape[:-1] + (1,) + grad.shape[-1:])
        grad_a = grad_b = None
        if need_a:
            grad_a = grad @ b.swapaxes(-1, -2)
            if a_vector:
                grad_a = grad_a.reshape(grad_a.shape[:-2] + grad_a.shape[-1:])
        if need_b:
            grad_b = a.swapaxes(-1, -2) @ grad
            if b_vector:
                grad_b = grad_b.reshape(grad_b.shape[:-1])
        return grad_a, grad_b

    def jvp(self, tangent_a, tangent_b):
        a, b = self.saved_tensors
        return np.matmul(tangent_a, b) + np.matmul(a, tangent_b)


class Linear(Function):
    """``x @ weight.T + bias`` as one node, as PyTorch's addmm does: the weight's gradient
    ``grad.T @ x`` comes out in the weight's own (out, in) layout, with no transpose to undo."""

    __slots__ = ()
    backward_runs_on_arrays = True

    def forward(self, x, weight, bias=None):
        if x.ndim == 0 or weight.ndim != 2 or x.shape[-1] != weight.shape[1]:
            raise ValueError(
                f"linear: input of shape {x.shape} has {x.shape[-1] if x.ndim else 0} features on "
                f"its last axis, but the weight of shape {weight.shape} expects "
                f"{weight.shape[1] if weight.ndim == 2 else '?'} (weight is (out_features, "
                "in_features)); reshape the input or build the layer with matching in_features"
            )
        self.save_for_backward(x, weight)
        out = np.matmul(x, weight.T)
        if bias is not None:
            out += bias
        return out

    def backward(self, grad):
        x, weight = self.saved_tensors
        needs = self.needs_input_grad
        rows = grad.reshape(-1, grad.shape[-1])
        grad_x = grad @ weight if needs[0] else None
        grad_weight = rows.T @ x.reshape(-1, x.shape[-1]) if needs[1] else None
        if len(needs) == 2:
            return grad_x, grad_weight
        return grad_x, grad_weight, (rows.sum(axis=0) if needs[2] else None)

    def jvp(self, tangent_x, tangent_weight, tangent_bias=None):
        x, weight = self.saved_tensors
        out = np.matmul(tangent_x, weight.T) + np.matmul(x, tangent_weight.T)
        return out if tangent_bias is None else out + tangent_bias


def _shape_message(a_shape, b_shape):
    if not a_shape or not b_shape:
        return (f"matmul needs tensors with at least one dimension, got shapes {a_shape} and "
                f"{b_shape}; use * to multiply by a scalar")
    inner_a = a_shape[-1]
    inner_b = b_shape[0] if len(b_shape) == 1 else b_shape[-2]
    if inner_a != inner_b:
        return (f"matmul of shapes {a_shape} and {b_shape}: the inner sizes differ ({inner_a} vs "
                f"{inner_b}); the last axis of the left operand must match the "
                f"{'only' if len(b_shape) == 1 else 'second-to-last'} axis of the right one — "
                "transpose one operand (x.T) or reshape it")
    return (f"matmul of shapes {a_shape} and {b_shape}: the batch dimensions "
            f"{a_shape[:-2]} and {b_shape[:-2]} do not broadcast")


def linear(x, weight, bias=None):
    """``x @ weight.T + bias`` (PyTorch's ``nn.functional.linear``)."""
    return Linear.apply(x, weight) if bias is None else Linear.apply(x, weight, bias)
