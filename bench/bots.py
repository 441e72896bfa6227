"""Bot thinking time: seconds per decision (median, p99, max; card plays and bids apart)
over random games of every preset (three, five and six players included), every seat played
by the bot measured.

Run: ``python -m bench.bots [--actions 150] [--bots random,simple,search:fast,search]
[--presets online,six-handed,online:46] [--by-preset]``. A preset may name another deck
after a colon (``online:46``: the 46-card deck's two jokers; the default list has it after
every preset). Prints a table (with ``--by-preset``, a row per bot and preset as well); the
integrator copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import statistics
import time

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.games.five_hundred import ALL_PRESET_NAMES, Game, Rules

PRESETS = (*ALL_PRESET_NAMES, "online:46")
"""The tables measured by default: every preset, and `online` with the 46-card deck."""


def table_rules(preset: str) -> Rules:
    """The rules of ``preset``, or of ``PRESET:DECK`` (the preset played with that deck)."""
    name, _, deck = preset.partition(":")
    rules = Rules.preset(name)
    return Rules.from_dict({**rules.to_dict(), "deck": deck}) if deck else rules


KINDS = ("every", "play", "bidding")
"""The decisions timed: all of them, card plays, bids."""


def decision_times(name: str, actions: int, preset: str, number: int) -> dict[str, list[float]]:
    """Seconds per decision by :data:`KINDS` over ``actions`` actions of a game of
    ``preset`` (dealt from seed ``100 + number``)."""
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    game = Game.new(table_rules(preset), seed=100 + number)
    bots = [make_bot(name, seed=seat) for seat in range(game.players)]
    for _ in range(actions):
        if game.is_over:
            break
        seat: int = game.to_act  # type: ignore[assignment]
        view = game.view(seat)
        started = time.perf_counter()
        action = bots[seat].choose(view)
        elapsed = time.perf_counter() - started
        times["every"].append(elapsed)
        if view["phase"] in times:
            times[view["phase"]].append(elapsed)
        game.apply(action)
    return times


def p99(times: list[float]) -> float:
    """The 99th percentile (the largest of fewer than 100)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(actions: int = typer.Option(150, help="Actions per preset and bot."),
         bots: str = typer.Option("random,simple,search:fast,search",
                                  help="Comma-separated bot names."),
         presets: str = typer.Option(",".join(PRESETS),
                                     help="Comma-separated presets (PRESET:DECK for "
                                          "another deck)."),
         by_preset: bool = typer.Option(False, help="A row per bot and preset as well.")
         ) -> None:
    """Measure each bot and print the table."""
    table = Table(title="Bot decision time, seconds")
    for column in ("bot", "preset", "decisions", "median", "p99", "max", "plays: median",
                   "plays: p99", "bids: median", "bids: p99"):
        table.add_column(column, justify="left" if column in ("bot", "preset") else "right")

    def row(name: str, preset: str, times: dict[str, list[float]]) -> None:
        every = times["every"]
        table.add_row(name, preset, str(len(every)), f"{statistics.median(every):.4f}",
                      f"{p99(every):.4f}", f"{max(every):.4f}",
                      *(f"{figure(times[kind] or [0.0]):.4f}" for kind in ("play", "bidding")
                        for figure in (statistics.median, p99)))

    names = presets.split(",")
    for name in bots.split(","):
        totals: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for number, preset in enumerate(names):
            times = decision_times(name, actions, preset, number)
            if by_preset:
                row(name, preset, times)
            for kind in KINDS:
                totals[kind] += times[kind]
        row(name, "all" if len(names) > 1 else names[0], totals)
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
