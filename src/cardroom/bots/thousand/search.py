"""The search bot for 1000: Perfect Information Monte Carlo over quick play-outs.

To play a card it deals the cards it cannot see at random, consistently with its view (cards
played, suits a player showed out of, a shown bank, gifts it gave, the contractor's unseen
discards), plays each legal card in each such deal and finishes the deal with a fast greedy
policy that sees every hand (a cheap stand-in for double-dummy play), scores the deal exactly as
the engine does, and picks the card with the best average. Its aim is its own points minus the
others' average, so a defender values the contractor's failure. It works against a clock and
falls back on the rules bot, which also does its bidding, bank handling and final bet.

It reads nothing but the view dict it is given, so it never sees a hidden card.
"""

from __future__ import annotations

import json
import random
import time
from functools import cache

from cardroom.bots.levels import Level, search_bot_name
from cardroom.bots.thousand.knowledge import Seen
from cardroom.bots.thousand.rules_bot import ThousandRulesBot
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
from cardroom.games.thousand.scoring import score_deal
from cardroom.games.thousand.shapes import ThousandView

PILE = -1
"""The place of the contractor's discards in a sampled deal (unseen by the others)."""


LEVELS: dict[str, Level] = {
    "fast": Level(budget=0.1, samples=24),
    "default": Level(budget=0.4, samples=120),
    "strong": Level(budget=0.9, samples=400),
}
"""Levels by registry suffix (``search:fast``, ``search``, ``search:strong``); each stays
under a second a decision."""


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

    def __init__(self, seen: Seen) -> None:
        view = seen.view
        self.seen = seen
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
        """Hands for every other seat (and the discard pile under ``PILE``), or ``None``."""
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


# -- playing a sampled deal out -------------------------------------------------------------------


class Playout:
    """A deal in play with every hand known: the quick greedy play-out of the search."""

    __slots__ = ("active", "card_points", "done", "hands", "leader", "marriage_points",
                 "must_trump", "open_marriages", "trick", "trump")

    def __init__(self, seen: Seen, hands: dict[int, int]) -> None:
        view = seen.view
        self.active = seen.active
        self.hands = {seat: hands.get(seat, 0) for seat in seen.active}
        self.hands[seen.seat] = seen.hand
        self.trick = list(seen.trick)
        self.trump = seen.trump
        self.card_points = list(view["card_points"])
        self.marriage_points = list(view["marriage_points"])
        self.done = len(view["tricks"])
        self.must_trump = bool(view["rules"]["must_trump"])
        self.open_marriages = view["rules"]["marriage_timing"] == "when_leading"
        self.leader = self.trick[0][0] if self.trick else seen.seat

    def copy(self) -> Playout:
        """An independent copy (hands, trick and points are the mutable parts)."""
        twin = object.__new__(Playout)
        for name in Playout.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.hands = dict(self.hands)
        twin.trick = list(self.trick)
        twin.card_points = list(self.card_points)
        twin.marriage_points = list(self.marriage_points)
        return twin

    def to_act(self) -> int:
        """The seat to play next: the leader, or the one after the last card played."""
        if not self.trick:
            return self.leader
        order = self.active
        return order[(order.index(self.trick[-1][0]) + 1) % len(order)]

    def play(self, seat: int, index: int, marriage: bool) -> None:
        """Play a card (declaring its marriage if ``marriage``), finishing the trick if full."""
        self.hands[seat] &= ~(1 << index)
        if marriage:
            self.trump = index >> 4
            self.marriage_points[seat] += MARRIAGE_POINTS[index >> 4]
        self.trick.append((seat, index))
        if len(self.trick) == len(self.active):
            led = self.trick[0][1] >> 4
            winner = max(self.trick, key=lambda e: card_key(e[1], led, self.trump))[0]
            self.card_points[winner] += sum(POINTS[i] for _, i in self.trick)
            self.trick = []
            self.done += 1
            self.leader = winner

    def finish(self) -> None:
        """Play the deal to its end with the greedy policy."""
        while any(self.hands.values()):
            seat = self.to_act()
            index, marriage = self.greedy(seat)
            self.play(seat, index, marriage)

    def greedy(self, seat: int) -> tuple[int, bool]:
        """A quick, all-seeing choice: declare the best marriage, cash a card nobody can
        beat, win cheaply, else throw the least valuable card."""
        hand = self.hands[seat]
        if not self.trick:
            if self.open_marriages or self.done:
                for suit in sorted(range(4), key=lambda s: -MARRIAGE_POINTS[s]):
                    if hand & KING_QUEEN[suit] == KING_QUEEN[suit]:
                        return suit * 16 + 13, True
            others = 0
            for other, mask in self.hands.items():
                if other != seat:
                    others |= mask
            tops = [i for i in iter_indexes(hand) if not _beaten(i, others, self.trump)]
            if tops:
                return max(tops, key=lambda i: POINTS[i]), False
            return min(iter_indexes(hand), key=lambda i: (POINTS[i], i >> 4 == self.trump)), False
        led = self.trick[0][1] >> 4
        cards = list(iter_indexes(playable(hand, led, self.trump, self.must_trump)))
        best = max(card_key(i, led, self.trump) for _, i in self.trick)
        winners = [i for i in cards if card_key(i, led, self.trump) > best]
        if winners:
            return min(winners, key=lambda i: (i >> 4 == self.trump, STRENGTH[i])), False
        return min(cards, key=lambda i: (POINTS[i], i >> 4 == self.trump)), False


