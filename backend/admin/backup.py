"""Back up and restore the database while the game runs (docs/operating.md).

SQLite: the online backup API (``sqlite3.Connection.backup``) copies a consistent snapshot page by
page while the server goes on writing (WAL mode). PostgreSQL: ``pg_dump --format=custom`` (one
consistent snapshot, no lock that stops the game) and ``pg_restore --clean --if-exists``.
A restore replaces the whole database: stop the server (every process) first.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url


def kind(database_url: str) -> str:
    backend = make_url(database_url).get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise SystemExit(f"cannot back up a {backend} database")
    return backend


def sqlite_path(database_url: str) -> Path:
    name = make_url(database_url).database
    if not name or name == ":memory:":
        raise SystemExit("the SQLite database must be a file")
    return Path(name)


def libpq_url(database_url: str) -> str:
    """The URL as pg_dump reads it: without SQLAlchemy's ``+driver``."""
    url = make_url(database_url)
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _copy_sqlite(source: Path, target: Path, *, single_file: bool) -> None:
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst, pages=256)  # a few pages at a time: the server's writers are not held up long
        if single_file:  # a backup is one self-contained file, not a WAL database with side files
            dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed (apt-get install postgresql-client)")
    return found


def backup(database_url: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if kind(database_url) == "sqlite":
        source = sqlite_path(database_url)
        if not source.is_file():
            raise SystemExit(f"no database at {source}")
        target.unlink(missing_ok=True)
        _copy_sqlite(source, target, single_file=True)
        return
    dump = [_pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={target}", libpq_url(database_url)]
    subprocess.run(dump, check=True)


def restore(database_url: str, source: Path) -> None:
    if not source.is_file():
        raise SystemExit(f"no backup at {source}")
    if kind(database_url) == "sqlite":
        target = sqlite_path(database_url)
        target.parent.mkdir(parents=True, exist_ok=True)
        _copy_sqlite(source, target, single_file=False)  # page by page into the file: its WAL stays consistent
        return
    command = [
        _pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction",
        f"--dbname={libpq_url(database_url)}", str(source),
    ]  # fmt: skip
    subprocess.run(command, check=True)
