"""Training data for 1000's hand evaluator (:mod:`cardroom.bots.thousand.evaluator`).

Each deal is dealt by the engine from a seed, alternately under the ``seed`` and ``russian``
presets, with a first dealer drawn from the seed. The rules bot bids in every seat up to each
seat's first call, so the calls a seat bids after look like a real auction's. Then, for each
seat as contractor, the deal is played again from its start: that seat wins the bidding, takes
the bank and puts away (discards or gives) what the rules bot would, and the deal is solved
exactly for the highest bet it makes with best play by all
(:func:`~cardroom.bots.thousand.search.highest_made`, the search bot's own final-bet probe).
Each seat gives one row: its seven cards as dealt, the calls before its first, and that bet.

Chunks, seeds and resumption are :mod:`cardroom.tools.evaluator_data`'s. The shipped model
was fitted on ``cardroom evaluator generate --game 1000 --deals 24000`` (its seed,
``evaluator-1000``, is the default for 1000).
"""

from __future__ import annotations

import random

from cardroom.bots.thousand.evaluator import (
    BETS,
    MODEL,
    context_of,
    features,
    outcome_of,
    view_calls,
)
from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import highest_made
from cardroom.bots.thousand.solver import Position
from cardroom.bots.thousand.valued_bids import open_bids
from cardroom.games.thousand import Game, Rules
from cardroom.tools.evaluator_data import Rows

PRESETS = ("seed", "russian")
"""The presets the deals alternate between."""


def deal_game(number: int, seed: str) -> tuple[Game, random.Random]:
    """Deal ``number`` of the seed as a new match, and the random source for its bots."""
    rng = random.Random(f"{seed}:{number}")
    rules = Rules.preset(PRESETS[number % len(PRESETS)])
    game = Game.new(rules, rng.randrange(2**31), first_dealer=rng.randrange(rules.players))
    return game, rng


def first_calls(game: Game, bot_seed: int) -> dict[int, list[tuple[int, int | None]]]:
    """The calls made before each seat's first call (after it looks at its cards), with the
    rules bot in every seat; a seat the bidding never reached is left out."""
    bots = {seat: ThousandRulesBot(bot_seed + seat) for seat in game.active}
    before: dict[int, list[tuple[int, int | None]]] = {}
    while game.view(None)["phase"] == "bidding":
        seat = game.to_act
        assert seat is not None, "a seat is to call while the bidding lasts"
        view = game.view(seat)
        action = bots[seat].choose(view)
        if action != "look":
            before.setdefault(seat, view_calls(view))
        game.apply(action, seat)
    return before


def won_by(game: Game, contractor: int) -> Game:
    """``game`` played on until its first trick is led: ``contractor`` wins the bidding at the
    cheapest bid it can, the rules bot takes the bank and puts cards away for it, and the
    final bet is the lowest (the solve names its own)."""
    bot = ThousandRulesBot()
    while (phase := game.view(None)["phase"]) != "play":
        seat = game.to_act
        assert seat is not None, "a seat is to act before the play"
        view = game.view(seat)
        legal: list[str] = view["legal_actions"]
        bids = open_bids(legal)
        if phase == "bidding":
            action = ("look" if "look" in legal else bids[0] if seat == contractor or
                      "pass" not in legal else "pass")
        else:
            action = legal[0] if phase == "bet" else bot.choose(view)
        game.apply(action, seat)
    assert game.contractor == contractor, "the seat meant to win the bidding did"
    return game


def highest_bet(game: Game, contractor: int, start: int) -> int | None:
    """The highest of :data:`BETS` the contractor makes on the dealt cards with best play by
    all (``None``: not even the lowest), probing from ``BETS[start]``."""
    place = highest_made(Position.from_game(won_by(game, contractor)), BETS, start)
    return None if place < 0 else BETS[place]


def solve_deal(number: int, seed: str) -> Rows:
    """Every row deal ``number`` gives (see the module's docstring)."""
    game, rng = deal_game(number, seed)
    opener = game.to_act
    hands = list(game.hands)
    calls = first_calls(game, rng.randrange(2**31))
    rules = game.view(None)["rules"]
    rows = Rows((MODEL,))
    for seat, before in calls.items():
        fresh, _ = deal_game(number, seed)
        highest = highest_bet(fresh, seat, 0)
        context = context_of(rules, seat, before, seat == opener)
        rows.add(MODEL, features(hands[seat], context), outcome_of(highest))
    return rows
