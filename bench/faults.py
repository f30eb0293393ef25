"""Three faults under load, and what every player was told (issue 44, docs/reliability.md "Faults").

Several app processes share a PRIVATE PostgreSQL cluster (initdb in a temporary folder, its own port;
the shared PostgreSQL is used only where no initdb is found, and then only the PostgreSQL fault is
left out) and a PRIVATE redis-server on its own port; everything on the loopback interface. Rooms
of two-hand 1001 are played by outside clients written from docs/protocol.md: a ping every 3 s, a
reconnect to another process when an answer is 8 s late, an intent in flight resent with the same id
and version after `unavailable`, `server_error`, `database_unavailable`, `redis_unavailable` or
`rate_limited`, about one move a second per room. With intents in flight each time:

  (a) Redis is killed (SIGKILL) and started again, empty, 2 s later;
  (b) the process owning the most rooms is stopped (SIGSTOP) for twice the lease, then SIGCONT;
  (c) PostgreSQL is stopped `-m immediate` and started again.

A trigger on ``rooms`` records every version advance and every takeover (lease token) in order
(on a schema before migration 0013, without tokens, every token reads 0). At
the end every intent's answers are checked against the action log, and printed as the goal counts:
lost, doubled, answered both ways, refused but stored, written by a fenced process, connected
players shown away or held by an absence clock, unanswered intents, HTTP 500s, stuck rooms, and the
first move of each room after each fault's end.

    .venv/bin/python bench/faults.py --rooms 120 --processes 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from backend.api.codes import PROTOCOL  # noqa: E402
from backend.rooms.cluster import LEASE_MS  # noqa: E402
from tests.support.services import RedisServer, ServerProcess, free_port  # noqa: E402

RESEND = frozenset({"unavailable", "server_error", "database_unavailable", "redis_unavailable", "rate_limited"})
PING_S = 3.0
ANSWER_LATE_S = 8.0
RESEND_PAUSE_S = 0.3
NO_PRIVATE_POSTGRES = 77  # the exit status without initdb (the test skips, or fails under REQUIRE_SERVICES=1)


# ---------------------------------------------------------------- private services


def _initdb() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]) if found else None


class PrivatePostgres:
    """A PostgreSQL cluster of its own in a temporary folder, on its own port (never 5432)."""

    def __init__(self, folder: Path) -> None:
        initdb = _initdb()
        assert initdb is not None
        self.bin = initdb.parent
        self.folder = folder / "pg"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.folder.mkdir(parents=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres")
            shutil.chown(folder, "postgres")
        self._run("initdb", "-D", str(self.folder / "data"), "-A", "trust", "-U", "postgres", "--no-sync")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True, cwd=self.folder)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-o", options, "-l", str(self.folder / "pg.log"), "-w", "start"
        )

    def stop_immediately(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")


AUDIT = [
    "CREATE TABLE fault_audit (id bigserial PRIMARY KEY, room_id text, version int, lease int, claim bool)",
    """CREATE FUNCTION fault_audit() RETURNS trigger AS $$ BEGIN
         IF to_jsonb(NEW) - 'updated_at' <> to_jsonb(OLD) - 'updated_at' THEN
           INSERT INTO fault_audit (room_id, version, lease, claim) VALUES (NEW.id, NEW.version,
             COALESCE((to_jsonb(NEW)->>'lease_token')::int, 0), NEW.version = OLD.version);
         END IF;
         RETURN NEW; END $$ LANGUAGE plpgsql""",
    "CREATE TRIGGER fault_audit AFTER UPDATE ON rooms FOR EACH ROW EXECUTE FUNCTION fault_audit()",
]


# ---------------------------------------------------------------- the clients


@dataclass
class Intent:
    id: int
    version: int
    message: dict[str, Any]
    sent_at: float
    answers: list[str] = field(default_factory=list)


@dataclass
class Tally:
    http_500: int = 0
    accepted_at: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


class SeatClient:
    """One player's seat, as docs/protocol.md describes a client."""

    def __init__(
        self, name: str, token: str, player_id: str, room_id: str, servers: list[ServerProcess], tally: Tally
    ) -> None:
        self.name, self.token, self.player_id, self.room_id = name, token, player_id, room_id
        self.servers = servers
        self.server = random.randrange(len(servers))
        self.tally = tally
        self.socket: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.intents: dict[int, Intent] = {}
        self.pending: Intent | None = None
        self.next_id = 1
        self.moving = True
        self.changed = asyncio.Event()
        self.last_heard = time.monotonic()

    async def run(self, pace_s: float, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(Exception):  # the socket or the process went away: another one
                await self._session(pace_s, stop)
            if not stop.is_set():
                self.server = (self.server + 1) % len(self.servers)  # another process
                await asyncio.sleep(0.5)
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()

    async def _ticket(self) -> str | None:
        url = self.servers[self.server].url
        async with httpx.AsyncClient(timeout=10) as client:
            answer = await client.post(f"{url}/api/socket-ticket", headers={"Authorization": f"Bearer {self.token}"})
        if answer.status_code >= 500 and answer.status_code != 503:
            self.tally.http_500 += 1
        return answer.json()["ticket"] if answer.status_code == 201 else None

    async def _session(self, pace_s: float, stop: asyncio.Event) -> None:
        ticket = await self._ticket()
        if ticket is None:
            return
        url = f"{self.servers[self.server].ws_url}/ws/rooms/{self.room_id}?ticket={ticket}&protocol={PROTOCOL}"
        async with connect(url, compression=None, max_size=2**20, open_timeout=10) as socket:
            self.socket = socket
            self.last_heard = time.monotonic()
            reader = asyncio.create_task(self._read(socket))
            try:
                if self.pending is not None:  # the intent in flight, resent on the new socket
                    await self._send(self.pending)
                while not stop.is_set() and not reader.done():
                    await self._step(pace_s)
            finally:
                reader.cancel()
                self.socket = None

    async def _step(self, pace_s: float) -> None:
        now = time.monotonic()
        pending = self.pending
        if pending is not None and now - pending.sent_at > ANSWER_LATE_S:
            raise ConnectionError("an answer is late: another process")
        if pending is None and self.moving and self._my_turn():
            await asyncio.sleep(random.uniform(0.5, 1.5) * pace_s)
            if self.pending is None and self.moving and self._my_turn():
                assert self.state is not None
                play = random.choice(self.state["view"]["legal"])
                message = {
                    "type": "play",
                    "id": self.next_id,
                    "version": self.state["version"],
                    "card": play["card"],
                    "declare": play["declare"] is not None,
                }
                self.next_id += 1
                intent = Intent(message["id"], message["version"], message, now)
                self.intents[intent.id] = intent
                self.pending = intent
                await self._send(intent)
            return
        if now - self.last_heard > PING_S:
            assert self.socket is not None
            await self.socket.send('{"type":"ping"}')
            self.last_heard = now
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), 0.5)

    def _my_turn(self) -> bool:
        view = (self.state or {}).get("view")
        return bool(view and view.get("legal") and view.get("winner") is None)

    async def _send(self, intent: Intent) -> None:
        assert self.socket is not None
        intent.sent_at = time.monotonic()
        await self.socket.send(json.dumps(intent.message))

    async def _read(self, socket: ClientConnection) -> None:
        async for raw in socket:
            message = json.loads(raw)
            self.last_heard = time.monotonic()
            kind = message.get("type")
            if kind == "state":
                if self.state is None or message["version"] >= self.state["version"]:
                    self.state = message
                reply = message.get("reply_to")
                if reply is not None and reply in self.intents:
                    self.intents[reply].answers.append("accepted")
                    self.tally.accepted_at[self.room_id].append(time.monotonic())
                    if self.pending is not None and self.pending.id == reply:
                        self.pending = None
            elif kind == "rejected" and message.get("id") in self.intents:
                intent = self.intents[message["id"]]
                intent.answers.append(message["code"])
                if self.pending is intent:
                    if message["code"] in RESEND:
                        asyncio.get_running_loop().call_later(RESEND_PAUSE_S, self._resend, socket, intent)
                    else:
                        self.pending = None
            self.changed.set()

    def _resend(self, socket: ClientConnection, intent: Intent) -> None:
        if self.pending is intent and self.socket is socket:
            intent.sent_at = time.monotonic()
            asyncio.get_running_loop().create_task(socket.send(json.dumps(intent.message)))


