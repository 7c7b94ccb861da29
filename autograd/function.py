"""Function: one differentiable operation, with its forward and its local derivative side by side.

``forward`` takes NumPy arrays and returns one; ``backward`` takes the gradient of the output
and returns one gradient per input (None where there is none). Call ``Op()(x, y)`` or
``Op.apply(x, y)``; keyword arguments are non-differentiable attributes passed to ``forward``.

The engine reduces any gradient that has a broadcast shape back to its input's shape, so op
authors never unbroadcast by hand.

A recorded Function holds, as in PyTorch, what its backward needs (the values ``forward`` saved,
the Functions that made its inputs, the leaves whose ``.grad`` it feeds) and, for drawings, its
small inputs; a large intermediate that no backward needs is freed as soon as the caller drops it
(the class doc says what introspection then shows). The output is held weakly, so a graph has no
reference cycles and is freed as soon as its root is dropped.
"""

import weakref

import numpy as np

from .grad_mode import _grad_enabled

#: Inputs with at most this many elements are kept by the Functions they feed (see Function).
KEPT_ELEMENTS = 1024


class Function:
    """Base class of every operation; subclass it and define ``forward`` and ``backward``.

    **Arrays or Tensors in backward.** ``backward`` runs on NumPy arrays when the class sets
    ``backward_runs_on_arrays = True`` and the backward is not itself being differentiated: the
    fast path every built-in op takes. Otherwise (a custom op, which a student writes with
    Tensors, or any op under ``backward(create_graph=True)`` or ``grad(create_graph=True)``) it
    runs on Tensors: ``grad_output`` is a Tensor and ``saved_tensors`` gives Tensors, the saved
    inputs and output being the graph's own tensors, so that under create_graph the backward is
    recorded and can be differentiated again. A built-in backward is therefore written with
    operators, methods and ``autograd.ops.array_or_tensor`` functions, which work on both.

    **What the graph keeps.** A Function keeps strongly what its backward needs: the values
    forward saved, the Functions that made its inputs (so the walk goes on to them) and the
    leaves that require grad (PyTorch's AccumulateGrad holds them too). It also keeps any input
    of at most ``KEPT_ELEMENTS`` (1,024) elements, which costs next to nothing and lets a
    drawing of a teaching-sized graph show every value, as micrograd's does. A larger input
    that backward does not need (the output of ``x @ w`` under ``+ b``, say) is held weakly, so
    it is freed as soon as the caller drops it. ``inputs`` (and so ``Tensor.parents``,
    ``autograd.trace`` and the drawings) gives the caller's tensors while they are alive; a
    large intermediate the caller dropped comes back as a stand-in named ``"(freed)"``: a Tensor
    with the same shape, dtype and ``grad_fn`` (so walks go on to the leaves), whose values are
    the saved output if its Function saved it, else NaN (read-only). A large constant nobody
    holds any more comes back the same way, NaN of its shape.
    """

    # _edges: one per input, in order: the input Tensor itself when it is kept (see the class
    #   doc), else the Function that made it or, for a constant, a _WeakConstant.
    # _saved: the values forward saved, as a tuple; None once backward freed them.
    # _hooks: None, or the result's list of hooks (see _watch), so that they run after the
    #   result Tensor is dropped, as in PyTorch.
    # _output_id: id of the result's array, to know it among the saved values once the result
    #   Tensor is gone (a saved value is alive, so an equal id means that very array).
    # _sv: None (no version counter in sight), or the result's version counter followed by the
    #   versions of the inputs and of the result when this op ran (see engine._check_versions).
    # Set only when a consumer holds the result weakly (read with getattr): _output, a weak
    #   reference to the result, and its _shape and _dtype.
    __slots__ = ("needs_input_grad", "_edges", "_saved", "_hooks", "_sv", "_output",
                 "_output_id", "_shape", "_dtype", "__weakref__")

    #: Built-in ops write ``backward`` with operators and ``autograd.ops.array_or_tensor``
    #: functions only, so the engine may run it directly on NumPy arrays (see the class doc).
    backward_runs_on_arrays = False

    #: An elementwise op of two operands: a 0-d operand beside a dimensioned one is cast as
    #: PyTorch promotes (``zero_dim_casts``) before ``forward`` runs.
    promotes_zero_dim = False

    @property
    def name(self):
        """The op's name as shown in drawings and reprs, e.g. "Mul"."""
        return type(self).__name__

    def __repr__(self):
        return f"<{self.name}>"

    @classmethod
    def apply(cls, *inputs, **attrs):
        """Run the op on ``inputs`` (Tensors, arrays or numbers) and record it for backward."""
        return _record(cls(), inputs, attrs)

    def __call__(self, *inputs, **attrs):
        return _record(self, inputs, attrs)

    def forward(self, *arrays, **attrs):
        raise NotImplementedError(f"{self.name} must define forward(self, *arrays)")

    def backward(self, grad_output):
        raise NotImplementedError(f"{self.name} must define backward(self, grad_output)")

    def jvp(self, *tangents):
        """Forward mode: the output's tangent from one tangent per input (arrays)."""
        raise NotImplementedError(
            f"{self.name} has no forward-mode derivative: define jvp(self, *tangents) returning "
            "the output's tangent, or use reverse mode (backward) for this op")

    def hint(self, inputs, **attrs):
        """Advice for a student when ``forward`` fails on these input Tensors (None: none)."""
        return None

    def save_for_backward(self, *values):
        """Keep arrays that ``backward`` needs; they are freed once backward has passed."""
        self._saved = values

    def saved_in_use(self):
        """The saved values that ``backward`` will read, given ``needs_input_grad``: all of them,
        unless an op says fewer (Mul: x * 3 reads only the 3). Only these must be unchanged at
        backward (engine._check_versions), as PyTorch, which saves only these, requires."""
        return self._saved_values()

    @property
    def saved_tensors(self):
        """The values ``forward`` saved: arrays on the fast path, Tensors of this graph
        otherwise (see the class doc)."""
        if not self.backward_runs_on_arrays:
            return self._graph_tensors()
        if self._saved is None:
            raise freed_error(self)
        return self._saved

    def _saved_values(self):
        """The saved values as forward gave them, as a tuple."""
        if self._saved is None:
            raise freed_error(self)
        return self._saved

    def _set_saved_values(self, values):
        """Replace the saved values (as many as there were) by ``values``."""
        self._saved = tuple(values)

    @property
    def inputs(self):
        """The input Tensors, in order (see the class doc for inputs the caller dropped)."""
        return tuple([_input_tensor(edge) for edge in self._edges])

    def _graph_tensors(self):
        """The saved values as Tensors of this graph: an input's or the output's array comes back
        as that Tensor, other arrays as constants."""
        return tuple([self._as_graph_tensor(value) for value in self._saved_values()])

    def _as_graph_tensor(self, value):
        if isinstance(value, Tensor):
            return value
        # A saved array is alive, so an id equal to an input's or the output's array id means it
        # is that very array: two live objects never share an id.
        for edge in self._edges:
            if isinstance(edge, Tensor):
                if edge.data is value:
                    return edge
            elif type(edge) is not _WeakConstant and edge._output_id == id(value):
                return edge._output_tensor(value)
        if id(value) == self._output_id:
            return self._output_tensor(value)
        return Tensor._make(np.asarray(value), False, None)

    def _output_tensor(self, data=None):
        """The Tensor this Function made: the caller's while anyone holds it, else a new Tensor
        with the same grad_fn (on ``data``, the saved output array, when given or saved), else a
        stand-in (see the class doc). A new one is remembered while it is alive."""
        ref = getattr(self, "_output", None)
        out = ref() if ref is not None else None
        if out is not None and (data is None or out.data is data):
            return out
        if data is None:
            data = next((v for v in self._saved or () if id(v) == self._output_id), None)
        if data is not None:
            out = Tensor._make(data, True, self)
        else:
            out = _stand_in(self._shape, self._dtype, self)
        self._output = weakref.ref(out)
        return out

    @property
    def _vc(self):
        """The version counter of the result's array, or None (see ``_sv``)."""
        return None if self._sv is None else self._sv[0]

    def _count_result_versions(self, counter):
        """The result was given the version counter ``counter`` (see Tensor._new_counter)."""
        self._sv = (counter, *self._recorded_versions()[1:])

    def _recorded_versions(self):
        """``_sv`` with zeros for None: (counter, input versions..., result version)."""
        return self._sv or (None, *[0] * len(self._edges), 0)

    def _watch(self, tensor):
        """``tensor`` (this Function's result) has hooks, retains its grad or is a grad() input."""
        self._output = weakref.ref(tensor)
        if tensor._hooks is None:
            tensor._hooks = []  # shared from now on, so later register_hook calls reach us
        self._hooks = tensor._hooks


