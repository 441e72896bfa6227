"""Double-dummy solver speed: time to solve full 10-trick deals and 5-trick endings, in a
trump suit and in no trumps, four players, exact value for one side.

Deals are random (the 45-card deck, kitty left out); an ending is a random 5-card hand per
seat. Run: ``python bench/solver.py [--deals 50] [--full-deals 50]``. Prints a table; the
integrator copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import random
import statistics
import time

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots.solver import Position, solve
from cardroom.games.cards import Suit, iter_indexes
from cardroom.games.five_hundred import Rules, strain_for

DECK = list(iter_indexes(Rules.preset("online").deck_spec.mask))


def random_position(rng: random.Random, tricks: int, trump: Suit | None) -> Position:
    """Four random hands of ``tricks`` cards, seat 0 to lead."""
    deck = DECK.copy()
    rng.shuffle(deck)
    hands = []
    for seat in range(4):
        mask = 0
        for card in deck[seat * tricks:(seat + 1) * tricks]:
            mask |= 1 << card
        hands.append(mask)
    return Position(tuple(hands), strain_for(trump), 0)


def measure(tricks: int, trump: Suit | None, deals: int) -> list[float]:
    """Seconds to solve each of ``deals`` random deals."""
    rng = random.Random(f"bench-solver:{tricks}:{trump}")
    times = []
    for _ in range(deals):
        position = random_position(rng, tricks, trump)
        started = time.perf_counter()
        solve(position, (0, 2))
        times.append(time.perf_counter() - started)
    return times


def p99(times: list[float]) -> float:
    """The 99th percentile (the largest of fewer than 100)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(deals: int = typer.Option(50, help="Random 5-trick endings per strain."),
         full_deals: int = typer.Option(50, help="Random full deals per strain.")) -> None:
    """Measure and print the table."""
    console = Console()
    table = Table(title="Double-dummy solver (pure Python), seconds per solve")
    for column in ("position", "strain", "deals", "median", "p99", "max"):
        table.add_column(column, justify="right" if column not in ("position", "strain")
                         else "left")
    for tricks, count in ((5, deals), (10, full_deals)):
        for trump, name in ((Suit.HEARTS, "hearts"), (None, "no trumps")):
            if not count:
                continue
            times = measure(tricks, trump, count)
            table.add_row(f"{tricks} tricks", name, str(count),
                          f"{statistics.median(times):.4f}", f"{p99(times):.4f}",
                          f"{max(times):.4f}")
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
