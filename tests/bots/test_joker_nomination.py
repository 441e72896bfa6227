"""Naming the joker's suit in no trumps (``joker_suit_nomination``): the search bot weighs
every legal nomination on sampled deals and takes the one that scores best for its side;
the rule-based bots keep the joker, which the sampled deals find better almost always; no
bot names a joker it does not hold."""

from __future__ import annotations

import copy
import random
import time

import pytest

from cardroom.bots.five_hundred import bidding
from cardroom.bots.five_hundred.rules_bot import RulesBot
from cardroom.bots.five_hundred.search import SearchBot
from cardroom.games.cards import Suit
from cardroom.games.five_hundred import Game, Rules, Strain

RULES = Rules.preset("classic").replace(joker_suit_nomination=True)


def nomination(seed: int) -> Game:
    """The game of ``seed`` (rules bots bidding) once its contractor may name the joker."""
    game = Game.new(RULES, seed=seed)
    bot = RulesBot(seed)
    while game.phase != "joker":
        assert game.hand_number == 1 and game.phase != "play"
        game.apply(bot.choose(game.view(game.to_act)))
    return game


def test_the_search_keeps_a_joker_that_wins_anywhere() -> None:
    """7NT with the joker and the top spades, clubs and diamonds: named into any suit it only
    duplicates a winner or covers a weak suit, while kept it wins wherever its holder is
    void; 24 sampled deals put keeping it 28 to 170 points above any name."""
    game = nomination(122)
    view = game.view(game.to_act)
    assert " ".join(sorted(view["hand"])) == "8H AC AS JD JH JK KC KD KS QS"
    deadline = time.perf_counter() + 60  # the answer, not the speed, is under test
    assert bidding.choose_joker_suit(view, random.Random(3), deadline, 24) == "pass"


def test_the_search_names_the_suit_its_deals_favour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every legal choice is solved on each sampled deal, and the best average wins: here
    the deals (stubbed) give the contract two more tricks with the joker named a club."""
    game = nomination(122)
    view = game.view(game.to_act)

    def tricks(hands: list[int], strain: Strain, *args: object, **kwargs: object) -> int:
        return 9 if strain.joker_suit is Suit.CLUBS else 7

    monkeypatch.setattr(bidding, "solve_tricks", tricks)
    bot = SearchBot(seed=3)
    assert bot.choose(view) == "joker C"


def test_rule_bots_keep_the_joker() -> None:
    game = nomination(122)
    assert RulesBot(1).choose(game.view(game.to_act)) == "pass"


def test_no_bot_names_a_joker_it_does_not_hold() -> None:
    """Should the nomination reach a contractor without the joker, naming a suit would only
    force a defender's joker out, which the rules do not allow: every bot passes."""
    game = nomination(122)
    view = copy.deepcopy(game.view(game.to_act))
    view["hand"] = [text if text != "JK" else "7C" for text in view["hand"]]
    assert SearchBot(seed=1).choose(view) == "pass"
    assert RulesBot(seed=1).choose(view) == "pass"
