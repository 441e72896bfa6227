"""Bids and kitty discards valued by the learned hand evaluator: strong hands bid high in
their strain, poor hands pass, a hand with nothing to take a trick bids misère, passing is
worth the high bid's expected result for its side, and the valued kitty exchange keeps the
trumps and the joker."""

from __future__ import annotations

import random
import time
from math import comb
from typing import Any

import pytest

from cardroom.bots.five_hundred import valued_bids
from cardroom.bots.five_hundred.bidding import choose_discard, plain_discards
from cardroom.bots.five_hundred.evaluator import at_least, shipped
from cardroom.bots.five_hundred.knowledge import PartnerWorth
from cardroom.bots.five_hundred.rules_bot import RulesBot, Table
from cardroom.bots.five_hundred.search import PARTNER_WORTH, SearchBot
from cardroom.bots.five_hundred.tactics import match_bid
from cardroom.bots.five_hundred.valued_bids import (
    MIN_MAKE_CHANCE,
    bid_points,
    bidding_context,
    pass_points,
    sure_levels,
    valued_bid,
    view_levels,
)
from cardroom.bots.seen import mask_of_texts
from cardroom.games.cards import JOKERS_MASK, Card, Suit, cards_of
from cardroom.games.five_hundred import Bid, FiveHundredView, Game, Rules, strain_for

FIRST = 1
"""The dealer is seat 0, so seat 1 calls first."""


def deal_with(hand: list[str], preset: str = "online", seed: int = 0,
              dealer: int = 0) -> Game:
    """A new match whose first deal gives seat 1 ``hand`` and the rest at random."""
    rules = Rules.preset(preset)
    mine = [Card.parse(text) for text in hand]
    rest = [card for card in cards_of(rules.deck_spec.mask) if card not in mine]
    random.Random(seed).shuffle(rest)
    hands = [rest[0:10], mine, rest[10:20], rest[20:30]]
    return Game.from_deal(rules, dealer, hands, rest[30:30 + rules.kitty_size])


STRONG_HEARTS = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "AS", "AC", "KC"]
POOR = ["6H", "5H", "8D", "6D", "9C", "7C", "6C", "9S", "7S", "6S"]


def test_a_strong_hand_bids_high_in_its_strain() -> None:
    game = deal_with(STRONG_HEARTS)
    choice = valued_bid(game.view(FIRST))
    assert choice is not None and choice.startswith("bid ")
    bid = Bid.parse(choice[4:])
    assert bid.trump is not None and bid.trump.name == "HEARTS" and bid.tricks >= 8


def test_a_poor_hand_weighs_no_trick_bid_and_passes() -> None:
    game = deal_with(["QH", "9H", "8D", "7D", "KC", "9C", "7C", "JS", "8S", "5S"], seed=3)
    view = game.view(FIRST)
    points = bid_points(view)
    assert "pass" in points
    assert not [action for action in points
                if action.startswith("bid ") and Bid.parse(action[4:]).is_trick_bid]
    assert valued_bid(view) in ("pass", "bid misere")


def test_no_bid_made_often_enough_is_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    view = deal_with(STRONG_HEARTS).view(FIRST)
    assert valued_bid(view) != "pass"
    monkeypatch.setattr(valued_bids, "MIN_MAKE_CHANCE", 1.01)
    monkeypatch.setattr(valued_bids, "HIGH_LEVEL_MAKE_CHANCE", {})
    assert bid_points(view) == {"pass": 0.0}
    assert valued_bid(view) == "pass"


