"""The bots at two-handed 500: the dead hands are unseen cards no seat holds, so the search
bot's samples deal them out of play, sized as the rules deal them (a hand of ten with the
33-card deck, two with a deck for four); the kitty exchange is chosen on sampled whole deals;
every bot plays whole matches on both decks."""

from __future__ import annotations

import random

import pytest

from cardroom.bots import make_bot
from cardroom.bots.five_hundred.bidding import WholeDealSampler, choose_discard
from cardroom.bots.five_hundred.knowledge import dead_cards
from cardroom.bots.five_hundred.search import Knowledge, SearchBot, SolverLevel
from cardroom.games.five_hundred import Game, Rules

DECKS = {"33": 1, "45": 2}
"""The decks two may play with, and the dead hands each deals."""


def two_handed(deck: str) -> Rules:
    return Rules.preset("two-handed").replace(deck=deck)


def in_play(deck: str, seed: int, cards_left: int) -> Game:
    """A two-handed game in a trick contract's play, ``cards_left`` cards in the hand to
    play, reached with random trick bids (a deal all pass is dealt again) and cards."""
    rng = random.Random(seed)
    game = Game.new(two_handed(deck), seed=seed)
    while True:
        view = game.view(game.to_act)
        legal = view["legal_actions"]
        if view["phase"] == "play" and len(view["hand"]) <= cards_left:
            return game
        if view["discard_count"]:
            game.apply("discard " + " ".join(view["hand"][:view["discard_count"]]))
        elif view["phase"] == "bidding":
            tricks = [a for a in legal if a[4:5].isdigit()]
            game.apply(rng.choice(tricks) if tricks and rng.random() < 0.3 else "pass")
        else:
            game.apply(rng.choice(legal))


@pytest.mark.parametrize("deck", DECKS)
def test_the_rules_size_the_dead_cards(deck: str) -> None:
    view = Game.new(two_handed(deck), seed=1).view(0)
    assert dead_cards(view) == 10 * DECKS[deck]
    assert dead_cards(Game.new(Rules.preset("online"), seed=1).view(0)) == 0
    assert dead_cards(Game.new(Rules.preset("three-handed"), seed=1).view(0)) == 0


@pytest.mark.parametrize("deck", DECKS)
def test_card_play_samples_leave_the_dead_cards_out_of_play(deck: str) -> None:
    """Each sample gives the opponent exactly its hand's size from the unseen cards; the
    rest (the kitty, unless the seat took it, and the dead hands) no seat holds, and the
    opponent gets each unseen card in some samples, as the seat cannot tell the dead ones."""
    for seed in range(4):
        game = in_play(deck, seed, 10)
        seat = game.to_act
        opponent = 1 - seat
        knowledge = Knowledge(game.view(seat))
        assert knowledge.dead == 10 * DECKS[deck]
        assert set(knowledge.places) == {opponent}
        out_of_play = knowledge.unseen.bit_count() - game.hands[opponent].bit_count()
        kitty_unseen = 0 if game.contractor == seat else game.rules.kitty_size
        assert out_of_play == knowledge.dead + kitty_unseen
        rng = random.Random(seed)
        dealt = 0
        for _ in range(60):
            hands = knowledge.sample(rng)
            assert hands is not None and set(hands) == {opponent}
            assert hands[opponent].bit_count() == game.hands[opponent].bit_count()
            assert not hands[opponent] & ~knowledge.unseen
            dealt |= hands[opponent]
        assert dealt & game.dead  # the dead cards are unseen, so possible, in samples


