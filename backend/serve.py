"""Start the server: the one place where uvicorn's options for this app are written down.

``python -m backend.serve [--host H] [--port P] [--migrate] [--no-proxy-headers] [--forwarded-allow-ips IPS]``
``python -m backend.serve --health-check [--port P]``: exit 0 when ``GET /api/health`` answers 200.

``make run`` and the Docker image both start the app this way, so the WebSocket options below cannot
drift apart. ``HOST``, ``PORT`` and ``MIGRATE`` (``1`` or ``0``) in the environment give the defaults
that the command line overrides; ``FORWARDED_ALLOW_IPS`` (or ``--forwarded-allow-ips``, default
``127.0.0.1``) names the proxies whose ``X-Forwarded-For``/``-Proto`` headers are believed. Addresses,
networks and ``*`` go to uvicorn as they are; a host name (``caddy``, the proxy's service in
docker-compose.yml, whose address is known only once its container runs) is resolved here, when the
first request arrives and again whenever a request comes from an address not trusted yet
(``ProxiesByName``), so a proxy recreated with a new address is believed again at once.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from typing import Any

from backend.settings import ROOT, get_settings

APP = "backend.api.app:create_app"

# WebSocket options (docs/architecture.md): per-message deflate off (the frames are small JSON and
# compression costs memory per socket); uvicorn refuses frames over 64 KiB before the app sees them
# (the app closes anything over MAX_FRAME_BYTES with 1009); a ping every 10 s, and a peer that has
# not answered within 15 s is dropped, so a vanished player's seat is noticed quickly (R6.2).
WS_OPTIONS: dict[str, Any] = {
    "ws_per_message_deflate": False,
    "ws_max_size": 65536,
    "ws_ping_interval": 10.0,
    "ws_ping_timeout": 15.0,
}

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = env.get(name)
    if value is None:
        return default
    if value.strip().lower() in TRUE:
        return True
    if value.strip().lower() in FALSE:
        return False
    raise SystemExit(f"{name}={value!r}: expected 1 or 0")


def parse_args(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> argparse.Namespace:
    env = os.environ if env is None else env
    parser = argparse.ArgumentParser(prog="python -m backend.serve", description="Start the 1001 online server.")
    parser.add_argument("--host", default=env.get("HOST", "127.0.0.1"), help="address to bind (env HOST)")
    parser.add_argument("--port", type=int, default=int(env.get("PORT", "8000")), help="port to bind (env PORT)")
    parser.add_argument(
        "--migrate",
        action=argparse.BooleanOptionalAction,
        default=env_flag(env, "MIGRATE", False),
        help="run `alembic upgrade head` before serving (env MIGRATE=1)",
    )
    parser.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="trust X-Forwarded-For/-Proto from --forwarded-allow-ips (uvicorn's default: on)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help=(
            "comma-separated proxies to trust: addresses, networks, host names (resolved here) or '*'"
            " (default: env FORWARDED_ALLOW_IPS, else 127.0.0.1)"
        ),
    )
    parser.add_argument(
        "--health-check",
        action="store_true",
        help="do not serve: GET /api/health of the server on --host/--port, exit 0 if it answers 200, else 1",
    )
    return parser.parse_args(argv)


def uvicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments given to ``uvicorn.run`` besides the app itself."""
    return {
        "factory": True,
        "host": args.host,
        "port": args.port,
        **WS_OPTIONS,
        "proxy_headers": args.proxy_headers,
        "forwarded_allow_ips": args.forwarded_allow_ips,
        # SIGTERM: the app hands its rooms over first (backend/ops/shutdown.py), then uvicorn waits
        # at most this long for the remaining connections before it exits (docs/operating.md).
        "timeout_graceful_shutdown": get_settings().shutdown_timeout_s,
    }


# ------------------------------------------------------------------ proxies named by host name

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Resolver = Callable[[str], Awaitable[frozenset[str]]]

HOST_NAME = re.compile(r"^(?=.*[A-Za-z_])[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$")
log = logging.getLogger("backend.serve")


def is_address(entry: str) -> bool:
    """``*``, an IP address or a network: what uvicorn's ``forwarded_allow_ips`` compares by itself."""
    if entry == "*":
        return True
    try:
        if "/" in entry:
            ipaddress.ip_network(entry, strict=False)
        else:
            ipaddress.ip_address(entry)
    except ValueError:
        return False
    return True


def proxy_entries(args: argparse.Namespace, env: Mapping[str, str]) -> list[str]:
    """The trusted proxies: ``--forwarded-allow-ips``, else ``FORWARDED_ALLOW_IPS``, comma-separated."""
    value = args.forwarded_allow_ips if args.forwarded_allow_ips is not None else env.get("FORWARDED_ALLOW_IPS")
    return [entry.strip() for entry in (value or "").split(",") if entry.strip()]