def test_eights_and_nines_need_a_surer_make_than_sevens(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    view = deal_with(STRONG_HEARTS).view(FIRST)
    levels = {Bid.parse(action[4:]).tricks for action in bid_points(view) if action != "pass"}
    assert max(levels) >= 8
    monkeypatch.setattr(valued_bids, "HIGH_LEVEL_MAKE_CHANCE", {8: 1.01, 9: 1.01, 10: 1.01})
    capped = {Bid.parse(action[4:]).tricks for action in bid_points(view) if action != "pass"}
    assert capped and max(capped) == 7
    assert valued_bids.make_chance_needed(Bid.parse("7H")) == valued_bids.MIN_MAKE_CHANCE
    assert valued_bids.make_chance_needed(Bid.parse("misere")) == valued_bids.MIN_MAKE_CHANCE


def test_the_context_reads_each_opponent_by_its_highest_bid_and_not_the_partner() -> None:
    game = deal_with(POOR, seed=9)  # dealer 0: seats 1, 2, 3, 0 call in turn
    game.apply("bid 6S", 1)
    game.apply("pass", 2)
    game.apply("bid 7H", 3)
    context = bidding_context(game.view(0))
    assert context.partner_bids == ()  # seat 2's pass is not read
    assert context.opponent_bids == (Bid.parse("6S"), Bid.parse("7H"))
    assert context.calls_before == 3
    assert context.leads  # the contractor leads on `online`
    game.apply("bid 7NT", 0)
    game.apply("bid 8S", 1)
    while game.to_act != 0:
        game.apply("pass", game.to_act)
    later = bidding_context(game.view(0))
    assert later.opponent_bids == (Bid.parse("8S"), Bid.parse("7H"))
    assert later.calls_before == 3


def test_the_first_lead_left_of_the_dealer_is_read() -> None:
    rules = Rules.from_dict({**Rules.preset("online").to_dict(), "first_lead": "dealer_left"})
    game = Game.new(rules, seed=4, dealer=0)
    assert bidding_context(game.view(1)).leads
    game.apply("pass", 1)
    assert not bidding_context(game.view(2)).leads


def test_a_hand_with_no_trick_in_it_bids_misere() -> None:
    game = deal_with(["4H", "5H", "6H", "4D", "5D", "6D", "5C", "6C", "5S", "6S"], seed=5)
    view = game.view(FIRST)
    assert "bid misere" in view["legal_actions"]
    assert valued_bid(view) in ("bid misere", "bid open-misere")


def test_passing_is_worth_the_high_bids_expected_result_for_its_side() -> None:
    game = deal_with(POOR, seed=7)
    game.apply("bid 8H", FIRST)
    against = pass_points(game.view(2))
    game.apply("pass", 2)
    for_us = pass_points(game.view(3))
    assert against < 0 < for_us
    assert for_us == -against


def test_five_and_two_handed_tables_bid_as_the_rules_bot_and_three_handed_by_value() -> None:
    bot = SearchBot(1)
    for preset, valued in (("five-handed", False), ("two-handed", False),
                           ("three-handed", True)):
        game = Game.new(Rules.preset(preset), seed=2)
        assert bot._valued(game.view(game.to_act)) is valued, preset
    four = Game.new(Rules.preset("online"), seed=2)
    assert bot._valued(four.view(four.to_act))
    assert not SearchBot(1, bidding="rules")._valued(four.view(four.to_act))


def kitty_view(hand: list[str], bid: str, seed: int) -> FiveHundredView:
    """Seat 1's view when it has won ``bid`` and holds the kitty."""
    game = deal_with(hand, seed=seed)
    game.apply(f"bid {bid}", FIRST)
    while game.phase == "bidding":
        game.apply("pass", game.to_act)
    view = game.view(FIRST)
    assert view["discard_count"] == 5
    return view


def test_plain_discards_put_back_side_cards_only() -> None:
    view = kitty_view(["JK", "JH", "AH", "KH", "9H", "7H", "AS", "4S", "5C", "6D"], "8H", 11)
    strain = strain_for(Suit.HEARTS)
    discards = plain_discards(view, strain, 5)
    hand = mask_of_texts(view["hand"])
    trumps = strain.follow_mask[int(Suit.HEARTS)]
    plain = (hand & ~trumps & ~JOKERS_MASK).bit_count()
    assert len(discards) == comb(min(plain, 5 + 3), 5) > 1
    for discard in discards:
        assert discard.bit_count() == 5 and discard & hand == discard
        assert not discard & (trumps | JOKERS_MASK)


def test_the_prior_ranks_the_discards_and_decides_when_no_deal_is_solved() -> None:
    view = kitty_view(["JK", "JH", "AH", "KH", "9H", "7H", "AS", "4S", "5C", "6D"], "8H", 11)
    seen: list[list[int]] = []

    def prior(candidates: list[int]) -> list[float]:
        seen.append(list(candidates))
        return [float(mask.bit_count() and -(mask & -mask).bit_length()) for mask in candidates]

    choice = choose_discard(view, random.Random(1), time.perf_counter() - 1, 5, prior)
    best = max(seen[0], key=lambda mask: -(mask & -mask).bit_length())
    assert choice == "discard " + " ".join(str(card) for card in cards_of(best))
    valued = SearchBot(4)._discard_prior(view)
    assert valued is not None
    values = valued(seen[0])
    assert len(values) == len(seen[0]) and all(isinstance(v, float) for v in values)


def test_a_safe_winning_bid_is_one_the_hand_makes_often_enough() -> None:
    """When a made contract wins the match, the match tactics take the winning bid with
    most tricks to spare. Spare counted from the evaluator's levels (a level made half the
    time) let them raise to a coin flip; counted from the levels made at least
    MIN_MAKE_CHANCE of the time, every safe bid is made at least that often."""
    rules = Rules.preset("online")
    evaluator = shipped()
    chances_old: list[float] = []
    safe = 0
    for seed in range(60):
        game = deal_with(cards_of_seed(rules, seed), seed=seed)
        view = game.view(FIRST)
        view["scores"] = [0, 440]  # seat 1's side wins with any contract of 60 or more
        choice = valued_bid(view) or "pass"
        strains = evaluator.strains(mask_of_texts(view["hand"]), bidding_context(view))
        call = match_bid(view, view_levels(view), choice, sure_levels(view))
        if call.tactic == "safe":
            safe += 1
            bid = Bid.parse(call.action[4:])
            assert made_chance(strains, bid) >= MIN_MAKE_CHANCE, call
        old = match_bid(view, view_levels(view), choice)
        if old.tactic == "safe":
            chances_old.append(made_chance(strains, Bid.parse(old.action[4:])))
    assert safe >= 5, safe
    assert min(chances_old) < MIN_MAKE_CHANCE, chances_old  # the coin flips it stops


def made_chance(strains: dict[Suit | None, Any], bid: Bid) -> float:
    """The evaluator's chance, after the table-play discount, that ``bid`` is made."""
    return at_least(shipped().discounted(strains[bid.trump], bid.trump), bid.tricks)


def cards_of_seed(rules: Rules, seed: int) -> list[str]:
    """Ten random cards of the deck, as texts."""
    cards = list(cards_of(rules.deck_spec.mask))
    random.Random(f"safe-{seed}").shuffle(cards)
    return [str(card) for card in cards[:10]]


def test_at_five_players_the_search_bot_counts_on_its_called_partner() -> None:
    """A five-player contractor names a card it lacks and its holder (two at eight and up)
    plays with it: the search bot values that partner as more than one partner where
    the rules bot counts one, so it opens hands the rules bot passes and bids the rules bot's
    strain higher."""
    assert min(PARTNER_WORTH.called, PARTNER_WORTH.two_called) > 1.0
    rules = Rules.preset("five-handed")
    opened = {"rules": 0, "search": 0}
    for seed in range(40):
        game = Game.new(rules, seed=seed)
        view = game.view(game.to_act)
        careful, bold = RulesBot(1).choose(view), SearchBot(1).choose(view)
        opened["rules"] += careful != "pass"
        opened["search"] += bold != "pass"
        if careful != "pass":
            mine, theirs = Bid.parse(bold[4:]), Bid.parse(careful[4:])
            assert mine.trump == theirs.trump and mine.tricks > theirs.tricks, (careful, bold)
    assert opened["rules"] <= 10 and opened["search"] >= 25, opened


def test_at_five_players_two_called_partners_count_from_the_level_that_calls_two() -> None:
    """A five-player contractor calls one partner below eight and two from eight up, so a
    bot valuing its called partners at (below eight, from eight) bids eight or more only
    where the two partners' worth reaches that level, and otherwise what one partner's
    worth allows."""
    rules = Rules.preset("five-handed")
    raised = 0
    for seed in range(60):
        game = Game.new(rules, seed=seed)
        table = Table(game.view(game.to_act))
        one = RulesBot(1, partner_worth=PartnerWorth(called=2.0, two_called=2.0)).levels(table)
        two = RulesBot(1, partner_worth=PartnerWorth(called=4.0, two_called=4.0)).levels(table)
        split = RulesBot(1, partner_worth=PartnerWorth(called=2.0, two_called=4.0)).levels(table)
        for strain, level in split.items():
            assert level == (two[strain] if two[strain] >= 8 else one[strain]), (seed, strain)
        raised += any(split[strain] > one[strain] for strain in split)
    assert raised >= 5, raised


def test_at_six_players_the_search_bot_counts_a_teammate_as_less_than_a_partner() -> None:
    """Two teammates spread a six-handed team's cards over three hands: counted as two
    whole partners, the search bot's sevens and eights failed a third of the time, so it
    counts each as PARTNER_WORTH.teammate_of_three and bids no higher than the rules bot,
    lower on some hands."""
    assert PARTNER_WORTH.teammate_of_three < 1.0
    rules = Rules.preset("six-handed")
    lower = 0
    for seed in range(40):
        game = Game.new(rules, seed=seed)
        table = Table(game.view(game.to_act))
        careful = RulesBot(1).levels(table)
        counted = RulesBot(1, partner_worth=PARTNER_WORTH).levels(table)
        assert all(counted[strain] <= level for strain, level in careful.items()), seed
        lower += counted != careful
    assert lower >= 10, lower


def test_at_four_players_the_search_bot_counts_its_partner_as_the_rules_bot_does() -> None:
    """A lone partner counts one: the search bot's fallback valuation at four players, which
    also checks its valued bids, is the rules bot's, whatever it counts at six."""
    for seed in range(20):
        game = Game.new(Rules.preset("online"), seed=seed)
        table = Table(game.view(game.to_act))
        assert RulesBot(1, partner_worth=PARTNER_WORTH).levels(table) == RulesBot(1).levels(
            table), seed
