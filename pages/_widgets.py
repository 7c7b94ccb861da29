"""Widgets for a leaf's value and an op's attributes, and the functions that read them back.

Each `*_widgets(prefix, ...)` draws widgets under keys starting with `prefix`; the matching
`read_*(prefix, ...)` runs in a callback and turns those keys into the plain value or attribute
the playground expects. Checking them is the playground's job: `Node(...)` raises SpecError.
"""

from __future__ import annotations

import json

import streamlit as st

from playground import SpecError, limits
from playground.registry import Attr, OpInfo
from playground.spec import GENERATORS

VALUE_MODES = {"number": "Number", "list": "List", "generator": "Generator"}
UI_MAX_NDIM = 4  # dimensions offered by the shape widgets; the expression editor allows more


def _ints_widgets(prefix: str, label: str, minimum: int, default: tuple[int, ...]) -> None:
    """A row of whole-number inputs whose count the user picks: a shape or an index."""
    count = st.number_input(
        f"{label}: number of entries", min_value=1, max_value=UI_MAX_NDIM,
        value=len(default) or 1, step=1, key=f"{prefix}_n",
    )
    cols = st.columns(UI_MAX_NDIM)
    for i in range(int(count)):
        cols[i].number_input(
            f"{label}[{i}]", min_value=minimum, max_value=limits.MAX_ELEMENTS,
            value=default[i] if i < len(default) else max(minimum, 1), step=1,
            key=f"{prefix}_{i}",
        )


def _read_ints(prefix: str) -> tuple[int, ...]:
    count = int(st.session_state[f"{prefix}_n"])
    return tuple(int(st.session_state[f"{prefix}_{i}"]) for i in range(count))


# --- leaf values ---------------------------------------------------------------------------------


def value_widgets(prefix: str) -> None:
    """A number, a nested list, or a seeded generator such as randn of shape (3, 2)."""
    mode = st.segmented_control(
        "Value", list(VALUE_MODES), format_func=VALUE_MODES.get, default="number",
        required=True, key=f"{prefix}_mode",
    )
    if mode == "number":
        st.number_input("Number", value=1.0, step=0.5, format="%g", key=f"{prefix}_number")
    elif mode == "list":
        st.text_input(
            "Nested list", placeholder="[[1, 2], [3, 4]]", key=f"{prefix}_list",
            help="Rows in brackets, numbers separated by commas, as in Python or NumPy.",
        )
    else:
        fn = st.selectbox("Generator", list(GENERATORS), key=f"{prefix}_fn")
        _ints_widgets(f"{prefix}_shape", "shape", 1, (3, 2))
        if "seed" in GENERATORS[fn]:
            st.number_input("Seed", min_value=0, value=0, step=1, key=f"{prefix}_seed")
        if "value" in GENERATORS[fn]:
            st.number_input("Fill value", value=0.5, format="%g", key=f"{prefix}_fill")


def read_value(prefix: str) -> object:
    """The value the widgets under `prefix` describe; `Node` checks it."""
    mode = st.session_state.get(f"{prefix}_mode") or "number"
    if mode == "number":
        return float(st.session_state[f"{prefix}_number"])
    if mode == "list":
        text = (st.session_state.get(f"{prefix}_list") or "").strip()
        if not text:
            raise SpecError("type a list of numbers such as [[1, 2], [3, 4]]")
        return _list_literal(text)
    fn = st.session_state[f"{prefix}_fn"]
    value: dict = {"fn": fn, "shape": list(_read_ints(f"{prefix}_shape"))}
    if "seed" in GENERATORS[fn]:
        value["seed"] = int(st.session_state[f"{prefix}_seed"])
    if "value" in GENERATORS[fn]:
        value["value"] = float(st.session_state[f"{prefix}_fill"])
    return value


def _list_literal(text: str) -> list:
    """A typed nested list of numbers, read as JSON data (never as code)."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, list):
        raise SpecError(
            f"`{text:.40}` is not a list of numbers; write one such as [[1, 2], [3, 4]]"
        )
    return value


# --- op attributes -------------------------------------------------------------------------------


def attr_widgets(prefix: str, info: OpInfo, operand_shape: tuple[int, ...]) -> None:
    """One widget per attribute of `info`, in the form its type asks for.

    `operand_shape` (the first operand's) sets the offered axes and the default of a shape.
    """
    for attr in info.attrs:
        key = f"{prefix}_{info.name}_{attr.name}"
        _attr_widget(key, attr, operand_shape)


def _attr_widget(key: str, attr: Attr, shape: tuple[int, ...]) -> None:
    label, ndim = attr.name, len(shape)
    if attr.type == "choice":
        st.selectbox(label, attr.choices, index=attr.choices.index(attr.default), key=key)
    elif attr.type == "bool":
        st.checkbox(label, value=bool(attr.default), key=key)
    elif attr.type == "float":
        st.number_input(label, value=float(attr.default), format="%g", key=key)
    elif attr.type == "optional_float":
        if st.checkbox(f"set {label}", value=attr.default is not None, key=f"{key}_on"):
            st.number_input(label, value=attr.default or 0.0, format="%g", key=key)
    elif attr.type == "dim":
        st.number_input(
            label, min_value=-limits.MAX_NDIM, max_value=limits.MAX_NDIM,
            value=attr.default if attr.default is not None else 0, step=1, key=key,
        )
    elif attr.type in ("axis", "axes"):
        what = "all axes" if attr.type == "axis" else "reversed"
        st.multiselect(
            label, list(range(max(ndim, 1))), key=key, placeholder=f"none chosen: {what}",
            help="Pick axes in order; leave empty for the default.",
        )
    elif attr.type == "shape":
        _ints_widgets(key, label, -1, shape[:UI_MAX_NDIM] or (1,))
    elif attr.type == "index":
        _ints_widgets(key, label, -limits.MAX_ELEMENTS, (0,))
    else:
        raise ValueError(f"no widget for attribute type {attr.type!r}")


def read_attrs(prefix: str, info: OpInfo) -> dict:
    """The attributes the widgets under `prefix` describe, for `Node.operation(..., **attrs)`."""
    attrs = {}
    for attr in info.attrs:
        key = f"{prefix}_{info.name}_{attr.name}"
        if attr.type in ("shape", "index"):
            attrs[attr.name] = _read_ints(key)
        elif attr.type in ("axis", "axes"):
            chosen = tuple(st.session_state.get(key) or ())
            if chosen:
                attrs[attr.name] = chosen[0] if attr.type == "axis" and len(chosen) == 1 else chosen
        elif attr.type == "optional_float":
            if st.session_state.get(f"{key}_on"):
                attrs[attr.name] = float(st.session_state[key])
        elif attr.type == "dim":
            attrs[attr.name] = int(st.session_state[key])
        else:
            attrs[attr.name] = st.session_state[key]
    return attrs
