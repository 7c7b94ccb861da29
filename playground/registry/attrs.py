"""Attribute types: each turns a value into its canonical form or raises ValueError saying why.

Attribute values are kept in a canonical form (tuples, floats, no entries equal to the default),
so two specs that mean the same thing compare equal and ``apply(*tensors, **attrs)`` just works.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from autograd.nn.upsampling import MODES
from autograd.ops.conv import PAD_MODES

from .. import limits
from ..errors import SpecError
from .entry import OpInfo


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _dim(value) -> int:
    if not _is_int(value):
        raise ValueError("must be a whole number such as 0 or -1")
    if abs(value) > limits.MAX_NDIM:
        raise ValueError(f"must lie between -{limits.MAX_NDIM} and {limits.MAX_NDIM}")
    return value


def _ints(value, what: str) -> tuple[int, ...]:
    if _is_int(value):
        return (value,)
    if not isinstance(value, list | tuple) or not all(_is_int(v) for v in value):
        raise ValueError(f"must be {what}")
    return tuple(value)


def _axis(value):
    if value is None:
        return None
    if _is_int(value):
        return _dim(value)
    axes = _ints(value, "None, a whole number or a tuple of them, such as 0 or (0, 1)")
    if len(axes) > limits.MAX_NDIM:
        raise ValueError(f"lists more than {limits.MAX_NDIM} axes")
    return tuple(_dim(a) for a in axes)


def _axes(value):
    if value is None:
        return None
    axes = _ints(value, "None or a tuple of axes such as (1, 0)")
    if len(axes) > limits.MAX_NDIM:
        raise ValueError(f"lists more than {limits.MAX_NDIM} axes")
    return tuple(_dim(a) for a in axes)


def _shape(value) -> tuple[int, ...]:
    shape = _ints(value, "a tuple of sizes such as (2, 3)")
    if len(shape) > limits.MAX_NDIM:
        raise ValueError(f"has more than {limits.MAX_NDIM} dimensions")
    if any(n < 1 and n != -1 for n in shape) or shape.count(-1) > 1:
        raise ValueError("must hold sizes of at least 1 (and at most one -1, meaning 'the rest')")
    if math.prod(n for n in shape if n > 0) > limits.MAX_ELEMENTS:
        raise ValueError(f"has more than {limits.MAX_ELEMENTS:,} elements")
    return shape


def _index(value) -> tuple[int, ...]:
    index = _ints(value, "a whole number or a tuple of them, such as 0 or (1, 2)")
    if not index or len(index) > limits.MAX_NDIM:
        raise ValueError(f"must hold between 1 and {limits.MAX_NDIM} whole numbers")
    if any(abs(i) > limits.MAX_ELEMENTS for i in index):
        raise ValueError("holds a position far outside any tensor")
    return index


def _float(value) -> float:
    if not _is_number(value):
        raise ValueError("must be a number such as 0.1")
    value = float(value) if abs(value) < 1e308 else math.inf
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


def _optional_float(value):
    return None if value is None else _float(value)


def _bool(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be True or False")
    return value


def _approximate(value) -> str:
    if value not in ("none", "tanh"):
        raise ValueError('must be "none" or "tanh"')
    return value


REDUCTIONS = ("mean", "sum", "none")
KL_REDUCTIONS = REDUCTIONS + ("batchmean",)


def _reduction(value) -> str:
    if value not in REDUCTIONS:
        raise ValueError('must be "mean", "sum" or "none"')
    return value


def _kl_reduction(value) -> str:
    if value not in KL_REDUCTIONS:
        raise ValueError('must be "mean", "sum", "none" or "batchmean"')
    return value


def _equation(value) -> str:
    if not isinstance(value, str):
        raise ValueError("must be text in quotes, such as 'ij,jk->ik'")
    if len(value) > limits.MAX_EQUATION_CHARS:
        raise ValueError(f"is longer than {limits.MAX_EQUATION_CHARS} characters")
    if not set(value) <= set(_SUBSCRIPTS):
        raise ValueError("may hold only letters, ',', '->', '...' and spaces")
    return value


_SUBSCRIPTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,.-> "


def _norm_p(value):
    """norm's p: "fro", a finite number, "inf" or "-inf" (infinities as text, kept by JSON)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("fro", "inf", "-inf"):
            return text
        try:
            value = float(text)
        except ValueError:
            value = None
    if not _is_number(value) or math.isnan(value):
        raise ValueError('must be "fro", a number such as 1 or 3, "inf" or "-inf"')
    value = float(value) if abs(value) < 1e308 else math.copysign(math.inf, value)
    return ("inf" if value > 0 else "-inf") if math.isinf(value) else value


def _sizes(value):
    """split's sizes: one whole number (pieces of that size) or a tuple (the pieces' sizes)."""
    if _is_int(value):
        if not 1 <= value <= limits.MAX_ELEMENTS:
            raise ValueError(f"must be a piece size from 1 to {limits.MAX_ELEMENTS:,}")
        return value
    sizes = _ints(value, "a whole number such as 2, or a tuple of sizes such as (1, 3)")
    if not sizes or len(sizes) > limits.MAX_NODES or any(
            not 0 <= n <= limits.MAX_ELEMENTS for n in sizes):
        raise ValueError(f"must list between 1 and {limits.MAX_NODES:,} sizes of 0 or more")
    return sizes


