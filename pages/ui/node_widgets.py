"""Widgets for a leaf's value and an op's attributes, and the functions that read them back.

Each `*_widgets(prefix, ...)` draws widgets under keys built from `prefix` by `pages.ui.keys`;
the matching `read_*(prefix, ...)` runs in a callback and turns those keys into the plain value or
attribute the playground expects. Checking them is the playground's job: `Node(...)` raises
SpecError.

A callback reads every widget through `field`: a widget its form did not draw (the form's kind,
operation, entry count or node changed in the same request as the button, from a stale page or a
forged request) is the form's own SpecError, never a KeyError.
"""

from __future__ import annotations

import json

import streamlit as st

from pages.ui import keys
from playground import SpecError, limits
from playground.expr import parse_value
from playground.registry import Attr, OpInfo
from playground.registry.attrs import INTERPOLATE_MODES, KL_REDUCTIONS, PAD_MODES, REDUCTIONS
from playground.spec import GENERATORS

VALUE_MODES = {"number": "Number", "list": "List", "generator": "Generator"}
STALE = ("the form changed as its button was pressed ({what} is not what the page showed); "
         "check the fields and press the button again")


def field(key: str, what: str):
    """The value of widget `key` in a form's callback; SpecError (STALE) when it is not there."""
    if key not in st.session_state:
        raise SpecError(STALE.format(what=what))
    return st.session_state[key]


def number(key: str, what: str, kind: type = float):
    """`field(key)` as a float (or `kind`); SpecError naming `what` when it is not a number."""
    value = field(key, what)
    try:
        if isinstance(value, bool) or value is None:
            raise TypeError
        return kind(value)
    except (TypeError, ValueError, OverflowError):
        raise SpecError(f"{what} must be a number, not {str(value)[:20]!r}") from None


def unchanged(key: str, drawn, what: str) -> None:
    """SpecError (STALE) unless widget `key` still holds `drawn`, the value the form was drawn
    with: a button acts only on the form the page showed."""
    if st.session_state.get(key) != drawn:
        raise SpecError(STALE.format(what=what))


UI_MAX_NDIM = 4  # dimensions offered by the shape widgets; the expression editor allows more


def _ints_widgets(prefix: str, label: str, minimum: int, default: tuple[int, ...]) -> None:
    """A row of whole-number inputs whose count the user picks: a shape or an index."""
    count = st.number_input(
        f"{label}: number of entries", min_value=1, max_value=UI_MAX_NDIM,
        value=len(default) or 1, step=1, key=keys.count(prefix),
    )
    cols = st.columns(UI_MAX_NDIM)
    for i in range(int(count)):
        cols[i].number_input(
            f"{label}[{i}]", min_value=minimum, max_value=limits.MAX_ELEMENTS,
            value=default[i] if i < len(default) else max(minimum, 1), step=1,
            key=keys.entry(prefix, i),
        )


def _read_ints(prefix: str, label: str) -> tuple[int, ...]:
    count = number(keys.count(prefix), f"the number of entries of {label}", int)
    if not 1 <= count <= UI_MAX_NDIM:
        raise SpecError(f"{label} has between 1 and {UI_MAX_NDIM} entries here, not {count}")
    return tuple(number(keys.entry(prefix, i), f"{label}[{i}]", int) for i in range(count))


# --- leaf values ---------------------------------------------------------------------------------


def editable_here(value: object) -> str | None:
    """None if the form's widgets can show `value` (a leaf's canonical value), else why not:
    a generator of more than UI_MAX_NDIM dimensions, or a list longer than a text box takes."""
    if isinstance(value, dict) and len(value["shape"]) > UI_MAX_NDIM:
        return (f"This generator has {len(value['shape'])} dimensions and the form edits up to "
                f"{UI_MAX_NDIM}: change it in the Expression tab.")
    if isinstance(value, list) and len(json.dumps(value)) > limits.MAX_TEXT_CHARS:
        return ("This value is too long to edit in a text box: change it in the Expression tab "
                "or import the graph's JSON.")
    return None


