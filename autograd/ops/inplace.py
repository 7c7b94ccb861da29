"""In-place changes (``x.add_(y)``, ``x[idx] = v``, ``x.exp_()``, …), as PyTorch makes them.

Every in-place method of Tensor comes here. Where nothing is recorded (under ``no_grad()``, or
when no operand requires grad) the new values are written into the tensor's own array and its
version goes up by one. Where something is recorded, the new value is computed by the ordinary
op (so its derivative is the op's own), written into the tensor's array, and the tensor takes
that op as its ``grad_fn`` (PyTorch's history rebase): earlier uses of the tensor keep the
history of its old value (see ``engine``), and a backward that needs a value changed since it
was saved raises PyTorch's error. A change through a view is recorded on its base, as
PyTorch's CopySlices does. Refused, as in PyTorch: a leaf that requires grad, and a view of one.
"""

import weakref

import numpy as np

from ..forward_ad import _level as _dual_level
from ..function import _saves
from ..grad_mode import _grad_enabled
from ..tensor import Tensor, _raw
from . import array_or_tensor
from .array_or_tensor import Op
from .indexing import _index_array, _places, same_dtype_as_self
from .shape import Index


class Copy(Op):
    """``x.copy_(src)`` as a new tensor: src broadcast to x's shape, in x's dtype. The old
    values are overwritten, so they get no gradient; src's is the gradient, summed back over the
    broadcast axes and cast to src's dtype."""

    __slots__ = ("dtype",)

    def forward(self, a, src):
        self.dtype = src.dtype
        return np.broadcast_to(src, a.shape).astype(a.dtype)

    def backward(self, grad):
        if grad.dtype == self.dtype:
            return None, grad
        return None, (grad.to(self.dtype) if isinstance(grad, Tensor) else
                      grad.astype(self.dtype))

    def hint(self, inputs):
        return (f"copy_ writes src into x, so src's shape {inputs[1].shape} must broadcast to "
                f"x's shape {inputs[0].shape}")

    def jvp(self, tangent_a, tangent_src):
        return np.array(tangent_src)  # the engine broadcasts it to the output's shape


class IndexPut(Op):
    """``x[key] = value`` as a new tensor: x with value written at key. The overwritten places
    get no gradient from x; value gets the gradient of the places it went to."""

    __slots__ = ("key", "kept", "value_shape")

    def forward(self, a, value, key):
        self.key = key
        out = a.copy()
        self.value_shape = value.shape
        out[key] = _without_leading_ones(value, out[key].ndim)
        self.kept = np.ones(a.shape, dtype=a.dtype)
        self.kept[key] = 0
        return out

    def backward(self, grad):
        need_a, need_value = self.needs_input_grad
        grad_value = None
        if need_value:
            grad_value = grad[self.key]
            if grad_value.ndim < len(self.value_shape):  # PyTorch's leading 1s, given back
                grad_value = grad_value.reshape((1,) * (len(self.value_shape) - grad_value.ndim)
                                                + grad_value.shape)
        return (grad * self.kept if need_a else None, grad_value)

    def hint(self, inputs, key):
        return (f"x[key] = value: value of shape {inputs[1].shape} must broadcast to the shape "
                f"of x[key] (x has shape {inputs[0].shape})")

    def jvp(self, tangent_a, tangent_value):
        out = np.array(tangent_a, copy=True)
        out[self.key] = _without_leading_ones(np.asarray(tangent_value), out[self.key].ndim)
        return out


def _without_leading_ones(value, ndim):
    """``value`` with leading axes of length 1 dropped down to ``ndim`` axes, as PyTorch's
    ``x[key] = value`` accepts (NumPy refuses a (1,) value for one element)."""
    extra = value.ndim - ndim
    if extra > 0 and all(n == 1 for n in value.shape[:extra]):
        return value.reshape(value.shape[extra:])
    return value


def change(tensor, name, make, operands=(), write=None):
    """Change ``tensor`` in place to ``make(tensor)`` (a new Tensor of its shape, computed by
    ordinary ops) and return it; ``write(array)``, if given, does the same directly on the array
    where nothing is recorded (a ufunc with ``out=``: no temporary). ``name`` names the change
    in errors (``"add_"``, ``"x[...] = value"``)."""
    recording = _grad_enabled.get() and (
        tensor.requires_grad or any(getattr(x, "requires_grad", False) for x in operands))
    if not recording:
        if write is not None and _dual_level.get() is None:
            _guarded(tensor, name, lambda: write(tensor.data))
        else:  # forward mode too: the op pushes the tangent, which the tensor then carries
            new = make(tensor)
            _store(tensor, name, new.data)
            tensor._tangent = new._tangent
        tensor._bump_version()
        return tensor
    _refuse_leaf(tensor, name)
    if tensor._base is not None:
        return _change_view(tensor, name, make)
    old, new = _new_value(tensor, name, make)
    _rebase(tensor, old, new, name)
    return tensor


