"""Real services for tests: databases (SQLite file, PostgreSQL) and a uvicorn server process."""

from __future__ import annotations

import atexit
import hashlib
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def services_required() -> bool:
    """In CI (REQUIRE_SERVICES=1) a missing service fails the test instead of skipping it."""
    return os.environ.get("REQUIRE_SERVICES") == "1"


def missing_service(reason: str) -> None:
    if services_required():
        pytest.fail(f"{reason} (REQUIRE_SERVICES=1 turns this skip into a failure)")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def _postgres_url(name: str) -> str:
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


@contextmanager
def postgres_database(template: str | None = None) -> Iterator[str]:
    """A fresh PostgreSQL database for one test (empty, or a copy of ``template``), dropped afterwards."""
    from sqlalchemy import create_engine, text

    if not port_open("127.0.0.1", 5432):
        missing_service("PostgreSQL is not reachable on 127.0.0.1:5432")
    name = f"t1001_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
            connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
        yield _postgres_url(name)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def migrations_digest() -> str:
    """The migrations' content: a migrated template is reused for as long as it is unchanged."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "migrations").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


@cache
def _migrated_sqlite_template() -> Path:
    """One migrated SQLite file per test process; each test's database starts as a copy of it
    (the migrations' own tests, tests/db/, still run every step on fresh databases)."""
    from backend.db.migrate import upgrade

    folder = Path(tempfile.mkdtemp(prefix="t1001-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "migrated.db"
    upgrade(f"sqlite:///{path}")
    with sqlite3.connect(path) as connection:  # everything in the one file, nothing left in a WAL
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@cache
def _migrated_postgres_template() -> str:
    """A migrated PostgreSQL database named after the migrations' digest, built once (under an
    advisory lock, so that parallel test processes build it once between them) and copied by
    CREATE DATABASE … TEMPLATE for each test: a copy is a fraction of running every migration.
    Looked up once per test process."""
    from sqlalchemy import create_engine, text

    from backend.db.migrate import upgrade

    if not port_open("127.0.0.1", 5432):
        missing_service("PostgreSQL is not reachable on 127.0.0.1:5432")
    name = f"t1001_template_{migrations_digest()}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(1001)"))
            try:
                found = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first()
                if found is None:
                    # Templates of other migrations are dropped only once they are a day old: on a
                    # shared machine another checkout (another branch, the CI's main) may be copying
                    # its own template right now, and a drop under it fails its tests. A template
                    # carries the time it was built as its comment (one without a comment is kept).
                    stale = (
                        "SELECT datname FROM pg_database d WHERE datname LIKE 't1001\\_template\\_%' "
                        "AND shobj_description(d.oid, 'pg_database') < :cutoff"
                    )
                    cutoff = (datetime.now(UTC) - timedelta(days=1)).isoformat()
                    for (old,) in connection.execute(text(stale), {"cutoff": cutoff}).all():
                        connection.execute(text(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)'))
                    building = f"{name}_building"
                    connection.execute(text(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)'))
                    connection.execute(text(f'CREATE DATABASE "{building}"'))
                    upgrade(_postgres_url(building))
                    connection.execute(text(f'ALTER DATABASE "{building}" RENAME TO "{name}"'))
                    built = datetime.now(UTC).isoformat()
                    connection.execute(text(f"COMMENT ON DATABASE \"{name}\" IS '{built}'"))
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(1001)"))
    finally:
        admin.dispose()
    return name


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database of ``kind`` (``sqlite`` or ``postgres``)."""
    if kind == "sqlite":
        path = tmp_path / "test.db"
        shutil.copyfile(_migrated_sqlite_template(), path)
        yield f"sqlite:///{path}"
        return
    with postgres_database(template=_migrated_postgres_template()) as url:
        yield url


@contextmanager
def database_at(kind: str, tmp_path: Path, revision: str, fill: Callable[[str], None]) -> Iterator[str]:
    """A database of ``kind`` migrated to an older ``revision`` and filled by ``fill`` with the rows that
    code stored: what a migration test upgrades from."""
    from backend.db.migrate import upgrade

    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'before.db'}"
        upgrade(url, revision)
        fill(url)
        yield url
        return
    with postgres_database() as url:
        upgrade(url, revision)
        fill(url)
        yield url


SERVER_LOG_PROBLEMS = ("Traceback", "ERROR", "database is locked", "Exception")


class ServerProcess:
    """uvicorn serving the real app in a child process, on a fixed port so it can be restarted."""

    def __init__(self, database_url: str, log_path: Path, *, uvicorn_args: tuple[str, ...] = (), **env: str) -> None:
        self.database_url = database_url
        self.port = free_port()
        self.log_path = log_path
        # Scripted clients play far faster than people, and every one of them comes from 127.0.0.1:
        # the flood limit and the REST and socket limits are tested on their own (tests/api/test_limits.py).
        self.env = {
            "RATE_LIMIT_INTENTS": "100000",
            "REST_LIMITS": "0",
            "MAX_OPEN_TABLES": "1000",
            "MAX_SOCKETS_PER_ADDRESS": "100000",
            **env,
        }
        self.uvicorn_args = uvicorn_args
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        env = {**os.environ, "DATABASE_URL": self.database_url, **self.env}
        command = [
            sys.executable, "-m", "uvicorn", "backend.api.app:create_app", "--factory",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--ws-per-message-deflate", "false", "--ws-max-size", "65536",
            "--log-level", "warning", *self.uvicorn_args,
        ]  # fmt: skip
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the server did not start:\n{self.log_path.read_text()[-3000:]}")

    def errors(self) -> list[str]:
        """Tracebacks, errors and lock timeouts the server logged: a healthy run logs none."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [line for line in text.splitlines() if any(word in line for word in SERVER_LOG_PROBLEMS)]

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, exactly like a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def serving(kind: str, folder: Path, **env: str) -> Iterator[ServerProcess]:
    """A server on a fresh, migrated database of ``kind``; it must log no error while it runs."""
    with database(kind, folder) as url:
        process = ServerProcess(url, folder / "server.log", **env)
        process.start()
        try:
            yield process
        finally:
            process.stop()
        problems = process.errors()
        assert not problems, "\n".join(problems[:20])


class RedisServer:
    """A private redis-server on a free port, so a test may restart it without disturbing others."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            missing_service("redis-server is not installed")
        assert binary is not None
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(command, cwd=self.folder, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not port_open("127.0.0.1", self.port):
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        """Down and up again, empty (no persistence): every key and subscription is gone."""
        self.stop()
        self.start()
