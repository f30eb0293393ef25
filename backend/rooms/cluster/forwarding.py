"""Commands forwarded to a room's owner over the owners' inboxes (``proc:{id}``), and their replies.

A forwarded command that gets no reply is refused with a temporary code and the client resends it
(same id and version), which the owner answers from its action log without applying it twice.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .. import commands as cmd
from ..effects import Refusal
from .link import FORWARD_TIMEOUT_S, RedisLink
from .wire import decode_command, encode_command

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Forwarded:
    """What the owner answered to a forwarded command."""

    refusal: Refusal | None
    retry: bool = False  # the receiver no longer owns the room: look again
    gone: bool = False  # nobody listens to the owner's inbox: the process is dead (its lease outlives it)


Handler = Callable[[str, cmd.Command], Awaitable[Forwarded]]


class Forwarding:
    def __init__(self, link: RedisLink) -> None:
        self._link = link
        self._handler: Handler | None = None
        self._pending: dict[str, asyncio.Future[Forwarded]] = {}
        link.route_inbox("command", self._on_command)
        link.route_inbox("reply", self._on_reply)

    def serve(self, handler: Handler) -> None:
        """Commands forwarded to this process are carried out by ``handler``."""
        self._handler = handler

    async def forward(self, owner: str, room_id: str, command: cmd.Command) -> Forwarded:
        request = secrets.token_hex(8)
        done: asyncio.Future[Forwarded] = asyncio.get_running_loop().create_future()
        self._pending[request] = done
        message: dict[str, Any] = {"kind": "command", "req": request, "from": self._link.id, "room": room_id}
        message["command"] = encode_command(command)
        try:
            if not await self._link.publish(f"proc:{owner}", message):
                return Forwarded(None, retry=True, gone=True)  # the owner is gone; its lease is not yet
            return await asyncio.wait_for(done, FORWARD_TIMEOUT_S)
        finally:
            self._pending.pop(request, None)

    def _on_command(self, message: dict[str, Any]) -> None:
        asyncio.get_running_loop().create_task(self._answer(message)).add_done_callback(_log_failure)

    async def _answer(self, message: dict[str, Any]) -> None:
        assert self._handler is not None
        try:
            answer = await self._handler(message["room"], decode_command(message["command"]))
        except Exception:
            log.exception("a forwarded command failed in room %s", message["room"])
            answer = Forwarded(Refusal("server_error", "the command could not be carried out; try again"))
        reply: dict[str, Any] = {"kind": "reply", "req": message["req"], "retry": answer.retry}
        if answer.refusal is not None:
            reply["refusal"] = {"code": answer.refusal.code, "message": answer.refusal.message}
        await self._link.publish(f"proc:{message['from']}", reply)

    def _on_reply(self, message: dict[str, Any]) -> None:
        done = self._pending.get(message["req"])
        if done is not None and not done.done():
            refusal = message.get("refusal")
            done.set_result(
                Forwarded(None if refusal is None else Refusal(refusal["code"], refusal["message"]), message["retry"])
            )


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a cluster message could not be sent: %s", task.exception())
