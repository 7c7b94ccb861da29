"""Elementwise functions, each with its local derivative beside it.

An op of one operand with nothing special to keep is declared in one call of ``unary``: its
forward on the array, its backward from the gradient and the value it saves (the input, the output
or nothing) and its docstring. Ops that need more (two saved values, settings, their own jvp) are
written out as classes.
"""

import math
import sys
import textwrap

import numpy as np

from ..tensor import Tensor, as_tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed


class _Unary(Op):
    """An elementwise op of one operand declared by ``unary``: ``compute`` is its forward on the
    array, ``derivative(grad, saved)`` its backward. The Jacobian is diagonal, so a tangent is
    pushed forward as a gradient is pulled back: the jvp is the backward."""

    __slots__ = ()

    def backward(self, grad):
        return self.derivative(grad, self.saved_tensors[0])

    jvp = backward


class _SavesInput(_Unary):
    __slots__ = ()

    def forward(self, a):
        self.save_for_backward(a)
        return self.compute(a)


class _SavesOutput(_Unary):
    __slots__ = ()

    def forward(self, a):
        out = self.compute(a)
        self.save_for_backward(out)
        return out


class _SavesNothing(_Unary):
    __slots__ = ()

    def forward(self, a):
        return self.compute(a)

    def backward(self, grad):
        return self.derivative(grad)

    jvp = backward


_SAVES = {"input": _SavesInput, "output": _SavesOutput, None: _SavesNothing}


def unary(name, forward, backward, *, saves="input", doc, method=True):
    """Declare the elementwise op ``autograd.<name>`` and its method ``x.<name>()``: ``forward``
    maps the input array to the output, ``backward(grad, saved)`` gives the input's gradient from
    the output's and the value ``saves`` names ("input" or "output"; with None, ``backward(grad)``
    alone); ``method=False`` makes no Tensor method. Returns the op's Function class, named after
    ``name`` (``log1p``: ``Log1p``) and defined in the calling module, as a ``class`` statement
    there would be."""
    class_name = "".join(part.capitalize() for part in name.split("_"))
    namespace = {"__slots__": (), "__doc__": textwrap.fill(doc, 96), "__qualname__": class_name,
                 "__module__": sys._getframe(1).f_globals["__name__"],
                 "compute": staticmethod(forward), "derivative": staticmethod(backward)}
    return exposed(name, method)(type(class_name, (_SAVES[saves],), namespace))


def zero_gradient(grad):
    """The gradient of a piecewise constant op: zeros (PyTorch's rule), not an error."""
    return np.zeros(grad.shape, dtype=grad.dtype)


def _whole(rounding):
    """A rounding to whole numbers for floats; integers pass unchanged (as a copy)."""
    return lambda a: rounding(a) if a.dtype.kind == "f" else a.copy()


Exp = unary("exp", np.exp, saves="output", backward=lambda grad, out: grad * out,
            doc="eᵃ, with derivative eᵃ (the output itself).")


Log = unary("log", np.log, backward=lambda grad, a: grad / a,
            doc="ln a, with derivative 1/a (−inf at 0, NaN below, as in PyTorch).")


Sqrt = unary("sqrt", np.sqrt, saves="output", backward=lambda grad, out: grad / (2 * out),
             doc="√a, with derivative 1/(2√a) (inf at 0).")


Square = unary("square", lambda a: a * a, backward=lambda grad, a: grad * 2 * a,
               doc="a * a, elementwise; its derivative is 2a.")


Abs = unary("abs", np.abs, backward=lambda grad, a: grad * call(Sign, a),
            doc="|a|, with derivative sign(a): 0 at 0, and for NaN (PyTorch's sign).")


Sign = unary(
    "sign", lambda a: np.nan_to_num(np.sign(a, out=np.empty(a.shape, a.dtype)), copy=False),
    saves=None, backward=zero_gradient,
    doc="-1, 0 or 1 by the sign of a, and 0 for NaN (PyTorch's value; NumPy's sign gives NaN). "
        "Piecewise constant, so its derivative is 0 (PyTorch's rule): it is recorded, and a "
        "gradient through it is zeros rather than an error.")


Sin = unary("sin", np.sin, backward=lambda grad, a: grad * array_or_tensor.cos(a),
            doc="sin a, with derivative cos a.")


Cos = unary("cos", np.cos, backward=lambda grad, a: -grad * array_or_tensor.sin(a),
            doc="cos a, with derivative −sin a.")


Tanh = unary("tanh", np.tanh, saves="output",
             backward=lambda grad, out: grad * (1 - out * out),  # an infinite grad stays so
             doc="tanh a, with derivative 1 − tanh² a (from the output).")


