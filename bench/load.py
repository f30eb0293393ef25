"""Load benchmark: many rooms of two scripted socket clients playing legal moves at a set pace.

    python bench/load.py --rooms 300 --seconds 60 --think 1.0 [--client-procs 2] [--warmup 5]
                         [--target 1001] [--database sqlite|postgres] [--no-echo] [--json out.json]
                         [--profile DIR [--profile-name NAME]]
    python bench/load.py --rooms 1000 --find-saturation [--step-seconds 8] [--database ...]
    python bench/load.py --memory 1000,5000 [--step-seconds 8] [--database ...]

It starts its own uvicorn server (the real app, SQLite in a temporary folder by default, the
production rate limit, uvicorn's default WebSocket ping interval), registers 2 × rooms players
and sets up the rooms concurrently over REST, then opens two sockets per room from
``--client-procs`` client processes. Every room plays legal moves — the seat on turn waits
``think`` × U(0.5, 1.5) seconds, sends its intent and times the round trip to the state that
answers it — for ``--seconds`` after ``--warmup``. A finished match is followed by a rematch.

Printed: moves per second, the p50/p90/p99/max round trip from intent to new state, errors by
kind, the server's memory (RSS from /proc) per room and its CPU use, the server's own figures over
the measured window read from its Prometheus metrics (``METRICS=1``, ``/metrics``: moves stored per
second, intent and commit latency from the histograms, refusals by code, Redis and database
errors, live rooms and sockets; summed over processes with ``--processes``), and the client processes'
CPU use (when a client process nears 100 % of a core, the figures measure the clients, not the
server). Then the same client pattern runs against bench/echo_app.py, a bare uvicorn WebSocket
app answering with messages as large as the real states, and the ratio of the two is printed.

``--profile DIR`` records a py-spy flame graph (SVG) of the server during the measured window
(``pip install -e '.[profile]'``). ``--find-saturation`` keeps one server and its rooms and
shortens the think time step by step until the p99 round trip passes 100 ms, then prints the
moves per second sustained before that, the echo app's likewise. ``--memory 1000,5000`` sets up
that many rooms on one server, plays each count for a short while and prints the RSS per room at
each and the growth per room added between them, side by side with the echo app.
Traffic stays on the loopback interface, and the run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing as mp
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout, uninstalled

import httpx  # noqa: E402

from backend.api.codes import PROTOCOL  # noqa: E402
from tests.support.services import RedisServer, ServerProcess, database, free_port  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
SERVER_ENV = {"METRICS": "1"}  # /metrics on loopback (no token needed there): the server-side figures
ANSWER_TIMEOUT = 10.0


# ------------------------------------------------------------------ the machine


def raise_open_files() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


# ------------------------------------------------------------------ the server's own figures (/metrics)

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(urls: list[str]) -> Samples:
    """Every sample of every process's /metrics, summed over the processes."""
    from prometheus_client.parser import text_string_to_metric_families

    total: Samples = {}
    for url in urls:
        answer = httpx.get(f"{url}/metrics", timeout=10)
        answer.raise_for_status()
        for family in text_string_to_metric_families(answer.text):
            for sample in family.samples:
                key = (sample.name, tuple(sorted(sample.labels.items())))
                total[key] = total.get(key, 0.0) + sample.value
    return total


def _summed(samples: Samples, name: str, by: str | None = None) -> dict[str, float]:
    """``name``'s samples summed over every label but ``by``."""
    out: dict[str, float] = {}
    for (sample, labels), value in samples.items():
        if sample == name:
            key = dict(labels).get(by, "") if by else ""
            out[key] = out.get(key, 0.0) + value
    return out


def histogram_quantile(before: Samples, after: Samples, name: str, q: float) -> float | None:
    """The q-quantile (0..1) of a histogram's observations between two scrapes, interpolated
    within its bucket as Prometheus's ``histogram_quantile`` does; None without observations."""
    buckets = _summed(after, f"{name}_bucket", "le")
    earlier = _summed(before, f"{name}_bucket", "le")
    counts = sorted((float(le), count - earlier.get(le, 0.0)) for le, count in buckets.items())
    if not counts or counts[-1][1] <= 0:
        return None
    rank = q * counts[-1][1]
    lower, below = 0.0, 0.0
    for upper, cumulative in counts:
        if cumulative >= rank:
            if upper == float("inf"):
                return lower
            return lower + (upper - lower) * (rank - below) / max(cumulative - below, 1e-9)
        lower, below = upper, cumulative
    return lower


