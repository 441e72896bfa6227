"""The search bot for 1000: Perfect Information Monte Carlo over double-dummy solves.

To play a card it deals the cards it cannot see at random, consistently with its view (cards
played, suits a player showed out of, a shown bank, gifts it gave, the contractor's unseen
discards), solves each such deal exactly after each legal play
(:mod:`cardroom.bots.thousand.solver`: best play by all, scored exactly as the engine scores
the deal) and plays the card with the best average margin: the contractor's points twice
over less the defenders', which the contractor maximises and a defender minimises (the
defenders share the aim of beating the contract and scoring their own points).

It works against a clock. A deal whose solve would not fit in the time left (early in a
deal of eight tricks, say) is played out a few tricks by a quick greedy policy that sees
every hand, then solved exactly from there; the bot says so in its debug log
(:attr:`ThousandSearchBot.last_reason`).

Its final bet, as contractor after the bank, is searched too: it deals the unseen cards
the same way, solves each deal for the highest bet the contractor can force
(:func:`highest_made`) and names the bet with the best average score over them
(:func:`best_bet`). It bids in one of two styles (:data:`Bidding`): by the rules bot's
valuation, or by the expected score of a bid and a pass from the learned hand evaluator
(:mod:`cardroom.bots.thousand.valued_bids`). The rules bot handles the bank, names the bet
when too few deals could be solved in time, and plays when no deal can be sampled.

It reads nothing but the view dict it is given, so it never sees a hidden card.
"""

from __future__ import annotations

import json
import logging
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal, get_args

from cardroom.bots.levels import Level, search_bot_name
from cardroom.bots.thousand.evaluator import learned
from cardroom.bots.thousand.knowledge import PILE, Seen
from cardroom.bots.thousand.reading import CallReader, Reading
from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.solver import (
    Deal,
    Move,
    Position,
    Solver,
    SolverTimeout,
    makes,
)
from cardroom.bots.thousand.valued_bids import valued_bid
from cardroom.games.cards import Card, iter_indexes
from cardroom.games.thousand.deck import (
    KING_QUEEN,
    MARRIAGE_POINTS,
    POINTS,
    STRENGTH,
    SUIT_IN_PACK,
    card_key,
    playable,
    points_of,
)
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.shapes import ThousandView

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SolverLevel(Level):
    """A level of the search bot: the budget and sample cap of :class:`Level`, and the
    tricks left from which a deal that cannot be solved whole in the time left is solved
    exactly (the tricks before are played out greedily)."""

    ending: int = 6
    """Tricks solved exactly when a whole solve does not fit (at most a few milliseconds
    of search at six: bench/thousand_solver.py)."""
    node_limit: int | None = None
    """Positions a sampled deal's whole solve may search before it is solved from its
    ending instead; ``None``: as many as the time left allows (:data:`NODES_PER_SECOND`),
    which makes the play depend on the machine's speed and load."""


NODES_PER_SECOND = 2_500_000
"""About how many positions the solver searches a second on one core: the node limit of a
solve is the time left times this (bench/thousand_solver.py measures about three million)."""


LEVELS: dict[str, SolverLevel] = {
    "fast": SolverLevel(budget=0.1, samples=24, ending=5),
    "default": SolverLevel(budget=0.4, samples=120, ending=6),
    "steady": SolverLevel(budget=math.inf, samples=16, ending=6, node_limit=300_000),
    "strong": SolverLevel(budget=0.9, samples=400, ending=6),
}
"""Levels by registry suffix (``search:fast``, ``search``, ``search:steady``,
``search:strong``); each but ``steady`` stays under a second a decision. ``steady`` samples a
fixed number of deals, each solved whole within a fixed number of positions, with no clock, so
that its decisions do not depend on the machine's speed or load (about 0.3 s a card here:
bench/RESULTS.md; :data:`cardroom.bots.levels.LEVEL_NAMES`)."""


@cache
def _rules(text: str) -> Rules:
    return Rules.from_dict(json.loads(text))


# -- dealing the unseen cards ---------------------------------------------------------------------