@exposed("sigmoid")
class Sigmoid(Op):
    """1 / (1 + e^-a), accurate in both tails (see ``sigmoid_array``), with derivative
    σ(a)·σ(−a) = e^−|a| / (1 + e^−|a|)²: written so rather than σ(1 − σ), which is 0 once σ has
    rounded to 1, so that the derivative, and those of silu, softplus, mish and gelu built on it,
    keep their tails."""

    __slots__ = ()

    def forward(self, a):
        e = np.exp(-np.abs(a))  # as sigmoid_array, keeping e for the backward
        self.save_for_backward(a, e)
        return np.maximum(e, a >= 0) / (1 + e)

    def backward(self, grad):
        a, e = self.saved_tensors
        if isinstance(a, Tensor):  # create_graph: e rebuilt from recorded ops, differentiable
            e = (-a.abs()).exp()
        total = 1 + e  # σ(a)·σ(−a) = e / (1 + e)² with e = e^−|a|, on either side of 0
        return grad * (e / (total * total))

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


Relu = unary("relu", lambda a: np.maximum(a, 0), saves="output",
             backward=lambda grad, out: masked(_data(out) != 0, grad, out),  # 0 where a ≤ 0
             doc="max(a, 0), with derivative 1 where a > 0 and 0 elsewhere (0 at 0); a NaN "
                 "input passes the gradient on, as in PyTorch.")


@exposed("leaky_relu")
class LeakyRelu(Op):
    """a where a > 0, else negative_slope * a."""

    __slots__ = ("negative_slope",)

    def forward(self, a, negative_slope=0.01):
        self.negative_slope = negative_slope
        self.save_for_backward(a)
        return np.where(a > 0, a, a * np.asarray(negative_slope, dtype=a.dtype))

    def backward(self, grad):
        (a,) = self.saved_tensors
        return select(_data(a) > 0, grad, grad * self.negative_slope, a)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


class Clip(Op):
    """a limited to [low, high]; the gradient passes only where a is inside, ends included (and
    not for NaN), as in PyTorch."""

    __slots__ = ()

    def forward(self, a, low, high):
        self.save_for_backward((a >= (-np.inf if low is None else low))
                               & (a <= (np.inf if high is None else high)))
        return np.clip(a, low, high)

    def backward(self, grad):
        (inside,) = self.saved_tensors
        return masked(_data(inside), grad)

    jvp = backward  # a diagonal Jacobian: a tangent is scaled as a gradient is


class _Extremum(Op):
    """Maximum's and Minimum's derivative, PyTorch's: the gradient, halved where a and b tie, goes
    to each operand except where the other one wins, so where one is NaN (and so the result)
    both get all of it. ``forward`` saves the masks (a loses, b loses, they tie)."""

    __slots__ = ()
    promotes_zero_dim = True

    def backward(self, grad):
        a_loses, b_loses, ties = (_data(mask) for mask in self.saved_tensors)
        if ties.any():
            grad = array_or_tensor.where(ties, grad * 0.5, grad)
        return masked(~a_loses, grad), masked(~b_loses, grad)

    def jvp(self, tangent_a, tangent_b):
        _, b_loses, ties = self.saved_tensors
        return tangent_b + np.where(ties, 0.5, b_loses) * (tangent_a - tangent_b)


@exposed("maximum")
class Maximum(_Extremum):
    """Elementwise max(a, b) (NaN if either is); the gradient as ``_Extremum`` says."""

    __slots__ = ()

    def forward(self, a, b):
        self.save_for_backward(a < b, a > b, a == b)
        return np.maximum(a, b)


@exposed("minimum")
class Minimum(_Extremum):
    """Elementwise min(a, b) (NaN if either is); the gradient as ``_Extremum`` says."""

    __slots__ = ()

    def forward(self, a, b):
        self.save_for_backward(a > b, a < b, a == b)
        return np.minimum(a, b)


class Cast(Op):
    """The elements as another dtype (``x.to(np.float32)``); the gradient is cast back to the
    input's dtype. An integer or bool result is not differentiable, so it is a constant."""

    __slots__ = ("dtype",)

    def forward(self, a, dtype):
        self.dtype = a.dtype
        return a.astype(dtype)

    def backward(self, grad):  # a 0-d gradient may be a NumPy scalar: test for a Tensor
        return grad.to(self.dtype) if isinstance(grad, Tensor) else grad.astype(self.dtype)

    def jvp(self, tangent):
        return tangent  # the engine gives every tangent its output's dtype


class Where(Op):
    """x where condition holds, else y; the condition is a constant attribute."""

    __slots__ = ()
    promotes_zero_dim = True

    def forward(self, x, y, condition):
        self.save_for_backward(condition)
        return np.where(condition, x, y)

    def backward(self, grad):
        (condition,) = self.saved_tensors
        need_x, need_y = self.needs_input_grad
        return (array_or_tensor.where(condition, grad, 0.0) if need_x else None,
                array_or_tensor.where(condition, 0.0, grad) if need_y else None)

    def jvp(self, tangent_x, tangent_y):
        (condition,) = self.saved_tensors
        return np.where(condition, tangent_x, tangent_y)


