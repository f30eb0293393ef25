"""A push service on loopback, as a browser's push service behaves for the tests (issue 45).

It makes each test subscription as a browser would (a P-256 key pair and a 16-byte auth secret: the
``keys`` of ``PushSubscription.toJSON()``), and on every POST to a subscription's endpoint it checks
the request as a real push service does — the VAPID JWT (RFC 8292) signed with the server's public
key (``k=``, which must be the key the server publishes at ``GET /api/push/key``), for this
service's origin, not expired — and then decrypts the payload with the subscription's private key
and secret (RFC 8291, ``aes128gcm``, by ``http_ece``), as the browser would. Each subscription
answers ``status`` (201 unless a test sets 404, 410, 500 …) after ``delay_s``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.support.services import free_port


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    headers: dict[str, str]  # names in lower case
    payload: dict[str, Any]
    claims: dict[str, Any]


@dataclass
class PushSubscriber:
    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    status: int = 201
    delay_s: float = 0.0
    received: list[Received] = field(default_factory=list)
    answered: list[int] = field(default_factory=list)  # every status answered, in order
    consumed: int = 0  # notifications ``next`` returned
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def json(self, lang: str = "en") -> dict[str, Any]:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}, "lang": lang}

    async def next(self, timeout: float = 10) -> Received:
        """The next notification delivered (201) to this subscription that no ``next`` returned yet."""
        seen = self.consumed

        async def wait() -> Received:
            while len(self.received) <= seen:
                self.arrived.clear()
                await self.arrived.wait()
            return self.received[seen]

        found = await asyncio.wait_for(wait(), timeout)
        self.consumed = seen + 1
        return found


class LoopbackPushService:
    def __init__(self) -> None:
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.server_key: str | None = None  # the app's VAPID public key (base64url), once known
        self.subscriptions: dict[str, PushSubscriber] = {}
        self.refused: list[str] = []  # why a request was refused (a bad signature, a wrong key …)
        self._runner: web.AppRunner | None = None

    def subscription(self, name: str) -> PushSubscriber:
        key = ec.generate_private_key(ec.SECP256R1())
        sub = PushSubscriber(name, f"{self.origin}/push/{name}", key, os.urandom(16))
        self.subscriptions[name] = sub
        return sub

    async def start(self) -> LoopbackPushService:
        app = web.Application()
        app.router.add_post("/push/{name}", self._push)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _verify(self, authorization: str) -> dict[str, Any]:
        """RFC 8292: ``vapid t=<JWT>, k=<public key>``; the JWT's ES256 signature by that key."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme == "vapid", authorization
        fields = dict(part.strip().split("=", 1) for part in rest.split(","))
        assert self.server_key is not None and fields["k"] == self.server_key, "not the server's public key"
        header, claims, signature = fields["t"].split(".")
        raw = unb64url(signature)
        assert len(raw) == 64
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
        key.verify(der, f"{header}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
        assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
        decoded: dict[str, Any] = json.loads(unb64url(claims))
        assert decoded["aud"] == self.origin, decoded
        assert time.time() < decoded["exp"] <= time.time() + 24 * 3600, decoded
        assert decoded["sub"].startswith(("mailto:", "https:")), decoded
        return decoded

    async def _push(self, request: web.Request) -> web.Response:
        sub = self.subscriptions.get(request.match_info["name"])
        if sub is None:
            return web.Response(status=404)
        body = await request.read()
        try:
            claims = self._verify(request.headers.get("Authorization", ""))
            assert request.headers.get("Content-Encoding") == "aes128gcm"
            plain = http_ece.decrypt(body, private_key=sub.private_key, auth_secret=sub.auth, version="aes128gcm")
            payload = json.loads(plain)
        except (AssertionError, InvalidSignature, KeyError, ValueError) as error:
            self.refused.append(repr(error))
            return web.Response(status=403, text=repr(error))
        if sub.delay_s:
            await asyncio.sleep(sub.delay_s)
        sub.answered.append(sub.status)
        if sub.status == 201:
            sub.received.append(Received({k.lower(): v for k, v in request.headers.items()}, payload, claims))
            sub.arrived.set()
        return web.Response(status=sub.status)
