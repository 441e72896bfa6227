"""The no-tricks bids the learned evaluator did not learn (Across The Corner against an
opponent's misère, Across The Table beside the partner's) valued by their play on sampled
deals: who plays them, what they score, the misère caller's hand read from its call, and the
search bot bidding them when its hand is the one that wins them."""

from __future__ import annotations

import random
import time

import pytest

from cardroom.bots.five_hundred.bidding import (
    STANDING_TRICKS_COUNTED,
    NoTricksSample,
    no_tricks_play,
    sampled_no_tricks_outcomes,
)
from cardroom.bots.five_hundred.evaluator import features, shipped
from cardroom.bots.five_hundred.reading import learned_calls, misere_pool
from cardroom.bots.five_hundred.search import SearchBot
from cardroom.bots.five_hundred.valued_bids import (
    answer_points,
    made_share,
    no_tricks_points,
    pass_points,
    sampled_points,
)
from cardroom.bots.seen import mask_of_texts
from cardroom.games.cards import Card, cards_of
from cardroom.games.five_hundred import Bid, FiveHundredView, Game, Rules

MISERE_HAND = ["4S", "5S", "6S", "4C", "5C", "6C", "4D", "5D", "6D", "7H"]
"""Seat 2's hand when it bids misère: nothing that need take a trick."""
LOWEST = ["7S", "8S", "4H", "5H", "6H", "7C", "8C", "7D", "8D", "9D"]
"""Low, but higher than the misère hand wherever the two follow each other."""
STRONG = ["AS", "KS", "AC", "KC", "AD", "JH", "AH", "KH", "QD", "JD"]
CORNER = Bid.parse("across-the-corner")
TABLE = Bid.parse("across-the-table")


def deal(fixed: dict[int, list[str]], seed: int = 1) -> Game:
    """An ``online`` deal (dealer 0) with the given seats' hands, the rest at random."""
    rules = Rules.preset("online")
    chosen = {seat: [Card.parse(text) for text in hand] for seat, hand in fixed.items()}
    used = {card for hand in chosen.values() for card in hand}
    rest = [card for card in cards_of(rules.deck_spec.mask) if card not in used]
    random.Random(seed).shuffle(rest)
    hands = []
    for seat in range(4):
        if seat in chosen:
            hands.append(chosen[seat])
        else:
            hands.append(rest[:10])
            rest = rest[10:]
    return Game.from_deal(rules, 0, hands, rest[:5])


def corner_view(hand: list[str], seed: int = 1,
                caller: list[str] = MISERE_HAND) -> FiveHundredView:
    """Seat 3's view after seat 1 passed and seat 2 bid misère with ``caller``'s cards:
    Across The Corner is open."""
    game = deal({2: caller, 3: hand}, seed)
    game.apply("pass", 1)
    game.apply("bid misere", 2)
    view = game.view(3)
    assert "bid across-the-corner" in view["legal_actions"]
    return view


def table_view(hand: list[str], seed: int = 2) -> FiveHundredView:
    """Seat 0's view after its partner (seat 2) bid misère: Across The Table is open."""
    game = deal({2: MISERE_HAND, 0: hand}, seed)
    game.apply("pass", 1)
    game.apply("bid misere", 2)
    game.apply("pass", 3)
    view = game.view(0)
    assert "bid across-the-table" in view["legal_actions"]
    return view


def sample(view: FiveHundredView, bid: Bid, samples: int = 24) -> NoTricksSample:
    found = sampled_no_tricks_outcomes(view, bid, random.Random(0),
                                       time.perf_counter() + 30, samples)
    assert found is not None and len(found.outcomes) == samples
    return found


def outcomes(view: FiveHundredView, bid: Bid, samples: int = 24) -> list[int]:
    return sample(view, bid, samples).outcomes


def test_each_no_tricks_contract_is_played_by_the_seats_the_engine_deals_in() -> None:
    corner = no_tricks_play(corner_view(LOWEST), CORNER)
    assert corner is not None
    assert corner.active == (2, 3) and corner.exchangers == () and corner.answers == 2
    pair = no_tricks_play(table_view(LOWEST), TABLE)
    assert pair is not None
    assert pair.active == (0, 1, 2, 3) and pair.exchangers == (0, 2) and pair.answers == 2
    misere = no_tricks_play(table_view(LOWEST), Bid.parse("misere"))
    assert misere is not None
    assert misere.active == (0, 1, 3) and misere.exchangers == (0,) and misere.answers is None