class Select(Op):
    """x where keep holds, else y: a backward's branch on the values of ``source`` (relu's out > 0,
    ...) under create_graph (see ``select``). ``source`` is an operand with derivative 0, so the
    result stays connected to it and a second derivative through the branch is 0, as PyTorch's
    threshold_backward and its kin give, rather than an error."""

    __slots__ = ()

    def forward(self, x, y, source, keep):
        self.save_for_backward(keep)
        return np.where(keep, x, y)

    def backward(self, grad):
        keep = _data(self.saved_tensors[0])
        need_x, need_y, need_source = self.needs_input_grad
        return (masked(keep, grad) if need_x else None,
                masked(~keep, grad) if need_y else None,
                np.zeros(grad.shape, dtype=grad.dtype) if need_source else None)

    def jvp(self, tangent_x, tangent_y, tangent_source):
        (keep,) = self.saved_tensors
        return np.where(keep, tangent_x, tangent_y)


def select(keep, x, y, source=None):
    """x where the bool array ``keep`` holds, else y, for a backward that branches on its input's
    values: np.where on arrays; on Tensors recorded, as ``Select`` connected to ``source`` when
    given (PyTorch's backward functions that take the input), else as ``where``."""
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        return np.where(keep, x, y)
    if isinstance(source, Tensor):
        return Select.apply(x, y, source, keep=keep)
    return where(keep, x, y)


def masked(keep, grad, source=None):
    """grad where the bool array ``keep`` holds, else 0: a gradient through a mask. A select, not
    grad·keep, so an infinite or NaN gradient where keep fails gives 0 (inf·0 is NaN), as in
    PyTorch. On a large array it ANDs grad's bits with all ones or all zeros, as fast as the
    product (np.where is several times slower on an unpredictable mask); on a small one it is
    np.where, which costs less to call; on Tensors it is ``select``."""
    if type(grad) is np.ndarray:
        if grad.ndim == 0 and keep.ndim == 0:  # a scalar graph (micrograd's): no array call
            return grad if keep else np.zeros((), dtype=grad.dtype)
        if grad.size > 256 and keep.shape == grad.shape:
            bits = _SAME_SIZE_INTEGER[grad.dtype.itemsize]
            selected = keep.astype(bits)  # 1 or 0, then all ones or all zeros; in place now
            np.negative(selected, out=selected)
            return np.bitwise_and(grad.view(bits), selected, out=selected).view(grad.dtype)
        return np.where(keep, grad, 0)
    return select(keep, grad, 0.0, source)


_SAME_SIZE_INTEGER = {2: np.int16, 4: np.int32, 8: np.int64}


def sigmoid_array(a):
    """1 / (1 + e^-a) on an array, accurate in both tails and without overflow: with e = e^-|a|,
    1 / (1 + e) for a ≥ 0 and e / (1 + e) below (the numerator max(e, a ≥ 0) is 1 or e, and NaN
    for NaN, without np.where's cost)."""
    e = np.exp(-np.abs(a))
    return np.maximum(e, a >= 0) / (1 + e)


@exposed("clip")
def clip(x, min=None, max=None):  # noqa: A002 - NumPy's and PyTorch's keyword names
    """Limit x to [min, max] (either may be None)."""
    if min is None and max is None:
        raise ValueError("clip needs min, max or both: e.g. clip(x, 0.0, 1.0)")
    return Clip.apply(x, low=min, high=max)


@exposed("where", method=False)
def where(condition, x=None, y=None):
    """x where condition is true, else y (all three broadcast together). The condition is
    boolean (uint8 too), as PyTorch requires: a float one would be read as "non-zero". With the
    condition alone, PyTorch's ``where(condition)``: a tuple of int64 index arrays (constants),
    one per axis, of the elements that are non-zero."""
    if x is None and y is None:
        return tuple(_untracked(i.astype(np.int64)) for i in np.nonzero(_data(condition)))
    if x is None or y is None:
        raise TypeError("where takes the condition alone (the indices where it holds) or the "
                        "condition and both x and y: where(c, x, y); give x and y, numbers or "
                        "tensors")
    condition = np.asarray(condition.data if isinstance(condition, Tensor) else condition)
    if condition.dtype != bool:
        if condition.dtype != np.uint8:
            raise TypeError(
                f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                f"{condition.dtype}, as PyTorch says. Compare to get one, e.g. where(x > 0, "
                "x, y), or convert with condition.bool() (non-zero is True)")
        condition = condition.astype(bool)
    return Where.apply(x, y, condition=condition)