@pytest.mark.parametrize("deck", DECKS)
def test_whole_deals_have_a_kitty_and_dead_hands_as_the_rules_deal(deck: str) -> None:
    game = Game.new(two_handed(deck), seed=3)
    view = game.view(game.to_act)
    sampler = WholeDealSampler(view, random.Random(2))
    kitty = game.rules.kitty_size
    for _ in range(30):
        deal = sampler.deal(kitty)
        assert [hand.bit_count() for hand in deal.hands] == [10, 10]
        assert deal.kitty.bit_count() == kitty
        assert deal.dead.bit_count() == 10 * DECKS[deck]
        deck_mask = game.rules.deck_spec.mask
        assert deal.hands[0] | deal.hands[1] | deal.kitty | deal.dead == deck_mask
        assert 20 + kitty + deal.dead.bit_count() == deck_mask.bit_count()  # no overlap


def test_the_kitty_exchange_is_chosen_on_sampled_deals() -> None:
    """Two hands of ten solve in milliseconds, so the contractor's discard is weighed on
    sampled whole deals (the dead cards out of play), not left to the rules bot."""
    chosen = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = Game.new(Rules.preset("two-handed"), seed=seed)
        while game.phase == "bidding" and game.hand_number == 1:
            legal = game.view(game.to_act)["legal_actions"]
            suits = [a for a in legal if a.startswith("bid 6") and "NT" not in a]
            game.apply(rng.choice(suits) if suits and game.high_bid is None else "pass")
        view = game.view(game.to_act)
        if not view["discard_count"]:
            continue
        action = choose_discard(view, random.Random(seed), float("inf"), 4)
        if action is None:  # the rules bot's discard was the only candidate
            continue
        cards = action.split()[1:]
        assert len(cards) == view["discard_count"] and set(cards) <= set(view["hand"])
        game.apply(action)
        chosen += 1
    assert chosen >= 3


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("bot", ["random", "simple", "rules"])
def test_every_bot_plays_whole_two_handed_matches(bot: str, deck: str) -> None:
    for seed in range(2):
        game = Game.new(two_handed(deck), seed=seed)
        bots = [make_bot(bot, seed=seed * 2 + seat) for seat in range(2)]
        actions = 0
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            action = bots[seat].choose(view)
            assert action in view["legal_actions"] or view["discard_count"], action
            game.apply(action)
            actions += 1
            assert actions < 20_000
        assert game.winner in (0, 1)


QUICK = SolverLevel(budget=30.0, samples=2, max_tricks={2: 10}, bid_budget=30.0,
                    bid_samples=2)
"""A level that solves every card (two hands of ten are quick) however loaded the machine."""


@pytest.mark.parametrize("deck", DECKS)
def test_the_search_bot_plays_a_two_handed_hand_by_search(deck: str) -> None:
    """From the first card, every play with a choice is searched, never played by rule
    (the deals both pass are dealt again)."""
    game = Game.new(two_handed(deck), seed=5)
    bots = []
    for seat in range(2):
        bot = SearchBot(seed=seat)
        bot.level = QUICK
        bots.append(bot)
    searched = 0
    while not game.is_over and game.hand_number <= 12 and searched < 12:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        bot = bots[seat]
        action = bot.choose(view)
        if view["phase"] == "play" and len(view["legal_actions"]) > 1:
            assert bot.last_reason is None, bot.last_reason
            assert bot.last_samples == QUICK.samples
            searched += 1
        game.apply(action)
    assert searched >= 12


@pytest.mark.parametrize("bot", ["rules", "simple"])
def test_the_rule_bots_bid_against_one_opponent(bot: str) -> None:
    """The dead hand weakens the one opponent as a partner would help: counting it, most
    deals are bid (valued as against three opponents, about 70% of them passed out), and
    most contracts are still made."""
    deals = passed = made = 0
    for seed in range(6):
        game = Game.new(Rules.preset("two-handed"), seed=seed)
        bots = [make_bot(bot, seed=seed * 2 + seat) for seat in range(2)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat)))
        deals += len(game.history)
        passed += sum(hand.contractor is None for hand in game.history)
        made += sum(bool(hand.made) for hand in game.history if hand.contractor is not None)
    assert passed < deals / 2
    assert made > 0.75 * (deals - passed)