def _new_value(tensor, name, make):
    """``(old, new)``: a copy of ``tensor``'s values with its history (a copy, so that whatever
    ``make`` saves of them survives the change), and ``make(old)`` checked to fit ``tensor``."""
    old = Tensor._make(tensor.data.copy(), tensor.requires_grad, tensor.grad_fn)
    new = make(old)
    if new.shape != tensor.shape:
        raise _shape_error(tensor, name, new.shape)
    if new.dtype != tensor.dtype:
        if not np.can_cast(new.dtype, tensor.dtype, casting="same_kind"):
            raise _dtype_error(tensor, name, f"they have dtype {new.dtype}")
        new = new.to(tensor.dtype)
    return old, new


def _rebase(tensor, old, new, name):
    """Write ``new``'s values into ``tensor``'s array and give ``tensor`` new's history; the
    Function that made the old values now shows ``old`` as its result."""
    fn = new.grad_fn
    array = tensor.data
    _store(tensor, name, new.data)
    if fn._saved and _saves(fn, new.data):  # the op saved its result: that is tensor's array now
        fn._set_saved_values([array if v is new.data else v for v in fn._saved_values()])
    fn._output_id = id(array)
    previous = tensor.grad_fn
    if previous is not None:
        previous._output = weakref.ref(old)  # the old value's Tensor, for drawings and hooks
    _take_history(tensor, new, tensor._bump_version())


def _take_history(tensor, new, version):
    """``tensor``, now at ``version``, holds ``new``'s values: it takes new's ``grad_fn`` (and
    tangent). Its earlier uses keep the previous one (``_history``, see
    engine._grad_fn_when_used), as do its earlier hooks; ``retain_grad()`` and later hooks follow
    the new value, as in PyTorch."""
    fn = new.grad_fn
    tensor._history = [*(tensor._history or ()), (version, tensor.grad_fn)]
    tensor.grad_fn = fn
    tensor.requires_grad = True
    tensor._tangent = new._tangent
    fn._sv = (tensor._vc, *fn._recorded_versions()[1:-1], version)
    if tensor._retains_grad or tensor._hooks is not None:
        tensor._hooks = None
        tensor._link_to_function()


def _change_view(view, name, make):
    """In place on a view of another tensor, recorded as PyTorch's CopySlices does: the base
    takes ``base[places] = make(view)`` (IndexPut) as its change, and the view's history
    becomes ``base[places]``, where ``places`` are the base's elements the view's array covers."""
    base = view._base
    places = _places_in(view, base, name)
    _, new = _new_value(view, name, make)
    change(base, name, lambda old_base: IndexPut.apply(old_base, new, key=places), (new,))
    picked = Index.apply(base, key=places)
    picked.grad_fn._output_id = id(view.data)
    view._view_version = base._version
    _take_history(view, picked, base._version)
    return view


