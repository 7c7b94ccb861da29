"""Matrix products: matmul with NumPy's rules (1-D vectors, batched stacks), linear, bmm, dot,
outer and einsum."""

import math

import numpy as np

from ..tensor import Tensor
from . import array_or_tensor
from .array_or_tensor import Op
from .exposed import exposed

_TORCH_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double",
                "int64": "long int", "int32": "int", "bool": "bool"}


def torch_name(dtype):
    """A dtype as PyTorch's messages name it (float32 is "float", float64 "double")."""
    return _TORCH_NAMES.get(dtype.name, dtype.name)


def same_dtype(name, *arrays, what=("m1", "m2")):
    """Refuse operands of different dtypes where one is floating, as PyTorch's products do:
    NumPy would promote float32 @ float64 (or int @ float) silently, so a float32 model would
    quietly run (and return) float64. ``what`` names the operands in the message."""
    first = arrays[0].dtype
    for other in arrays[1:]:
        if other.dtype is not first and other.dtype != first and (
                first.kind == "f" or other.dtype.kind == "f"):
            raise dtype_error(name, [a.dtype for a in arrays], what)


def dtype_error(name, dtypes, what):
    """PyTorch's words for operands of different dtypes, with the fix."""
    torch_names = [torch_name(d) for d in dtypes]
    given = ", ".join(f"{w} {d}" for w, d in zip(what, dtypes))
    first, second = what[:2] if all(w.isidentifier() for w in what) else ("x", "y")
    return TypeError(
        f"{name}: expected {' and '.join(what)} to have the same dtype, but got: "
        f"{' != '.join(torch_names)} ({given}), as PyTorch refuses too (NumPy would promote them "
        f"silently). Cast them to one dtype: e.g. {second}.to({first}.dtype), or "
        ".double() (or .float()) on each")


@exposed("matmul")
class MatMul(Op):
    """a @ b. A 1-D operand is treated as a row (left) or column (right) vector, as NumPy does;
    batch dimensions broadcast, and the engine sums the gradient back over them."""

    __slots__ = ()

    def forward(self, a, b):
        if a.dtype is not b.dtype:
            same_dtype(self.name.lower(), a, b)
        self.save_for_backward(a, b)
        try:
            return np.matmul(a, b)
        except ValueError:
            raise ValueError(_shape_message(a.shape, b.shape)) from None

    def backward(self, grad):
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        a_vector, b_vector = a.ndim == 1, b.ndim == 1
        if b_vector:
            b = b.reshape(b.shape + (1,))
            grad = grad.reshape(grad.shape + (1,))
        if a_vector:
            a = a.reshape((1,) + a.shape)
            grad = grad.reshape(grad.shape[:-1] + (1,) + grad.shape[-1:])
        grad_a = grad_b = None
        if need_a:
            grad_a = grad @ b.swapaxes(-1, -2)
            if a_vector:
                grad_a = grad_a.reshape(grad_a.shape[:-2] + grad_a.shape[-1:])
        if need_b:
            grad_b = a.swapaxes(-1, -2) @ grad
            if b_vector:
                grad_b = grad_b.reshape(grad_b.shape[:-1])
        return grad_a, grad_b

    def jvp(self, tangent_a, tangent_b):
        a, b = self.saved_tensors
        return np.matmul(tangent_a, b) + np.matmul(a, tangent_b)


