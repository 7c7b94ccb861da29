# Written by `python -m autograd.ops.stubs`: do not edit by hand.
from typing import Any

from ..function import Function as Function
from ..tensor import Tensor as Tensor
from . import activations as activations
from . import aliases as aliases
from . import arithmetic as arithmetic
from . import conv as conv
from . import conv_transpose as conv_transpose
from . import decomp as decomp
from . import elementwise as elementwise
from . import indexing as indexing
from . import inplace as inplace
from . import linalg as linalg
from . import ordering as ordering
from . import rearrange as rearrange
from . import reduce as reduce
from . import shape as shape
from . import special as special
from .activations import Gelu as Gelu
from .activations import NormalCdf as NormalCdf
from .activations import Elu as Elu
from .activations import Softplus as Softplus
from .activations import Softsign as Softsign
from .activations import Hardtanh as Hardtanh
from .activations import Silu as Silu
from .activations import Mish as Mish
from .activations import Hardsigmoid as Hardsigmoid
from .activations import Hardswish as Hardswish
from .activations import Prelu as Prelu
from .activations import LogSigmoid as LogSigmoid
from .arithmetic import Add as Add
from .arithmetic import Sub as Sub
from .arithmetic import Mul as Mul
from .arithmetic import Div as Div
from .arithmetic import Neg as Neg
from .arithmetic import Pow as Pow
from .conv import Unfold as Unfold
from .conv import Fold as Fold
from .conv import Conv as Conv
from .conv import MaxPool as MaxPool
from .conv import AvgPool as AvgPool
from .conv import AdaptiveAvgPool as AdaptiveAvgPool
from .conv import Pad as Pad
from .decomp import Inv as Inv
from .decomp import Det as Det
from .decomp import LogAbsDet as LogAbsDet
from .decomp import Solve as Solve
from .decomp import Cholesky as Cholesky
from .decomp import _Eigh as _Eigh
from .decomp import EighValues as EighValues
from .decomp import EighVectors as EighVectors
from .decomp import _Svd as _Svd
from .decomp import SvdS as SvdS
from .decomp import SvdU as SvdU
from .decomp import SvdVh as SvdVh
from .decomp import _Qr as _Qr
from .decomp import QrQ as QrQ
from .decomp import QrR as QrR
from .elementwise import _Unary as _Unary
from .elementwise import _SavesInput as _SavesInput
from .elementwise import _SavesOutput as _SavesOutput
from .elementwise import _SavesNothing as _SavesNothing
from .elementwise import Exp as Exp
from .elementwise import Log as Log
from .elementwise import Sqrt as Sqrt
from .elementwise import Square as Square
from .elementwise import Abs as Abs
from .elementwise import Sign as Sign
from .elementwise import Sin as Sin
from .elementwise import Cos as Cos
from .elementwise import Tanh as Tanh
from .elementwise import Sigmoid as Sigmoid
from .elementwise import Relu as Relu
from .elementwise import LeakyRelu as LeakyRelu
from .elementwise import Clip as Clip
from .elementwise import _Extremum as _Extremum
from .elementwise import Maximum as Maximum
from .elementwise import Minimum as Minimum
from .elementwise import Cast as Cast
from .elementwise import Where as Where
from .elementwise import Select as Select
from .elementwise import Tan as Tan
from .elementwise import Sinh as Sinh
from .elementwise import Cosh as Cosh
from .elementwise import Asinh as Asinh
from .elementwise import Acosh as Acosh
from .elementwise import Atanh as Atanh
from .elementwise import Erf as Erf
from .elementwise import Log2 as Log2
from .elementwise import Log10 as Log10
from .elementwise import Exp2 as Exp2
from .elementwise import Log1p as Log1p
from .elementwise import Expm1 as Expm1
from .elementwise import Rsqrt as Rsqrt
from .elementwise import Reciprocal as Reciprocal
from .elementwise import Lerp as Lerp
from .elementwise import Atan2 as Atan2
from .elementwise import Asin as Asin
from .elementwise import Acos as Acos
from .elementwise import Atan as Atan
from .elementwise import Logit as Logit
from .elementwise import _Binary as _Binary
from .elementwise import Hypot as Hypot
from .elementwise import LogAddExp as LogAddExp
from .elementwise import LogAddExp2 as LogAddExp2
from .elementwise import Xlogy as Xlogy
from .elementwise import Floor as Floor
from .elementwise import Ceil as Ceil
from .elementwise import Trunc as Trunc
from .elementwise import Round as Round
from .elementwise import _Modulo as _Modulo
from .elementwise import Fmod as Fmod
from .elementwise import Remainder as Remainder
from .elementwise import Clone as Clone
from .indexing import Gather as Gather
from .indexing import ScatterAdd as ScatterAdd
from .indexing import MaskedFill as MaskedFill
from .inplace import Copy as Copy
from .inplace import IndexPut as IndexPut
from .linalg import MatMul as MatMul
from .linalg import Linear as Linear
from .linalg import BMM as BMM
from .linalg import MM as MM
from .linalg import MV as MV
from .linalg import Dot as Dot
from .linalg import Outer as Outer
from .linalg import Einsum as Einsum
from .ordering import MedianOfAll as MedianOfAll
from .reduce import _Reduction as _Reduction
from .reduce import Sum as Sum
from .reduce import Mean as Mean
from .reduce import _Extreme as _Extreme
from .reduce import Max as Max
from .reduce import Min as Min
from .reduce import Amax as Amax
from .reduce import Amin as Amin
from .reduce import LogSumExp as LogSumExp
from .reduce import Softmax as Softmax
from .reduce import LogSoftmax as LogSoftmax
from .reduce import _Spread as _Spread
from .reduce import Var as Var
from .reduce import Std as Std
from .reduce import Prod as Prod
from .reduce import Norm as Norm
from .reduce import Cumsum as Cumsum
from .reduce import _Running as _Running
from .reduce import Cumprod as Cumprod
from .reduce import LogCumSumExp as LogCumSumExp
from .shape import Reshape as Reshape
from .shape import Transpose as Transpose
from .shape import BroadcastTo as BroadcastTo
from .shape import Index as Index
from .shape import IndexAdd as IndexAdd
from .shape import Concatenate as Concatenate
from .shape import Stack as Stack
from .shape import Flip as Flip
from .shape import Roll as Roll
from .shape import Tile as Tile
from .shape import _Triangle as _Triangle
from .shape import Tril as Tril
from .shape import Triu as Triu
from .special import Lgamma as Lgamma
from .special import Digamma as Digamma
from .special import Polygamma as Polygamma
from .special import Erfinv as Erfinv
from .exposed import public_function as public_function
from .linalg import linear as linear
from .shape import shape_arg as shape_arg

