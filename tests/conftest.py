"""Shared fixtures: a real card room server in a subprocess on a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerProcess:
    """`cardroom serve` on a SQLite file of its own (or the database at ``database_url``, which
    several servers may share with a ``redis-url`` option); can be killed and started again."""

    def __init__(self, database: Path, database_url: str | None = None,
                 **options: object) -> None:
        self.database = database
        self.database_url = database_url or f"sqlite:///{database}"
        self.options = {"bot-delay": 0, "next-match-delay": 0.2, "message-rate": 500,
                        "message-burst": 1000, **options}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(".log")

    @property
    def url(self) -> str:
        """The WebSocket endpoint."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        """Start and wait until it answers."""
        command = [sys.executable, "-m", "cardroom", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--database-url", self.database_url,
                   "--log-level", "warning"]
        for key, value in self.options.items():
            command += [f"--{key}", str(value)]
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
        deadline = time.monotonic() + 60  # bot workers warm up first; CI may be busy
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/health",
                                            timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start in time")

    @property
    def pid(self) -> int:
        """The server's process id."""
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, like a crash."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop politely (end of test)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


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
