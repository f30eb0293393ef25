"""Several app processes over Redis: room ownership, forwarded commands, delivery and presence.

Each room has exactly one owner process at a time: the one holding its lease, a Redis key
``room:{id}:owner`` set with ``SET NX PX`` and renewed while the owner keeps the room. The
lease is an optimisation for liveness; safety comes from the version compare-and-swap in the
database, so a process that lost its lease can never commit over the new owner's moves.

Messages between processes use Redis **pub/sub**, chosen over streams deliberately:

* ``proc:{id}`` — a process's inbox: commands forwarded to the owner, and their replies;
* ``room:{id}`` — messages the owner addresses to a room's players, delivered by whichever
  process holds each player's socket, plus "this player attached elsewhere" notices;
* ``watch:{id}`` — the owner's spectator message for each version of a room, serialized once and
  sent on by every process that holds spectators of the room (``backend.rooms.watch``);
* ``player:{id}`` — events for one player's lobby stream ("Play again" invitations,
  ``backend.api.lobby_events``), listened to by the processes holding a stream of that player.

Pub/sub keeps nothing: a subscriber that blinks (a Redis restart, a dropped connection) loses
what was published meanwhile. That is acceptable because nothing in it is the source of truth:
states are full views, not diffs, so after (re)subscribing a process asks the owner for a fresh
state for each socket it holds (the same repair as a client's ``hello`` with its last version);
a forwarded command that got no reply is refused with a temporary code and the client resends
it (same id and version), which the owner answers from its action log without applying twice.
Streams would keep a backlog per room that nobody needs to replay, and cost trimming.

Presence lives in Redis too: ``presence:{room}`` maps each connected player to the process
holding the socket, and every process refreshes ``alive:{proc}`` (a key with a short TTL); a
player whose process stopped refreshing is not present. Spectators are counted the same way:
``watchers:{room}`` maps each process to how many it holds, and only living processes count.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from backend.ops import metrics
from backend.ops.logs import ids

from . import commands as cmd
from .codes import CloseCode
from .effects import Refusal
from .model import FreshMatch
from .ports import Connection

log = logging.getLogger(__name__)

LEASE_MS = 4000  # an owner that stops renewing loses its rooms after this long
RENEW_S = 1.0
ALIVE_S = 6  # a process is alive while its key lives
FORWARD_TIMEOUT_S = 5.0
SUBSCRIBED_WITHIN_S = 2.0  # how long a follower waits for Redis to confirm a subscription
POOL_SIZE = 32  # Redis connections per process for commands; a caller waits for a free one
PUBLISH_BATCH = 256

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end
"""
# The lease of an owner that is gone, taken at once instead of waiting for it to lapse.
_TAKE_OVER = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
"""


def _owner_key(room_id: str) -> str:
    return f"room:{room_id}:owner"


# ---------------------------------------------------------------- commands on the wire

_COMMANDS: dict[str, type[Any]] = {
    c.__name__: c
    for c in (
        cmd.Join,
        cmd.Leave,
        cmd.Connect,
        cmd.Disconnect,
        cmd.Hello,
        cmd.PlayCard,
        cmd.Bid,
        cmd.Pass,
        cmd.Discard,
        cmd.Resign,
        cmd.Rematch,
        cmd.Chat,
        cmd.React,
        cmd.MuteReactions,
        cmd.Tick,
        cmd.SetSpectators,
    )
}


def encode_command(command: cmd.Command) -> dict[str, Any]:
    return {"type": type(command).__name__, **asdict(command)}


def decode_command(data: dict[str, Any]) -> cmd.Command:
    fields = dict(data)
    kind = _COMMANDS[fields.pop("type")]
    if "fresh" in fields:
        fields["fresh"] = FreshMatch(**fields["fresh"])
    if "cards" in fields:  # JSON has no tuples
        fields["cards"] = tuple(fields["cards"])
    command: cmd.Command = kind(**fields)
    return command


@dataclass(frozen=True, slots=True)
class Forwarded:
    """What the owner answered to a forwarded command."""

    refusal: Refusal | None
    retry: bool = False  # the receiver no longer owns the room: look again
    gone: bool = False  # nobody listens to the owner's inbox: the process is dead (its lease outlives it)


Handler = Callable[[str, cmd.Command], Awaitable[Forwarded]]


class RedisCluster:
    """This process's membership in the cluster: its inbox, leases, presence and room channels."""

    def __init__(self, url: str) -> None:
        self.id = f"proc_{secrets.token_hex(6)}"
        pool = BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=FORWARD_TIMEOUT_S, decode_responses=True, health_check_interval=5
        )
        self.redis: Redis = Redis(connection_pool=pool)
        # Deliveries leave through one queue and one publisher, in order: two states for a player
        # must never overtake each other on different connections.
        self._outgoing: asyncio.Queue[tuple[str, str, str | None]] = asyncio.Queue()
        self._handler: Handler | None = None
        self._pending: dict[str, asyncio.Future[Forwarded]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._rooms: set[str] = set()  # room channels this process listens to
        self._watched: set[str] = set()  # rooms whose spectator channel this process listens to
        self._players: set[str] = set()  # players whose lobby-stream channel this process listens to
        self._player_lock = asyncio.Lock()
        self._local: dict[str, dict[str, Connection]] = {}  # room → player → socket held here
        self._owned: set[str] = set()
        self.on_lost: Callable[[str], None] = lambda room_id: None  # a lease could not be renewed
        self.on_resubscribed: Callable[[], None] = lambda: None
        # A message to a player could not be published: that player is owed a fresh full state.
        self.on_undelivered: Callable[[str, str], None] = lambda room_id, player_id: None
        # The owner's spectator messages (``watch``/``close``) for rooms watched here.
        self.on_watch: Callable[[str, dict[str, Any]], None] = lambda room_id, message: None
        # This process owns a room and is told how many watch it over the whole cluster.
        self.on_watchers: Callable[[str, int], None] = lambda room_id, count: None
        # An event for a player's lobby stream held here (``player:{id}``).
        self.on_player: Callable[[str, dict[str, Any]], None] = lambda player_id, message: None
        self._pubsub: Any = None
        # Subscriptions as Redis confirmed them on the current pub/sub connection, and who waits for
        # a confirmation: a spectator's state is read only once its room's channel is listened to.
        self._confirmed: set[str] = set()
        self._confirming: dict[tuple[str, str], list[asyncio.Future[None]]] = {}
        self._watch_lock = asyncio.Lock()  # one follow or unfollow at a time, in the order asked

    async def start(self, handler: Handler) -> None:
        """Join the cluster; returns once the inbox is listened to (a process nobody can reach must
        not own a room: the others would take its rooms as those of a dead owner)."""
        self._handler = handler
        inbox = self._expect("subscribe", f"proc:{self.id}")
        self._tasks = [
            asyncio.create_task(self._listen(), name="cluster-listen"),
            asyncio.create_task(self._heartbeat(), name="cluster-heartbeat"),
            asyncio.create_task(self._publisher(), name="cluster-publisher"),
        ]
        await self._confirmation(inbox, FORWARD_TIMEOUT_S)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for room_id in list(self._owned):
            await self.release(room_id)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(f"alive:{self.id}")
            for room_id, players in self._local.items():
                for player_id in players:
                    await self.redis.hdel(f"presence:{room_id}", player_id)
            for room_id in self._watched:
                await self.redis.hdel(f"watchers:{room_id}", self.id)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------ ownership

    async def acquire(self, room_id: str) -> bool:
        if room_id in self._owned:
            return True
        try:
            won = await self.redis.set(_owner_key(room_id), self.id, nx=True, px=LEASE_MS)
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("acquire").inc()
            return False
        if won:
            self._owned.add(room_id)
        return bool(won)

    async def owner(self, room_id: str) -> str | None:
        value = await self.redis.get(_owner_key(room_id))
        return None if value is None else str(value)

    async def take_over(self, room_id: str, gone: str) -> bool:
        """Take the lease of ``gone``, an owner whose inbox nobody listens to (``Forwarded.gone``): a
        process that died holds its lease for up to ``LEASE_MS`` more, and its rooms need an owner
        now. True if this process owns the room now (the lease still named ``gone``).

        A living process never lacks its inbox for long: it subscribes before it owns anything, and
        gives up its rooms while its subscription is lost. Were it wrong, the version
        compare-and-swap in the database still lets only one writer advance the room."""
        if room_id in self._owned:
            return True
        try:
            won = await self.redis.eval(_TAKE_OVER, 1, _owner_key(room_id), gone, self.id, LEASE_MS)
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("acquire").inc()
            return False
        if won:
            self._owned.add(room_id)
            log.info("took over the lease of a dead owner", extra=ids(room=room_id, node=self.id, event="lease_taken"))
        return bool(won)

    async def release(self, room_id: str) -> None:
        self._owned.discard(room_id)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.eval(_RELEASE, 1, _owner_key(room_id), self.id)

    def owns(self, room_id: str) -> bool:
        return room_id in self._owned

    def owned_count(self) -> int:
        return len(self._owned)

    # ------------------------------------------------------------ forwarding

    async def forward(self, owner: str, room_id: str, command: cmd.Command) -> Forwarded:
        request = secrets.token_hex(8)
        done: asyncio.Future[Forwarded] = asyncio.get_running_loop().create_future()
        self._pending[request] = done
        message: dict[str, Any] = {"kind": "command", "req": request, "from": self.id, "room": room_id}
        message["command"] = encode_command(command)
        try:
            receivers = await self.redis.publish(f"proc:{owner}", json.dumps(message))
            if not receivers:
                return Forwarded(None, retry=True, gone=True)  # the owner is gone; its lease is not yet
            return await asyncio.wait_for(done, FORWARD_TIMEOUT_S)
        finally:
            self._pending.pop(request, None)

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
        await self.redis.publish(f"proc:{message['from']}", json.dumps(reply))

    # ------------------------------------------------------------ sockets, delivery, presence

    async def attach(self, room_id: str, player_id: str, connection: Connection) -> Connection | None:
        players = self._local.setdefault(room_id, {})
        previous = players.get(player_id)
        players[player_id] = connection
        if room_id not in self._rooms:
            self._rooms.add(room_id)
            if self._pubsub is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.subscribe(f"room:{room_id}")
        with contextlib.suppress(RedisError, OSError):
            await self.redis.hset(f"presence:{room_id}", player_id, self.id)
            # A socket of this player held by another process is replaced by this one.
            notice = {"kind": "attached", "player": player_id, "proc": self.id}
            await self.redis.publish(f"room:{room_id}", json.dumps(notice))
        return previous if previous is not connection else None

    async def detach(self, room_id: str, player_id: str, connection: Connection) -> bool:
        players = self._local.get(room_id)
        if players is None or players.get(player_id) is not connection:
            return False
        del players[player_id]
        if not players:
            del self._local[room_id]
        with contextlib.suppress(RedisError, OSError):
            # Only if the presence still points here: the player may have moved to another process.
            if await self.redis.hget(f"presence:{room_id}", player_id) == self.id:
                await self.redis.hdel(f"presence:{room_id}", player_id)
        return True

    async def present(self, room_id: str) -> frozenset[str]:
        try:
            found = await self.redis.hgetall(f"presence:{room_id}")
            holders = {str(player): str(proc) for player, proc in found.items()}
            if not holders:
                return frozenset()
            procs = sorted(set(holders.values()))
            alive = await self.redis.mget([f"alive:{proc}" for proc in procs])
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("presence").inc()
            return frozenset(self._local.get(room_id, {}))
        living = {proc for proc, flag in zip(procs, alive, strict=True) if flag}
        return frozenset(player for player, proc in holders.items() if proc in living)

    def deliver(self, room_id: str, player_id: str, text: str) -> None:
        connection = self._local.get(room_id, {}).get(player_id)
        if connection is not None:
            connection.send(text)
            return
        payload = json.dumps({"kind": "deliver", "player": player_id, "text": text})
        self._outgoing.put_nowait((f"room:{room_id}", payload, player_id))

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        for connection in self._local.pop(room_id, {}).values():
            connection.close(code, reason)
        payload = json.dumps({"kind": "close", "code": code, "reason": reason})
        self._outgoing.put_nowait((f"room:{room_id}", payload, None))

    def close_player(self, room_id: str, player_id: str, code: int, reason: str) -> None:
        connection = self._local.get(room_id, {}).get(player_id)
        if connection is not None:
            connection.close(code, reason)
            return
        payload = json.dumps({"kind": "close", "player": player_id, "code": code, "reason": reason})
        self._outgoing.put_nowait((f"room:{room_id}", payload, None))

    def local_players(self) -> list[tuple[str, str]]:
        return [(room_id, player_id) for room_id, players in self._local.items() for player_id in players]

    async def _publisher(self) -> None:
        """Publish queued deliveries in order, many per round trip (a pipeline)."""
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
                        self.on_undelivered(channel[len("room:") :], player_id)

    def _on_room_message(self, room_id: str, message: dict[str, Any]) -> None:
        players = self._local.get(room_id)
        if not players:
            return
        kind = message.get("kind")
        if kind == "deliver":
            connection = players.get(message["player"])
            if connection is not None:
                connection.send(message["text"])
        elif kind == "attached" and message["proc"] != self.id:
            connection = players.pop(message["player"], None)
            if connection is not None:
                connection.close(CloseCode.REPLACED, "replaced by a newer connection")
        elif kind == "close" and "player" in message:
            connection = players.get(message["player"])
            if connection is not None:
                connection.close(message["code"], message["reason"])
        elif kind == "close":
            for connection in self._local.pop(room_id, {}).values():
                connection.close(message["code"], message["reason"])

    # ------------------------------------------------------------ spectators

    async def follow_watch(self, room_id: str) -> None:
        """Listen to the room's spectator channel; returns once Redis has confirmed the subscription
        (or after ``SUBSCRIBED_WITHIN_S``), so that a state read afterwards misses no relayed change."""
        channel = f"watch:{room_id}"
        async with self._watch_lock:
            if room_id in self._watched and channel in self._confirmed:
                return
            subscribed = self._expect("subscribe", channel)
            if room_id not in self._watched:
                self._watched.add(room_id)
                if self._pubsub is not None:  # else the listener subscribes when it is back
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.subscribe(channel)
            await self._confirmation(subscribed, SUBSCRIBED_WITHIN_S)

    async def unfollow_watch(self, room_id: str, wanted: Callable[[], bool] = lambda: False) -> None:
        """Stop listening to the room's spectator channel, unless ``wanted()`` says that a spectator
        of the room arrived here meanwhile."""
        channel = f"watch:{room_id}"
        async with self._watch_lock:
            if room_id not in self._watched or wanted():
                return
            self._watched.discard(room_id)
            self._confirmed.discard(channel)
            unsubscribed = self._expect("unsubscribe", channel)
            with contextlib.suppress(RedisError, OSError):
                await self.redis.hdel(f"watchers:{room_id}", self.id)
                if self._pubsub is not None:
                    await self._pubsub.unsubscribe(channel)
                    await self._confirmation(unsubscribed, SUBSCRIBED_WITHIN_S)
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

    def relay_watch(self, room_id: str, version: int, text: str) -> None:
        """The owner's spectator message, for the spectators other processes hold."""
        payload = json.dumps({"kind": "watch", "from": self.id, "version": version, "text": text})
        self._outgoing.put_nowait((f"watch:{room_id}", payload, None))

    def relay_watch_close(self, room_id: str, code: int, reason: str) -> None:
        payload = json.dumps({"kind": "close", "from": self.id, "code": code, "reason": reason})
        self._outgoing.put_nowait((f"watch:{room_id}", payload, None))

    def relay_watch_reaction(self, room_id: str, text: str) -> None:
        """A quick reaction the owner lets the spectators see (no version: sent on as it comes)."""
        payload = json.dumps({"kind": "reaction", "from": self.id, "text": text})
        self._outgoing.put_nowait((f"watch:{room_id}", payload, None))

    async def count_watchers(self, room_id: str, here: int) -> int:
        """Record how many spectators of the room this process holds; how many watch in all."""
        key = f"watchers:{room_id}"
        if here:
            await self.redis.hset(key, self.id, here)
        else:
            await self.redis.hdel(key, self.id)
        return await self.watcher_total(room_id)

    async def watcher_total(self, room_id: str) -> int:
        """Spectators of the room over every living process."""
        found = await self.redis.hgetall(f"watchers:{room_id}")
        counts = {str(proc): int(count) for proc, count in found.items()}
        if not counts:
            return 0
        procs = sorted(counts)
        alive = await self.redis.mget([f"alive:{proc}" for proc in procs])
        return sum(counts[proc] for proc, flag in zip(procs, alive, strict=True) if flag)

    async def tell_owner_watchers(self, owner: str, room_id: str, count: int) -> None:
        notice = {"kind": "watchers", "room": room_id, "count": count}
        await self.redis.publish(f"proc:{owner}", json.dumps(notice))

    # ------------------------------------------------------------ players' lobby streams

    async def follow_player(self, player_id: str) -> None:
        """Listen to the player's channel; returns once Redis confirmed it (or after
        ``SUBSCRIBED_WITHIN_S``), so that an event published afterwards reaches this process."""
        channel = f"player:{player_id}"
        async with self._player_lock:
            if player_id in self._players and channel in self._confirmed:
                return
            subscribed = self._expect("subscribe", channel)
            if player_id not in self._players:
                self._players.add(player_id)
                if self._pubsub is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.subscribe(channel)
            await self._confirmation(subscribed, SUBSCRIBED_WITHIN_S)

    async def unfollow_player(self, player_id: str, wanted: Callable[[], bool] = lambda: False) -> None:
        """Stop listening to the player's channel, unless ``wanted()`` says a stream came meanwhile."""
        channel = f"player:{player_id}"
        async with self._player_lock:
            if player_id not in self._players or wanted():
                return
            self._players.discard(player_id)
            self._confirmed.discard(channel)
            if self._pubsub is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.unsubscribe(channel)

    async def tell_player(self, player_id: str, message: dict[str, Any]) -> int:
        """Publish an event for the player's lobby streams; how many processes hold one."""
        return int(await self.redis.publish(f"player:{player_id}", json.dumps(message)))

    # ------------------------------------------------------------ the background loops

    async def _listen(self) -> None:
        """Read the inbox and the room channels; after any reconnect, subscribe again and repair."""
        first = True
        while True:
            try:
                self._pubsub = self.redis.pubsub()
                self._confirmed.clear()  # a new connection: nothing is subscribed on it yet
                channels = [f"room:{r}" for r in self._rooms] + [f"watch:{r}" for r in self._watched]
                channels += [f"player:{p}" for p in self._players]
                await self._pubsub.subscribe(f"proc:{self.id}", *channels)
                if not first:
                    self.on_resubscribed()  # messages may have been lost meanwhile: resend full states
                first = False
                async for raw in self._pubsub.listen():
                    kind = raw.get("type")
                    if kind in ("subscribe", "unsubscribe"):
                        self._confirmed_now(kind, str(raw["channel"]))
                    if kind != "message":
                        continue
                    self._dispatch(raw["channel"], json.loads(raw["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, ConnectionError) as error:
                metrics.REDIS_ERRORS.labels("subscribe").inc()
                log.warning("Redis subscription lost (%s); reconnecting", error)
                self._drop_leases()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()

    def _dispatch(self, channel: str, message: dict[str, Any]) -> None:
        if channel == f"proc:{self.id}":
            if message["kind"] == "command":
                asyncio.get_running_loop().create_task(self._answer(message)).add_done_callback(_log_failure)
            elif message["kind"] == "reply":
                done = self._pending.get(message["req"])
                if done is not None and not done.done():
                    refusal = message.get("refusal")
                    done.set_result(
                        Forwarded(
                            None if refusal is None else Refusal(refusal["code"], refusal["message"]), message["retry"]
                        )
                    )
            elif message["kind"] == "watchers":
                self.on_watchers(message["room"], int(message["count"]))
        elif channel.startswith("room:"):
            self._on_room_message(channel[len("room:") :], message)
        elif channel.startswith("watch:") and message.get("from") != self.id:  # the owner served its own
            self.on_watch(channel[len("watch:") :], message)
        elif channel.startswith("player:"):
            self.on_player(channel[len("player:") :], message)

    async def _heartbeat(self) -> None:
        """Keep this process alive, renew the leases of its rooms and drop rooms whose lease is lost."""
        while True:
            try:
                owned = list(self._owned)
                async with self.redis.pipeline(transaction=False) as pipe:  # one round trip for all leases
                    pipe.set(f"alive:{self.id}", "1", ex=ALIVE_S)
                    for room_id in owned:
                        pipe.eval(_RENEW, 1, _owner_key(room_id), self.id, LEASE_MS)
                    results = await pipe.execute()
                for room_id, renewed in zip(owned, results[1:], strict=True):
                    if not renewed and room_id in self._owned:
                        self._owned.discard(room_id)
                        self.on_lost(room_id)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.labels("renew").inc()
                log.warning("Redis unreachable (%s): this process gives up its rooms until it is back", error)
                self._drop_leases()
            await asyncio.sleep(RENEW_S)

    def _drop_leases(self) -> None:
        for room_id in list(self._owned):
            self._owned.discard(room_id)
            self.on_lost(room_id)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a cluster message could not be sent: %s", task.exception())
