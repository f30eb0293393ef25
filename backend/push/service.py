"""Web Push (issue 45): what is notified, and the sender that delivers the outbox.

``Notifications.room_changed`` is told of every committed change of a room of this process (after
the commit, by the actor): it works out the notifications the change brings and hands them to a
task that stores them in the outbox — nothing of this is on the room's path. It notifies

* the person on turn at a turn-based table (R6.3) — unless they have that table open — and keeps a
  reminder due when a quarter of their time is left (dropped at sending if they moved meanwhile);
* every person not at the table when its match ends;
* the invitee of a "Play again" invitation who did not see it in an open lobby (``invited``).

``Pusher`` sends what is due, in every process: a row is sent by the one process that claimed it
(``PushRepository.claim``), encrypted for the subscription (RFC 8291, aes128gcm, by pywebpush),
signed with the server's VAPID key (RFC 8292), with a ``Topic`` per table (a newer notification of
the table replaces an older one not yet delivered) and a TTL no longer than the time left. A push
service that answers 404 or 410 has dropped the subscription: so does the server. A slow or failing
one is tried again later (the wait doubles each time), never holding anything else up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import aiohttp
from pywebpush import WebPusher

from backend.ops import metrics
from backend.rooms.model import RoomState
from backend.rooms.ports import Clock

from .store import Claimed, Outgoing, PushRepository
from .texts import words
from .vapid import VapidKey

log = logging.getLogger(__name__)

END_TTL = timedelta(days=3)  # how long a push service keeps "the match is over" for an offline device
CLAIM_HOLD = timedelta(seconds=60)  # a claimed row another process may take once this passed unsent
MAX_TTL_S = 28 * 86400
TOPIC_CHARS = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True, slots=True)
class PushTiming:
    poll_s: float = 5.0  # how often a process looks for due notifications (at once after enqueuing)
    timeout_s: float = 10.0  # a push service's answer is waited for this long
    retries: int = 5  # sends of one notification before it is given up
    backoff_s: float = 30.0  # the first retry's wait; doubled each time


def topic(room_id: str) -> str:
    """RFC 8030 ``Topic``: at most 32 characters of the URL-safe base64 alphabet, one per table."""
    return TOPIC_CHARS.sub("", room_id)[:32] or "table"


def _names(state: RoomState, player_id: str) -> list[str]:
    return [h.name for h in state.seats if h is not None and h.player_id != player_id]


def _result(state: RoomState, seat: int) -> str:
    match = state.match
    if match is None:
        return "over"
    if match.loser == seat:
        return "lost"
    if match.winner == seat:
        return "won"
    return "shared" if match.winner is None and match.loser is None else "lost"


def notifications(before: RoomState, after: RoomState, now: datetime) -> list[Outgoing]:
    """The notifications a committed change brings (pure: the tests call it with made-up states)."""
    found: list[Outgoing] = []
    per_move = after.options.time_per_move
    turn, deadline = after.turn, after.turn_deadline
    new_turn = deadline is not None and (before.turn_deadline != deadline or before.turn != turn)
    if after.status == "playing" and per_move is not None and turn is not None and new_turn and deadline is not None:
        holder = after.seats[turn]
        if holder is not None and holder.bot_level is None:
            params = {"names": _names(after, holder.player_id), "deadline": deadline.isoformat(), "seat": turn}
            if holder.player_id not in after.present:
                found.append(Outgoing(holder.player_id, "turn", after.id, params, now, deadline))
            found.append(Outgoing(holder.player_id, "reminder", after.id, params, deadline - per_move / 4, deadline))
    if before.status == "playing" and after.status != "playing" and after.match is not None and after.match.over:
        for seat, holder in enumerate(after.seats):
            if holder is None or holder.bot_level is not None or holder.player_id in after.present:
                continue
            params = {"names": _names(after, holder.player_id), "result": _result(after, seat)}
            found.append(Outgoing(holder.player_id, "end", after.id, params, now, now + END_TTL))
    return found


class Pusher:
    """Sends the due notifications of the outbox (one loop per process)."""

    def __init__(self, repo: PushRepository, key: VapidKey, clock: Clock, timing: PushTiming) -> None:
        self._repo = repo
        self._key = key
        self._clock = clock
        self._timing = timing
        self._wake = asyncio.Event()
        self._session: aiohttp.ClientSession | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop().create_task(self._run(), name="push-sender")

    async def stop(self) -> None:
        for task in (self._loop, *self._tasks):
            if task is not None:
                task.cancel()
        if self._session is not None:
            await self._session.close()

    def poke(self) -> None:
        self._wake.set()

    # ------------------------------------------------------------ notifying

    def room_changed(self, before: RoomState, after: RoomState) -> None:
        found = notifications(before, after, self._clock.now())
        if found:
            self._spawn(self.enqueue(found))

    def invited(self, invitee_id: str, room_id: str, code: str, inviter: str, expires_at: datetime) -> None:
        params = {"name": inviter, "code": code}
        item = Outgoing(invitee_id, "invite", room_id, params, self._clock.now(), expires_at)
        self._spawn(self.enqueue([item]))

    async def enqueue(self, items: Sequence[Outgoing]) -> None:
        try:
            if await asyncio.to_thread(self._repo.enqueue, items):
                self.poke()
        except Exception as error:  # the database away: this notification is lost, the game is not
            log.warning("could not queue %d notification(s): %s", len(items), error)

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ sending

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._timing.poll_s)
            self._wake.clear()
            try:
                while await self.round() > 0:
                    pass
            except Exception as error:
                log.warning("the push outbox could not be read: %s", error)

    async def round(self) -> int:
        """Send what is due now; how many were claimed."""
        claimed = await asyncio.to_thread(self._repo.claim, self._clock.now(), CLAIM_HOLD)
        await asyncio.gather(*(self._send(item) for item in claimed))
        return len(claimed)

    async def _still_due(self, item: Claimed) -> bool:
        """A turn's notification or reminder only while that turn is still waiting, as stored."""
        if item.kind not in ("turn", "reminder"):
            return True
        stored = await asyncio.to_thread(self._repo.turn_of, item.room_id)
        if stored is None:
            return False
        status, seat, deadline = stored
        return (
            status == "playing"
            and seat == item.params.get("seat")
            and (deadline is not None and deadline.isoformat() == item.params.get("deadline"))
        )

    async def _send(self, item: Claimed) -> None:
        now = self._clock.now()
        left = None if item.expires_at is None else item.expires_at - now
        if (left is not None and left.total_seconds() < 1) or not await self._still_due(item):
            await asyncio.to_thread(self._repo.sent, item.id)  # no use any more: not sent
            return
        sub = item.subscription
        title, body = words(item.kind, item.params, sub.lang, left if item.kind in ("turn", "reminder") else None)
        code = item.params.get("code")
        url = f"/#/invite/{code}" if item.kind == "invite" and code else f"/#/table/{item.room_id}"
        payload = json.dumps({"title": title, "body": body, "url": url, "tag": item.room_id, "kind": item.kind})
        ttl = MAX_TTL_S if left is None else min(MAX_TTL_S, int(left.total_seconds()))
        headers = {
            "Authorization": self._key.authorization(sub.endpoint),  # the wall clock: push services check it
            "Topic": topic(item.room_id),
            "Urgency": "high" if item.kind in ("turn", "reminder") else "normal",
        }
        status = await self._post(sub.endpoint, sub.p256dh, sub.auth, payload, headers, ttl)
        if status is not None and 200 <= status < 300:
            metrics.PUSHES.labels("sent").inc()
            await asyncio.to_thread(self._repo.sent, item.id)
        elif status in (404, 410):  # the push service dropped the subscription
            metrics.PUSHES.labels("gone").inc()
            await asyncio.to_thread(self._repo.drop, sub.id)
        elif (status is None or status == 429 or status >= 500) and item.attempts + 1 < self._timing.retries:
            metrics.PUSHES.labels("retried").inc()
            wait = timedelta(seconds=self._timing.backoff_s * 2**item.attempts)
            await asyncio.to_thread(self._repo.failed, item.id, now + wait)
        else:
            metrics.PUSHES.labels("failed").inc()
            log.info("a notification was given up (%s) after %d attempt(s)", status, item.attempts + 1)
            await asyncio.to_thread(self._repo.failed, item.id, None)

    async def _post(
        self, endpoint: str, p256dh: str, auth: str, payload: str, headers: dict[str, str], ttl: int
    ) -> int | None:
        """POST the encrypted payload (pywebpush); the push service's status, None if it did not answer."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        pusher = WebPusher(
            {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}, aiohttp_session=self._session
        )
        timeout = aiohttp.ClientTimeout(total=self._timing.timeout_s)
        try:
            answer = await asyncio.wait_for(
                pusher.send_async(data=payload, headers=headers, ttl=ttl, timeout=timeout), self._timing.timeout_s + 1
            )
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            log.info("a push service did not answer: %s", error)
            return None
        return int(answer.status) if not isinstance(answer, str) else None