# --- more elementwise functions (PyTorch's torch.<name>) ---------------------------------------
# A backward that needs an op NumPy spells differently calls it through ``call`` below, which
# runs the op's forward on an array and records the op on a Tensor (under create_graph).

LN2 = math.log(2)
LN10 = math.log(10)
TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def call(op, x, **attrs):
    """``op`` on ``x``: its forward on a NumPy array (the fast path), recorded on a Tensor (under
    create_graph, so the derivative can be differentiated again)."""
    return op.apply(x, **attrs) if isinstance(x, Tensor) else op().forward(x, **attrs)


# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23 (1969),
# the coefficients of his CALERF (highest power first): near 0, erf(x) = x P(x²) / Q(x²); beyond,
# erfc(y) = e^(−y²) R(y), with R(y) = P(y) / Q(y) up to 4 and (1/√π − z P(z) / Q(z)) / y, z = 1/y²,
# after. Each is accurate to about 1e-18, so the float64 results are off by rounding only.
_CODY_SMALL = ((1.85777706184603153e-1, 3.16112374387056560e00, 1.13864154151050156e02,
                3.77485237685302021e02, 3.20937758913846947e03),
               (1.0, 2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
                2.84423683343917062e03))
_CODY_MIDDLE = ((2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e00,
                 6.61191906371416295e01, 2.98635138197400131e02, 8.81952221241769090e02,
                 1.71204761263407058e03, 2.05107837782607147e03, 1.23033935479799725e03),
                (1.0, 1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
                 1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
                 3.43936767414372164e03, 1.23033935480374942e03))
_CODY_TAIL = ((1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
               1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4),
              (1.0, 2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1,
               6.05183413124413191e-2, 2.33520497626869185e-3))
_CODY_SMALL_END, _CODY_MIDDLE_END = 0.46875, 4.0
_ERFC_ZERO_FROM = 28.0  # erfc(27.3) already rounds to 0, below the smallest subnormal
INV_SQRT_PI = 1 / math.sqrt(math.pi)
_EXP_MINUS_SQUARED_SIXTEENTHS = {
    np.dtype(dtype): np.array([math.exp(-(k / 16) ** 2) for k in range(28 * 16 + 1)]).astype(dtype)
    for dtype in (np.float32, np.float64)}
"""e^(−s²) for s = 0, 1/16, …, 28, rounded once: erfc's e^(−y²) starts from a look-up."""


def _ratio(coefficients, x):
    """P(x) / Q(x) by Horner's rule, in place on one new array each (a course's arrays are too
    large for NumPy's cache of small ones, so every temporary costs fresh memory)."""
    numerator, denominator = ((x * poly[0]) for poly in coefficients)
    for value, poly in ((numerator, coefficients[0]), (denominator, coefficients[1])):
        value += poly[1]
        for c in poly[2:]:
            value *= x
            value += c
    numerator /= denominator
    return numerator


def _erfc_beyond_small(y):
    """erfc(y) for y > 0.46875 (NaN stays NaN), overwriting y: R(y) e^(−y²), with e^(−y²) formed
    as e^(−s²) e^(−(y − s)(y + s)), s = y cut to 1/16ths and e^(−s²) looked up: e^(−y²) straight
    from the rounded y² would be off by up to y² ulps, 700 at y = 26."""
    np.minimum(y, _ERFC_ZERO_FROM, out=y)
    ratio = _ratio(_CODY_MIDDLE, y)
    tail = np.flatnonzero(y > _CODY_MIDDLE_END)
    if tail.size:
        far = y[tail]
        z = 1 / (far * far)
        ratio[tail] = (INV_SQRT_PI - z * _ratio(_CODY_TAIL, z)) / far
    sixteenths = np.fmin(y, _ERFC_ZERO_FROM)  # fmin: NaN gives 28, a valid index
    sixteenths *= 16
    sixteenths = sixteenths.astype(np.intp)
    s = sixteenths.astype(y.dtype)
    s /= 16
    exponent = s - y
    s += y
    exponent *= s
    with np.errstate(under="ignore"):
        ratio *= np.exp(exponent, out=exponent)
        ratio *= _EXP_MINUS_SQUARED_SIXTEENTHS[y.dtype].take(sixteenths)
    return ratio