FAMILIES: tuple[Any, ...]
CLASSES: dict[str, type[Function]]
PUBLIC: dict[str, Any]
METHODS: tuple[str, ...]
__all__ = ['abs', 'acos', 'acosh', 'adaptive_avg_pool2d', 'add', 'addmm', 'all', 'amax', 'amin', 'any', 'argmax', 'argmin', 'argsort', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'avg_pool2d', 'baddbmm', 'bmm', 'broadcast_to', 'cat', 'cdist', 'ceil', 'celu', 'chunk', 'clamp', 'clip', 'clone', 'column_stack', 'concatenate', 'conv1d', 'conv2d', 'conv_transpose1d', 'conv_transpose2d', 'cos', 'cosh', 'cross', 'cumprod', 'cumsum', 'diag', 'diag_embed', 'diagonal', 'diff', 'digamma', 'div', 'dot', 'dstack', 'einsum', 'elu', 'eq', 'erf', 'erfinv', 'exp', 'exp2', 'expand', 'expand_as', 'expand_dims', 'expm1', 'flatten', 'flip', 'floor', 'fmod', 'fold', 'gather', 'ge', 'gelu', 'gt', 'hardsigmoid', 'hardswish', 'hardtanh', 'hstack', 'hypot', 'index_add', 'index_select', 'isfinite', 'isinf', 'isnan', 'kron', 'le', 'leaky_relu', 'lerp', 'lgamma', 'log', 'log10', 'log1p', 'log2', 'log_softmax', 'logaddexp', 'logaddexp2', 'logcumsumexp', 'logical_not', 'logit', 'logsigmoid', 'logsumexp', 'lt', 'masked_fill', 'masked_select', 'matmul', 'max', 'max_pool2d', 'maximum', 'mean', 'median', 'meshgrid', 'min', 'minimum', 'mish', 'mm', 'moveaxis', 'movedim', 'mul', 'mv', 'nanmean', 'nansum', 'narrow', 'ne', 'neg', 'norm', 'one_hot', 'outer', 'pad', 'permute', 'polygamma', 'pow', 'prelu', 'prod', 'quantile', 'reciprocal', 'relu', 'relu6', 'remainder', 'repeat', 'repeat_interleave', 'reshape', 'roll', 'round', 'rsqrt', 'scatter', 'scatter_add', 'selu', 'sigmoid', 'sign', 'silu', 'sin', 'sinh', 'softmax', 'softplus', 'softsign', 'sort', 'split', 'sqrt', 'square', 'squeeze', 'stack', 'std', 'std_mean', 'sub', 'sum', 'swapaxes', 't', 'take_along_dim', 'tan', 'tanh', 'tensordot', 'tile', 'topk', 'transpose', 'tril', 'triu', 'trunc', 'unbind', 'unflatten', 'unfold', 'unsqueeze', 'var', 'var_mean', 'view', 'view_as', 'vstack', 'where', 'xlogy']


