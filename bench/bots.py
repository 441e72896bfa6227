"""Bot thinking time: seconds per decision (median, p99, max; card plays and bids apart)
over random games of every preset of both games (500's three, five and six players
included, and 1000's), every seat played by the bot measured.

Run: ``python -m bench.bots [--actions 150] [--bots random,simple,search:fast,search]
[--presets online,six-handed,online:46,seed] [--by-preset]``. A 500 preset may name another
deck after a colon (``online:46``: the 46-card deck's two jokers; the default list has it
after every preset). 1000's final bet counts as a bid. Both games' searches are compiled
before the clock starts, as a bot worker does when it starts (:mod:`cardroom.bots.warm`).
Prints a table (with ``--by-preset``, a row per bot and preset as well); the integrator
copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import statistics
import time

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.bots.warm import compile_search, compile_thousand_search
from cardroom.games.base import Game
from cardroom.games.registry import GAMES, pick_game

PRESETS = (*(preset for spec in GAMES.values() for preset in spec.presets), "online:46")
"""The tables measured by default: every preset of every game, and `online` with the
46-card deck."""


def new_game(preset: str, seed: int) -> Game:
    """A game of ``preset``, or of ``PRESET:DECK`` (the preset played with that deck),
    dealt from ``seed``."""
    name, _, deck = preset.partition(":")
    spec, name = pick_game(None, name)
    rules = spec.rules(name)
    if deck:
        rules = spec.rules_from_dict({**rules.to_dict(), "deck": deck})
    return spec.new(rules, seed)


KINDS = ("every", "play", "bidding")
"""The decisions timed: all of them, card plays, bids."""
PHASE_KIND = {"play": "play", "bidding": "bidding", "bet": "bidding"}
"""The kind each phase's decisions count as, besides every decision (1000's final bet is a
bid)."""


def decision_times(name: str, actions: int, preset: str, number: int) -> dict[str, list[float]]:
    """Seconds per decision by :data:`KINDS` over ``actions`` actions of a game of
    ``preset`` (dealt from seed ``100 + number``)."""
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    game = new_game(preset, seed=100 + number)
    bots = [make_bot(name, seed=seat) for seat in range(game.players)]
    for _ in range(actions):
        if game.is_over:
            break
        seat = game.to_act
        view = game.view(seat)
        started = time.perf_counter()
        action = bots[seat].choose(view)
        elapsed = time.perf_counter() - started
        times["every"].append(elapsed)
        if view["phase"] in PHASE_KIND:
            times[PHASE_KIND[view["phase"]]].append(elapsed)
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
    compile_search()
    compile_thousand_search()
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
