"""A learned hand evaluator for 1000: what a hand of seven is worth in card points as contractor.

The model was fitted (:mod:`cardroom.tools.evaluator_training`) on random deals solved
exactly (:mod:`cardroom.tools.evaluator_thousand`): for a seat's seven cards and what it knows
when it bids (how the bank is used, the play's house rules, the calls before its first), the
distribution of the highest bet it makes as contractor with best play by all, after it takes
the bank and puts away the rules bot's choice of cards. That is the number a bid is judged by
(:mod:`cardroom.bots.thousand.valued_bids`): the chance that a bid of ``b`` is made is the chance
that the highest bet made is ``b`` or more.

The outcomes are the bets from :data:`LOWEST_BET` to :data:`HIGHEST_BET` in steps of
:data:`BET_STEP` (the finest step a preset bids in), with one outcome below them all: not even
the lowest bet made. The model is stored as weights beside this module (``evaluator.npz``) and
runs with numpy alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from cardroom.bots.networks import Network, networks_from_arrays, packaged_arrays
from cardroom.bots.thousand.rules_bot import hand_value, suit_value
from cardroom.games.thousand.deck import (
    KING_QUEEN,
    MARRIAGE_POINTS,
    RANKS,
    SUIT_IN_PACK,
    marriages_in,
    points_of,
)

MODEL = "contract"
"""The one model of the evaluator (the name of its arrays in the model file)."""
MODEL_FILE = "evaluator.npz"
"""The shipped model, beside this module."""
LOWEST_BET = 100
"""The lowest bet the outcomes name (every preset's lowest bid)."""
HIGHEST_BET = 300
"""The highest (every preset's highest bid)."""
BET_STEP = 5
"""Outcomes go up in fives: the finest step a preset bids in (``russian``)."""
BETS: tuple[int, ...] = tuple(range(LOWEST_BET, HIGHEST_BET + 1, BET_STEP))
"""The bets the outcomes name, lowest first."""
OUTCOMES = len(BETS) + 1
"""Outcome 0: not even :data:`LOWEST_BET` made; outcome ``k``: ``BETS[k - 1]`` the highest made."""
LEARNED = {"min_bid": LOWEST_BET, "max_bid": HIGHEST_BET, "raise_after_bank": True}
"""The options the model's deals were bid under (the ``seed`` and ``russian`` presets' own);
other house options beside these (who may declare when, how the bank is used) are read as
features."""
HIGHEST_OTHER_SCALE = 100.0
"""An other seat's highest bid is read as its points over the lowest bet, in hundreds."""


def learned(rules: Mapping[str, Any]) -> bool:
    """Whether the evaluator values hands at a table with these rules (a view's ``rules``)."""
    return all(rules.get(name) == value for name, value in LEARNED.items())


@dataclass(frozen=True)
class Context:
    """What a seat knows besides its cards when it values its hand as a contract."""

    bank_given: bool
    """The contractor gives a card of the bank to each opponent (otherwise it discards
    three)."""
    discards_count: bool
    """Discarded cards' points count for the contractor."""
    must_trump: bool
    """A player out of the suit led must trump."""
    declare_after_first_trick: bool
    """A marriage may be declared only after a trick won (otherwise on any lead)."""
    forced: bool = False
    """The seat opens the bidding and must bid."""
    highest_other: int | None = None
    """The highest bid another seat has made so far (``None``: none)."""
    passes: int = 0
    """How many other seats have passed so far."""


def context_of(rules: Mapping[str, Any], seat: int, calls: Sequence[tuple[int, int | None]],
               opener: bool) -> Context:
    """The context of ``seat`` given the rules (a view's ``rules``), the calls so far
    (``(seat, bid or None for a pass)``, in order) and whether it opens the bidding."""
    others = [(caller, bid) for caller, bid in calls if caller != seat]
    bids = [bid for _, bid in others if bid is not None]
    return Context(rules["bank_use"] == "give", bool(rules["count_discards"]),
                   bool(rules["must_trump"]), rules["marriage_timing"] == "after_first_trick",
                   opener and not calls and bool(rules["first_bidder_must_bid"]),
                   max(bids, default=None), sum(1 for _, bid in others if bid is None))


def view_calls(view: Mapping[str, Any]) -> list[tuple[int, int | None]]:
    """The calls of a view's bidding so far, as :func:`context_of` reads them."""
    return [(call["seat"], None if call["bid"] == "pass" else int(call["bid"]))
            for call in view["bidding"]]


def opener_of(view: Mapping[str, Any]) -> int:
    """The seat that opens the bidding: the first to call, or the seat to act when nobody
    has."""
    calls = view["bidding"]
    return int(calls[0]["seat"]) if calls else int(view["to_act"])


def is_forced_opening(rules: Mapping[str, Any], index: int, bid: int | None) -> bool:
    """Whether call number ``index`` of the bidding, ``bid``, is an opening the rules force:
    the first call, the lowest bid, where the first bidder must bid."""
    return index == 0 and bool(rules["first_bidder_must_bid"]) and bid == rules["min_bid"]


def hand_features(hand: int) -> list[float]:
    """A hand of 1000 as numbers: each card held; each suit's length, marriage and the
    points its unbroken top should win; the hand's points, its marriages, its length in the
    best marriage's suit and the rules bot's valuation. Suits are not alike (marriages differ
    in worth), so each keeps its place."""
    row: list[float] = []
    for suit in range(4):
        cards = hand & SUIT_IN_PACK[suit]
        row += [float(cards >> (suit * 16 + rank) & 1) for rank in RANKS]
        row += [float(cards.bit_count()), float(hand & KING_QUEEN[suit] == KING_QUEEN[suit]),
                suit_value(cards) / 10.0]
    marriages = marriages_in(hand)
    best = max((int((hand & SUIT_IN_PACK[suit]).bit_count()) for suit in marriages), default=0)
    row += [points_of(hand) / 10.0, float(len(marriages)),
            sum(MARRIAGE_POINTS[suit] for suit in marriages) / 100.0, float(best),
            hand_value(hand) / 100.0]
    return row


def context_features(context: Context) -> list[float]:
    """The context as numbers."""
    highest = context.highest_other
    return [float(context.bank_given), float(context.discards_count), float(context.must_trump),
            float(context.declare_after_first_trick), float(context.forced),
            float(highest is not None),
            0.0 if highest is None else (highest - LOWEST_BET) / HIGHEST_OTHER_SCALE,
            float(context.passes)]


def features(hand: int, context: Context) -> list[float]:
    """Everything the model reads for one hand."""
    return [*hand_features(hand), *context_features(context)]


FEATURES = 4 * (len(RANKS) + 3) + 5 + 8
"""How many numbers describe one hand in its context."""


def outcome_of(highest: int | None) -> int:
    """The outcome of a deal whose highest bet made is ``highest`` (``None``: not even the
    lowest)."""
    return 0 if highest is None else BETS.index(highest) + 1


class Evaluator:
    """The fitted model, asked one hand at a time."""

    def __init__(self, network: Network) -> None:
        self.network = network

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> Evaluator:
        """The model from the arrays the training writes."""
        return cls(networks_from_arrays(arrays, (MODEL,))[MODEL])

    def distribution(self, hand: int, context: Context) -> np.ndarray:
        """The probability of each outcome (:data:`OUTCOMES`) for the hand in its context."""
        row = np.asarray([features(hand, context)], dtype=np.float32)
        return self.network.probabilities(row)[0].astype(np.float64)


def made_chance(distribution: np.ndarray, bet: int) -> float:
    """The chance that a bet of ``bet`` is made: that the highest bet made is ``bet`` or
    more (a bet between two outcomes' bets counts as the higher)."""
    place = next((k for k, value in enumerate(BETS) if value >= bet), len(BETS))
    return float(distribution[place + 1:].sum())


def expected_highest(distribution: np.ndarray) -> float:
    """The mean of the highest bet made, counting "not even the lowest" as one step below
    it (for reporting the model's error in points)."""
    values = np.asarray([LOWEST_BET - BET_STEP, *BETS], dtype=np.float64)
    return float(distribution @ values)


def shipped() -> Evaluator:
    """The evaluator shipped inside the package (loaded once per process)."""
    return _shipped()


@cache
def _shipped() -> Evaluator:
    return Evaluator.from_arrays(packaged_arrays("cardroom.bots.thousand", MODEL_FILE))