class _WeakConstant(weakref.ref):
    """A weak reference to a constant input that backward does not need, with its shape and
    dtype so that a stand-in can take its place once it is gone."""

    __slots__ = ("shape", "dtype")
    _vc = None  # a constant nobody holds is never changed in place
    requires_grad = False

    def __init__(self, tensor):
        super().__init__(tensor)
        self.shape = tensor.data.shape
        self.dtype = tensor.data.dtype


def _input_tensor(edge):
    if isinstance(edge, Tensor):
        return edge
    if type(edge) is _WeakConstant:
        tensor = edge()
        return tensor if tensor is not None else _stand_in(edge.shape, edge.dtype, None)
    return edge._output_tensor()


def _stand_in(shape, dtype, fn):
    """A read-only placeholder for a tensor that was freed: NaN (zeros for integers)."""
    fill = np.nan if np.dtype(dtype).kind in "fc" else 0
    tensor = Tensor._make(np.broadcast_to(np.array(fill, dtype=dtype), shape), fn is not None, fn)
    tensor.name = "(freed)"
    return tensor


def freed_error(fn):
    """The error for a backward that needs values an earlier backward freed."""
    return RuntimeError(
        f"Trying to backward through the graph a second time (through {fn.name}), but the values "
        f"{fn.name} saved for it were freed by the first backward. Pass retain_graph=True to the "
        "first backward() if you need to backward through the same graph twice"
    )