def _error_function(a, complement):
    """erf(a), or erfc(a) with ``complement``, elementwise in a's floating dtype (float64 for
    integers), by Cody's approximations: in float64 within a few ulps everywhere
    (tests/autograd/ops/test_elementwise.py holds the bound, against mpmath), into erfc's
    subnormal tail, and vectorised: about twice as fast as mapping ``math.erfc`` over
    100,000 elements. float32 and float16 are computed in float32, twice as fast again and
    within a few float32 ulps (the test's bound)."""
    dtype = a.dtype if a.dtype.kind == "f" else np.dtype(np.float64)
    x = np.asarray(a, dtype=np.float32 if dtype.itemsize <= 4 else np.float64).ravel()
    out = np.empty_like(x)
    near_zero = np.abs(x) <= _CODY_SMALL_END
    small = np.flatnonzero(near_zero)
    if small.size:
        value = x.take(small)
        with np.errstate(under="ignore"):
            value *= _ratio(_CODY_SMALL, value * value)
        if complement:
            np.subtract(1, value, out=value)
        out.put(small, value)
    rest = np.flatnonzero(~near_zero)
    if rest.size:
        x_rest = x.take(rest)
        tail = _erfc_beyond_small(np.abs(x_rest))
        if complement:
            np.subtract(2, tail, out=tail, where=x_rest < 0)
        else:
            np.subtract(1, tail, out=tail)
            np.copysign(tail, x_rest, out=tail)
        out.put(rest, tail)
    return out.reshape(np.shape(a)).astype(dtype, copy=False)


def erf_array(a):
    """The error function elementwise (see ``_error_function``)."""
    return _error_function(a, complement=False)


def erfc_array(a):
    """1 − erf(a) elementwise, without the cancellation of 1 − erf(a) for large a (erfc(10) is
    2e-45, not 0), as ``_error_function`` computes it."""
    return _error_function(a, complement=True)


Tan = unary("tan", np.tan, saves="output", backward=lambda grad, out: grad * (1 + out * out),
            doc="tan(a), with derivative 1 + tan²(a).")


Sinh = unary("sinh", np.sinh, backward=lambda grad, a: grad * call(Cosh, a),
             doc="sinh(a), with derivative cosh(a).")


Cosh = unary("cosh", np.cosh, backward=lambda grad, a: grad * call(Sinh, a),
             doc="cosh(a), with derivative sinh(a).")


Asinh = unary("asinh", np.arcsinh, backward=lambda grad, a: grad * call(Rsqrt, a * a + 1),
              doc="asinh(a), with derivative 1 / √(a² + 1).")


Acosh = unary(
    "acosh", np.arccosh,
    backward=lambda grad, a: grad * call(Rsqrt, a - 1) * call(Rsqrt, a + 1),
    doc="acosh(a) for a ≥ 1, with derivative 1/√(a − 1) · 1/√(a + 1): a − 1 is exact near 1, "
        "where a² − 1 would lose digits, and the second derivative at 1 is −inf, not inf − inf.")


Atanh = unary(
    "atanh", np.arctanh, backward=lambda grad, a: 0.5 * (grad / (1 - a) + grad / (1 + a)),
    doc="atanh(a) for |a| < 1, with derivative 1 / (1 − a²) = ½(1/(1 − a) + 1/(1 + a)): two "
        "positive terms with exact denominators near ±1, where 1 − a² would lose digits, and "
        "the second derivative at ±1 is ±inf, not inf − inf.")


Erf = unary(
    "erf", erf_array,
    backward=lambda grad, a: grad * TWO_OVER_SQRT_PI * array_or_tensor.exp(-(a * a)),
    doc="The error function 2/√π ∫₀^a e^(−t²) dt, with derivative 2/√π · e^(−a²).")


Log2 = unary("log2", np.log2, backward=lambda grad, a: grad / (a * LN2),
             doc="Base-2 logarithm, with derivative 1 / (a ln 2).")


Log10 = unary("log10", np.log10, backward=lambda grad, a: grad / (a * LN10),
              doc="Base-10 logarithm, with derivative 1 / (a ln 10).")


Exp2 = unary("exp2", np.exp2, saves="output", backward=lambda grad, out: grad * out * LN2,
             doc="2 to the power a, with derivative 2^a · ln 2.")


Log1p = unary("log1p", np.log1p, backward=lambda grad, a: grad / (a + 1),
              doc="log(1 + a), accurate for tiny a, with derivative 1 / (1 + a).")


Expm1 = unary(
    "expm1", np.expm1, backward=lambda grad, a: grad * array_or_tensor.exp(a),
    doc="e^a − 1, accurate for tiny a, with derivative e^a: computed from a, since the output "
        "plus 1 loses the digits of e^a for a below 0 (all of them once the output rounds to −1).")


Rsqrt = unary("rsqrt", lambda a: 1 / np.sqrt(a), saves="output",
              backward=lambda grad, out: -0.5 * grad * (out * out * out),
              doc="1 / √a, with derivative −½ a^(−3/2), i.e. −½ times the output cubed.")


Reciprocal = unary("reciprocal", lambda a: 1 / a, saves="output",
                   backward=lambda grad, out: -grad * (out * out),
                   doc="1 / a, with derivative −1 / a², i.e. minus the output squared.")


