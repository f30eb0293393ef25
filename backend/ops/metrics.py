"""Prometheus metrics of one process, with the official client library (``prometheus-client``).

Every metric is defined here once, in a registry of our own (not the library's global one), and
the code that observes something imports the metric from here. ``/metrics`` serves
``REGISTRY`` only when ``METRICS=1`` (``backend.api.app``): off by default, and without
``METRICS_TOKEN`` it answers loopback clients only, so it is never public by accident.
"""

from __future__ import annotations

from collections.abc import Callable
from ipaddress import ip_address
from secrets import compare_digest

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

REGISTRY = CollectorRegistry(auto_describe=True)

# Seconds: from a millisecond (a move on SQLite) to several seconds (a forwarded intent under load).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BOT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 5.0)

ROOMS_LIVE = Gauge("thousand_rooms_live", "Rooms whose actor is in this process's memory", registry=REGISTRY)
SOCKETS_OPEN = Gauge("thousand_sockets_open", "Game sockets open on this process", registry=REGISTRY)
MOVES = Counter("thousand_moves", "Actions stored (cards played, resignations)", ["kind"], registry=REGISTRY)
INTENT_SECONDS = Histogram(
    "thousand_intent_seconds",
    "From an intent reaching this process to its answer being handed to the socket (route: local or forwarded)",
    ["route"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "thousand_commit_seconds", "Storing one change of a room (group commit included)", buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)  # fmt: skip
REFUSALS = Counter("thousand_refusals", "Commands refused, by code", ["code"], registry=REGISTRY)
BOT_SECONDS = Histogram(
    "thousand_bot_decision_seconds", "The computer's thinking time, by level", ["level"], buckets=BOT_BUCKETS,
    registry=REGISTRY,
)  # fmt: skip
ROOMS_OWNED = Gauge("thousand_rooms_owned", "Room leases this process holds (cluster)", registry=REGISTRY)
TAKEOVERS = Counter(
    "thousand_rooms_taken_over", "Rooms this process rebuilt after taking their lease (cluster)", registry=REGISTRY
)
HANDED_OVER = Counter(
    "thousand_rooms_handed_over", "Room leases released on a graceful restart (cluster)", registry=REGISTRY
)
REST_LIMITED = Counter(
    "thousand_rest_limited", "REST writes answered 429 (backend/api/limits.py), by group", ["group"], registry=REGISTRY
)
REDIS_ERRORS = Counter("thousand_redis_errors", "Redis calls that failed", ["op"], registry=REGISTRY)
PUSHES = Counter(
    "thousand_pushes", "Web Push notifications by outcome (sent, gone, retried, failed)", ["outcome"], registry=REGISTRY
)
DB_ERRORS = Counter("thousand_db_errors", "Database writes that failed (not version conflicts)", registry=REGISTRY)
ROOMS_EXPIRED = Counter("thousand_rooms_expired", "Open tables closed because nobody joined", registry=REGISTRY)
ROOMS_EVICTED = Counter("thousand_rooms_evicted", "Finished rooms dropped from memory", registry=REGISTRY)
ANALYSES = Counter(
    "thousand_analyses",
    "Deal analyses (backend/rooms/analysis.py) by outcome: started, done, failed, limited, queue_full",
    ["outcome"],
    registry=REGISTRY,
)
ANALYSES_IN_FLIGHT = Gauge("thousand_analyses_in_flight", "Deal analyses queued or running here", registry=REGISTRY)


def track(gauge: Gauge, read: Callable[[], float]) -> None:
    """Let ``gauge`` read its value when scraped (a process has one ``Rooms``)."""
    gauge.set_function(read)


def exposition() -> tuple[bytes, str]:
    """The text format and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def scrape_allowed(token: str | None, authorization: str | None, client_host: str | None) -> bool:
    """With a token: only a request that presents it. Without: only a loopback client (a proxy
    in front passes the real client's address, so the world is refused)."""
    if token is not None:
        return authorization is not None and compare_digest(authorization.encode(), f"Bearer {token}".encode())
    if client_host is None:
        return False
    try:
        return ip_address(client_host).is_loopback
    except ValueError:
        return client_host == "localhost"
