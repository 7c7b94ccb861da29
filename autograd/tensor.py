"""Tensor: an ndarray with a gradient, and the operation that made it.

Operators and methods call the ops in ``autograd.ops``; this file only holds data and plumbing.
"""

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
    # NumPy defers to our reflected operators (ndarray * Tensor -> Tensor.__rmul__).
    __array_ufunc__ = None

    def __init__(self, data, requires_grad=False, dtype=None, name=None):
        if isinstance(data, Tensor):
            data = data.data
        if dtype is None and not isinstance(data, (np.ndarray, np.generic)):
            dtype = np.float64
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
        return self.data.size

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
        """The last two axes swapped (PyTorch's name), the same as ``transpose()``."""
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
        return _ops.Index.apply(self, key=_index_key(key))

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

    def all(self, axis=None):
        return _constant(self.data.all(axis=axis))

    def any(self, axis=None):
        return _constant(self.data.any(axis=axis))

    def sort(self, axis=-1):
        return _constant(np.sort(self.data, axis=axis))

    def round(self, decimals=0):
        return _constant(np.round(self.data, decimals))

    def fill(self, value):
        """numpygrad's fill: a new tensor of this shape and dtype, every element ``value``, not
        recorded. ``fill_`` changes this tensor in place."""
        return _constant(np.full(self.shape, value, dtype=self.dtype))

    def fill_(self, value):
        """Set every element to ``value`` in place (not recorded) and return this tensor."""
        if self.requires_grad and self.is_leaf and _grad_enabled.get():
            raise RuntimeError("a leaf that requires grad cannot be changed in place while "
                               "recording: wrap the change in `with autograd.no_grad():`")
        self.data.fill(value)
        return self


class _HookHandle:
    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


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


def _index_key(key):
    """Turn tensors inside an indexing key into arrays (indices are never differentiated)."""
    if isinstance(key, tuple):
        return tuple(_raw(part) for part in key)
    return _raw(key)


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