# ---------------------------------------------------------------- the run


@dataclass
class Result:
    figures: dict[str, Any]
    goals: dict[str, int]


def _process_ids(servers: list[ServerProcess]) -> dict[str, ServerProcess]:
    found = {}
    for server in servers:
        with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
            found[httpx.get(f"{server.url}/api/health", timeout=5).json()["process"]] = server
    return found


def _busiest_owner(redis_url: str, servers: list[ServerProcess]) -> ServerProcess:
    import redis

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    owners = Counter(client.get(key) for key in client.scan_iter("room:*:owner"))
    client.close()
    by_id = _process_ids(servers)
    for owner, _ in owners.most_common():
        if owner in by_id:
            return by_id[owner]
    return servers[0]


async def _setup_rooms(servers: list[ServerProcess], rooms: int, tally: Tally) -> list[SeatClient]:
    seats: list[SeatClient] = []
    async with httpx.AsyncClient(timeout=30) as client:

        async def one(number: int) -> list[SeatClient]:
            made = []
            base = servers[number % len(servers)].url
            for name in ("Anna", "Ben"):
                created = (await client.post(f"{base}/api/players", json={"name": f"{name}{number}"})).json()
                made.append(created)
            headers = {"Authorization": f"Bearer {made[0]['token']}"}
            room = (await client.post(f"{base}/api/rooms", json={}, headers=headers)).json()
            joined = await client.post(
                f"{base}/api/invites/{room['invite_code']}/join",
                headers={"Authorization": f"Bearer {made[1]['token']}"},
            )
            joined.raise_for_status()
            return [SeatClient(p["name"], p["token"], p["id"], room["id"], servers, tally) for p in made]

        for start in range(0, rooms, 20):
            for pair in await asyncio.gather(*(one(n) for n in range(start, min(rooms, start + 20)))):
                seats.extend(pair)
    return seats


