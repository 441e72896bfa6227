"""A learned hand evaluator for 500: what a hand is worth in each strain, from exact solutions.

The model was fitted (:mod:`cardroom.tools.evaluator_training`) on random deals solved double
dummy (:mod:`cardroom.tools.evaluator_data`): for a hand of ten and what the seat knows when
it bids (the deck, the kitty still to take, who leads, the other seats' calls so far), the
distribution of the tricks its side takes in a suit or no trumps after the kitty exchange,
and the chance that a misère played by the hand takes no trick. With the kitty still to
take (``kitty`` > 0) it predicts the hand's worth before the exchange; with ``kitty=0`` the
worth of the ten cards kept, which is how the exchange compares discards.

Suits share one model: the hand is described relative to the strain (its trumps by their
place in the trump order, then its other suits by length), so a spade hand and the same
hand in hearts read alike. Each table size has its own models, fitted on its own deals
(:data:`MODEL_FILES`: ``evaluator.npz`` for four players, ``evaluator-three.npz`` for
three): for each, a multinomial logistic regression or a small network, whichever fitted the
held-out deals better (four players: logistic tricks and a network misère; three: networks
throughout). They are stored as weights beside this module and run with numpy alone: no
training library is needed to play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

import numpy as np

from cardroom.bots.five_hundred.knowledge import TRICKS_PER_HAND
from cardroom.bots.networks import (
    Network,
    arrays_from_bytes,
    networks_from_arrays,
    packaged_arrays,
    softmax,
)
from cardroom.games.cards import Suit, cards_of
from cardroom.games.five_hundred import Bid, Strain, strain_for
from cardroom.games.five_hundred.rules import DECKS

Kind = Literal["suit", "no_trumps", "misere"]
KINDS: tuple[Kind, ...] = ("suit", "no_trumps", "misere")
"""The evaluator's three models: a trump suit (any of the four), no trumps, and misère."""
LEARNED_DECKS: dict[int, tuple[str, ...]] = {4: ("43", "45", "46", "43-red-trump-4"),
                                             3: ("33",)}
"""The decks each table size's model learned, by players (its training deals cycle through
them). The three-handed model learned the ``three-handed`` preset's rules only; house options
beside that deck (how the joker plays in no trumps, who leads) are valued as if they were
the preset's."""
TRICK_OUTCOMES = TRICKS_PER_HAND + 1
"""The trick models predict a probability for each count from 0 to 10."""
TRUMP_PLACES = 14
"""Places in the longest trump order (two jokers, two bowers, ace down to four)."""
SUIT_SLOTS = 4
"""Suits described besides the trumps, longest first (three in a trump suit, four in no
trumps and misère)."""
TOP_CARDS = 5
"""A suit's top cards (by their place in the deck's order of that suit) described one by one."""
LOW_CARDS = 3
"""A suit's bottom cards described one by one (they matter in misère)."""
CONTEXT_FEATURES = 15
LossShares = dict[str, float]
"""A share of the tricks lost at the table for each of ``suit`` and ``no_trumps``."""
TABLE_PLAY_LOSS: dict[int, LossShares] = {4: {"suit": 0.36, "no_trumps": 0.64},
                                          3: {"suit": -0.2, "no_trumps": 0.0}}
"""Share of the tricks a hand expects to lose double dummy that it loses once more at a real
table, where nobody sees the cards, by players: a learned distribution is moved down by this
times (10 − its mean) before a contract is judged by it (up, for a negative share). A hand
of top trumps has nothing to guess and loses little more; a middling one has finesses and
discards to guess. No trumps loses most (a suit's share left the valued bidding's no-trumps
eights made one time in two over 60 duplicate deals; a flat discount of 0.75 or 1.25 tricks
at every level made half its eights or bid no nine with a laydown ten: bench/RESULTS.md). At
three players a contractor alone hides nothing from itself that double dummy sees, and its
two defenders cannot see each other's cards: there the four-handed shares left its sevens
made 93% of the time and its sixes 98%, and next to none at all (none in suits, a tenth in
no trumps) won 74% of head to head pairs against the rules bot where those shares won 62%
(60 duplicate sets each). Even so its sixes and sevens were made 92% and 88% of the time
over 402 matches: the defenders' blindness gives a lone contractor more than double dummy
does, so in suits its distribution is moved *up* by a fifth of the tricks it expects to lose
(a negative share), and in no trumps not moved. Over the same 402 matches that bid 35% more
contracts, made 80% of them (sixes 80%, sevens 81%, eights 78%), and won 5.9 points a hand
more, set by set [+2.8, +8.9], finishing ahead of a rules side in 79% of pairs against 76%
(bench/RESULTS.md)."""
LEVEL_CONFIDENCE = 0.5
"""A hand is worth a level in a strain (:meth:`Evaluator.levels`) when it makes it at least
this often."""
MODEL_FILES = {4: "evaluator.npz", 3: "evaluator-three.npz"}
"""Each table size's model, by players: a seat with a partner and a seat alone take their
tricks differently, so each size learns from its own deals."""


