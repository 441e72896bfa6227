"""Time to analyse a match: CPU seconds per hand (median, p99, max) of the analysis replays
show (the game's :data:`~cardroom.bots.GAME_ANALYSERS` entry: for 500 the par table, every
card's verdict and the bidding review; for 1000 the bet double dummy, every card's verdict in
points and the bidding review), as a bot worker works it out, over whole matches of rules
bots.

Run: ``python -m bench.analysis [--matches 4] [--game 500] [--preset online]``. Prints a
table; the integrator copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import statistics
import time

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from cardroom.bots import GAME_ANALYSERS
from cardroom.games.record import Record
from cardroom.games.registry import GAMES, replay
from cardroom.tools.arena import play_match


def hand_times(game: str, preset: str, seed: int) -> list[float]:
    """CPU seconds to analyse each hand with cards played of one match."""
    rules = GAMES[game].rules_class.preset(preset)
    text = play_match(rules, seed, "rules", "rules", 0, keep_record=True).record
    assert text is not None
    played = [hand.number for hand in replay(Record.from_text(text)).history
              if any(hand.tricks)]
    review = GAME_ANALYSERS[game].review
    times = []
    for number in played:
        started = time.process_time()
        review(text, number)
        times.append(time.process_time() - started)
    return times


def main(matches: int = typer.Option(4, help="Matches to analyse, hand by hand."),
         game: str = typer.Option("500", help="The game: 500 or 1000."),
         preset: str = typer.Option("", help="The rules preset (the game's default)."),
         seed: int = typer.Option(1, help="Seed of the first match.")) -> None:
    """Analyse whole matches and print the CPU time per hand."""
    preset = preset or GAMES[game].default_preset
    rules = GAMES[game].rules_class.preset(preset)
    GAME_ANALYSERS[game].review(play_match(rules, 0, "rules", "rules", 0, keep_record=True,
                                           hands=1).record or "", 1)  # compile the solver
    per_match: list[float] = []
    every: list[float] = []
    for number in track(range(matches), description="analysing"):
        times = hand_times(game, preset, seed + number)
        per_match.append(sum(times))
        every.extend(times)
    table = Table(title=f"analysis CPU time, {matches} matches of {game} {preset}, "
                        f"{len(every)} hands")
    for column in ("per hand: median", "p99", "max", "per match: median"):
        table.add_column(column, justify="right")
    ordered = sorted(every)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    table.add_row(f"{statistics.median(every):.2f} s", f"{p99:.2f} s", f"{ordered[-1]:.2f} s",
                  f"{statistics.median(per_match):.1f} s")
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