def gelu(a, approximate=...): ...

def elu(x, alpha=...):
    """x where x > 0, else alpha·(e^x − 1)."""

def celu(x, alpha=...):
    """x where x > 0, else alpha·(e^(x/alpha) − 1): an elu with slope 1 at 0 for every alpha."""

def selu(x):
    """scale·elu(x, alpha) with PyTorch's fixed alpha ≈ 1.6733 and scale ≈ 1.0507."""

def softplus(a, beta=..., threshold=...):
    """log(1 + e^(beta·x)) / beta, and x itself where beta·x > threshold (PyTorch's rule)."""

def softsign(a):
    """x / (1 + |x|), with derivative 1 / (1 + |x|)²."""

def hardtanh(x, min_val=..., max_val=...):
    """x limited to [min_val, max_val] (gradient 0 at the ends, as in PyTorch)."""

def relu6(x):
    """min(max(x, 0), 6): hardtanh(x, 0, 6), as in PyTorch (gradient 0 at 0 and at 6)."""

def silu(a):
    """x·sigmoid(x) (also called swish), with derivative σ(x)(1 + x·σ(−x)): σ(−x) rather than 1 −
    σ(x), which is 0 once σ(x) has rounded to 1, so the second derivative keeps its tail."""

def mish(a):
    """x·tanh(softplus(x)), with derivative tanh(sp) + x·σ(x)·(1 − tanh²(sp))."""

def hardsigmoid(a):
    """relu6(x + 3) / 6: slope 1/6 strictly inside (−3, 3), 0 outside, at the ends and for NaN
    (PyTorch's rule)."""

def hardswish(a):
    """x·relu6(x + 3) / 6: slope 0 up to −3, x/3 + 1/2 inside (−3, 3), 1 from 3 on and for NaN
    (PyTorch's ends), so the second derivative is 1/3 inside and 0 elsewhere."""

def prelu(a, weight):
    """x where x > 0, else weight·x, with a learned weight: one number, or one per channel (axis 1,
    as in PyTorch)."""

def logsigmoid(a):
    """log σ(x) = min(x, 0) − log(1 + e^−|x|), stable for any x, with derivative σ(−x): one op, as
    PyTorch's, so an infinite upstream gradient meets one finite slope (never ∞ − ∞)."""

def cat(tensors, dim=..., *, axis=...):
    """Join tensors along an existing axis: PyTorch's name for ``concatenate``."""

def clamp(x, min=..., max=...):
    """Limit x to [min, max], PyTorch's name for ``clip``."""

def t(x):
    """A matrix transposed; a 0-d or 1-d tensor comes back unchanged (PyTorch's ``t()``)."""