class Linear(Op):
    """``x @ weight.T + bias`` as one node, as PyTorch's addmm does: the weight's gradient
    ``grad.T @ x`` comes out in the weight's own (out, in) layout, with no transpose to undo."""

    __slots__ = ()

    def forward(self, x, weight, bias=None):
        if x.ndim == 0 or weight.ndim != 2 or x.shape[-1] != weight.shape[1]:
            raise ValueError(
                f"linear: input of shape {x.shape} has {x.shape[-1] if x.ndim else 0} features on "
                f"its last axis, but the weight of shape {weight.shape} expects "
                f"{weight.shape[1] if weight.ndim == 2 else '?'} (weight is (out_features, "
                "in_features)); reshape the input or build the layer with matching in_features"
            )
        operands = (x, weight) if bias is None else (x, weight, bias)
        if not all(t.dtype is x.dtype for t in operands):
            same_dtype("linear", *operands, what=("input", "weight", "bias")[:len(operands)])
        self.save_for_backward(x, weight)
        # One (N·L, in) @ (in, out) product: NumPy's matmul of a stack makes one BLAS call per
        # matrix, which costs up to twice the time at a course's sizes (16 x 32 tokens).
        out = np.matmul(x.reshape(-1, x.shape[-1]), weight.T).reshape(
            x.shape[:-1] + weight.shape[:1])
        if bias is not None:
            out += bias
        return out

    def backward(self, grad):
        x, weight = self.saved_tensors
        needs = self.needs_input_grad
        rows = grad.reshape(-1, grad.shape[-1])
        grad_x = (rows @ weight).reshape(x.shape) if needs[0] else None
        grad_weight = rows.T @ x.reshape(-1, x.shape[-1]) if needs[1] else None
        if len(needs) == 2:
            return grad_x, grad_weight
        return grad_x, grad_weight, (rows.sum(axis=0) if needs[2] else None)

    def jvp(self, tangent_x, tangent_weight, tangent_bias=None):
        x, weight = self.saved_tensors
        out = np.matmul(tangent_x, weight.T) + np.matmul(x, tangent_weight.T)
        return out if tangent_bias is None else out + tangent_bias


def _shape_message(a_shape, b_shape):
    if not a_shape or not b_shape:
        return (f"matmul needs tensors with at least one dimension, got shapes {a_shape} and "
                f"{b_shape}; use * to multiply by a scalar")
    inner_a = a_shape[-1]
    inner_b = b_shape[0] if len(b_shape) == 1 else b_shape[-2]
    if inner_a != inner_b:
        return (f"matmul of shapes {a_shape} and {b_shape}: the inner sizes differ ({inner_a} vs "
                f"{inner_b}); the last axis of the left operand must match the "
                f"{'only' if len(b_shape) == 1 else 'second-to-last'} axis of the right one — "
                "transpose one operand (x.T) or reshape it")
    return (f"matmul of shapes {a_shape} and {b_shape}: the batch dimensions "
            f"{a_shape[:-2]} and {b_shape[:-2]} do not broadcast")


def linear(x, weight, bias=None):
    """``x @ weight.T + bias`` (PyTorch's ``nn.functional.linear``)."""
    return Linear.apply(x, weight) if bias is None else Linear.apply(x, weight, bias)


@exposed("bmm")
class BMM(MatMul):
    """Batched matrix product of two 3-D tensors, (b, n, m) @ (b, m, p) -> (b, n, p), as
    torch.bmm: no broadcasting, so the batch sizes must be equal. Its gradient is matmul's."""

    __slots__ = ()

    def forward(self, a, b):
        if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise ValueError(
                f"bmm needs two 3-D tensors (b, n, m) and (b, m, p) with the same batch size b, "
                f"got shapes {a.shape} and {b.shape}; for other shapes, or batch sizes that differ "
                "(1 against n), use matmul (@)")
        return super().forward(a, b)


@exposed("mm")
class MM(MatMul):
    """The product of two matrices, (n, m) @ (m, p) -> (n, p), as torch.mm: no vectors, no
    batches, no broadcasting. Its gradient is matmul's."""

    __slots__ = ()

    def forward(self, a, b):
        for what, x in (("self", a), ("mat2", b)):
            if x.ndim != 2:
                raise ValueError(f"mm: {what} must be a matrix, got shape {x.shape} (as PyTorch "
                                 "says); use matmul (@) for vectors and batches, or bmm")
        if a.shape[1] != b.shape[0]:
            raise ValueError(
                f"mm: mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                f"{b.shape[0]}x{b.shape[1]}): the columns of the first must match the rows of "
                "the second; transpose one (x.T)")
        return super().forward(a, b)


