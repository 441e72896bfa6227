"""The daily challenge under load: a day played by many players through the real server, how
long its leaderboard takes, and the live tables beside it.

1. **A day's challenge.** Starts `cardroom serve` on a fresh SQLite file (one process) with a
   quick challenge bot (``--challenge-bot rules``, seeded like the real one; the real
   ``search:steady`` thinks for tenths of a second a card, which is the bot workers' cost,
   measured by ``bench/bots.py``, not the room's). ``--players`` simulated players, at most
   ``--concurrency`` at once, each register over a WebSocket, send ``daily_challenge`` and play
   every deal of the day in their seat with the rules bot's choice (seeded per player, so the
   results spread as people's would) as fast as the server answers.
2. **The leaderboard** of that day, ``GET /api/challenge`` with a player's token (every entry
   scored against all the others on each deal): the first answer, then ``--asks`` more.
3. **The live tables beside it** (``--tables``, 0 to skip): the load test's tables of four
   clients at a human pace for ``--seconds``, once alone and once with ``--background``
   players playing the challenge at a human pace and the leaderboard asked every second;
   the actions' p50 and p99 side by side.

Run: ``python bench/challenge.py --players 1000 --tables 500 --seconds 90``.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import random
import statistics
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.games.registry import GAMES
from cardroom.tools.client import Client
from cardroom.tools.loadtest import LoadRun, default_folder, http_base, run_load, start_servers
from cardroom.tools.processes import cpu_seconds, percentile

QUICK = ["--challenge-bot", "rules", "--next-match-delay", "0", "--bot-delay", "0",
         "--max-challenge-entries-per-day", "1000000",
         "--max-lookups-per-minute", "1000000", "--abandon-after", "86400"]
"""The server's options: a quick challenge bot, no pauses, no limit on leaderboard asks from
the benchmark's one address."""
HUMAN_THINK = 2.0
"""Mean seconds a background player takes over a card, as the load test's players do."""


@dataclass
class DayRun:
    """What playing a day's challenge measured."""

    players: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    seconds: float = 0.0


def finished(update: dict[str, Any]) -> bool:
    """The entry's last deal is over."""
    challenge = update.get("challenge") or {}
    view = update.get("view") or {}
    return (bool(challenge) and update["match_number"] >= challenge["deals"]
            and view.get("phase") == "over")


def my_turn(update: dict[str, Any]) -> bool:
    """This player is to act in a deal being played."""
    view = update.get("view")
    return bool(view) and update["status"] == "playing" and view["to_act"] == update["seat"]


async def play_day(url: str, name: str, seed: int, think: float, run: DayRun,
                   game: str = "500") -> None:
    """One player's whole day: register, enter, play every deal with a seeded rules bot."""
    rng = random.Random(seed)
    bot = make_bot("rules", seed)
    try:
        async with Client(url, timeout=600) as client:
            token = await client.register(name)
            run.tokens.append(token)
            table = (await client.request("daily_challenge", game=game))["table_id"]
            while True:
                update = await client.wait_for(table, lambda u: finished(u) or my_turn(u))
                if finished(update):
                    break
                if think:
                    await asyncio.sleep(rng.expovariate(1 / think))
                await client.act(table, bot.choose(update["view"]))
                run.actions += 1
        run.players += 1
    except Exception as error:  # a benchmark counts failures instead of stopping
        run.errors.append(f"{name}: {type(error).__name__}: {error}")


async def play_many(url: str, players: int, concurrency: int, think: float, prefix: str,
                    progress: Progress | None = None) -> DayRun:
    """``players`` players each play the day, ``concurrency`` at a time."""
    run = DayRun()
    gate = asyncio.Semaphore(concurrency)
    task = progress.add_task("players through the day", total=players) if progress else None

    async def one(number: int) -> None:
        async with gate:
            await play_day(url, f"{prefix}{number}", number, think, run)
        if progress is not None and task is not None:
            progress.advance(task)

    started = time.perf_counter()
    await asyncio.gather(*(one(n) for n in range(players)))
    run.seconds = time.perf_counter() - started
    return run


