"""Shared fixtures: a real card room server in a subprocess on a free port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from cardroom.tools.processes import ManagedServer, free_port
from tests.server.pg import fresh_schema

GENEROUS_QUOTAS: dict[str, object] = {
    "max-registrations-per-minute": 10_000, "max-connections-per-address": 10_000,
    "max-http-connections-per-address": 10_000,
    "max-tables-per-player": 1_000, "max-hints-per-minute": 10_000}
"""Tests register, connect and create from one address far faster than people do; the
quota tests set the limit they check."""


SHARED_REDIS_URL = "redis://127.0.0.1:6379/0"
"""The machine's Redis (CI runs one too): its absence fails a test, it is not skipped."""

SHARED_REDIS = pytest.mark.xdist_group("shared-redis")
"""The mark of every test module that uses the machine's Redis. It carries every server's
notices on the same channels, so those tests run one after another in one worker, never
beside each other."""


class ServerProcess(ManagedServer):
    """`cardroom serve` on a SQLite file of its own (or the database at ``database_url``, which
    several servers may share with a ``redis-url`` option); can be killed and started again.

    The load test's server with the tests' options (given last, they win over its own)."""

    def __init__(self, database: Path, database_url: str | None = None,
                 **options: object) -> None:
        options = {"bot-delay": 0, "next-match-delay": 0.2, "message-rate": 500,
                   "message-burst": 1000, **GENEROUS_QUOTAS, **options}
        super().__init__(free_port(), database_url or f"sqlite:///{database}", None,
                         database.with_suffix(".log"),
                         [word for key, value in options.items()
                          for word in (f"--{key}", str(value))])
        self.database = database

    @property
    def pid(self) -> int:
        """The server's process id."""
        assert self.process is not None
        return self.process.pid


def module_server(tmp_path_factory: pytest.TempPathFactory, name: str,
                  **options: object) -> Iterator[ServerProcess]:
    """A server with ``options`` for a module's tests (its fixture yields from this): one
    start for many tests, stopped when the module is done."""
    server = ServerProcess(tmp_path_factory.mktemp(name) / "room.sqlite3", **options)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[type]:
    """Make servers with options (``disconnect-grace=0.5`` …); all stopped at the end."""
    started: list[ServerProcess] = []

    def make(database_url: str | None = None, **options: object) -> ServerProcess:
        server = ServerProcess(tmp_path / f"room{len(started)}.sqlite3", database_url,
                               **options)
        server.start()
        started.append(server)
        return server

    yield make  # type: ignore[misc]
    for server in started:
        server.stop()


@pytest.fixture
def server(server_factory: type) -> ServerProcess:
    """A server with the test timings (bots act at once)."""
    return server_factory()  # type: ignore[call-arg]


@pytest.fixture
def shared_database() -> Iterator[str]:
    """A fresh PostgreSQL schema on the machine's server, for processes that share it and the
    machine's Redis (both checked: their absence fails the test)."""
    redis.Redis.from_url(SHARED_REDIS_URL).ping()
    with fresh_schema() as url:
        yield url
