"""Double-dummy solver speed: time to solve full 10-trick deals and 5-trick endings, in a
trump suit and in no trumps, four players, exact value for one side, with the compiled
solver and with the pure-Python reference.

Deals are random (the 45-card deck, kitty left out); an ending is a random 5-card hand per
seat; both implementations solve the same deals (the compiled one is warmed up first, so its
one-off compile or cache load is not counted). Run: ``python -m bench.solver [--deals 50]
[--full-deals 50] [--python-full-deals 5] [--seats 4,3,5,6]`` (the reference takes seconds
per full deal). With other tables than four seats (``--seats``), each is dealt from its own
deck and searched for the side of seat 0 (partners two seats apart); five and six full
hands take seconds, so their "full" deals are of :data:`BIG_TABLE_TRICKS` tricks. Prints a
table with the total CPU time of each row; the integrator copies it to bench/RESULTS.md.
"""

from __future__ import annotations

import random
import statistics
import time

import typer
from rich.console import Console
from rich.table import Table
from tests.bots.reference_solver import Search

from cardroom.bots.five_hundred.solver import FastSearch, Position
from cardroom.games.cards import Suit, iter_indexes
from cardroom.games.five_hundred import Rules, strain_for
from cardroom.games.five_hundred.rules import DECKS

DECK = list(iter_indexes(Rules.preset("online").deck_spec.mask))
DECKS_BY_SEATS = {seats: list(iter_indexes(DECKS[name].mask))
                  for seats, name in ((3, "33"), (4, "45"), (5, "53"), (6, "63"))}
BIG_TABLE_TRICKS = 7
"""The "full" deal's tricks with five or six seats."""


def random_position(rng: random.Random, tricks: int, trump: Suit | None,
                    seats: int = 4) -> Position:
    """Random hands of ``tricks`` cards for ``seats`` seats (four: the 45-card deck), seat 0
    to lead."""
    deck = DECKS_BY_SEATS[seats].copy()
    rng.shuffle(deck)
    hands = [0] * max(4, seats)
    for seat in range(seats):
        for card in deck[seat * tricks:(seat + 1) * tricks]:
            hands[seat] |= 1 << card
    return Position(tuple(hands), strain_for(trump), 0, active=tuple(range(seats)))


IMPLEMENTATIONS: dict[str, type[Search]] = {"compiled": FastSearch, "pure Python": Search}


def measure(tricks: int, trump: Suit | None, deals: int, search: type[Search],
            seats: int = 4) -> tuple[list[float], list[float]]:
    """Seconds to solve each of ``deals`` random deals: wall-clock, and this process's CPU
    time (the fairer figure when other jobs share the machine's cores)."""
    rng = random.Random(f"bench-solver:{tricks}:{trump}" + (f":{seats}" if seats != 4 else ""))
    side = tuple(range(0, seats, 2)) if seats != 3 else (0,)
    wall, cpu = [], []
    for _ in range(deals):
        position = random_position(rng, tricks, trump, seats)
        started, started_cpu = time.perf_counter(), time.process_time()
        search(position, side).value()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return wall, cpu


def p99(times: list[float]) -> float:
    """The 99th percentile (the largest of fewer than 100)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(deals: int = typer.Option(50, help="Random 5-trick endings per strain."),
         full_deals: int = typer.Option(50, help="Random full deals per strain (compiled)."),
         python_full_deals: int = typer.Option(
             5, help="Random full deals per strain for the pure-Python reference."),
         implementations: str = typer.Option("compiled,pure Python",
                                             help="Comma-separated: compiled, pure Python."),
         seats: str = typer.Option("4", help="Comma-separated table sizes, 3 to 6.")
         ) -> None:
    """Measure and print the table."""
    console = Console()
    table = Table(title="Double-dummy solver, seconds per solve")
    for column in ("solver", "seats", "position", "strain", "deals", "median", "p99", "max",
                   "median CPU", "p99 CPU", "total CPU"):
        table.add_column(column, justify="left" if column in ("solver", "position", "strain")
                         else "right")
    FastSearch(random_position(random.Random(0), 2, None), (0, 2)).value()  # compile / load
    for label in implementations.split(","):
        search = IMPLEMENTATIONS[label.strip()]
        full = full_deals if search is FastSearch else python_full_deals
        for table_seats in map(int, seats.split(",")):
            big = 10 if table_seats <= 4 else BIG_TABLE_TRICKS
            for tricks, count in ((5, deals), (big, full)):
                for trump, name in ((Suit.HEARTS, "hearts"), (None, "no trumps")):
                    if not count:
                        continue
                    times, cpu = measure(tricks, trump, count, search, table_seats)
                    table.add_row(label.strip(), str(table_seats), f"{tricks} tricks", name,
                                  str(count), f"{statistics.median(times):.4f}",
                                  f"{p99(times):.4f}", f"{max(times):.4f}",
                                  f"{statistics.median(cpu):.4f}", f"{p99(cpu):.4f}",
                                  f"{sum(cpu):.3f}")
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