def expand(x, *sizes):
    """x repeated along size-1 axes (and new leading axes) to ``sizes``; -1 keeps an axis's size:
    ``x.expand(3, -1)``."""

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
    """``a ** b``, elementwise: d/da = b a^(b-1), d/db = a^b ln a, with PyTorch's rules where these
    are 0 times infinity: d/da is 0 where b = 0 (so a second derivative of x**1 at 0 is 0), and d/db
    is 0 where a = 0 and b ≥ 0."""

def unfold(input, kernel_size, dilation=..., padding=..., stride=...):
    """Extract sliding blocks as columns (im2col), PyTorch's ``F.unfold``: input (N, C, H, W) or (C,
    H, W) gives (N, C * kH * kW, L), L the number of window positions; column l holds the window at
    position l, channel by channel, each in row-major order."""

def fold(input, output_size, kernel_size, dilation=..., padding=..., stride=...):
    """Add sliding blocks back onto an image (col2im), PyTorch's ``F.fold``, the transpose of
    ``unfold``: (N, C * kH * kW, L) gives (N, C, *output_size), summing overlapping windows."""

def conv1d(input, weight, bias=..., stride=..., padding=..., dilation=..., groups=...):
    """1-D convolution (cross-correlation, as in PyTorch) of input (N, C, L) or (C, L) with weight
    (out_channels, C / groups, k), plus bias (out_channels,)."""

def conv2d(input, weight, bias=..., stride=..., padding=..., dilation=..., groups=...):
    """2-D convolution (cross-correlation, as in PyTorch) of input (N, C, H, W) or (C, H, W) with
    weight (out_channels, C / groups, kH, kW), plus bias (out_channels,)."""

def max_pool2d(input, kernel_size, stride=..., padding=..., dilation=..., ceil_mode=..., return_indices=...):
    """The largest element of each kH x kW window of input (N, C, H, W) or (C, H, W), as PyTorch's
    ``F.max_pool2d`` (stride defaults to kernel_size); with ``return_indices=True`` also where each
    maximum sits in its input plane (flat index h * W + w)."""

def avg_pool2d(input, kernel_size, stride=..., padding=..., ceil_mode=..., count_include_pad=..., divisor_override=...):
    """The mean of each kH x kW window of input (N, C, H, W) or (C, H, W), as PyTorch's
    ``F.avg_pool2d`` (stride defaults to kernel_size; zero padding counts towards the mean unless
    ``count_include_pad=False``)."""

def adaptive_avg_pool2d(input, output_size):
    """Average-pool input (N, C, H, W) or (C, H, W) to exactly ``output_size`` (an int, a pair, None
    keeping that axis), as PyTorch's ``F.adaptive_avg_pool2d``: the windows split each axis into
    near-equal, possibly overlapping parts."""

def pad(input, pad, mode=..., value=...):
    """Pad the last axes (PyTorch's ``F.pad``): ``pad=(left, right)`` pads the last axis, ``(left,
    right, top, bottom)`` the last two, and so on, last axis first; negative amounts crop."""

def conv_transpose1d(input, weight, bias=..., stride=..., padding=..., output_padding=..., groups=..., dilation=...):
    """Transposed 1-D convolution of input (N, C_in, L) or (C_in, L) with weight (C_in, C_out /
    groups, k): output length (L - 1)·stride - 2·padding + dilation·(k - 1) + output_padding + 1."""

def conv_transpose2d(input, weight, bias=..., stride=..., padding=..., output_padding=..., groups=..., dilation=...):
    """Transposed 2-D convolution of input (N, C_in, H, W) or (C_in, H, W) with weight (C_in, C_out
    / groups, kH, kW): a stride-2 one doubles the size a stride-2 conv2d halved."""

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
    """1 / (1 + e^-a), accurate in both tails (see ``sigmoid_array``), with derivative σ(a)·σ(−a) =
    e^−|a| / (1 + e^−|a|)²: written so rather than σ(1 − σ), which is 0 once σ has rounded to 1, so
    that the derivative, and those of silu, softplus, mish and gelu built on it, keep their
    tails."""

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

def where(condition, x=..., y=...):
    """x where condition is true, else y (all three broadcast together)."""

def tan(a):
    """tan(a), with derivative 1 + tan²(a)."""

def sinh(a):
    """sinh(a), with derivative cosh(a)."""

def cosh(a):
    """cosh(a), with derivative sinh(a)."""

