"""Local processes the tools and tests start, watch and stop: `cardroom serve` servers and
Redis servers of their own, started on a free port, killed like a crash and started again, with
their memory and CPU time read from /proc. The load test, the benchmarks and the test fixtures
share it; it imports nothing of the bots, so a test that only needs a server loads no solver.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def rss_kib(pid: int) -> int:
    """Resident memory of a local process in KiB (Linux); 0 if it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state, parent, …; Linux); empty
    if the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a local process has used so far, in seconds (Linux)."""
    fields = process_stat(pid)
    if not fields:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0–1) of some values (nan if there are none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def health_url(ws_url: str) -> str:
    """The ``/api/health`` address of the server behind a ``ws://host:port/ws`` address."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}/api/health"


def ask_health(ws_url: str, timeout: float = 2.0) -> dict[str, Any] | None:
    """What a server says about itself (pid, memory …), or ``None`` if it does not answer."""
    try:
        with urllib.request.urlopen(health_url(ws_url), timeout=timeout) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


# -- servers this tool starts itself ---------------------------------------------------------


class ManagedProcess:
    """A child process the load test starts, kills like a crash, starts again and stops at
    the end; a subclass says what to run and when it is ready."""

    name = "process"

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.kills = 0

    def command(self) -> list[str]:
        """What to run."""
        raise NotImplementedError

    def environment(self) -> dict[str, str] | None:
        """Its environment (``None``: this process's)."""
        return None

    def ready(self) -> bool:
        """Whether it answers yet."""
        raise NotImplementedError

    @property
    def running(self) -> bool:
        """True while the process runs."""
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int | None:
        """The process id while it runs."""
        return self.process.pid if self.process is not None and self.running else None

    def start(self, wait: float = 60.0) -> None:
        """Start and wait until it is ready; ``RuntimeError`` if it exits or is not ready in
        time."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=log,
                                            env=self.environment())
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log.read_text()[-2000:]}")
            if self.ready():
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start in time")

    def kill(self) -> None:
        """SIGKILL, like a crash: every connection it held is gone at once."""
        if self.process is not None and self.running:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.kills += 1

    def stop(self) -> None:
        """Stop politely (SIGTERM; SIGKILL if it has not ended 10 s later)."""
        if self.process is not None and self.running:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


LOAD_QUOTAS = ("--max-registrations-per-minute", "1000000",
               "--max-connections-per-address", "1000000", "--max-tables", "1000000",
               "--abandon-after", "86400")
"""Every client of a load test comes from this machine's one address, far faster than
people do; its tables have nobody watching between kills for longer than a person would."""


class ManagedServer(ManagedProcess):
    """A `cardroom serve` process started (and killed, and restarted) by the load test."""

    name = "server"

    def __init__(self, port: int, database_url: str, redis_url: str | None,
                 log: Path, extra: list[str] | None = None, source: Path | None = None) -> None:
        super().__init__(port, log)
        self.database_url = database_url
        self.redis_url = redis_url
        self.extra = extra or []
        self.source = source
        """Another checkout whose server to run instead of this one (its ``src`` first on the
        path): how a benchmark sets an older commit's server beside this one's."""

    @property
    def url(self) -> str:
        """The WebSocket address."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def command(self) -> list[str]:
        """`cardroom serve` with quick bots (``simple`` unless a table names another) and
        generous message and connection limits. Another checkout's server is given only the
        options its command line has (one without ``--default-bot`` plays ``simple``
        anyway, one without the cap on an address's connections has none)."""
        newer = [word for option, value in (("--default-bot", "simple"),
                                            ("--max-http-connections-per-address", "1000000"))
                 if self._knows(option) for word in (option, value)]
        command = [sys.executable, "-m", "cardroom", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--database-url", self.database_url,
                   "--log-level", "warning", "--bot-delay", "0", *newer,
                   "--message-rate", "200",
                   "--message-burst", "400", "--next-match-delay", "1",
                   *LOAD_QUOTAS, *self.extra]
        if self.redis_url:
            command += ["--redis-url", self.redis_url]
        return command

    def _knows(self, option: str) -> bool:
        """Whether the server to run has ``option`` (this checkout's has every one; another
        checkout's, if its command line's source names it)."""
        if self.source is None:
            return True
        cli = self.source / "src" / "cardroom" / "cli.py"
        name = option.removeprefix("--").replace("-", "_")
        return cli.is_file() and f"{name}:" in cli.read_text(encoding="utf-8")

    def environment(self) -> dict[str, str]:
        """This process's environment without the URLs that would override the options
        (and with another checkout's code first on the path, if one is to run)."""
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("DATABASE_URL", "REDIS_URL")}
        if self.source is not None:
            environment["PYTHONPATH"] = str(self.source.resolve() / "src")
        return environment

    def ready(self) -> bool:
        """It answers /api/health."""
        return ask_health(self.url, timeout=1) is not None


class ManagedRedis(ManagedProcess):
    """A Redis server of the load test's own (no persistence), which it can kill and start
    again on the same port: the outage the servers must ride out. The machine's shared Redis
    is never touched."""

    name = "redis-server"

    @property
    def url(self) -> str:
        """The address servers connect to."""
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        """redis-server on its port, keeping nothing on disk."""
        return ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no"]

    def ready(self) -> bool:
        """It accepts connections."""
        import socket

        with contextlib.suppress(OSError), socket.create_connection(
                ("127.0.0.1", self.port), timeout=0.5):
            return True
        return False


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
