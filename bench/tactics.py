"""What bidding with the match score in mind is worth: the rules bot with the match tactics
(:mod:`cardroom.bots.five_hundred.tactics`) against the rules bot without them, on duplicate
matches, for several presets and for several values of the stretch it bids to stop a match-winning
contract. Both teams play the cards alike, so the difference is the tactics alone.

Run: ``python bench/tactics.py [--pairs 1000] [--presets online,australian,classic,american]
[--stretches 1,2,3,4] [--jobs 2]``. Prints a table; the integrator copies it to
bench/RESULTS.md.
"""

from __future__ import annotations

from functools import partial

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cardroom.bots import Bot, RulesBot
from cardroom.bots.five_hundred import tactics
from cardroom.games.five_hundred import Rules
from cardroom.tools.arena import run_arena


def tactical_rules(stretch: int, seed: int) -> Bot:
    """The rules bot with the match tactics, stopping at ``stretch`` (set in the worker
    process that plays it)."""
    tactics.STOP_STRETCH = stretch
    return RulesBot(seed, match_tactics=True)


def main(pairs: int = typer.Option(1000, help="Duplicate pairs of matches per row."),
         presets: str = typer.Option("online,australian,classic,american"),
         stretches: str = typer.Option("3", help="Comma-separated stop stretches to try."),
         jobs: int = typer.Option(2, help="Worker processes.")) -> None:
    """Measure and print the table."""
    console = Console()
    table = Table(title="Rules bot with match tactics against the rules bot without")
    for column in ("preset", "stop stretch", "matches", "tactics win"):
        table.add_column(column, justify="left" if column == "preset" else "right")
    rows = [(preset, int(stretch)) for preset in presets.split(",")
            for stretch in stretches.split(",")]
    with Progress(console=console) as progress:
        for preset, stretch in rows:
            task = progress.add_task(f"{preset}, stretch {stretch}", total=pairs)
            report = run_arena(Rules.preset(preset), partial(tactical_rules, stretch), "rules",
                               pairs, seed=0, jobs=jobs,
                               progress=lambda done, task=task: progress.update(task,
                                                                                completed=done))
            table.add_row(preset, str(stretch), str(report.matches), str(report.win_rate("a")))
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