@exposed("mv")
class MV(MatMul):
    """A matrix times a vector, (n, m) @ (m,) -> (n,), as torch.mv. Its gradient is matmul's."""

    __slots__ = ()

    def forward(self, a, b):
        if a.ndim != 2 or b.ndim != 1:
            raise ValueError(f"mv: vector + matrix @ vector expected, got shapes {a.shape} and "
                             f"{b.shape}; mv takes a matrix and a vector (matmul (@) takes "
                             "any)")
        if a.shape[1] != b.shape[0]:
            raise ValueError(f"mv: size mismatch, mat ({a.shape[0]}x{a.shape[1]}), vec "
                             f"({b.shape[0]}): the vector's length must match the matrix's "
                             "columns")
        return super().forward(a, b)


def _scaled_sum(name, input, product, beta, alpha):
    """beta·input + alpha·product, PyTorch's addmm and baddbmm: input must broadcast to the
    product's shape, and with beta = 0 it is ignored (its NaN and inf too) and gets gradient 0."""
    from .elementwise import where

    input = input if isinstance(input, Tensor) else Tensor(input)
    try:
        fits = np.broadcast_shapes(input.shape, product.shape) == product.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"{name}: input of shape {input.shape} must broadcast to the product's shape "
            f"{product.shape}; PyTorch expands input to it, it never grows the product")
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:
        return scaled + where(np.zeros((), dtype=bool), input, np.zeros((), dtype=input.dtype))
    return scaled + (input if beta == 1 else input * beta)


@exposed("addmm")
def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002 - PyTorch's name
    """beta·input + alpha·(mat1 @ mat2), as torch.addmm (see ``mm`` for the shapes)."""
    return _scaled_sum("addmm", input, MM.apply(mat1, mat2), beta, alpha)


@exposed("baddbmm")
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002 - PyTorch's name
    """beta·input + alpha·(batch1 @ batch2) per batch, as torch.baddbmm (see ``bmm``)."""
    try:
        product = BMM.apply(batch1, batch2)
    except ValueError as error:
        raise ValueError(f"baddbmm: {error}") from None
    return _scaled_sum("baddbmm", input, product, beta, alpha)


@exposed("dot")
class Dot(Op):
    """The dot product of two 1-D vectors of one length, sum(a * b), as torch.dot (which,
    unlike NumPy's dot, takes vectors only)."""

    __slots__ = ()

    def forward(self, a, b):
        if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
            raise ValueError(
                f"dot needs two 1-D vectors of one length, got shapes {a.shape} and {b.shape}; "
                "use matmul (@) for matrices, or (a * b).sum() for any shapes")
        same_dtype("dot", a, b, what=("a", "b"))
        self.save_for_backward(a, b)
        return np.dot(a, b)

    def backward(self, grad):
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        return (grad * b if need_a else None, grad * a if need_b else None)

    def jvp(self, tangent_a, tangent_b):
        a, b = self.saved_tensors
        return np.dot(tangent_a, b) + np.dot(a, tangent_b)