class Sampler:
    """Deals the cards a seat cannot see to the places they may be, at random: the other
    hands and, for a defender, the contractor's unseen discards (:data:`PILE`). 500's search
    bot deals its play samples its own way
    (:meth:`~cardroom.bots.five_hundred.search.Knowledge.sample`: a kitty and folded hands
    are "elsewhere", and deals are fitted to the bidding)."""

    def __init__(self, seen: Seen, reader: CallReader | None = None) -> None:
        view = seen.view
        self.seen = seen
        self.reader = reader if reader is not None and reader.reads else None
        """Weighs the deals drawn by the other seats' calls (``None``: every deal alike)."""
        self.sizes: dict[int, int] = {}
        self.fixed: dict[int, int] = {}
        for seat in seen.active:
            if seat == seen.seat:
                continue
            known = seen.known.get(seat, 0)
            self.fixed[seat] = known
            self.sizes[seat] = view["hand_sizes"][seat] - known.bit_count()
        pile = (view["rules"]["bank_use"] == "discard" and not seen.is_contractor
                and seen.contractor is not None)
        self.sizes[PILE] = 3 if pile else 0
        self.fixed[PILE] = 0
        fixed_all = 0
        for mask in self.fixed.values():
            fixed_all |= mask
        self.cards = list(iter_indexes(seen.unseen & ~fixed_all))
        self.allowed = {card: self._places(card) for card in self.cards}

    def _places(self, card: int) -> list[int]:
        seen = self.seen
        places = [seat for seat, size in self.sizes.items() if size > 0 and seat != PILE
                  and not seen.may_be_void(seat, card >> 4)]
        if self.sizes[PILE]:
            places.append(PILE)
        if seen.bank >> card & 1 and self.sizes[PILE]:  # a shown bank, discarded or kept
            places = [p for p in places if p in (seen.contractor, PILE)]
        return places

    def sample(self, rng: random.Random) -> dict[int, int] | None:
        """Hands for every other seat (and the discard pile under ``PILE``), or ``None``;
        with a reader, one of several drawn, kept by how well it explains the calls."""
        if self.reader is not None:
            return self.reader.choose(lambda: self._draw(rng), rng)
        return self._draw(rng)

    def _draw(self, rng: random.Random) -> dict[int, int] | None:
        for strict in (True, True, True, False):
            dealt = self._try(rng, strict)
            if dealt is not None:
                return dealt
        return None

    def _try(self, rng: random.Random, strict: bool) -> dict[int, int] | None:
        room = dict(self.sizes)
        dealt = dict(self.fixed)
        cards = self.cards[:]
        rng.shuffle(cards)
        if strict:
            cards.sort(key=lambda card: len(self.allowed[card]))
        for card in cards:
            options = [p for p in (self.allowed[card] if strict else room) if room[p] > 0]
            if not options:
                return None
            place = rng.choice(options)
            room[place] -= 1
            dealt[place] |= 1 << card
        return dealt


# -- a sampled deal as an open position ---------------------------------------------------------


def sampled_position(seen: Seen, dealt: dict[int, int]) -> Position:
    """The open position of a sampled deal: this seat's hand and the sampled others, the
    trick, trump and points from the view, the deal scored as the engine will score it
    (the contractor's discards are a sampled pile unless this seat made them)."""
    view = seen.view
    pile = seen.discards if seen.is_contractor else dealt.get(PILE, 0)
    deal = Deal(_rules(json.dumps(view["rules"], sort_keys=True)), seen.contractor,  # type: ignore[arg-type]
                seen.bet, seen.blind, points_of(pile), tuple(seen.active),  # type: ignore[arg-type]
                tuple(entry["on"] for entry in view["barrel"]))
    hands = [dealt.get(seat, 0) if seat in seen.active else 0 for seat in range(view["players"])]
    hands[seen.seat] = seen.hand
    return Position(deal, tuple(hands), seen.seat, seen.trump, tuple(view["card_points"]),
                    tuple(view["marriage_points"]), len(view["tricks"]), tuple(seen.trick))