def ask_board(url: str, token: str, game: str = "500") -> tuple[float, dict[str, Any]]:
    """Seconds one leaderboard answer took, and the answer."""
    request = urllib.request.Request(f"{http_base(url)}/api/challenge?game={game}",
                                     headers={"Authorization": f"Bearer {token}"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as answer:
        body = json.loads(answer.read())
    return time.perf_counter() - started, body


async def ask_board_every(url: str, token: str, every: float, until: float,
                          seconds: list[float]) -> None:
    """Ask for the leaderboard every ``every`` seconds until ``until`` (perf_counter)."""
    while time.perf_counter() < until:
        took, _ = await asyncio.to_thread(ask_board, url, token)
        seconds.append(took)
        await asyncio.sleep(every)


def load_run(urls: list[str], servers: list[Any], tables: int, seconds: float) -> LoadRun:
    """The load test's tables of four at a human pace."""
    return LoadRun(urls=urls, tables=tables, duration=seconds, think=HUMAN_THINK,
                   servers=servers, database_url=servers[0].database_url)


async def tables_beside(console: Console, folder: Path, tables: int, seconds: float,
                        background: int, day: bool) -> tuple[LoadRun, DayRun | None,
                                                              list[float]]:
    """The live tables alone (``day`` false), or with the challenge played beside them."""
    folder.mkdir(parents=True, exist_ok=True)
    servers = start_servers(1, None, None, folder, extra=QUICK)
    try:
        url = servers[0].url
        run = load_run([url], servers, tables, seconds)
        asks: list[float] = []
        if not day:
            await run_load(run, console)
            return run, None, asks
        until = time.perf_counter() + seconds + 30
        first = await play_many(url, 1, 1, 0.0, "first")  # someone has played: a board
        players = play_many(url, background, background, HUMAN_THINK, "beside")
        board = ask_board_every(url, first.tokens[0], 1.0, until, asks)
        load = run_load(run, console)
        _, day_run, _ = await asyncio.gather(load, players, board)
        return run, day_run, asks
    finally:
        for server in servers:
            server.stop()


def main(players: int = typer.Option(1000, help="Players who play the whole day."),
         concurrency: int = typer.Option(100, help="Players playing at once."),
         asks: int = typer.Option(30, help="Leaderboard answers timed after the first."),
         tables: int = typer.Option(500, help="Live tables beside the challenge (0: skip)."),
         seconds: float = typer.Option(90.0, help="Seconds of live tables per run."),
         background: int = typer.Option(50, help="Players playing the challenge at a human "
                                                 "pace beside the live tables.")) -> None:
    """Play a day's challenge with many players, time its leaderboard, and the tables beside."""
    console = Console()
    console.print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                  f"{time.strftime('%Y-%m-%d')}; {GAMES['500'].daily.deals} deals of 500")
    with default_folder() as tmp:
        folder = Path(tmp)
        (folder / "day").mkdir()
        servers = start_servers(1, None, None, folder / "day", extra=QUICK)
        try:
            url, pid = servers[0].url, servers[0].pid
            assert pid is not None
            cpu_before = cpu_seconds(pid)
            with Progress(console=console, transient=True) as progress:
                day = asyncio.run(play_many(url, players, concurrency, 0.0, "p", progress))
            cpu = cpu_seconds(pid) - cpu_before
            timings = [ask_board(url, day.tokens[-1])[0] for _ in range(asks + 1)]
            _, board = ask_board(url, day.tokens[-1])
        finally:
            for server in servers:
                server.stop()
        report_day(console, day, timings, board, cpu)
        if tables:
            alone, _, _ = asyncio.run(tables_beside(console, folder / "alone", tables,
                                                    seconds, background, day=False))
            beside, day_beside, board_asks = asyncio.run(tables_beside(
                console, folder / "beside", tables, seconds, background, day=True))
            report_tables(console, alone, beside, day_beside, board_asks)


def report_day(console: Console, day: DayRun, timings: list[float], board: dict[str, Any],
               cpu: float) -> None:
    """The day's figures and the leaderboard's time."""
    table = Table(title="A day's challenge")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("players who finished the day", f"{day.players:,}")
    table.add_row("errors", str(len(day.errors)))
    table.add_row("their actions", f"{day.actions:,}")
    table.add_row("wall time", f"{day.seconds:,.0f} s ({day.players / day.seconds * 60:,.0f} "
                               "players a minute)")
    table.add_row("server process CPU (bot workers apart)",
                  f"{cpu:,.0f} s ({cpu / max(1, day.actions) * 1000:.1f} ms per player action)")
    table.add_row("leaderboard rows", f"{len(board['rows']):,} (bots' row "
                                      f"{'in' if board['bots_ready'] else 'not yet in'})")
    ms = [t * 1000 for t in timings]
    table.add_row("leaderboard: first answer", f"{ms[0]:,.0f} ms")
    table.add_row("leaderboard: p50 / p99 / max of the rest",
                  f"{statistics.median(ms[1:]):,.0f} / {percentile(ms[1:], 0.99):,.0f} / "
                  f"{max(ms[1:]):,.0f} ms")
    console.print(table)
    for error in day.errors[:5]:
        console.print(f"[red]{error}")


def report_tables(console: Console, alone: LoadRun, beside: LoadRun, day: DayRun | None,
                  asks: list[float]) -> None:
    """The live tables' latency alone and with the challenge beside them."""
    table = Table(title=f"{alone.tables} live tables at a human pace")
    for column in ("run", "actions/s", "p50", "p99", "errors", "challenge players",
                   "leaderboard p50 / max"):
        table.add_column(column, justify="right")
    for name, run, players, board in (("alone", alone, None, []),
                                      ("with the challenge", beside, day, asks)):
        ms = [x * 1000 for x in run.stats.latencies]
        elapsed = max(1e-9, run.duration)
        table.add_row(name, f"{run.stats.actions / elapsed:,.1f}",
                      f"{percentile(ms, 0.5):,.1f} ms", f"{percentile(ms, 0.99):,.1f} ms",
                      str(run.stats.errors),
                      "–" if players is None else f"{players.players} ({players.actions:,} "
                                                  f"actions, {len(players.errors)} errors)",
                      "–" if not board else f"{statistics.median(board) * 1000:,.0f} / "
                                            f"{max(board) * 1000:,.0f} ms")
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