def proxy_names(entries: Sequence[str]) -> list[str]:
    """The entries that are host names (uvicorn alone would compare them, as text, with the peer's IP)."""
    return [entry for entry in entries if not is_address(entry) and HOST_NAME.match(entry)]


async def resolve(name: str) -> frozenset[str]:
    """Every address of ``name`` (IPv4 and IPv6, without a zone); empty if it does not resolve (yet)."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except OSError:
        return frozenset()
    return frozenset(str(info[4][0]).split("%", 1)[0] for info in infos)


class ProxiesByName:
    """uvicorn's ``ProxyHeadersMiddleware`` for proxies given by host name (``FORWARDED_ALLOW_IPS=caddy``).

    The names are resolved when a request arrives from an address not trusted yet: at once for an
    address not seen since the last lookup, else at most once every ``refresh_s``. So the first request
    resolves them (the proxy's container may start after the app's, whose own health checks looked the
    name up in vain), and a proxy recreated with a new address is believed from its first request on.
    A name that stops resolving keeps its last addresses. Any other client is served as it is, its
    headers ignored."""

    def __init__(
        self, app: ASGIApp, entries: Sequence[str], *, refresh_s: float = 5.0, resolver: Resolver = resolve
    ) -> None:
        self.app = app
        self.names = proxy_names(entries)
        self.fixed = [entry for entry in entries if entry not in self.names]
        self.resolved: dict[str, frozenset[str]] = {}
        self.refresh_s = refresh_s
        self.resolver = resolver
        self.refreshed_at = -float("inf")
        self.seen: set[str] = set()  # untrusted peers since the last lookup
        self.lock = asyncio.Lock()
        self.middleware = self._middleware()

    def _middleware(self) -> Any:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        addresses = sorted(set().union(*self.resolved.values())) if self.resolved else []
        return ProxyHeadersMiddleware(self.app, [*self.fixed, *addresses])  # type: ignore[arg-type]

    def trusts(self, host: str) -> bool:
        return host in self.middleware.trusted_hosts

    def stale(self, host: str) -> bool:
        return host not in self.seen or time.monotonic() - self.refreshed_at >= self.refresh_s

    async def refresh(self, host: str) -> None:
        expired = time.monotonic() - self.refreshed_at >= self.refresh_s
        changed = False
        for name in self.names:
            found = await self.resolver(name)
            if found and found != self.resolved.get(name):
                self.resolved[name] = found
                changed = True
                log.info("forwarded headers believed from %s (%s)", name, ", ".join(sorted(found)))
            elif not found and name not in self.resolved:
                log.info("proxy %s does not resolve yet", name)
        if changed:
            self.middleware = self._middleware()
        # Each peer looked up for once until refresh_s has passed (a bounded set, whoever connects).
        self.seen = {host} if expired or len(self.seen) >= 1024 else {*self.seen, host}
        if expired:
            self.refreshed_at = time.monotonic()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client") if scope["type"] in ("http", "websocket") else None
        host = client[0] if client else None
        if host and not self.trusts(host) and self.stale(host):
            async with self.lock:
                if not self.trusts(host) and self.stale(host):  # another request may have looked it up
                    await self.refresh(host)
        await self.middleware(scope, receive, send)


def app_and_options(args: argparse.Namespace, env: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
    """What ``uvicorn.run`` is given: the app (its import string, or a factory) and its options."""
    options = uvicorn_options(args)
    entries = proxy_entries(args, env)
    if not (args.proxy_headers and proxy_names(entries)):
        return APP, options

    def factory() -> ProxiesByName:
        from backend.api.app import create_app

        return ProxiesByName(create_app(), entries)

    # The names are resolved by ProxiesByName, which takes the place of uvicorn's own middleware.
    return factory, {**options, "proxy_headers": False, "forwarded_allow_ips": None}


def migrate_command() -> list[str]:
    return [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"), "upgrade", "head"]


def health_url(args: argparse.Namespace) -> str:
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{args.port}/api/health"


def health_check(args: argparse.Namespace, timeout: float = 4.0) -> int:
    """The container's health check (Dockerfile, docker-compose.yml): 0 when the server is healthy."""
    try:
        with urllib.request.urlopen(health_url(args), timeout=timeout) as response:
            return 0 if response.status == 200 else 1
    except OSError as error:
        print(f"unhealthy: {error}", file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if args.health_check:
        raise SystemExit(health_check(args))
    if args.migrate:
        # A child process, so Alembic's logging setup stays out of the server's.
        done = subprocess.run(migrate_command(), cwd=ROOT, check=False)
        if done.returncode != 0:
            raise SystemExit(done.returncode)

    import uvicorn

    app, options = app_and_options(args, os.environ)
    uvicorn.run(app, **options)


if __name__ == "__main__":
    main()
