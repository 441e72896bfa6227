"""Server load: N tables of four WebSocket clients playing with a bot's choices, on loopback.

Starts `cardroom serve` on a fresh SQLite file (or ``--servers 2`` sharing PostgreSQL and
Redis), seats four real clients at each table, and lets every client play its seat with the
``simple`` bot's choice after ``--think`` seconds (0: full speed). Prints actions per second,
the p50/p99/max time from sending an action to *every* seat of the table having the view that
shows it, errors, the servers' memory, and the end-of-run check of the record.

The driver is :mod:`cardroom.tools.loadtest` (also ``cardroom loadtest``); this script keeps the
benchmark's historical options.

Run: ``python bench/server.py --tables 200 --seconds 60 --think 1.0``.
"""

from __future__ import annotations

import asyncio
import os
import platform
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cardroom.tools.loadtest import LoadRun, default_folder, figures, run_load, start_servers


def main(
    tables: int = typer.Option(200, help="Concurrent tables (four clients each)."),
    seconds: float = typer.Option(60.0, help="How long to play."),
    think: float = typer.Option(1.0, help="Mean seconds a client waits before acting "
                                          "(0: full speed)."),
    servers: int = typer.Option(1, help="Server processes (more than one needs "
                                        "--database-url and --redis-url)."),
    database_url: str = typer.Option(None, help="postgresql://… (default: fresh SQLite)."),
    redis_url: str = typer.Option(None, help="redis://… to share tables between servers."),
) -> None:
    """Measure the server under load."""
    console = Console()
    with default_folder() as folder:
        started = start_servers(servers, database_url, redis_url, Path(folder))
        try:
            run = LoadRun(urls=[s.url for s in started], tables=tables, duration=seconds,
                          think=think, servers=started, database_url=started[0].database_url)
            asyncio.run(run_load(run, console))
        finally:
            for server in started:
                server.stop()
    result = Table(title=f"{tables} tables, {seconds:.0f} s ({platform.node()}, "
                         f"{os.cpu_count()} cores)")
    result.add_column("figure")
    result.add_column("value", justify="right")
    for name, value in figures(run):
        result.add_row(name, value)
    console.print(result)


if __name__ == "__main__":
    typer.run(main)
