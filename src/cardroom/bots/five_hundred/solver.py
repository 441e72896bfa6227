"""A double-dummy solver for the tricks of 500: best play by everyone, all hands open.

Given every remaining hand, the trick in progress and the strain, :func:`solve` answers how
many of the remaining tricks one side takes when everybody plays perfectly, and
:func:`move_values` gives that number after each legal move of the seat to play (the search
bot averages these over sampled deals). Following suit, the joker and the trick winner come
from the engine's :class:`~cardroom.games.five_hundred.tricks.Strain` tables, so the solver
plays exactly the engine's game, including no-tricks rules (forced joker, low joker), at
every table: two to six seats (two players' dead hands are simply not in the position), one
or two jokers (the black one above the red), a joker nominated into a suit.

Inside, cards are renumbered compactly: the cards still in play, grouped by effective suit and
ordered by strength within it, so a suit is a contiguous run of bits, its top card is its
highest bit and cards adjacent in a run are interchangeable. The search is a null-window
(boolean) alpha-beta over single card plays with a transposition table at trick boundaries
keyed on the remaining hands, equivalent-card merging, cheap move ordering and quick-trick
bounds; exact values come from a few null-window probes (MTD-style bisection).

:class:`SearchRoot` is the part above the tree: the compact numbering, the bisection, the
representative moves and the trick in progress. :class:`FastSearch` (used by :func:`solve`,
:func:`move_values` and :func:`best_moves`) runs the tree itself as a numba-compiled kernel
over integer arrays (:mod:`cardroom.bots.five_hundred.solver_kernel`), cached on disk. The
same tree search written plainly in Python, and plain minimax, live with the tests
(``tests/bots/reference_solver.py``), which check the kernel against both.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from cardroom.bots.five_hundred.solver_kernel import (
    CFG_FIELDS,
    FRAME_KEY,
    MAX_MOVES,
    STAT_ABORTED,
    STAT_LIMIT,
    STAT_NODES,
    search_kernel,
    shared_table,
)
from cardroom.games.cards import BLACK_JOKER_INDEX, JOKER_INDEX, Suit, iter_indexes
from cardroom.games.five_hundred.tricks import JOKER_SUIT, Strain

JOKER_BIT = 1 << JOKER_INDEX
JOKERS = JOKER_BIT | 1 << BLACK_JOKER_INDEX
"""Both jokers (the 46-card deck has two; the black one beats the other)."""
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

    ``hands`` has one mask per seat of the table, two to six (folded seats hold 0 or are
    simply left out of ``active``); ``trick`` is the trick so far as ``(seat, card index)``
    pairs in play order;
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

    The same rules as the engine's ``playable`` (the tests compare the two on random games),
    written over any numbering of the cards: ``follow[s]`` is the mask of effective suit
    ``s`` and ``joker`` the mask of the jokers (0 when none is in play).
    """
    if leading:
        if joker_forced and hand & joker and hand & ~joker:
            return hand & ~joker
        return hand
    following = hand & follow[led]
    if following:
        if joker_any_time:
            following |= hand & joker
        return following
    if joker_forced and hand & joker:
        return hand & joker
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


# -- the search ------------------------------------------------------------------------------


class Layout:
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
        self.joker = self.to_compact(cards & JOKERS)
        """The mask of the jokers in play (none, one or two)."""

    def to_compact(self, mask: int) -> int:
        """An engine mask in the compact numbering."""
        out = 0
        for card in iter_indexes(mask):
            out |= 1 << self.compact[card]
        return out