def tricks_left(position: Position) -> int:
    """Tricks still to be finished, counting the one in progress."""
    return max(position.hands[seat].bit_count() for seat in position.deal.active)


def greedy(position: Position) -> Move:
    """A quick, all-seeing choice (the play-out before an exact ending): declare the best
    marriage, cash a card nobody can beat, win cheaply, else throw the least valuable card."""
    seat, trump = position.to_play, position.trump
    hand = position.hands[seat]
    if not position.trick:
        if position.may_declare():
            for suit in sorted(range(4), key=lambda s: -MARRIAGE_POINTS[s]):
                if hand & KING_QUEEN[suit] == KING_QUEEN[suit]:
                    return suit * 16 + 14, True  # the king (Rank.KING)
        others = 0
        for other in position.deal.active:
            if other != seat:
                others |= position.hands[other]
        tops = [i for i in iter_indexes(hand) if not _beaten(i, others, trump)]
        if tops:
            return max(tops, key=lambda i: POINTS[i]), False
        return min(iter_indexes(hand), key=lambda i: (POINTS[i], i >> 4 == trump)), False
    led = position.trick[0][1] >> 4
    cards = list(iter_indexes(playable(hand, led, trump, position.must_trump)))
    best = max(card_key(i, led, trump) for _, i in position.trick)
    winners = [i for i in cards if card_key(i, led, trump) > best]
    if winners:
        return min(winners, key=lambda i: (i >> 4 == trump, STRENGTH[i])), False
    return min(cards, key=lambda i: (POINTS[i], i >> 4 == trump)), False


def _beaten(index: int, others: int, trump: int | None) -> bool:
    """Whether some card of ``others`` beats ``index`` led (same suit higher, or a trump)."""
    suit = index >> 4
    higher = any(STRENGTH[i] > STRENGTH[index] for i in iter_indexes(others & SUIT_IN_PACK[suit]))
    if higher:
        return True
    return trump is not None and suit != trump and bool(others & SUIT_IN_PACK[trump])


def played_out(position: Position, ending: int) -> Position:
    """``position`` played on greedily to the start of a trick with ``ending`` tricks left."""
    while position.trick or tricks_left(position) > ending:
        position = position.after(greedy(position))
    return position


def solve_sample(position: Position, ending: int, node_limit: int) -> tuple[dict[Move, int], bool]:
    """The margin after each legal move of a sampled deal, and whether it was solved whole:
    exactly within ``node_limit`` positions, else each move played out greedily to
    ``ending`` tricks and solved exactly from there."""
    try:
        return Solver(position, node_limit).move_values(), True
    except SolverTimeout:
        pass
    values: dict[Move, int] = {}
    for move in position.legal_moves():
        values[move] = Solver(played_out(position.after(move), ending)).value()
    return values, False


# -- the final bet --------------------------------------------------------------------------------


def highest_made(position: Position, bets: Sequence[int], start: int,
                 node_limit: int | None = None) -> int:
    """The place in ``bets`` (ascending) of the highest bet the contractor makes on a
    sampled deal with best play by all (-1: not even the lowest), asking :func:`makes`
    from ``bets[start]`` upwards or downwards: starting where the last sample ended, a
    sample usually costs two probes. :class:`SolverTimeout` past ``node_limit`` a probe."""
    def made(place: int) -> bool:
        return makes(replace(position, deal=replace(position.deal, bet=bets[place])), node_limit)

    if made(start):
        while start + 1 < len(bets) and made(start + 1):
            start += 1
        return start
    start -= 1
    while start >= 0 and not made(start):
        start -= 1
    return start


