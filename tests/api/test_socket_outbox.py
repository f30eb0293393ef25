"""The socket's outbox, the last step before the wire: a room's states reach a client in version
order, whatever copy of the room sent them (a stale copy may answer for a moment after a lease
moved in a cluster: tests/cluster/test_cluster.py, the Redis restart)."""

from __future__ import annotations

from typing import Any, cast

from starlette.websockets import WebSocket

from backend.api.ws import SocketOutbox


class Wire:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def test_a_state_older_than_one_sent_is_dropped_and_other_messages_pass() -> None:
    wire = Wire()
    outbox = SocketOutbox(cast(WebSocket, cast(Any, wire)))
    outbox.send("state 11", 11)
    outbox.send("state 12", 12)
    outbox.send("rejected", None)  # a refusal, chat, presence: not states, never held back
    outbox.send("state 10", 10)  # a stale copy's answer: the client keeps 12
    outbox.send("state 12 again", 12)  # the same version once more (presence, a reply): passes
    outbox.send("state 13", 13)
    await outbox.finish()
    assert wire.texts == ["state 11", "state 12", "rejected", "state 12 again", "state 13"]
