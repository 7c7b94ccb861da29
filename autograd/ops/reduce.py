"""Reductions (sum, mean, max, min, logsumexp, var, std, prod, norm), the softmax family and
cumsum."""

import math
import warnings

import numpy as np

from ..tensor import Tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed


def _axes(axis, ndim):
    """Normalise axis (None, an int, or a tuple or list of ints) to a sorted tuple of
    non-negative axes. A 0-d tensor accepts axis 0 and -1, as in PyTorch."""
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if ndim == 0 and all(a in (0, -1) for a in axes):
        return ()
    try:
        return tuple(sorted(np.lib.array_utils.normalize_axis_tuple(axes, ndim)))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"axis {axis} is out of range for a tensor with {ndim} dimension(s)"
        ) from None


def _kept_shape(shape, axes):
    """The shape of the reduction with keepdims=True."""
    return tuple([1 if i in axes else n for i, n in enumerate(shape)])


class _Reduction(Op):
    """Shared bookkeeping: the input shape and the reduced axes, to expand the gradient back."""

    __slots__ = ("shape", "kept")

    def _setup(self, a, axis):
        axes = _axes(axis, a.ndim)
        self.shape = a.shape
        self.kept = _kept_shape(a.shape, axes)
        return axes

    def _reduce(self, tangent):
        """A tangent summed over the reduced axes (the engine reshapes it to the output's)."""
        return tangent.sum(axis=self._reduced_axes(), keepdims=True)

    def _reduced_axes(self):
        """The axes whose size the reduction changed (reducing a size-1 axis changes nothing)."""
        return tuple(i for i, (k, n) in enumerate(zip(self.kept, self.shape)) if k != n)

    def _expand(self, grad):
        """The gradient of the reduced output, broadcast back over the reduced axes."""
        return array_or_tensor.broadcast_to(grad.reshape(self.kept), self.shape)


@exposed("sum")
class Sum(_Reduction):
    """The sum over axes; ``dtype=`` sums in that dtype (PyTorch's ``x.sum(dtype=...)``), and
    the gradient comes back in the input's."""

    __slots__ = ("source",)

    def forward(self, a, axis=None, keepdims=False, dtype=None):
        axes = self._setup(a, axis)
        if dtype is None:
            return a.sum(axis=axes, keepdims=keepdims)
        self.source = a.dtype
        return a.sum(axis=axes, keepdims=keepdims, dtype=dtype)

    def backward(self, grad):
        grad = self._expand(grad)
        source = getattr(self, "source", None)
        if source is None or grad.dtype == source:
            return grad
        return grad.to(source) if isinstance(grad, Tensor) else grad.astype(source)

    jvp = _Reduction._reduce


@exposed("mean")
class Mean(_Reduction):
    """The mean over ``axis`` (all axes when None): each element gets the gradient divided by
    the number of elements averaged."""

    __slots__ = ("count",)

    def forward(self, a, axis=None, keepdims=False):
        axes = self._setup(a, axis)
        self.count = math.prod([a.shape[i] for i in axes])
        return _mean(a, axes, keepdims)

    def backward(self, grad):
        if not self.count:  # an empty input: its gradient is empty too
            return self._expand(grad * 0)
        return self._expand(grad / self.count)

    def jvp(self, tangent):
        return self._reduce(tangent) / self.count


