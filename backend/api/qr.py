"""QR codes for sign-in links, drawn by segno (a pure-Python QR encoder) as a small SVG document."""

from __future__ import annotations

import io

import segno


def qr_svg(text: str, title: str) -> str:
    """``text`` as a QR code: a standalone SVG (with its namespace, so it works as an <img> data: URL),
    black modules on white with the quiet zone the standard asks for."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, scale=4, border=4, dark="#000", light="#fff", title=title)
    return out.getvalue().decode("utf-8")