async def run(
    folder: Path,
    *,
    rooms: int,
    processes: int,
    pace_s: float = 1.0,
    warm_s: float = 8.0,
    recover_s: float = 12.0,
    settle_s: float = 30.0,
) -> Result:
    redis_server = RedisServer(folder)
    redis_server.start()
    postgres = PrivatePostgres(folder) if _initdb() is not None else None
    servers: list[ServerProcess] = []
    tally = Tally()
    faults: list[tuple[str, float]] = []  # (fault, monotonic time of its end)
    try:
        assert postgres is not None  # ``main`` checked
        postgres.start()
        from backend.db.migrate import upgrade

        upgrade(postgres.url)
        engine = create_engine(postgres.url, pool_pre_ping=True)  # its connections outlive the crash
        with engine.begin() as connection:
            for statement in AUDIT:
                connection.execute(text(statement))
        env = {"REDIS_URL": redis_server.url, "BOT_DELAY_S": "0", "HOUSEKEEPING_INTERVAL_S": "0"}
        servers = [ServerProcess(postgres.url, folder / f"app{i}.log", **env) for i in range(processes)]
        for server in servers:
            server.start(timeout=120)
        seats = await _setup_rooms(servers, rooms, tally)
        stop = asyncio.Event()
        tasks = [asyncio.create_task(seat.run(pace_s, stop)) for seat in seats]
        await asyncio.sleep(warm_s)

        # (a) Redis: SIGKILL, empty again 2 s later
        redis_server.stop()
        await asyncio.sleep(2)
        redis_server.start()
        faults.append(("redis", time.monotonic()))
        await asyncio.sleep(recover_s)

        # (b) the busiest owner paused for twice the lease
        paused = _busiest_owner(redis_server.url, servers)
        assert paused.process is not None
        paused.process.send_signal(signal.SIGSTOP)
        await asyncio.sleep(2 * LEASE_MS / 1000)
        paused.process.send_signal(signal.SIGCONT)
        faults.append(("pause", time.monotonic()))
        await asyncio.sleep(recover_s)

        # (c) PostgreSQL: stopped -m immediate, started again
        await asyncio.to_thread(postgres.stop_immediately)
        await asyncio.to_thread(postgres.start)
        faults.append(("postgres", time.monotonic()))
        await asyncio.sleep(recover_s)

        # settle: no new intents; what is in flight is answered (resent as a client does)
        for seat in seats:
            seat.moving = False
        deadline = time.monotonic() + settle_s
        while any(seat.pending for seat in seats) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(2 * 2.0 + 1)  # two sweeps: a connected player the sweep would take for gone shows
        shown_away = await _shown_away(seats)
        # read while every socket is still open: the clients' sockets closing at the stop rightly
        # start clocks for whoever is left waiting (R6.2), which are not the server's fault
        clocks = await asyncio.to_thread(_held_while_connected, engine, seats)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        figures, goals = _judge(engine, seats, tally, faults, shown_away, clocks)
        engine.dispose()
        return Result(figures, goals)
    finally:
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()
        redis_server.stop()
        if postgres is not None:
            postgres.stop()


