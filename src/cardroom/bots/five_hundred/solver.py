"""A double-dummy solver for the tricks of 500: best play by everyone, all hands open.

Given every remaining hand, the trick in progress and the strain, :func:`solve` answers how
many of the remaining tricks one side takes when everybody plays perfectly, and
:func:`move_values` gives that number after each legal move of the seat to play (the search
bot averages these over sampled deals). Following suit, the joker and the trick winner come
from the engine's :class:`~cardroom.games.five_hundred.tricks.Strain` tables, so the solver
plays exactly the engine's game, including no-tricks rules (forced joker, low joker).

Inside, cards are renumbered compactly: the cards still in play, grouped by effective suit and
ordered by strength within it, so a suit is a contiguous run of bits, its top card is its
highest bit and cards adjacent in a run are interchangeable. The search is a null-window
(boolean) alpha-beta over single card plays with a transposition table at trick boundaries
keyed on the remaining hands, equivalent-card merging, cheap move ordering and quick-trick
bounds; exact values come from a few null-window probes (MTD-style bisection).

:class:`Search` is that search in pure Python; :class:`FastSearch` (used by :func:`solve`,
:func:`move_values` and :func:`best_moves` unless ``fast=False``) runs the same search as a
numba-compiled kernel over integer arrays, cached on disk, for about a hundredfold speed.
:func:`brute_force` is the plain minimax reference the tests check both searches against.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.games.cards import JOKER_INDEX, Suit, iter_indexes
from cardroom.games.five_hundred.tricks import JOKER_SUIT, Strain

JOKER_BIT = 1 << JOKER_INDEX
SUITS = tuple(int(suit) for suit in Suit)
Move = tuple[int, int | None]
"""A move: the card index played and, for a joker led in no trumps, the suit it names."""


FULL_DEAL = 10
"""Tricks in a full deal of four ten-card hands: the positions the first guess is fitted to."""

GUESS_WEIGHTS = {
    True: ((1.27, 0.39, 0.11, 1.67, 1.21, 0.69, 0.82), -4.04),
    False: ((1.81, 0.74, 0.32, 2.82, 0.0, 0.0, 0.0), -1.40),
}
"""The first guess of a partnership's tricks in a full deal (in a trump suit: ``True``; in no
trumps: ``False``) is a constant plus these weights times: how many plain suits whose best,
second and third cards it holds; whether it holds the best, second and third trump (the joker
alone in no trumps); and its number of trumps. Least squares over solved random deals (600
in hearts and spades, 300 in no trumps); on other deals the guess is within a trick of the
answer 82% of the time in hearts and 76% in no trumps, and full deals search about 5% fewer
positions than when the probes start halfway (bench/RESULTS.md)."""


class SolverTimeout(Exception):
    """The search passed its deadline; the caller should fall back to something cheaper."""


@dataclass(frozen=True)
class Position:
    """A moment of the play, with every hand known (engine masks, by seat).

    ``hands`` has one mask per seat (folded seats hold 0 or are simply left out of
    ``active``); ``trick`` is the trick so far as ``(seat, card index)`` pairs in play order;
    ``led`` is the effective suit led (needed when ``trick`` is not empty, and the suit a
    led no-trumps joker named); ``to_play`` is the seat to play next. ``joker_forced`` and
    ``joker_any_time`` are the engine's no-tricks and no-trumps joker rules.
    """

    hands: tuple[int, ...]
    strain: Strain
    to_play: int
    active: tuple[int, ...] = (0, 1, 2, 3)
    trick: tuple[tuple[int, int], ...] = ()
    led: int | None = None
    joker_forced: bool = False
    joker_any_time: bool = False

    @property
    def tricks_left(self) -> int:
        """Tricks still to be finished, counting the one in progress."""
        return self.hands[self.to_play].bit_count()

    @classmethod
    def from_game(cls, game: object) -> Position:
        """The position of a game in its play phase (reads hidden hands: for tests and
        benchmarks, never for a bot)."""
        g = game  # the engine's Game; typed loosely to keep this module free of it
        return cls(hands=tuple(g.hands), strain=g.strain, to_play=g.to_act,  # type: ignore[attr-defined]
                   active=tuple(g.active),  # type: ignore[attr-defined]
                   trick=tuple(zip(g.trick_seats, g.trick, strict=True)),  # type: ignore[attr-defined]
                   led=g.led if g.trick else None,  # type: ignore[attr-defined]
                   joker_forced=g.joker_forced,  # type: ignore[attr-defined]
                   joker_any_time=g.joker_any_time)  # type: ignore[attr-defined]


def playable(hand: int, leading: bool, led: int, follow: Sequence[int], joker: int,
             joker_forced: bool, joker_any_time: bool) -> int:
    """Mask of the cards of ``hand`` that may be played, by the engine's rules.

    The same rules as ``Game._playable`` (the tests compare the two on random games), written
    over any numbering of the cards: ``follow[s]`` is the mask of effective suit ``s`` and
    ``joker`` the joker's bit (0 when it is out of play).
    """
    if leading:
        if joker_forced and hand & joker and hand != joker:
            return hand & ~joker
        return hand
    following = hand & follow[led]
    if following:
        if joker_any_time and hand & joker:
            following |= joker
        return following
    if joker_forced and hand & joker:
        return joker
    return hand


def next_seats(active: Sequence[int]) -> dict[int, int]:
    """The next seat to play after each active seat, clockwise."""
    ordered = sorted(active)
    return {seat: ordered[(i + 1) % len(ordered)] for i, seat in enumerate(ordered)}


def side_of(seats: int | Iterable[int]) -> int:
    """A side (one seat or several) as a bit mask of seats."""
    if isinstance(seats, int):
        return 1 << seats
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


# -- the reference: plain minimax ---------------------------------------------------------------


def brute_force(position: Position, side: int | Iterable[int],
                maximisers: int | Iterable[int] | None = None) -> int:
    """Tricks ``side`` takes from ``position`` by plain minimax over every legal card (and
    every suit a led no-trumps joker may name); ``maximisers`` (default: the side) want that
    number high, the other seats low. Exponential: for small endings and tests."""
    side_mask = side_of(side)
    max_mask = side_mask if maximisers is None else side_of(maximisers)
    after = next_seats(position.active)
    strain = position.strain
    follow = strain.follow_mask

    def value(hands: list[int], trick: list[tuple[int, int]], led: int, seat: int) -> int:
        if len(trick) == len(position.active):
            cards = [card for _, card in trick]
            winner = trick[strain.winner(cards, led)][0]
            won = 1 if side_mask >> winner & 1 else 0
            if not hands[winner]:
                return won
            return won + value(hands, [], 0, winner)
        mask = playable(hands[seat], not trick, led, follow, JOKER_BIT,
                        position.joker_forced, position.joker_any_time)
        results = []
        for card in iter_indexes(mask):
            hands[seat] ^= 1 << card
            for named in _nominations_all(strain, card, not trick):
                new_led = strain.led_suit(card, None if named is None else Suit(named)) \
                    if not trick else led
                results.append(value(hands, [*trick, (seat, card)], new_led, after[seat]))
            hands[seat] ^= 1 << card
        return max(results) if max_mask >> seat & 1 else min(results)

    led = position.led if position.led is not None else 0
    return value(list(position.hands), list(position.trick), led, position.to_play)


def _nominations_all(strain: Strain, card: int, leading: bool) -> tuple[int | None, ...]:
    """Every suit a card may name: all four for a joker led in no trumps, else none."""
    if leading and strain.suit_of[card] == JOKER_SUIT:
        return SUITS
    return (None,)


# -- the fast search ------------------------------------------------------------------------------


class _Layout:
    """The compact numbering of the cards of one position (see the module docstring)."""

    def __init__(self, strain: Strain, cards: int) -> None:
        order = sorted(iter_indexes(cards), key=lambda i: (strain.suit_of[i],
                                                           strain.keys[strain.suit_of[i]][i]))
        self.index = order  # compact position -> engine card index
        self.compact = {card: pos for pos, card in enumerate(order)}
        self.suit = [strain.suit_of[card] for card in order]
        self.follow = [0] * 5
        for pos, suit in enumerate(self.suit):
            self.follow[suit] |= 1 << pos
        self.keys = [[strain.keys[led][card] for card in order] for led in range(5)]
        self.joker = 1 << self.compact[JOKER_INDEX] if JOKER_INDEX in self.compact else 0

    def to_compact(self, mask: int) -> int:
        """An engine mask in the compact numbering."""
        out = 0
        for card in iter_indexes(mask):
            out |= 1 << self.compact[card]
        return out


class Search:
    """A double-dummy search of one deal for one side; keeps its transposition table between
    calls, so asking about several moves of the same deal shares the work."""

    CHECK_EVERY = 1024
    """Trick-boundary nodes between two looks at the clock."""

    def __init__(self, position: Position, side: int | Iterable[int],
                 deadline: float | None = None,
                 maximisers: int | Iterable[int] | None = None) -> None:
        strain = position.strain
        self.position = position
        self.strain = strain
        in_play = 0
        for seat in position.active:
            in_play |= position.hands[seat]
        for _, card in position.trick:
            in_play |= 1 << card
        self.layout = layout = _Layout(strain, in_play)
        self.side = side_of(side)
        self.maximisers = self.side if maximisers is None else side_of(maximisers)
        self.active = tuple(sorted(position.active))
        self.after = next_seats(self.active)
        self.orders = {seat: self._order_from(seat) for seat in self.active}
        self.joker = layout.joker
        self.forced = position.joker_forced
        self.any_time = position.joker_any_time
        trump = strain.trump
        self.trump_mask = layout.follow[int(trump)] if trump is not None else 0
        self.joker_wins = (bool(self.joker) and trump is None
                           and layout.suit[layout.compact[JOKER_INDEX]] == JOKER_SUIT
                           and layout.keys[0][layout.compact[JOKER_INDEX]] > 0)
        """In no trumps, the joker beats every card (not when it is low, nor when its holder
        named a suit it belongs to: then it is that suit's top card and nothing more)."""
        self.hands = [0, 0, 0, 0]
        for seat in self.active:
            self.hands[seat] = layout.to_compact(position.hands[seat])
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.deadline = deadline
        self.nodes = 0

    def _order_from(self, leader: int) -> tuple[int, ...]:
        seats = [leader]
        while len(seats) < len(self.active):
            seats.append(self.after[seats[-1]])
        return tuple(seats)

    # public questions

    def value(self, lo: int = 0, hi: int | None = None, guess: int | None = None) -> int:
        """Tricks the side takes from the position with best play, clamped to ``[lo, hi]``;
        a ``guess`` of the answer (never needed, never changing it; :meth:`first_guess` when
        not given) saves probes when good."""
        return self._bisect(self.reaches, lo, hi, self.first_guess() if guess is None else guess)

    def first_guess(self) -> int | None:
        """A quick estimate of a partnership's tricks in a full deal from the top cards it
        holds in each suit and its trumps (:data:`GUESS_WEIGHTS`), or ``None`` for other
        positions. It only orders the probes: a guess one trick high costs almost nothing,
        one trick low a probe more, so the estimate leans 0.3 of a trick up before
        rounding."""
        position = self.position
        if (position.trick or len(self.active) != 4 or position.tricks_left != FULL_DEAL
                or self.side not in (0b0101, 0b1010) or self.maximisers != self.side):
            return None
        ours = 0
        for seat in self.active:
            if self.side >> seat & 1:
                ours |= self.hands[seat]
        in_play = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        trump = JOKER_SUIT if self.strain.trump is None else int(self.strain.trump)
        weights, constant = GUESS_WEIGHTS[self.strain.trump is not None]
        counts = [0] * len(weights)
        for suit in range(5):
            cards = in_play & self.layout.follow[suit]
            first = 3 if suit == trump else 0
            for place in range(3):
                if not cards:
                    break
                top = 1 << (cards.bit_length() - 1)
                counts[first + place] += bool(ours & top)
                cards ^= top
        counts[6] = (ours & self.layout.follow[trump]).bit_count()
        estimate = constant + sum(w * c for w, c in zip(weights, counts, strict=True))
        return max(0, min(FULL_DEAL, round(estimate + 0.3)))

    def move_values(self, lo: int = 0, hi: int | None = None,
                    guesses: dict[Move, float] | None = None) -> dict[Move, int]:
        """The value (as :meth:`value`) after each legal move of the seat to play; equivalent
        cards share one search. ``guesses`` may hold likely values by move (say, the
        average over deals solved before), to try first; other moves start from
        :meth:`first_guess`."""
        values: dict[Move, int] = {}
        guesses = guesses or {}
        default = self.first_guess()
        for move, group in self._root_moves():
            guess = guesses.get(move, default)
            result = self._bisect(lambda t, m=move: self._after_move_reaches(m, t), lo, hi,
                                  None if guess is None else round(guess))
            for card in group:
                values[(card, move[1])] = result
        return values

    def reaches(self, target: int) -> bool:
        """Can the side take at least ``target`` of the remaining tricks?"""
        trick = self._trick_state()
        if trick is None:
            return self._reach(self.hands, self.position.to_play, target)
        order, pos, led, best_key, best_seat, trick_mask = trick
        return self._play(self.hands, order, pos, led, best_key, best_seat, trick_mask, target)

    # the root

    def _bisect(self, reaches: Callable[[int], bool], lo: int, hi: int | None,
                guess: int | None = None) -> int:
        """The largest target in ``[lo, hi]`` that ``reaches``: by halving the range, or,
        given a guess, by stepping from it (two probes when the guess is right, where
        halving takes three or four, and the probes far from the answer are saved); a guess
        still wrong after two steps gives way to halving."""
        total = self.position.hands[self.position.to_play].bit_count()
        top = total if hi is None else min(hi, total)
        low = max(lo, 0)
        steps = 0 if guess is not None else 2
        probe = min(max(guess or 0, low + 1), top)
        while low < top:
            if steps >= 2:
                probe = (low + top + 1) // 2
            steps += 1
            if reaches(probe):
                low = probe
                probe += 1
            else:
                top = probe - 1
                probe -= 1
        return low

    def _trick_state(self) -> tuple[tuple[int, ...], int, int, int, int, int] | None:
        """The trick in progress in compact cards: play order, cards played, led suit, best
        key and seat so far, mask of its cards (``None`` at a trick boundary)."""
        trick = self.position.trick
        if not trick:
            return None
        layout = self.layout
        led = self.position.led if self.position.led is not None else 0
        best_key, best_seat, mask = -1, -1, 0
        for seat, card in trick:
            compact = layout.compact[card]
            mask |= 1 << compact
            key = layout.keys[led][compact]
            if key > best_key:
                best_key, best_seat = key, seat
        return self.orders[trick[0][0]], len(trick), led, best_key, best_seat, mask

    def _root_moves(self) -> list[tuple[Move, list[int]]]:
        """One representative move per group of equivalent cards (and per useful suit a
        led joker may name), with the engine cards each stands for."""
        seat = self.position.to_play
        layout = self.layout
        trick = self._trick_state()
        led, trick_mask = (trick[2], trick[5]) if trick else (0, 0)
        hands = self.hands
        mask = playable(hands[seat], trick is None, led, layout.follow, self.joker,
                        self.forced, self.any_time)
        in_play = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
        moves: list[tuple[Move, list[int]]] = []
        for rep, group in _groups(mask, in_play, layout.suit):
            engine_group = [layout.index[c] for c in group]
            if trick is None and layout.suit[rep] == JOKER_SUIT:
                moves.extend(((layout.index[rep], named), engine_group)
                             for named in self._nominations(seat, hands))
            else:
                moves.append(((layout.index[rep], None), engine_group))
        return moves

    def _trick_after(self, move: Move) -> tuple[int, int, tuple[int, ...], int, int, int, int,
                                                  int]:
        """The trick once the seat to play makes ``move``: the compact card, the seat, the
        trick's play order, the position in it, the suit led, the best key and its seat, and
        the cards in the trick (both searches start from here)."""
        layout = self.layout
        card = layout.compact[move[0]]
        seat = self.position.to_play
        trick = self._trick_state()
        if trick is None:
            order, pos, trick_mask = self.orders[seat], 0, 0
            led = move[1] if move[1] is not None else layout.suit[card]
            best_key, best_seat = layout.keys[led][card], seat
        else:
            order, pos, led, best_key, best_seat, trick_mask = trick
            key = layout.keys[led][card]
            if key > best_key:
                best_key, best_seat = key, seat
        return card, seat, order, pos, led, best_key, best_seat, trick_mask

    def _after_move_reaches(self, move: Move, target: int) -> bool:
        card, seat, order, pos, led, best_key, best_seat, trick_mask = self._trick_after(move)
        hands = self.hands
        hands[seat] ^= 1 << card
        try:
            return self._play(hands, order, pos + 1, led, best_key, best_seat,
                              trick_mask | 1 << card, target)
        finally:
            hands[seat] ^= 1 << card

    # the search proper

    def _reach(self, hands: list[int], leader: int, target: int) -> bool:
        """At a trick boundary, ``leader`` to lead: can the side take ``target`` more?"""
        if target <= 0:
            return True
        left = hands[leader].bit_count()
        if target > left:
            return False
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        entry = self.table.get(key)
        if entry is None:
            lo, hi = self._bounds(hands, leader, left, target)
        else:
            lo, hi = entry
        if lo >= target:
            return True
        if hi < target:
            return False
        self.nodes += 1
        if (self.deadline is not None and not self.nodes % self.CHECK_EVERY
                and time.perf_counter() > self.deadline):
            raise SolverTimeout
        result = self._play(hands, self.orders[leader], 0, 0, -1, -1, 0, target)
        if result:
            lo = max(lo, target)
        else:
            hi = min(hi, target - 1)
        self.table[key] = (lo, hi)
        return result

    def _play(self, hands: list[int], order: tuple[int, ...], pos: int, led: int,
              best_key: int, best_seat: int, trick_mask: int, target: int) -> bool:
        """The player ``order[pos]`` chooses a card; True if the side reaches ``target``."""
        if pos == len(order):
            return self._reach(hands, best_seat, target - (self.side >> best_seat & 1))
        seat = order[pos]
        layout = self.layout
        maximising = self.maximisers >> seat & 1
        mask = playable(hands[seat], pos == 0, led, layout.follow, self.joker, self.forced,
                        self.any_time)
        in_play = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
        for card, named in self._ordered_moves(mask, in_play, pos, led, best_key, best_seat,
                                               seat, hands, maximising):
            if pos == 0:
                new_led = named if named is not None else layout.suit[card]
                new_best, new_seat = layout.keys[new_led][card], seat
            else:
                new_led = led
                key = layout.keys[led][card]
                new_best, new_seat = (key, seat) if key > best_key else (best_key, best_seat)
            bit = 1 << card
            hands[seat] ^= bit
            result = self._play(hands, order, pos + 1, new_led, new_best, new_seat,
                                trick_mask | bit, target)
            hands[seat] ^= bit
            if result == bool(maximising):
                return result
        return not maximising

    def _ordered_moves(self, mask: int, in_play: int, pos: int, led: int, best_key: int,
                       best_seat: int, seat: int, hands: list[int],
                       maximising: int) -> list[tuple[int, int | None]]:
        """Representative moves, likeliest cut-offs first: top cards then low ones when
        leading; the cheapest card when the trick is already the mover's side's; else the
        cheapest winner, then the cheapest card."""
        layout = self.layout
        reps = [rep for rep, _ in _groups(mask, in_play, layout.suit)]
        if pos == 0:
            suit = layout.suit
            reps.sort(key=lambda c: self._lead_key(c, seat, hands, in_play))
            moves: list[tuple[int, int | None]] = []
            for card in reps:
                if suit[card] == JOKER_SUIT:
                    moves.extend((card, named) for named in self._nominations(seat, hands))
                else:
                    moves.append((card, None))
            return moves
        keys = layout.keys[led]
        if (self.side >> best_seat & 1) == maximising:
            over = self._fourth_top(pos, seat, led, hands)
            if over > best_key:  # third to play: beat what the fourth could win with
                reps.sort(key=lambda c: (0, keys[c]) if keys[c] > over
                          else (1, keys[c] > best_key, c))
            else:
                reps.sort(key=lambda c: (keys[c] > best_key, c))
        elif self._partner_covers(pos, seat, led, hands, in_play):
            reps.sort(key=lambda c: (keys[c] > best_key, keys[c] if keys[c] > best_key else c))
        else:
            reps.sort(key=lambda c: (keys[c] <= best_key, keys[c] if keys[c] > best_key else c))
        return [(card, None) for card in reps]

    def _fourth_top(self, pos: int, seat: int, led: int, hands: list[int]) -> int:
        """Third to play: the trick key of the best card the fourth player holds in the suit
        led (-1: none, or not third). When it beats partner's card, the cards that beat it
        are tried first (a tenth fewer positions)."""
        if pos != 2 or len(self.active) != 4:
            return -1
        suited = hands[(seat + 1) % 4] & self.layout.follow[led]
        return self.layout.keys[led][suited.bit_length() - 1] if suited else -1

    def _partner_covers(self, pos: int, seat: int, led: int, hands: list[int],
                        in_play: int) -> bool:
        """Second to play, with partner (fourth) holding the top card of the suit led: low
        cards are tried before the winners (a fifth fewer positions in no trumps)."""
        if pos != 1 or len(self.active) != 4:
            return False
        top = (in_play & self.layout.follow[led]).bit_length() - 1
        return top >= 0 and bool(hands[(seat + 2) % 4] >> top & 1)

    def _lead_key(self, card: int, seat: int, hands: list[int], in_play: int) -> int:
        """Where a lead stands in the order tried: the top cards of their suits first, then
        leads to partner's winner, then trumps when the leader's pair holds most of them
        (drawing them pays), then the rest, low cards first and, in no trumps, from the
        pair's longest suits first."""
        follow = self.layout.follow[self.layout.suit[card]]
        if card == (in_play & follow).bit_length() - 1:
            return -(1000 + card)
        if self._to_partner(card, seat, hands, in_play):
            return card - 500
        if len(self.active) != 4:
            return card
        pair_length = ((hands[seat] | hands[(seat + 2) % 4]) & follow).bit_count()
        if self.trump_mask and follow == self.trump_mask:
            if 2 * pair_length > (in_play & follow).bit_count():
                return card - 300
        elif not self.trump_mask:
            return card + 64 * (16 - pair_length)  # no trumps: the pair's long suits first
        return card

    def _to_partner(self, card: int, seat: int, hands: list[int], in_play: int) -> bool:
        """Whether leading ``card`` puts the lead with a partner who holds the top card of
        its suit, and no opponent can ruff it: such leads are tried right after the sure
        winners (in no trumps they cut the search by a fifth)."""
        if len(self.active) != 4:
            return False
        partner = (seat + 2) % 4
        suit = self.layout.suit[card]
        follow = self.layout.follow[suit]
        if not hands[partner] >> ((in_play & follow).bit_length() - 1) & 1:
            return False
        if not self.trump_mask or follow == self.trump_mask:
            return True
        return not any((hands[o] & follow) == 0 and hands[o] & self.trump_mask
                       for o in ((seat + 1) % 4, (seat + 3) % 4))

    def _bounds(self, hands: list[int], leader: int, left: int,
                target: int) -> tuple[int, int]:
        """Bounds on the side's tricks from a fresh trick: the leader's quick tricks are
        sure for the side when it counts and wants them, sure against it when it neither
        counts nor wants the side to score; the top trump's sure tricks count for or
        against the side whoever holds it. When those settle nothing about ``target``, the
        partner's quick tricks count like the leader's if the leader can put the partner
        on lead (:meth:`_entry`)."""
        counted = self.side >> leader & 1
        if counted != self.maximisers >> leader & 1:
            return 0, left
        quick = self._quick_tricks(hands, leader)
        lo, hi = (quick, left) if counted else (0, left - quick)
        holder, sure = self._top_trump_tricks(hands)
        if holder is not None:
            if self.side >> holder & 1:
                lo = max(lo, sure)
            else:
                hi = min(hi, left - sure)
        partner = (leader + 2) & 3
        if (lo < target <= hi and len(self.active) == 4
                and self.side >> partner & 1 == counted
                and self.maximisers >> partner & 1 == counted and hands[partner]
                and self._entry(hands, leader, partner)):
            quick = self._quick_tricks(hands, partner)
            if counted:
                lo = max(lo, quick)
            else:
                hi = min(hi, left - quick)
        return lo, hi

    def _top_trump_tricks(self, hands: list[int]) -> tuple[int | None, int]:
        """The seat holding the card nothing can beat (the top trump, or in no trumps a
        joker that wins), and the tricks it takes whatever anyone does: that card must be
        played some time and wins its trick, and so does each trump just below it in the
        same hand, since a hand plays one card a trick."""
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        if self.strain.trump is not None:
            trumps = in_play & self.trump_mask
            top = 1 << (trumps.bit_length() - 1) if trumps else 0
        else:
            top = in_play & self.joker if self.joker_wins else 0
        for seat in self.active:
            if hands[seat] & top:
                run = _top_run(hands[seat], trumps) if self.strain.trump is not None else 1
                return seat, run
        return None, 0

    def _nominations(self, seat: int, hands: list[int]) -> list[int]:
        """Suits worth naming with a led no-trumps joker: each suit another player holds,
        and one suit nobody else holds (all such suits play alike)."""
        others = 0
        for other in self.active:
            if other != seat:
                others |= hands[other]
        follow = self.layout.follow
        held = [s for s in SUITS if others & follow[s]]
        void = [s for s in SUITS if not others & follow[s]]
        return held + void[:1]

    def _ruffers(self) -> int:
        """The cards that win a trick in a suit their holder lacks: trumps, or a winning
        no-trumps joker."""
        if self.strain.trump is not None:
            return self.trump_mask
        return self.joker if self.joker_wins else 0

    def _entry(self, hands: list[int], leader: int, partner: int) -> bool:
        """Whether the leader can surely put its partner on lead: it holds a card of a suit
        whose top card the partner holds, and neither opponent can win that trick (each
        opponent able to ruff holds the suit, or the suit is trumps; no joker that may be
        played at any time is out against them). The partner's quick tricks then count
        for the pair, the entry trick among them."""
        ruffers = self._ruffers()
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        if self.any_time and in_play & ~hands[partner] & ruffers & self.joker:
            return False
        follow = self.layout.follow
        for suit in SUITS:
            cards = in_play & follow[suit]
            if not hands[leader] & cards or not hands[partner] >> (cards.bit_length() - 1) & 1:
                continue
            if self.strain.trump is not None and suit == int(self.strain.trump):
                return True
            if all(hands[other] & follow[suit] or not hands[other] & ruffers
                   for other in self.active if other not in (leader, partner)):
                return True
        return False

    def _quick_tricks(self, hands: list[int], leader: int) -> int:
        """Tricks the leader can surely cash at once: its top trumps, and its top cards of each
        side suit as far as every other hand that could win a suit it lacks (a trump, or a
        winning no-trumps joker) still has to follow it: the ``k``-th top card of a suit is
        sure when each such hand holds at least ``k`` cards of the suit. Hands without such
        a card may discard as they like; hands with one follow every side suit cashed, so
        the suits can be cashed in any order."""
        mine = hands[leader]
        others = 0
        for seat in self.active:
            if seat != leader:
                others |= hands[seat]
        in_play = mine | others
        follow = self.layout.follow
        trump = self.strain.trump
        ruffers = self._ruffers()
        count = 0
        if trump is not None:
            count = _top_run(mine, in_play & ruffers)
        elif mine & ruffers and not self.forced:
            count += 1
        if self.any_time and others & ruffers & self.joker:
            return count  # the joker may beat anything at any time
        for suit in SUITS:
            if trump is not None and suit == int(trump):
                continue
            run = _top_run(mine, in_play & follow[suit])
            for seat in self.active:
                if seat != leader and hands[seat] & ruffers:
                    run = min(run, (hands[seat] & follow[suit]).bit_count())
            count += run
        return min(count, mine.bit_count())


def _top_run(mine: int, suit_cards: int) -> int:
    """How many of the top cards of a suit (its highest bits) are in ``mine`` in a row."""
    count = 0
    while suit_cards:
        top = 1 << (suit_cards.bit_length() - 1)
        if not mine & top:
            break
        count += 1
        suit_cards ^= top
    return count


def _groups(mask: int, in_play: int, suit_of: list[int]) -> list[tuple[int, list[int]]]:
    """Split the playable ``mask`` (compact cards) into runs of equivalent cards: cards of
    one effective suit with no other card still in play between them. Each run is given as
    (its lowest card, all its cards)."""
    groups: list[tuple[int, list[int]]] = []
    current: list[int] = []
    rest = mask
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        if current:
            last = current[-1]
            if suit_of[last] == suit_of[card] and not in_play & (low - (2 << last)):
                current.append(card)
                continue
            groups.append((current[0], current))
        current = [card]
    if current:
        groups.append((current[0], current))
    return groups


# -- the compiled search ------------------------------------------------------------------------
#
# The same search as :class:`Search`, restated over plain integer arrays so that numba can
# compile it: one recursive function plays a card per call and handles the trick boundary
# (transposition table, quick-trick bounds) when a trick is complete. Tables and the compact
# numbering come from :class:`_Layout`, so there is one source for both implementations.

try:
    import numba as _numba
    import numpy as np
except ImportError:  # pragma: no cover - numba is a dependency; keep the reference usable
    _numba = None
    np = None  # type: ignore[assignment]

# Slots of the kernel's ``cfg`` array.
_C_PLAYERS, _C_JOKER, _C_FORCED, _C_ANY_TIME, _C_SIDE, _C_MAX = 0, 1, 2, 3, 4, 5
_C_TRUMP, _C_TRUMP_MASK, _C_JOKER_WINS, _C_GENERATION = 6, 7, 8, 9
_GENERATION_SHIFT = 40
"""Where a table row's tag keeps the generation (suit lengths and leader fit below)."""
_GENERATIONS = 1 << 20
"""Searches a shared table serves before it is cleared (the tag's room for generations)."""
# Slots of the kernel's ``stats`` array: nodes so far, node limit, aborted flag.
_S_NODES, _S_LIMIT, _S_ABORTED = 0, 1, 2
_MAX_MOVES = 32
"""Room for the moves of one node: at most one per card held plus three joker namings."""


def _jit(function: Callable) -> Callable:
    """Compile with numba, cached on disk when a cache directory can be used (numba refuses
    to cache when it finds none; then the kernel is compiled afresh in each process)."""
    try:
        return _numba.njit(cache=True)(function)
    except RuntimeError:  # pragma: no cover - no writable cache location
        return _numba.njit(function)


def _popcount(x: int) -> int:
    """Set bits of a non-negative 64-bit integer (replaced by the processor's own count
    when numba is there)."""
    return int(x).bit_count()


def _highest(x: int) -> int:
    """Index of the highest set bit of a positive integer."""
    n = 0
    for step in (32, 16, 8, 4, 2, 1):
        if x >> step:
            x >>= step
            n += step
    return n


def _top_run_k(mine: int, suit_cards: int) -> int:
    """:func:`_top_run` without a loop over the cards."""
    rest = suit_cards & ~mine
    if rest == 0:
        return _popcount(suit_cards)
    return _popcount(suit_cards >> (_highest(rest) + 1))


def _ruffers_k(cfg) -> int:
    """The cards that win a trick in a suit their holder lacks: trumps, or a winning
    no-trumps joker."""
    if cfg[_C_TRUMP] >= 0:
        return cfg[_C_TRUMP_MASK]
    return cfg[_C_JOKER] if cfg[_C_JOKER_WINS] else 0


def _quick_k(hands, seat: int, follow, cfg) -> int:
    """:meth:`Search._quick_tricks` of ``seat``."""
    mine = hands[seat]
    others = 0
    for other in range(4):
        if other != seat:
            others |= hands[other]
    in_play = mine | others
    trump = cfg[_C_TRUMP]
    ruffers = _ruffers_k(cfg)
    count = 0
    if trump >= 0:
        count = _top_run_k(mine, in_play & ruffers)
    elif mine & ruffers and not cfg[_C_FORCED]:
        count = 1
    if not (cfg[_C_ANY_TIME] and others & ruffers & cfg[_C_JOKER]):
        for suit in range(4):
            if suit != trump:
                run = _top_run_k(mine, in_play & follow[suit])
                if run and others & ruffers:
                    for other in range(4):
                        if other != seat and hands[other] & ruffers:
                            run = min(run, _popcount(hands[other] & follow[suit]))
                count += run
    return min(count, _popcount(mine))


def _entry_k(hands, leader: int, partner: int, follow, cfg) -> bool:
    """:meth:`Search._entry`."""
    ruffers = _ruffers_k(cfg)
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    if cfg[_C_ANY_TIME] and (in_play & ~hands[partner]) & ruffers & cfg[_C_JOKER]:
        return False
    for suit in range(4):
        cards = in_play & follow[suit]
        if not (hands[leader] & cards) or not ((hands[partner] >> _highest(cards)) & 1):
            continue
        if suit == cfg[_C_TRUMP]:
            return True
        safe = True
        for other in range(4):
            if (other != leader and other != partner and hands[other] & ruffers
                    and not hands[other] & follow[suit]):
                safe = False
        if safe:
            return True
    return False


def _bounds_k(hands, leader: int, left: int, target: int, follow, cfg) -> tuple[int, int]:
    """:meth:`Search._bounds`."""
    counted = (cfg[_C_SIDE] >> leader) & 1
    if counted != ((cfg[_C_MAX] >> leader) & 1):
        return 0, left
    trump = cfg[_C_TRUMP]
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    quick = _quick_k(hands, leader, follow, cfg)
    lo, hi = (quick, left) if counted else (0, left - quick)
    # as :meth:`Search._top_trump_tricks`
    top = 0
    if trump >= 0:
        trumps = in_play & cfg[_C_TRUMP_MASK]
        if trumps:
            top = 1 << _highest(trumps)
    elif cfg[_C_JOKER_WINS]:
        top = in_play & cfg[_C_JOKER]
    if top:
        for seat in range(4):
            if hands[seat] & top:
                sure = _top_run_k(hands[seat], in_play & cfg[_C_TRUMP_MASK]) if trump >= 0 else 1
                if (cfg[_C_SIDE] >> seat) & 1:
                    lo = max(lo, sure)
                else:
                    hi = min(hi, left - sure)
    partner = (leader + 2) & 3
    if (lo < target <= hi and cfg[_C_PLAYERS] == 4
            and ((cfg[_C_SIDE] >> partner) & 1) == counted
            and ((cfg[_C_MAX] >> partner) & 1) == counted and hands[partner]
            and _entry_k(hands, leader, partner, follow, cfg)):
        quick = _quick_k(hands, partner, follow, cfg)
        if counted:
            lo = max(lo, quick)
        else:
            hi = min(hi, left - quick)
    return lo, hi


def _squeeze_k(hands, follow, squeezed) -> int:
    """The hands with the cards no longer in play squeezed out (``squeezed``), and the
    suit lengths with the leader's slot free (the return value). Two positions that agree on
    these play alike: within a suit only the order of the remaining cards matters, so the
    table serves every position with the same relative ranks."""
    rest = hands[0] | hands[1] | hands[2] | hands[3]
    lengths = 0
    for seat in range(4):
        hand = hands[seat]
        out = 0
        while hand:
            low = hand & -hand
            hand ^= low
            out |= 1 << _popcount(rest & (low - 1))
        squeezed[seat] = out
    for suit in range(5):
        lengths += _popcount(rest & follow[suit]) << (4 + 6 * suit)
    return lengths


def _slot_k(tt_keys, hands, leader: int, follow, squeezed, generation: int
            ) -> tuple[int, bool]:
    """The table slot of a trick-boundary position and whether it already holds it; a
    missing position gets an empty slot near its hash, or one to overwrite. A row holds the
    squeezed hands and a tag: the suit lengths, the leader plus one and the search's
    generation (see :func:`_shared_table`); a row of another generation counts as empty."""
    squeezed[4] = (_squeeze_k(hands, follow, squeezed) + leader + 1
                   + (generation << _GENERATION_SHIFT))
    return _find_k(tt_keys, squeezed, generation)


def _find_k(tt_keys, squeezed, generation: int) -> tuple[int, bool]:
    """:func:`_slot_k` once the position is squeezed."""
    tag = squeezed[4]
    h = (squeezed[0] * 0x9E3779B1 ^ squeezed[1] * 0x85EBCA77 ^ squeezed[2] * 0xC2B2AE3D
         ^ squeezed[3] * 0x27D4EB2F ^ tag * 0x165667B1)
    h ^= h >> 29
    size_mask = tt_keys.shape[0] - 1
    first = h & size_mask
    for probe in range(4):
        slot = (first + probe) & size_mask
        row = tt_keys[slot]
        if row[4] >> _GENERATION_SHIFT != generation:
            return slot, False
        if (row[4] == tag and row[0] == squeezed[0] and row[1] == squeezed[1]
                and row[2] == squeezed[2] and row[3] == squeezed[3]):
            return slot, True
    return first, False


# Fields of a frame of the kernel's explicit stack (one row per card played below the root).
(_F_POS, _F_LEADER, _F_LED, _F_BEST, _F_BEST_SEAT, _F_TRICK, _F_TARGET, _F_NEXT, _F_TOTAL,
 _F_SEAT, _F_MAX, _F_BIT, _F_BOUNDARY, _F_LO, _F_HI, _F_FIRST, _F_KEY) = range(17)
_FIELDS = _F_KEY + 5
"""A frame ends with the squeezed position of a trick boundary (five fields from ``_F_KEY``)."""


def _last_trick_k(hands, order, players: int, suit_of, keys) -> int:
    """The seat that wins the last trick, every hand down to one card (-1 when the lead is a
    no-trumps joker, whose named suit is a choice left to the search)."""
    lead = _highest(hands[order[0]])
    led = suit_of[lead]
    if led == 4:
        return -1
    best_seat, best_key = order[0], keys[led, lead]
    for pos in range(1, players):
        seat = order[pos]
        key = keys[led, _highest(hands[seat])]
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def _first_move_k(row, total: int, index: int) -> None:
    """Bring move ``index`` of a move row to the front, the others keeping their order."""
    card, named = row[2, index], row[3, index]
    for i in range(index, 0, -1):
        row[2, i] = row[2, i - 1]
        row[3, i] = row[3, i - 1]
    row[2, 0], row[3, 0] = card, named


def _generated_index(tried: int, first: int) -> int:
    """The place in the generated order of the move tried ``tried``-th when the generated
    move ``first`` (if any) was brought to the front."""
    if first < 0 or tried > first:
        return tried
    return first if tried == 0 else tried - 1


def _search_k(hands, pos, leader, led, best_key, best_seat, trick_mask, target,
              suit_of, follow, keys, orders, cfg, tt_keys, tt_bounds, tt_moves, frames, moves,
              stats) -> bool:
    """:meth:`Search._play` from a node (``pos`` cards of the trick led by ``leader`` played;
    ``pos`` equal to the number of players is a complete trick, and then
    :meth:`Search._reach` for its winner), run without recursion: numba's on-disk cache
    mislinks recursive functions (numba issue 6061), so the stack is ``frames``, one row per
    depth, with that depth's moves in ``moves``. ``stats`` holds the node count, the node
    limit and an aborted flag: past the limit the search puts the hands back and stops,
    storing nothing more.

    Beyond :class:`Search`, the table keeps for each trick-boundary position the lead that
    settled it (its place in the generated move order, which equivalent positions share),
    and tries that lead first when the position comes back: the bisection probes the same
    deal several times, and the lead that refuted or proved one target usually does so for
    the next."""
    players = cfg[_C_PLAYERS]
    side = cfg[_C_SIDE]
    maximisers = cfg[_C_MAX]
    squeezed = np.zeros(5, dtype=np.int64)
    depth = 0
    while True:
        # enter the node described by the locals: settle it at once, or push a frame
        res = -1
        boundary, lo, hi, first = 0, 0, 0, -1
        if pos == players:
            target -= (side >> best_seat) & 1
            leader = best_seat
            if target <= 0:
                res = 1
            else:
                left = _popcount(hands[leader])
                winner = -1 if left != 1 else _last_trick_k(hands, orders[leader], players,
                                                            suit_of, keys)
                if target > left:
                    res = 0
                elif winner >= 0:
                    res = (side >> winner) & 1
                else:
                    slot, found = _slot_k(tt_keys, hands, leader, follow, squeezed,
                                          cfg[_C_GENERATION])
                    if found:
                        lo, hi = tt_bounds[slot, 0], tt_bounds[slot, 1]
                        first = tt_moves[slot] - 1
                    else:
                        lo, hi = _bounds_k(hands, leader, left, target, follow, cfg)
                    if lo >= target:
                        res = 1
                    elif hi < target:
                        res = 0
                    else:
                        stats[_S_NODES] += 1
                        if stats[_S_NODES] > stats[_S_LIMIT]:
                            stats[_S_ABORTED] = 1
                            for d in range(depth):
                                hands[frames[d, _F_SEAT]] ^= frames[d, _F_BIT]
                            return False
                        boundary = 1
                        pos, led, best_key, best_seat, trick_mask = 0, 0, -1, -1, 0
        own = res < 0
        if own:
            seat = orders[leader, pos]
            frame = frames[depth]
            frame[_F_POS], frame[_F_LEADER], frame[_F_LED] = pos, leader, led
            frame[_F_BEST], frame[_F_BEST_SEAT], frame[_F_TRICK] = best_key, best_seat, trick_mask
            frame[_F_TARGET], frame[_F_NEXT], frame[_F_SEAT] = target, 0, seat
            frame[_F_MAX] = (maximisers >> seat) & 1
            frame[_F_BOUNDARY], frame[_F_LO], frame[_F_HI] = boundary, lo, hi
            if boundary:
                frame[_F_KEY:_F_KEY + 5] = squeezed
            total = _moves_k(hands, pos, led, best_key, best_seat, trick_mask, seat,
                             frame[_F_MAX], suit_of, follow, keys, cfg, moves[depth])
            frame[_F_TOTAL] = total
            if first >= total:
                first = -1
            if first > 0:
                _first_move_k(moves[depth], total, first)
            frame[_F_FIRST] = first
        while True:
            frame = frames[depth]
            if own and res < 0:
                index = frame[_F_NEXT]
                if index < frame[_F_TOTAL]:
                    frame[_F_NEXT] = index + 1
                    card = moves[depth, 2, index]
                    named = moves[depth, 3, index]
                    seat = frame[_F_SEAT]
                    pos, leader, led = frame[_F_POS], frame[_F_LEADER], frame[_F_LED]
                    best_key, best_seat = frame[_F_BEST], frame[_F_BEST_SEAT]
                    if pos == 0:
                        led = named if named >= 0 else suit_of[card]
                        best_key, best_seat = keys[led, card], seat
                    elif keys[led, card] > best_key:
                        best_key, best_seat = keys[led, card], seat
                    bit = 1 << card
                    hands[seat] ^= bit
                    frame[_F_BIT] = bit
                    trick_mask = frame[_F_TRICK] | bit
                    target = frame[_F_TARGET]
                    pos += 1
                    depth += 1
                    break
                res = 1 - frame[_F_MAX]
            if own and frame[_F_BOUNDARY]:
                # a searched trick boundary: record what was learnt (the hands are back)
                lo, hi = frame[_F_LO], frame[_F_HI]
                if res:
                    lo = max(lo, frame[_F_TARGET])
                else:
                    hi = min(hi, frame[_F_TARGET] - 1)
                squeezed[:] = frame[_F_KEY:_F_KEY + 5]
                slot, found = _find_k(tt_keys, squeezed, cfg[_C_GENERATION])
                for i in range(4):
                    tt_keys[slot, i] = squeezed[i]
                tt_keys[slot, 4] = squeezed[4]
                tt_bounds[slot, 0] = lo
                tt_bounds[slot, 1] = hi
                if res == frame[_F_MAX]:  # a cut-off: remember the lead that made it
                    tt_moves[slot] = _generated_index(frame[_F_NEXT] - 1, frame[_F_FIRST]) + 1
                elif not found:
                    tt_moves[slot] = 0
            # the node at this depth is settled: hand its value to the parent
            if depth == 0:
                return res == 1
            depth -= 1
            parent = frames[depth]
            hands[parent[_F_SEAT]] ^= parent[_F_BIT]
            own = True
            if res != parent[_F_MAX]:
                res = -1  # no cut-off: the parent tries its next move


def _ruffed_k(hands, seat: int, partner: int, suit: int, follow, cfg) -> bool:
    """Whether an opponent of ``seat`` can ruff a lead of ``suit``: void in it, holding a
    trump (as the end of :meth:`Search._to_partner`)."""
    trump = cfg[_C_TRUMP]
    if trump < 0 or suit == trump:
        return False
    for other in range(4):
        if (other != seat and other != partner and (hands[other] & follow[suit]) == 0
                and hands[other] & cfg[_C_TRUMP_MASK]):
            return True
    return False


def _moves_k(hands, pos, led, best_key, best_seat, trick_mask, seat, maximising, suit_of,
             follow, keys, cfg, row) -> int:
    """The ordered moves of ``seat`` into ``row`` (cards in ``row[2]``, named suits or -1 in
    ``row[3]``; ``row[0]`` and ``row[1]`` are scratch); returns how many. As
    :func:`playable`, :func:`_groups`, :meth:`Search._ordered_moves` and
    :meth:`Search._nominations`."""
    hand = hands[seat]
    joker = cfg[_C_JOKER]
    if pos == 0:
        mask = hand & ~joker if cfg[_C_FORCED] and hand & joker and hand != joker else hand
    else:
        mask = hand & follow[led]
        if mask:
            if cfg[_C_ANY_TIME] and hand & joker:
                mask |= joker
        elif cfg[_C_FORCED] and hand & joker:
            mask = joker
        else:
            mask = hand
    in_play = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
    partner = (seat + 2) & 3 if cfg[_C_PLAYERS] == 4 else -1
    fourth_top = -1  # as :meth:`Search._fourth_top`
    if pos == 2 and partner >= 0 and led < 4:
        fourth = hands[(seat + 1) & 3]
        if fourth & follow[led]:
            fourth_top = keys[led, _highest(fourth & follow[led])]
    # second to play with partner holding the suit's top card: low cards first (as
    # :meth:`Search._partner_covers`)
    partner_covers = (pos == 1 and partner >= 0 and led < 4 and (in_play & follow[led]) != 0
                      and ((hands[partner] >> _highest(in_play & follow[led])) & 1) == 1)
    # one representative per run of equivalent cards (as :func:`_groups`), with its sort key
    # (as :meth:`Search._ordered_moves`), insertion-sorted
    row_card = row[0]
    row_key = row[1]
    out_card = row[2]
    out_named = row[3]
    count = 0
    ours = ((cfg[_C_SIDE] >> best_seat) & 1) == maximising
    prev = -1
    rest = mask
    while rest:
        low = rest & -rest
        card = _popcount(low - 1)
        rest ^= low
        if prev >= 0 and suit_of[prev] == suit_of[card] and not in_play & (low - (2 << prev)):
            prev = card
            continue
        prev = card
        if pos == 0:
            # the run of equivalent cards reaches the top of its suit: a sure winner there
            suit_cards = in_play & follow[suit_of[card]]
            above = (suit_cards & ~mask) >> (card + 1)
            if above == 0:
                key = -(1000 + card)
            elif (partner >= 0 and hands[partner] & (1 << _highest(suit_cards))
                  and not _ruffed_k(hands, seat, partner, suit_of[card], follow, cfg)):
                key = card - 500
            elif (partner >= 0 and suit_of[card] == cfg[_C_TRUMP]
                  and _popcount((hand | hands[partner]) & cfg[_C_TRUMP_MASK]) * 2
                  > _popcount(in_play & cfg[_C_TRUMP_MASK])):
                key = card - 300  # drawing trumps pays (as :meth:`Search._lead_key`)
            elif partner >= 0 and cfg[_C_TRUMP] < 0:  # the pair's long suits first
                key = card + 64 * (16 - _popcount((hand | hands[partner]) & follow[suit_of[card]]))
            else:
                key = card
        else:
            card_key = keys[led, card]
            wins = card_key > best_key
            if ours and fourth_top > best_key and card_key > fourth_top:
                key = card_key - 1000000  # third to play: beat what the fourth could win with
            elif ours:
                key = card + (10000 if wins else 0)
            elif wins:
                key = card_key + (200000 if partner_covers else 0)
            else:
                key = 100000 + card
        i = count
        while i > 0 and row_key[i - 1] > key:
            row_card[i] = row_card[i - 1]
            row_key[i] = row_key[i - 1]
            i -= 1
        row_card[i] = card
        row_key[i] = key
        count += 1
    # a led no-trumps joker: one move per suit worth naming (as :meth:`Search._nominations`)
    total = 0
    for index in range(count):
        card = row_card[index]
        if pos == 0 and suit_of[card] == 4:
            others = 0
            for other in range(4):
                if other != seat:
                    others |= hands[other]
            void = -1
            for suit in range(4):
                if others & follow[suit]:
                    out_card[total] = card
                    out_named[total] = suit
                    total += 1
                elif void < 0:
                    void = suit
            if void >= 0:
                out_card[total] = card
                out_named[total] = void
                total += 1
        else:
            out_card[total] = card
            out_named[total] = -1
            total += 1
    return total


def _intrinsic_popcount() -> Callable:
    """A compiled ``_popcount``: LLVM's ctpop, one instruction on current processors."""

    @_numba.extending.intrinsic
    def ctpop(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.ctpop(args[0])
        return x(x), codegen

    def popcount(x: int) -> int:
        return ctpop(x)

    return _jit(popcount)


def _intrinsic_highest() -> Callable:
    """A compiled ``_highest``: 63 less LLVM's count of leading zeros, one instruction on
    current processors (the shifting loop it replaces ran on every card the kernel looks
    at). Callers pass a positive mask; 0 would give -1. It stands apart from
    :func:`_intrinsic_popcount` rather than sharing a builder with it: numba's on-disk cache
    keys a compiled function by its qualified name, and two functions built by one builder
    would share a name and so a cache entry."""
    from llvmlite import ir

    @_numba.extending.intrinsic
    def ctlz(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return x(x), codegen

    def highest(x: int) -> int:
        return 63 - ctlz(x)

    return _jit(highest)


if _numba is not None:
    import numba.extending  # noqa: F401  (the intrinsic decorator)

    _popcount = _intrinsic_popcount()
    _highest = _intrinsic_highest()
    _top_run_k = _jit(_top_run_k)
    _ruffers_k = _jit(_ruffers_k)
    _quick_k = _jit(_quick_k)
    _entry_k = _jit(_entry_k)
    _bounds_k = _jit(_bounds_k)
    _squeeze_k = _jit(_squeeze_k)
    _find_k = _jit(_find_k)
    _slot_k = _jit(_slot_k)
    _ruffed_k = _jit(_ruffed_k)
    _moves_k = _jit(_moves_k)
    _first_move_k = _jit(_first_move_k)
    _last_trick_k = _jit(_last_trick_k)
    _generated_index = _jit(_generated_index)
    _search_k = _jit(_search_k)


_tables = threading.local()


def _shared_table(size: int) -> tuple[Any, Any, Any, int]:
    """A transposition table of ``size`` rows for a new search, and its generation.

    Allocating and first touching a full-size table costs as much as solving a deal, so each
    thread keeps one table per size and every search takes the next generation of it: rows
    written by earlier searches no longer match (they answer other questions) and count as
    empty. After :data:`_GENERATIONS` searches the table is cleared and counting restarts.
    """
    tables = _tables.__dict__.setdefault("by_size", {})
    entry = tables.get(size)
    if entry is None or entry[3] + 1 >= _GENERATIONS:
        entry = [np.zeros((size, 5), dtype=np.int64), np.zeros((size, 2), dtype=np.int8),
                 np.zeros(size, dtype=np.int8), 0]
        tables[size] = entry
    entry[3] += 1
    return entry[0], entry[1], entry[2], entry[3]


class FastSearch(Search):
    """:class:`Search` with the search proper run by the compiled kernel: the same answers
    (the tests check it against :class:`Search` and :func:`brute_force`), about a hundred
    times sooner on full deals. The root (bisection, representative moves, the trick in
    progress) is :class:`Search`'s own; the transposition table is a fixed-size array kept
    between calls, one per thread and size, reused by the next search
    (:func:`_shared_table`).

    The kernel cannot read the clock, so with a deadline it runs in slices of ``SLICE``
    trick-boundary nodes and is restarted after each look at the clock; the table keeps the
    work done, so a restart quickly finds its way back.
    """

    SLICE = 20_000
    """Trick-boundary nodes between two looks at the clock."""

    TABLE_BITS = 18
    """The largest transposition table, as a power of two (smaller for short endings)."""

    def __init__(self, position: Position, side: int | Iterable[int],
                 deadline: float | None = None,
                 maximisers: int | Iterable[int] | None = None) -> None:
        super().__init__(position, side, deadline, maximisers)
        layout = self.layout
        trump = self.strain.trump
        cards = len(layout.index)
        size = 1 << min(self.TABLE_BITS, max(10, 2 * (cards // len(self.active)) + 2))
        self.tt_keys, self.tt_bounds, self.tt_moves, generation = _shared_table(size)
        self.cfg = np.array([len(self.active), self.joker, self.forced, self.any_time,
                             self.side, self.maximisers, -1 if trump is None else int(trump),
                             self.trump_mask, self.joker_wins, generation], dtype=np.int64)
        self.suit_of = np.array(layout.suit or [0], dtype=np.int64)
        self.follow = np.array(layout.follow, dtype=np.int64)
        self.keys = np.array([keys or [0] for keys in layout.keys], dtype=np.int64)
        self.order_table = np.zeros((4, 4), dtype=np.int64)
        for seat, order in self.orders.items():
            self.order_table[seat, :len(order)] = order
        self.moves = np.zeros((cards + 2, 4, _MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((cards + 2, _FIELDS), dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)
        self.hand_array = np.array(self.hands, dtype=np.int64)

    def reaches(self, target: int) -> bool:
        """Can the side take at least ``target`` of the remaining tricks?"""
        trick = self._trick_state()
        if trick is None:
            leader = self.position.to_play
            # a complete empty "trick" won by the leader hands the kernel a trick boundary
            return self._run(len(self.active), leader, 0, -1, leader, 0,
                             target + (self.side >> leader & 1))
        order, pos, led, best_key, best_seat, trick_mask = trick
        return self._run(pos, order[0], led, best_key, best_seat, trick_mask, target)

    def _after_move_reaches(self, move: Move, target: int) -> bool:
        card, seat, order, pos, led, best_key, best_seat, trick_mask = self._trick_after(move)
        hands = self.hand_array
        hands[seat] ^= 1 << card
        try:
            return self._run(pos + 1, order[0], led, best_key, best_seat,
                             trick_mask | 1 << card, target)
        finally:
            hands[seat] ^= 1 << card

    def _run(self, pos: int, leader: int, led: int, best_key: int, best_seat: int,
             trick_mask: int, target: int) -> bool:
        """Run the kernel from a node, slice by slice until it finishes or the deadline
        passes (:class:`SolverTimeout`)."""
        stats = self.stats
        while True:
            stats[_S_LIMIT] = (stats[_S_NODES] + self.SLICE if self.deadline is not None
                               else 1 << 62)
            stats[_S_ABORTED] = 0
            result = _search_k(self.hand_array, pos, leader, led, best_key, best_seat,
                               trick_mask, target, self.suit_of, self.follow, self.keys,
                               self.order_table, self.cfg, self.tt_keys, self.tt_bounds,
                               self.tt_moves, self.frames, self.moves, stats)
            self.nodes = int(stats[_S_NODES])
            if not stats[_S_ABORTED]:
                return bool(result)
            if time.perf_counter() > self.deadline:  # type: ignore[operator]
                raise SolverTimeout


if _numba is None:  # pragma: no cover
    FastSearch = Search  # type: ignore[misc]


# -- convenience -------------------------------------------------------------------------------


def _searcher(fast: bool) -> type[Search]:
    """The compiled search, or the pure-Python reference."""
    return FastSearch if fast else Search


def solve(position: Position, side: int | Iterable[int], deadline: float | None = None,
          maximisers: int | Iterable[int] | None = None, *, fast: bool = True) -> int:
    """Tricks ``side`` (a seat or seats) takes of the remaining ones with best play by all:
    ``maximisers`` (default: the side itself) want it high, every other seat low.
    ``fast=False`` runs the pure-Python reference search instead of the compiled one."""
    return _searcher(fast)(position, side, deadline, maximisers).value()


def move_values(position: Position, side: int | Iterable[int], lo: int = 0,
                hi: int | None = None, deadline: float | None = None,
                maximisers: int | Iterable[int] | None = None, *,
                fast: bool = True) -> dict[Move, int]:
    """Tricks ``side`` takes after each legal move of the seat to play, clamped to
    ``[lo, hi]`` (a narrow range is cheaper: ``lo=hi-1`` asks a yes/no question)."""
    return _searcher(fast)(position, side, deadline, maximisers).move_values(lo, hi)


def best_moves(position: Position, side: int | Iterable[int],
               deadline: float | None = None, *, fast: bool = True) -> tuple[int, list[Move]]:
    """The best value for the seat to play (maximising if it is on ``side``) and the moves
    that reach it."""
    values = move_values(position, side, deadline=deadline, fast=fast)
    pick = max if side_of(side) >> position.to_play & 1 else min
    best = pick(values.values())
    return best, [move for move, value in values.items() if value == best]
