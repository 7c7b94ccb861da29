"""Share links: a GraphSpec as a short URL-safe string, and back, with the same checks as JSON.

encode: compact JSON -> zlib (level 9) -> URL-safe base64 without padding, behind the prefix
``v1.`` that names the format. decode undoes each step under a size bound (a small link cannot
inflate into gigabytes) and ends in ``GraphSpec.from_json``; anything wrong with the string is
a SpecError, never another exception.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Callable

from . import limits
from .errors import SpecError
from .spec import GraphSpec

PREFIX = "v1."
"""Starts every link this version writes; a different version is refused with a clear message."""

_BODY = r"[A-Za-z0-9_-]*"  # patterns are plain strings: re caches them
_VERSION = r"(v\d+)\."
_DAMAGED = "the share link is damaged (cut short or changed); copy the whole link again"


def encode(spec: GraphSpec) -> str:
    """``spec`` as a share-link string such as ``v1.eNqrVi...``."""
    packed = zlib.compress(spec.to_json().encode("utf-8"), 9)
    return PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode(text: str) -> GraphSpec:
    """The spec inside a share-link string; SpecError when it is damaged, foreign or too big.

    Reads every version of link the playground ever wrote (READERS), so a link made today
    keeps opening after the format changes (tests/playground/test_share_pinned.py pins some).
    """
    if not isinstance(text, str):
        raise SpecError(f"a share link is text, not {type(text).__name__}")
    text = text.strip()
    if len(text) > limits.MAX_SHARE_CHARS:
        raise SpecError(
            f"the share link has {len(text):,} characters, more than the limit of "
            f"{limits.MAX_SHARE_CHARS:,}; share the graph as a JSON file instead"
        )
    version = re.match(_VERSION, text)
    if version is None:
        raise SpecError(f"this is not a share link; a share link starts with {PREFIX}")
    reader = READERS.get(version.group(1))
    if reader is None:
        raise SpecError(
            f"this share link was made by another version of the playground "
            f"({version.group(1)}); this one reads {', '.join(READERS)} links"
        )
    return reader(text[version.end():])


def _read_v1(body: str) -> GraphSpec:
    """A v1 link's body: URL-safe base64 of zlib of the spec's JSON document (version 1)."""
    if not re.fullmatch(_BODY, body):
        raise SpecError(
            "the share link holds characters that links never contain; copy the whole link again"
        )
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise SpecError(_DAMAGED) from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, limits.MAX_JSON_CHARS + 1)
    except zlib.error:
        raise SpecError(_DAMAGED) from None
    if len(raw) > limits.MAX_JSON_CHARS or inflater.unconsumed_tail:
        raise SpecError(
            f"the share link unpacks to more than {limits.MAX_JSON_CHARS:,} bytes, more than any "
            "graph the playground accepts"
        )
    if not inflater.eof or inflater.unused_data:
        raise SpecError(_DAMAGED)
    try:
        document = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError(_DAMAGED) from None
    return GraphSpec.from_json(document)


READERS: dict[str, Callable[[str], GraphSpec]] = {"v1": _read_v1}
"""Link version (the text before the first dot) -> the reader of its body. Every version the
playground ever wrote stays here: a new format adds its reader (and PREFIX moves to it), and the
old readers keep turning old links into specs of the new format."""