def test_each_result_scores_as_the_engine_scores_it() -> None:
    rules = Rules.preset("online").to_dict()
    # Across The Corner: fewer tricks than the one opponent wins, five each nothing, and the
    # loser loses nothing but the value going to the other side
    assert [no_tricks_points(rules, CORNER, taken) for taken in (4, 5, 6)] == [250, 0, -250]
    assert sampled_points(rules, CORNER, [4, 5, 5, 6]) == 0
    assert made_share(CORNER, [4, 5, 6, 4]) == 0.5
    # a broken misère-type contract pays the defenders ten for each trick its makers took
    assert no_tricks_points(rules, TABLE, 0) == TABLE.value
    assert no_tricks_points(rules, TABLE, 3) == -(TABLE.value + 30)
    assert made_share(TABLE, [0, 1, 0, 2]) == 0.5
    unpaid = {**rules, "defender_points": "none"}
    assert no_tricks_points(unpaid, TABLE, 3) == -TABLE.value


def test_a_broken_misere_counts_its_tricks_only_where_play_goes_on() -> None:
    view = corner_view(LOWEST)
    assert view["rules"]["misere_failure"] == "play_on"
    counted = sample(view, CORNER).standing
    assert max(counted) > 1 and max(counted) <= STANDING_TRICKS_COUNTED
    stopping = {**view, "rules": {**view["rules"], "misere_failure": "stop"}}
    assert set(sample(stopping, CORNER).standing) == {0, 1}


def test_the_misere_callers_hands_are_drawn_as_low_as_its_call_says() -> None:
    view = corner_view(LOWEST)
    hidden = Rules.preset("online").deck_spec.mask & ~mask_of_texts(LOWEST)
    pool = misere_pool(view, 2, hidden, random.Random(3))
    assert pool is not None and pool.seat == 2
    context = next(learned_calls(view, {2})).context
    evaluator = shipped(4)

    def chance(hand: int) -> float:
        return float(evaluator.misere_chances([features(hand, "misere", None, context)])[0])

    rng = random.Random(4)
    drawn = [chance(pool.draw(rng)) for _ in range(200)]
    plain = [chance(hand) for hand in pool.hands[:200]]
    assert sum(drawn) / len(drawn) > 2 * sum(plain) / len(plain)  # 0.37 against 0.13
    assert misere_pool(view, 1, hidden, random.Random(3)) is None  # seat 1 passed


# The bot's decisions below are the steady level's: sample caps and no clock, so that a
# loaded machine cannot cut a decision's sampled deals short.


def test_a_hand_lower_than_the_misere_callers_wins_across_the_corner_and_bids_it() -> None:
    # the ten lowest cards: the misère caller's hand can only be higher
    view = corner_view([*MISERE_HAND[:9], "4H"], seed=4,
                       caller=["7S", "8S", "7C", "8C", "7D", "8D", "5H", "6H", "7H", "9S"])
    found = outcomes(view, CORNER)
    assert made_share(CORNER, found) > 0.75
    assert SearchBot(1, level="steady").choose(view) == "bid across-the-corner"


def test_a_strong_hand_does_not_play_across_the_corner() -> None:
    view = corner_view(STRONG)
    found = outcomes(view, CORNER)
    assert sum(taken > 5 for taken in found) > len(found) * 3 // 4  # it takes more
    assert SearchBot(1, level="steady").choose(view) != "bid across-the-corner"


def test_across_the_table_needs_both_hands_to_take_nothing() -> None:
    view = table_view(STRONG)
    assert made_share(TABLE, outcomes(view, TABLE)) == 0
    assert SearchBot(1, level="steady").choose(view) != "bid across-the-table"


def test_an_answer_is_weighed_against_the_misere_it_answers_on_the_same_deals() -> None:
    view = corner_view(LOWEST)
    passing = pass_points(view)
    # won every time, but the defence would have broken the misère every time: worse than
    # passing by the ten a trick the broken misère pays the defenders
    assert answer_points(view, CORNER, NoTricksSample([4] * 4, [1, 1, 2, 2], 2)) == (
        pytest.approx(passing - 15))
    # won where the misère would have been made: the whole swing over passing
    assert answer_points(view, CORNER, NoTricksSample([4] * 4, [0] * 4, 2)) == (
        pytest.approx(passing + 500))
    # beside the partner's misère, its made misère is what Across The Table must beat
    beside = table_view(LOWEST)
    assert answer_points(beside, TABLE, NoTricksSample([0] * 4, [0] * 4, 2)) == (
        pytest.approx(pass_points(beside) + TABLE.value - 250))


def test_a_misere_outbid_is_not_what_an_answer_is_weighed_against() -> None:
    game = deal({2: MISERE_HAND, 0: LOWEST}, 2)
    game.apply("pass", 1)
    game.apply("bid misere", 2)
    game.apply("bid open-misere", 3)
    view = game.view(0)
    assert "bid across-the-table" in view["legal_actions"]
    found = sample(view, TABLE, samples=4)
    assert found.standing == [] and found.caller is None
    assert answer_points(view, TABLE, found) == sampled_points(view["rules"], TABLE,
                                                              found.outcomes)
