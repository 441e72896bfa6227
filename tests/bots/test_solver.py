"""The double-dummy solver: equal to plain minimax on many random small endings (suit, no
trumps and no-tricks strains, with and without the joker, 2 to 4 players, mid-trick
starts), the engine's following rules exactly, and some positions whose answer is known."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.bots.reference_solver import Search, brute_force

from cardroom.bots.five_hundred.solver import (
    JOKERS,
    FastSearch,
    Position,
    SearchRoot,
    best_moves,
    move_values,
    next_seats,
    playable,
    solve,
)
from cardroom.games.cards import Suit, iter_indexes, mask_of
from cardroom.games.five_hundred import ALL_PRESET_NAMES, Game, Rules, strain_for

DECK = list(iter_indexes(Rules.preset("online").deck_spec.mask))
SEATINGS = ((0, 1, 2, 3), (0, 1, 3), (1, 3))


def random_ending(rng: random.Random, tricks: int, trump: Suit | None,
                  active: tuple[int, ...], *, joker: bool = True, joker_low: bool = False,
                  forced: bool = False, any_time: bool = False, deck: list[int] = DECK,
                  seats: int = 4, joker_suit: Suit | None = None) -> Position:
    """Random hands of ``tricks`` cards for the active seats of a table of ``seats`` seats,
    dealt from ``deck`` (without its jokers unless ``joker``), a random leader and a random
    part of a trick already played by the rules; ``joker_suit`` names the no-trumps jokers'
    suit."""
    strain = strain_for(trump, joker_low, joker_suit=joker_suit)
    deck = [c for c in deck if joker or c < 64]
    rng.shuffle(deck)
    hands = [0] * seats
    for seat in active:
        for card in deck[:tricks]:
            hands[seat] |= 1 << card
        deck = deck[tricks:]
    seat = rng.choice(active)
    after = next_seats(active)
    trick: list[tuple[int, int]] = []
    led = 0
    for _ in range(rng.randrange(len(active))):
        mask = playable(hands[seat], not trick, led, strain.follow_mask, JOKERS, forced,
                        any_time)
        card = rng.choice(list(iter_indexes(mask)))
        if not trick:
            led = strain.led_suit(card, Suit(rng.randrange(4)))
        hands[seat] ^= 1 << card
        trick.append((seat, card))
        seat = after[seat]
    return Position(tuple(hands), strain, seat, active, tuple(trick),
                    led if trick else None, forced, any_time)


def endings(seed: int, count: int, trump: Suit | None, **options: bool):
    rng = random.Random(seed)
    for _ in range(count):
        active = rng.choice(SEATINGS)
        yield random_ending(rng, rng.randint(1, 4 if len(active) < 4 else 3), trump, active,
                            **options), active


STRAINS = [Suit.HEARTS, Suit.SPADES, None]


@pytest.mark.parametrize("trump", STRAINS)
@pytest.mark.parametrize("joker", [True, False])
def test_solver_equals_minimax_in_trick_contracts(trump: Suit | None, joker: bool) -> None:
    for seed, (position, active) in enumerate(endings(1, 60, trump, joker=joker)):
        side = [s for s in active if s % 2 == seed % 2] or [active[0]]
        assert solve(position, side) == brute_force(position, side), position


@pytest.mark.parametrize("any_time", [True, False])
def test_solver_equals_minimax_with_the_no_trumps_joker(any_time: bool) -> None:
    for position, active in endings(2, 80, None, any_time=any_time):
        side = [s for s in active if s % 2 == 1] or [active[0]]
        assert solve(position, side) == brute_force(position, side), position


@pytest.mark.parametrize("forced", [True, False])
@pytest.mark.parametrize("joker_low", [True, False])
def test_solver_equals_minimax_in_no_tricks_strains(forced: bool, joker_low: bool) -> None:
    for position, active in endings(3, 60, None, forced=forced, joker_low=joker_low):
        maker = active[-1]
        defenders = [s for s in active if s != maker]
        assert solve(position, defenders) == brute_force(position, defenders), position


def test_solver_equals_minimax_when_both_want_fewer_tricks() -> None:
    """Across The Corner: each of two players makes the other take the tricks."""
    rng = random.Random(4)
    for _ in range(60):
        position = random_ending(rng, rng.randint(1, 5), None, (1, 2), forced=True)
        assert (solve(position, 1, maximisers=2)
                == brute_force(position, 1, maximisers=2)), position


def test_move_values_equal_minimax_after_each_move() -> None:
    rng = random.Random(5)
    for _ in range(60):
        trump = rng.choice(STRAINS)
        active = rng.choice(SEATINGS)
        position = random_ending(rng, rng.randint(1, 3), trump, active,
                                 any_time=rng.random() < 0.5)
        side = [s for s in active if s % 2 == 0] or [active[0]]
        for (card, named), value in move_values(position, side).items():
            assert value == brute_force(after_move(position, card, named), side)


def after_move(position: Position, card: int, named: int | None) -> Position:
    """The position once the seat to play has played ``card`` (naming ``named``), as an
    unfinished trick: the reference then plays the rest of the trick itself."""
    seat = position.to_play
    hands = list(position.hands)
    hands[seat] ^= 1 << card
    trick = (*position.trick, (seat, card))
    led = position.led if position.trick else position.strain.led_suit(
        card, None if named is None else Suit(named))
    return replace(position, hands=tuple(hands), trick=trick, led=led,
                   to_play=next_seats(position.active)[seat])


def test_clamped_values_and_yes_no_questions() -> None:
    rng = random.Random(6)
    for _ in range(40):
        position = random_ending(rng, 3, Suit.CLUBS, (0, 1, 2, 3))
        exact = brute_force(position, (0, 2))
        assert Search(position, (0, 2)).value(lo=1, hi=2) == min(max(exact, 1), 2)
        assert Search(position, (0, 2)).reaches(2) == (exact >= 2)


# -- known positions --------------------------------------------------------------------------


def full_position(hands: list[str], trump: Suit | None, leader: int = 0) -> Position:
    return Position(tuple(mask_of(h.split()) for h in hands), strain_for(trump), leader)


def test_top_trumps_take_every_trick() -> None:
    position = full_position(["JK JH JD AH KH", "AS KS QS AC KC", "AD KD QD AC QC".replace(
        "AC", "JC"), "10S 9S 8S 7S 6S"], Suit.HEARTS)
    assert solve(position, (0, 2)) == 5
    assert solve(position, (1, 3)) == 0


def test_no_trumps_joker_wins_and_names_a_suit() -> None:
    position = full_position(["JK 4S", "AS KS", "QH 5H", "AD KD"], None)
    value, _ = best_moves(position, (0, 2))
    assert value == 1  # the joker wins one trick, the 4S none
    joker_leads = [named for card, named in move_values(position, (0, 2)) if card == 64]
    assert joker_leads and None not in joker_leads


@pytest.mark.parametrize("search", [FastSearch, Search], ids=["compiled", "reference"])
def test_a_joker_named_into_a_suit_is_only_that_suits_top_card(search: type[SearchRoot]) -> None:
    # No trumps with the joker's holder having named spades: it wins a spade trick, not a
    # club trick, so holding it and the 4C against AC KC takes one trick at most.
    hands = tuple(mask_of(h.split()) for h in ["JK 4C", "AC KC", "5C 6C", "QC JC"])
    position = Position(hands, strain_for(None, joker_suit=Suit.SPADES), 0)
    assert search(position, (0, 2)).value() == brute_force(position, (0, 2)) == 1


def test_a_ruff_beats_an_ace() -> None:
    position = full_position(["AS", "5H", "6S", "7S"], Suit.HEARTS)
    assert solve(position, (1, 3)) == 1


EVERY_TABLE = (*(Rules.preset(name) for name in ALL_PRESET_NAMES),
               Rules.preset("online").replace(deck="46"),
               Rules.preset("classic").replace(joker_suit_nomination=True),
               Rules.preset("six-handed").replace(six_handed_teams="three_teams_of_two"),
               Rules.preset("online").replace(deck="43-red-trump-4"),
               Rules.preset("australian").replace(double_nullo=True, blind_misere=True,
                                                  shields_double=True, patastrophe=True,
                                                  j5_no_trumps=True))
"""Every preset, and the tables the presets leave out: two jokers, a nominated joker, six
players in three teams of two, the red-trump-four deck, the pair and blind no-tricks
contracts and J5."""


def test_solver_positions_from_real_games_match_minimax() -> None:
    """Late positions of random games at every table, read from the engine, against
    minimax."""
    rng = random.Random(7)
    checked = 0
    for seed in range(40):
        game = Game.new(EVERY_TABLE[seed % len(EVERY_TABLE)], seed=seed)
        while game.phase != "play" or len(game.completed) < 8:
            if game.is_over:
                break
            game.apply(rng.choice(list(game.legal_actions()[:50])))
        if game.phase != "play":
            continue
        position = Position.from_game(game)
        side = [s for s in game.active if s % 2 == 0] or [game.active[0]]
        assert solve(position, side) == brute_force(position, side)
        checked += 1
    assert checked > 10


def test_playable_is_the_engines_rule() -> None:
    """At every play of random games in every preset, the solver's rule gives exactly the
    cards the engine accepts."""
    rng = random.Random(8)
    for seed in range(2 * len(EVERY_TABLE)):
        game = Game.new(EVERY_TABLE[seed % len(EVERY_TABLE)], seed=seed)
        for _ in range(300):
            if game.is_over:
                break
            if game.phase == "play":
                seat = game.to_act
                mask = playable(game.hands[seat], not game.trick, game.led,
                                game.strain.follow_mask, JOKERS, game.joker_forced,
                                game.joker_any_time)
                legal = mask_of(a.cards[0] for a in game.legal_actions())
                assert mask == legal
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(min(len(actions), 50))])