@exposed("outer")
class Outer(Op):
    """The outer product of two 1-D vectors, y[i, j] = a[i] * b[j], as torch.outer."""

    __slots__ = ()

    def forward(self, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise ValueError(
                f"outer needs two 1-D vectors, got shapes {a.shape} and {b.shape}; flatten "
                "them first (x.flatten()), or for a batch of vectors use "
                "einsum('bi,bj->bij', a, b)")
        self.save_for_backward(a, b)
        return np.multiply.outer(a, b)

    def backward(self, grad):
        """Products summed, not ``grad @ b``: a float32 and a float64 vector have a float64
        outer product, and matmul refuses their mix under create_graph."""
        a, b = self.saved_tensors
        need_a, need_b = self.needs_input_grad
        return ((grad * b).sum(axis=1) if need_a else None,
                (grad * a.reshape(-1, 1)).sum(axis=0) if need_b else None)

    def jvp(self, tangent_a, tangent_b):
        a, b = self.saved_tensors
        return np.multiply.outer(tangent_a, b) + np.multiply.outer(a, tangent_b)


@exposed("einsum", method=False)
def einsum(equation, *operands):
    """Einstein summation, as torch.einsum: ``einsum("ij,jk->ik", a, b)`` (the operands may also
    come in one list). ``...`` stands for dimensions not named, which broadcast; without ``->``
    the output is the subscripts that appear once, in alphabetical order (after ``...``)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return Einsum.apply(*operands, equation=equation)


class Einsum(Op):
    """Einstein summation, such as "ij,jk->ik": multiply the operands along equal subscripts and
    sum the subscripts the output leaves out. Each operand's gradient is another einsum: the
    upstream gradient times the other operands, summed onto that operand's subscripts — spread
    along the diagonal for a repeated subscript ("ii"), repeated along one only it has."""

    __slots__ = ("terms", "output", "sizes")

    def forward(self, *arrays, equation):
        if arrays:
            same_dtype("einsum", *arrays, what=tuple(f"operand{k}" for k in range(len(arrays))))
        self.terms, self.output, self.sizes = _parse_einsum(equation, [a.shape for a in arrays])
        self.save_for_backward(*arrays)
        return _contract(self.terms, self.output, arrays)

    def backward(self, grad):
        operands = self.saved_tensors
        return tuple(self._operand_grad(k, grad, operands) if need else None
                     for k, need in enumerate(self.needs_input_grad))

    def _operand_grad(self, k, grad, operands):
        target = self.terms[k]
        terms = [self.output] + [t for i, t in enumerate(self.terms) if i != k]
        others = [grad] + [x for i, x in enumerate(operands) if i != k]
        unique = "".join(dict.fromkeys(target))
        present = "".join(c for c in unique if c in "".join(terms))
        g = _contract(terms, present, others)
        # Subscripts only this operand has: the output does not depend on them, so the gradient
        # is the same all along them.
        own = tuple(operands[k].shape[target.index(c)] for c in unique)
        g = g.reshape([g.shape[present.index(c)] if c in present else 1 for c in unique])
        g = array_or_tensor.broadcast_to(g, np.broadcast_shapes(g.shape, own))
        if len(unique) == len(target):
            return g
        # A repeated subscript ("ii"): the gradient lies on that diagonal, zero elsewhere.
        spare = iter(c for c in _LETTERS if c not in self.sizes)
        spread, deltas = "", []
        for position, c in enumerate(target):
            if c in target[:position]:
                fresh = next(spare)
                spread += fresh
                deltas.append((c + fresh, np.eye(g.shape[unique.index(c)], dtype=g.dtype)))
            else:
                spread += c
        return _contract([unique] + [d for d, _ in deltas], spread, [g] + [e for _, e in deltas])

    @staticmethod
    def parse(equation, shapes):
        """The equation for operands of ``shapes``, with ``...`` spelled out in letters and the
        output made explicit: (each operand's subscripts, the output's, subscript -> size)."""
        return _parse_einsum(equation, shapes)

    def jvp(self, *tangents):
        operands = self.saved_tensors
        return sum(_contract(self.terms, self.output, operands[:k] + (t,) + operands[k + 1:])
                   for k, t in enumerate(tangents))


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _contract(terms, output, operands):
    """``np.einsum`` of explicit single-letter subscripts, or the recorded Einsum on Tensors."""
    equation = ",".join(terms) + "->" + output
    if any(isinstance(x, Tensor) for x in operands):
        return Einsum.apply(*operands, equation=equation)
    return np.einsum(equation, *operands, optimize=_worth_optimizing(terms, operands))


def _worth_optimizing(terms, operands):
    """Whether NumPy should plan the contraction (pairwise, with BLAS): for three or more
    operands, or two large ones; the plan costs about 10 µs, more than a small einsum itself."""
    if len(operands) < 2:
        return False
    sizes = {}
    for term, x in zip(terms, operands):
        sizes.update(zip(term, x.shape))
    return len(operands) > 2 or math.prod(sizes.values()) > 4096


def _parse_einsum(equation, shapes):
    """The equation with ``...`` spelled out in letters of its own and the output made
    explicit: (one subscript string per operand, the output's, subscript -> size)."""
    if not isinstance(equation, str):
        raise TypeError(f"einsum's first argument is the equation, such as 'ij,jk->ik'; got "
                        f"{type(equation).__name__}")
    text = equation.replace(" ", "")
    stray = sorted(set(text) - set(_LETTERS) - set(",.->"))
    if stray:
        raise ValueError(f"einsum: the equation {equation!r} holds {stray[0]!r}; subscripts are "
                         "letters a-z and A-Z, with ',' between operands, '->' before the output "
                         "and '...' for the dimensions not named")
    lhs, arrow, rhs = text.partition("->")
    if any(c in lhs + rhs for c in "->"):
        raise ValueError(f"einsum: the equation {equation!r} must hold at most one '->', with "
                         "the output's subscripts after it")
    given = lhs.split(",")
    if len(given) != len(shapes):
        raise ValueError(
            f"einsum: the equation {equation!r} names {len(given)} operand(s) but "
            f"{len(shapes)} were given (shapes {', '.join(map(str, shapes)) or 'none'}); write "
            "one comma-separated group of subscripts per operand")
    broadcast = 0
    for k, (term, shape) in enumerate(zip(given, shapes)):
        letters = _check_dots(term, equation)
        if ("..." in term and len(letters) > len(shape)) or (
                "..." not in term and len(letters) != len(shape)):
            raise ValueError(
                f"einsum: operand {k} has shape {shape} ({len(shape)} dimension(s)), but its "
                f"subscripts {term!r} name {len(letters)}; give one letter per dimension, or "
                "'...' for the dimensions you do not name")
        if "..." in term:
            broadcast = max(broadcast, len(shape) - len(letters))
    named = set("".join(given)) - set(".")
    dots = "".join([c for c in _LETTERS if c not in named][:broadcast])
    if len(dots) < broadcast:
        raise ValueError(f"einsum: the equation {equation!r} uses too many letters for '...' "
                         f"to cover {broadcast} more dimensions")
    terms = [t.replace("...", dots[broadcast - (len(s) - len(t) + 3):] if "..." in t else "")
             for t, s in zip(given, shapes)]
    if arrow:
        _check_dots(rhs, equation)
        output = rhs.replace("...", dots)
        for c in output:
            if output.count(c) > 1:
                raise ValueError(f"einsum: output subscript {c} appears more than once in "
                                 f"{equation!r}; each output subscript must be distinct")
            if c not in named and c not in dots:
                raise ValueError(f"einsum: output subscript {c} in {equation!r} does not "
                                 "appear among the operands' subscripts")
    else:
        counts = "".join(terms)
        output = dots + "".join(sorted(c for c in named if counts.count(c) == 1))
    sizes = {}
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        for c, n in zip(term, shape):
            if term.count(c) > 1 and n != shape[term.index(c)]:
                raise ValueError(
                    f"einsum: subscript {c} is repeated in operand {k}, of shape {shape}, but "
                    f"its sizes differ ({shape[term.index(c)]} and {n}); a repeated subscript "
                    "takes a diagonal, which needs equal sizes")
            known = sizes.get(c, 1)
            if n != known and n != 1 and known != 1:
                raise ValueError(
                    f"einsum: subscript {c} has size {known} in one operand but {n} in operand "
                    f"{k} (shapes {', '.join(map(str, shapes))}); sizes of one subscript must "
                    "be equal, or 1 (then repeated)")
            sizes[c] = n if known == 1 else known
    return terms, output, sizes


def _check_dots(term, equation):
    """The letters of ``term``; ValueError unless its dots form at most one '...'."""
    letters = term.replace("...", "", 1)
    if "." in letters:
        raise ValueError(f"einsum: {equation!r} has a '.' that is not part of a single '...' "
                         "in its group of subscripts; write '...' once per operand at most")
    return letters