def value_widgets(prefix: str, current: object = 1.0) -> None:
    """A number, a nested list, or a seeded generator such as randn of shape (3, 2).

    `current` (a leaf's canonical value: float, nested list or generator dict, one that
    `editable_here` accepts) fills them in.
    """
    if isinstance(current, dict):
        mode, generator = "generator", current
    else:
        mode, generator = ("list" if isinstance(current, list) else "number"), {}
    mode = st.segmented_control(
        "Value", list(VALUE_MODES), format_func=VALUE_MODES.get, default=mode,
        required=True, key=keys.value_part(prefix, "mode"),
    )
    if mode == "number":
        number = current if isinstance(current, float) else 1.0
        st.number_input("Number", value=number, step=0.5, format="%g",
                        key=keys.value_part(prefix, "number"))
    elif mode == "list":
        st.text_input(
            "Nested list", value=json.dumps(current) if isinstance(current, list) else "",
            placeholder="[[1, 2], [3, 4]]", key=keys.value_part(prefix, "list"),
            max_chars=limits.MAX_TEXT_CHARS,
            help="Rows in brackets, numbers separated by commas, as in Python or NumPy.",
        )
    else:
        names = list(GENERATORS)
        fn = st.selectbox("Generator", names, index=names.index(generator.get("fn", "randn")),
                          key=keys.value_part(prefix, "fn"))
        _ints_widgets(keys.value_part(prefix, "shape"), "shape", 1,
                      tuple(generator.get("shape", (3, 2))))
        if "seed" in GENERATORS[fn]:
            st.number_input("Seed", min_value=0, max_value=limits.MAX_SEED,
                            value=generator.get("seed", 0), step=1,
                            key=keys.value_part(prefix, "seed"))
        if "value" in GENERATORS[fn]:
            st.number_input("Fill value", value=generator.get("value", 0.5), format="%g",
                            key=keys.value_part(prefix, "fill"))


def read_value(prefix: str) -> object:
    """The value the widgets under `prefix` describe (a typed list is read by
    `playground.expr.parse_value`); `Node` checks it."""
    def part(name):
        return keys.value_part(prefix, name)

    mode = field(part("mode"), "the kind of value")
    if mode == "number":
        return number(part("number"), "the number")
    if mode == "list":
        return parse_value(field(part("list"), "the nested list") or "")
    if mode != "generator":
        raise SpecError(STALE.format(what="the kind of value"))
    fn = field(part("fn"), "the generator")
    if fn not in GENERATORS:
        raise SpecError(STALE.format(what="the generator"))
    value: dict = {"fn": fn, "shape": list(_read_ints(part("shape"), "shape"))}
    if "seed" in GENERATORS[fn]:
        value["seed"] = number(part("seed"), "the seed", int)
    if "value" in GENERATORS[fn]:
        value["value"] = number(part("fill"), "the fill value")
    return value


# --- op attributes: one (draw, read) pair per attribute type of playground.registry ---------------


