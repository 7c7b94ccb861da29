# Written by `python -m autograd.ops.stubs`: do not edit by hand.
from typing import Any

from . import ops as _ops


class Tensor:
    """A NumPy array that remembers how it was computed, so gradients can flow back through it."""
    name: Any
    _hooks: Any
    _retains_grad: Any
    _tangent: Any
    _base: Any
    _view_version: Any
    _history: Any
    def __init__(self, data, requires_grad=..., dtype=..., name=...): ...
    @staticmethod
    def _make(data, requires_grad, grad_fn):
        """Wrap an op's result without copying or checking (the hot path)."""
    @property
    def shape(self): ...
    @property
    def ndim(self): ...
    @property
    def size(self):
        """The number of elements, as NumPy's ``a.size``; called, PyTorch's ``x.size()`` (the shape)
        or ``x.size(dim)`` (one axis's length)."""
    @property
    def dtype(self): ...
    def numel(self):
        """The number of elements (PyTorch's name for ``size``)."""
    def dim(self):
        """The number of dimensions (PyTorch's name for ``ndim``)."""
    def contiguous(self):
        """This tensor: NumPy arrays need no contiguous copy here (PyTorch's spelling)."""
    def unfold(self, dimension, size, step):
        """Every window of ``size`` elements ``step`` apart along ``dimension``, as a new last axis
        (PyTorch's ``Tensor.unfold``; the images' im2col is ``autograd.unfold``)."""
    def is_contiguous(self):
        """Whether the elements lie in memory in row-major order without gaps (a transpose or a
        strided slice is a view that does not)."""
    def stride(self, dim=...):
        """PyTorch's strides: how many elements apart neighbours along each axis are (NumPy's
        ``strides`` count bytes), or along ``dim`` alone."""
    def new_tensor(self, data, dtype=..., requires_grad=...):
        """A new tensor of ``data`` (copied) in this tensor's dtype unless ``dtype`` is given."""
    def new_full(self, size, fill_value, dtype=..., requires_grad=...):
        """A new tensor of shape ``size``, every element ``fill_value``, in this dtype."""
    def new_zeros(self, *size, dtype=..., requires_grad=...):
        """A new tensor of zeros of shape ``size`` (sizes or one tuple), in this dtype."""
    def new_ones(self, *size, dtype=..., requires_grad=...):
        """A new tensor of ones of shape ``size`` (sizes or one tuple), in this dtype."""
    def type_as(self, other):
        """This tensor cast to ``other``'s dtype (recorded, as ``to``)."""
    @property
    def grad(self):
        """The gradient that backward accumulated into this tensor, a Tensor of its shape (None
        before any backward reached it, and for intermediates unless ``retain_grad()``)."""
    @grad.setter
    def grad(self, value): ...
    @property
    def is_leaf(self):
        """True for tensors made by the user rather than by an op that records gradients."""
    @property
    def parents(self):
        """The input tensors of the op that made this one, in order; () for leaves."""
    @property
    def T(self):
        """All axes reversed, as in NumPy and PyTorch (``transpose()`` swaps only the last two)."""
    @property
    def mT(self):
        """The last two axes swapped (PyTorch's name), the same as ``transpose()`` on a matrix or a
        batch of them; refused on a vector, as in PyTorch (a 0-d tensor comes back)."""
    def numpy(self):
        """The NumPy array holding this tensor's values (shared, not copied)."""
    def item(self):
        """The one element as a Python number; ValueError for more than one element."""
    def tolist(self):
        """The values as (nested) Python lists of numbers, as ``x.tolist()`` in PyTorch."""
    def __array__(self, dtype=..., copy=...): ...
    def __len__(self): ...
    def __iter__(self): ...
    def __bool__(self): ...
    def __float__(self): ...
    def __int__(self): ...
    def __index__(self): ...
    __hash__: Any
    def __repr__(self): ...
    def requires_grad_(self, requires_grad=...):
        """Mark this leaf as a parameter whose gradient backward should compute."""
    def detach(self):
        """The same values, cut off from the graph (shares memory and the version counter, like
        PyTorch)."""
    def detach_(self):
        """Cut this tensor off from the graph in place: it becomes a leaf that does not require
        grad."""
    def retain_grad(self):
        """Keep this intermediate tensor's gradient in ``.grad`` after backward."""
    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a replacement
        gradient."""
    def _link_to_function(self):
        """Let grad_fn find this tensor and its hooks (which it keeps, so they run even if this
        tensor is dropped before backward, as in PyTorch)."""
    def backward(self, gradient=..., retain_graph=..., create_graph=...):
        """Compute the gradient of this tensor with respect to every leaf that requires grad, adding
        it into their ``.grad``."""
    def __add__(self, other): ...
    def __radd__(self, other): ...
    def __sub__(self, other): ...
    def __rsub__(self, other): ...
    def __mul__(self, other): ...
    def __rmul__(self, other): ...
    def __truediv__(self, other): ...
    def __rtruediv__(self, other): ...
    def __pow__(self, exponent): ...
    def __rpow__(self, base): ...
    def __neg__(self): ...
    def __pos__(self): ...
    def __matmul__(self, other): ...
    def __rmatmul__(self, other): ...
    def __getitem__(self, key): ...
    def add_(self, other, alpha=...):
        """``self += alpha * other`` in place; returns this tensor."""
    def sub_(self, other, alpha=...):
        """``self -= alpha * other`` in place; returns this tensor."""
    def mul_(self, other):
        """``self *= other`` in place; returns this tensor."""
    def div_(self, other):
        """``self /= other`` in place; returns this tensor."""
    def __iadd__(self, other): ...
    def __isub__(self, other): ...
    def __imul__(self, other): ...
    def __itruediv__(self, other): ...
    def _arithmetic_(self, ufunc, name, other, alpha=...):
        """``self = self <ufunc> alpha * other`` in place: the ufunc writes straight into the array
        where nothing is recorded (an optimizer step), the recorded op otherwise."""
    def clamp_(self, min=..., max=...):
        """Limit the elements to [min, max] in place (``clamp`` in place); returns this tensor."""
    def exp_(self):
        """``exp`` in place (its backward needs the result: see autograd/ops/inplace.py)."""
    def relu_(self):
        """``relu`` in place; returns this tensor."""
    def sigmoid_(self):
        """``sigmoid`` in place; returns this tensor."""
    def tanh_(self):
        """``tanh`` in place; returns this tensor."""
    def zero_(self):
        """Set every element to 0 in place and return this tensor (``p.grad.zero_()``)."""
    def fill_(self, value):
        """Set every element to ``value`` (a number or a 0-d tensor) in place; returns this
        tensor."""
    def copy_(self, src):
        """Write ``src`` (broadcast to this tensor's shape, cast to its dtype) into this tensor;
        returns it."""
    def masked_fill_(self, mask, value):
        """``masked_fill`` in place: ``value`` wherever ``mask`` is True; returns this tensor."""
    def index_add_(self, dim, index, source, alpha=...):
        """``self[..., index[i], ...] += alpha * source[..., i, ...]`` along ``dim``, repeats adding
        up (torch.Tensor.index_add_); returns this tensor."""
    def scatter_(self, dim, index, src=..., value=..., reduce=...): ...
    def uniform_(self, a=..., b=...):
        """Fill with samples uniform in [a, b) from the engine's generator (``manual_seed``)."""
    def normal_(self, mean=..., std=...):
        """Fill with samples of N(mean, std²) from the engine's generator (``manual_seed``)."""
    def __setitem__(self, key, value):
        """``x[key] = value`` in place; recorded (``value`` gets its gradient) as PyTorch does,
        reading a key of ints and index arrays as ``__getitem__`` does (the places in PyTorch's
        order, so that ``value`` has the shape ``x[key]`` has)."""
    @property
    def _version(self):
        """How many in-place changes this tensor's array has had (PyTorch's ``x._version``), counted
        once for all the tensors that share it (views, ``detach()``)."""
    def _new_counter(self):
        """This tensor's version counter, made on first need (an in-place change or a view): a one-
        element list that views share; the Function that made the tensor holds it too, so a backward
        through that Function can tell whether the values it saved changed."""
    def _bump_version(self):
        """Count one in-place change and return the new version."""
    def __array_ufunc__(self, ufunc, method, *inputs, out=..., **kwargs):
        """NumPy meets a Tensor: ``array -= tensor`` (``p.data -= lr * p.grad``) writes into the
        array; ``array * tensor`` and the other operators give the Tensor result, as the reflected
        operator would."""
    def to(self, dtype):
        """This tensor as ``dtype`` (e.g."""
    def type(self, dtype=...): ...
    def float(self):
        """A float32 copy, recorded so the gradient flows back (PyTorch's ``x.float()``)."""
    def double(self):
        """A float64 copy, recorded so the gradient flows back (PyTorch's ``x.double()``)."""
    def half(self):
        """A float16 copy, recorded so the gradient flows back (PyTorch's ``x.half()``)."""
    def int(self):
        """An int32 copy (untracked: integers have no gradient)."""
    def long(self):
        """An int64 copy (untracked: integers have no gradient)."""
    def bool(self):
        """A copy as booleans (untracked, like every cast to a non-float dtype)."""
    def __eq__(self, other): ...
    def __ne__(self, other): ...
    def __lt__(self, other): ...
    def __le__(self, other): ...
    def __gt__(self, other): ...
    def __ge__(self, other): ...
    def __and__(self, other): ...
    def __or__(self, other): ...
    def __xor__(self, other): ...
    def __rand__(self, other): ...
    def __ror__(self, other): ...
    def __rxor__(self, other): ...
    def __invert__(self): ...
    def astype(self, dtype):
        """numpygrad's cast: a new tensor of ``dtype`` that is not recorded (use ``to`` to keep the
        gradient)."""
    def nonzero(self):
        """NumPy's nonzero, as numpygrad's Array has it: a tuple of index tensors, one per axis
        (PyTorch's ``x.nonzero()`` is one (n, ndim) tensor; its ``as_tuple=True`` gives this)."""
    def fill(self, value):
        """numpygrad's fill: a new tensor of this shape and dtype, every element ``value``, not
        recorded."""
    _grad: Any
    _vc: Any
    data: Any
    grad_fn: Any
    requires_grad: Any
    prelu = _ops.prelu
    clamp = _ops.clamp
    t = _ops.t
    expand = _ops.expand
    expand_as = _ops.expand_as
    view = _ops.view
    view_as = _ops.view_as
    add = _ops.add
    sub = _ops.sub
    mul = _ops.mul
    div = _ops.div
    neg = _ops.neg
    pow = _ops.pow
    exp = _ops.exp
    log = _ops.log
    sqrt = _ops.sqrt
    square = _ops.square
    abs = _ops.abs
    sign = _ops.sign
    sin = _ops.sin
    cos = _ops.cos
    tanh = _ops.tanh
    sigmoid = _ops.sigmoid
    relu = _ops.relu
    leaky_relu = _ops.leaky_relu
    maximum = _ops.maximum
    minimum = _ops.minimum
    clip = _ops.clip
    tan = _ops.tan
    sinh = _ops.sinh
    cosh = _ops.cosh
    asinh = _ops.asinh
    acosh = _ops.acosh
    atanh = _ops.atanh
    erf = _ops.erf
    log2 = _ops.log2
    log10 = _ops.log10
    exp2 = _ops.exp2
    log1p = _ops.log1p
    expm1 = _ops.expm1
    rsqrt = _ops.rsqrt
    reciprocal = _ops.reciprocal
    lerp = _ops.lerp
    atan2 = _ops.atan2
    asin = _ops.asin
    acos = _ops.acos
    atan = _ops.atan
    logit = _ops.logit
    hypot = _ops.hypot
    logaddexp = _ops.logaddexp
    logaddexp2 = _ops.logaddexp2
    xlogy = _ops.xlogy
    floor = _ops.floor
    ceil = _ops.ceil
    trunc = _ops.trunc
    round = _ops.round
    fmod = _ops.fmod
    remainder = _ops.remainder
    clone = _ops.clone
    isnan = _ops.isnan
    isinf = _ops.isinf
    isfinite = _ops.isfinite
    logical_not = _ops.logical_not
    eq = _ops.eq
    ne = _ops.ne
    lt = _ops.lt
    le = _ops.le
    gt = _ops.gt
    ge = _ops.ge
    gather = _ops.gather
    scatter_add = _ops.scatter_add
    masked_fill = _ops.masked_fill
    matmul = _ops.matmul
    bmm = _ops.bmm
    mm = _ops.mm
    mv = _ops.mv
    addmm = _ops.addmm
    baddbmm = _ops.baddbmm
    dot = _ops.dot
    outer = _ops.outer
    argmax = _ops.argmax
    argmin = _ops.argmin
    argsort = _ops.argsort
    topk = _ops.topk
    sort = _ops.sort
    max = _ops.max
    min = _ops.min
    amax = _ops.amax
    amin = _ops.amin
    median = _ops.median
    quantile = _ops.quantile
    index_select = _ops.index_select
    masked_select = _ops.masked_select
    take_along_dim = _ops.take_along_dim
    narrow = _ops.narrow
    scatter = _ops.scatter
    index_add = _ops.index_add
    movedim = _ops.movedim
    moveaxis = _ops.moveaxis
    repeat_interleave = _ops.repeat_interleave
    unflatten = _ops.unflatten
    diag_embed = _ops.diag_embed
    diagonal = _ops.diagonal
    diag = _ops.diag
    kron = _ops.kron
    cross = _ops.cross
    sum = _ops.sum
    mean = _ops.mean
    logsumexp = _ops.logsumexp
    softmax = _ops.softmax
    log_softmax = _ops.log_softmax
    var = _ops.var
    std = _ops.std
    prod = _ops.prod
    norm = _ops.norm
    cumsum = _ops.cumsum
    all = _ops.all
    any = _ops.any
    cumprod = _ops.cumprod
    logcumsumexp = _ops.logcumsumexp
    nansum = _ops.nansum
    nanmean = _ops.nanmean
    var_mean = _ops.var_mean
    std_mean = _ops.std_mean
    diff = _ops.diff
    broadcast_to = _ops.broadcast_to
    reshape = _ops.reshape
    transpose = _ops.transpose
    permute = _ops.permute
    swapaxes = _ops.swapaxes
    squeeze = _ops.squeeze
    unsqueeze = _ops.unsqueeze
    expand_dims = _ops.expand_dims
    flatten = _ops.flatten
    flip = _ops.flip
    roll = _ops.roll
    repeat = _ops.repeat
    tile = _ops.tile
    tril = _ops.tril
    triu = _ops.triu
    split = _ops.split
    chunk = _ops.chunk
    unbind = _ops.unbind
    lgamma = _ops.lgamma
    digamma = _ops.digamma
    erfinv = _ops.erfinv


class Size(int):
    """``x.size``: NumPy's element count (an int, so ``x.size == 6`` and ``x.size * 2`` work), which
    can also be called as PyTorch's method: ``x.size()`` is the shape, ``x.size(1)`` one axis's
    length."""
    @staticmethod
    def __new__(cls, count, shape): ...
    def __call__(self, dim=...): ...


class _HookHandle:
    def __init__(self, hooks, hook): ...
    def remove(self): ...
    _hook: Any
    _hooks: Any


def _all_bools(data):
    """Whether ``data`` is True/False or a (nested) list or tuple of only those."""


def _raw(x): ...


def _compared(ufunc, tensor, other):
    """A comparison's constant result."""


def _constant(array): ...


def _bitwise(ufunc, symbol, *operands):
    """A bit operation on bool or integer tensors; floats are refused, as in PyTorch."""


def _index_key(key):
    """Turn tensors inside an indexing key into arrays (indices are never differentiated), and a 0-d
    integer tensor into an int, as PyTorch reads it."""


def _index_part(part): ...


def _is_array_index(part): ...


def _mixes_ints_and_arrays(key):
    """Whether the key has an int beside an index array: NumPy then counts the int as an array
    index, which can move the result's axes, where PyTorch applies the ints first."""


def _ints_first(key, ndim):
    """PyTorch's reading of a key with ints and index arrays, as two NumPy keys: the ints (and
    slices, None, Ellipsis) first, then the index arrays on what is left."""


def as_tensor(x, like=...):
    """Wrap a number, list or array as a constant operand."""
