"""A graceful restart on SIGTERM, bounded in time.

uvicorn installs its own SIGTERM handler (stop accepting, close sockets with 1012, run the
lifespan's shutdown, exit). ``install`` wraps it: the first SIGTERM first runs ``drain`` — the
rooms hand themselves over and every game socket is told 1012 "reconnect now, elsewhere"
(``Rooms.drain``) — for at most ``timeout`` × 0.6 seconds, then hands the signal to uvicorn. A
second SIGTERM goes to uvicorn at once, and a watchdog ends the process ``timeout`` seconds after
the first one whatever still runs. While draining, ``DrainGate`` answers ``/api/health`` with 503
(a proxy or orchestrator stops sending traffic) and refuses new socket handshakes with 503, so a
proxy retries them on another replica.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

Drain = Callable[[], Awaitable[None]]
DRAIN_SHARE = 0.6  # of the whole time allowed, for handing rooms over; the rest for uvicorn's own shutdown


def install(loop: asyncio.AbstractEventLoop, drain: Drain, timeout: float) -> bool:
    """Wrap the running server's SIGTERM handler; False if there is none to wrap (not the main
    thread, or no server installed one: then nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    previous = signal.getsignal(signal.SIGTERM)
    if not callable(previous):
        return False
    started = threading.Event()

    def handler(sig: int, frame: FrameType | None) -> None:
        if started.is_set():
            previous(sig, frame)  # a second SIGTERM: no more waiting
            return
        started.set()
        watchdog = threading.Timer(timeout, _give_up)
        watchdog.daemon = True
        watchdog.start()
        loop.call_soon_threadsafe(lambda: loop.create_task(_drain_then_exit(drain, timeout, previous, sig, frame)))

    signal.signal(signal.SIGTERM, handler)
    return True


async def _drain_then_exit(
    drain: Drain, timeout: float, previous: Callable[[int, FrameType | None], Any], sig: int, frame: FrameType | None
) -> None:
    log.info("SIGTERM: handing the rooms over, then exiting", extra={"event": "shutdown"})
    try:
        await asyncio.wait_for(drain(), timeout * DRAIN_SHARE)
    except TimeoutError:
        log.warning("the rooms were not all handed over in time; exiting anyway")
    except Exception:
        log.exception("handing the rooms over failed; exiting anyway")
    finally:
        previous(sig, frame)


def _give_up() -> None:
    log.warning("the server did not stop in time after SIGTERM: exiting now")
    logging.shutdown()
    os._exit(1)


class DrainGate:
    """ASGI middleware: while the app drains, the health check fails and new sockets are refused."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        rooms = getattr(getattr(scope.get("app"), "state", None), "rooms", None)
        if rooms is not None and rooms.draining:
            body = b'{"status":"draining"}'
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            if scope["type"] == "websocket":
                if "websocket.http.response" in scope.get("extensions", {}):
                    # A 503 to the handshake lets a proxy try the other replica at once
                    # (deploy/nginx.conf: proxy_next_upstream http_503).
                    await send({"type": "websocket.http.response.start", "status": 503, "headers": headers})
                    await send({"type": "websocket.http.response.body", "body": body})
                else:
                    await send({"type": "websocket.close", "code": 1012, "reason": "server restarting"})
                return
            if scope["type"] == "http" and scope["path"] == "/api/health":
                await send({"type": "http.response.start", "status": 503, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