def learned(players: int, deck: str) -> bool:
    """Whether an evaluator was fitted for this table: its size and its deck."""
    return deck in LEARNED_DECKS.get(players, ())


@dataclass(frozen=True)
class Context:
    """What a seat knows besides its cards when it values its hand for a contract."""

    deck: str
    """The rules' deck name (:data:`LEARNED_DECKS`: ``43``, ``45``, ``46``,
    ``43-red-trump-4`` at four players, ``33`` at three)."""
    kitty: int
    """Cards the contractor still takes from the kitty (0: the exchange is done)."""
    leads: bool
    """The seat leads the first trick if it wins the contract."""
    partner_bids: tuple[Bid | None, ...] = ()
    """The partner's call (``None``: a pass; empty: not read, or not called yet)."""
    opponent_bids: tuple[Bid | None, ...] = ()
    """Each opponent's call: its highest trick bid, else its first call."""
    calls_before: int = 0
    """How many calls were made before the seat's first."""


def context_from_bids(deck: str, kitty: int, leads: bool, seat: int, partners: Iterable[int],
                      bids: Sequence[tuple[int, Bid | None]],
                      read_partners: bool = True) -> Context:
    """The context of ``seat`` given the calls of the auction so far (``(seat, bid or
    None)`` in order). Each other seat is read by one call, as the evaluator learned from the
    calls made before a seat's first (one each at most): its highest trick bid, else its
    first call (a pass, or a no-tricks bid). Without ``read_partners`` the partners' calls
    are left out, as if they had not called yet."""
    mates = set(partners) - {seat}
    first = next((index for index, (caller, _) in enumerate(bids) if caller == seat), len(bids))
    said: dict[int, Bid | None] = {}
    for caller, bid in bids:
        if caller == seat or (caller in mates and not read_partners):
            continue
        known = said.get(caller)
        if caller not in said or (bid is not None and bid.is_trick_bid and (
                known is None or not known.is_trick_bid or bid.value > known.value)):
            said[caller] = bid
    return Context(deck, kitty, leads,
                   tuple(bid for caller, bid in said.items() if caller in mates),
                   tuple(bid for caller, bid in said.items() if caller not in mates), first)


# -- features ----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _orders(strain: Strain, deck: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The card masks of the deck in the strain's trump order (the jokers alone in no trumps),
    and in each other suit's order, strongest first."""
    def ranked(suit: int) -> tuple[int, ...]:
        keys = strain.keys[suit]
        cards = cards_of(deck & strain.follow_mask[suit])
        return tuple(card.mask for card in sorted(cards, key=lambda c: -keys[c.index]))

    trump = 4 if strain.trump is None else int(strain.trump)
    sides = tuple(ranked(suit) for suit in range(4) if suit != trump)
    return ranked(trump), sides


def _suit_features(hand: int, order: tuple[int, ...]) -> list[float]:
    """Length, top cards held and bottom cards held of one suit."""
    held = [1.0 if hand & mask else 0.0 for mask in order]
    length = sum(held)
    return [length, *held[:TOP_CARDS], *(held[-LOW_CARDS:] if len(held) >= LOW_CARDS
                                         else [0.0] * LOW_CARDS)]


def hand_features(hand: int, strain: Strain, deck: int) -> list[float]:
    """The hand described relative to ``strain``: each trump place held, the trump count, the
    other suits longest first (length, top and bottom cards), and how many are void, single
    and double."""
    trumps, sides = _orders(strain, deck)
    held = [1.0 if hand & mask else 0.0 for mask in trumps]
    places = held + [0.0] * (TRUMP_PLACES - len(held))
    slots = sorted((_suit_features(hand, order) for order in sides),
                   key=lambda slot: (-slot[0], [-flag for flag in slot[1:]]))
    slots += [[0.0] * (1 + TOP_CARDS + LOW_CARDS)] * (SUIT_SLOTS - len(slots))
    lengths = [slot[0] for slot in slots[:len(sides)]]
    shape = [float(sum(length == n for length in lengths)) for n in (0, 1, 2)]
    return [*places, sum(held), *(value for slot in slots for value in slot), *shape]