class _Extreme(_Reduction):
    """max or min over axes. Tied elements share the gradient equally; where a slice holds NaN,
    the result is NaN and its NaN elements share the gradient (PyTorch's max() and min())."""

    __slots__ = ()
    pick = None  # the ufunc whose reduce picks the best: np.maximum or np.minimum
    multiplies = False  # backward selects the shares (max(), min()) or multiplies (amax, amin)

    def forward(self, a, axis=None, keepdims=False):
        axes = self._setup(a, axis)
        if a.size == 0 and (not axes or any(a.shape[i] == 0 for i in axes)):
            raise ValueError(f"{self.name}: the tensor of shape {a.shape} has no elements along "
                             f"the reduced axes, so there is no {self.name.lower()} there "
                             "(PyTorch refuses it too)")
        best = self.pick.reduce(a, axis=axes, keepdims=True)
        self.save_for_backward(a, best)  # the ties are worked out only if backward runs
        return best if keepdims else best.reshape([n for i, n in enumerate(a.shape)
                                                   if i not in axes])

    def _shares(self):
        """Each element's share of its slice's gradient: 1 / (number of ties) for the best
        elements (NaN ones where the slice holds NaN), 0 elsewhere. A constant array."""
        a, best = (_data(x) for x in self.saved_tensors)
        winners = (a == best) | (np.isnan(a) & np.isnan(best))
        return winners / winners.sum(axis=self._reduced_axes(), keepdims=True, dtype=a.dtype)

    def backward(self, grad):
        shares = self._shares()
        if self.multiplies:  # an infinite gradient gives NaN (inf · 0) beside the best elements
            return self._expand(grad) * shares
        return array_or_tensor.where(shares > 0, self._expand(grad), 0.0) * shares

    def jvp(self, tangent):
        shares = self._shares()
        return self._reduce(np.where(shares > 0, tangent, 0.0) * shares)


class Max(_Extreme):
    __slots__ = ()
    pick = np.maximum


class Min(_Extreme):
    __slots__ = ()
    pick = np.minimum


class Amax(Max):
    """torch.amax: max's values and shares, but the gradient is multiplied by each element's
    share rather than selected, so an infinite gradient gives NaN beside the largest elements,
    as PyTorch's amax (and not its max()) gives."""

    __slots__ = ()
    multiplies = True


class Amin(Min):
    """torch.amin: see Amax."""

    __slots__ = ()
    multiplies = True


def _mean(a, axes, keepdims):
    """``a.mean`` over ``axes``; NaN over no elements, without NumPy's warnings (PyTorch's)."""
    if a.size:
        return a.mean(axis=axes, keepdims=keepdims)
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # "Mean of empty slice"
        return a.mean(axis=axes, keepdims=keepdims)


@exposed("logsumexp")
class LogSumExp(_Reduction):
    """log(sum(exp(a))) over axes, shifted by the max so large inputs do not overflow. Over no
    elements it is log(0) = -inf, as in PyTorch."""

    __slots__ = ()

    def forward(self, a, axis=-1, keepdims=False):
        axes = self._setup(a, axis)
        if a.size:
            shift = np.max(a, axis=axes, keepdims=True)
            shift = np.where(np.isfinite(shift), shift, 0)
        else:  # nothing to shift (NumPy's max of an empty slice would raise)
            shift = np.zeros(self.kept, a.dtype)
        with np.errstate(divide="ignore"):  # a sum of 0 (no elements, or all -inf): -inf
            out = np.log(np.exp(a - shift).sum(axis=axes, keepdims=True)) + shift
        out = out if keepdims else out.reshape([n for i, n in enumerate(a.shape) if i not in axes])
        self.save_for_backward(a, out)
        return out

    def backward(self, grad):
        a, out = self.saved_tensors
        return self._expand(grad) * array_or_tensor.exp(a - out.reshape(self.kept))

    def jvp(self, tangent):
        a, out = self.saved_tensors
        return self._reduce(tangent * np.exp(a - out.reshape(self.kept)))


def _softmax_axis(name, axis, a):
    """softmax's and log_softmax's axis, which must be given: PyTorch's legacy default (0 for
    0-, 1- and 3-D input, else 1) differs from the last axis a student expects, so there is no
    default to get silently wrong."""
    if axis is None:
        raise TypeError(
            f"{name}() needs the axis to normalise over, for input of shape {a.shape}: pass "
            f"dim=-1 for the last axis, as PyTorch recommends (e.g. x.{name}(dim=-1)). PyTorch's "
            "implicit dim is deprecated and is not always the last axis (0 for 3-D input)")
    _axes(axis, a.ndim)  # out of range: the usual message
    return axis


