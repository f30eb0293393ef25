"""Head to head: a pair with 1,000 matches answers about as fast as a pair with 10 (the chart's
series of every match grows with them, a few ms at 1,000).

    python bench/head_to_head.py [--repeat 30] [--noise 300] [--postgres [URL]]

Fills a fresh, migrated SQLite database (and, with ``--postgres``, a PostgreSQL one: by default a
new database on 127.0.0.1:5432, dropped afterwards) directly with finished two-hand matches as the
server stores them (``tests.support.match_rows``): 10 deals each, two marriages declared, 60 other
plays in the log and a settlement. Pair "small" has 10 matches together, pair "large" 1,000, and each
of the four players has ``--noise`` matches with someone else, so that finding a pair's matches
needs the index. Then it times ``store.groups.head_to_head`` — every figure and the first page of 10
matches (full for both pairs), the whole of what ``GET /api/head-to-head`` reads, from the rows kept
as matches end — ``--repeat`` times per pair and prints the median of each and the ratio; then the
same for ``store.groups.series`` (``GET /api/head-to-head/series``, the chart: a few numbers for every
match, so it grows with their number — linearly, by one index range and two primary-key look-ups
per match — but stays a few milliseconds at 1,000), and for ``recount`` (the figures worked out
from the matches by aggregate queries, the check of the kept ones), for contrast; and, on SQLite,
any step of the plans of ``head_to_head`` and ``group_series`` that reads a whole table.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from sqlalchemy import create_engine, event, text
from sqlalchemy.orm import Session

from backend.db.head_to_head import recount
from backend.db.migrate import upgrade
from backend.db.store import Store
from tests.support.match_rows import DealRow, MatchRows, Owed, add_player, add_room, write_matches

START = datetime(2026, 1, 1, tzinfo=UTC)
PAGE = 10  # the page of matches read with the figures: full for both pairs, so both read as much
POSTGRES_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def matches(a: str, b: str, count: int, start: int) -> list[MatchRows]:
    """``count`` finished two-hand matches of ``a`` and ``b``, alternately won, an hour apart."""
    out = []
    for k in range(count):
        winner = k % 2
        score = [110, 80] if winner == 0 else [80, 110]
        deals = [DealRow(score, [40, 0] if k % 3 == 0 else [0, 0]) for _ in range(9)]
        deals.append(DealRow([21, 0] if winner == 0 else [0, 21]))  # 1011 – 720
        out.append(
            MatchRows(
                [b, a] if (k // 2) % 2 else [a, b],  # each at either seat
                [1, 2] if winner == 0 else [2, 1],
                START + timedelta(hours=start + k),
                deals=deals,
                declared=[0, 1],
                owed=[Owed(loser=1 - winner, winner=winner, points_short=281)],
                other_plays=60,
            )
        )
    return out


def fill(url: str, noise: int) -> dict[str, list[str]]:
    """The two pairs and everyone's other matches; returns each pair's ids."""
    engine = create_engine(url)
    with engine.begin() as connection:
        room = add_room(connection)
        people = {name: add_player(connection, name) for name in ("A", "B", "C", "D")}
        others = [add_player(connection, f"other {k}") for k in range(20)]
        batches = [matches(people["A"], people["B"], 10, 0), matches(people["C"], people["D"], 1000, 100)]
        hour = 2000
        for who in people.values():
            for k in range(0, noise, 100):
                batch = [
                    m
                    for j in range(min(100, noise - k))
                    for m in matches(who, others[(k + j) % len(others)], 1, hour + j)
                ]
                batches.append(batch)
                hour += 100
        for batch in batches:
            write_matches(connection, room, batch)
    engine.dispose()
    return {"small (10 matches)": [people["A"], people["B"]], "large (1,000 matches)": [people["C"], people["D"]]}


def timed(answer: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The median and the fastest of ``repeat`` runs (on a busy machine the fastest is the steadier)."""
    answer()  # warm the caches once
    runs = []
    for _ in range(repeat):
        began = time.perf_counter()
        answer()
        runs.append(time.perf_counter() - began)
    return statistics.median(runs), min(runs)


def scans(answer: Callable[[], object], store: Store) -> list[str]:
    """The steps of SQLite's plans for ``answer`` that read a whole table (none: every read is by index)."""
    found: list[str] = []

    def explain(connection, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all():
                # "SCAN anon_1" reads a materialized subquery's rows (group_series: the matches it
                # found by index, at most its cap), not a table.
                if row[-1].startswith("SCAN") and "INDEX" not in row[-1] and not row[-1].startswith("SCAN anon_"):
                    found.append(row[-1])

    event.listen(store.engine, "before_cursor_execute", explain)
    try:
        answer()
    finally:
        event.remove(store.engine, "before_cursor_execute", explain)
    return found


def recounted(store: Store, ids: list[str]) -> None:
    with Session(store.engine) as session:
        recount(session, ids)


@contextmanager
def postgres(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    name = f"bench_h2h_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def run(label: str, url: str, noise: int, repeat: int) -> None:
    upgrade(url)
    began = time.perf_counter()
    pairs = fill(url, noise)
    print(f"{label}: filled in {time.perf_counter() - began:.1f} s ({noise} other matches per player)")
    store = Store(url)
    try:
        for what, answer in (
            ("head_to_head (as kept)", lambda ids: store.groups.head_to_head(ids, False, PAGE, 0)),
            ("group_series (the chart: every match's totals)", lambda ids: store.groups.series(ids)),
            ("recount (aggregates over the matches, for contrast)", lambda ids: recounted(store, ids)),
        ):
            times = [timed(lambda f=answer, i=ids: f(i), repeat) for ids in pairs.values()]  # type: ignore[misc]
            for name, (median, fastest) in zip(pairs, times, strict=True):
                print(
                    f"{label}: {what}: pair {name}: median {median * 1000:.2f} ms"
                    f" (fastest {fastest * 1000:.2f} ms) over {repeat} runs"
                )
            ratios = (times[1][0] / times[0][0], times[1][1] / times[0][1])
            print(f"{label}: {what}: ratio large / small = {ratios[0]:.2f} (fastest {ratios[1]:.2f})")
        if store.engine.dialect.name == "sqlite":
            large = pairs["large (1,000 matches)"]
            for what, answer in (
                ("head_to_head", lambda: store.groups.head_to_head(large, False, PAGE, 0)),
                ("group_series", lambda: store.groups.series(large)),
            ):
                full = scans(answer, store)
                print(f"{label}: {what}: whole-table scans in the plans: {', '.join(full) if full else 'none'}")
    finally:
        store.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--noise", type=int, default=300, help="matches of each player with others")
    parser.add_argument("--postgres", nargs="?", const="", default=None, help="also PostgreSQL (a URL, or a new db)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run("sqlite", f"sqlite:///{Path(folder) / 'h2h.db'}", args.noise, args.repeat)
    if args.postgres is not None:
        with postgres(args.postgres or None) as url:
            run("postgresql", url, args.noise, args.repeat)


if __name__ == "__main__":
    main()