def _beaten(index: int, others: int, trump: int | None) -> bool:
    """Whether some card of ``others`` beats ``index`` led (same suit higher, or a trump)."""
    suit = index >> 4
    higher = any(STRENGTH[i] > STRENGTH[index] for i in iter_indexes(others & SUIT_IN_PACK[suit]))
    if higher:
        return True
    return trump is not None and suit != trump and bool(others & SUIT_IN_PACK[trump])


# -- the bot --------------------------------------------------------------------------------------


class ThousandSearchBot:
    """PIMC card play over sampled deals and greedy play-outs; the rules bot elsewhere."""

    name = "search"

    def __init__(self, seed: int = 0, level: str = "default") -> None:
        self.seed = seed
        self.level = LEVELS[level]
        self.name = search_bot_name(level)
        self.rng = random.Random(f"cardroom-bot:thousand-search:{level}:{seed}")
        self.heuristic = ThousandRulesBot(seed)

    def choose(self, view: ThousandView) -> str:
        """The action for the seat to act (see :class:`cardroom.bots.base.Bot`)."""
        legal: list[str] = view["legal_actions"]
        if view["phase"] != "play" or len(legal) == 1:
            return self.heuristic.choose(view)
        action = self.play(view, time.perf_counter() + self.level.budget)
        return action if action in legal else self.heuristic.choose(view)

    def play(self, view: ThousandView, deadline: float) -> str | None:
        """The play with the best average aim over sampled deals (``None``: no sample)."""
        seen = Seen(view)
        sampler = Sampler(seen)
        moves = [(Card.parse(text.split()[1]).index, text.endswith("marriage"), text)
                 for text in view["legal_actions"]]
        totals = dict.fromkeys((text for *_, text in moves), 0.0)
        samples = 0
        while samples < self.level.samples and time.perf_counter() < deadline:
            dealt = sampler.sample(self.rng)
            if dealt is None:
                break
            start = Playout(seen, dealt)
            pile = dealt.get(PILE, 0) if not seen.is_contractor else seen.discards
            for index, marriage, text in moves:
                playout = start.copy()
                playout.play(seen.seat, index, marriage)
                playout.finish()
                totals[text] += self._aim(seen, playout, pile)
            samples += 1
        if not samples:
            return None
        return max(totals, key=lambda text: (totals[text], text))

    @staticmethod
    def _aim(seen: Seen, playout: Playout, pile: int) -> float:
        """This seat's points of the deal minus the average of the other players'."""
        view = seen.view
        rules = _rules(json.dumps(view["rules"], sort_keys=True))
        on_barrel = [entry["on"] for entry in view["barrel"]]
        deal = score_deal(rules, seen.contractor, seen.bet, seen.blind,  # type: ignore[arg-type]
                          playout.card_points, playout.marriage_points, points_of(pile),
                          seen.active, on_barrel)
        others = [deal.points[s] for s in seen.active if s != seen.seat]
        return deal.points[seen.seat] - sum(others) / len(others)