def server_figures(before: Samples, after: Samples, seconds: float) -> dict[str, Any]:
    def grew(name: str, by: str | None = None) -> dict[str, float]:
        earlier = _summed(before, name, by)
        return {k: v - earlier.get(k, 0.0) for k, v in _summed(after, name, by).items() if v - earlier.get(k, 0.0)}

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "moves_per_s": round(sum(grew("thousand_moves_total").values()) / seconds, 1),
        "intent_p50_ms": ms(histogram_quantile(before, after, "thousand_intent_seconds", 0.5)),
        "intent_p99_ms": ms(histogram_quantile(before, after, "thousand_intent_seconds", 0.99)),
        "commit_p50_ms": ms(histogram_quantile(before, after, "thousand_commit_seconds", 0.5)),
        "commit_p99_ms": ms(histogram_quantile(before, after, "thousand_commit_seconds", 0.99)),
        "refusals": {code: int(n) for code, n in grew("thousand_refusals_total", "code").items()},
        "redis_errors": int(sum(grew("thousand_redis_errors_total").values())),
        "db_errors": int(sum(grew("thousand_db_errors_total").values())),
        # the gauges as the measured window began (at the end the clients are already leaving)
        "rooms_live": int(_summed(before, "thousand_rooms_live").get("", 0)),
        "sockets_open": int(_summed(before, "thousand_sockets_open").get("", 0)),
    }


# ------------------------------------------------------------------ setting the rooms up (REST)


async def setup_rooms(base_url: str, rooms: int, target: int, concurrency: int = 32) -> list[dict[str, Any]]:
    """2 × rooms players, rooms tables, every table joined: all concurrently, ``concurrency`` at a time."""
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as http:

        async def call(method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with gate:
                answer = await http.request(method, path, headers=headers, **kwargs)
            answer.raise_for_status()
            return answer.json()

        async def table(i: int) -> dict[str, Any]:
            anna, ben = await asyncio.gather(
                call("POST", "/api/players", json={"name": f"A{i}"}),
                call("POST", "/api/players", json={"name": f"B{i}"}),
            )
            room = await call("POST", "/api/rooms", anna["token"], json={"target": target})
            await call("POST", f"/api/rooms/{room['id']}/join", ben["token"])
            return {"room_id": room["id"], "tokens": [anna["token"], ben["token"]]}

        return list(await asyncio.gather(*(table(i) for i in range(rooms))))


# ------------------------------------------------------------------ the client processes


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)  # seconds, measured window only
    forwarded_rtts: list[float] = field(default_factory=list)  # --processes: intents sent to a non-owner
    sent: int = 0
    answered: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    received_bytes: int = 0
    received_states: int = 0
    watch_states: int = 0  # --spectators: watch_state messages the spectators received
    watch_bytes: int = 0


async def watch_read(socket: Any, stats: Stats) -> None:
    """A spectator: counts the watch_state messages it is sent (it sends nothing)."""
    with contextlib.suppress(Exception):
        async for raw in socket:
            if '"type":"watch_state"' in raw[:40]:
                stats.watch_states += 1
                stats.watch_bytes += len(raw)


class Conn:
    """One socket: keeps the latest state and hands answers to whoever waits for their id."""

    def __init__(self, socket: Any, stats: Stats) -> None:
        self.socket = socket
        self.stats = stats
        self.forwarded = False  # --processes: this socket is on a process that does not own the room
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.waiters: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.closed = False

    async def read(self) -> None:
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    self.stats.received_bytes += len(raw)
                    self.stats.received_states += 1
                    self.state = message
                    self.changed.set()
                    key = message.get("reply_to")
                elif kind == "rejected":
                    key = message.get("id")
                else:
                    continue
                waiter = self.waiters.pop(key, None) if key is not None else None
                if waiter is not None and not waiter.done():
                    waiter.set_result(message)
        except Exception:
            pass
        finally:
            self.closed = True
            self.changed.set()
            for waiter in self.waiters.values():
                if not waiter.done():
                    waiter.set_exception(ConnectionError("socket closed"))

    async def ask(self, message: dict[str, Any]) -> tuple[dict[str, Any], float]:
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiters[message["id"]] = waiter
        started = time.perf_counter()
        await self.socket.send(json.dumps(message, separators=(",", ":")))
        answer = await asyncio.wait_for(waiter, ANSWER_TIMEOUT)
        return answer, time.perf_counter() - started

    async def until(self, predicate: Any) -> None:
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while not predicate():
            if self.closed:
                raise ConnectionError("socket closed")
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no state")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)