async def _shown_away(seats: list[SeatClient]) -> int:
    """Players whose socket is open but whom a seat's latest state shows away (after a `hello`)."""
    for seat in seats:
        if seat.socket is not None:
            with contextlib.suppress(Exception):
                await seat.socket.send('{"type":"hello"}')
    await asyncio.sleep(2)
    connected = {(seat.room_id, seat.player_id) for seat in seats if seat.socket is not None}
    away = 0
    for seat in seats:
        if seat.socket is None or seat.state is None:
            continue
        for player in seat.state["room"]["players"]:
            if player and (seat.room_id, player["id"]) in connected and not player["connected"]:
                away += 1
    return away


def _held_while_connected(engine: Any, seats: list[SeatClient]) -> list[dict[str, Any]]:
    """The absence clocks (R6.2) running for players whose socket is open now, with the room's
    lease token (to tell a clock a fenced owner wrote)."""
    connected = {(seat.room_id, seat.player_id) for seat in seats if seat.socket is not None}
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT d.room_id, d.seat, s.player_id, d.deadline, r.lease_token FROM room_deadlines d "
                "JOIN rooms r ON r.id = d.room_id "
                "JOIN room_seats s ON s.room_id = d.room_id AND s.seat = d.seat "
                "WHERE d.kind = 'absence' ORDER BY d.room_id, d.seat"
            )
        ).all()
    return [
        {"room": room, "seat": seat, "deadline": str(deadline), "lease_now": lease}
        for room, seat, player, deadline, lease in rows
        if (room, player) in connected
    ]