@exposed("softmax")
class Softmax(Op):
    """exp(a) / sum(exp(a)) along one axis (``dim``, required as PyTorch recommends), shifted
    by the max for stability."""

    __slots__ = ("axis",)

    def forward(self, a, axis=None):
        self.axis = axis = _softmax_axis("softmax", axis, a)
        if a.size == 0:  # nothing to normalise (PyTorch returns the empty tensor)
            out = a.copy()
            self.save_for_backward(out)
            return out
        e = np.exp(a - a.max(axis=axis, keepdims=True))
        out = e / e.sum(axis=axis, keepdims=True)
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return out * (grad - (grad * out).sum(axis=self.axis, keepdims=True))

    def jvp(self, tangent):
        (out,) = self.saved_tensors
        return out * (tangent - (tangent * out).sum(axis=self.axis, keepdims=True))


@exposed("log_softmax")
class LogSoftmax(Op):
    """a - logsumexp(a) along one axis (``dim``, required as PyTorch recommends)."""

    __slots__ = ("axis",)

    def forward(self, a, axis=None):
        self.axis = axis = _softmax_axis("log_softmax", axis, a)
        if a.size == 0:
            out = a.copy()
            self.save_for_backward(out)
            return out
        shifted = a - a.max(axis=axis, keepdims=True)
        out = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
        self.save_for_backward(out)
        return out

    def backward(self, grad):
        (out,) = self.saved_tensors
        return grad - array_or_tensor.exp(out) * grad.sum(axis=self.axis, keepdims=True)

    def jvp(self, tangent):
        (out,) = self.saved_tensors
        return tangent - (np.exp(out) * tangent).sum(axis=self.axis, keepdims=True)


