"""1000's search bot reads the other seats' calls when it deals the cards it cannot see: each
seat's hand as dealt is read back from a sampled deal exactly, a hand that explains a bid
weighs more than one that does not, and the deals kept lean towards the hands the calls
describe without ever leaving what the view allows."""

from __future__ import annotations

import random

import pytest

from cardroom.bots.thousand.evaluator import made_chance, shipped
from cardroom.bots.thousand.knowledge import Seen
from cardroom.bots.thousand.reading import CallReader
from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import PILE, Sampler, ThousandSearchBot
from cardroom.games.thousand import Game


def _played_until(preset: str, seed: int, phase: str, tricks: int = 0) -> tuple[Game, list[int]]:
    """A deal of ``preset`` bid and played by rules bots until ``phase`` (and ``tricks``
    tricks), and every seat's seven cards as dealt."""
    game = Game.new(preset, seed)
    dealt = list(game.hands)
    bot = ThousandRulesBot(seed)
    while not (game.view(None)["phase"] == phase and len(game.completed) >= tricks):
        seat = game.to_act
        game.apply(bot.choose(game.view(seat)), seat)
    return game, dealt


def _true_deal(game: Game, seat: int) -> dict[int, int]:
    """The real deal of the cards ``seat`` cannot see, as the sampler places them."""
    deal = {other: game.hands[other] for other in game.active if other != seat}
    if seat != game.contractor and game.rules.bank_use == "discard":
        deal[PILE] = game.discards
    return deal


def _contested(preset: str, phase: str = "play", tricks: int = 1) -> tuple[Game, list[int]]:
    """The first deal of ``preset`` whose bidding had a call besides the forced opening,
    played until ``phase`` and ``tricks`` tricks (by default one trick into the play)."""
    for seed in range(200):
        game, dealt = _played_until(preset, seed, phase, tricks)
        calls = game.view(None)["bidding"]
        if any(call["bid"] != "pass" for call in calls[1:]):
            return game, dealt
    raise AssertionError("no contested bidding in 200 deals")


@pytest.mark.parametrize("preset", ["seed", "russian"])
@pytest.mark.parametrize(("phase", "tricks"), [("bet", 0), ("play", 1), ("play", 3)])
def test_the_hands_as_dealt_are_read_back_from_the_real_deal(preset: str, phase: str,
                                                             tricks: int) -> None:
    """At the final bet, and one and three tricks into the play."""
    game, dealt = _contested(preset, phase, tricks)
    contractor = game.contractor
    for seat in game.active:
        reader = CallReader(Seen(game.view(seat)))
        readable = set(reader.known)
        expected = {other for other in game.active if other != seat}
        if preset == "russian" and seat != contractor:
            expected = set()  # the contractor's gift to the other defender is unseen
        assert readable == expected, (seat, contractor)
        for other in readable:
            assert reader.dealt_hand(other, _true_deal(game, seat)) == dealt[other], other


SCRIPTED = ("look", "bid 100", "look", "bid 150", "look", "pass", "bid 160", "pass")
"""The opener's forced 100; the next seat bids 150 by choice, the third passes; the opener
bids 160 and the 150 passes: the opener plays 160."""


def _scripted(seed: int) -> tuple[Game, int, int]:
    """Deal ``seed`` of ``seed`` bid as :data:`SCRIPTED`, at the opener's final bet; and the
    seat that bid 150 and the one that passed."""
    game = Game.new("seed", seed)
    opener = game.to_act
    for action in SCRIPTED:
        game.apply(action, game.to_act)
    bot = ThousandRulesBot(seed)
    while game.view(None)["phase"] != "bet":
        game.apply(bot.choose(game.view(game.to_act)), game.to_act)
    assert game.contractor == opener
    bidder, passer = game.bids[1][0], game.bids[2][0]
    return game, bidder, passer


def test_a_deal_that_explains_the_calls_weighs_more_than_one_that_does_not() -> None:
    """The contractor weighs two deals of the same two defenders' hands: the one that gives
    the 150 bidder the hand likelier to make 150 weighs more."""
    model = shipped()
    compared = 0
    for seed in range(4):
        game, bidder, passer = _scripted(seed)
        reader = CallReader(Seen(game.view(game.contractor)))
        assert {call.seat for call in reader.calls} == {bidder, passer}
        hands = (game.hands[bidder], game.hands[passer])
        bid_call = next(call for call in reader.calls if call.bid == 150)
        chances = [made_chance(model.distribution(hand, bid_call.context), 150)
                   for hand in hands]
        if abs(chances[0] - chances[1]) < 0.2:
            continue  # the two hands read alike
        strong, weak = hands if chances[0] > chances[1] else hands[::-1]
        weights = reader.weights([{bidder: strong, passer: weak}, {bidder: weak, passer: strong}])
        assert weights[0] > weights[1], seed
        compared += 1
    assert compared >= 1, "no two hands that read apart"


def test_the_kept_deals_lean_towards_the_hands_the_calls_describe() -> None:
    """Over many sampled deals, the seat that bid 150 by choice is dealt hands that make 150
    more often when the calls are read, and every deal keeps to the view's cards."""
    game, bidder, _ = _scripted(0)
    seen = Seen(game.view(game.contractor))
    reader = CallReader(seen)
    call = next(call for call in reader.calls if call.bid == 150)
    model = shipped()

    def mean_chance(sampler: Sampler) -> float:
        rng = random.Random(5)
        total = 0.0
        for _ in range(300):
            deal = sampler.sample(rng)
            assert deal is not None
            assert not any(deal[a] & deal[b] for a in deal for b in deal if a != b)
            assert sum(deal.values()) == seen.unseen
            total += made_chance(model.distribution(reader.dealt_hand(bidder, deal),
                                                    call.context), 150)
        return total / 300

    assert mean_chance(Sampler(seen, reader)) > mean_chance(Sampler(seen)) + 0.05


def test_the_search_bot_reads_the_calls_only_in_the_learned_style() -> None:
    game, _ = _contested("seed")
    view = game.view(game.to_act)
    assert ThousandSearchBot(0, "fast", reading="learned").sampler(Seen(view)).reader
    assert ThousandSearchBot(0, "fast", reading="none").sampler(Seen(view)).reader is None