async def play_room(
    conns: list[Conn], mode: str, think: float, start: float, measure_from: float, stop: float, rng: random.Random
) -> None:
    """One room: the seat on turn thinks, then moves; rematch after a finished match."""
    stats = conns[0].stats
    next_id = 1
    turn = 0  # echo mode: the seats simply take turns
    await asyncio.sleep(max(0.0, start - time.monotonic()) + rng.uniform(0, think))
    while time.monotonic() < stop:
        if mode == "echo":
            mover, message = turn, {"type": "play", "id": next_id, "version": 0, "card": "AC", "declare": False}
            turn = 1 - turn
        else:
            newest = max(c.state["version"] for c in conns if c.state)
            ready = [c.state for c in conns if c.state and c.state["version"] == newest]
            if len(ready) < 2:
                for conn in conns:
                    await conn.until(lambda c=conn, v=newest: c.state["version"] >= v)
                continue
            view = ready[0]["view"]
            if view is not None and view["winner"] is not None:  # a rematch: seat 0 offers, seat 1 accepts
                offer = ready[0]["room"]["rematch"] is None
                mover = 0 if offer else 1
                message = {
                    "type": "rematch",
                    "id": next_id,
                    "version": newest,
                    "action": "offer" if offer else "accept",
                }
            else:
                movers = [i for i, c in enumerate(conns) if c.state["view"] and c.state["view"]["legal"]]
                if len(movers) != 1:
                    stats.errors["no seat on turn"] += 1
                    return
                mover = movers[0]
                own = conns[mover].state["view"]
                chosen = rng.choice(own["legal"])
                card, declare = chosen["card"], chosen["declare"] is not None
                message = {"type": "play", "id": next_id, "version": newest, "card": card, "declare": declare}
        next_id += 1
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        if time.monotonic() >= stop:
            return
        try:
            stats.sent += 1
            sent_at = time.monotonic()
            answer, rtt = await conns[mover].ask(message)
        except TimeoutError:
            stats.errors["timeout"] += 1
            return
        except (ConnectionError, OSError, Exception) as error:
            stats.errors[f"socket: {type(error).__name__}"] += 1
            return
        if answer["type"] != "state":
            stats.errors[f"rejected: {answer.get('code')}"] += 1
            return
        stats.answered += 1
        if sent_at >= measure_from:
            stats.rtts.append(rtt)
            if conns[mover].forwarded:
                stats.forwarded_rtts.append(rtt)
        if mode == "game":
            other = conns[1 - mover]
            try:
                await other.until(lambda c=other, v=answer["version"]: c.state["version"] >= v)
            except (TimeoutError, ConnectionError):
                stats.errors["broadcast missing"] += 1
                return


async def client_run(
    ws_url: str,
    rooms: list[dict[str, Any]],
    mode: str,
    think: float,
    warmup: float,
    seconds: float,
    sync: Any,
    spectators: int = 0,
) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    stats = Stats()
    gate = asyncio.Semaphore(64)
    readers: list[asyncio.Task[None]] = []

    async def open_conn(room: dict[str, Any], seat: int) -> Conn:
        base = room.get("ws_urls", [ws_url, ws_url])[seat]  # --processes: the seats on different processes
        url = f"{base}/ws/rooms/{room['room_id']}?token={room['tokens'][seat]}&protocol={PROTOCOL}"
        async with gate:
            for attempt in range(5):
                try:
                    socket = await connect(url, compression=None, max_size=2**20, open_timeout=30)
                    break
                except OSError:
                    if attempt == 4:
                        raise
                    await asyncio.sleep(0.2 * (attempt + 1))
        conn = Conn(socket, stats)
        conn.forwarded = bool(room.get("forwarded", [False, False])[seat])
        readers.append(asyncio.create_task(conn.read()))
        if mode == "game":
            await conn.until(lambda: conn.state is not None)
        return conn

    watchers: list[Any] = []

    async def open_watcher(room: dict[str, Any]) -> None:
        async with gate:
            socket = await connect(
                f"{ws_url}/ws/rooms/{room['room_id']}/watch?protocol={PROTOCOL}",
                compression=None,
                max_size=2**20,
                open_timeout=30,
            )
        watchers.append(socket)
        readers.append(asyncio.create_task(watch_read(socket, stats)))

    async def open_room(room: dict[str, Any]) -> list[Conn]:
        conns = [await open_conn(room, 0), await open_conn(room, 1)]
        await asyncio.gather(*(open_watcher(room) for _ in range(spectators)))
        return conns

    tables = await asyncio.gather(*(open_room(room) for room in rooms))
    # every client process has connected, then the parent sets the clock; the loop keeps serving pings meanwhile
    await asyncio.to_thread(sync["connected"].wait, 900)
    await asyncio.to_thread(sync["go"].wait, 60)
    start = sync["start_at"].value
    measure_from, stop = start + warmup, start + warmup + seconds
    cpu_before = time.process_time()
    rng = random.Random(os.getpid())
    await asyncio.gather(
        *(play_room(conns, mode, think, start, measure_from, stop, random.Random(rng.random())) for conns in tables)
    )
    cpu = time.process_time() - cpu_before
    for conns in tables:
        for conn in conns:
            with contextlib.suppress(Exception):
                await conn.socket.close()
    for socket in watchers:
        with contextlib.suppress(Exception):
            await socket.close()
    for reader in readers:
        reader.cancel()
    return {
        "rtts": stats.rtts,
        "forwarded_rtts": stats.forwarded_rtts,
        "sent": stats.sent,
        "answered": stats.answered,
        "errors": dict(stats.errors),
        "received_bytes": stats.received_bytes,
        "received_states": stats.received_states,
        "watch_states": stats.watch_states,
        "watch_bytes": stats.watch_bytes,
        "cpu_seconds": cpu,
        "wall_seconds": warmup + seconds,
    }