class Lerp(Op):
    """a + weight·(end − a), elementwise with broadcasting; weight may be a number or a tensor.
    Computed as PyTorch does: from the nearer end (end − (end − a)(1 − weight) once
    |weight| ≥ ½), so weight 1 gives end exactly."""

    __slots__ = ()

    def forward(self, a, end, weight):
        self.save_for_backward(a, end, weight)
        return np.where(np.abs(weight) < 0.5, a + weight * (end - a),
                        end - (end - a) * (1 - weight))

    def backward(self, grad):
        a, end, weight = self.saved_tensors
        need_a, need_end, need_weight = self.needs_input_grad
        return (grad * (1 - weight) if need_a else None,
                grad * weight if need_end else None,
                grad * (end - a) if need_weight else None)

    def jvp(self, tangent_a, tangent_end, tangent_weight):
        a, end, weight = self.saved_tensors
        pushed = tangent_a * (1 - weight) + tangent_end * weight
        if tangent_weight.any():  # a constant weight is left out: end − a may be NaN − NaN
            pushed = pushed + tangent_weight * (end - a)
        return pushed


@exposed("lerp")
def lerp(a, end, weight):
    """a + weight·(end − a) (see ``Lerp``), in PyTorch's result dtype (see ``promoted``). As in
    PyTorch, a tensor ``end`` must have a's dtype, and so must a weight tensor that is not 0-d."""
    for name, other in (("end", end), ("weight", weight)):
        if (isinstance(a, Tensor) and isinstance(other, Tensor) and other.dtype != a.dtype
                and (name == "end" or other.ndim)):
            raise TypeError(f"lerp: expected dtype {a.dtype} for `{name}` but got dtype "
                            f"{other.dtype}, as PyTorch refuses too: cast it with "
                            f"{name}.to({a.dtype})")
    return Lerp.apply(*promoted(a, end, weight))


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def promoted(*operands):
    """The operands as Tensors of PyTorch's result dtype: the dimensioned ones decide it, and a 0-d
    one raises it only from a higher category (bool < integer < floating), so a float32 tensor
    with a float64 0-d one stays float32 where NumPy would give float64; numbers take the
    tensors' dtype. Each cast is recorded (``to``): its gradient goes back in its own dtype."""
    tensors = [x if isinstance(x, Tensor) else as_tensor(x, like=operands) for x in operands]
    shaped = [t.dtype for t in tensors if t.ndim]
    scalars = [t.dtype for t in tensors if not t.ndim]
    dtype = np.result_type(*shaped) if shaped else np.result_type(*scalars)
    if shaped and scalars:
        scalar = np.result_type(*scalars)
        if _CATEGORY.get(scalar.kind, 4) > _CATEGORY.get(dtype.kind, 4):
            dtype = np.result_type(dtype, scalar)
    return [t if t.dtype == dtype else t.to(dtype) for t in tensors]


@exposed("atan2")
class Atan2(Op):
    """The angle of the point (other, a): atan2(a, other), with partial derivatives
    other / (a² + other²) and −a / (a² + other²); both 0 at the origin (PyTorch's rule)."""

    __slots__ = ()
    promotes_zero_dim = True

    def forward(self, a, other):
        self.save_for_backward(a, other)
        return np.arctan2(a, other)

    def backward(self, grad):
        a, other = self.saved_tensors
        scale = _inverse_square_norm(a, other)
        need_a, need_other = self.needs_input_grad
        return (grad * other * scale if need_a else None,
                grad * -a * scale if need_other else None)

    def jvp(self, tangent_a, tangent_other):
        a, other = self.saved_tensors
        return (other * tangent_a - a * tangent_other) * _inverse_square_norm(a, other)


def _inverse_square_norm(a, other):
    """1 / (a² + other²), and 0 where both are 0."""
    square = a * a + other * other
    origin = square == 0
    return array_or_tensor.where(origin, 0.0, 1 / (square + origin))


Asin = unary("asin", np.arcsin,
             backward=lambda grad, a: grad * call(Rsqrt, _one_minus_square(a)),
             doc="arcsin(a) on [−1, 1], with derivative 1/√(1 − a²) (see ``_one_minus_square``).")


Acos = unary("acos", np.arccos,
             backward=lambda grad, a: -grad * call(Rsqrt, _one_minus_square(a)),
             doc="arccos(a) on [−1, 1], with derivative −1/√(1 − a²) (see "
                 "``_one_minus_square``).")


def _one_minus_square(a):
    """1 − a² as (1 − a)(1 + a), exact near ±1 where 1 − a·a loses digits. On a Tensor (under
    create_graph) it is recorded as 1 − a·a plus that rounding difference as a constant, so its
    derivative is −2a, at ±1 too (the product rule would meet inf·0 there)."""
    if not isinstance(a, Tensor):
        return (1 - a) * (1 + a)
    exact = (1 - a.data) * (1 + a.data)
    return (1 - a * a) + (exact - (1 - a.data * a.data))


