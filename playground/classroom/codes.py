"""Join codes, teacher keys, student passes and nicknames: what a room hands out and reads back.

A join code is 6 characters from 32 that cannot be mistaken for one another when read aloud or
typed on a phone (no 0/O, no 1/I): 32**6, about a billion codes, drawn by `secrets`. A room's
teacher key and a student's pass are 32 random bytes each (URL-safe text); the database keeps
only their SHA-256, so a copy of it cannot act as anybody. Keys this long need no slow hash: no
one can try 2**256 of them.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import re
import secrets
import unicodedata

from .. import limits
from .errors import Refused

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The join code's characters: digits and capitals without 0, O, 1 and I."""
CODE_LENGTH = 6
KEY_BYTES = 32
_NICKNAME = r"[\w .'\-]*"  # letters and digits of any script, space and - _ . '


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: object) -> str:
    """A typed join code as stored: capitals, without spaces or dashes; Refused when it cannot
    be one (so a wrong code costs no database look-up)."""
    if not isinstance(text, str):
        raise Refused("a join code is text, such as K7M2QX")
    code = re.sub(r"[\s\-]", "", text[: CODE_LENGTH * 4]).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise Refused(f"a join code is {CODE_LENGTH} letters and digits, such as K7M2QX "
                      "(never 0, O, 1 or I)")
    return code


def new_key() -> str:
    """A teacher key or a student pass: 43 URL-safe characters."""
    return secrets.token_urlsafe(KEY_BYTES)


def digest(key: object) -> str:
    """What the database keeps of a key: its SHA-256 in hex (a non-text key gets one that
    matches nothing)."""
    if not isinstance(key, str) or len(key) > 200:
        return "-"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def same_digest(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("ascii"), b.encode("ascii"))


def client_bucket(client: object) -> str:
    """A client's address as a rate-limit bucket: hashed, so the table keeps no addresses."""
    text = client if isinstance(client, str) and client else "unknown"
    return hashlib.sha256(text[:200].encode("utf-8")).hexdigest()[:32]


def normalise_nickname(text: object) -> str | None:
    """A nickname as shown to the teacher, or None for none; Refused over the limit or with
    characters other than letters, digits, spaces and - _ . '."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise Refused("a nickname is text")
    if len(text) > limits.MAX_NICKNAME_CHARS * 4:
        raise Refused(f"a nickname is longer than {limits.MAX_NICKNAME_CHARS} characters")
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        return None
    if len(name) > limits.MAX_NICKNAME_CHARS:
        raise Refused(f"a nickname is longer than {limits.MAX_NICKNAME_CHARS} characters")
    if not re.fullmatch(_NICKNAME, name):
        raise Refused("a nickname has letters, digits, spaces and - _ . ' only")
    return name


def client_address(peer: object, forwarded_for: object, trusted: str = "") -> str:
    """The address the rate limits count for a request: the peer's, or, when the peer is a proxy
    we trust (on this machine, as deploy/serve.sh's nginx, or in `trusted`: addresses and
    networks such as "10.0.0.0/8", comma-separated), the address that proxy added last to
    X-Forwarded-For, and so on through trusted proxies from the right (the earlier entries are
    whatever the browser claimed)."""
    networks = []
    for item in trusted.split(","):
        with contextlib.suppress(ValueError):
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
    address = peer if isinstance(peer, str) and peer else "unknown"
    hops = forwarded_for.split(",") if isinstance(forwarded_for, str) else []
    while hops and _is_trusted(address, networks):
        hop = hops.pop().strip()[:64]
        if not hop:
            break
        address = hop
    return address


def _is_trusted(address: str, networks: list) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.is_loopback or any(ip in network for network in networks)