def best_bet(highest: Sequence[int], bets: Sequence[int]) -> int:
    """The place in ``bets`` with the best average score over sampled deals, each given as
    the place of the highest bet it makes (:func:`highest_made`): a bet scores itself when
    made and loses itself when not, so a bet is worth raising while it is still made more
    than about half the time (the lowest of equals, the safer). No margin is added either
    way: against the rules bot a bet's outcome turns sharply where the solves say (150
    deals replayed with the bet 10 points higher were made 71% of the time instead of 94%,
    and scored 61 a deal instead of 131: bench/RESULTS.md)."""
    def average(place: int) -> float:
        made = sum(1 for h in highest if h >= place)
        return bets[place] * (2 * made - len(highest)) / len(highest)

    return max(range(len(bets)), key=lambda place: (average(place), -place))


# -- the bot --------------------------------------------------------------------------------------


CAUTION = 10.0
"""Points the search bot takes off the rules bot's valuation of its hand when it bids (and
bets, when too few deals were solved to bet by them): its defence beats the contracts it
lets others win (the rules bot's contracts were made 53-55% of the time against it, its
own 63%), so a contract is worth taking only with a margin. On the same 60 matches of
`seed`: no caution won 48% of them (edge +9.7 points a deal), 10 points 58% (+11.2), 20
points 45% (+9.8), and 20 points of daring 22% at an edge below zero after 18
(bench/RESULTS.md). The edges lie within each other's intervals; a
400-match run is to confirm it."""


Bidding = Literal["valued", "rules"]
"""How the search bot bids: ``valued``, by the expected score of the cheapest bid and of a
pass from the learned hand evaluator (:mod:`cardroom.bots.thousand.valued_bids`), where the
table's rules are those it learned (:func:`~cardroom.bots.thousand.evaluator.learned`); or
``rules``, the rules bot's valuation less :data:`CAUTION`."""
BIDDINGS: tuple[Bidding, ...] = get_args(Bidding)


DEFAULT_BIDDING: Bidding = "rules"
"""The default level's bidding style (:data:`Bidding`)."""
DEFAULT_READING: Reading = "none"
"""How the default level's sampled deals read the calls (:data:`~cardroom.bots.thousand.
reading.Reading`)."""


BET_SAMPLES = 6
"""Fewest sampled deals the final bet is chosen on; with fewer solved in time the rules bot's
valuation names it."""