def _saves(fn, array):
    """Whether ``fn`` saved this very array."""
    return bool(fn._saved) and any(value is array for value in fn._saved)


def _edge(x, fn):
    """How ``fn`` reaches its input ``x`` (see ``Function.__slots__``)."""
    data = x.data
    if data.size <= KEPT_ELEMENTS:
        return x
    child = x.grad_fn
    if child is not None:
        if getattr(child, "_shape", None) is None:  # the first consumer that holds x weakly
            child._shape = data.shape
            child._dtype = data.dtype
        if getattr(child, "_output", None) is None:
            child._output = weakref.ref(x)
        return child
    if x.requires_grad or _saves(fn, data):
        return x
    return _WeakConstant(x)


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
"""PyTorch's dtype categories, in promotion order: bool < integer < floating < complex."""


def zero_dim_casts(x, y):
    """The dtypes PyTorch's promotion gives arrays ``x`` and ``y`` of an elementwise op, as a pair
    (None: keep your own). Only a 0-d operand beside a dimensioned one changes: it takes the
    other's dtype when its category is not higher, so a float32 tensor times a float64 0-d
    tensor is float32 where NumPy would compute in float64. Else NumPy's promotion agrees."""
    if (x.ndim == 0) == (y.ndim == 0) or x.dtype == y.dtype:
        return None, None
    zero, other = (x, y) if x.ndim == 0 else (y, x)
    if _CATEGORY.get(zero.dtype.kind, 4) > _CATEGORY.get(other.dtype.kind, -1):
        return None, None
    return (other.dtype, None) if zero is x else (None, other.dtype)


