"""Web Push subscriptions (issue 45): the server's public VAPID key, and a device's subscription.

A subscription is untrusted input: its endpoint is a URL the server will POST to. Only an endpoint
on one of the push services of ``PUSH_SERVICES`` (scheme, host and port; ``*`` stands for one label
of the host) is taken, with keys that are a P-256 point and a 16-byte secret, in a body of at most
``MAX_BODY`` bytes; anything else is ``422 push_subscription_invalid`` and nothing is stored. A
player has at most ``PUSH_MAX_SUBSCRIPTIONS`` devices subscribed (``409 too_many_subscriptions``).
"""

from __future__ import annotations

import asyncio
import binascii
import fnmatch
from typing import Annotated, Literal, cast
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from backend.push.store import PushRepository, TooManySubscriptions
from backend.push.vapid import VapidKey, b64url_decode
from backend.settings import Settings

from .codes import PushCode
from .deps import CurrentPlayer, api_error, limited

router = APIRouter(prefix="/api")
MAX_BODY = 4096  # bytes: a browser's subscription JSON is about 500


class PushKeyOut(BaseModel):
    public_key: str = Field(description="the VAPID public key (base64url, uncompressed P-256): applicationServerKey")


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(min_length=80, max_length=100)
    auth: str = Field(min_length=16, max_length=40)


class SubscriptionIn(BaseModel):
    """``PushSubscription.toJSON()`` as the browser gives it, and the device's language."""

    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=10, max_length=1024)
    keys: SubscriptionKeys
    lang: Literal["en", "de", "ru"] = "en"


class SubscriptionOut(BaseModel):
    id: int


def _repo(request: Request) -> PushRepository:
    repo = getattr(request.app.state, "push_repo", None)
    if repo is None:
        raise api_error(503, PushCode.PUSH_UNAVAILABLE, "this server sends no notifications")
    return cast(PushRepository, repo)


def _invalid(message: str) -> Exception:
    return api_error(422, PushCode.PUSH_SUBSCRIPTION_INVALID, message)


def allowed_endpoint(endpoint: str, services: list[str]) -> bool:
    """Is ``endpoint`` a URL on one of ``services`` (``scheme://host[:port]``, ``*`` one label)?"""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if (
        parts.username
        or parts.password
        or parts.fragment
        or not parts.hostname
        or parts.scheme not in ("https", "http")
    ):
        return False
    host = parts.hostname.lower()
    for service in services:
        allowed = urlsplit(service)
        if allowed.scheme != parts.scheme or allowed.hostname is None:
            continue
        if (allowed.port or None) != port:
            continue
        pattern = allowed.hostname.lower()
        if host == pattern or ("*" in pattern and fnmatch.fnmatchcase(host, pattern) and "." in host):
            labels, want = host.split("."), pattern.split(".")
            if len(labels) == len(want):
                return True
    return False


def _check_keys(keys: SubscriptionKeys) -> None:
    try:
        point = b64url_decode(keys.p256dh)
        secret = b64url_decode(keys.auth)
    except (binascii.Error, ValueError) as error:
        raise _invalid("the keys are not base64url") from error
    if len(point) != 65 or point[0] != 4:
        raise _invalid("p256dh is not an uncompressed P-256 point")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as error:
        raise _invalid("p256dh is not a point of P-256") from error
    if len(secret) != 16:
        raise _invalid("auth is not a 16-byte secret")


@router.get("/push/key", response_model=PushKeyOut, tags=["push"])
async def push_key(request: Request) -> PushKeyOut:
    """The server's VAPID public key, for ``pushManager.subscribe({applicationServerKey})``."""
    _repo(request)
    key: VapidKey = request.app.state.vapid
    return PushKeyOut(public_key=key.public_key)


@router.post(
    "/me/push-subscriptions",
    status_code=201,
    response_model=SubscriptionOut,
    tags=["push"],
    dependencies=[limited("push")],
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": SubscriptionIn.model_json_schema()}},
        }
    },
)
async def subscribe(request: Request, player: CurrentPlayer) -> SubscriptionOut:
    """Keep this device's subscription: notifications for the player reach it from now on."""
    repo = _repo(request)
    settings: Settings = request.app.state.settings
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY:
            raise _invalid(f"the body is larger than {MAX_BODY} bytes")
    try:
        sub = SubscriptionIn.model_validate_json(bytes(body))
    except ValidationError as error:
        raise _invalid(f"not a push subscription: {error.error_count()} problem(s)") from None
    if not allowed_endpoint(sub.endpoint, settings.push_services):
        raise _invalid("the endpoint is not on a known push service")
    _check_keys(sub.keys)
    try:
        sub_id = await asyncio.to_thread(
            repo.subscribe,
            player.id,
            sub.endpoint,
            sub.keys.p256dh,
            sub.keys.auth,
            sub.lang,
            settings.push_max_subscriptions,
        )
    except TooManySubscriptions:
        raise api_error(
            409,
            PushCode.TOO_MANY_SUBSCRIPTIONS,
            f"{settings.push_max_subscriptions} devices get notifications already; turn them off on one first",
        ) from None
    return SubscriptionOut(id=sub_id)


@router.delete("/me/push-subscriptions", status_code=204, tags=["push"], dependencies=[limited("push")])
async def unsubscribe(
    request: Request,
    player: CurrentPlayer,
    endpoint: Annotated[str, Query(min_length=1, max_length=1024, description="the subscription's endpoint")],
) -> Response:
    """This device gets no more notifications (nothing to do if it had none)."""
    await asyncio.to_thread(_repo(request).unsubscribe, player.id, endpoint)
    return Response(status_code=204)