def client_process(args: tuple[Any, ...]) -> None:
    ws_url, rooms, mode, think, warmup, seconds, sync, results, spectators = args
    raise_open_files()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        results.put(asyncio.run(client_run(ws_url, rooms, mode, think, warmup, seconds, sync, spectators)))
    except Exception as error:  # reported, never hidden
        results.put({"fatal": f"{type(error).__name__}: {error}"})
        for barrier in (sync["connected"], sync["go"]):
            barrier.abort()  # the parent stops waiting for this process at once


# ------------------------------------------------------------------ one run against one server


def start_profiler(pid: int, args: argparse.Namespace, index: int) -> subprocess.Popen[bytes]:
    """``--profile DIR``: py-spy samples the server process for the measured window and writes a
    flame graph (SVG); it reads the process from outside, so the server runs unchanged."""
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        raise SystemExit("--profile needs py-spy: pip install -e '.[profile]'")
    args.profile.mkdir(parents=True, exist_ok=True)
    name = f"{args.profile_name or 'server'}{'' if index == 0 else f'-{index}'}.svg"
    command = [
        str(spy), "record", "--pid", str(pid), "--duration", str(max(1, int(args.seconds))), "--rate", "100",
        "--nonblocking", "--format", "flamegraph", "--output", str(args.profile / name),
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_clients(
    ws_url: str,
    rooms: list[dict[str, Any]],
    mode: str,
    args: argparse.Namespace,
    server_pid: int | list[int],
    metrics_urls: list[str] | None = None,
) -> dict[str, Any]:
    context = mp.get_context("spawn")
    spectators = args.spectators if mode == "game" else 0
    procs = max(1, min(args.client_procs, len(rooms)))
    sync = {"connected": context.Barrier(procs + 1), "go": context.Barrier(procs + 1), "start_at": context.Value("d")}
    results = context.Queue()
    slices = [rooms[i::procs] for i in range(procs)]
    workers = [
        context.Process(
            target=client_process,
            args=((ws_url, part, mode, args.think, args.warmup, args.seconds, sync, results, spectators),),
        )
        for part in slices
    ]
    connect_started = time.monotonic()
    for worker in workers:
        worker.start()
    try:
        sync["connected"].wait(timeout=900)  # all sockets open
    except threading.BrokenBarrierError:
        fatal = [o["fatal"] for o in (results.get(timeout=30) for _ in workers) if "fatal" in o]
        raise SystemExit(f"a client process failed while connecting: {fatal}") from None
    connect_seconds = time.monotonic() - connect_started
    pids = server_pid if isinstance(server_pid, list) else [server_pid]
    rss_connected = sum(rss_kb(pid) for pid in pids)
    start = time.monotonic() + 0.5
    sync["start_at"].value = start
    sync["go"].wait(timeout=60)
    rss_peak = rss_connected
    cpu_at_measure = None
    profilers: list[subprocess.Popen[bytes]] = []
    metrics_before: Samples = {}
    deadline = start + args.warmup + args.seconds
    while time.monotonic() < deadline + 0.2:
        if cpu_at_measure is None and time.monotonic() >= start + args.warmup:
            cpu_at_measure = (sum(cpu_seconds(pid) for pid in pids), time.monotonic())
            metrics_before = scrape(metrics_urls) if metrics_urls else {}
            if getattr(args, "profile", None) and mode == "game":
                profilers = [start_profiler(pid, args, index) for index, pid in enumerate(pids)]
        rss_peak = max(rss_peak, sum(rss_kb(pid) for pid in pids))
        time.sleep(0.25)
    server_cpu = (sum(cpu_seconds(pid) for pid in pids) - cpu_at_measure[0]) / (time.monotonic() - cpu_at_measure[1])
    for profiler in profilers:
        profiler.wait(timeout=120)  # it stops by itself after the measured window (--duration)
    measured_for = time.monotonic() - cpu_at_measure[1]
    server_side = server_figures(metrics_before, scrape(metrics_urls), measured_for) if metrics_urls else None
    outputs = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    fatal = [o["fatal"] for o in outputs if "fatal" in o]
    if fatal:
        raise SystemExit(f"a client process failed: {fatal}")
    rtts = [r for o in outputs for r in o["rtts"]]
    forwarded = [r for o in outputs for r in o.get("forwarded_rtts", [])]
    errors: Counter[str] = Counter()
    for output in outputs:
        errors.update(output["errors"])
    states = sum(o["received_states"] for o in outputs)
    return {
        "mode": mode,
        "rooms": len(rooms),
        "sockets": 2 * len(rooms),
        "client_procs": procs,
        "connect_seconds": round(connect_seconds, 1),
        "measured_seconds": args.seconds,
        "moves": len(rtts),
        "moves_per_s": round(len(rtts) / args.seconds, 1),
        "sent": sum(o["sent"] for o in outputs),
        "answered": sum(o["answered"] for o in outputs),
        "errors": dict(errors),
        "p50_ms": round(percentile(rtts, 50) * 1000, 2),
        "p90_ms": round(percentile(rtts, 90) * 1000, 2),
        "p99_ms": round(percentile(rtts, 99) * 1000, 2),
        "forwarded_p50_ms": round(percentile(forwarded, 50) * 1000, 2) if forwarded else None,
        "forwarded_p99_ms": round(percentile(forwarded, 99) * 1000, 2) if forwarded else None,
        "forwarded_share": round(len(forwarded) / len(rtts), 2) if rtts else None,
        "max_ms": round(max(rtts) * 1000, 2) if rtts else None,
        "mean_ms": round(statistics.fmean(rtts) * 1000, 2) if rtts else None,
        "state_bytes": round(sum(o["received_bytes"] for o in outputs) / states) if states else 0,
        "spectators": spectators * len(rooms),
        "watch_states": sum(o["watch_states"] for o in outputs),
        "watch_bytes": round(sum(o["watch_bytes"] for o in outputs) / max(1, sum(o["watch_states"] for o in outputs))),
        "server_rss_connected_kb": rss_connected,
        "server_rss_peak_kb": rss_peak,
        "server_cpu_pct": round(100 * server_cpu, 1),
        "client_cpu_pct": [round(100 * o["cpu_seconds"] / o["wall_seconds"], 1) for o in outputs],
        "server_side": server_side,  # from /metrics
    }


def cluster_run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """``--processes N``: N app processes on PostgreSQL and a private Redis; room i's seats are on
    processes i and i + 1, so half of all intents reach a process that does not own the room and
    are forwarded to its owner (the extra hop)."""
    redis = RedisServer(folder)
    redis.start()
    try:
        with database("postgres", folder) as url:
            servers = [
                ServerProcess(
                    url, folder / f"server{i}.log", RATE_LIMIT_INTENTS="30", REDIS_URL=redis.url, **SERVER_ENV
                )
                for i in range(args.processes)
            ]
            for server in servers:
                server.start()
            try:
                pids = [server.process.pid for server in servers if server.process is not None]
                rss_idle = sum(rss_kb(pid) for pid in pids)
                started = time.monotonic()
                rooms = asyncio.run(setup_rooms(servers[0].url, args.rooms, args.target))
                for index, room in enumerate(rooms):
                    room["ws_urls"] = [servers[index % len(servers)].ws_url, servers[(index + 1) % len(servers)].ws_url]
                    # the rooms were created and joined through process 0, which owns them
                    room["forwarded"] = [url != servers[0].ws_url for url in room["ws_urls"]]
                setup_seconds = time.monotonic() - started
                result = run_clients(servers[0].ws_url, rooms, "game", args, pids, [s.url for s in servers])
                result |= {
                    "database": f"postgres + redis, {args.processes} processes",
                    "setup_seconds": round(setup_seconds, 1),
                    "server_rss_idle_kb": rss_idle,
                    "server_kb_per_room": round((result["server_rss_peak_kb"] - rss_idle) / args.rooms, 1),
                }
            finally:
                for server in servers:
                    server.stop()
            logs = "\n".join(s.log_path.read_text(errors="replace") for s in servers)
            result["server_log_errors"] = sum(1 for line in logs.splitlines() if "Traceback" in line or "ERROR" in line)
            if result["errors"] or result["server_log_errors"]:
                notable = [line for line in logs.splitlines() if line and not line.startswith("INFO")]
                print("server log (first notable lines):\n  " + "\n  ".join(notable[:15]))
            return result
    finally:
        redis.stop()


def game_run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    if args.processes > 1:
        return cluster_run(args, folder)
    kind = args.database
    folder.mkdir(parents=True, exist_ok=True)
    with database(kind, folder) as url:
        watch_env = {
            "SPECTATORS_PER_ROOM": str(max(50, args.spectators)),
            "SPECTATORS_PER_PROCESS": str(max(2000, args.spectators * args.rooms)),
        }
        server = ServerProcess(
            url, folder / "server.log", RATE_LIMIT_INTENTS="30", **SERVER_ENV, **watch_env
        )  # production limit
        server.start()
        try:
            assert server.process is not None
            pid = server.process.pid
            rss_idle = rss_kb(pid)
            started = time.monotonic()
            rooms = asyncio.run(setup_rooms(server.url, args.rooms, args.target))
            setup_seconds = time.monotonic() - started
            rss_rooms = rss_kb(pid)
            result = run_clients(server.ws_url, rooms, "game", args, pid, [server.url])
            result |= {
                "database": kind,
                "setup_seconds": round(setup_seconds, 1),
                "registrations_per_s": round(2 * args.rooms / setup_seconds, 1),
                "server_rss_idle_kb": rss_idle,
                "server_rss_rooms_kb": rss_rooms,
                "server_kb_per_room": round((result["server_rss_peak_kb"] - rss_idle) / args.rooms, 1),
            }
        finally:
            server.stop()
        log = (folder / "server.log").read_text(errors="replace")
        result["server_log_errors"] = sum(1 for line in log.splitlines() if "Traceback" in line or "ERROR" in line)
        return result


@contextlib.contextmanager
def echo_server(folder: Path, pad: int) -> Any:
    """bench/echo_app.py under uvicorn: yields its socket URL and process id."""
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "echo_app:app", "--app-dir", str(ROOT / "bench"),
        "--host", "127.0.0.1", "--port", str(port),
        "--ws-per-message-deflate", "false", "--ws-max-size", "65536", "--log-level", "warning",
    ]  # fmt: skip
    log = (folder / "echo.log").open("ab")
    process = subprocess.Popen(command, env={**os.environ, "ECHO_PAD_BYTES": str(pad)}, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("the echo app did not start") from None
                time.sleep(0.05)
        yield f"ws://127.0.0.1:{port}", process.pid
    finally:
        process.terminate()
        process.wait(10)


def echo_run(args: argparse.Namespace, folder: Path, pad: int) -> dict[str, Any]:
    with echo_server(folder, pad) as (ws_url, pid):
        rss_idle = rss_kb(pid)
        result = run_clients(ws_url, echo_rooms(args.rooms), "echo", args, pid)
        return result | {
            "pad_bytes": pad,
            "server_kb_per_room": round((result["server_rss_peak_kb"] - rss_idle) / args.rooms, 1),
        }


# ------------------------------------------------------------------ saturation and memory per room

SATURATION_P99_MS = 100.0
# the saturation ladder: at R rooms about R / think moves per second are offered; from a quarter
# of one move per second per room, each step shortens the mean think time by a quarter, to 5 ms
SATURATION_THINKS = tuple(round(4 * 0.75**k, 4) for k in range(24))


def step_args(args: argparse.Namespace, **changes: Any) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), "spectators": 0, "profile": None, **changes})


