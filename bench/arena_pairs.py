"""Two arena runs on the same deals compared set by set: which bots gained, and how surely.

Each arena run's edge per hand has the luck of its deals in its interval; two runs of the
same seeds (``--seed`` and ``--matches`` alike, ``--json`` written) hold the same deals in
the same sets, so the difference of their edges set by set leaves that luck out, and only
the bots' own chance (their sampling, their clocks) is left in its interval.

Run: ``python -m bench.arena_pairs AFTER.json BEFORE.json``; prints each run's edge per hand
and the paired difference (after less before), with 95% intervals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from cardroom.tools.arena import Interval, mean

SAME = ("game", "preset", "deck", "seed", "sides_per_set")
"""What two runs must share for their sets to hold the same deals."""


def load(path: Path) -> dict[str, Any]:
    """An arena run's JSON figures; ``typer.BadParameter`` without its sets' edges."""
    figures: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if "a_edges_by_set" not in figures:
        raise typer.BadParameter(f"{path} has no edges by set: run the arena again with --json")
    return figures


def paired(after: dict[str, Any], before: dict[str, Any]) -> tuple[Interval, int]:
    """The mean difference of the sets' edges, after less before, over the sets both runs
    played; ``typer.BadParameter`` when the runs were not dealt alike."""
    differing = [key for key in SAME if after.get(key) != before.get(key)]
    if differing:
        raise typer.BadParameter(f"the runs differ in {', '.join(differing)}: not the same deals")
    pairs = list(zip(after["a_edges_by_set"], before["a_edges_by_set"], strict=False))
    return mean([a - b for a, b in pairs]), len(pairs)


def main(after: Annotated[Path, typer.Argument(help="The run of the change (its --json).")],
         before: Annotated[Path, typer.Argument(help="The run before it, on the same seeds.")]
         ) -> None:
    """Print both runs' edges and their paired difference."""
    first, second = load(after), load(before)
    difference, sets = paired(first, second)
    for name, figures in (("after", first), ("before", second)):
        edges = figures["a_edges_by_set"]
        print(f"{name}: A's edge per hand {mean(edges)} ({len(edges)} sets)")
    print(f"after less before, set by set ({sets} sets): {difference}")


if __name__ == "__main__":
    typer.run(main)
