"""Tensor: an ndarray with a gradient, and the operation that made it.

Operators and methods call the ops in ``autograd.ops``; this file only holds data and plumbing.
"""

import operator

import numpy as np


class Tensor:
    """A NumPy array that remembers how it was computed, so gradients can flow back through it."""

    # Rarely set attributes live in __dict__ with class defaults, so making a tensor is cheap.
    # _grad holds ``.grad``: None, a Tensor, or the array a backward stored, wrapped in a Tensor
    # when first read (as PyTorch makes its Python object), so a backward makes no object per
    # leaf for the garbage collector to count.
    # _vc is the version counter (see _version): a slot, as every op reads its inputs'.
    __slots__ = ("data", "requires_grad", "grad_fn", "_grad", "_vc", "__dict__", "__weakref__")
    name = None
    _hooks = None
    _retains_grad = False
    _tangent = None  # (dual level, ndarray) in forward mode: see forward_ad
    # In-place changes (see _version and autograd/ops/inplace.py): _base, the tensor this one is
    # a view of (PyTorch's x._base), and _view_version, its counter's value when the view was
    # made; _history, one (version, previous grad_fn) per recorded in-place change.
    _base = None
    _view_version = 0
    _history = None

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
        self._vc = None
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
        t._vc = None
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

    def unfold(self, dimension, size, step):
        """Every window of ``size`` elements ``step`` apart along ``dimension``, as a new last
        axis (PyTorch's ``Tensor.unfold``; the images' im2col is ``autograd.unfold``)."""
        return _ops.rearrange.windows(self, dimension, size, step)

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
        """The NumPy array holding this tensor's values (shared, not copied)."""
        return self.data

    def item(self):
        """The one element as a Python number; ValueError for more than one element."""
        if self.data.size != 1:
            raise ValueError(f"item() needs a tensor with exactly one element, this one has shape "
                             f"{self.shape}; index it first or reduce it with sum() or mean()")
        return self.data.item()

    def tolist(self):
        """The values as (nested) Python lists of numbers, as ``x.tolist()`` in PyTorch."""
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
        """The same values, cut off from the graph (shares memory and the version counter, like
        PyTorch)."""
        detached = Tensor._make(self.data, False, None)
        detached._vc = self._vc if self._vc is not None else self._new_counter()
        return detached

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

    # --- in place: x.add_(y), x += y, x[idx] = v change x's own array, as in PyTorch -----------
    # (autograd/ops/inplace.py: what is recorded, what is refused, and the version counter's use)
    def add_(self, other, alpha=1):
        """``self += alpha * other`` in place; returns this tensor."""
        return self._arithmetic_(np.add, "add_", other, alpha)

    def sub_(self, other, alpha=1):
        """``self -= alpha * other`` in place; returns this tensor."""
        return self._arithmetic_(np.subtract, "sub_", other, alpha)

    def mul_(self, other):
        """``self *= other`` in place; returns this tensor."""
        return self._arithmetic_(np.multiply, "mul_", other)

    def div_(self, other):
        """``self /= other`` in place; returns this tensor."""
        return self._arithmetic_(np.true_divide, "div_", other)

    def __iadd__(self, other):
        return self._arithmetic_(np.add, "x += y", other)

    def __isub__(self, other):
        return self._arithmetic_(np.subtract, "x -= y", other)

    def __imul__(self, other):
        return self._arithmetic_(np.multiply, "x *= y", other)

    def __itruediv__(self, other):
        return self._arithmetic_(np.true_divide, "x /= y", other)

    def _arithmetic_(self, ufunc, name, other, alpha=1):
        """``self = self <ufunc> alpha * other`` in place: the ufunc writes straight into the
        array where nothing is recorded (an optimizer step), the recorded op otherwise."""
        if alpha != 1:
            other = other * alpha
        operator_ = _NUMPY_OPERATORS[ufunc]
        return _ops.inplace.change(
            self, name, lambda old: operator_(old, other), (other,),
            lambda array: ufunc(array, _raw(other), out=array, casting="same_kind"))

    def clamp_(self, min=None, max=None):  # noqa: A002 - PyTorch's keyword names
        """Limit the elements to [min, max] in place (``clamp`` in place); returns this tensor."""
        return _ops.inplace.change(self, "clamp_", lambda old: old.clamp(min, max), (min, max))

    def exp_(self):
        """``exp`` in place (its backward needs the result: see autograd/ops/inplace.py)."""
        return _ops.inplace.change(self, "exp_", lambda old: old.exp())

    def relu_(self):
        """``relu`` in place; returns this tensor."""
        return _ops.inplace.change(self, "relu_", lambda old: old.relu())

    def sigmoid_(self):
        """``sigmoid`` in place; returns this tensor."""
        return _ops.inplace.change(self, "sigmoid_", lambda old: old.sigmoid())

    def tanh_(self):
        """``tanh`` in place; returns this tensor."""
        return _ops.inplace.change(self, "tanh_", lambda old: old.tanh())

    def zero_(self):
        """Set every element to 0 in place and return this tensor (``p.grad.zero_()``)."""
        return self.fill_(0)

    def fill_(self, value):
        """Set every element to ``value`` (a number or a 0-d tensor) in place; returns this
        tensor."""
        if isinstance(value, Tensor) and value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.ndim} dimensions (PyTorch's rule); use copy_(src) to "
                               "write a tensor of values")
        return _ops.inplace.change(self, "fill_", lambda old: _ops.Copy.apply(old, value),
                                   (value,), lambda array: array.fill(_raw(value)))

    def copy_(self, src):
        """Write ``src`` (broadcast to this tensor's shape, cast to its dtype) into this tensor;
        returns it. ``src`` gets the gradient, as in PyTorch."""
        return _ops.inplace.change(
            self, "copy_", lambda old: _ops.Copy.apply(old, src), (src,),
            lambda array: np.copyto(array, _raw(src), casting="unsafe"))

    def masked_fill_(self, mask, value):
        """``masked_fill`` in place: ``value`` wherever ``mask`` is True; returns this tensor."""
        return _ops.inplace.change(self, "masked_fill_",
                                   lambda old: old.masked_fill(mask, value), (value,))

    def index_add_(self, dim, index, source, alpha=1):
        """``self[..., index[i], ...] += alpha * source[..., i, ...]`` along ``dim``, repeats
        adding up (torch.Tensor.index_add_); returns this tensor."""
        return _ops.inplace.index_add(self, dim, index, source, alpha)

    def scatter_(self, dim, index, src=None, value=None, reduce=None):
        """``self[i][index[i][j]] = src[i][j]`` (for dim 1), or a number ``value`` there
        (torch.Tensor.scatter_); ``reduce="add"`` or ``"multiply"`` combines instead of
        writing. Returns this tensor."""
        return _ops.inplace.scatter(self, dim, index, src if value is None else value, reduce)

    def uniform_(self, a=0.0, b=1.0):
        """Fill with samples uniform in [a, b) from the engine's generator (``manual_seed``)."""
        return _ops.inplace.random_fill(self, "uniform_",
                                        lambda rng: a + (b - a) * rng.random(self.shape))

    def normal_(self, mean=0.0, std=1.0):
        """Fill with samples of N(mean, std²) from the engine's generator (``manual_seed``)."""
        return _ops.inplace.random_fill(
            self, "normal_", lambda rng: mean + std * rng.standard_normal(self.shape))

    def __setitem__(self, key, value):
        """``x[key] = value`` in place; recorded (``value`` gets its gradient) as PyTorch does,
        reading a key of ints and index arrays as ``__getitem__`` does (the places in PyTorch's
        order, so that ``value`` has the shape ``x[key]`` has)."""
        key = _index_key(key)
        if type(key) is tuple and _mixes_ints_and_arrays(key):
            first, then = _ints_first(key, self.ndim)
            places = np.arange(self.data.size).reshape(self.shape)[first][then]
            key = np.unravel_index(places, self.shape)
        _ops.inplace.set_item(self, key, value)

    # --- the version counter: how many in-place changes this storage has had ---------------------
    @property
    def _version(self):
        """How many in-place changes this tensor's array has had (PyTorch's ``x._version``),
        counted once for all the tensors that share it (views, ``detach()``)."""
        counter = self._vc
        return 0 if counter is None else counter[0]

    def _new_counter(self):
        """This tensor's version counter, made on first need (an in-place change or a view): a
        one-element list that views share; the Function that made the tensor holds it too, so
        a backward through that Function can tell whether the values it saved changed."""
        counter = self._vc = [0]
        if self.grad_fn is not None:
            self.grad_fn._count_result_versions(counter)
        return counter

    def _bump_version(self):
        """Count one in-place change and return the new version."""
        counter = self._vc
        if counter is None:
            counter = self._new_counter()
        counter[0] += 1
        return counter[0]

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
        """A float32 copy, recorded so the gradient flows back (PyTorch's ``x.float()``)."""
        return self.to(np.float32)

    def double(self):
        """A float64 copy, recorded so the gradient flows back (PyTorch's ``x.double()``)."""
        return self.to(np.float64)

    def half(self):
        """A float16 copy, recorded so the gradient flows back (PyTorch's ``x.half()``)."""
        return self.to(np.float16)

    def int(self):
        """An int32 copy (untracked: integers have no gradient)."""
        return self.to(np.int32)

    def long(self):
        """An int64 copy (untracked: integers have no gradient)."""
        return self.to(np.int64)

    def bool(self):
        """A copy as booleans (untracked, like every cast to a non-float dtype)."""
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
        """NumPy's nonzero, as numpygrad's Array has it: a tuple of index tensors, one per axis
        (PyTorch's ``x.nonzero()`` is one (n, ndim) tensor; its ``as_tuple=True`` gives this)."""
        return tuple(_constant(i) for i in np.nonzero(self.data))

    def fill(self, value):
        """numpygrad's fill: a new tensor of this shape and dtype, every element ``value``, not
        recorded. ``fill_`` changes this tensor in place."""
        return _constant(np.full(self.shape, value, dtype=self.dtype))



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