def step_warmup(args: argparse.Namespace) -> float:
    """A saturation or memory step plays 2 s before it measures, or less if ``--warmup`` says so."""
    return min(2.0, float(args.warmup))


def find_saturation(
    ws_url: str,
    rooms: list[dict[str, Any]],
    mode: str,
    args: argparse.Namespace,
    pid: int,
    metrics_urls: list[str] | None = None,
) -> dict[str, Any]:
    """``--find-saturation``: the same server and rooms, ever shorter think times, until the p99
    round trip passes 100 ms, anything fails or the rate stops growing (the clients, or the server,
    can offer no more); the highest rate with p99 under 100 ms is the one sustained."""
    steps: list[dict[str, Any]] = []
    sustained = 0.0
    previous = 0.0
    for think in SATURATION_THINKS:
        result = run_clients(
            ws_url,
            rooms,
            mode,
            step_args(args, think=think, warmup=step_warmup(args), seconds=args.step_seconds),
            pid,
            metrics_urls,
        )
        keep = ("moves_per_s", "p50_ms", "p99_ms", "server_cpu_pct", "errors")
        steps.append({key: result[key] for key in keep} | {"think": think})
        print(
            f"  {mode:4} think {think:5.3f} s: {result['moves_per_s']:7.1f} moves/s | p50 {result['p50_ms']} ms, "
            f"p99 {result['p99_ms']} ms | server CPU {result['server_cpu_pct']} % | "
            f"errors {sum(result['errors'].values())}"
        )
        if result["p99_ms"] > SATURATION_P99_MS or result["errors"]:
            break
        sustained = max(sustained, result["moves_per_s"])
        if result["moves_per_s"] < 1.1 * previous:
            break  # a quarter more offered, under a tenth more served: saturated (or the clients are)
        previous = result["moves_per_s"]
    return {"mode": mode, "rooms": len(rooms), "sustained_moves_per_s": sustained, "steps": steps}


