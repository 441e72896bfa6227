"""The compiled solver at every table 500 is played at, not only four players with one
joker: two jokers (the 46-card deck), a joker nominated into a suit, two players (the other
cards dead, out of play: a third hand of the 33-card deck, or two of a deck for four), three,
five and six players (two teams of three, three teams of two, a contractor with called
partners), in trump, no-trumps and no-tricks strains. On random endings of each kind the
kernel gives the plain-Python reference search's values, move by move, and plain minimax's on
small ones."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from tests.bots.reference_solver import Search, brute_force
from tests.bots.test_solver import random_ending

from cardroom.bots.five_hundred.solver import FastSearch, Position, solve
from cardroom.games.cards import BLACK_JOKER_INDEX, JOKER_INDEX, Card, Suit, iter_indexes
from cardroom.games.five_hundred import strain_for
from cardroom.games.five_hundred.rules import DECKS


@dataclass(frozen=True)
class TableKind:
    """A kind of table: its deck, its seats and the sides that may be counted."""

    name: str
    deck: str
    seats: int
    sides: tuple[tuple[int, ...], ...]
    """Sides whose tricks may be counted (the contract's side at such a table)."""


TABLES = (
    TableKind("two players", "33", 2, ((0,), (1,))),
    TableKind("two players, a deck for four", "45", 2, ((0,), (1,))),
    TableKind("four players, two jokers", "46", 4, ((0, 2), (1, 3))),
    TableKind("three players", "33", 3, ((0,), (1,), (2,))),
    TableKind("five players, called partners", "53", 5, ((0,), (0, 3), (1, 2, 4), (4, 1))),
    TableKind("six players, two teams of three", "63", 6, ((0, 2, 4), (1, 3, 5))),
    TableKind("six players, three teams of two", "63", 6, ((0, 3), (1, 4), (2, 5))),
)


LONGEST = {2: 10, 3: 4, 4: 4}
"""The longest endings compared with the reference search, by seats (two hands are solved
whole in milliseconds, even by the reference)."""


def random_table_case(rng: random.Random, kind: TableKind,
                      max_tricks: int) -> tuple[Position, tuple[int, ...], tuple[int, ...]]:
    """A random ending at a table of ``kind``, with random play rules, and a side and the
    seats that want its tricks high (the side itself, or in a no-tricks hand the others)."""
    trump = rng.choice([Suit.HEARTS, Suit.CLUBS, None, None])
    no_tricks = trump is None and rng.random() < 0.3
    nominated = (Suit(rng.randrange(4)) if trump is None and not no_tricks
                 and rng.random() < 0.4 else None)
    active = tuple(range(kind.seats))
    position = random_ending(
        rng, rng.randint(1, max_tricks), trump, active, deck=list(iter_indexes(
            DECKS[kind.deck].mask)), seats=kind.seats, joker=rng.random() < 0.9,
        joker_low=no_tricks and rng.random() < 0.5, forced=no_tricks and rng.random() < 0.7,
        any_time=trump is None and not no_tricks and nominated is None and rng.random() < 0.5,
        joker_suit=nominated)
    side = rng.choice(kind.sides)
    others = tuple(seat for seat in active if seat not in side)
    return position, side, others if no_tricks else side


@pytest.mark.parametrize("kind", TABLES, ids=lambda kind: kind.name)
def test_fast_equals_reference_at_every_table(kind: TableKind) -> None:
    rng = random.Random(f"tables:{kind.name}")
    for _ in range(60):
        position, side, maximisers = random_table_case(rng, kind, LONGEST.get(kind.seats, 3))
        reference = Search(position, side, maximisers=maximisers)
        fast = FastSearch(position, side, maximisers=maximisers)
        assert fast.value() == reference.value(), position
        assert fast.move_values() == reference.move_values(), position


@pytest.mark.parametrize("kind", TABLES, ids=lambda kind: kind.name)
def test_fast_equals_minimax_at_every_table(kind: TableKind) -> None:
    rng = random.Random(f"tables:minimax:{kind.name}")
    for _ in range(40):
        position, side, maximisers = random_table_case(rng, kind, 2)
        assert (solve(position, side, maximisers=maximisers)
                == brute_force(position, side, maximisers)), position


def test_the_black_joker_beats_the_red_one() -> None:
    """Two jokers in no trumps: the red joker is no sure trick while the black one is out,
    and the holder of both takes two tricks with them."""
    red, black = 1 << JOKER_INDEX, 1 << BLACK_JOKER_INDEX
    ace_spades, king_spades = Card.parse("AS").mask, Card.parse("KS").mask
    hands = (red | ace_spades, black | king_spades, 0, 0)
    position = Position(hands, strain_for(None), 0, active=(0, 1))
    assert solve(position, 0) == 1  # the ace of spades wins; the red joker falls to the black
    both = Position((red | black, ace_spades | king_spades, 0, 0), strain_for(None), 1,
                    active=(0, 1))
    assert solve(both, 0) == 2