def _places_in(view, base, name):
    """The index (a tuple of integer arrays of the view's shape) of the elements of ``base``
    that ``view``'s array shares memory with, found from the arrays' addresses and strides."""
    whole, part = base.data, view.data
    item = whole.itemsize
    low, high = np.lib.array_utils.byte_bounds(whole)
    part_low, part_high = np.lib.array_utils.byte_bounds(part)
    unmappable = RuntimeError(
        f"{name}: this tensor is a view of another tensor that this engine cannot map element by "
        "element, so the change cannot be recorded; change a copy (v = v.clone()) or write into "
        "the base tensor (base[idx] = values)")
    if (part.dtype != whole.dtype or any(s % item for s in (*part.strides, *whole.strides))
            or 0 in part.strides or part_low < low or part_high > high):
        raise unmappable
    memory = np.full((high - low) // item, -1, dtype=np.intp)

    def laid_over(array):  # ``memory`` seen with ``array``'s layout
        start = (array.__array_interface__["data"][0] - low) // item
        return np.lib.stride_tricks.as_strided(
            memory[start:], array.shape, [s // item * memory.itemsize for s in array.strides])

    laid_over(whole)[...] = np.arange(whole.size).reshape(whole.shape)
    flat = laid_over(part).copy()
    if (flat < 0).any():  # memory between the base's elements
        raise unmappable
    return np.unravel_index(flat, whole.shape)


def _refuse_leaf(tensor, name):
    """PyTorch's refusals: a leaf that requires grad, and a view of one."""
    if tensor.grad_fn is None and tensor.requires_grad:
        raise RuntimeError(
            f"{name}: a leaf Variable that requires grad is being used in an in-place operation. "
            "Its gradient would describe values it no longer holds: for an update step, wrap it "
            "in `with autograd.no_grad():`; to compute a new value, write x = x.add(y) (not "
            "x.add_(y)) or x = x + y")
    base = tensor._base
    if base is not None and base.grad_fn is None and base.requires_grad:
        raise RuntimeError(
            f"{name}: a view of a leaf Variable that requires grad is being used in an in-place "
            "operation. Change the leaf under `with autograd.no_grad():`, or compute a new "
            "tensor (v = v.add(y)) instead")


def _store(tensor, name, values):
    """Copy ``values`` into ``tensor``'s array, in its dtype (PyTorch's same-kind rule)."""
    if np.shape(values) != tensor.shape:
        raise _shape_error(tensor, name, np.shape(values))
    _guarded(tensor, name, lambda: np.copyto(tensor.data, values, casting="same_kind"))


def _guarded(tensor, name, action):
    """Run ``action`` (a write into ``tensor``'s array), turning NumPy's errors into advice."""
    try:
        action()
    except TypeError as error:
        raise _dtype_error(tensor, name, f"NumPy: {error}") from None
    except ValueError as error:
        if "read-only" in str(error):
            raise ValueError(
                f"{name}: this tensor shares its memory with a read-only array (a broadcast or "
                "expanded view, or a freed stand-in), so it cannot change in place; compute a "
                "new tensor (x = x + y), or take a copy first with x = x.clone()") from None
        if "broadcast" in str(error):
            raise _shape_error(tensor, name, None) from None
        raise


def _dtype_error(tensor, name, detail):
    return TypeError(
        f"{name}: the new values cannot be stored in this tensor's dtype {tensor.dtype} "
        f"({detail}; PyTorch refuses it too); compute a new tensor instead (x = x + y), or cast "
        "the other operand first")


def _shape_error(tensor, name, shape):
    got = "" if shape is None else f" has shape {shape}, which"
    return ValueError(
        f"{name}: the result{got} does not fit this tensor's shape {tensor.shape}, and an "
        "in-place change keeps the tensor's shape (PyTorch's rule); compute a new tensor (x = "
        "x + y) for the broadcast shape")


def relu_(x):
    """``ag.relu_(x)``, PyTorch's ``torch.relu_``: ``x.relu_()``, x itself changed in place."""
    return x.relu_()


def set_item(tensor, key, value):
    """``tensor[key] = value``: recorded as IndexPut, so value (if it requires grad) gets the
    gradient of the places it filled."""
    raw = _raw(value)

    def write(array):
        array[key] = _without_leading_ones(np.asarray(raw), array[key].ndim)

    return change(tensor, "x[...] = value", lambda old: IndexPut.apply(old, value, key=key),
                  (value,), write)


def random_fill(tensor, name, draw):
    """uniform_ and normal_: ``draw(rng)`` from the engine's generator (``manual_seed``) as new
    values; recorded like copy_ of a constant (no gradient to the old values)."""
    from ..creation import _rng

    values = np.asarray(draw(_rng()), dtype=tensor.dtype)
    return change(tensor, name, lambda old: Copy.apply(old, values), (),
                  lambda array: np.copyto(array, values))


def index_add(tensor, dim, index, source, alpha):
    """``tensor.index_add_(dim, index, source, alpha)``: source's slices added at ``index``
    along ``dim`` (IndexAdd, which adds repeats up), recorded as an addition."""
    same_dtype_as_self("index_add_", tensor, source)
    index = _index_array(index, "index_add_")
    if index.ndim > 1:
        raise IndexError(f"index_add_: the index must be a vector (0-d or 1-d), got shape "
                         f"{index.shape}")
    key = (slice(None),) * _axis(dim, tensor.ndim, "index_add_") + (index.reshape(-1),)
    scaled = source if alpha == 1 else source * alpha
    return change(tensor, "index_add_",
                  lambda old: old + array_or_tensor.index_add(scaled, key, tensor.shape),
                  (scaled,))


def scatter(tensor, dim, index, src, reduce):
    """``tensor.scatter_(dim, index, src, reduce=None)``: src's elements (or the number src)
    written, added or multiplied at the places ``index`` names along ``dim``."""
    if reduce not in (None, "add", "multiply"):
        raise ValueError(f"scatter_: reduce must be None, 'add' or 'multiply', got {reduce!r}")
    same_dtype_as_self("scatter_", tensor, src)
    key = _places(tensor.shape, dim, index, "scatter_")
    index = _index_array(index, "scatter_")
    used = tuple(slice(0, n) for n in index.shape)
    values = src[used] if isinstance(src, (Tensor, np.ndarray)) else src
    if reduce == "multiply":
        if _grad_enabled.get() and (tensor.requires_grad or getattr(src, "requires_grad", False)):
            raise RuntimeError("scatter_ with reduce='multiply' is not recorded for backward "
                               "(PyTorch deprecates it); call it under no_grad(), or build the "
                               "factors with scatter_ into ones and multiply: x = x * factors")
        return change(tensor, "scatter_", None, (), lambda array: np.multiply.at(
            array, key, _raw(values)))
    if reduce == "add":
        return change(tensor, "scatter_", lambda old: old + array_or_tensor.index_add(
            values if isinstance(values, Tensor) else np.broadcast_to(
                np.asarray(values, dtype=tensor.dtype), index.shape), key, tensor.shape),
            (values,))
    return change(tensor, "scatter_", lambda old: IndexPut.apply(old, values, key=key),
                  (values,))


def _axis(dim, ndim, name):
    try:
        return int(np.lib.array_utils.normalize_axis_index(dim, ndim))
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(f"{name}: dim {dim} is out of range for a tensor of "
                                      f"{ndim} dimensions") from None
