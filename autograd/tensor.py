"""Tensor: an ndarray with a gradient, and the operation that made it.

Operators and methods call the ops in ``autograd.ops``; this file only holds data and plumbing.
"""

import operator

import numpy as np

from .grad_mode import _grad_enabled


class Tensor:
    """A NumPy array that remembers how it was computed, so gradients can flow back through it."""

    # Rarely set attributes live in __dict__ with class defaults, so making a tensor is cheap.
    # _grad holds ``.grad``: None, a Tensor, or the array a backward stored, wrapped in a Tensor
    # when first read (as PyTorch makes its Python object), so a backward makes no object per
    # leaf for the garbage collector to count.
    __slots__ = ("data", "requires_grad", "grad_fn", "_grad", "__dict__", "__weakref__")
    name = None
    _hooks = None
    _retains_grad = False
    _tangent = None  # (dual level, ndarray) in forward mode: see forward_ad
    _version = 0  # how many in-place changes this tensor's array has had

    def __init__(self, data, requires_grad=False, dtype=None, name=None):
        if isinstance(data, Tensor):
            data = data.data
        if dtype is None and not isinstance(data, (np.ndarray, np.generic)):
            # Python numbers and lists become float64 (so finite differences are exact enough),
            # but True/False stay bool, as in NumPy and PyTorch: masks.
            dtype = np.bool_ if _all_bools(data) else np.float64
        array = np.array(data, dtype=dtype)
        if array.dtype == object:
            raise TypeError(f"cannot make a tensor from {type(data).__name__}: use numbers, "
                            "nested lists of numbers or NumPy arrays")
        self.data = array
        self.requires_grad = False
        self.grad_fn = None
        self._grad = None
        if name is not None:
            self.name = name
        if requires_grad:
            self.requires_grad_()

    @staticmethod
    def _make(data, requires_grad, grad_fn):
        """Wrap an op's result without copying or checking (the hot path)."""
        t = object.__new__(Tensor)
        t.data = data
        t.requires_grad = requires_grad
        t.grad_fn = grad_fn
        t._grad = None
        return t

    # --- introspection -------------------------------------------------------------------------
    @property
    def shape(self):
        return self.data.shape

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        """The number of elements, as NumPy's ``a.size``; called, PyTorch's ``x.size()`` (the
        shape) or ``x.size(dim)`` (one axis's length). See ``Size``."""
        return Size(self.data.size, self.data.shape)

    @property
    def dtype(self):
        return self.data.dtype

    def numel(self):
        """The number of elements (PyTorch's name for ``size``)."""
        return self.data.size

    def dim(self):
        """The number of dimensions (PyTorch's name for ``ndim``)."""
        return self.data.ndim

    def contiguous(self):
        """This tensor: NumPy arrays need no contiguous copy here (PyTorch's spelling)."""
        return self

    def is_contiguous(self):
        """Whether the elements lie in memory in row-major order without gaps (a transpose or a
        strided slice is a view that does not)."""
        return self.data.flags.c_contiguous

    def stride(self, dim=None):
        """PyTorch's strides: how many elements apart neighbours along each axis are (NumPy's
        ``strides`` count bytes), or along ``dim`` alone."""
        strides = tuple(s // self.data.itemsize for s in self.data.strides)
        return strides if dim is None else strides[dim]

    # --- new tensors like this one: its dtype unless told, unrecorded, as PyTorch's -------------
    def new_tensor(self, data, dtype=None, requires_grad=False):
        """A new tensor of ``data`` (copied) in this tensor's dtype unless ``dtype`` is given."""
        return Tensor(_raw(data), requires_grad=requires_grad, dtype=dtype or self.dtype)

    def new_full(self, size, fill_value, dtype=None, requires_grad=False):
        """A new tensor of shape ``size``, every element ``fill_value``, in this dtype."""
        array = np.full(tuple(size), fill_value, dtype=dtype or self.dtype)
        return Tensor(array, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, requires_grad=False):
        """A new tensor of zeros of shape ``size`` (sizes or one tuple), in this dtype."""
        return self.new_full(_ops.shape_arg(size), 0, dtype=dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, requires_grad=False):
        """A new tensor of ones of shape ``size`` (sizes or one tuple), in this dtype."""
        return self.new_full(_ops.shape_arg(size), 1, dtype=dtype, requires_grad=requires_grad)

    def type_as(self, other):
        """This tensor cast to ``other``'s dtype (recorded, as ``to``)."""
        return self.to(other.dtype)

    @property
    def grad(self):
        """The gradient that backward accumulated into this tensor, a Tensor of its shape (None
        before any backward reached it, and for intermediates unless ``retain_grad()``)."""
        g = self._grad
        if type(g) is np.ndarray:
            g = self._grad = Tensor._make(g, False, None)
        return g

    @grad.setter
    def grad(self, value):
        self._grad = value

    @property
    def is_leaf(self):
        """True for tensors made by the user rather than by an op that records gradients."""
        return self.grad_fn is None

    @property
    def parents(self):
        """The input tensors of the op that made this one, in order; () for leaves."""
        return () if self.grad_fn is None else self.grad_fn.inputs

    @property
    def T(self):
        """All axes reversed, as in NumPy and PyTorch (``transpose()`` swaps only the last two)."""
        return self.permute(tuple(reversed(range(self.ndim))))

    @property
    def mT(self):
        """The last two axes swapped (PyTorch's name), the same as ``transpose()`` on a matrix or
        a batch of them; refused on a vector, as in PyTorch (a 0-d tensor comes back)."""
        if self.ndim == 1:
            raise ValueError(f"x.mT is only supported on matrices or batches of matrices, and x "
                             f"has shape {self.shape}; a vector needs no transpose (use x, or "
                             "x.unsqueeze(-1) for a column)")
        return self.transpose()

    def numpy(self):
        return self.data

    def item(self):
        if self.data.size != 1:
            raise ValueError(f"item() needs a tensor with exactly one element, this one has shape "
                             f"{self.shape}; index it first or reduce it with sum() or mean()")
        return self.data.item()

    def tolist(self):
        return self.data.tolist()

    def __array__(self, dtype=None, copy=None):
        return self.data if dtype is None else self.data.astype(dtype)

    def __len__(self):
        return len(self.data)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __bool__(self):
        return bool(self.data)

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.data.dtype.kind not in "iub":
            raise TypeError(f"only integer tensors can be used as an index, this one has dtype "
                            f"{self.dtype}")
        return int(self.item())

    __hash__ = object.__hash__

    def __repr__(self):
        body = np.array2string(self.data, separator=" ", prefix="Tensor(")
        extra = ""
        if self.grad_fn is not None:
            extra = f", grad_fn=<{self.grad_fn.name}>"
        elif self.requires_grad:
            extra = ", requires_grad=True"
        if self.dtype not in (np.float64, np.int64, np.bool_):
            extra += f", dtype={self.dtype}"
        return f"Tensor({body}{extra})"

    # --- autograd ------------------------------------------------------------------------------
    def requires_grad_(self, requires_grad=True):
        """Mark this leaf as a parameter whose gradient backward should compute."""
        if requires_grad and not np.issubdtype(self.dtype, np.floating):
            raise TypeError(
                f"only floating-point tensors can require gradients, and this one has dtype "
                f"{self.dtype}: gradients are real numbers. Create it from float values (2.0, not "
                "2) or pass dtype=np.float64"
            )
        if not requires_grad and self.grad_fn is not None:
            raise RuntimeError("requires_grad_(False) only works on leaves; use detach() to cut a "
                               "computed tensor out of the graph")
        self.requires_grad = requires_grad
        return self

    def detach(self):
        """The same values, cut off from the graph (shares memory, like PyTorch)."""
        return Tensor._make(self.data, False, None)

    def detach_(self):
        """Cut this tensor off from the graph in place: it becomes a leaf that does not require
        grad. Returns it."""
        self.grad_fn = None
        self.requires_grad = False
        return self

    def retain_grad(self):
        """Keep this intermediate tensor's gradient in ``.grad`` after backward."""
        if self.grad_fn is not None:
            self._link_to_function()
            self._retains_grad = True

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a
        replacement gradient. Returns a handle whose ``remove()`` unregisters it."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require grad")
        if self._hooks is None:
            self._hooks = []
        if self.grad_fn is not None:
            self._link_to_function()
        self._hooks.append(hook)
        return _HookHandle(self._hooks, hook)

    def _link_to_function(self):
        """Let grad_fn find this tensor and its hooks (which it keeps, so they run even if this
        tensor is dropped before backward, as in PyTorch)."""
        self.grad_fn._watch(self)

    def backward(self, gradient=None, retain_graph=None, create_graph=False):
        """Compute the gradient of this tensor with respect to every leaf that requires grad,
        adding it into their ``.grad``."""
        _engine.backward(self, gradient, retain_graph, create_graph)

    # --- arithmetic ----------------------------------------------------------------------------
    def __add__(self, other):
        return _record(_ops.Add(), (self, other), None)

    def __radd__(self, other):
        return _record(_ops.Add(), (other, self), None)

    def __sub__(self, other):
        return _record(_ops.Sub(), (self, other), None)

    def __rsub__(self, other):
        return _record(_ops.Sub(), (other, self), None)

    def __mul__(self, other):
        return _record(_ops.Mul(), (self, other), None)

    def __rmul__(self, other):
        return _record(_ops.Mul(), (other, self), None)

    def __truediv__(self, other):
        return _record(_ops.Div(), (self, other), None)

    def __rtruediv__(self, other):
        return _record(_ops.Div(), (other, self), None)

    def __pow__(self, exponent):
        return _record(_ops.Pow(), (self, exponent), None)

    def __rpow__(self, base):
        return _record(_ops.Pow(), (base, self), None)

    def __neg__(self):
        return _record(_ops.Neg(), (self,), None)

    def __pos__(self):
        return self

    def __matmul__(self, other):
        return _record(_ops.MatMul(), (self, other), None)

    def __rmatmul__(self, other):
        return _record(_ops.MatMul(), (other, self), None)

    def __getitem__(self, key):
        key = _index_key(key)
        if type(key) is tuple and _mixes_ints_and_arrays(key):
            first, then = _ints_first(key, self.ndim)
            return _ops.Index.apply(_ops.Index.apply(self, key=first), key=then)
        return _ops.Index.apply(self, key=key)

    # --- in place: x += y changes x itself, as in PyTorch (see _update_in_place) ----------------
    def __iadd__(self, other):
        return self._update_in_place(np.add, "+=", other)

    def __isub__(self, other):
        return self._update_in_place(np.subtract, "-=", other)

    def __imul__(self, other):
        return self._update_in_place(np.multiply, "*=", other)

    def __itruediv__(self, other):
        return self._update_in_place(np.true_divide, "/=", other)

    def zero_(self):
        """Set every element to 0 in place and return this tensor (``p.grad.zero_()``)."""
        return self.fill_(0)

    def _update_in_place(self, ufunc, symbol, other):
        """``self = self <op> other`` written into this tensor's own array, so every name, view
        and ``.grad`` that shares it sees the change (PyTorch's rule; NumPy's too). Allowed where
        nothing is recorded: under ``no_grad()`` (an optimizer step ``p -= lr * p.grad``) or on a
        tensor that does not require grad. The result keeps this tensor's dtype and shape."""
        self._check_in_place(symbol)
        value = _raw(other)
        try:
            ufunc(self.data, value, out=self.data, casting="same_kind")
        except TypeError:
            raise TypeError(
                f"x {symbol} y: the result has dtype {np.result_type(self.data, value)}, which "
                f"cannot be stored in x's dtype {self.dtype} (PyTorch refuses it too); write "
                f"x = x {symbol[0]} y for a new tensor, or cast y first") from None
        except ValueError as error:
            if "read-only" in str(error):
                raise ValueError(
                    f"x {symbol} y: x shares its memory with a read-only array (a broadcast or "
                    "expanded view, or a freed stand-in), so it cannot change in place; write "
                    f"x = x {symbol[0]} y, or take a copy first with x = x.clone()") from None
            raise ValueError(
                f"x {symbol} y: y of shape {np.shape(value)} does not broadcast to x's shape "
                f"{self.shape}, and an in-place result keeps x's shape; write x = x {symbol[0]} y "
                "for a result of the broadcast shape") from None
        self._version += 1
        return self

    def _check_in_place(self, what):
        """PyTorch's rule for in-place changes while recording: refused on a leaf that requires
        grad (its gradient would describe values it no longer holds) and, here, on a tensor an
        op computed (the graph keeps the old value; write a new tensor instead)."""
        if not (self.requires_grad and _grad_enabled.get()):
            return
        if self.grad_fn is None:
            raise RuntimeError(
                f"{what}: a leaf tensor that requires grad cannot be changed in place while "
                "gradients are recorded (PyTorch's rule). For an update step, wrap it in `with "
                "autograd.no_grad():`; to compute a new value, write x = x + y instead")
        raise RuntimeError(
            f"{what}: this tensor was computed by {self.grad_fn.name}, and this engine does not "
            "change a computed tensor in place while recording (its graph needs the old value); "
            "write x = x + y for a new tensor, or detach() it first")

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        """NumPy meets a Tensor: ``array -= tensor`` (``p.data -= lr * p.grad``) writes into the
        array; ``array * tensor`` and the other operators give the Tensor result, as the
        reflected operator would. Any other NumPy function of a Tensor is refused: use the
        engine's own (ag.exp) or the array (x.data)."""
        if method == "__call__":
            if out is not None:
                arrays = [_raw(x) for x in inputs]
                return ufunc(*arrays, out=tuple(_raw(o) for o in out), **kwargs)
            operator_ = _NUMPY_OPERATORS.get(ufunc)
            if operator_ is not None and len(inputs) == 2 and not kwargs:
                left, right = inputs
                return operator_(as_tensor(left, like=(right,)) if not isinstance(left, Tensor)
                                 else left, right)
        raise TypeError(
            f"NumPy's {ufunc.__name__} does not take a Tensor: use the engine's own function "
            f"(e.g. autograd.{ufunc.__name__}, recorded for backward) or the array x.numpy()")

    # exp, sum, reshape, transpose, … : every op marked @exposed in autograd/ops is attached here
    # as a method when autograd.ops is imported (see autograd/ops/exposed.py).

    # --- casts: PyTorch's spellings carry the gradient back to the input's dtype ---------------
    def to(self, dtype):
        """This tensor as ``dtype`` (e.g. ``np.float32`` or ``"float32"``). A floating-point
        result stays in the graph and its gradient is cast back; an integer or bool result is a
        constant, as in PyTorch. (``astype`` is numpygrad's untracked cast.)"""
        dtype = np.dtype(dtype)
        if dtype.kind != "f":
            return _constant(self.data.astype(dtype))
        return _ops.Cast.apply(self, dtype=dtype)

    def type(self, dtype=None):
        """With no argument, the dtype's name ("float64"); else the same as ``to(dtype)``."""
        return str(self.dtype) if dtype is None else self.to(dtype)

    def float(self):
        return self.to(np.float32)

    def double(self):
        return self.to(np.float64)

    def half(self):
        return self.to(np.float16)

    def int(self):
        return self.to(np.int32)

    def long(self):
        return self.to(np.int64)

    def bool(self):
        return self.to(np.bool_)

    # --- not differentiable: results are constants ----------------------------------------------
    def __eq__(self, other):
        return _compared(np.equal, self, other)

    def __ne__(self, other):
        return _compared(np.not_equal, self, other)

    def __lt__(self, other):
        return _compared(np.less, self, other)

    def __le__(self, other):
        return _compared(np.less_equal, self, other)

    def __gt__(self, other):
        return _compared(np.greater, self, other)

    def __ge__(self, other):
        return _compared(np.greater_equal, self, other)

    # & | ^ ~ on bool and integer tensors (masks): constants, as in PyTorch
    def __and__(self, other):
        return _bitwise(np.bitwise_and, "&", self, other)

    def __or__(self, other):
        return _bitwise(np.bitwise_or, "|", self, other)

    def __xor__(self, other):
        return _bitwise(np.bitwise_xor, "^", self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __invert__(self):
        return _bitwise(np.invert, "~", self)

    def astype(self, dtype):
        """numpygrad's cast: a new tensor of ``dtype`` that is not recorded (use ``to`` to keep
        the gradient)."""
        return _constant(self.data.astype(dtype))

    def nonzero(self):
        return tuple(_constant(i) for i in np.nonzero(self.data))

    def fill(self, value):
        """numpygrad's fill: a new tensor of this shape and dtype, every element ``value``, not
        recorded. ``fill_`` changes this tensor in place."""
        return _constant(np.full(self.shape, value, dtype=self.dtype))

    def fill_(self, value):
        """Set every element to ``value`` in place (not recorded) and return this tensor."""
        self._check_in_place("fill_")
        self.data.fill(value)
        self._version += 1
        return self


class Size(int):
    """``x.size``: NumPy's element count (an int, so ``x.size == 6`` and ``x.size * 2`` work),
    which can also be called as PyTorch's method: ``x.size()`` is the shape, ``x.size(1)`` one
    axis's length."""

    def __new__(cls, count, shape):
        size = super().__new__(cls, count)
        size.shape = shape
        return size

    def __call__(self, dim=None):
        if dim is None:
            return self.shape
        try:
            return self.shape[dim]
        except (IndexError, TypeError):
            raise IndexError(f"size({dim!r}): the tensor has shape {self.shape}, so dim runs from "
                             f"{-len(self.shape)} to {len(self.shape) - 1}") from None


class _HookHandle:
    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def _all_bools(data):
    """Whether ``data`` is True/False or a (nested) list or tuple of only those."""
    if isinstance(data, (list, tuple)):
        return bool(data) and all(_all_bools(item) for item in data)
    return isinstance(data, bool)


def _raw(x):
    return x.data if isinstance(x, Tensor) else x


def _compared(ufunc, tensor, other):
    """A comparison's constant result. A 0-d array beside a dimensioned one first takes the
    dtype PyTorch would give it (``zero_dim_casts``), so float32 values are compared in float32;
    numbers are left to NumPy, which already treats them so."""
    x, y = tensor.data, _raw(other)
    if type(y) is np.ndarray:
        dtype_x, dtype_y = zero_dim_casts(x, y)
        x = x if dtype_x is None else x.astype(dtype_x)
        y = y if dtype_y is None else y.astype(dtype_y)
    return _constant(ufunc(x, y))


def _constant(array):
    return Tensor._make(np.asarray(array), False, None)


def _bitwise(ufunc, symbol, *operands):
    """A bit operation on bool or integer tensors; floats are refused, as in PyTorch."""
    arrays = [np.asarray(_raw(x)) for x in operands]
    floats = [str(a.dtype) for a in arrays if a.dtype.kind not in "biu"]
    if floats:
        raise TypeError(
            f"{symbol} works on bool and integer tensors (masks), not on {floats[0]}: compare "
            "first, e.g. (x > 0) & (x < 1), or cast with .bool()")
    return _constant(ufunc(*arrays))


_NUMPY_OPERATORS = {
    np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
    np.true_divide: operator.truediv, np.power: operator.pow, np.matmul: operator.matmul,
    np.equal: operator.eq, np.not_equal: operator.ne, np.less: operator.lt,
    np.less_equal: operator.le, np.greater: operator.gt, np.greater_equal: operator.ge,
    np.bitwise_and: operator.and_, np.bitwise_or: operator.or_, np.bitwise_xor: operator.xor,
}
"""The NumPy ufuncs behind Python's operators: ``array <op> tensor`` takes the Tensor route."""


def _index_key(key):
    """Turn tensors inside an indexing key into arrays (indices are never differentiated), and a
    0-d integer tensor into an int, as PyTorch reads it."""
    if isinstance(key, tuple):
        return tuple(_index_part(part) for part in key)
    return _index_part(key)


def _index_part(part):
    part = _raw(part)
    if type(part) is np.ndarray:
        if part.ndim == 0 and part.dtype.kind in "iu":
            return int(part)
        if part.dtype.kind == "f":
            raise IndexError("tensors used as indices must hold integers or bools, got "
                             f"{part.dtype}: convert them with .long()")
    if type(part) is slice and part.step is not None and part.step < 0:
        raise ValueError(f"x[::{part.step}]: a negative step is not supported (PyTorch refuses "
                         "it too); reverse with x.flip(dim) instead")
    return part


def _is_array_index(part):
    return isinstance(part, (list, np.ndarray))


def _mixes_ints_and_arrays(key):
    """Whether the key has an int beside an index array: NumPy then counts the int as an array
    index, which can move the result's axes, where PyTorch applies the ints first."""
    has_int = has_array = False
    for part in key:
        if isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            has_int = True
        elif _is_array_index(part):
            has_array = True
    return has_int and has_array


def _ints_first(key, ndim):
    """PyTorch's reading of a key with ints and index arrays, as two NumPy keys: the ints (and
    slices, None, Ellipsis) first, then the index arrays on what is left."""
    first, then = [], []
    for part in key:
        if isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            first.append(part)
        elif _is_array_index(part):
            dims = np.ndim(part) if np.asarray(part).dtype == bool else 1
            first.extend([slice(None)] * dims)
            then.append(part)
        elif part is Ellipsis:
            first.append(part)
            then.append(part)
        else:  # a slice, or None (whose new axis the second key passes over)
            first.append(part)
            then.append(slice(None))
    return tuple(first), tuple(then)


def as_tensor(x, like=()):
    """Wrap a number, list or array as a constant operand. A Python number takes the dtype of the
    first floating-point tensor in ``like``, so float32 stays float32 when mixed with numbers."""
    if isinstance(x, (int, float, bool)):
        for other in like:
            if isinstance(other, Tensor) and other.data.dtype.kind == "f":
                return Tensor._make(np.asarray(x, dtype=other.data.dtype), False, None)
        return Tensor._make(np.asarray(x, dtype=np.float64), False, None)
    if isinstance(x, (np.ndarray, np.generic)):
        return Tensor._make(np.asarray(x), False, None)
    return Tensor(x)


from . import engine as _engine  # noqa: E402 - the engine and the ops need Tensor defined first
from . import ops as _ops  # noqa: E402
from .function import _record, zero_dim_casts  # noqa: E402