Atan = unary("atan", np.arctan, backward=lambda grad, a: grad / (1 + a * a),
             doc="arctan(a), with derivative 1 / (1 + a²).")


Logit = unary(
    "logit", lambda a: np.log(a / (1 - a)),
    backward=lambda grad, a: select((_data(a) >= 0) & (_data(a) <= 1),
                                    grad * (1 / a + 1 / (1 - a)), np.nan, source=a),
    doc="log(a / (1 − a)), the inverse of sigmoid, with derivative 1/a + 1/(1 − a) = "
        "1/(a (1 − a)) on [0, 1] (a sum, so the second derivative at 0 and 1 is ∓inf, not "
        "inf − inf) and NaN outside it, as in PyTorch.")


class _Binary(Op):
    """An elementwise op of two operands whose jvp is its two partial derivatives, ``partials``,
    applied to the tangents, and whose backward applies them to the gradient."""

    __slots__ = ()
    promotes_zero_dim = True

    def backward(self, grad):
        need_a, need_b = self.needs_input_grad
        d_a, d_b = self.partials(*self.saved_tensors, need_a, need_b)
        return (grad * d_a if need_a else None, grad * d_b if need_b else None)

    def jvp(self, tangent_a, tangent_b):
        """The partials applied to the tangents; an all-zero tangent (an operand without one)
        is left out, as PyTorch leaves out an undefined one: xlogy(2.5, y)'s log 2.5 term is
        NaN-free for y < 0."""
        moving_a, moving_b = bool(tangent_a.any()), bool(tangent_b.any())
        d_a, d_b = self.partials(*self.saved_tensors, moving_a, moving_b)
        pushed = tangent_a * d_a if moving_a else tangent_a
        return pushed + tangent_b * d_b if moving_b else pushed


@exposed("hypot")
class Hypot(_Binary):
    """√(a² + b²) without overflow, with partial derivatives a / y and b / y (NaN at the origin,
    0/0, as PyTorch gives)."""

    __slots__ = ()

    def forward(self, a, b):
        out = np.hypot(a, b)
        self.save_for_backward(a, b, out)
        return out

    def partials(self, a, b, out, need_a, need_b):
        return (a / out if need_a else None, b / out if need_b else None)


@exposed("logaddexp")
class LogAddExp(_Binary):
    """log(e^a + e^b), computed stably, with partial derivatives σ(a − b) and σ(b − a)."""

    __slots__ = ()

    def forward(self, a, b):
        self.save_for_backward(a, b)
        return np.logaddexp(a, b)

    def partials(self, a, b, need_a, need_b):
        return (call(Sigmoid, a - b) if need_a else None, call(Sigmoid, b - a) if need_b else None)


@exposed("logaddexp2")
class LogAddExp2(_Binary):
    """log₂(2^a + 2^b), computed stably, with partial derivatives 2^a / (2^a + 2^b) and
    2^b / (2^a + 2^b) (``_share_of_two``)."""

    __slots__ = ()

    def forward(self, a, b):
        self.save_for_backward(a, b)
        return np.logaddexp2(a, b)

    def partials(self, a, b, need_a, need_b):
        return (_share_of_two(a - b) if need_a else None,
                _share_of_two(b - a) if need_b else None)


def _share_of_two(z):
    """2^z / (1 + 2^z) = σ(z ln 2), from e = 2^−|z| as 1/(1 + e) or e/(1 + e): z is exact
    (a difference of the operands) where z·ln 2 would be rounded, an error that e^(z ln 2)
    multiplies by |z| (12 ulps at z = −40)."""
    up = _data(z) >= 0
    e = call(Exp2, array_or_tensor.where(up, -z, z))  # 2^−|z|, differentiable at 0 too
    return array_or_tensor.where(up, np.ones((), dtype=_data(z).dtype), e) / (1 + e)


