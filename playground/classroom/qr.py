"""The QR code of a class's join link, as a PNG a page shows (segno: pure Python, no Pillow)."""

from __future__ import annotations

import io

import segno


def qr_png(text: str, scale: int = 10) -> bytes:
    """``text`` (a join link) as a QR code PNG, error correction M, with the standard quiet
    zone of 4 modules so phones read it off a projector."""
    code = segno.make(text, error="m", boost_error=False)
    out = io.BytesIO()
    code.save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
