"""Reading the other seats' calls when 1000's search bot deals the cards it cannot see.

A seat that bid 130 by choice is likely to hold a marriage; one that passed a forced opening
holds little. The learned hand evaluator (:mod:`cardroom.bots.thousand.evaluator`) says how
often a hand makes a bid as contractor, so a sampled deal can be weighed by how well each
other seat's seven cards as dealt explain its calls, as a sound bidder makes them: a bid is
explained by a hand that makes it at least :data:`SOUND` of the time, a pass by one that
makes the next bid less often than that, and a call the hand explains less well weighs the
deal down in proportion, to no less than :data:`UNLIKELY` (players misbid, and a call never
rules a deal out). The sampler draws :data:`READ_TRIES` deals for each one it keeps and keeps
one of them with a chance in proportion to its weight.

A seat's seven cards as dealt are read back from the sampled deal: the cards it holds and has
played, less what it took from the bank or was given, plus what it put away. Where that is not
known (the contractor's gift to the other defender is unseen by a defender; a bank that was
not shown),
the seat's calls are not read. A blind bid says nothing of the hand, and a forced opening
nothing either.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from cardroom.bots.seen import mask_of_texts
from cardroom.bots.thousand.evaluator import (
    Context,
    Evaluator,
    context_of,
    features,
    is_forced_opening,
    learned,
    made_chance,
    opener_of,
    shipped,
    view_calls,
)
from cardroom.bots.thousand.knowledge import PILE, Seen
from cardroom.games.cards import Card
from cardroom.games.thousand.deck import marriages_in
from cardroom.games.thousand.shapes import ThousandView

Reading = Literal["learned", "none"]
"""How 1000's search bot deals the unseen cards: weighed by the calls as the learned evaluator
reads them, or at random among the deals its view allows."""
READINGS: tuple[Reading, ...] = get_args(Reading)
SOUND = 0.5
"""A bid is fully explained by a hand that makes it at least this often; a pass by one that
makes the next bid less often."""
UNLIKELY = 0.1
"""The least a call weighs a deal, however badly the hand explains it."""
READ_TRIES = 4
"""Deals drawn for each sampled deal kept when calls are read."""


@dataclass(frozen=True)
class Call:
    """One call of another seat that says something of its hand."""

    seat: int
    bid: int | None
    """The bid, or ``None`` for a pass."""
    next_bid: int
    """For a pass: the cheapest bid it declined."""
    context: Context
    capped: bool = False
    """For a pass: the bid declined needed a marriage in hand (the rules' cap), so a hand
    without one had no choice."""


class CallReader:
    """Weighs sampled deals by how well the other seats' hands as dealt explain their calls."""

    def __init__(self, seen: Seen, evaluator: Evaluator | None = None) -> None:
        view = seen.view
        rules = view["rules"]
        self.evaluator = evaluator
        self.calls: list[Call] = []
        self.known: dict[int, int] = {}
        """By readable seat: the cards it has played (part of its hand as dealt, with the
        sampled cards it still holds)."""
        self.taken: dict[int, int] = {}
        """By readable seat: cards it holds now that were not dealt to it (bank, gifts)."""
        self.pile_seat: int | None = None
        """The contractor whose hand as dealt holds the sampled discards."""
        if not learned(rules):
            return
        played = _played_by(view)
        for seat in seen.active:
            if seat != seen.seat and self._readable(seen, seat, played.get(seat, 0)):
                self.calls += _calls_of(view, seat)

    @property
    def reads(self) -> bool:
        """Whether any call is read (otherwise every deal weighs the same)."""
        return bool(self.calls)

    def _readable(self, seen: Seen, seat: int, played: int) -> bool:
        view = seen.view
        rules = view["rules"]
        given = rules["bank_use"] == "give"
        if seat == seen.contractor:
            if seen.blind or not view["bank"] or given:
                return False  # an unseen bank, or gifts to the other defender's hand
            self.known[seat] = played
            self.taken[seat] = seen.bank
            self.pile_seat = seat
            return True
        if seen.contractor is not None and given and not seen.is_contractor:
            return False  # the contractor's gift to this seat is unseen
        gifts = mask_of_texts(gift["card"] for gift in view["gifts"] if gift["to"] == seat)
        self.known[seat] = played
        self.taken[seat] = gifts if seen.is_contractor else 0
        return True

    def dealt_hand(self, seat: int, dealt: Mapping[int, int]) -> int:
        """``seat``'s seven cards as dealt, read back from a sampled deal."""
        hand = dealt.get(seat, 0) | self.known[seat]
        if seat == self.pile_seat:
            hand |= dealt.get(PILE, 0)
        return hand & ~self.taken[seat]

    def weights(self, deals: list[dict[int, int]]) -> np.ndarray:
        """Each deal's weight in (0, 1]: the product over the calls read of how well the
        calling seat's hand explains each."""
        evaluator = self.evaluator or shipped()
        rows = np.asarray([features(self.dealt_hand(call.seat, deal), call.context)
                           for deal in deals for call in self.calls], dtype=np.float32)
        chances = evaluator.network.probabilities(rows).astype(np.float64)
        weights = np.ones(len(deals))
        for index, distribution in enumerate(chances):
            call = self.calls[index % len(self.calls)]
            deal = deals[index // len(self.calls)]
            if call.capped and not marriages_in(self.dealt_hand(call.seat, deal)):
                continue  # a pass the rules forced on a hand without a marriage
            weights[index // len(self.calls)] *= call_weight(call, distribution)
        return weights

    def choose(self, draw: Callable[[], dict[int, int] | None],
               rng: random.Random) -> dict[int, int] | None:
        """One deal of :data:`READ_TRIES` drawn by ``draw`` (``None``: none could be), kept
        with a chance in proportion to its weight."""
        deals = [deal for deal in (draw() for _ in range(READ_TRIES)) if deal is not None]
        if not deals:
            return None
        weights = self.weights(deals)
        return deals[_pick(weights, rng)]


def call_weight(call: Call, distribution: np.ndarray) -> float:
    """How well a hand with this distribution of the highest bet it makes explains ``call``."""
    if call.bid is not None:
        chance = made_chance(distribution, call.bid)
        return min(1.0, max(UNLIKELY, chance / SOUND))
    chance = made_chance(distribution, call.next_bid)
    return min(1.0, max(UNLIKELY, (1.0 - chance) / (1.0 - SOUND)))


def _pick(weights: np.ndarray, rng: random.Random) -> int:
    """An index with a chance in proportion to its weight."""
    point = rng.random() * float(weights.sum())
    for index, weight in enumerate(weights):
        point -= float(weight)
        if point <= 0:
            return index
    return len(weights) - 1


def _played_by(view: ThousandView) -> dict[int, int]:
    """The cards each seat has played this deal, finished tricks and the one in progress."""
    played: dict[int, int] = {}
    for trick in view["tricks"]:
        for seat, card in zip(trick["seats"], trick["cards"], strict=True):
            played[seat] = played.get(seat, 0) | Card.parse(card).mask
    for entry in view["trick"]:
        played[entry["seat"]] = played.get(entry["seat"], 0) | Card.parse(entry["card"]).mask
    return played


def _calls_of(view: ThousandView, seat: int) -> list[Call]:
    """``seat``'s calls that say something of its hand, each with what was known when it was
    made: not blind bids, and not a forced opening."""
    rules = view["rules"]
    lowest, step = int(rules["min_bid"]), int(rules["bid_step"])
    calls = view_calls(view)
    opener = opener_of(view)
    read: list[Call] = []
    high: int | None = None
    for index, ((caller, bid), entry) in enumerate(zip(calls, view["bidding"], strict=True)):
        if caller == seat and not entry["blind"] and not is_forced_opening(rules, index, bid):
            context = context_of(rules, seat, calls[:index], seat == opener)
            cheapest = lowest if high is None else high + step
            cap = rules["marriage_cap"]
            read.append(Call(seat, bid, cheapest, context, cap is not None and cheapest > cap))
        if bid is not None:
            high = bid
    return read