class _Spread(_Reduction):
    """var and std: the mean square distance from the mean over axes, divided by N - correction
    (Bessel's correction 1 by default, as in PyTorch; ``unbiased=False`` means 0)."""

    __slots__ = ("axes", "dof")

    def _square_spread(self, a, axis, unbiased, keepdims, correction):
        if isinstance(axis, bool):  # torch.var(x, False): the unbiased flag in axis's place
            axis, unbiased = None, axis
        if unbiased is not None:
            if correction is not None:
                raise TypeError(f"{self.name.lower()}: give correction or unbiased, not both "
                                "(unbiased=False is correction=0)")
            correction = 0 if not unbiased else 1
        self.axes = self._setup(a, axis)
        count = int(np.prod([a.shape[i] for i in self.axes]))
        self.dof = max(count - (1 if correction is None else correction), 0)
        centred = self._centred(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return (centred * centred).sum(axis=self.axes, keepdims=keepdims) / self.dof

    def _centred(self, a):
        if isinstance(a, Tensor):
            return a - a.mean(axis=self.axes, keepdims=True)
        return a - _mean(a, self.axes, True)


@exposed("var")
class Var(_Spread):
    """Variance over all axes or the given ones: sum((a - mean)^2) / (N - correction)."""

    __slots__ = ()

    def forward(self, a, axis=None, unbiased=None, keepdims=False, *, correction=None):
        out = self._square_spread(a, axis, unbiased, keepdims, correction)
        self.save_for_backward(a)
        return out

    def backward(self, grad):
        (a,) = self.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            return self._expand(grad) * (2 * self._centred(a) / self.dof)

    def jvp(self, tangent):
        (a,) = self.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            return self._reduce(2 * self._centred(a) * tangent) / self.dof


@exposed("std")
class Std(_Spread):
    """Standard deviation over all axes or the given ones: sqrt(var). Where it is 0 (all equal)
    its gradient is 0, as in PyTorch."""

    __slots__ = ()

    def forward(self, a, axis=None, unbiased=None, keepdims=False, *, correction=None):
        out = np.sqrt(self._square_spread(a, axis, unbiased, keepdims, correction))
        self.save_for_backward(a, out)
        return out

    def _slope(self, a, out):
        out = out.reshape(self.kept)
        zero = out == 0  # all equal: PyTorch's gradient (and second derivative) is 0 there
        with np.errstate(divide="ignore", invalid="ignore"):
            scaled = self._centred(a) / (array_or_tensor.where(zero, 1.0, out) * self.dof)
        return array_or_tensor.where(zero, 0.0, scaled)

    def backward(self, grad):
        """0 where std is 0, even for an infinite grad (inf · 0 would be NaN), as in PyTorch."""
        a, out = self.saved_tensors
        zero = out.reshape(self.kept) == 0
        return array_or_tensor.where(zero, 0.0, self._expand(grad) * self._slope(a, out))

    def jvp(self, tangent):
        a, out = self.saved_tensors
        return self._reduce(tangent * self._slope(a, out))


@exposed("prod")
class Prod(_Reduction):
    """Product of the elements over all axes or the given ones. Each element's derivative is
    the product of the others, so zeros are exact, as in PyTorch: in a slice with one zero only
    the zero gets a gradient (the product of the rest); with two or more, none does."""

    __slots__ = ("axes",)

    def forward(self, a, axis=None, keepdims=False):
        self.axes = self._setup(a, axis)
        out = np.prod(a, axis=self.axes, keepdims=keepdims)
        self.save_for_backward(a, out)
        return out

    def _others(self, a, out):
        """The product of the other elements of each one's slice."""
        if not (_data(a) == 0).any():
            return out.reshape(self.kept) / a
        rest = [i for i in range(len(self.shape)) if i not in self.axes]
        order = rest + list(self.axes)
        moved = a.permute(*order) if isinstance(a, Tensor) else a.transpose(order)
        lead = moved.shape[:len(rest)]
        n = int(np.prod(moved.shape[len(rest):]))
        rows = moved.reshape(lead + (n,))
        if isinstance(rows, Tensor):  # differentiable again: each row's product without one
            spread = array_or_tensor.broadcast_to(rows.reshape(lead + (1, n)), lead + (n, n))
            others = array_or_tensor.where(np.eye(n, dtype=bool), 1.0, spread).prod(axis=-1)
        else:  # exclusive products from the left and from the right
            ones = np.ones(lead + (1,), dtype=rows.dtype)
            left = np.cumprod(np.concatenate([ones, rows[..., :-1]], axis=-1), axis=-1)
            right = np.cumprod(np.concatenate([ones, rows[..., :0:-1]], axis=-1), axis=-1)
            others = left * right[..., ::-1]
        back = others.reshape(moved.shape)
        inverse = tuple(np.argsort(order))
        return back.permute(*inverse) if isinstance(back, Tensor) else back.transpose(inverse)

    def backward(self, grad):
        if not self.axes:  # nothing multiplied (a 0-d tensor): the gradient passes, as in PyTorch
            return self._expand(grad)
        a, out = self.saved_tensors
        if (not isinstance(a, Tensor) and len(self.axes) == len(self.shape)
                and np.count_nonzero(a == 0) > 1):
            # Two zeros: every "product of the others" is 0, so PyTorch gives zeros outright,
            # and an infinite upstream gradient gives 0 rather than NaN.
            return np.zeros(self.shape, dtype=a.dtype)
        return self._expand(grad) * self._others(a, out)

    def jvp(self, tangent):
        a, out = self.saved_tensors
        return self._reduce(tangent * self._others(a, out))


@exposed("norm")
class Norm(_Reduction):
    """The p-norm over all elements or the given axes, as torch.norm: p="fro" (the default) and
    2 give sqrt(sum(a^2)); 1 sum(|a|); inf max(|a|); -inf min(|a|); 0 the count of non-zeros;
    any other p (sum(|a|^p))^(1/p). At a = 0 the 2-norm's gradient is 0, as in PyTorch."""

    __slots__ = ("p", "axes")

    def forward(self, a, p="fro", axis=None, keepdims=False):
        self.p = _norm_order(p, axis)
        self.axes = self._setup(a, axis)
        mag = np.abs(a)
        if self.p == 2:
            out = np.sqrt((a * a).sum(axis=self.axes, keepdims=keepdims))
        elif self.p == 1:
            out = mag.sum(axis=self.axes, keepdims=keepdims)
        elif np.isinf(self.p):
            _check_extreme_norm(self.p, a.shape, self.axes, axis)
            pick = np.max if self.p > 0 else np.min
            out = pick(mag, axis=self.axes, keepdims=keepdims)
        elif self.p == 0:
            out = (a != 0).sum(axis=self.axes, keepdims=keepdims).astype(a.dtype)
        else:
            with np.errstate(divide="ignore"):
                out = (mag ** self.p).sum(axis=self.axes, keepdims=keepdims) ** (1 / self.p)
        self.save_for_backward(a, out)
        return out

    def _slope(self, a, out):
        """d norm / d a, elementwise (PyTorch's norm_backward, written for arrays and Tensors)."""
        p, out = self.p, out.reshape(self.kept)
        sign = array_or_tensor.sign(a)
        if p == 1:
            return sign
        if np.isinf(p):
            mag = np.abs(_data(a))
            ties = (mag == _data(out)) | np.isnan(mag)
            return sign * (ties / ties.sum(axis=self.axes, keepdims=True, dtype=mag.dtype))
        # Where the norm (or, for p < 1, an element) is 0 the slope is 0, as in PyTorch, and so
        # is the second derivative for p > 1 — but NaN for p = 2 and p < 1, PyTorch's too.
        with np.errstate(divide="ignore", invalid="ignore"):
            if p == 2:
                return array_or_tensor.where(out == 0, 0.0, a / out)
            mag = sign * a
            if p < 1:
                return sign * array_or_tensor.where(a == 0, 0.0, mag ** (p - 1)) * out ** (1 - p)
            return sign * mag ** (p - 1) / array_or_tensor.where(out == 0, 1.0, out) ** (p - 1)

    def backward(self, grad):
        if self.p == 0:
            return None  # a count: PyTorch gives no gradient at all
        a, out = self.saved_tensors
        return self._expand(grad) * self._slope(a, out)

    def jvp(self, tangent):
        a, out = self.saved_tensors
        if self.p == 0:
            return np.zeros(np.shape(out), dtype=tangent.dtype)
        return self._reduce(tangent * self._slope(a, out))


def _check_extreme_norm(p, shape, axes, axis):
    """The inf and -inf norms are a max and a min, which have no value over no elements: as in
    PyTorch, an empty reduced axis is an error, while empty axes kept are fine (an empty
    result)."""
    name = "inf" if p > 0 else "-inf"
    if axis is None and 0 in shape:
        raise ValueError(f"norm: the {name} norm of an empty tensor (shape {shape}) has no "
                         f"value; as PyTorch says, it cannot compute the {name} norm on an "
                         "empty tensor because the operation (a max or min) does not have an "
                         "identity. Reduce over non-empty axes only (pass dim)")
    empty = [i for i in axes if shape[i] == 0]
    if empty:
        raise ValueError(f"norm: cannot compute the {name} norm on the dimension {empty[0]} "
                         f"because this dimension is empty (shape {shape}) and the operation "
                         "does not have an identity, as in PyTorch; reduce over the non-empty "
                         "axes only")


def _norm_order(p, axis):
    """norm's p as a number (inf for "inf"): "fro" is 2, over at most two axes as in PyTorch."""
    if p is None or p == "fro":
        if isinstance(axis, (tuple, list)) and len(axis) > 2:
            raise ValueError(f"norm: p='fro' is a matrix norm over at most 2 axes, got axis "
                             f"{tuple(axis)}; pass p=2 for the 2-norm of all their elements")
        return 2.0
    if isinstance(p, str) and p in ("inf", "-inf"):
        return float(p)
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise ValueError(f"norm: p={p!r} is not supported; p is 'fro', a number, inf or -inf "
                         "(the nuclear norm 'nuc' is not implemented here)")
    return float(p)


@exposed("cumsum")
class Cumsum(Op):
    """Running sums along ``axis``: y_i = a_0 + ... + a_i. Each a_j counts in every y_i with
    i >= j, so its gradient is the upstream gradient summed from the far end back to j."""

    __slots__ = ("axis",)

    def forward(self, a, *, axis):
        self.axis = _one_axis(axis, a.ndim, "cumsum")
        return a.copy() if a.ndim == 0 else np.cumsum(a, axis=self.axis)

    def backward(self, grad):
        if self.axis is None:
            return grad
        axis = self.axis
        if isinstance(grad, Tensor):
            return grad.flip(axis).cumsum(axis).flip(axis)
        return np.flip(np.cumsum(np.flip(grad, axis), axis=axis), axis)

    def jvp(self, tangent):
        return tangent if self.axis is None else np.cumsum(tangent, axis=self.axis)


def _one_axis(axis, ndim, name):
    """One axis as a non-negative int; None for a 0-d tensor (which takes 0 or -1)."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{name} takes one axis (a whole number such as 0 or -1), got {axis!r}")
    if ndim == 0 and axis in (0, -1):
        return None
    try:
        return int(np.lib.array_utils.normalize_axis_index(int(axis), ndim))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(
            f"{name}: axis {axis} is out of range for a tensor with {ndim} dimension(s); axes "
            f"run from {-max(ndim, 1)} to {max(ndim, 1) - 1}") from None


def _data(x):
    return x.data if isinstance(x, Tensor) else x


def _truth(name, test):
    """PyTorch's ``torch.<name>(x, dim=None, keepdim=False)``: a constant bool tensor."""

    def function(x, axis=None, keepdims=False):
        data = _data(x)
        return Tensor._make(np.asarray(test(data != 0, axis=_axes(axis, data.ndim),
                                            keepdims=keepdims)), False, None)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"Whether {'every' if name == 'all' else 'any'} element is non-zero, over "
                        "all axes or the given ones (dim may be a tuple): a constant bool tensor.")
    return exposed(name)(function)