def memory_steps(
    counts: list[int], rooms_for: Any, ws_url: str, mode: str, args: argparse.Namespace, pid: int
) -> dict[str, Any]:
    """``--memory 1000,5000``: the server's RSS per room with every room's two sockets open and
    playing (a short run), at each count on the same server, and the growth per room between them."""
    idle = rss_kb(pid)
    out: list[dict[str, Any]] = []
    for count in counts:
        result = run_clients(
            ws_url, rooms_for(count), mode, step_args(args, warmup=step_warmup(args), seconds=args.step_seconds), pid
        )
        peak = result["server_rss_peak_kb"]
        out.append(
            {
                "rooms": count,
                "rss_kb": peak,
                "kb_per_room": round((peak - idle) / count, 1),
                "moves_per_s": result["moves_per_s"],
                "errors": result["errors"],
            }
        )
    for before, after in itertools.pairwise(out):
        after["kb_per_added_room"] = round((after["rss_kb"] - before["rss_kb"]) / (after["rooms"] - before["rooms"]), 1)
    for step in out:
        grown = f", {step['kb_per_added_room']} KiB per room added" if "kb_per_added_room" in step else ""
        print(
            f"  {mode:4} {step['rooms']:6} rooms: RSS {step['rss_kb'] / 1024:.0f} MiB, {step['kb_per_room']} KiB "
            f"per room{grown} | {step['moves_per_s']} moves/s, errors {sum(step['errors'].values())}"
        )
    return {"mode": mode, "idle_kb": idle, "steps": out}


