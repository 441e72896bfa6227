"""What bidding with the match score in mind is worth: the rules bot with the match tactics
(:mod:`cardroom.bots.tactics`) against the rules bot without them, on duplicate matches, for
several presets and for several values of the stretch it bids to stop a match-winning
contract. Both teams play the cards alike, so the difference is the tactics alone.

Run: ``python bench/tactics.py [--pairs 1000] [--presets online,australian,classic,american]
[--stretches 1,2,3,4] [--jobs 2]``. Prints a table; the integrator copies it to
bench/RESULTS.md.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cardroom.arena import play_match, proportion
from cardroom.bots import RulesBot, tactics
from cardroom.games.five_hundred import Rules


def play_pair(preset: str, stretch: int, seed: int) -> int:
    """Matches the tactical team wins of one duplicate pair (0, 1 or 2)."""
    tactics.STOP_STRETCH = stretch
    rules = Rules.preset(preset)
    tactical = partial(RulesBot, match_tactics=True)
    return sum(play_match(rules, seed, tactical, "rules", a_first).a_won
               for a_first in (True, False))


def main(pairs: int = typer.Option(1000, help="Duplicate pairs of matches per row."),
         presets: str = typer.Option("online,australian,classic,american"),
         stretches: str = typer.Option("3", help="Comma-separated stop stretches to try."),
         jobs: int = typer.Option(2, help="Worker processes.")) -> None:
    """Measure and print the table."""
    console = Console()
    table = Table(title="Rules bot with match tactics against the rules bot without")
    for column in ("preset", "stop stretch", "matches", "tactics win", "seconds"):
        table.add_column(column, justify="left" if column == "preset" else "right")
    rows = [(preset, int(stretch)) for preset in presets.split(",")
            for stretch in stretches.split(",")]
    with ProcessPoolExecutor(jobs) as pool, Progress(console=console) as progress:
        for preset, stretch in rows:
            task = progress.add_task(f"{preset}, stretch {stretch}", total=pairs)
            started = time.perf_counter()
            wins = 0
            for won in pool.map(partial(play_pair, preset, stretch), range(pairs),
                                chunksize=20):
                wins += won
                progress.advance(task)
            table.add_row(preset, str(stretch), str(2 * pairs), str(proportion(wins, 2 * pairs)),
                          f"{time.perf_counter() - started:.0f}")
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