def _promoted(a, b):
    """Tensors ``a`` and ``b``, a 0-d one cast as ``zero_dim_casts`` says (a recorded,
    differentiable cast: its gradient goes back in its own dtype)."""
    dtype_a, dtype_b = zero_dim_casts(a.data, b.data)
    return (a if dtype_a is None else a.to(dtype_a)), (b if dtype_b is None else b.to(dtype_b))


# needs_input_grad for one and two inputs, shared: a tuple every op kept would be one more
# object per op for the garbage collector to count and walk (benchmarks/engine.py, "deep chain").
_SHARED_NEEDS = {needs: needs for needs in [(False,), (True,), (False, False), (False, True),
                                            (True, False), (True, True)]}


def _record(fn, inputs, attrs):
    """Run ``fn`` on ``inputs`` and return the result Tensor, linked to ``fn`` for backward when
    an input requires grad (and grad mode is on). ``attrs`` (a dict, or None for none) goes to
    ``forward`` as keyword arguments. Every op runs this (Tensor's operators call it directly),
    in four steps: the operands, forward, the result Tensor and, when needed, its link to ``fn``.
    The steps spell out one and two inputs where a star-call or ``map`` would cost a tenth of an
    op's time (benchmarks/engine.py, "op overhead")."""
    inputs = _operands(fn, inputs)
    result = _result(fn, inputs, _forward(fn, inputs, attrs))
    needs_input_grad = ((inputs[0].requires_grad, inputs[1].requires_grad) if len(inputs) == 2
                        else tuple([x.requires_grad for x in inputs]))
    needs_input_grad = _SHARED_NEEDS.get(needs_input_grad, needs_input_grad)
    if True in needs_input_grad and _grad_enabled.get():
        _link(fn, inputs, result, needs_input_grad)
    else:
        fn._saved = None  # no backward will run: free what forward saved
    return result


def _operands(fn, inputs):
    """The inputs as Tensors (numbers, lists and arrays wrapped as constants), and a 0-d operand
    of an elementwise op cast as PyTorch promotes it (``zero_dim_casts``)."""
    for x in inputs:
        if type(x) is not Tensor:
            inputs = tuple([x if isinstance(x, Tensor) else as_tensor(x, like=inputs)
                            for x in inputs])
            break
    if (fn.promotes_zero_dim and len(inputs) == 2
            and inputs[0].data.dtype is not inputs[1].data.dtype):
        return _promoted(*inputs)
    return inputs


def _forward(fn, inputs, attrs):
    """``fn.forward`` on the inputs' arrays, as an ndarray. A ValueError or IndexError (NumPy's
    terse word for shapes that do not fit) comes back with the op's hint or the broadcast rule."""
    fn._saved = ()  # until forward calls save_for_backward
    try:
        if attrs:
            out = fn.forward(*[x.data for x in inputs], **attrs)
        elif len(inputs) == 2:
            out = fn.forward(inputs[0].data, inputs[1].data)
        elif len(inputs) == 1:
            out = fn.forward(inputs[0].data)
        else:
            out = fn.forward(*[x.data for x in inputs])
    except (ValueError, IndexError) as error:
        message = _failure_message(fn, inputs, attrs or {}, error)
        if message is None:
            raise
        raise type(error)(message) from None
    if type(out) is not np.ndarray:  # NumPy gives a scalar for a 0-d result: keep arrays
        scalar, out = out, np.asarray(out)
        if fn._saved:
            fn._saved = tuple([out if value is scalar else value for value in fn._saved])
    return out