def _draw_bool(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    st.checkbox(attr.name, value=bool(attr.default), key=key)


def _draw_float(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    st.number_input(attr.name, value=float(attr.default), format="%g", key=key)


def _draw_optional_float(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    start = attr.default if attr.suggested is None else attr.suggested
    if st.checkbox(f"set {attr.name}", value=start is not None, key=keys.attr_on(key)):
        st.number_input(attr.name, value=start or 0.0, format="%g", key=key)


def _read_optional_float(key: str, attr: Attr):
    return number(key, attr.name) if st.session_state.get(keys.attr_on(key)) else None


def _draw_dim(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    st.number_input(
        attr.name, min_value=-limits.MAX_NDIM, max_value=limits.MAX_NDIM,
        value=attr.default if attr.default is not None else 0, step=1, key=key,
    )


def _draw_axes(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    default = "all axes" if attr.type == "axis" else "reversed"
    st.multiselect(
        attr.name, list(range(max(len(shape), 1))), key=key,
        placeholder=f"none chosen: {default}",
        help="Pick axes in order; leave empty for the default.",
    )


def _read_axes(key: str, attr: Attr):
    chosen = tuple(field(key, attr.name) or ())
    if attr.type == "axis" and len(chosen) == 1:
        return chosen[0]
    return chosen or None


def _draw_shape(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    _ints_widgets(key, attr.name, -1, shape[:UI_MAX_NDIM] or (1,))


def _draw_index(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    _ints_widgets(key, attr.name, -limits.MAX_ELEMENTS, (0,))


def _read_bool(key: str, attr: Attr):
    return bool(field(key, attr.name))


def _read_float(key: str, attr: Attr):
    return number(key, attr.name)


def _read_int(key: str, attr: Attr):
    return number(key, attr.name, int)


def _read_ints_attr(key: str, attr: Attr):
    return _read_ints(key, attr.name)


def _draw_approximate(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    st.selectbox(attr.name, ["none", "tanh"], key=key)


def _draw_reduction(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    choices = KL_REDUCTIONS if attr.type == "kl_reduction" else REDUCTIONS
    st.selectbox(attr.name, choices, key=key)


def _read_text(key: str, attr: Attr):
    return field(key, attr.name)


def _start(attr: Attr):
    """The value a form offers first: the suggested one, else the default."""
    return attr.default if attr.suggested is None else attr.suggested


def _draw_text(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    st.text_input(attr.name, value=str(_start(attr) or ""), key=key)


def _draw_count(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    st.number_input(attr.name, min_value=0, max_value=limits.MAX_ELEMENTS,
                    value=int(_start(attr) or 0), step=1, key=key)


def _draw_sizes(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    start = _start(attr)
    _ints_widgets(key, attr.name, 0, start if isinstance(start, tuple) else (start or 1,))


def _read_sizes(key: str, attr: Attr):
    """One entry is a piece size, several are the pieces' sizes (as split reads them)."""
    sizes = _read_ints(key, attr.name)
    return sizes[0] if len(sizes) == 1 else sizes


def _optional_unset(key: str, attr: Attr) -> bool:
    """An optional attribute whose default is None and whose "set" box is off (see below)."""
    return (not attr.required and attr.default is None
            and not st.session_state.get(keys.attr_on(key)))


def _draw_size(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    start = _start(attr)
    if not attr.required and attr.default is None and not st.checkbox(
            f"set {attr.name}", value=start is not None, key=keys.attr_on(key)):
        return
    _ints_widgets(key, attr.name, 1, start if isinstance(start, tuple) else (start or 1,))


def _read_size(key: str, attr: Attr):
    return None if _optional_unset(key, attr) else _read_sizes(key, attr)


PADDING_KINDS = ("sizes", "same", "valid")


def _draw_padding(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    if st.selectbox(f"{attr.name}: kind", PADDING_KINDS, key=keys.attr_on(key)) == "sizes":
        _ints_widgets(key, attr.name, 0, (_start(attr),) if isinstance(_start(attr), int)
                      else (0,))


def _read_padding(key: str, attr: Attr):
    kind = field(keys.attr_on(key), attr.name)
    return _read_sizes(key, attr) if kind == "sizes" else kind


def _draw_pads(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    _ints_widgets(key, attr.name, -limits.MAX_ELEMENTS, _start(attr) or (1, 1))


def _draw_mode(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    modes = INTERPOLATE_MODES if attr.type == "interpolate_mode" else PAD_MODES
    st.selectbox(attr.name, modes, key=key)


ATTR_WIDGETS = {
    "bool": (_draw_bool, _read_bool),
    "float": (_draw_float, _read_float),
    "optional_float": (_draw_optional_float, _read_optional_float),
    "dim": (_draw_dim, _read_int),
    "axis": (_draw_axes, _read_axes),
    "axes": (_draw_axes, _read_axes),
    "shape": (_draw_shape, _read_ints_attr),
    "index": (_draw_index, _read_ints_attr),
    "approximate": (_draw_approximate, _read_text),
    "equation": (_draw_text, _read_text),
    "norm_p": (_draw_text, _read_text),
    "sizes": (_draw_sizes, _read_sizes),
    "count": (_draw_count, _read_int),
    "size": (_draw_size, _read_size),
    "padding": (_draw_padding, _read_padding),
    "pads": (_draw_pads, _read_ints_attr),
    "pad_mode": (_draw_mode, _read_text),
    "interpolate_mode": (_draw_mode, _read_text),
    "reduction": (_draw_reduction, _read_text),
    "kl_reduction": (_draw_reduction, _read_text),
}
"""Attribute type (playground.registry.ATTR_TYPES) -> (draw its widget, read its value)."""


def attr_widgets(prefix: str, info: OpInfo, operand_shape: tuple[int, ...]) -> None:
    """One widget per attribute of `info`, in the form its type asks for.

    `operand_shape` (the first operand's) sets the offered axes and the default of a shape.
    """
    for attr in info.attrs:
        draw, _ = ATTR_WIDGETS[attr.type]
        draw(keys.attr(prefix, info.name, attr.name), attr, operand_shape)


def read_attrs(prefix: str, info: OpInfo) -> dict:
    """The attributes the widgets under `prefix` describe, for `Node.operation(..., **attrs)`.

    Attributes left at "none" are left out, so the registry's defaults apply.
    """
    attrs = {}
    for attr in info.attrs:
        _, read = ATTR_WIDGETS[attr.type]
        value = read(keys.attr(prefix, info.name, attr.name), attr)
        if value is not None:
            attrs[attr.name] = value
    return attrs