def _bid_levels(bids: Iterable[Bid | None], trump: Suit | None,
                kind: Kind) -> tuple[float, float, float, float]:
    """From calls: the highest trick level bid in this strain and in another (0: none, else
    level − 5), whether one was a pass, and whether one was a no-tricks bid."""
    here = other = 0.0
    passed = misere = 0.0
    for bid in bids:
        if bid is None:
            passed = 1.0
        elif bid.is_trick_bid:
            same = kind != "misere" and bid.trump == trump
            level = float(bid.tricks - 5)
            here, other = (max(here, level), other) if same else (here, max(other, level))
        elif bid.is_misere_type:
            misere = 1.0
    return here, other, passed, misere


def context_features(context: Context, trump: Suit | None, kind: Kind) -> list[float]:
    """The context as numbers: deck and kitty, the lead, the partner's and opponents' calls
    as they bear on ``trump`` (the strain valued), and the seat's place in the calling."""
    spec = DECKS[context.deck]
    return [context.kitty / 6.0, float(spec.kitty == 3), float(spec.kitty == 5),
            float(spec.kitty == 6), float(spec.colour_four), float(context.leads),
            *_bid_levels(context.partner_bids, trump, kind),
            *_bid_levels(context.opponent_bids, trump, kind),
            min(context.calls_before, 3) / 3.0]


def features(hand: int, kind: Kind, trump: Suit | None, context: Context) -> list[float]:
    """Everything the model reads for one hand in one strain (misère reads the hand as in
    no trumps)."""
    spec = DECKS[context.deck]
    strain = strain_for(None if kind == "misere" else trump, colour_four=spec.colour_four)
    row = [*hand_features(hand, strain, spec.mask), *context_features(context, trump, kind)]
    assert len(row) == FEATURES, f"the {context.deck} deck is not one the evaluator reads"
    return row


FEATURES = TRUMP_PLACES + 1 + SUIT_SLOTS * (1 + TOP_CARDS + LOW_CARDS) + 3 + CONTEXT_FEATURES
"""How many numbers describe one hand in one strain."""


# -- the model ---------------------------------------------------------------------------------


class Evaluator:
    """The three fitted models, asked one hand at a time or in batches."""

    def __init__(self, networks: dict[str, Network],
                 table_play_loss: LossShares | None = None) -> None:
        self.networks = networks
        self.table_play_loss = table_play_loss or TABLE_PLAY_LOSS[4]
        """The shares :meth:`discounted` moves a distribution down by (its table size's)."""

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray],
                    table_play_loss: LossShares | None = None) -> Evaluator:
        """The models from the arrays the training writes (``<kind>/mean``,
        ``<kind>/scale``, ``<kind>/w0``, ``<kind>/b0``, …)."""
        return cls(networks_from_arrays(arrays, KINDS), table_play_loss)

    def trick_distributions(self, kind: Kind, rows: np.ndarray) -> np.ndarray:
        """For each row of features, the probability of each trick count 0…10."""
        return softmax(self.networks[kind].logits(rows))

    def misere_chances(self, rows: np.ndarray) -> np.ndarray:
        """For each row of features, the chance the misère takes no trick."""
        logits = self.networks["misere"].logits(rows)[:, 0]
        return 1.0 / (1.0 + np.exp(-logits))

    def tricks(self, hand: int, trump: Suit | None, context: Context) -> np.ndarray:
        """The distribution of the tricks the hand's side takes with ``trump`` as trumps
        (``None``: no trumps)."""
        kind: Kind = "no_trumps" if trump is None else "suit"
        row = np.asarray([features(hand, kind, trump, context)])
        return self.trick_distributions(kind, row)[0]

    def strains(self, hand: int, context: Context) -> dict[Suit | None, np.ndarray]:
        """:meth:`tricks` for every strain at once."""
        suits = np.asarray([features(hand, "suit", suit, context) for suit in Suit])
        result: dict[Suit | None, np.ndarray] = dict(
            zip(Suit, self.trick_distributions("suit", suits), strict=True))
        result[None] = self.tricks(hand, None, context)
        return result

    def levels(self, hand: int, context: Context,
               needed: Callable[[int], float] = lambda level: LEVEL_CONFIDENCE
               ) -> dict[Suit | None, int]:
        """The highest level (6 to 10) the hand makes at least ``needed(level)`` of the time
        in each strain, after :meth:`discounted` (0: not even six). By default
        :data:`LEVEL_CONFIDENCE`: what a sound bidder with this hand would call, for reading
        the calls of the hands of sampled deals."""
        return self.levels_of(self.strains(hand, context), needed)

    def levels_of(self, strains: dict[Suit | None, np.ndarray],
                  needed: Callable[[int], float] = lambda level: LEVEL_CONFIDENCE
                  ) -> dict[Suit | None, int]:
        """:meth:`levels` of a hand whose :meth:`strains` the caller has already."""
        levels: dict[Suit | None, int] = {}
        for strain, distribution in strains.items():
            tail = np.cumsum(self.discounted(distribution, strain)[::-1])[::-1]
            levels[strain] = max((level for level in range(6, TRICKS_PER_HAND + 1)
                                  if tail[level] >= needed(level)), default=0)
        return levels

    def discounted(self, distribution: np.ndarray, trump: Suit | None) -> np.ndarray:
        """A learned distribution of the tricks with ``trump`` as trumps (``None``: no trumps)
        as they go at a real table of the evaluator's size: moved by its share of
        :data:`TABLE_PLAY_LOSS` of the tricks it expects to lose (down, or up for a
        negative share)."""
        return discounted(distribution, trump, self.table_play_loss)

    def misere(self, hand: int, context: Context) -> float:
        """The chance a misère played by the hand (after its exchange) takes no trick."""
        row = np.asarray([features(hand, "misere", None, context)])
        return float(self.misere_chances(row)[0])