class SearchRoot(ABC):
    """A double-dummy search of one deal for one side, above the tree: the compact numbering
    of the cards in play, the bisection of null-window probes into a value, one
    representative per group of equivalent moves at the root, and the trick in progress.

    Subclasses search the tree: :meth:`reaches` and :meth:`_after_move_reaches` answer one
    null-window probe. :class:`FastSearch` does it with the compiled kernel; the tests' plain
    Python ``Search`` does it readably, as the reference the kernel is checked against. A
    search keeps what it learns between calls, so asking about several moves of the same
    deal shares the work."""

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
        self.layout = layout = Layout(strain, in_play)
        self.side = side_of(side)
        self.maximisers = self.side if maximisers is None else side_of(maximisers)
        self.active = tuple(sorted(position.active))
        self.seats = max(4, len(position.hands))
        """Seats of the table: every array by seat is this long."""
        self.partnered = self.seats == 4 and len(self.active) == 4
        """Four players in two partnerships facing each other: the one table where the move
        ordering and the bounds look for the partner (two seats on)."""
        self.after = next_seats(self.active)
        self.orders = {seat: self._order_from(seat) for seat in self.active}
        self.joker = layout.joker
        self.forced = position.joker_forced
        self.any_time = position.joker_any_time
        trump = strain.trump
        self.trump_mask = layout.follow[int(trump)] if trump is not None else 0
        jokers = [layout.compact[card] for card in (JOKER_INDEX, BLACK_JOKER_INDEX)
                  if card in layout.compact]
        self.joker_wins = (trump is None and any(layout.suit[card] == JOKER_SUIT
                                                 and layout.keys[0][card] > 0
                                                 for card in jokers))
        """In no trumps, the jokers beat every card (not when they are low, nor when their
        holder named a suit they belong to: then they are that suit's top cards and nothing
        more)."""
        self.hands = [0] * self.seats
        for seat in self.active:
            self.hands[seat] = layout.to_compact(position.hands[seat])
        self.deadline = deadline
        self.nodes = 0

    @staticmethod
    def in_play(hands: Sequence[int]) -> int:
        """Every card still in one of ``hands``."""
        cards = 0
        for hand in hands:
            cards |= hand
        return cards

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
        if (position.trick or not self.partnered or position.tricks_left != FULL_DEAL
                or self.side not in (0b0101, 0b1010) or self.maximisers != self.side):
            return None
        ours = 0
        for seat in self.active:
            if self.side >> seat & 1:
                ours |= self.hands[seat]
        in_play = self.in_play(self.hands)
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
            result = self._bisect(partial(self._after_move_reaches, move), lo, hi,
                                  None if guess is None else round(guess))
            for card in group:
                values[(card, move[1])] = result
        return values

    # what a subclass answers by searching the tree

    @abstractmethod
    def reaches(self, target: int) -> bool:
        """Can the side take at least ``target`` of the remaining tricks?"""

    @abstractmethod
    def _after_move_reaches(self, move: Move, target: int) -> bool:
        """Can the side take at least ``target`` of the remaining tricks once the seat to
        play makes ``move``?"""

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
        in_play = self.in_play(hands) | trick_mask
        moves: list[tuple[Move, list[int]]] = []
        for rep, group in equivalent_groups(mask, in_play, layout.suit):
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
        the cards in the trick (every search starts from here)."""
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


def equivalent_groups(mask: int, in_play: int, suit_of: list[int]) -> list[tuple[int, list[int]]]:
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


class FastSearch(SearchRoot):
    """The search with its tree run by the compiled kernel
    (:func:`~cardroom.bots.five_hundred.solver_kernel.search_kernel`): the same answers as
    the tests' plain Python reference search and plain minimax, which they check it against,
    about a hundred times sooner on full deals. The root (bisection, representative moves,
    the trick in progress) is :class:`SearchRoot`'s; the transposition table is a fixed-size
    array kept between calls, one per thread and size, reused by the next search
    (:func:`~cardroom.bots.five_hundred.solver_kernel.shared_table`).

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
        seats = self.seats
        self.tt_keys, self.tt_bounds, self.tt_moves, generation = shared_table(size, seats)
        self.cfg = np.array([len(self.active), self.joker, self.forced, self.any_time,
                             self.side, self.maximisers, -1 if trump is None else int(trump),
                             self.trump_mask, self.joker_wins, generation, self.partnered],
                            dtype=np.int64)
        assert len(self.cfg) == CFG_FIELDS
        self.suit_of = np.array(layout.suit or [0], dtype=np.int64)
        self.follow = np.array(layout.follow, dtype=np.int64)
        self.keys = np.array([keys or [0] for keys in layout.keys], dtype=np.int64)
        self.order_table = np.zeros((seats, seats), dtype=np.int64)
        for seat, order in self.orders.items():
            self.order_table[seat, :len(order)] = order
        self.moves = np.zeros((cards + 2, 4, MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((cards + 2, FRAME_KEY + seats + 1), dtype=np.int64)
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
            stats[STAT_LIMIT] = (stats[STAT_NODES] + self.SLICE if self.deadline is not None
                               else 1 << 62)
            stats[STAT_ABORTED] = 0
            result = search_kernel(self.hand_array, pos, leader, led, best_key, best_seat,
                               trick_mask, target, self.suit_of, self.follow, self.keys,
                               self.order_table, self.cfg, self.tt_keys, self.tt_bounds,
                               self.tt_moves, self.frames, self.moves, stats)
            self.nodes = int(stats[STAT_NODES])
            if not stats[STAT_ABORTED]:
                return bool(result)
            if time.perf_counter() > self.deadline:  # type: ignore[operator]
                raise SolverTimeout


# -- convenience -------------------------------------------------------------------------------


def solve(position: Position, side: int | Iterable[int], deadline: float | None = None,
          maximisers: int | Iterable[int] | None = None) -> int:
    """Tricks ``side`` (a seat or seats) takes of the remaining ones with best play by all:
    ``maximisers`` (default: the side itself) want it high, every other seat low."""
    return FastSearch(position, side, deadline, maximisers).value()


def move_values(position: Position, side: int | Iterable[int], lo: int = 0,
                hi: int | None = None, deadline: float | None = None,
                maximisers: int | Iterable[int] | None = None) -> dict[Move, int]:
    """Tricks ``side`` takes after each legal move of the seat to play, clamped to
    ``[lo, hi]`` (a narrow range is cheaper: ``lo=hi-1`` asks a yes/no question)."""
    return FastSearch(position, side, deadline, maximisers).move_values(lo, hi)


def best_moves(position: Position, side: int | Iterable[int],
               deadline: float | None = None) -> tuple[int, list[Move]]:
    """The best value for the seat to play (maximising if it is on ``side``) and the moves
    that reach it."""
    values = move_values(position, side, deadline=deadline)
    pick = max if side_of(side) >> position.to_play & 1 else min
    best = pick(values.values())
    return best, [move for move, value in values.items() if value == best]