def asinh(a):
    """asinh(a), with derivative 1 / √(a² + 1)."""

def acosh(a):
    """acosh(a) for a ≥ 1, with derivative 1/√(a − 1) · 1/√(a + 1): a − 1 is exact near 1, where a²
    − 1 would lose digits, and the second derivative at 1 is −inf, not inf − inf."""

def atanh(a):
    """atanh(a) for |a| < 1, with derivative 1 / (1 − a²) = ½(1/(1 − a) + 1/(1 + a)): two positive
    terms with exact denominators near ±1, where 1 − a² would lose digits, and the second derivative
    at ±1 is ±inf, not inf − inf."""

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
    """e^a − 1, accurate for tiny a, with derivative e^a: computed from a, since the output plus 1
    loses the digits of e^a for a below 0 (all of them once the output rounds to −1)."""

def rsqrt(a):
    """1 / √a, with derivative −½ a^(−3/2), i.e."""

def reciprocal(a):
    """1 / a, with derivative −1 / a², i.e."""

def lerp(a, end, weight):
    """a + weight·(end − a) (see ``Lerp``), in PyTorch's result dtype (see ``promoted``)."""

def atan2(a, other):
    """The angle of the point (other, a): atan2(a, other), with partial derivatives other / (a² +
    other²) and −a / (a² + other²); both 0 at the origin (PyTorch's rule)."""

def asin(a):
    """arcsin(a) on [−1, 1], with derivative 1/√(1 − a²) (see ``_one_minus_square``)."""

def acos(a):
    """arccos(a) on [−1, 1], with derivative −1/√(1 − a²) (see ``_one_minus_square``)."""

def atan(a):
    """arctan(a), with derivative 1 / (1 + a²)."""

def logit(a):
    """log(a / (1 − a)), the inverse of sigmoid, with derivative 1/a + 1/(1 − a) = 1/(a (1 − a)) on
    [0, 1] (a sum, so the second derivative at 0 and 1 is ∓inf, not inf − inf) and NaN outside it,
    as in PyTorch."""

def hypot(a, b):
    """√(a² + b²) without overflow, with partial derivatives a / y and b / y (NaN at the origin,
    0/0, as PyTorch gives)."""

def logaddexp(a, b):
    """log(e^a + e^b), computed stably, with partial derivatives σ(a − b) and σ(b − a)."""

def logaddexp2(a, b):
    """log₂(2^a + 2^b), computed stably, with partial derivatives 2^a / (2^a + 2^b) and 2^b / (2^a +
    2^b) (``_share_of_two``)."""

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
    halves to even, as PyTorch computes it in a's dtype: rint(a·10^d) / 10^d, or rint(a / 10^-d) ·
    10^-d for negative d (float16 through float32)."""

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
    """``x.scatter_add(1, index, src)``: x with out[i][index[i][j]] += src[i][j] (for axis 1), as
    torch.scatter_add."""

def masked_fill(x, mask, value):
    """x with ``value`` wherever the boolean ``mask`` is True, as torch.masked_fill: e.g."""

def one_hot(tensor, num_classes=...):
    """Class indices as rows of zeros with a 1 at each index, as torch.nn.functional.one_hot: int64,
    a constant (cast it with .double() to multiply)."""

def matmul(a, b):
    """a @ b."""

def bmm(a, b):
    """Batched matrix product of two 3-D tensors, (b, n, m) @ (b, m, p) -> (b, n, p), as torch.bmm:
    no broadcasting, so the batch sizes must be equal."""

def mm(a, b):
    """The product of two matrices, (n, m) @ (m, p) -> (n, p), as torch.mm: no vectors, no batches,
    no broadcasting."""

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

def einsum(equation, *operands): ...

def argmax(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
    """The index of the largest element (of the flattened tensor, or along ``dim``); the first one
    on ties, and a NaN counts as largest."""

def argmin(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
    """The index of the smallest element (of the flattened tensor, or along ``dim``); the first one
    on ties, and a NaN wins, as in PyTorch."""

def argsort(x, dim=..., descending=..., stable=...):
    """The indices that sort x along ``dim`` (ascending unless ``descending``), NaN last when
    ascending and first when descending, as in PyTorch."""

def topk(x, k, dim=..., largest=..., sorted=...):
    """The ``k`` largest elements along ``dim`` (smallest with ``largest=False``) and their indices,
    as ``TopK(values, indices)``."""

def sort(x, dim=..., descending=..., stable=..., *, axis=...):
    """The elements sorted along ``dim`` (ascending unless ``descending``) and where each came from,
    as ``Sort(values, indices)``, PyTorch's pair."""

