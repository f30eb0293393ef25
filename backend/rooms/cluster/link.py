"""One process's link to Redis: its id, the command pool, the one pub/sub listener and the publisher.

Every other part of the cluster talks through this link: it says which channels it listens to
(``listen``, or ``follow`` to wait for Redis's confirmation), registers a handler for a channel
prefix (``route``) or for a kind of message in the process's inbox (``route_inbox``), and queues
what it publishes (``publish_later``). After a lost subscription the listener subscribes to every
channel again and calls ``on_resubscribed``: whatever was published meanwhile is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from backend.ops import metrics

log = logging.getLogger(__name__)

FORWARD_TIMEOUT_S = 5.0  # how long a forwarded command waits for its reply (and a caller for a connection)
POOL_SIZE = 32  # Redis connections per process for commands; a caller waits for a free one
PUBLISH_BATCH = 256

Route = Callable[[str, dict[str, Any]], None]  # (the channel's key, the message)
InboxRoute = Callable[[dict[str, Any]], None]


class RedisLink:
    def __init__(self, url: str) -> None:
        self.id = f"proc_{secrets.token_hex(6)}"
        self.inbox = f"proc:{self.id}"
        pool = BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=FORWARD_TIMEOUT_S, decode_responses=True, health_check_interval=5
        )
        self.redis: Redis = Redis(connection_pool=pool)
        # Messages leave through one queue and one publisher, in order: two states for a player
        # must never overtake each other on different connections. (channel, payload, the player
        # owed a fresh state if it is lost)
        self._outgoing: asyncio.Queue[tuple[str, str, str | None]] = asyncio.Queue()
        self._channels: set[str] = set()  # listened to besides the inbox, subscribed again after a reconnect
        self._routes: dict[str, Route] = {}
        self._inbox_routes: dict[str, InboxRoute] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        # Subscriptions as Redis confirmed them on the current pub/sub connection, and who waits for
        # a confirmation: a spectator's state is read only once its room's channel is listened to.
        self._confirmed: set[str] = set()
        self._confirming: dict[tuple[str, str], list[asyncio.Future[None]]] = {}
        self.on_resubscribed: list[Callable[[], None]] = []  # after a reconnect: what was lost is repaired
        self.on_subscription_lost: Callable[[], None] = lambda: None
        # A message for a player could not be published: (its channel, the player).
        self.on_undelivered: Callable[[str, str], None] = lambda channel, player_id: None

    def route(self, prefix: str, handler: Route) -> None:
        """Messages on ``{prefix}:{key}`` go to ``handler(key, message)``."""
        self._routes[prefix] = handler

    def route_inbox(self, kind: str, handler: InboxRoute) -> None:
        """Messages of ``kind`` in this process's inbox go to ``handler``."""
        self._inbox_routes[kind] = handler

    async def start(self) -> None:
        """Listen and publish; returns once the inbox is listened to (a process nobody can reach must
        not own a room: the others would take its rooms as those of a dead owner)."""
        inbox = self._expect("subscribe", self.inbox)
        self._tasks = [
            asyncio.create_task(self._listen(), name="cluster-listen"),
            asyncio.create_task(self._publisher(), name="cluster-publisher"),
        ]
        await self._confirmation(inbox, FORWARD_TIMEOUT_S)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------ channels

    def listening(self, channel: str) -> bool:
        return channel in self._channels

    def reachable(self) -> bool:
        """Is this process's inbox listened to, as Redis confirmed on the current connection? A
        process nobody can reach must not take a room: a command forwarded to it would find nobody,
        and its sender would take the room over as a dead owner's (two owners)."""
        return self.inbox in self._confirmed

    async def listen(self, channel: str) -> None:
        """Listen to ``channel`` from now on, without waiting for Redis to confirm it."""
        if channel in self._channels:
            return
        self._channels.add(channel)
        if self._pubsub is not None:  # else the listener subscribes when it is back
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.subscribe(channel)

    async def follow(self, channel: str, within: float) -> None:
        """Listen to ``channel``; returns once Redis has confirmed the subscription (or after
        ``within`` seconds), so that a message published afterwards reaches this process."""
        if channel in self._channels and channel in self._confirmed:
            return
        subscribed = self._expect("subscribe", channel)
        if channel not in self._channels:
            self._channels.add(channel)
            if self._pubsub is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.subscribe(channel)
        await self._confirmation(subscribed, within)

    async def unfollow(self, channel: str, within: float | None = None) -> None:
        """Stop listening to ``channel``; with ``within``, wait (that long at most) for Redis to confirm."""
        self._channels.discard(channel)
        self._confirmed.discard(channel)
        if self._pubsub is None:
            return
        unsubscribed = None if within is None else self._expect("unsubscribe", channel)
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.unsubscribe(channel)
            if unsubscribed is not None and within is not None:
                await self._confirmation(unsubscribed, within)
        if unsubscribed is not None:
            self._drop_expected(unsubscribed)

    def _expect(self, kind: str, channel: str) -> asyncio.Future[None]:
        """A future that Redis's confirmation of ``kind`` (``subscribe``/``unsubscribe``) of
        ``channel`` resolves; made before the command is sent, so that a quick answer is not missed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if kind == "subscribe" and channel in self._confirmed:
            done.set_result(None)
        else:
            self._confirming.setdefault((kind, channel), []).append(done)
        return done

    async def _confirmation(self, done: asyncio.Future[None], timeout: float) -> None:
        try:
            await asyncio.wait_for(asyncio.shield(done), timeout)
        except TimeoutError:
            log.warning("Redis did not confirm a subscription change in time")
        finally:
            self._drop_expected(done)

    def _drop_expected(self, done: asyncio.Future[None]) -> None:
        for key, waiting in list(self._confirming.items()):
            if done in waiting:
                waiting.remove(done)
                if not waiting:
                    del self._confirming[key]

    def _confirmed_now(self, kind: str, channel: str) -> None:
        if kind == "subscribe":
            self._confirmed.add(channel)
        else:
            self._confirmed.discard(channel)
        for done in self._confirming.pop((kind, channel), []):
            if not done.done():
                done.set_result(None)

    # ------------------------------------------------------------ publishing

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Publish now; how many processes listen to ``channel``."""
        return int(await self.redis.publish(channel, json.dumps(message)))

    def publish_later(self, channel: str, payload: str, owed: str | None = None) -> None:
        """Queue ``payload`` for ``channel``; if it is lost, the player ``owed`` is told of again."""
        self._outgoing.put_nowait((channel, payload, owed))

    async def _publisher(self) -> None:
        """Publish queued messages in order, many per round trip (a pipeline)."""
        while True:
            batch = [await self._outgoing.get()]
            while len(batch) < PUBLISH_BATCH and not self._outgoing.empty():
                batch.append(self._outgoing.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, payload, _ in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.labels("publish").inc()
                log.warning("%d message(s) could not be published: %s", len(batch), error)
                for channel, _, player_id in batch:
                    if player_id is not None:  # that player is owed a fresh full state
                        self.on_undelivered(channel, player_id)

    # ------------------------------------------------------------ listening

    async def _listen(self) -> None:
        """Read the inbox and every channel; after any reconnect, subscribe again and repair."""
        first = True
        while True:
            try:
                self._pubsub = self.redis.pubsub()
                self._confirmed.clear()  # a new connection: nothing is subscribed on it yet
                await self._pubsub.subscribe(self.inbox, *self._channels)
                if not first:
                    for repair in self.on_resubscribed:  # messages may have been lost meanwhile
                        repair()
                first = False
                async for raw in self._pubsub.listen():
                    kind = raw.get("type")
                    if kind in ("subscribe", "unsubscribe"):
                        self._confirmed_now(kind, str(raw["channel"]))
                    if kind != "message":
                        continue
                    self._dispatch(str(raw["channel"]), json.loads(raw["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, ConnectionError) as error:
                metrics.REDIS_ERRORS.labels("subscribe").inc()
                log.warning("Redis subscription lost (%s); reconnecting", error)
                self._confirmed.clear()  # unreachable until Redis confirms the inbox again
                self.on_subscription_lost()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()

    def _dispatch(self, channel: str, message: dict[str, Any]) -> None:
        if channel == self.inbox:
            handler = self._inbox_routes.get(str(message.get("kind")))
            if handler is not None:
                handler(message)
            return
        prefix, _, key = channel.partition(":")
        route = self._routes.get(prefix)
        if route is not None:
            route(key, message)