@exposed("xlogy")
class Xlogy(_Binary):
    """a·log(b), and 0 where a is 0 (unless b is NaN), as PyTorch: so 0·log 0 is 0. Its partial
    derivatives are PyTorch's: log b (but 0 where a = 0 and b ≤ 0, so xlogy(0, 0) passes no
    NaN back) and a / b."""

    __slots__ = ()

    def forward(self, a, b):
        self.save_for_backward(a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = a * np.log(b)
        return np.where((a == 0) & ~np.isnan(b), np.zeros((), dtype=out.dtype), out)

    def partials(self, a, b, need_a, need_b):
        if need_a:
            with np.errstate(divide="ignore", invalid="ignore"):
                d_a = array_or_tensor.where((_data(a) == 0) & (_data(b) <= 0),
                                            np.zeros((), dtype=_data(b).dtype),
                                            array_or_tensor.log(b))
        return (d_a if need_a else None, a / b if need_b else None)


def _ones_like(a, b):
    """Ones of a and b's broadcast shape (a partial derivative of 1), an array: it depends on
    neither operand, so it needs no graph."""
    a, b = _data(a), _data(b)
    return np.ones(np.broadcast_shapes(a.shape, b.shape), dtype=np.result_type(a, b))


Floor = unary("floor", _whole(np.floor), saves=None, backward=zero_gradient,
              doc="The largest whole number ≤ a (integers pass unchanged); derivative 0.")


Ceil = unary("ceil", _whole(np.ceil), saves=None, backward=zero_gradient,
             doc="The smallest whole number ≥ a (integers pass unchanged); derivative 0.")


Trunc = unary("trunc", _whole(np.trunc), saves=None, backward=zero_gradient,
              doc="a rounded toward 0 (integers pass unchanged); derivative 0.")


@exposed("round")
class Round(Op):
    """a rounded to ``decimals`` decimal places (0: whole numbers; negative: tens, hundreds, …),
    halves to even, as PyTorch computes it in a's dtype: rint(a·10^d) / 10^d, or rint(a / 10^-d)
    · 10^-d for negative d (float16 through float32). Integers pass unchanged; derivative 0."""

    __slots__ = ()
    backward = jvp = staticmethod(zero_gradient)

    def forward(self, a, decimals=0):
        if a.dtype.kind != "f":
            return a.copy()
        work = a.astype(np.float32) if a.dtype == np.float16 else a
        if decimals == 0:
            return np.rint(a)
        scale = np.asarray(10.0 ** abs(decimals), dtype=work.dtype)
        out = np.rint(work / scale) * scale if decimals < 0 else np.rint(work * scale) / scale
        return out.astype(a.dtype, copy=False)


class _Modulo(_Binary):
    """The remainder a − q(a / b)·b for a rounding q (``rounding``, a Function), with partial
    derivatives 1 and −q(a / b), PyTorch's."""

    __slots__ = ()

    def forward(self, a, b):
        self.save_for_backward(a, b)
        return self.remainder(a, b)

    def partials(self, a, b, need_a, need_b):
        return (_ones_like(a, b) if need_a else None,
                -call(self.rounding, a / b) if need_b else None)


@exposed("fmod")
class Fmod(_Modulo):
    """The remainder of a / b with a's sign (C's fmod): a − trunc(a / b)·b."""

    __slots__ = ()
    remainder = staticmethod(np.fmod)
    rounding = Trunc


@exposed("remainder")
class Remainder(_Modulo):
    """The remainder of a / b with b's sign (Python's %): a − floor(a / b)·b."""

    __slots__ = ()
    remainder = staticmethod(np.remainder)
    rounding = Floor


Clone = unary("clone", lambda a: a.copy(), saves=None, backward=lambda grad: grad,
              doc="A copy of a that stays in the graph: the gradient passes through unchanged.")


# --- tests of values: not differentiable, so the results are constants (as in PyTorch) --------


def _untracked(array):
    return Tensor._make(np.asarray(array), False, None)


def _data(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


@exposed("isnan")
def isnan(x):
    """True where x is NaN (a constant bool tensor)."""
    return _untracked(np.isnan(_data(x)))


@exposed("isinf")
def isinf(x):
    """True where x is +inf or -inf (a constant bool tensor)."""
    return _untracked(np.isinf(_data(x)))


@exposed("isfinite")
def isfinite(x):
    """True where x is neither NaN nor ±inf (a constant bool tensor)."""
    return _untracked(np.isfinite(_data(x)))


@exposed("logical_not")
def logical_not(x):
    """True where x is 0 (or False), else False (a constant bool tensor)."""
    return _untracked(np.logical_not(_data(x)))


def _comparison(name, symbol, compare):
    """PyTorch's ``torch.<name>(x, other)`` and ``x.<name>(other)``: ``x <symbol> other``, a
    constant bool tensor."""

    def function(x, other):
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}() expects a tensor first, got {type(x).__name__}: write "
                            f"ag.{name}(ag.tensor(x), other) or other's method")
        return compare(x, other)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"True where x {symbol} other (broadcast), a constant bool tensor."
    return exposed(name)(function)


eq = _comparison("eq", "==", lambda x, other: x == other)
ne = _comparison("ne", "!=", lambda x, other: x != other)
lt = _comparison("lt", "<", lambda x, other: x < other)
le = _comparison("le", "<=", lambda x, other: x <= other)
gt = _comparison("gt", ">", lambda x, other: x > other)
ge = _comparison("ge", ">=", lambda x, other: x >= other)
