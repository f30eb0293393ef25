"""The server's VAPID identity (RFC 8292): its key pair, the public key the browsers subscribe with
(``applicationServerKey``) and the signed ``Authorization`` header of each push request."""

from __future__ import annotations

import base64
import time
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

CLAIM_TTL_S = 12 * 3600  # a signed header is good for this long (RFC 8292 allows at most 24 h)


def new_private_pem() -> str:
    """A fresh P-256 private key as PEM text (made on first start, then kept)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class VapidKey:
    """The key pair from PEM text, or from the raw 32-byte private key in base64url (as
    ``VAPID_PRIVATE_KEY`` may give it: the format of most Web Push tools)."""

    def __init__(self, private: str, subject: str) -> None:
        text = private.strip()
        if text.startswith("-----BEGIN"):
            self._vapid = Vapid02.from_pem(text.encode("ascii"))
        else:
            self._vapid = Vapid02.from_raw(text.encode("ascii"))
        self.subject = subject
        point = self._vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url(point)  # the browser's applicationServerKey

    def authorization(self, endpoint: str, now: float | None = None) -> str:
        """The ``Authorization: vapid t=…, k=…`` header for a push to ``endpoint``."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int((now if now is not None else time.time()) + CLAIM_TTL_S),
            "sub": self.subject,
        }
        return str(self._vapid.sign(claims)["Authorization"])
