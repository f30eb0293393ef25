"""The database the repositories share: one engine, its sessions, and how a write transaction and a
consistent read are opened on it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from .engine import make_engine, make_sessionmaker

# What the database being away raises (not a change being wrong): refused, never answered 500.
UNREACHABLE: tuple[type[Exception], ...] = (OperationalError, InterfaceError, PoolTimeout)

# On PostgreSQL, READ COMMITTED (the default) takes a new snapshot per statement.
_SNAPSHOT = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}


class Database:
    def __init__(self, url: str) -> None:
        self.engine: Engine = make_engine(url)
        self.sessions: sessionmaker[Session] = make_sessionmaker(self.engine)
        self.postgres = self.engine.dialect.name == "postgresql"
        # On SQLite, writers queue on a lock in this process instead of spinning in SQLite's busy
        # handler, which sleeps in growing steps and makes the slowest commits far slower than
        # they need to be.
        sqlite = self.engine.dialect.name == "sqlite"
        self.write_lock: AbstractContextManager[Any] = threading.Lock() if sqlite else nullcontext()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A write transaction (ORM), committed on leaving."""
        with self.write_lock, self.sessions.begin() as session:
            yield session

    @contextmanager
    def snapshot(self) -> Iterator[Session]:
        """A session for reads that must agree with each other: on PostgreSQL its queries share one
        REPEATABLE READ transaction; elsewhere it is a plain session (the caller says why its reads
        agree there)."""
        with self.sessions() as session:
            if self.postgres:
                session.connection(execution_options=_SNAPSHOT)
            yield session