def game_server_study(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """``--find-saturation`` / ``--memory``: one real server, its rooms set up once (more added
    for a larger memory step), then the ladder of client runs."""
    folder.mkdir(parents=True, exist_ok=True)
    counts = sorted(args.memory) if args.memory else []
    most = max([args.rooms, *counts])
    with database(args.database, folder) as url:
        server = ServerProcess(
            url, folder / "server.log", RATE_LIMIT_INTENTS="30", MAX_OPEN_TABLES=str(most + 10), **SERVER_ENV
        )
        server.start()
        try:
            assert server.process is not None
            pid = server.process.pid
            made: list[dict[str, Any]] = []

            def rooms_for(count: int) -> list[dict[str, Any]]:
                if count > len(made):
                    made.extend(asyncio.run(setup_rooms(server.url, count - len(made), args.target)))
                return made[:count]

            found: dict[str, Any] = {"database": args.database}
            if args.memory:
                found["memory"] = memory_steps(counts, rooms_for, server.ws_url, "game", args, pid)
            if args.find_saturation:
                rooms = rooms_for(args.rooms)
                found["saturation"] = find_saturation(server.ws_url, rooms, "game", args, pid, [server.url])
            return found
        finally:
            server.stop()


def echo_server_study(args: argparse.Namespace, folder: Path, pad: int) -> dict[str, Any]:
    """The same ladder against the echo app (the floor)."""
    with echo_server(folder, pad) as (ws_url, pid):
        found: dict[str, Any] = {}
        if args.memory:
            found["memory"] = memory_steps(sorted(args.memory), echo_rooms, ws_url, "echo", args, pid)
        if args.find_saturation:
            found["saturation"] = find_saturation(ws_url, echo_rooms(args.rooms), "echo", args, pid)
        return found


def echo_rooms(count: int) -> list[dict[str, Any]]:
    return [{"room_id": f"r{i}", "tokens": ["-", "-"]} for i in range(count)]


def study(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """``--find-saturation`` and/or ``--memory``: the real server, then the echo app, in one run."""
    print(f"on {args.database}: {args.step_seconds} s measured per step; then the echo app, the same steps")
    game = game_server_study(args, folder / "game")
    echo = echo_server_study(args, folder, pad=2000)  # ≈ a two-seat state message
    if args.find_saturation:
        ours, floor = game["saturation"]["sustained_moves_per_s"], echo["saturation"]["sustained_moves_per_s"]
        print(
            f"saturation (p99 under {SATURATION_P99_MS:.0f} ms, {args.rooms} rooms): 1001 server {ours} moves/s, "
            f"echo floor {floor} moves/s (× {ours / floor if floor else float('nan'):.2f})"
        )
    if args.memory:
        for ours, floor in zip(game["memory"]["steps"], echo["memory"]["steps"], strict=True):
            added = (
                f"; per room added {ours['kb_per_added_room']} against {floor['kb_per_added_room']} KiB"
                if "kb_per_added_room" in ours
                else ""
            )
            print(
                f"memory at {ours['rooms']} rooms: 1001 server {ours['kb_per_room']} KiB per room, echo floor "
                f"{floor['kb_per_room']} KiB (× {ours['kb_per_room'] / max(floor['kb_per_room'], 0.1):.2f}){added}"
            )
    return {"game": game, "echo": echo}


# ------------------------------------------------------------------ report


def show(result: dict[str, Any]) -> None:
    name = f"1001 server ({result.get('database', 'sqlite')})" if result["mode"] == "game" else "echo floor "
    print(
        f"{name}: {result['rooms']} rooms / {result['sockets']} sockets, {result['client_procs']} client procs | "
        f"{result['moves_per_s']} moves/s | round trip p50 {result['p50_ms']} ms, p90 {result['p90_ms']} ms, "
        f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms | errors {sum(result['errors'].values())} "
        f"{result['errors'] or ''}"
    )
    print(
        f"             server RSS peak {result['server_rss_peak_kb'] / 1024:.0f} MiB, "
        f"{result['server_kb_per_room']} KiB per room | server CPU {result['server_cpu_pct']} % of a core | "
        f"client CPU {result['client_cpu_pct']} % | state {result['state_bytes']} bytes"
        + (f" | setup {result['setup_seconds']} s" if "setup_seconds" in result else "")
        + (
            f" | forwarded intents ({result['forwarded_share']:.0%}) p50 {result['forwarded_p50_ms']} ms, "
            f"p99 {result['forwarded_p99_ms']} ms"
            if result.get("forwarded_p50_ms") is not None
            else ""
        )
        + f" | sockets opened in {result['connect_seconds']} s"
    )
    side = result.get("server_side")
    if side:
        print(
            f"             server side (/metrics): {side['moves_per_s']} moves/s stored | intent p50 "
            f"{side['intent_p50_ms']} ms, p99 {side['intent_p99_ms']} ms | commit p50 {side['commit_p50_ms']} ms, "
            f"p99 {side['commit_p99_ms']} ms | refusals {side['refusals'] or 0} | Redis errors {side['redis_errors']}, "
            f"database errors {side['db_errors']} | {side['rooms_live']} rooms live, {side['sockets_open']} sockets"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds (after the warm-up)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a seat waits before it moves")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring")
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--target", type=int, default=1001, choices=(301, 501, 1001))
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo-app baseline")
    parser.add_argument(
        "--processes", type=int, default=1, help="app processes sharing PostgreSQL and a private Redis (>1: a cluster)"
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="spectator sockets per room (one process only); the same run without them is measured first",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--find-saturation",
        action="store_true",
        help=f"raise the move rate over --rooms rooms (shorter think times) until p99 > {SATURATION_P99_MS:.0f} ms; "
        "print the moves/s sustained, the echo app's too",
    )
    parser.add_argument(
        "--memory",
        type=lambda text: [int(n) for n in text.split(",")],
        help="e.g. 1000,5000: RSS per room with that many rooms playing, on one server, and the echo app's",
    )
    parser.add_argument(
        "--step-seconds", type=float, default=8.0, help="measured seconds of each saturation/memory step"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="record a py-spy flame graph (SVG) of the server's measured window into this folder",
    )
    parser.add_argument("--profile-name", help="the flame graph's file name (without .svg); default: server")
    args = parser.parse_args(argv)
    limit = raise_open_files()
    if limit < 4 * args.rooms + 100:
        raise SystemExit(f"the open-file limit is {limit}: too low for {args.rooms} rooms")
    print(f"load: {args.rooms} rooms, think {args.think} s, {args.warmup} s warm-up + {args.seconds} s measured, "
          f"{args.client_procs} client processes, {os.cpu_count()} CPUs, load average before the run "
          f"{os.getloadavg()[0]:.2f} (other busy processes distort every figure)")  # fmt: skip
    if args.find_saturation or args.memory:
        if args.processes > 1 or args.spectators:
            raise SystemExit("--find-saturation and --memory measure one process without spectators")
        most = max([args.rooms, *(args.memory or [])])
        if limit < 2 * most + 200:  # the server holds two sockets per room (the clients split theirs)
            raise SystemExit(f"the open-file limit is {limit}: too low for {most} rooms")
        with tempfile.TemporaryDirectory(prefix="load1001-") as tmp:
            report = study(args, Path(tmp))
        if args.json:
            args.json.write_text(json.dumps(report, indent=2))
        return 0
    with tempfile.TemporaryDirectory(prefix="load1001-") as tmp:
        folder = Path(tmp)
        report: dict[str, Any] = {"loadavg_before": os.getloadavg()[0]}
        if args.spectators:
            if args.processes > 1:
                raise SystemExit("--spectators: watching is served by a single process (not with a cluster)")
            plain = game_run(argparse.Namespace(**{**vars(args), "spectators": 0}), folder / "plain")
            show(plain)
            report["without_spectators"] = plain
        game = game_run(args, folder / "game" if args.spectators else folder)
        show(game)
        report["game"] = game
        if args.spectators:
            plain = report["without_spectators"]
            print(
                f"spectators: {game['spectators']} sockets ({args.spectators} per room) received "
                f"{game['watch_states']} watch_state messages of {game['watch_bytes']} bytes | moves/s "
                f"{plain['moves_per_s']} → {game['moves_per_s']} | p99 {plain['p99_ms']} → {game['p99_ms']} ms | "
                f"RSS peak {plain['server_rss_peak_kb'] / 1024:.0f} → {game['server_rss_peak_kb'] / 1024:.0f} MiB | "
                f"server CPU {plain['server_cpu_pct']} → {game['server_cpu_pct']} %"
            )
        if not args.no_echo:
            echo = echo_run(args, folder, pad=max(100, game["state_bytes"]))
            show(echo)
            report["echo"] = echo
            report["ratio_p50"] = round(game["p50_ms"] / echo["p50_ms"], 2)
            report["ratio_p99"] = round(game["p99_ms"] / echo["p99_ms"], 2)
            print(f"1001 server / echo floor: p50 × {report['ratio_p50']}, p99 × {report['ratio_p99']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    ok = not game["errors"] and not game["server_log_errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
