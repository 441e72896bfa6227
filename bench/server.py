"""Server load: N tables of four WebSocket clients playing with a bot's choices, on loopback.

Starts `cardroom serve` on a fresh SQLite file, seats four real clients at each table, and
lets every client play its seat with the ``simple`` bot's choice after ``--think`` seconds.
Prints actions per second, the p50/p99/max time from sending an action to *every* seat of the
table having the view that shows it, errors, and the server's memory per table.

Run: ``python bench/server.py --tables 200 --seconds 60 --think 1.0``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.client import Client, ClientError

SEATS = 4


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Stats:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    hands: int = 0


class BenchTable:
    """Four clients at one table; tracks when each of them first saw each version."""

    def __init__(self, url: str, stats: Stats, think: float, rng: random.Random) -> None:
        self.url = url
        self.stats = stats
        self.think = think
        self.rng = rng
        self.seen: list[dict[int, float]] = [{} for _ in range(SEATS)]
        self.clients = [Client(url, timeout=30, on_table=self._arrival(n)) for n in range(SEATS)]
        self.table_id = ""

    def _arrival(self, seat: int) -> Any:
        def record(message: dict[str, Any]) -> None:
            self.seen[seat].setdefault(message["version"], time.perf_counter())
        return record

    async def seat_everybody(self, number: int) -> None:
        """Connect, register, create and join."""
        for seat, client in enumerate(self.clients):
            await client.connect()
            await client.register(f"b{number}s{seat}")
        self.table_id = await self.clients[0].create_table(
            seat=0, rules={"target": 100_000, "lose_at": -100_000})
        for seat, client in enumerate(self.clients[1:], start=1):
            await client.join(self.table_id, seat)

    async def play(self, seat: int, until: float) -> None:
        """Play one seat until the deadline, timing each of its actions."""
        client = self.clients[seat]
        bot = make_bot("simple", seed=self.rng.randrange(1 << 30))
        while time.perf_counter() < until:
            try:
                update = await client.wait_for(
                    self.table_id, lambda u: u["view"] is not None
                    and u["view"]["to_act"] == seat, timeout=max(0.1, until - time.perf_counter()))
            except (TimeoutError, ClientError):
                return
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            sent = time.perf_counter()
            try:
                result = await client.act(self.table_id, bot.choose(update["view"]))
            except ClientError:
                self.stats.errors += 1
                continue
            version = result["version"]
            await self._wait_everyone(version)
            arrivals = [min((t for v, t in seen.items() if v >= version), default=None)
                        for seen in self.seen]
            for seen in self.seen:
                for old in [v for v in seen if v < version]:
                    del seen[old]
            if all(a is not None for a in arrivals):
                self.stats.latencies.append(max(arrivals) - sent)  # type: ignore[type-var]
            self.stats.actions += 1

    async def _wait_everyone(self, version: int) -> None:
        for _ in range(200):
            if all(any(v >= version for v in seen) for seen in self.seen):
                return
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        """Disconnect all four."""
        await asyncio.gather(*(c.close() for c in self.clients), return_exceptions=True)


def start_server(database: Path, port: int) -> subprocess.Popen[bytes]:
    """`cardroom serve` on its own SQLite file; returns once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--database-url",
         f"sqlite:///{database}", "--log-level", "warning", "--bot-delay", "0",
         "--message-rate", "100"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("server did not start")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0–1) of some values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(stats: Stats, elapsed: float, tables: int, memory: tuple[int, int]) -> Table:
    """The results as a rich table."""
    result = Table(title=f"{tables} tables, {elapsed:.0f} s ({platform.node()}, "
                         f"{os.cpu_count()} cores)")
    result.add_column("figure")
    result.add_column("value", justify="right")
    ms = [x * 1000 for x in stats.latencies]
    result.add_row("actions", f"{stats.actions:,}")
    result.add_row("actions/s", f"{stats.actions / max(elapsed, 1e-9):,.1f}")
    result.add_row("action → every seat's view p50", f"{percentile(ms, 0.5):.1f} ms")
    result.add_row("action → every seat's view p99", f"{percentile(ms, 0.99):.1f} ms")
    result.add_row("action → every seat's view max", f"{max(ms, default=float('nan')):.1f} ms")
    result.add_row("mean", f"{statistics.fmean(ms) if ms else float('nan'):.1f} ms")
    result.add_row("errors", str(stats.errors))
    base, loaded = memory
    result.add_row("server RSS idle / loaded", f"{base / 1024:.0f} / {loaded / 1024:.0f} MiB")
    result.add_row("server memory per table", f"{(loaded - base) / max(tables, 1):.0f} KiB")
    return result


async def run(tables: int, seconds: float, think: float, port: int) -> None:
    """Seat the tables, play for ``seconds``, print the figures."""
    console = Console()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "bench.sqlite3", port)
        try:
            url = f"ws://127.0.0.1:{port}/ws"
            base = rss_kib(server.pid)
            stats = Stats()
            rng = random.Random(1)
            benches = [BenchTable(url, stats, think, rng) for _ in range(tables)]
            with console.status("seating players"):
                for number, bench in enumerate(benches):
                    await bench.seat_everybody(number)
            # The clients are the measuring instrument: keep their garbage collector's pauses
            # out of the figures (the server's own collector runs as usual).
            gc.freeze()
            gc.disable()
            started = time.perf_counter()
            until = started + seconds
            players = [asyncio.create_task(b.play(s, until)) for b in benches
                       for s in range(SEATS)]
            with Live(console=console, refresh_per_second=2) as live:
                while time.perf_counter() < until:
                    await asyncio.sleep(0.5)
                    live.update(f"{stats.actions:,} actions, {stats.errors} errors, "
                                f"{until - time.perf_counter():.0f} s left")
            loaded = rss_kib(server.pid)
            await asyncio.gather(*players, return_exceptions=True)
            elapsed = time.perf_counter() - started
            await asyncio.gather(*(b.close() for b in benches))
            console.print(report(stats, elapsed, tables, (base, loaded)))
        finally:
            server.terminate()
            server.wait(timeout=10)


def main(
    tables: int = typer.Option(200, help="Concurrent tables (four clients each)."),
    seconds: float = typer.Option(60.0, help="How long to play."),
    think: float = typer.Option(1.0, help="Mean seconds a client waits before acting."),
    port: int = typer.Option(8765, help="Port for the server under test."),
) -> None:
    """Measure the server under load."""
    asyncio.run(run(tables, seconds, think, port))


if __name__ == "__main__":
    typer.run(main)