all_ = _truth("all", np.all)
any_ = _truth("any", np.any)


class _Running(Op):
    """A running reduction along ``axis`` (cumprod, logcumsumexp) whose derivative is the matrix
    J[..., j, i] = ∂y_i/∂a_j along the last axis (0 for i < j), ``_jacobian``: O(n²) per slice,
    written with ops that work on arrays and on Tensors, so the backward is differentiable."""

    __slots__ = ("axis",)

    def _last(self, x):
        return x.swapaxes(self.axis, -1)

    def backward(self, grad):
        if self.axis is None:
            return grad * self._jacobian(*self.saved_tensors)
        return self._last(self._terms(self._last(grad)[..., None, :]).sum(axis=-1))

    def jvp(self, tangent):
        if self.axis is None:
            return tangent * self._jacobian(*self.saved_tensors)
        return self._last(self._terms(self._last(tangent)[..., :, None]).sum(axis=-2))

    def _terms(self, factor):
        """J · ``factor`` on and above the diagonal; below it 0, selected rather than multiplied
        (y_i does not depend on a_j for i < j), so an infinite gradient of an earlier y gives
        no NaN to a later a, as in PyTorch."""
        jacobian = self._jacobian(*(self._last(x) for x in self.saved_tensors))
        n = jacobian.shape[-1]
        return array_or_tensor.where(_on_or_above_diagonal(n), jacobian * factor,
                                     np.zeros((), dtype=_data(jacobian).dtype))


