"""The compiled solver against the pure-Python reference: the same values and the same
per-move values on many random endings of 1 to 6 tricks (suit, no trumps and no-tricks
strains, the joker rules, 2 to 4 players, mid-trick starts), against plain minimax on the
small ones, and the deadline still honoured."""

from __future__ import annotations

import random
import time

import pytest
from tests.bots.reference_solver import Search, brute_force
from tests.bots.test_solver import DECK, SEATINGS, random_ending

from cardroom.bots.five_hundred.solver import (
    FastSearch,
    Position,
    SolverTimeout,
    move_values,
    solve,
)
from cardroom.games.cards import Suit
from cardroom.games.five_hundred import strain_for

STRAINS = [Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, None]


def random_case(rng: random.Random, max_tricks: int):
    """A random ending with random rules, and a side and its wishes."""
    trump = rng.choice(STRAINS)
    active = rng.choice(SEATINGS)
    no_tricks = trump is None and rng.random() < 0.3
    position = random_ending(rng, rng.randint(1, max_tricks), trump, active,
                             joker=rng.random() < 0.85, joker_low=no_tricks and rng.random() < 0.5,
                             forced=no_tricks and rng.random() < 0.7,
                             any_time=not no_tricks and trump is None and rng.random() < 0.5)
    side = [s for s in active if s % 2 == rng.randrange(2)] or [active[0]]
    maximisers = side if rng.random() < 0.8 else [s for s in active if s not in side]
    return position, side, maximisers or None


@pytest.mark.parametrize("seed", range(4))
def test_fast_equals_reference_on_random_endings(seed: int) -> None:
    rng = random.Random(f"fast:{seed}")
    for _ in range(150):
        position, side, maximisers = random_case(rng, 6)
        reference = Search(position, side, maximisers=maximisers)
        fast = FastSearch(position, side, maximisers=maximisers)
        assert fast.value() == reference.value(), position
        assert fast.move_values() == reference.move_values(), position


def test_fast_equals_minimax_on_small_endings() -> None:
    rng = random.Random("fast:minimax")
    for _ in range(300):
        position, side, maximisers = random_case(rng, 3)
        assert (solve(position, side, maximisers=maximisers)
                == brute_force(position, side, maximisers)), position


def window_case(rng: random.Random, max_tricks: int) -> tuple[Position, list[int], int, int, int]:
    """A random ending and side (see :func:`random_case`), its exact value, and a random window
    ``lo`` to ``hi`` within the tricks left."""
    position, side, _ = random_case(rng, max_tricks)
    exact = Search(position, side).value()
    left = position.tricks_left
    lo, hi = sorted((rng.randint(0, left), rng.randint(0, left)))
    return position, side, exact, lo, hi


def test_fast_clamped_values_and_yes_no_questions() -> None:
    rng = random.Random("fast:clamp")
    for _ in range(100):
        position, side, exact, lo, hi = window_case(rng, 5)
        left = position.tricks_left
        assert FastSearch(position, side).value(lo, hi) == max(min(exact, hi), lo)
        target = rng.randint(0, left + 1)
        assert FastSearch(position, side).reaches(target) == (exact >= target)
        assert (move_values(position, side, lo=left - 1)
                == Search(position, side).move_values(lo=left - 1))


def test_a_guess_never_changes_the_answer() -> None:
    rng = random.Random("fast:guess")
    for _ in range(100):
        position, side, exact, lo, hi = window_case(rng, 6)
        left = position.tricks_left
        for guess in (-3, 0, exact - 2, exact, exact + 1, left, left + 5):
            assert FastSearch(position, side).value(lo, hi, guess) == max(min(exact, hi), lo)
            assert Search(position, side).value(guess=guess) == exact
        values = Search(position, side).move_values()
        guesses = {move: value + rng.choice((-2.4, -1, 0, 0.4, 1, 3)) for move, value
                   in values.items()}
        assert FastSearch(position, side).move_values(guesses=guesses) == values


def full_deal(rng: random.Random, trump: Suit | None) -> Position:
    """Four random ten-card hands from the 45-card deck, seat 0 to lead."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(sum(1 << card for card in deck[10 * seat:10 * seat + 10]) for seat in range(4))
    return Position(hands, strain_for(trump), 0)


def test_full_deals_start_from_a_close_first_guess() -> None:
    """A partnership's tricks in a full deal are first guessed from its top cards and trumps;
    the guess is mostly within a trick, and the answer is the same from any other start."""
    rng = random.Random("fast:first-guess")
    misses = []
    for number in range(16):
        position = full_deal(rng, STRAINS[number % len(STRAINS)])
        side = (0, 2) if number % 2 else (1, 3)
        search = FastSearch(position, side)
        guess = search.first_guess()
        assert guess is not None
        exact = search.value()
        assert FastSearch(position, side).value(guess=10) == exact
        misses.append(abs(guess - exact))
    assert sum(miss <= 1 for miss in misses) >= 10, misses
    assert sum(misses) / len(misses) <= 1.5, misses


def test_no_first_guess_where_it_was_not_fitted() -> None:
    rng = random.Random("fast:no-guess")
    position = full_deal(rng, Suit.HEARTS)
    assert FastSearch(position, (0,)).first_guess() is None  # not a partnership
    assert FastSearch(position, (0, 2), maximisers=(1, 3)).first_guess() is None
    for _ in range(20):
        ending, side, maximisers = random_case(rng, 6)
        assert FastSearch(ending, side, maximisers=maximisers).first_guess() is None


def test_fast_search_keeps_its_table_between_questions() -> None:
    rng = random.Random("fast:reuse")
    for _ in range(40):
        position, side, _ = random_case(rng, 6)
        search = FastSearch(position, side)
        values = search.move_values()
        assert search.value() == Search(position, side).value()
        assert values == Search(position, side).move_values()


def test_fast_search_honours_the_deadline() -> None:
    rng = random.Random("fast:deadline")
    position = random_ending(rng, 10, None, (0, 1, 2, 3))
    search = FastSearch(position, (0, 2), deadline=time.perf_counter() - 1)
    search.SLICE = 50
    with pytest.raises(SolverTimeout):
        search.value()
