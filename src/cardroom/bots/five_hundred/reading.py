"""Reading the other seats' calls when the search bot deals the cards it cannot see.

A sampled deal should be one the auction could have come from: a seat that opened eight
spades holds spades, one that passed holds no hand worth the cheapest bid then open. Each
candidate deal gets a weight in (0, 1], the chance (up to a constant) that the hands it gives
the other seats would have made the calls they made, and the sampler keeps one of a few
candidates with a chance in proportion to its weight (:func:`pick_fitting`): importance
resampling, which keeps the hands varied where a best fit would always pick the most
extreme one.

Two readers (:data:`ReadingStyle`):

- ``learned`` (where the learned evaluator has a model of the table: four players on the
  43, 45, 46 and red-trump-four decks, three on the 33) values each calling seat's hand as
  the evaluator does (:mod:`cardroom.bots.five_hundred.evaluator`): a trick bid is likely
  when its side makes that level in that strain at least :data:`LEVEL_CONFIDENCE` of the
  time and less so below it; a first pass is likely when no strain was worth the cheapest
  bid then open; a misère when the hand takes no trick that often. A seat's first call and
  its highest trick bid are read (later calls are often pushed by the auction).
- ``rules`` reads each seat's first call as the rules bot would have made it
  (:class:`Reading`), each call a deal does not explain
  taking :data:`MISS_WEIGHT` off its weight; it is the reading of every table the evaluator
  has not learned.

The style is chosen per decision by the bot (:func:`reading_style`), so that the arena can
play one reading against the other with the same card play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

import numpy as np

from cardroom.bots.five_hundred.evaluator import (
    LEVEL_CONFIDENCE,
    Context,
    Evaluator,
    at_least,
    context_from_bids,
    expected,
    features,
    learned,
    shipped,
)
from cardroom.bots.five_hundred.knowledge import (
    STRAINS,
    TRICKS_PER_HAND,
    calls_of,
    first_leader,
    players_of,
    team_of,
)
from cardroom.bots.five_hundred.valuation import hand_levels
from cardroom.games.cards import Suit, cards_of
from cardroom.games.five_hundred import Bid, Contract, Rules
from cardroom.games.five_hundred.bids import TRICK_BIDS
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView

ReadingStyle = Literal["learned", "rules"]
"""How the search bot reads the other seats' calls: by the learned evaluator where it has a
model of the table (else as the rules bot), or as the rules bot bids everywhere."""
MISS_WEIGHT = 0.05
"""A deal's weight is multiplied by this for each call (or, against a no-tricks contract,
each card of a hidden maker that may take a trick) it does not explain, as the rules read
them: the best fit is nearly always the one kept."""
UNLIKELY = 0.1
"""The least a call's level (or a pass) weighs a deal, however badly the hand reaches it:
players misbid, and a level never rules a deal out."""
STRAIN_TEMPERATURE = 0.5
"""Tricks that make a strain about 2.7 times likelier to be named than one a trick worse
(:func:`strain_choice`)."""
MISERE_CONFIDENCE = 0.8
"""A misère bid is fully explained by a hand that takes no trick at least this often (the
bid is rarely made on less, and random hands seldom come near it: the weight falls with
the square of the shortfall, so that the few candidates a sample draws still favour the
low ones)."""
READ_MISERES = frozenset({Contract.MISERE, Contract.OPEN_MISERE})
"""The no-tricks calls the learned reading weighs: one hand playing to take no trick."""

_style: ContextVar[ReadingStyle] = ContextVar("cardroom_reading_style", default="learned")


@contextmanager
def reading_style(style: ReadingStyle) -> Iterator[None]:
    """Read the calls in ``style`` within the block (the search bot's decisions)."""
    token = _style.set(style)
    try:
        yield
    finally:
        _style.reset(token)


class CallReader(Protocol):
    """Weighs a deal by how well its hands explain the other seats' calls."""

    @property
    def whole_deal_draws(self) -> int:
        """Candidates worth drawing for one whole deal sampled before the play (the card
        play draws :data:`~cardroom.bots.five_hundred.search.CALL_TRIES`)."""
        ...

    def weight(self, hands: Mapping[int, int] | Sequence[int]) -> float:
        """The deal's weight in (0, 1] (1: every call read is explained), from each read
        seat's whole hand as dealt (a mask, by seat)."""
        ...


# -- the rules bot's reading ----------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What one seat's first call says about its hand, read as the rules bot bids: a first
    trick bid of ``level`` in ``strain`` means the hand is worth nearly that much there; a
    first pass means no strain was worth the cheapest bid then open to it (``below``)."""

    seat: int
    strain: Suit | None = None
    level: int = 0
    below: dict[Suit | None, int] | None = None

    def fits(self, levels: dict[Suit | None, int]) -> bool:
        """Whether a hand valued at ``levels`` would have made this call."""
        if self.below is not None:
            return all(levels[strain] < cheapest for strain, cheapest in self.below.items())
        return levels[self.strain] >= self.level - 1


@dataclass(frozen=True)
class Ladder:
    """The order of the table's bids, for what a pass left open."""

    rank: Mapping[Bid, int]
    """Each allowed bid's place (special contracts by their place, not their value: misère
    sits after the sevens under some rules)."""
    inkle: bool
    """Sixes only for the first two players to speak."""

    @classmethod
    def of(cls, view: FiveHundredView) -> Ladder:
        """The ladder of the view's rules."""
        rules = Rules.from_dict(view["rules"])
        return cls(rules.bid_rank, rules.inkle)

    def cheapest(self, high: Bid | None, speaker: int) -> dict[Suit | None, int]:
        """The lowest trick level in each strain that the ``speaker``-th seat to speak (from
        0) could bid over ``high`` (11: none)."""
        lowest = 7 if self.inkle and speaker >= 2 else 6
        above = -1 if high is None else self.rank.get(high, -1)
        return {strain: next((level for level in range(lowest, 11)
                              if self.rank.get(TRICK_BIDS[(level, strain)], -1) > above),
                             11)
                for strain in STRAINS}


def first_calls(view: FiveHundredView) -> list[Reading]:
    """How each other seat's first call reads (special contracts say nothing here, but
    close the trick bids below them to the passes after)."""
    ladder = Ladder.of(view)
    readings: list[Reading] = []
    high: Bid | None = None
    called: list[int] = []
    for seat, bid in calls_of(view):
        if seat not in called:
            if seat != view["seat"]:
                if bid is None:
                    readings.append(Reading(seat, below=ladder.cheapest(high, len(called))))
                elif bid.is_trick_bid:
                    readings.append(Reading(seat, bid.trump, bid.tricks))
            called.append(seat)
        if bid is not None:
            high = bid
    return readings


def unexplained_calls(readings: Iterable[Reading], hands: Sequence[int] | Mapping[int, int],
                      deck: int, kitty_size: int) -> int:
    """How many of ``readings`` the hands (masks by seat) do not explain."""
    misses = 0
    for reading in readings:
        levels = hand_levels(cards_of(hands[reading.seat]), deck, kitty_size, 1.0)
        misses += not reading.fits(levels)
    return misses


@dataclass(frozen=True)
class RulesReader:
    """The other seats' first calls as the rules bot would have made them."""

    readings: tuple[Reading, ...]
    deck: int
    kitty: int
    whole_deal_draws: int = 30
    """(A deal that explains every call is usually among the first few, and ends the draw.)"""

    def weight(self, hands: Mapping[int, int] | Sequence[int]) -> float:
        """:data:`MISS_WEIGHT` to the power of the calls unexplained."""
        return MISS_WEIGHT ** unexplained_calls(self.readings, hands, self.deck, self.kitty)


@dataclass(frozen=True)
class SeatCalls:
    """The calls of one seat the learned reading weighs, and what it knew when it called."""

    seat: int
    context: Context
    bids: tuple[Bid, ...]
    """Its first call if a trick bid (J5 no trumps included) or a misère, and its highest
    trick bid if higher."""
    passed_below: dict[Suit | None, int] | None = None
    """After a first pass: the cheapest level then open in each strain (by
    :meth:`Ladder.cheapest`)."""

    def likelihood(self, evaluator: Evaluator, hand: int) -> float:
        """How likely a seat holding ``hand`` was to make these calls: how far the hand
        reaches each call's level (or, for a pass, stays below every level open), between
        :data:`UNLIKELY` and 1, times the chance it names each strain it named
        (:func:`strain_choice`, once a strain, not floored: a hand that plays another strain
        far better seldom names this one; a floor on the product read worse, bench/RESULTS.md)."""
        chance = 1.0
        worth: dict[Suit | None, np.ndarray] = {}
        if any(bid.is_trick_bid for bid in self.bids) or self.passed_below:
            worth = {strain: evaluator.discounted(distribution, strain)
                     for strain, distribution in evaluator.strains(hand, self.context).items()}
        named: set[Suit | None] = set()
        for bid in self.bids:
            if bid.is_trick_bid:
                chance *= _floored(at_least(worth[bid.trump], bid.tricks) / LEVEL_CONFIDENCE)
                if bid.trump not in named:
                    named.add(bid.trump)
                    chance *= strain_choice(worth, bid.trump)
            else:
                chance *= misere_reach(evaluator.misere(hand, self.context))
        if self.passed_below is not None:
            best = max((at_least(worth[strain], level)
                        for strain, level in self.passed_below.items() if level <= 10),
                       default=0.0)  # (no trick bid was open: the pass says nothing)
            chance *= _floored((1.0 - best) / (1.0 - LEVEL_CONFIDENCE))
        return chance


def _floored(reach: float, floor: float = UNLIKELY) -> float:
    """A call's weight from how far the hand reaches what the call needs (1: all of it),
    never below ``floor``."""
    return min(1.0, max(floor, reach))


def misere_reach(chance: float, floor: float = UNLIKELY) -> float:
    """A misère call's weight for a hand that takes no trick with ``chance``: the square of
    its share of :data:`MISERE_CONFIDENCE`, never below ``floor``."""
    return _floored((chance / MISERE_CONFIDENCE) ** 2, floor)


def strain_choice(worth: Mapping[Suit | None, np.ndarray], strain: Suit | None) -> float:
    """The chance a hand worth ``worth`` (its trick distributions) names ``strain`` rather
    than another: a softmax of the tricks each is expected to take, as sharp as
    :data:`STRAIN_TEMPERATURE` (a bidder names the strain its hand plays best, give or take
    a close call)."""
    means = {name: expected(distribution) for name, distribution in worth.items()}
    top = max(means.values())
    scores = {name: math.exp((mean - top) / STRAIN_TEMPERATURE) for name, mean in means.items()}
    return scores[strain] / sum(scores.values())


@dataclass(frozen=True)
class LearnedReader:
    """The other seats' calls as the learned evaluator values their hands."""

    evaluator: Evaluator
    seats: tuple[SeatCalls, ...]
    whole_deal_draws: int = 12
    """(Each candidate costs the evaluator a look at every calling seat's hand: at 30, a
    bid's p99 went from 0.08 to 0.34 s, bench/RESULTS.md.)"""

    def weight(self, hands: Mapping[int, int] | Sequence[int]) -> float:
        """The product of each read seat's :meth:`SeatCalls.likelihood`."""
        weight = 1.0
        for calls in self.seats:
            weight *= calls.likelihood(self.evaluator, hands[calls.seat])
        return weight


def call_reader(view: FiveHundredView, seats: Sequence[int] | None = None,
                exchanged: Collection[int] = ()) -> CallReader:
    """The reader of the calls of ``seats`` (default: every other seat) in the style of the
    decision being made (:func:`reading_style`): ``learned`` where the evaluator has learned
    the table, else the rules bot's reading. The hands of ``exchanged`` seats are the ten
    cards kept after taking the kitty (the learned reading values them so)."""
    deck = DECKS[view["rules"]["deck"]]
    players = players_of(view)
    wanted = set(range(players) if seats is None else seats) - {view["seat"]}
    if _style.get() == "learned" and learned(players, view["rules"]["deck"]):
        return LearnedReader(shipped(players),
                             tuple(learned_calls(view, wanted, frozenset(exchanged))))
    readings = tuple(reading for reading in first_calls(view) if reading.seat in wanted)
    return RulesReader(readings, deck.mask, deck.kitty)


def learned_calls(view: FiveHundredView, seats: set[int],
                  exchanged: frozenset[int] = frozenset()) -> Iterator[SeatCalls]:
    """What the learned reading weighs of each of ``seats`` that has called (the hands of
    ``exchanged`` valued as kept after the kitty)."""
    bids = calls_of(view)
    deck = view["rules"]["deck"]
    ladder = Ladder.of(view)
    for seat in sorted(seats):
        own = [(index, bid) for index, (caller, bid) in enumerate(bids) if caller == seat]
        if not own:
            continue
        first_index, first = own[0]
        before = bids[:first_index]
        partners = [mate for mate in team_of(view, seat) if mate != seat]
        context = context_from_bids(deck, 0 if seat in exchanged else DECKS[deck].kitty,
                                    first_leader(view, seat) == seat, seat, partners, before,
                                    read_partners=False)
        read: list[Bid] = []
        if first is not None and (first.is_trick_bid or first.contract in READ_MISERES):
            read.append(first)
        highest = max((bid for _, bid in own if bid is not None and bid.is_trick_bid),
                      key=lambda bid: bid.value, default=None)
        if highest is not None and highest not in read:
            read.append(highest)
        passed = None
        if first is None:
            high = next((bid for _, bid in reversed(before) if bid is not None), None)
            speaker = len({caller for caller, _ in before})
            passed = ladder.cheapest(high, speaker)
        if read or passed is not None:
            yield SeatCalls(seat, context, tuple(read), passed)


MISERE_POOL = 300
"""Hands drawn for a seat that called misère when a decision turns on its hand (Across The
Corner against it, Across The Table beside it): about one random hand in twenty is a
misère hand, so the few candidates of a whole deal seldom hold one."""
MISERE_POOL_FLOOR = 1e-3
"""The least weight a pooled hand keeps (a misère is rarely bid on a hand that takes a trick
most of the time, but a hand is never ruled out)."""


@dataclass(frozen=True)
class HandPool:
    """Candidate hands for one seat and the weight of each (how well it explains the seat's
    calls): a sampled deal gives the seat one, drawn in proportion to its weight."""

    seat: int
    hands: tuple[int, ...]
    weights: tuple[float, ...]

    def draw(self, rng: random.Random) -> int:
        """One of the hands, with a chance in proportion to its weight."""
        return rng.choices(self.hands, self.weights)[0]


def misere_pool(view: FiveHundredView, caller: int, hidden: int, rng: random.Random,
                size: int = MISERE_POOL) -> HandPool | None:
    """``size`` hands of ten of the ``hidden`` cards for ``caller``, each weighed by how well
    it explains the seat's misère call (the evaluator's chance that it takes no trick, over
    :data:`MISERE_CONFIDENCE`, squared), valued together; ``None`` where the evaluator has
    not learned the table or the seat made no misère call it reads."""
    if not learned(players_of(view), view["rules"]["deck"]):
        return None
    calls = next(learned_calls(view, {caller}), None)
    if calls is None or not any(bid.contract in READ_MISERES for bid in calls.bids):
        return None
    cards = cards_of(hidden)
    hands = tuple(sum(card.mask for card in rng.sample(cards, TRICKS_PER_HAND))
                  for _ in range(size))
    evaluator = shipped(players_of(view))
    chances = evaluator.misere_chances(np.asarray(
        [features(hand, "misere", None, calls.context) for hand in hands]))
    weights = tuple(misere_reach(chance, MISERE_POOL_FLOOR) for chance in chances.tolist())
    return HandPool(caller, hands, weights)


T = TypeVar("T")


def pick_fitting(draw: Callable[[], T | None], weigh: Callable[[T], float], tries: int,
                 rng: random.Random, most_draws: int | None = None) -> T | None:
    """One of up to ``tries`` candidates from ``draw`` (which may fail: ``None``, at most
    ``most_draws`` draws in all), kept with a chance in proportion to its weight from
    ``weigh``; a candidate of weight 1 (it explains everything) is kept at once."""
    candidates: list[T] = []
    weights: list[float] = []
    for _ in range(most_draws or tries):
        candidate = draw()
        if candidate is None:
            continue
        weight = weigh(candidate)
        if weight >= 1.0:
            return candidate
        candidates.append(candidate)
        weights.append(weight)
        if len(candidates) >= tries:
            break
    if not candidates:
        return None
    return rng.choices(candidates, weights)[0]