def max(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
    """The largest element, in PyTorch's three forms: ``x.max()`` over every element (tied elements
    share the gradient); ``x.max(dim)`` along one dim, PyTorch's pair ``Max(values, indices)`` (the
    first of tied elements is chosen and gets the gradient; a NaN wins); ``max(x, other)``, the
    elementwise maximum."""

def min(x, dim=..., keepdim=..., *, axis=..., keepdims=...):
    """The smallest element, in PyTorch's three forms: ``x.min()`` over every element (tied elements
    share the gradient); ``x.min(dim)`` along one dim, PyTorch's pair ``Min(values, indices)`` (the
    first of tied elements is chosen and gets the gradient; a NaN wins); ``min(x, other)``, the
    elementwise minimum."""

def amax(x, dim=..., keepdim=...):
    """The largest elements over ``dim`` (one or several axes; all for ``()``), tied elements
    sharing the gradient equally, as torch.amax."""

def amin(x, dim=..., keepdim=...):
    """The smallest elements over ``dim`` (one or several axes; all for ``()``), tied elements
    sharing the gradient equally, as torch.amin."""

def median(x, dim=..., keepdim=...):
    """The lower median (the smaller middle element for an even count; NaN if any element is NaN),
    as torch.median: ``x.median()`` over every element, or along ``dim`` PyTorch's pair
    ``Median(values, indices)``."""

def quantile(x, q, dim=..., keepdim=..., *, interpolation=...):
    """The q-th quantiles along ``dim`` (of all elements when None), PyTorch's linear interpolation:
    sorted values v, position p = q·(n − 1), result lerp(v[⌊p⌋], v[⌈p⌉], p − ⌊p⌋)."""

def index_select(x, dim, index):
    """The slices of x at ``index`` (0-D or 1-D integers) along ``dim``; a repeated index gets the
    sum of its slices' gradients."""

def masked_select(x, mask):
    """The elements of x where the boolean ``mask`` (broadcast with x) is True, as a 1-D tensor in
    row-major order."""

def take_along_dim(x, indices, dim=...):
    """Elements of x picked by ``indices`` along ``dim`` (the two broadcast on the other axes), as
    ``np.take_along_axis``; without ``dim`` both are flattened first."""

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

def hstack(tensors):
    """Join along axis 1, or axis 0 when every tensor is 1-D (or 0-D)."""

def vstack(tensors):
    """Join as rows: 1-D tensors become rows (1, n), then join along axis 0."""

def dstack(tensors):
    """Join along the third axis, after making each at least 3-D."""

def column_stack(tensors):
    """Join as columns: 0-D and 1-D tensors become columns (n, 1), then join along axis 1."""

def diag_embed(x, offset=..., dim1=..., dim2=...):
    """Square matrices whose ``offset`` diagonal is x's last axis, the two new axes at ``dim1`` and
    ``dim2``."""

def diagonal(x, offset=..., dim1=..., dim2=...):
    """The ``offset`` diagonal of the matrices on axes ``dim1`` and ``dim2``, as a last axis."""

def diag(x, diagonal=...):
    """A 1-D x as the ``diagonal`` of a square matrix; a 2-D x's ``diagonal`` as a 1-D tensor."""

def tensordot(a, b, dims=...):
    """The sum of products over the last ``dims`` axes of a and the first ``dims`` of b, or over the
    axes listed in ``dims = ([a's], [b's])``."""

def kron(a, b):
    """The Kronecker product: every element of a times the whole of b, in blocks."""

def cross(a, b, dim=...):
    """The cross product of 3-vectors along ``dim`` (a and b broadcast); without ``dim``, the first
    axis of size 3, as torch.cross."""

def cdist(x1, x2, p=...):
    """The ``p``-norm distance between every row of x1 (..., P, M) and every row of x2 (..., R, M):
    a (..., P, R) tensor (gradient 0 where two rows are equal)."""

def meshgrid(*tensors, indexing=...):
    """Coordinate grids: the k-th output repeats the k-th 1-D tensor along every other axis."""

def sum(a, axis=..., keepdims=..., dtype=...):
    """The sum over axes; ``dtype=`` sums in that dtype (PyTorch's ``x.sum(dtype=...)``), and the
    gradient comes back in the input's."""

def mean(a, axis=..., keepdims=...):
    """The mean over ``axis`` (all axes when None): each element gets the gradient divided by the
    number of elements averaged."""

def logsumexp(a, axis=..., keepdims=...):
    """log(sum(exp(a))) over axes, shifted by the max so large inputs do not overflow."""

def softmax(a, axis=...):
    """exp(a) / sum(exp(a)) along one axis (``dim``, required as PyTorch recommends), shifted by the
    max for stability."""

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
    """Whether every element is non-zero, over all axes or the given ones (dim may be a tuple): a
    constant bool tensor."""

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
    """The n-th forward difference along ``axis`` (PyTorch's ``dim``), y_i = a_(i+1) − a_i applied n
    times, after joining ``prepend`` and ``append`` to a along it (tensors with a's number of
    dimensions, as torch.diff asks)."""

def broadcast_to(a, shape):
    """Repeat a along new or size-1 axes; the engine sums the gradient back to a's shape."""

def reshape(x, *shape):
    """x's elements in ``shape`` (a tuple or separate sizes, one of them may be -1), as x.reshape in
    PyTorch."""

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
    """Merge axes ``start_dim`` to ``end_dim`` into one (all of them by default: a 1-D tensor)."""

def concatenate(tensors, axis=...):
    """``tensors`` joined along ``axis`` (PyTorch's torch.cat)."""

def stack(tensors, axis=...):
    """``tensors`` of one shape joined along a new ``axis``, as torch.stack."""

def flip(x, *dims_given, dims=...):
    """Reverse the order of the elements along ``dims``: ``flip(x, 0)``, ``x.flip(0, 1)`` or
    ``flip(x, dims=(0, 1))``."""

def roll(a, shifts, dims=...):
    """a's elements shifted cyclically by ``shifts`` along ``dims``, as torch.roll: those pushed off
    one end come back at the other."""

def repeat(x, *sizes):
    """PyTorch's Tensor.repeat: x tiled ``sizes`` times along each axis, ``x.repeat(2, 1)`` — like
    np.tile, not np.repeat (that is repeat_interleave)."""

def tile(x, *dims):
    """x tiled ``dims`` times along each axis, as torch.tile and np.tile: ``tile(x, (2, 1))``."""

def tril(a, diagonal=...):
    """The lower triangle of the last two axes, zero above ``diagonal`` (torch.tril)."""

def triu(a, diagonal=...):
    """The upper triangle of the last two axes, zero below ``diagonal`` (torch.triu)."""

def split(x, split_size_or_sections, axis=...):
    """x cut into pieces along ``axis``, as torch.split: pieces of ``split_size_or_sections``
    elements (the last one smaller if they do not divide the axis), or of each size in a list (which
    must add up to the axis' size)."""

def chunk(x, chunks, axis=...):
    """x cut into ``chunks`` pieces of equal size along ``axis`` (the last one smaller), as
    torch.chunk: the size is ceil(n / chunks), so there may be fewer pieces than asked for."""

def unbind(x, axis=...):
    """The slices of x along ``axis``, that axis removed, as torch.unbind (x[0], x[1], … for axis
    0): a tuple, each slice its own node."""

def lgamma(a):
    """log|Γ(a)|, with derivative digamma(a)."""

def digamma(a):
    """ψ(a) = d/da log Γ(a), with derivative ψ⁽¹⁾(a) (trigamma)."""

def polygamma(n, x):
    """ψ⁽ⁿ⁾(x), PyTorch's ``torch.polygamma(n, x)``: digamma for n = 0, its n-th derivative for n ≥
    1."""

def erfinv(a):
    """The inverse of erf on (−1, 1), with derivative √π/2 · e^(y²), y = erfinv(a)."""
