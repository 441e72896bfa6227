"""The bots at a 1000 table: the registry dispatches by game, random plays anything legal,
the rules bot plays sensibly and beats random, the search bot answers legally."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.bots import BOT_NAMES, RandomBot, ThousandRulesBot, make_bot
from cardroom.bots.base import Bot
from cardroom.bots.thousand.knowledge import Seen
from cardroom.bots.thousand.rules_bot import hand_value
from cardroom.bots.thousand.search import Sampler, ThousandSearchBot
from cardroom.games.cards import mask_of
from cardroom.games.thousand import Action, Game
from tests.thousand.helpers import new_game, win_bidding

MATCH_DEALS = 40
"""Deals after which an unfinished match goes to the highest score (keeps the test quick)."""


def legal(view: dict[str, Any], action: str) -> bool:
    """Whether ``action`` (in any spelling, e.g. discards in any order) is legal in the view."""
    return Action.parse(action).text in view["legal_actions"]


def play_match(game: Game, bots: dict[int, Bot]) -> int:
    """Play until someone wins or :data:`MATCH_DEALS` deals; the winner or the leader."""
    while not game.is_over and len(game.history) < MATCH_DEALS:
        view = game.view(game.to_act)
        action = bots[game.to_act].choose(view)  # type: ignore[index]
        assert legal(view, action), action
        game.apply(action)
    return game.winner if game.winner is not None else max(
        range(game.players), key=lambda seat: game.scores[seat])


@pytest.mark.parametrize("preset", ["seed", "russian"])
def test_random_bot_plays_any_phase(preset: str) -> None:
    game = Game.new(preset, seed=2)
    bots: dict[int, Bot] = {seat: RandomBot(seat) for seat in range(3)}
    phases = set()
    while len(game.history) < 3:
        phases.add(game.phase)
        view = game.view(game.to_act)
        action = bots[game.to_act].choose(view)  # type: ignore[index]
        assert legal(view, action)
        game.apply(action)
    assert {"bidding", "bet", "play"} <= phases


def test_registry_dispatches_by_the_views_game() -> None:
    game = win_bidding(Game.new("russian", seed=4), 100)
    for name in BOT_NAMES:
        bot = make_bot(name, seed=1)
        assert isinstance(bot, Bot) and bot.name == name
        assert legal(game.view(game.to_act), bot.choose(game.view(game.to_act)))
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)
    for name in ("rules", "search:fast", "search"):
        assert legal(view, make_bot(name).choose(view))


def test_rules_bot_bids_on_value_and_looks_first() -> None:
    strong = new_game("seed", {1: "AH 10H KH QH AS 10S AD"})
    bot = ThousandRulesBot()
    assert bot.choose(strong.view(1)) == "look"
    strong.apply("look")
    assert hand_value(mask_of(["AH", "10H", "KH", "QH", "AS", "10S", "AD"])) > 150
    assert bot.choose(strong.view(1)) == "bid 100"
    weak = new_game("russian", {2: "9S JS 9C JC 9D JD 9H"})
    weak.apply("bid 100")
    assert weak.to_act == 2 and bot.choose(weak.view(2)) == "pass"


def test_rules_bot_keeps_marriages_and_declares_them() -> None:
    game = win_bidding(new_game("seed", {1: "KH QH KD QD AS 9C 9D"}, bank="AH 9H JC"), 100)
    bot = ThousandRulesBot()
    discard = bot.choose(game.view(1))
    assert not set(discard.split()[1:]) & {"KH", "QH", "KD", "QD"}
    game.apply(discard)
    game.apply(bot.choose(game.view(1)))
    assert bot.choose(game.view(1)).endswith("H marriage")


def test_rules_beats_random() -> None:
    wins = games = 0
    for seed in range(18):
        preset = ("seed", "russian")[seed % 2]
        seat = seed % 3
        bots: dict[int, Bot] = {s: ThousandRulesBot(s) if s == seat else RandomBot(seed * 3 + s)
                                for s in range(3)}
        wins += play_match(Game.new(preset, seed=seed), bots) == seat
        games += 1
    assert wins / games >= 0.7, f"rules won {wins} of {games}"


def test_search_samples_agree_with_the_view() -> None:
    game = win_bidding(Game.new("seed", seed=8), 100)
    bot = ThousandRulesBot()
    while game.phase != "play" or len(game.completed) < 2:
        game.apply(bot.choose(game.view(game.to_act)))
    seat = game.to_act
    seen = Seen(game.view(seat))
    sampler = Sampler(seen)
    rng = random.Random(3)
    for _ in range(20):
        dealt = sampler.sample(rng)
        assert dealt is not None
        for other in seen.active:
            if other != seat:
                assert dealt[other].bit_count() == game.hands[other].bit_count()
                assert not dealt[other] & (seen.hand | seen.played)
    search = ThousandSearchBot(seed=1, level="fast")
    assert legal(game.view(seat), search.choose(game.view(seat)))
