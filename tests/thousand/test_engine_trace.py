"""The 1000 engine behaves exactly as the engine it replaced: same views, legal actions, events
and refusals.

A fixed set of seeded random matches (both presets and house-rule mixes of three and four
players, low targets so that barrels, bolts and match ends come up, several bidding policies)
is replayed step by step. Before every action the test takes what the engine shows: the view
of every seat and of a spectator, the legal actions, the turn, the cards in every place, the
bidding and the match's counters; now and then the refusal of an illegal action; after it, the
action's events; at the end, the record. All of it goes into a running SHA-256 whose value
every :data:`~tests.engine_trace.CHUNK` steps is compared with ``engine_trace.json`` (see
:mod:`tests.engine_trace`).

That file was written once by the engine before its reshaping into phase modules (the class of
one ``game.py``), with::

    PYTHONPATH=<that checkout>/src:. python -m tests.thousand.test_engine_trace --write

Write it again only for a change of behaviour that is meant, and say so in the commit.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import cards_of
from cardroom.games.thousand import PACK_MASK, Action, Game, Rules
from tests.engine_trace import assert_as_stored, digests, over_matches, write_when_asked
from tests.thousand.test_properties import choose as choose_cautiously

TRACE_FILE = Path(__file__).with_name("engine_trace.json")
STEP_LIMIT = 700
"""Actions replayed per match at most (a deal takes about thirty)."""
REFUSAL_EVERY = 5
"""About one step in this many also tries an illegal action and traces the refusal."""

_PAGAT_MIX = {"blind_bidding": True, "bank_shown": False, "raise_after_bank": False,
              "count_discards": False, "opponent_rounding": "none", "marriage_cap": 120,
              "first_bidder_must_bid": False}
RULE_SETS: dict[str, Rules] = {
    "seed": Rules.preset("seed"),
    "russian": Rules.preset("russian"),
    "seed-low": Rules.preset("seed").replace(target=200, barrel=None, bolts=1),
    "seed-four": Rules.preset("seed").replace(players=4, target=400, barrel=280,
                                              first_dealer="random"),
    "russian-four": Rules.preset("russian").replace(
        players=4, target=300, barrel=200, barrel_count="without_bank",
        first_bidder_must_bid=False),
    "seed-mixed": Rules.preset("seed").replace(
        **_PAGAT_MIX, bank_use="give", must_trump=True, marriage_timing="after_first_trick",
        target=250, barrel=150, barrel_hold=True, bolts=3),
    "russian-mixed": Rules.preset("russian").replace(
        **_PAGAT_MIX, bank_use="discard", must_trump=False, marriage_timing="when_leading",
        target=200, barrel=None, bolts=None),
}
"""Both presets and house-rule mixes, by name; lowered targets let random matches end."""
POLICIES = ("cautious", "uniform", "eager", "cautious")
"""The policies of each rule set's matches, one match each."""


def matches() -> list[tuple[str, str, int]]:
    """(rule set, policy, seed) of every match replayed: one per policy and rule set."""
    return [(name, policy, 100 * turn + number)
            for number, name in enumerate(RULE_SETS)
            for turn, policy in enumerate(POLICIES, start=1)]


def choose(game: Game, rng: random.Random, policy: str) -> Action:
    """A legal action for the seat to act: ``cautious`` as the property tests' players (look,
    pass often, bid and bet low), ``uniform`` any legal action, ``eager`` bids more often than
    not (among the four lowest bids), declares half the marriages it may and otherwise plays
    as uniform."""
    if policy == "cautious":
        return choose_cautiously(game, rng)
    legal = list(game.legal_actions())
    if policy == "eager":
        bids = [action for action in legal if action.kind == "bid"]
        if bids and rng.random() < 0.7:
            return rng.choice(bids[:4])
        marriages = [action for action in legal if action.marriage]
        if marriages and rng.random() < 0.5:
            return rng.choice(marriages)
        if game.phase == "bidding":
            return legal[0]
    return rng.choice(legal)


