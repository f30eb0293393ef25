"""The transport floor for bench/load.py: a bare ASGI WebSocket app served by the same uvicorn.

    uvicorn echo_app:app --app-dir bench --ws-per-message-deflate false

It speaks just enough of the game's message pattern to be compared with it: sockets are grouped
by the last path segment (``/ws/rooms/{room_id}``); every text frame is parsed as JSON and
answered to its sender with ``{"type": "state", "reply_to": <its id>, "pad": …}``, and the same
message with ``reply_to: null`` goes to the other sockets of the group — one answer and one
broadcast per intent, as the real server sends. ``ECHO_PAD_BYTES`` (default 2000) sets the size
of the pad, so the answers can be made as large as the real server's states. No database, no
game, no validation: whatever the real server takes beyond this is its own cost.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]

PAD = "x" * int(os.environ.get("ECHO_PAD_BYTES", "2000"))
groups: dict[str, set[Send]] = {}


async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"echo"})
        return
    if scope["type"] != "websocket":
        return
    group = groups.setdefault(scope["path"].rsplit("/", 1)[-1], set())
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    group.add(send)
    try:
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                return
            text = event.get("text")
            if text is None:
                continue
            msg_id = json.loads(text).get("id")
            await send(
                {"type": "websocket.send", "text": json.dumps({"type": "state", "reply_to": msg_id, "pad": PAD})}
            )
            copy = json.dumps({"type": "state", "reply_to": None, "pad": PAD})
            for other in list(group):
                if other is not send:
                    try:
                        await other({"type": "websocket.send", "text": copy})
                    except Exception:  # that peer is gone
                        group.discard(other)
    finally:
        group.discard(send)