def _judge(
    engine: Any,
    seats: list[SeatClient],
    tally: Tally,
    faults: list[tuple[str, float]],
    shown_away: int,
    clocks: list[dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, int]]:
    room_ids = sorted({seat.room_id for seat in seats})
    with engine.connect() as connection:
        logged = connection.execute(
            text(
                "SELECT r.id, a.seat, a.client_msg_id, a.room_version FROM actions a "
                "JOIN matches m ON m.id = a.match_id JOIN rooms r ON r.id = m.room_id"
            )
        ).all()
        rooms = {row[0]: (row[1], row[2]) for row in connection.execute(text("SELECT id, version, status FROM rooms"))}
        audit = connection.execute(text("SELECT room_id, version, lease, claim FROM fault_audit ORDER BY id")).all()
        seat_of = {
            (row[0], row[1]): row[2]
            for row in connection.execute(text("SELECT room_id, player_id, seat FROM room_seats"))
        }
    stored: Counter[tuple[str, int, int]] = Counter()
    versions: dict[str, list[int]] = defaultdict(list)
    for room_id, seat, msg_id, version in logged:
        versions[room_id].append(version)
        if msg_id is not None:
            stored[(room_id, seat, msg_id)] += 1
    lost = doubled = both = refused_stored = unanswered = accepted = 0
    for seat in seats:
        seat_number = seat_of.get((seat.room_id, seat.player_id))
        for intent in seat.intents.values():
            key = (seat.room_id, seat_number, intent.id)
            finals = [code for code in intent.answers if code != "accepted" and code not in RESEND]
            was_accepted = "accepted" in intent.answers
            accepted += was_accepted
            lost += was_accepted and stored[key] == 0  # type: ignore[index]
            both += was_accepted and bool(finals)
            refused_stored += bool(finals) and not was_accepted and stored[key] > 0  # type: ignore[index]
            unanswered += not was_accepted and not finals
    doubled = sum(count - 1 for count in stored.values() if count > 1)
    gaps = sum(
        1
        for room_id in versions
        if sorted(versions[room_id])
        != list(range(min(versions[room_id]), min(versions[room_id]) + len(versions[room_id])))
    )
    fenced = 0
    highest: dict[str, int] = {}
    for room_id, _, lease, claim in audit:
        if claim:
            highest[room_id] = max(highest.get(room_id, 0), lease)
        elif lease < highest.get(room_id, 0):
            fenced += 1  # a version advanced under a token older than one claimed before it
    last_fault = faults[-1][1] if faults else 0.0
    stuck = 0
    for room_id in room_ids:
        moved_late = any(at > last_fault for at in tally.accepted_at.get(room_id, []))
        finished = rooms.get(room_id, (0, ""))[1] == "finished"
        shown = {seat.state["version"] for seat in seats if seat.room_id == room_id and seat.state is not None}
        if not finished and (not moved_late or shown != {rooms[room_id][0]}):
            stuck += 1
    first_moves: dict[str, dict[str, float]] = {}
    for name, ended in faults:
        per_room = []
        for room_id in room_ids:
            after = [at - ended for at in tally.accepted_at.get(room_id, []) if at > ended]
            if after:
                per_room.append(min(after))
        first_moves[name] = {
            "first": round(min(per_room), 2) if per_room else float("nan"),
            "median_room": round(statistics.median(per_room), 2) if per_room else float("nan"),
            "slowest_room": round(max(per_room), 2) if per_room else float("nan"),
            "rooms_moved": len(per_room),
        }
    goals = {
        "lost": lost,
        "doubled": doubled,
        "version_gaps": gaps,
        "answered_both_ways": both,
        "refused_but_stored": refused_stored,
        "written_by_fenced_process": fenced,
        "connected_shown_away": shown_away,
        "absence_clocks": len(clocks),
        "unanswered": unanswered,
        "http_500": tally.http_500,
        "stuck_rooms": stuck,
    }
    figures = {
        "rooms": len(room_ids),
        "moves_accepted": accepted,
        "logged_actions": len(logged),
        "first_move_after_s": first_moves,
        "absence_clock_rows": clocks,  # which seat of which room, to read why
    }
    return figures, goals


@contextlib.contextmanager
def _folder(keep: Path | None = None) -> Iterator[Path]:
    """A scratch folder for the private services and the app processes; with ``keep``, their logs
    are copied there before it goes (to read why a goal count is not 0)."""
    path = Path(tempfile.mkdtemp(prefix="faults-"))
    try:
        yield path
    finally:
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for log in path.glob("*.log"):
                shutil.copy(log, keep / log.name)
        shutil.rmtree(path, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=120)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a room's moves (about)")
    parser.add_argument("--recover", type=float, default=12.0, help="seconds of play after each fault")
    parser.add_argument("--warm", type=float, default=8.0, help="seconds of play before the first fault")
    parser.add_argument("--settle", type=float, default=30.0, help="at most this long for intents in flight at the end")
    parser.add_argument("--logs", type=Path, help="copy the app processes' and PostgreSQL's logs to this folder")
    args = parser.parse_args()
    if _initdb() is None:
        print("no initdb under /usr/lib/postgresql: the faults need a private PostgreSQL cluster", file=sys.stderr)
        sys.exit(NO_PRIVATE_POSTGRES)
    started = time.monotonic()
    with _folder(args.logs) as folder:
        result = asyncio.run(
            run(
                folder,
                rooms=args.rooms,
                processes=args.processes,
                pace_s=args.pace,
                warm_s=args.warm,
                recover_s=args.recover,
                settle_s=args.settle,
            )
        )
    load = os.getloadavg()
    print(
        json.dumps(
            {
                "goals": result.goals,
                **result.figures,
                "seconds": round(time.monotonic() - started),
                "load_average": [round(x, 2) for x in load],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
