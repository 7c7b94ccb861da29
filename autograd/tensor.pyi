# Written by `python -m autograd.ops.stubs`: do not edit by hand.
from typing import Any


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
    def prelu(a, weight):
        """x where x > 0, else weight·x, with a learned weight: one number, or one per channel (axis
        1, as in PyTorch)."""
    def clamp(x, min=..., max=...):
        """Limit x to [min, max], PyTorch's name for ``clip``."""
    def t(x):
        """A matrix transposed; a 0-d or 1-d tensor comes back unchanged (PyTorch's ``t()``)."""
    def expand(x, *sizes):
        """x repeated along size-1 axes (and new leading axes) to ``sizes``; -1 keeps an axis's
        size: ``x.expand(3, -1)``."""
    def expand_as(x, other):
        """``x.expand(other.shape)``."""
    def view(x, *shape):
        """PyTorch's ``view``: here the same as ``reshape`` (NumPy arrays need no contiguity)."""
    def view_as(x, other):
        """``x.view(other.shape)``."""
    def add(a, b):
        """a + b, broadcasting; both operands get the gradient unchanged (summed over broadcast
        axes)."""
    def sub(a, b):
        """a − b, broadcasting; a gets the gradient, b its negative."""
    def mul(a, b):
        """a · b, broadcasting; each factor's gradient is the upstream gradient times the other."""
    def div(a, b, rounding_mode=...): ...
    def neg(a):
        """−a; the gradient with its sign flipped."""
    def pow(a, b):
        """``a ** b``, elementwise: d/da = b a^(b-1), d/db = a^b ln a, with PyTorch's rules where
        these are 0 times infinity: d/da is 0 where b = 0 (so a second derivative of x**1 at 0 is
        0), and d/db is 0 where a = 0 and b ≥ 0."""
    def exp(a):
        """eᵃ, with derivative eᵃ (the output itself)."""
    def log(a):
        """ln a, with derivative 1/a (−inf at 0, NaN below, as in PyTorch)."""
    def sqrt(a):
        """√a, with derivative 1/(2√a) (inf at 0)."""
    def square(a):
        """a * a, elementwise; its derivative is 2a."""
    def abs(a):
        """|a|, with derivative sign(a): 0 at 0, and for NaN (PyTorch's sign)."""
    def sign(a):
        """-1, 0 or 1 by the sign of a, and 0 for NaN (PyTorch's value; NumPy's sign gives NaN)."""
    def sin(a):
        """sin a, with derivative cos a."""
    def cos(a):
        """cos a, with derivative −sin a."""
    def tanh(a):
        """tanh a, with derivative 1 − tanh² a (from the output)."""
    def sigmoid(a):
        """1 / (1 + e^-a), accurate in both tails (see ``sigmoid_array``), with derivative
        σ(a)·σ(−a) = e^−|a| / (1 + e^−|a|)²: written so rather than σ(1 − σ), which is 0 once σ has
        rounded to 1, so that the derivative, and those of silu, softplus, mish and gelu built on
        it, keep their tails."""
    def relu(a):
        """max(a, 0), with derivative 1 where a > 0 and 0 elsewhere (0 at 0); a NaN input passes the
        gradient on, as in PyTorch."""
    def leaky_relu(a, negative_slope=...):
        """a where a > 0, else negative_slope * a."""
    def maximum(a, b):
        """Elementwise max(a, b) (NaN if either is); the gradient as ``_Extremum`` says."""
    def minimum(a, b):
        """Elementwise min(a, b) (NaN if either is); the gradient as ``_Extremum`` says."""
    def clip(x, min=..., max=...):
        """Limit x to [min, max] (either may be None)."""
    def tan(a):
        """tan(a), with derivative 1 + tan²(a)."""
    def sinh(a):
        """sinh(a), with derivative cosh(a)."""
    def cosh(a):
        """cosh(a), with derivative sinh(a)."""
    def asinh(a):
        """asinh(a), with derivative 1 / √(a² + 1)."""
    def acosh(a):
        """acosh(a) for a ≥ 1, with derivative 1/√(a − 1) · 1/√(a + 1): a − 1 is exact near 1, where
        a² − 1 would lose digits, and the second derivative at 1 is −inf, not inf − inf."""
    def atanh(a):
        """atanh(a) for |a| < 1, with derivative 1 / (1 − a²) = ½(1/(1 − a) + 1/(1 + a)): two
        positive terms with exact denominators near ±1, where 1 − a² would lose digits, and the
        second derivative at ±1 is ±inf, not inf − inf."""
    def erf(a):
        """The error function 2/√π ∫₀^a e^(−t²) dt, with derivative 2/√π · e^(−a²)."""
    def log2(a):
        """Base-2 logarithm, with derivative 1 / (a ln 2)."""
    def log10(a):
        """Base-10 logarithm, with derivative 1 / (a ln 10)."""
    def exp2(a):
        """2 to the power a, with derivative 2^a · ln 2."""
    def log1p(a):
        """log(1 + a), accurate for tiny a, with derivative 1 / (1 + a)."""
    def expm1(a):
        """e^a − 1, accurate for tiny a, with derivative e^a: computed from a, since the output plus
        1 loses the digits of e^a for a below 0 (all of them once the output rounds to −1)."""
    def rsqrt(a):
        """1 / √a, with derivative −½ a^(−3/2), i.e."""
    def reciprocal(a):
        """1 / a, with derivative −1 / a², i.e."""
    def lerp(a, end, weight):
        """a + weight·(end − a) (see ``Lerp``), in PyTorch's result dtype (see ``promoted``)."""
    def atan2(a, other):
        """The angle of the point (other, a): atan2(a, other), with partial derivatives other / (a²
        + other²) and −a / (a² + other²); both 0 at the origin (PyTorch's rule)."""
    def asin(a):
        """arcsin(a) on [−1, 1], with derivative 1/√(1 − a²) (see ``_one_minus_square``)."""
    def acos(a):
        """arccos(a) on [−1, 1], with derivative −1/√(1 − a²) (see ``_one_minus_square``)."""
    def atan(a):
        """arctan(a), with derivative 1 / (1 + a²)."""
    def logit(a):
        """log(a / (1 − a)), the inverse of sigmoid, with derivative 1/a + 1/(1 − a) = 1/(a (1 − a))
        on [0, 1] (a sum, so the second derivative at 0 and 1 is ∓inf, not inf − inf) and NaN
        outside it, as in PyTorch."""
    def hypot(a, b):
        """√(a² + b²) without overflow, with partial derivatives a / y and b / y (NaN at the origin,
        0/0, as PyTorch gives)."""
    def logaddexp(a, b):
        """log(e^a + e^b), computed stably, with partial derivatives σ(a − b) and σ(b − a)."""
    def logaddexp2(a, b):
        """log₂(2^a + 2^b), computed stably, with partial derivatives 2^a / (2^a + 2^b) and 2^b /
        (2^a + 2^b) (``_share_of_two``)."""
    def xlogy(a, b):
        """a·log(b), and 0 where a is 0 (unless b is NaN), as PyTorch: so 0·log 0 is 0."""
    def floor(a):
        """The largest whole number ≤ a (integers pass unchanged); derivative 0."""
    def ceil(a):
        """The smallest whole number ≥ a (integers pass unchanged); derivative 0."""
    def trunc(a):
        """a rounded toward 0 (integers pass unchanged); derivative 0."""
    def round(a, decimals=...):
        """a rounded to ``decimals`` decimal places (0: whole numbers; negative: tens, hundreds, …),
        halves to even, as PyTorch computes it in a's dtype: rint(a·10^d) / 10^d, or rint(a / 10^-d)
        · 10^-d for negative d (float16 through float32)."""
    def fmod(a, b):
        """The remainder of a / b with a's sign (C's fmod): a − trunc(a / b)·b."""
    def remainder(a, b):
        """The remainder of a / b with b's sign (Python's %): a − floor(a / b)·b."""
    def clone(a):
        """A copy of a that stays in the graph: the gradient passes through unchanged."""
    def isnan(x):
        """True where x is NaN (a constant bool tensor)."""
    def isinf(x):
        """True where x is +inf or -inf (a constant bool tensor)."""
    def isfinite(x):
        """True where x is neither NaN nor ±inf (a constant bool tensor)."""
    def logical_not(x):
        """True where x is 0 (or False), else False (a constant bool tensor)."""
    def eq(x, other):
        """True where x == other (broadcast), a constant bool tensor."""
    def ne(x, other):
        """True where x != other (broadcast), a constant bool tensor."""
    def lt(x, other):
        """True where x < other (broadcast), a constant bool tensor."""
    def le(x, other):
        """True where x <= other (broadcast), a constant bool tensor."""
    def gt(x, other):
        """True where x > other (broadcast), a constant bool tensor."""
    def ge(x, other):
        """True where x >= other (broadcast), a constant bool tensor."""
    def gather(x, axis, index):
        """``x.gather(1, index)``: out[i][j] = x[i][index[i][j]] (for axis 1), as torch.gather."""
    def scatter_add(x, axis, index, src):
        """``x.scatter_add(1, index, src)``: x with out[i][index[i][j]] += src[i][j] (for axis 1),
        as torch.scatter_add."""
    def masked_fill(x, mask, value):
        """x with ``value`` wherever the boolean ``mask`` is True, as torch.masked_fill: e.g."""
    def matmul(a, b):
        """a @ b."""
    def bmm(a, b):
        """Batched matrix product of two 3-D tensors, (b, n, m) @ (b, m, p) -> (b, n, p), as
        torch.bmm: no broadcasting, so the batch sizes must be equal."""
    def mm(a, b):
        """The product of two matrices, (n, m) @ (m, p) -> (n, p), as torch.mm: no vectors, no
        batches, no broadcasting."""
    def mv(a, b):
        """A matrix times a vector, (n, m) @ (m,) -> (n,), as torch.mv."""
    def addmm(input, mat1, mat2, *, beta=..., alpha=...):
        """beta·input + alpha·(mat1 @ mat2), as torch.addmm (see ``mm`` for the shapes)."""
    def baddbmm(input, batch1, batch2, *, beta=..., alpha=...):
        """beta·input + alpha·(batch1 @ batch2) per batch, as torch.baddbmm (see ``bmm``)."""
    def dot(a, b):
        """The dot product of two 1-D vectors of one length, sum(a * b), as torch.dot (which, unlike
        NumPy's dot, takes vectors only)."""
    def outer(a, b):
        """The outer product of two 1-D vectors, y[i, j] = a[i] * b[j], as torch.outer."""
    def argmax(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
        """The index of the largest element (of the flattened tensor, or along ``dim``); the first
        one on ties, and a NaN counts as largest."""
    def argmin(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
        """The index of the smallest element (of the flattened tensor, or along ``dim``); the first
        one on ties, and a NaN wins, as in PyTorch."""
    def argsort(x, dim=..., descending=..., stable=...):
        """The indices that sort x along ``dim`` (ascending unless ``descending``), NaN last when
        ascending and first when descending, as in PyTorch."""
    def topk(x, k, dim=..., largest=..., sorted=...):
        """The ``k`` largest elements along ``dim`` (smallest with ``largest=False``) and their
        indices, as ``TopK(values, indices)``."""
    def sort(x, dim=..., descending=..., stable=..., *, axis=...):
        """The elements sorted along ``dim`` (ascending unless ``descending``) and where each came
        from, as ``Sort(values, indices)``, PyTorch's pair."""
    def max(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
        """The largest element, in PyTorch's three forms: ``x.max()`` over every element (tied
        elements share the gradient); ``x.max(dim)`` along one dim, PyTorch's pair ``Max(values,
        indices)`` (the first of tied elements is chosen and gets the gradient; a NaN wins);
        ``max(x, other)``, the elementwise maximum."""
    def min(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
        """The smallest element, in PyTorch's three forms: ``x.min()`` over every element (tied
        elements share the gradient); ``x.min(dim)`` along one dim, PyTorch's pair ``Min(values,
        indices)`` (the first of tied elements is chosen and gets the gradient; a NaN wins);
        ``min(x, other)``, the elementwise minimum."""
    def amax(x, dim=..., keepdim=...):
        """The largest elements over ``dim`` (one or several axes; all for ``()``), tied elements
        sharing the gradient equally, as torch.amax."""
    def amin(x, dim=..., keepdim=...):
        """The smallest elements over ``dim`` (one or several axes; all for ``()``), tied elements
        sharing the gradient equally, as torch.amin."""
    def median(x, dim=..., keepdim=...):
        """The lower median (the smaller middle element for an even count; NaN if any element is
        NaN), as torch.median: ``x.median()`` over every element, or along ``dim`` PyTorch's pair
        ``Median(values, indices)``."""
    def quantile(x, q, dim=..., keepdim=..., *, interpolation=...):
        """The q-th quantiles along ``dim`` (of all elements when None), PyTorch's linear
        interpolation: sorted values v, position p = q·(n − 1), result lerp(v[⌊p⌋], v[⌈p⌉], p −
        ⌊p⌋)."""
    def index_select(x, dim, index):
        """The slices of x at ``index`` (0-D or 1-D integers) along ``dim``; a repeated index gets
        the sum of its slices' gradients."""
    def masked_select(x, mask):
        """The elements of x where the boolean ``mask`` (broadcast with x) is True, as a 1-D tensor
        in row-major order."""
    def take_along_dim(x, indices, dim=...):
        """Elements of x picked by ``indices`` along ``dim`` (the two broadcast on the other axes),
        as ``np.take_along_axis``; without ``dim`` both are flattened first."""
    def narrow(x, dim, start, length):
        """``length`` elements of x along ``dim`` from ``start`` (negative counts from the end)."""
    def scatter(x, dim, index, src=..., value=..., reduce=...): ...
    def index_add(x, dim, index, source, alpha=...):
        """A copy of x with ``alpha * source``'s slices added at ``index`` along ``dim``."""
    def movedim(x, source, destination):
        """x with its axes ``source`` moved to ``destination`` (the others keep their order)."""
    def moveaxis(x, source, destination):
        """NumPy's name for movedim."""
    def repeat_interleave(x, repeats, dim=...):
        """Each element (or slice along ``dim``) repeated ``repeats`` times, in place: [1, 2] with 2
        gives [1, 1, 2, 2]."""
    def unflatten(x, dim, sizes):
        """Axis ``dim`` of x split into ``sizes`` (one of them may be -1)."""
    def diag_embed(x, offset=..., dim1=..., dim2=...):
        """Square matrices whose ``offset`` diagonal is x's last axis, the two new axes at ``dim1``
        and ``dim2``."""
    def diagonal(x, offset=..., dim1=..., dim2=...):
        """The ``offset`` diagonal of the matrices on axes ``dim1`` and ``dim2``, as a last axis."""
    def diag(x, diagonal=...):
        """A 1-D x as the ``diagonal`` of a square matrix; a 2-D x's ``diagonal`` as a 1-D
        tensor."""
    def kron(a, b):
        """The Kronecker product: every element of a times the whole of b, in blocks."""
    def cross(a, b, dim=...):
        """The cross product of 3-vectors along ``dim`` (a and b broadcast); without ``dim``, the
        first axis of size 3, as torch.cross."""
    def sum(a, axis=..., keepdims=..., dtype=...):
        """The sum over axes; ``dtype=`` sums in that dtype (PyTorch's ``x.sum(dtype=...)``), and
        the gradient comes back in the input's."""
    def mean(a, axis=..., keepdims=...):
        """The mean over ``axis`` (all axes when None): each element gets the gradient divided by
        the number of elements averaged."""
    def logsumexp(a, axis=..., keepdims=...):
        """log(sum(exp(a))) over axes, shifted by the max so large inputs do not overflow."""
    def softmax(a, axis=...):
        """exp(a) / sum(exp(a)) along one axis (``dim``, required as PyTorch recommends), shifted by
        the max for stability."""
    def log_softmax(a, axis=...):
        """a - logsumexp(a) along one axis (``dim``, required as PyTorch recommends)."""
    def var(a, axis=..., unbiased=..., keepdims=..., correction=...):
        """Variance over all axes or the given ones: sum((a - mean)^2) / (N - correction)."""
    def std(a, axis=..., unbiased=..., keepdims=..., correction=...):
        """Standard deviation over all axes or the given ones: sqrt(var)."""
    def prod(a, axis=..., keepdims=...):
        """Product of the elements over all axes or the given ones."""
    def norm(a, p=..., axis=..., keepdims=...): ...
    def cumsum(a, axis):
        """Running sums along ``axis``: y_i = a_0 + ."""
    def all(x, axis=..., keepdims=...):
        """Whether every element is non-zero, over all axes or the given ones (dim may be a tuple):
        a constant bool tensor."""
    def any(x, axis=..., keepdims=...):
        """Whether any element is non-zero, over all axes or the given ones (dim may be a tuple): a
        constant bool tensor."""
    def cumprod(a, axis):
        """Running products along ``axis``: y_i = a_0·…·a_i."""
    def logcumsumexp(a, axis):
        """Running log-sum-exp along ``axis``: y_i = log(e^a_0 + … + e^a_i), computed stably."""
    def nansum(x, axis=..., keepdims=...):
        """The sum with NaN elements counted as 0 (and given gradient 0), as torch.nansum."""
    def nanmean(x, axis=..., keepdims=...):
        """The mean of the elements that are not NaN (NaN where all are), as torch.nanmean."""
    def var_mean(x, axis=..., unbiased=..., keepdims=..., *, correction=...):
        """PyTorch's pair (variance, mean) over the same axes (see ``var``)."""
    def std_mean(x, axis=..., unbiased=..., keepdims=..., *, correction=...):
        """PyTorch's pair (standard deviation, mean) over the same axes (see ``std``)."""
    def diff(x, n=..., axis=..., prepend=..., append=...):
        """The n-th forward difference along ``axis`` (PyTorch's ``dim``), y_i = a_(i+1) − a_i
        applied n times, after joining ``prepend`` and ``append`` to a along it (tensors with a's
        number of dimensions, as torch.diff asks)."""
    def broadcast_to(a, shape):
        """Repeat a along new or size-1 axes; the engine sums the gradient back to a's shape."""
    def reshape(x, *shape):
        """x's elements in ``shape`` (a tuple or separate sizes, one of them may be -1), as
        x.reshape in PyTorch."""
    def transpose(x, *axes):
        """One rule, stated in the README:."""
    def permute(x, *axes):
        """Reorder the axes: ``permute(2, 0, 1)`` or ``permute((2, 0, 1))``."""
    def swapaxes(x, axis1, axis2):
        """Swap two axes (negative axes allowed; a 0-d tensor takes 0 and -1, as in PyTorch)."""
    def squeeze(x, axis=...):
        """Drop size-1 axes: all of them, or those named by ``axis`` (an int or a tuple)."""
    def unsqueeze(x, axis):
        """Insert a size-1 axis at ``axis`` (PyTorch's name; ``expand_dims`` is NumPy's)."""
    def expand_dims(x, axis):
        """NumPy's name for ``unsqueeze``."""
    def flatten(x, start_dim=..., end_dim=...):
        """Merge axes ``start_dim`` to ``end_dim`` into one (all of them by default: a 1-D
        tensor)."""
    def flip(x, *dims_given, dims=...):
        """Reverse the order of the elements along ``dims``: ``flip(x, 0)``, ``x.flip(0, 1)`` or
        ``flip(x, dims=(0, 1))``."""
    def roll(a, shifts, dims=...):
        """a's elements shifted cyclically by ``shifts`` along ``dims``, as torch.roll: those pushed
        off one end come back at the other."""
    def repeat(x, *sizes):
        """PyTorch's Tensor.repeat: x tiled ``sizes`` times along each axis, ``x.repeat(2, 1)`` —
        like np.tile, not np.repeat (that is repeat_interleave)."""
    def tile(x, *dims):
        """x tiled ``dims`` times along each axis, as torch.tile and np.tile: ``tile(x, (2,
        1))``."""
    def tril(a, diagonal=...):
        """The lower triangle of the last two axes, zero above ``diagonal`` (torch.tril)."""
    def triu(a, diagonal=...):
        """The upper triangle of the last two axes, zero below ``diagonal`` (torch.triu)."""
    def split(x, split_size_or_sections, axis=...):
        """x cut into pieces along ``axis``, as torch.split: pieces of ``split_size_or_sections``
        elements (the last one smaller if they do not divide the axis), or of each size in a list
        (which must add up to the axis' size)."""
    def chunk(x, chunks, axis=...):
        """x cut into ``chunks`` pieces of equal size along ``axis`` (the last one smaller), as
        torch.chunk: the size is ceil(n / chunks), so there may be fewer pieces than asked for."""
    def unbind(x, axis=...):
        """The slices of x along ``axis``, that axis removed, as torch.unbind (x[0], x[1], … for
        axis 0): a tuple, each slice its own node."""
    def lgamma(a):
        """log|Γ(a)|, with derivative digamma(a)."""
    def digamma(a):
        """ψ(a) = d/da log Γ(a), with derivative ψ⁽¹⁾(a) (trigamma)."""
    def erfinv(a):
        """The inverse of erf on (−1, 1), with derivative √π/2 · e^(y²), y = erfinv(a)."""


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