def _result(fn, inputs, out):
    """The Tensor holding ``out`` (made without Tensor.__init__'s checks), not yet in a graph. A
    view of an input's array shares that input's version counter; under forward-mode AD the
    result gets its tangent here, while ``fn``'s saved values are still there."""
    result = _new_tensor(Tensor)
    result.data = out
    result.requires_grad = False
    result.grad_fn = None
    result._grad = None
    result._vc = None
    if out.base is not None:
        _share_view_counter(result, inputs)
    level = _dual_level.get()
    if level is not None:
        push_tangent(fn, inputs, result, level)
    return result


def _link(fn, inputs, result, needs_input_grad):
    """Make ``fn`` the result's grad_fn and give ``fn`` what backward needs: which inputs need
    a gradient, an edge per input (``inputs`` itself when every input is small enough to keep),
    and the versions to check in-place changes against (None while nothing has a counter)."""
    result.requires_grad = True
    result.grad_fn = fn
    fn._output_id = id(result.data)
    fn._hooks = None
    fn.needs_input_grad = needs_input_grad
    fn._edges = inputs
    for x in inputs:
        if x.data.size > KEPT_ELEMENTS:  # held by an edge of its own (see _edge)
            fn._edges = tuple([_edge(x, fn) for x in inputs])
            break
    counter = result._vc
    fn._sv = _versions(inputs, counter) if counter or _has_version_counter(inputs) else None


def _has_version_counter(tensors):
    """Whether any of these Tensors (or edges) has a version counter: was, or is a view of a
    tensor that was, changed in place. Until one has, no version needs recording or checking."""
    for x in tensors:
        if x._vc is not None:
            return True
    return False


def _share_view_counter(result, inputs):
    """If ``result``'s array is a view of an input's (NumPy shares the memory), give it that
    input's version counter, as PyTorch's views share one."""
    root = result.data.base
    for x in inputs:
        data = x.data
        if data is root or data.base is root:
            counter = x._vc
            if counter is None:
                counter = x._new_counter()
            result._vc = counter
            result._base = x if x._base is None else x._base
            result._view_version = counter[0]
            return


def _versions(inputs, counter):
    """Function._sv: the result's ``counter``, the versions of ``inputs`` and the result's. A
    view used after its base was changed in place by a recorded op is refused: its recorded
    history no longer describes its values (PyTorch remakes it; we ask you to)."""
    for x in inputs:
        base = x._base
        if (base is not None and x.requires_grad and base._history is not None
                and base._history[-1][0] > x._view_version):
            raise RuntimeError(
                f"this tensor is a view (made by {x.grad_fn.name if x.grad_fn else 'a view'}) "
                f"of a tensor that was changed in place afterwards (now {base.grad_fn.name}), so "
                "its recorded history describes values it no longer holds; make the view again "
                "after the in-place change (e.g. v = y[0:2] once more), or clone() it first")
    return (counter, *[x._version for x in inputs], 0 if counter is None else counter[0])


def _failure_message(fn, inputs, attrs, error):
    """The op's own advice, or the broadcasting rule, added to NumPy's terse message."""
    hint = fn.hint(inputs, **attrs)
    if hint is not None:
        return f"{fn.name}: {error}. {hint}"
    if "broadcast" in str(error):
        return _broadcast_message(fn, inputs, attrs)
    return None


def _broadcast_message(fn, inputs, attrs):
    shapes = [t.shape for t in inputs]
    if "condition" in attrs:
        shapes.append(np.shape(attrs["condition"]))
    listed = " and ".join(str(shape) for shape in shapes)
    return (
        f"{fn.name}: shapes {listed} cannot broadcast together. Sizes are compared from the last "
        "axis backwards and must be equal or 1 there; reshape or transpose an operand (for "
        "example x.reshape(-1, 1) turns a row into a column)"
    )


_new_tensor = object.__new__

# Imported last: tensor.py imports the ops, which subclass Function, so Function must exist first.
from .forward_ad import _level as _dual_level  # noqa: E402
from .forward_ad import push_tangent  # noqa: E402
from .tensor import Tensor, as_tensor  # noqa: E402