def _on_or_above_diagonal(n):
    return np.triu(np.ones((n, n), dtype=bool))


@exposed("cumprod")
class Cumprod(_Running):
    """Running products along ``axis``: y_i = a_0·…·a_i. ∂y_i/∂a_j (j ≤ i) is the product of
    a_0 … a_i without a_j: the running products of a with a_j replaced by 1. Exact with zeros, as
    PyTorch's (dividing y by a_j would give 0/0 there)."""

    __slots__ = ()

    def forward(self, a, *, axis):
        self.axis = _one_axis(axis, a.ndim, "cumprod")
        self.save_for_backward(a)
        return a.copy() if a.ndim == 0 else np.cumprod(a, axis=self.axis)

    def _jacobian(self, a):
        if self.axis is None:
            return np.ones((), dtype=_data(a).dtype)
        n = a.shape[-1]
        rows = array_or_tensor.where(np.eye(n, dtype=bool), np.ones((), dtype=_data(a).dtype),
                                     a[..., None, :])
        products = rows.cumprod(-1) if isinstance(rows, Tensor) else np.cumprod(rows, axis=-1)
        return array_or_tensor.where(_on_or_above_diagonal(n), products,
                                     np.zeros((), dtype=_data(a).dtype))


@exposed("logcumsumexp")
class LogCumSumExp(_Running):
    """Running log-sum-exp along ``axis``: y_i = log(e^a_0 + … + e^a_i), computed stably.
    ∂y_i/∂a_j = e^(a_j − y_i) for j ≤ i: the softmax weight of a_j among a_0 … a_i."""

    __slots__ = ()

    def forward(self, a, *, axis):
        self.axis = _one_axis(axis, a.ndim, "logcumsumexp")
        out = a.copy() if a.ndim == 0 else np.logaddexp.accumulate(a, axis=self.axis)
        self.save_for_backward(a, out)
        return out

    def _jacobian(self, a, out):
        if self.axis is None:
            return np.ones((), dtype=_data(a).dtype)
        gaps = a[..., :, None] - out[..., None, :]
        below = np.full((), -np.inf, dtype=_data(a).dtype)
        return array_or_tensor.exp(array_or_tensor.where(
            _on_or_above_diagonal(a.shape[-1]), gaps, below))


