"""Bidding and the kitty exchange by sampling: deals consistent with the view, contract
points as RULES.md scores them, strong hands bid high, hopeless ones pass, discards of the
right size that keep the trumps."""

from __future__ import annotations

import random
import time

import pytest

from cardroom.bots.five_hundred.bidding import (
    WholeDealSampler,
    choose_bid,
    choose_discard,
    contract_points,
)
from cardroom.bots.five_hundred.search import SearchBot
from cardroom.games.cards import Suit, cards_of, mask_of
from cardroom.games.five_hundred import Bid, Game, Rules

STRAINS = [Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, None]

STRONG = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "AS", "AC", "AD"]
WEAK = ["4S", "5S", "6S", "4C", "5C", "6C", "7C", "4D", "5D", "6D"]


def game_with(first_hand: list[str], seed: int = 0) -> Game:
    """An `online` deal where seat 1 (first to bid) holds ``first_hand``; the rest at random."""
    rules = Rules.preset("online")
    rest = [card for card in cards_of(rules.deck_spec.mask) if str(card) not in first_hand]
    random.Random(seed).shuffle(rest)
    hands = [rest[0:10], first_hand, rest[10:20], rest[20:30]]
    return Game.from_deal(rules, dealer=0, hands=hands, kitty=rest[30:35])


def test_contract_points_follow_the_schedule_and_bonuses() -> None:
    online = Rules.preset("online").to_dict()
    australian = Rules.preset("australian").to_dict()
    assert contract_points(online, Bid.parse("7H"), 7) == 200
    assert contract_points(online, Bid.parse("7H"), 6) == -200
    assert contract_points(online, Bid.parse("7H"), 10) == 250  # sweep_plus_50
    assert contract_points(australian, Bid.parse("7H"), 10) == 250  # slam_250
    assert contract_points(australian, Bid.parse("9H"), 10) == 400


def test_sampled_deals_hold_every_hidden_card_once() -> None:
    """(How the samples read the calls: tests/bots/test_reading.py.)"""
    game = game_with(STRONG)
    game.apply("bid 6S")
    view = game.view(2)
    sampler = WholeDealSampler(view, random.Random(1))
    own = mask_of(view["hand"])
    for _ in range(50):
        deal = sampler.deal(5)
        assert deal.hands[2] == own
        assert all(hand.bit_count() == 10 for hand in deal.hands)
        assert deal.kitty.bit_count() == 5
        union = deal.kitty
        for hand in deal.hands:
            assert not union & hand
            union |= hand
        assert union == Rules.preset("online").deck_spec.mask


def test_a_strong_hand_bids_high_and_a_weak_one_passes() -> None:
    strong = game_with(STRONG).view(1)
    action = choose_bid(strong, random.Random(2), time.perf_counter() + 30, 4, STRAINS)
    assert action is not None and action.startswith("bid ")
    bid = Bid.parse(action[4:])
    assert bid.trump is Suit.HEARTS and bid.tricks >= 8
    weak = game_with(WEAK).view(1)
    assert choose_bid(weak, random.Random(3), time.perf_counter() + 30, 4, STRAINS) == "pass"


def test_out_of_time_leaves_the_choice_to_the_rules() -> None:
    view = game_with(STRONG).view(1)
    assert choose_bid(view, random.Random(4), time.perf_counter() - 1, 8, STRAINS) is None


@pytest.mark.parametrize("seed", range(3))
def test_the_kitty_discard_is_legal_and_keeps_the_trumps(seed: int) -> None:
    game = game_with(STRONG, seed)
    game.apply("bid 8H")
    while game.phase == "bidding":
        game.apply("pass")
    view = game.view(1)
    count = view["discard_count"]
    action = choose_discard(view, random.Random(seed), time.perf_counter() + 30, 6)
    if action is None:  # the rules bot's discard was the only candidate
        return
    verb, *cards = action.split()
    assert verb == "discard" and len(set(cards)) == count and set(cards) <= set(view["hand"])
    assert not set(cards) & {"JK", "JH", "JD", "AH", "KH"}
    game.apply(action)
    assert game.phase == "play"


def test_the_search_bot_bids_and_exchanges_legally_over_many_deals() -> None:
    bot = SearchBot(7, level="fast")
    for seed in range(2):
        game = Game.new(Rules.preset("online"), seed=seed)
        while game.phase != "play":
            view = game.view(game.to_act)
            game.apply(bot.choose(view))
