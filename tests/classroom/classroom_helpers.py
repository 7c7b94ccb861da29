"""Links of the app's own kind for the classroom's tests."""

from __future__ import annotations

from urllib.parse import urlencode

from playground import parse, presets, share

BASE = "https://class.example/"
CLASSIC = presets.get(presets.DEFAULT_KEY).spec  # a = 2, b = 3, c = a * b, d = c + a


def link(page: str = "graph", spec=CLASSIC, **params: str) -> str:
    query = {"graph": share.encode(spec), **params}
    return BASE + page + "?" + urlencode(query)


def exercise_link(ex: str = "grad:a,b,c", spec=CLASSIC) -> str:
    """The classic graph on Step through with its gradients hidden: a 4, b 2, c 1."""
    return link("backprop", spec, ex=ex)


def vector_exercise_link() -> str:
    spec = parse("x = [1.0, 2.0]\nw = [3.0, -1.0]\nL = sum(x * w)")
    return link("backprop", spec, ex="grad:x")
