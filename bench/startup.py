"""What starting a server costs: CPU and time to ready, this checkout's server beside another's.

Starts `cardroom serve` (a fresh SQLite file each time) until it answers /api/health, then
stops it, ``--starts`` times, alternating with another checkout's server when ``--vs`` names
one. The CPU is the whole machine's busy time (``/proc/stat``) over each start and stop, so
that it counts every process the server starts (its bot workers, and whatever they are
forked from), not only those it waits for; run it on a quiet machine. The tests start
hundreds of servers, and a bot worker that replaces one killed after an overrun costs the
same again.

Run: ``python bench/startup.py --starts 10 [--vs ../before]``.
"""

from __future__ import annotations

import itertools
import statistics
import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from cardroom.tools.processes import ManagedServer, free_port


def machine_busy_seconds() -> float:
    """Seconds of CPU the whole machine has spent busy since it started (all cores)."""
    with open("/proc/stat") as stat:
        fields = stat.readline().split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / 100  # USER_HZ ticks


def one_start(folder: Path, number: int, source: Path | None) -> tuple[float, float]:
    """(machine CPU seconds, seconds to ready) of starting and stopping one server."""
    server = ManagedServer(free_port(), f"sqlite:///{folder / f'room{number}.sqlite3'}", None,
                           folder / f"room{number}.log", source=source)
    busy, began = machine_busy_seconds(), time.monotonic()
    server.start()
    ready = time.monotonic() - began
    server.stop()
    return machine_busy_seconds() - busy, ready


def main(
    starts: Annotated[int, typer.Option(help="Starts of each server.")] = 10,
    vs: Annotated[Path | None, typer.Option(
        help="Another checkout whose server to start too.")] = None,
) -> None:
    """Measure the CPU and the time a server start takes."""
    console = Console()
    servers: dict[str, Path | None] = {"this checkout": None}
    if vs is not None:
        servers[f"{vs}"] = vs
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
    databases = itertools.count()  # a new database file every start, whichever server
    with tempfile.TemporaryDirectory() as folder:
        for _ in track(range(starts), description="starting servers", console=console):
            for name, source in servers.items():  # alternating, so load drifts hit both
                figures[name].append(one_start(Path(folder), next(databases), source))
    table = Table(title=f"A server's start and stop, {starts} each")
    for column in ("server", "CPU s, median", "min", "max", "ready s, median"):
        table.add_column(column, justify="left" if column == "server" else "right")
    for name, runs in figures.items():
        cpu = [c for c, _ in runs]
        table.add_row(name, f"{statistics.median(cpu):.2f}", f"{min(cpu):.2f}",
                      f"{max(cpu):.2f}", f"{statistics.median(r for _, r in runs):.2f}")
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
