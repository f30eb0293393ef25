"""Security headers on every HTTP response the app sends — the client's files, API answers, errors —
so that they hold without the proxy too.

The player's token lives in ``localStorage``: one injected script could take it. The policy allows
only the site's own files (no inline script or style, nothing from elsewhere), sockets to this host
only, and no framing, ``<base>`` or plugins. The REST reference at ``/docs`` is the one page with a
looser policy: FastAPI's Swagger UI comes from a CDN and starts with one inline script, which is
allowed by its hash (docs/operating.md, "Headers").
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# A Host header the policy may quote: a name or an address and a port, nothing that could end a directive.
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$")

_APP_POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
)
_CDN = "https://cdn.jsdelivr.net"

COMMON_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),  # invite and watch links must not leak to other sites
    (
        b"permissions-policy",
        b"accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
        b"payment=(), usb=()",
    ),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def script_hashes(html: str) -> list[str]:
    """The CSP sources that allow the inline scripts of ``html`` (``'sha256-…'``)."""
    found = re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)
    return [f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'" for body in found]


def app_policy(scheme: str, host: str | None) -> str:
    """The client's policy: its sockets go to this host, by the scheme the page came by."""
    socket = "wss" if scheme in ("https", "wss") else "ws"
    connect = "connect-src 'self'" + (f" {socket}://{host}" if host and _HOST.match(host) else "")
    return "; ".join((*_APP_POLICY, connect))


def docs_policy(inline_scripts: Iterable[str]) -> str:
    return "; ".join(
        (
            "default-src 'none'",
            f"script-src {_CDN} {' '.join(inline_scripts)}",
            f"style-src {_CDN}",
            f"img-src 'self' data: {_CDN} https://fastapi.tiangolo.com",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "object-src 'none'",
        )
    )


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response (sockets pass untouched)."""

    def __init__(self, app: ASGIApp, *, docs_path: str | None = None, docs_html: str = "") -> None:
        self.app = app
        self.docs_path = docs_path
        self.docs_policy = docs_policy(script_hashes(docs_html)).encode()
        self._policies: dict[tuple[str, str | None], bytes] = {}

    def _policy(self, scope: Scope) -> bytes:
        if scope["path"] == self.docs_path:
            return self.docs_policy
        host = next((value.decode("latin-1") for name, value in scope["headers"] if name == b"host"), None)
        key = (scope.get("scheme", "http"), host)
        policy = self._policies.get(key)
        if policy is None:
            if len(self._policies) > 1000:  # hosts are few; a client that invents them gets no cache
                self._policies.clear()
            policy = self._policies[key] = app_policy(*key).encode()
        return policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self._policy(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(header for header in COMMON_HEADERS if header[0] not in present)
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", policy))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
