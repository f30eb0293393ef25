"""The push outbox in a cluster (issue 45): several processes look for due notifications at the same
time, and each notification is claimed by exactly one; a claim that lapses (its process died) is
taken by another; a stored reminder survives a restart (it is a row, not a timer). Real SQLite and
PostgreSQL, each "process" a repository of its own over its own engine, racing in threads."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from backend.db.store import Store
from backend.push.store import Outgoing, PushRepository

T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
HOLD = timedelta(seconds=60)


def test_each_due_notification_is_claimed_by_exactly_one_of_several_processes(database_url: str) -> None:
    stores = [Store(database_url) for _ in range(3)]
    try:
        repos = [PushRepository(store.database) for store in stores]
        players = [stores[0].players.create(f"P{n}")[0] for n in range(5)]
        for n, player in enumerate(players):
            repos[0].subscribe(player.id, f"https://fcm.googleapis.com/fcm/send/{n}", "k" * 87, "a" * 22, "en", 10)
        items = [Outgoing(p.id, "end", f"r{n}", {"names": ["X"]}, T0) for n in range(12) for p in players]
        assert repos[0].enqueue(items) == 60
        later = Outgoing(players[0].id, "reminder", "r99", {"names": ["X"]}, T0 + timedelta(hours=18))
        repos[0].enqueue([later])

        claimed: list[list[int]] = [[] for _ in repos]
        start = threading.Barrier(len(repos))

        def work(k: int) -> None:
            start.wait()
            while found := repos[k].claim(T0, HOLD, limit=7):
                claimed[k].extend(item.id for item in found)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(len(repos))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        every = [row for rows in claimed for row in rows]
        assert len(every) == 60 and len(set(every)) == 60, [len(rows) for rows in claimed]  # each once

        # Nothing more is due now: claimed rows are held, the reminder waits its time.
        assert all(repo.claim(T0, HOLD) == [] for repo in repos)
        # The process that took a row died: once its claim lapsed, another takes it.
        lapsed = repos[1].claim(T0 + HOLD + timedelta(seconds=1), HOLD, limit=100)
        assert len(lapsed) == 60
        for item in lapsed:
            repos[1].sent(item.id)
        # A restart (new repositories over the same database): the reminder is still there, due later.
        stores.append(Store(database_url))
        fresh = PushRepository(stores[-1].database)
        assert fresh.claim(T0 + timedelta(hours=17), HOLD) == []
        [reminder] = fresh.claim(T0 + timedelta(hours=18), HOLD)
        assert reminder.kind == "reminder" and reminder.room_id == "r99"
        # A failed send is due again after its backoff, counted.
        fresh.failed(reminder.id, T0 + timedelta(hours=19))
        assert fresh.claim(T0 + timedelta(hours=18, minutes=30), HOLD) == []
        [again] = fresh.claim(T0 + timedelta(hours=19), HOLD)
        assert again.attempts == 1
        # The subscription dropped (a 404/410): so is what waited for it.
        fresh.drop(again.subscription.id)
        assert fresh.pending() == 0
    finally:
        for store in stores:
            store.dispose()
