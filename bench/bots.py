"""Bot thinking time: seconds per decision (median, p99, max) of each bot over random games
of every preset, all four seats played by the bot measured.

Run: ``python bench/bots.py [--actions 150] [--bots random,simple,search:fast,search]``.
Prints a table; the integrator copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import statistics
import time

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.games.five_hundred import PRESET_NAMES, Game


def decision_times(name: str, actions: int) -> tuple[list[float], list[float]]:
    """Seconds per decision (all, and card plays only) over ``actions`` actions per preset."""
    every: list[float] = []
    plays: list[float] = []
    for number, preset in enumerate(PRESET_NAMES):
        game = Game.new(preset, seed=100 + number)
        bots = [make_bot(name, seed=seat) for seat in range(4)]
        for _ in range(actions):
            if game.is_over:
                break
            seat: int = game.to_act  # type: ignore[assignment]
            view = game.view(seat)
            started = time.perf_counter()
            action = bots[seat].choose(view)
            elapsed = time.perf_counter() - started
            every.append(elapsed)
            if view["phase"] == "play":
                plays.append(elapsed)
            game.apply(action)
    return every, plays


def p99(times: list[float]) -> float:
    """The 99th percentile (the largest of fewer than 100)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(actions: int = typer.Option(150, help="Actions per preset and bot."),
         bots: str = typer.Option("random,simple,search:fast,search",
                                  help="Comma-separated bot names.")) -> None:
    """Measure each bot and print the table."""
    table = Table(title="Bot decision time, seconds")
    for column in ("bot", "decisions", "median", "p99", "max", "plays: median", "plays: p99"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for name in bots.split(","):
        every, plays = decision_times(name, actions)
        table.add_row(name, str(len(every)), f"{statistics.median(every):.4f}",
                      f"{p99(every):.4f}", f"{max(every):.4f}",
                      f"{statistics.median(plays):.4f}", f"{p99(plays):.4f}")
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