def _as_tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x)


@exposed("nansum")
def nansum(x, axis=None, keepdims=False):
    """The sum with NaN elements counted as 0 (and given gradient 0), as torch.nansum."""
    from .elementwise import where

    x = _as_tensor(x)
    return Sum.apply(where(np.isnan(x.data), np.zeros((), dtype=x.dtype), x), axis=axis,
                     keepdims=keepdims)


@exposed("nanmean")
def nanmean(x, axis=None, keepdims=False):
    """The mean of the elements that are not NaN (NaN where all are), as torch.nanmean."""
    x = _as_tensor(x)
    count = (~np.isnan(x.data)).sum(axis=_axes(axis, x.ndim), keepdims=keepdims)
    return nansum(x, axis, keepdims) / count.astype(x.dtype)


@exposed("var_mean")
def var_mean(x, axis=None, unbiased=None, keepdims=False, *, correction=None):
    """PyTorch's pair (variance, mean) over the same axes (see ``var``)."""
    x = _as_tensor(x)
    return (Var.apply(x, axis=axis, unbiased=unbiased, keepdims=keepdims, correction=correction),
            Mean.apply(x, axis=axis, keepdims=keepdims))


@exposed("std_mean")
def std_mean(x, axis=None, unbiased=None, keepdims=False, *, correction=None):
    """PyTorch's pair (standard deviation, mean) over the same axes (see ``std``)."""
    x = _as_tensor(x)
    return (Std.apply(x, axis=axis, unbiased=unbiased, keepdims=keepdims, correction=correction),
            Mean.apply(x, axis=axis, keepdims=keepdims))


@exposed("diff")
def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along ``axis`` (PyTorch's ``dim``), y_i = a_(i+1) − a_i applied
    n times, after joining ``prepend`` and ``append`` to a along it (tensors with a's number of
    dimensions, as torch.diff asks). Built from concatenation, slicing and subtraction."""
    from .shape import concatenate

    x = _as_tensor(x)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"diff: order n must be a whole number ≥ 0 but got {n!r}")
    axis = _one_axis(axis, x.ndim, "diff")
    if axis is None:
        raise ValueError("diff needs a tensor with at least one dimension, got a 0-d tensor; "
                         "make it one with x.reshape(1)")
    parts = [_as_tensor(p) for p in (prepend, x, append) if p is not None]
    for part in parts:
        if part.ndim != x.ndim:
            raise ValueError(f"diff expects prepend and append to have the input's number of "
                             f"dimensions ({x.ndim}, shape {x.shape}), got shape {part.shape}; "
                             "reshape them, e.g. p.reshape(1, -1) to prepend a row")
    x = concatenate(parts, axis=axis) if len(parts) > 1 else x
    before = (slice(None),) * axis
    for _ in range(min(n, x.shape[axis] + 1)):  # each difference is one shorter, down to 0
        x = x[(*before, slice(1, None))] - x[(*before, slice(None, -1))]
    return x
