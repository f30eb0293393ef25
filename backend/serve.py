"""Start the server: the one place where uvicorn's options for this app are written down.

``python -m backend.serve [--host H] [--port P] [--migrate] [--no-proxy-headers] [--forwarded-allow-ips IPS]``
``python -m backend.serve --health-check [--port P]``: exit 0 when ``GET /api/health`` answers 200.

``make run`` and the Docker image both start the app this way, so the WebSocket options below cannot
drift apart. ``HOST``, ``PORT`` and ``MIGRATE`` (``1`` or ``0``) in the environment give the defaults
that the command line overrides; ``FORWARDED_ALLOW_IPS`` is read by uvicorn itself (default
``127.0.0.1``): the proxies whose ``X-Forwarded-For``/``-Proto`` headers are believed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import urllib.request
from collections.abc import Mapping, Sequence
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
        help="comma-separated proxy addresses to trust, or '*' (default: env FORWARDED_ALLOW_IPS, else 127.0.0.1)",
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

    uvicorn.run(APP, **uvicorn_options(args))


if __name__ == "__main__":
    main()