class ThousandSearchBot:
    """PIMC card play and final bet over sampled deals solved double-dummy; bids in its
    :data:`Bidding` style; the rules bot elsewhere."""

    name = "search"

    def __init__(self, seed: int = 0, level: str = "default",
                 bidding: Bidding = DEFAULT_BIDDING, reading: Reading = DEFAULT_READING) -> None:
        self.seed = seed
        self.level = LEVELS[level]
        self.bidding: Bidding = bidding
        self.reading: Reading = reading
        """How the sampled deals read the other seats' calls
        (:mod:`cardroom.bots.thousand.reading`)."""
        self.name = search_bot_name(level)
        self.rng = random.Random(f"cardroom-bot:thousand-search:{level}:{seed}")
        self.heuristic = ThousandRulesBot(seed, caution=CAUTION)
        self.last_samples = 0
        """Deals sampled for the last card played (0: played by rule)."""
        self.last_exact = 0
        """Of those, the deals solved whole (the others were played out to an ending)."""
        self.last_reason: str | None = None
        """Why the last card was not searched, or searched only in part (``None``: every
        sampled deal was solved exactly); also logged at debug level."""

    def choose(self, view: ThousandView) -> str:
        """The action for the seat to act (see :class:`cardroom.bots.base.Bot`)."""
        legal: list[str] = view["legal_actions"]
        if view["phase"] == "bet" and len(legal) > 1:
            return self.final_bet(view, time.perf_counter() + self.level.budget)
        if view["phase"] == "bidding" and len(legal) > 1:
            return self.bid(view)
        if view["phase"] != "play" or len(legal) == 1:
            return self.heuristic.choose(view)
        self.last_samples = self.last_exact = 0
        self.last_reason = None
        action = self.play(view, time.perf_counter() + self.level.budget)
        if action in legal:
            return action
        self.last_reason = "no deal consistent with the view could be sampled"
        log.debug("%s plays by rule at seat %s: %s", self.name, view["seat"], self.last_reason)
        return self.heuristic.choose(view)

    def sampler(self, seen: Seen) -> Sampler:
        """The sampler of the deals the bot solves, reading the calls in its style."""
        return Sampler(seen, CallReader(seen) if self.reading == "learned" else None)

    def bid(self, view: ThousandView) -> str:
        """A call in the bot's bidding style: valued where the evaluator learned the
        table's rules and the seat has looked (the rules bot looks first), else by rule."""
        if self.bidding == "valued" and learned(view["rules"]):
            call = valued_bid(view)
            if call is not None:
                return call
        return self.heuristic.choose(view)

    def play(self, view: ThousandView, deadline: float) -> str | None:
        """The play with the best average margin over sampled deals (``None``: no sample).
        The first deal is always searched, later ones while time is left."""
        seen = Seen(view)
        sampler = self.sampler(seen)
        texts = {(Card.parse(text.split()[1]).index, text.endswith("marriage")): text
                 for text in view["legal_actions"]}
        totals = dict.fromkeys(texts.values(), 0.0)
        level = self.level
        while self.last_samples < level.samples:
            left = deadline - time.perf_counter()
            if self.last_samples and left <= 0:
                break
            dealt = sampler.sample(self.rng)
            if dealt is None:
                break
            limit = level.node_limit or max(int(left * NODES_PER_SECOND), 1)
            values, whole = solve_sample(sampled_position(seen, dealt), level.ending, limit)
            for move, value in values.items():
                totals[texts[move]] += value
            self.last_samples += 1
            self.last_exact += whole
        if not self.last_samples:
            return None
        if self.last_exact < self.last_samples:
            self.last_reason = (
                f"{self.last_samples - self.last_exact} of {self.last_samples} sampled deals "
                f"could not be solved whole in the time left: their first tricks were played "
                f"out greedily and the last {level.ending} solved exactly")
            log.debug("%s at seat %s: %s", self.name, view["seat"], self.last_reason)
        sign = 1 if seen.is_contractor else -1
        return max(totals, key=lambda text: (sign * totals[text], text))

    def final_bet(self, view: ThousandView, deadline: float) -> str:
        """The final bet with the best average score over sampled deals of the unseen cards,
        each solved for the highest bet the contractor makes (:func:`highest_made`); the
        rules bot's bet when fewer than :data:`BET_SAMPLES` deals could be solved in time.
        The hand's value under-bets (its bets of 110-200 were made 87-99% of the time:
        bench/RESULTS.md), where a solve sees how the cards play."""
        legal: list[str] = view["legal_actions"]
        bets = [int(text.split()[1]) for text in legal]
        seen = Seen(view)
        highest = self.sample_bets(seen, bets, deadline)
        self.last_samples = self.last_exact = len(highest)
        if len(highest) < BET_SAMPLES:
            self.last_reason = f"only {len(highest)} deals solved for the final bet"
            log.debug("%s bets by rule at seat %s: %s", self.name, view["seat"],
                      self.last_reason)
            self.last_samples = self.last_exact = 0  # by rule: a hint must not name them
            return self.heuristic.bet(seen, legal)
        self.last_reason = None
        return legal[best_bet(highest, bets)]

    def sample_bets(self, seen: Seen, bets: Sequence[int], deadline: float) -> list[int]:
        """The highest bet made on each of the deals sampled and solved before ``deadline``
        (the first with whatever time is left; at most the level's samples; with the
        level's node limit a deal too big for it is left out, else a probe out of time ends
        the sampling)."""
        sampler = self.sampler(seen)
        level = self.level
        highest: list[int] = []
        start = 0
        for _ in range(level.samples):
            left = deadline - time.perf_counter()
            if highest and left <= 0:
                break
            dealt = sampler.sample(self.rng)
            if dealt is None:
                break
            limit = level.node_limit or max(int(left * NODES_PER_SECOND), 1)
            try:
                place = highest_made(sampled_position(seen, dealt), bets, start, limit)
            except SolverTimeout:
                if level.node_limit is None:
                    break
                continue
            highest.append(place)
            start = max(place, 0)
        return highest