def _count(value) -> int:
    if not _is_int(value) or not 0 <= value <= limits.MAX_ELEMENTS:
        raise ValueError(f"must be a whole number from 0 to {limits.MAX_ELEMENTS:,}, such as 2")
    return value


def _size(value):
    """A window's size, stride, dilation or groups, or a pooled output size: a whole number of
    at least 1, or a tuple of them (None keeps that axis, as adaptive pooling allows), or None."""
    if value is None:
        return None
    sizes = _ints(value, "a whole number such as 2, or a tuple such as (2, 3)") if not (
        isinstance(value, list | tuple) and None in value) else tuple(value)
    if not 1 <= len(sizes) <= 3 or any(
            v is not None and not (_is_int(v) and 1 <= v <= limits.MAX_ELEMENTS) for v in sizes):
        raise ValueError(f"must be a whole number from 1 to {limits.MAX_ELEMENTS:,}, or a tuple "
                         "of one to three of them, such as 2 or (2, 3)")
    return sizes[0] if _is_int(value) else sizes


def _padding(value):
    """A convolution's or pooling's padding: "same", "valid", or sizes of 0 or more."""
    if value in ("same", "valid"):
        return value
    sizes = _ints(value, 'a whole number such as 1, a tuple such as (1, 2), "same" or "valid"')
    if not 1 <= len(sizes) <= 3 or any(not 0 <= v <= limits.MAX_ELEMENTS for v in sizes):
        raise ValueError('must be a whole number of 0 or more, a tuple of one to three of them, '
                         '"same" or "valid"')
    return sizes[0] if _is_int(value) else sizes


def _pads(value) -> tuple[int, ...]:
    """F.pad's amounts: (before, after) pairs, last axis first; negative amounts crop."""
    pads = _ints(value, "a tuple of (before, after) amounts such as (1, 1) or (1, 1, 2, 2)")
    if not pads or len(pads) % 2 or len(pads) > 2 * limits.MAX_NDIM or any(
            abs(v) > limits.MAX_ELEMENTS for v in pads):
        raise ValueError("must list (before, after) amounts in pairs, last axis first, such as "
                         "(1, 1) or (1, 1, 2, 2)")
    return pads


INTERPOLATE_MODES = tuple(MODES)


def _choice(choices):
    """A text attribute that must be one of ``choices`` (pad's and interpolate's modes)."""
    def check(value) -> str:
        if value not in choices:
            raise ValueError("must be " + ", ".join(f'"{choice}"' for choice in choices))
        return value
    return check


ATTR_TYPES: Mapping[str, Callable] = {
    "dim": _dim,
    "axis": _axis,
    "axes": _axes,
    "shape": _shape,
    "index": _index,
    "float": _float,
    "optional_float": _optional_float,
    "bool": _bool,
    "equation": _equation,
    "norm_p": _norm_p,
    "sizes": _sizes,
    "count": _count,
    "approximate": _approximate,
    "size": _size,
    "padding": _padding,
    "pads": _pads,
    "pad_mode": _choice(PAD_MODES),
    "interpolate_mode": _choice(INTERPOLATE_MODES),
    "reduction": _reduction,
    "kl_reduction": _kl_reduction,
}
"""Attribute type name -> function returning the canonical value or raising ValueError."""


def canonical_attrs(info: OpInfo, attrs: Mapping) -> dict:
    """``attrs`` checked against ``info`` and made canonical; entries equal to the default go.

    Raises SpecError naming the op and the attribute; callers add the node or line.
    """
    if not isinstance(attrs, Mapping):
        raise SpecError(f"the attributes of {info.name} must be a mapping of names to values")
    out = {}
    for key, value in attrs.items():
        attr = info.attr(key) if isinstance(key, str) else None
        if attr is None:
            known = ", ".join(a.name for a in info.attrs) or "none"
            raise SpecError(
                f"{info.name} has no attribute `{str(key)[:40]}` (its attributes: {known}); "
                f"for example {info.example}"
            )
        try:
            value = ATTR_TYPES[attr.type](value)
        except ValueError as err:
            raise SpecError(
                f"attribute `{key}` of {info.name} {err}; got {_short(value)}"
            ) from None
        if value != attr.default or type(value) is not type(attr.default):
            out[key] = value
    for attr in info.attrs:
        if attr.required and attr.name not in out:
            raise SpecError(
                f"{info.name} needs the attribute `{attr.name}`, for example {info.example}"
            )
    if info.needs_one_of and not any(out.get(name) is not None for name in info.needs_one_of):
        names = " and ".join(f"`{name}`" for name in info.needs_one_of)
        raise SpecError(f"{info.name} needs at least one of {names}, for example {info.example}")
    return out


def _short(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


