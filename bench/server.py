"""Server load: N tables of four WebSocket clients playing with a bot's choices, on loopback.

Starts `cardroom serve` on a fresh SQLite file (or ``--servers 2`` sharing PostgreSQL and
Redis), seats four real clients at each table, and lets every client play its seat with the
``simple`` bot's choice after ``--think`` seconds (0: full speed). Prints actions per second,
the p50/p99/max time from sending an action to *every* seat of the table having the view that
shows it, errors, the servers' memory, and the end-of-run check of the record.

``--vs CHECKOUT`` measures another checkout's server (an older commit, say) in the same run,
with the same clients: the two servers take turns for ``--rounds`` rounds each (the order
alternating), each on a fresh database, and the last table sets the medians side by side with
their ratio. The server's CPU time per action is the figure least disturbed by whatever else
the machine is doing.

The driver is :mod:`cardroom.tools.loadtest` (also ``cardroom loadtest``); this script keeps the
benchmark's historical options.

Run: ``python bench/server.py --tables 200 --seconds 60 --think 1.0``, or side by side:
``python bench/server.py --tables 500 --seconds 90 --think 2 --vs ../start --rounds 3``.
"""

from __future__ import annotations

import asyncio
import os
import platform
import statistics
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots.levels import DEFAULT_BOT
from cardroom.tools.loadtest import LoadRun, default_folder, figures, run_load, start_servers
from cardroom.tools.processes import percentile

THIS = "this checkout"


def measure(console: Console, folder: Path, tables: int, seconds: float, think: float,
            servers: int, database_url: str | None, redis_url: str | None,
            source: Path | None = None, target: int = 500,
            profile_every: float = 0.0, analysis_every: float = 0.0,
            relay_only: bool = False, full_views: bool = False,
            bot_seats: int = 0, server_bot: str = DEFAULT_BOT) -> LoadRun:
    """One load run against fresh servers (another checkout's, with ``source``)."""
    folder.mkdir(parents=True, exist_ok=True)
    # Every client comes from this machine's one address: lift the per-address limit on
    # profiles (an older checkout has neither the limit nor the profiles).
    asks = profile_every or analysis_every
    extra = ["--max-lookups-per-minute", "1000000"] if asks and source is None else []
    started = start_servers(servers, database_url, redis_url, folder, extra=extra,
                            source=source)
    try:
        run = LoadRun(urls=[s.url for s in started], tables=tables, duration=seconds,
                      think=think, servers=started, database_url=started[0].database_url,
                      rules={"target": target, "lose_at": -target},
                      profile_every=profile_every, analysis_every=analysis_every,
                      relay_only=relay_only, full_views=full_views, bot_seats=bot_seats,
                      server_bot=server_bot)
        asyncio.run(run_load(run, console))
    finally:
        for server in started:
            server.stop()
    return run


def key_figures(run: LoadRun) -> dict[str, float]:
    """The figures compared side by side: latency percentiles (ms), server CPU per action
    (ms) and throughput."""
    ms = [x * 1000 for x in run.stats.latencies]
    actions = max(run.stats.actions, 1)
    return {"p50 ms": percentile(ms, 0.5), "p99 ms": percentile(ms, 0.99),
            "server CPU per action ms": (run.cpu_used or float("nan")) * 1000 / actions,
            "actions/s": run.stats.actions / max(run.elapsed or 1e-9, 1e-9),
            "errors": float(run.stats.errors)}


def report(console: Console, run: LoadRun, title: str) -> None:
    """Every figure of one run."""
    result = Table(title=title)
    result.add_column("figure")
    result.add_column("value", justify="right")
    for name, value in figures(run):
        result.add_row(name, value)
    console.print(result)


def side_by_side(console: Console, runs: dict[str, list[dict[str, float]]], other: str) -> None:
    """Medians of each checkout's rounds, and this checkout's over the other's."""
    result = Table(title="side by side: medians of the rounds (ratio: this ÷ other)")
    result.add_column("figure")
    result.add_column(THIS, justify="right")
    result.add_column(other, justify="right")
    result.add_column("ratio", justify="right")
    for name in runs[THIS][0]:
        mine = statistics.median(r[name] for r in runs[THIS])
        theirs = statistics.median(r[name] for r in runs[other])
        ratio = f"{mine / theirs:.2f}" if theirs else "—"
        result.add_row(name, f"{mine:,.2f}", f"{theirs:,.2f}", ratio)
    console.print(result)


def main(
    tables: int = typer.Option(200, help="Concurrent tables (four clients each)."),
    seconds: float = typer.Option(60.0, help="How long to play."),
    think: float = typer.Option(1.0, help="Mean seconds a client waits before acting "
                                          "(0: full speed)."),
    servers: int = typer.Option(1, help="Server processes (more than one needs "
                                        "--database-url and --redis-url)."),
    database_url: str = typer.Option(None, help="postgresql://… (default: fresh SQLite)."),
    redis_url: str = typer.Option(None, help="redis://… to share tables between servers."),
    vs: str = typer.Option(None, help="Another checkout whose server to measure in turn "
                                       "with this one's (same clients, same load)."),
    rounds: int = typer.Option(1, help="Runs of each server with --vs (order alternating)."),
    target: int = typer.Option(500, help="The tables' target score (lower: matches end, "
                                         "and are rated, more often)."),
    profile_every: float = typer.Option(0.0, help="Each table asks for a player's profile "
                                                  "every this many seconds (0: never)."),
    analysis_every: float = typer.Option(0.0, help="Each table asks for the analysis of its "
                                                   "last hand over every this many seconds "
                                                   "(0: never)."),
    relay_only: bool = typer.Option(False, help="With --servers 2: the first owns every "
                                                "table, every client is on the second, "
                                                "which only relays; their CPU apart."),
    full_views: bool = typer.Option(False, help="Clients take every table message whole "
                                                "rather than as patches."),
    bot_seats: int = typer.Option(0, min=0, max=3, help="Seats of each table the servers' "
                                                        "own bots play (one person and "
                                                        "bots: 3)."),
    server_bot: str = typer.Option(DEFAULT_BOT, help="The bot of those seats (the room's "
                                                     "default; simple: a light load)."),
) -> None:
    """Measure the server under load (and, with --vs, another checkout's beside it)."""
    console = Console()
    machine = f"{platform.node()}, {os.cpu_count()} cores"
    contenders: list[tuple[str, Path | None]] = [(THIS, None)]
    if vs is not None:
        contenders.append((vs, Path(vs)))
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in contenders}
    with default_folder() as folder:
        for round_number in range(rounds if vs is not None else 1):
            order = contenders if round_number % 2 == 0 else contenders[::-1]
            for name, source in order:
                run = measure(console, Path(folder) / f"{round_number}-{len(runs[name])}"
                              f"-{'other' if source else 'this'}", tables, seconds, think,
                              servers, database_url, redis_url, source, target,
                              profile_every, analysis_every, relay_only, full_views,
                              bot_seats, server_bot)
                runs[name].append(key_figures(run))
                report(console, run, f"{name}: {tables} tables, {seconds:.0f} s, round "
                                     f"{round_number + 1} ({machine})")
    if vs is not None:
        side_by_side(console, runs, vs)


if __name__ == "__main__":
    typer.run(main)