def illegal_candidates(game: Game) -> list[str]:
    """Actions of the phase, most of them built from the hand of the seat to act so that each
    of the phase's refusals comes up, and one of each other kind (the caller leaves out the
    legal ones)."""
    seat: int = game.to_act  # type: ignore[assignment]
    held = [card.text for card in cards_of(game.hands[seat])]
    stranger = next(card.text for card in cards_of(PACK_MASK & ~game.hands[seat]))
    rules = game.rules
    top = game.high_bid if game.high_bid is not None else rules.min_bid
    by_phase = {
        "bidding": ["look", "pass", f"bid {top}", f"bid {top + 5}", f"bid {top + 30}",
                    f"bid {top + 30} blind", f"bid {rules.max_bid + 10}", "bid 130",
                    "bid 130 blind"],
        "bet": ["bet 100", "bet 155", f"bet {rules.max_bid}", f"bet {rules.max_bid + 10}"],
        "discard": [f"discard {' '.join(held[:2])}", f"discard {' '.join(held[-4:])}",
                    f"discard {' '.join(held[:2])} {stranger}"],
        "give": [f"give {held[0]}", f"give {' '.join(held[:3])}", f"give {held[0]} {stranger}"],
        "play": [*(f"play {text}" for text in held), f"play {stranger}",
                 *(f"play {text} marriage" for text in held if text[0] in "KQ")],
    }
    others = ["look", "bid 120", "bet 120", f"discard {' '.join(held[:3])}",
              f"give {' '.join(held[:2])}", f"play {held[0]}", "fold"]
    return [*by_phase[game.phase], *others]


def canonical(text: str) -> str:
    """The text of the action ``text`` names (discards sorted), or ``text`` if it names none."""
    try:
        return Action.parse(text).text
    except ValueError:
        return text


def refusal(game: Game, rng: random.Random) -> str:
    """The refusal of an illegal action drawn from :func:`illegal_candidates` (the game is
    left as it was)."""
    legal = {action.text for action in game.legal_actions()}
    text = rng.choice([c for c in illegal_candidates(game) if canonical(c) not in legal])
    try:
        game.apply(text, seat=game.to_act)
    except IllegalAction as error:
        return f"{text}: {error}"
    raise AssertionError(f"{text} was accepted")


def observe(game: Game, rng: random.Random) -> Any:
    """Everything the engine shows about the moment before the next action (and, one step in
    :data:`REFUSAL_EVERY`, the refusal of an illegal one)."""
    seats: list[int | None] = [*range(game.players), None]
    over = game.is_over
    return {
        "views": [game.view(seat) for seat in seats],
        "legal": [] if over else [action.text for action in game.legal_actions()],
        "turn": [game.phase, game.to_act, over, game.winner, game.hand_number, game.dealer,
                 game.sitting_out, list(game.active)],
        "cards": [list(game.hands), game.bank, game.dealt_bank, game.bank_public, game.discards,
                  list(game.gifts), list(game.trick), list(game.trick_seats), game.looked],
        "bidding": [list(game.bids), game.high_bid, game.high_bidder, game.contractor,
                    game.bid, game.bet, game.blind],
        "counts": [list(game.tricks_won), list(game.card_points), list(game.marriage_points),
                   list(game.marriages), game.trump, list(game.completed)],
        "match": [list(game.scores), list(game.on_barrel), list(game.barrel_deals),
                  list(game.bolts)],
        "refusal": (refusal(game, rng) if not over and rng.random() < 1 / REFUSAL_EVERY
                    else None),
    }


def trace(name: str, policy: str, seed: int) -> list[str]:
    """The digests of one replayed match (see :func:`tests.engine_trace.digests`)."""
    game = Game.new(RULE_SETS[name], seed=seed)
    rng = random.Random(f"trace:{name}:{policy}:{seed}")
    refusals = random.Random(f"refusals:{name}:{policy}:{seed}")
    return digests(game, lambda: choose(game, rng, policy), lambda: observe(game, refusals),
                   STEP_LIMIT)


@over_matches(matches())
def test_the_engine_shows_what_the_old_engine_showed(name: str, policy: str, seed: int) -> None:
    assert_as_stored(TRACE_FILE, trace, name, policy, seed)


if __name__ == "__main__":
    import cardroom.games.thousand as engine

    write_when_asked(TRACE_FILE, "the 1000 engine before its split into phase modules",
                     matches(), trace, STEP_LIMIT, engine.__file__,
                     usage="python -m tests.thousand.test_engine_trace")