def shipped(players: int = 4) -> Evaluator:
    """The evaluator shipped inside the package for a table of ``players`` (loaded once per
    process and table size, however the size is spelled)."""
    return _shipped(players)


@cache
def _shipped(players: int) -> Evaluator:
    arrays = packaged_arrays("cardroom.bots.five_hundred", MODEL_FILES[players])
    return Evaluator.from_arrays(arrays, TABLE_PLAY_LOSS[players])


def load_bytes(data: bytes, table_play_loss: LossShares | None = None) -> Evaluator:
    """An evaluator from the bytes of a saved ``.npz``."""
    return Evaluator.from_arrays(arrays_from_bytes(data), table_play_loss)


def discounted(distribution: np.ndarray, trump: Suit | None, shares: LossShares) -> np.ndarray:
    """A learned distribution of the tricks with ``trump`` as trumps (``None``: no trumps)
    as they go at a real table: moved down by ``shares`` (:data:`TABLE_PLAY_LOSS`) of the
    tricks it expects to lose (up, for a negative share)."""
    share = shares["suit" if trump is not None else "no_trumps"]
    tricks = share * (TRICKS_PER_HAND - expected(distribution))
    return moved_down(distribution, tricks) if tricks >= 0 else moved_up(distribution, -tricks)


def moved_down(distribution: np.ndarray, tricks: float) -> np.ndarray:
    """The distribution moved down by ``tricks`` (a fraction moves that share of each count
    one lower); counts below zero stay at zero."""
    return _moved(distribution, tricks, up=False)


def moved_up(distribution: np.ndarray, tricks: float) -> np.ndarray:
    """The distribution moved up by ``tricks``, as :func:`moved_down` moves it down; counts
    above the last (all the tricks) stay there."""
    return _moved(distribution, tricks, up=True)


def _moved(distribution: np.ndarray, tricks: float, up: bool) -> np.ndarray:
    out = np.asarray(distribution, dtype=np.float64)
    steps = [1.0] * int(tricks) + ([tricks - int(tricks)] if tricks != int(tricks) else [])
    for step in steps:
        if up:
            moved = np.concatenate([[0.0], out[:-1]])
            moved[-1] += out[-1]
        else:
            moved = np.concatenate([out[1:], [0.0]])
            moved[0] += out[0]
        out = (1.0 - step) * out + step * moved
    return out


def expected(distribution: np.ndarray) -> float:
    """The mean of a trick distribution."""
    return float(distribution @ np.arange(len(distribution)))


def at_least(distribution: np.ndarray, tricks: int) -> float:
    """The chance of taking ``tricks`` or more."""
    return float(distribution[tricks:].sum())
