"""Time to analyse a match: CPU seconds per hand (median, p99, max) of the analysis replays
show (``cardroom.bots.five_hundred.analysis.review_hand``: the par table, every card's verdict
and the bidding review), as a bot worker works it out, over whole matches of rules bots.

Run: ``python -m bench.analysis [--matches 4] [--preset online]``. Prints a table; the
integrator copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import statistics
import time

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from cardroom.bots.five_hundred.analysis import review_hand
from cardroom.games.five_hundred import Game, Record, Rules
from cardroom.tools.arena import play_match


def hand_times(preset: str, seed: int) -> list[float]:
    """CPU seconds to analyse each hand with cards played of one match."""
    text = play_match(Rules.preset(preset), seed, "rules", "rules", 0, keep_record=True).record
    assert text is not None
    played = [hand.number for hand in Game.replay(Record.from_text(text)).history
              if any(hand.tricks)]
    times = []
    for number in played:
        started = time.process_time()
        review_hand(text, number)
        times.append(time.process_time() - started)
    return times


def main(matches: int = typer.Option(4, help="Matches to analyse, hand by hand."),
         preset: str = typer.Option("online", help="The rules preset."),
         seed: int = typer.Option(1, help="Seed of the first match.")) -> None:
    """Analyse whole matches and print the CPU time per hand."""
    review_hand(play_match(Rules.preset(preset), 0, "rules", "rules", 0, keep_record=True,
                           hands=1).record or "", 1)  # compile the solver first
    per_match: list[float] = []
    every: list[float] = []
    for number in track(range(matches), description="analysing"):
        times = hand_times(preset, seed + number)
        per_match.append(sum(times))
        every.extend(times)
    table = Table(title=f"analysis CPU time, {matches} matches of {preset}, "
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
