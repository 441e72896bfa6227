"""A double-dummy solver for the card play of 1000: best play by everyone, all hands open.

Given every remaining hand, the trick in progress, the trump in force and the points taken
so far, :func:`solve` answers the *margin* the deal ends with when everybody plays
perfectly, and :func:`move_values` that margin after each legal play of the seat to act.
The margin is twice the contractor's points of the deal less the two defenders' points,
exactly as :func:`~cardroom.games.thousand.score_deal` scores them: the contractor
maximises it and the defenders, who share the aim of beating the contract and scoring
their own points, minimise it (it is twice the search bot's aim for the contractor, and
twice the defenders' aims added together, negated).

The play is the engine's: following suit, must-trump (the engine's
:func:`~cardroom.games.thousand.playable`), the trick winner, and marriages: leading the
king or queen of a marriage in hand may declare it (a move of its own beside the plain
lead), which makes its suit trump for that very trick and scores for the declarer, on any
lead or only after the first trick as the rules say.

The tree search is the compiled kernel of :mod:`cardroom.bots.thousand.solver_kernel`:
alpha-beta with a transposition table at trick boundaries, the move that settled a position
tried first when it comes back, cheap move ordering, and bounds from the points still out.
500's solver also merges equivalent cards (cards adjacent in a suit play alike there); in
1000 no two ranks carry the same card points, so two such cards never give the same score
and nothing is merged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from cardroom.bots.thousand.solver_kernel import (
    ABORTED,
    INF,
    MAX_DEPTH,
    MAX_MOVES,
    MAX_TRICKS,
    P_ANY_LEAD_DECLARES,
    P_CAP,
    P_CONTRACTOR,
    P_GENERATION,
    P_LIMIT,
    P_MUST_TRUMP,
    P_NODES,
    PARAM_FIELDS,
    T_CONTRACTOR,
    T_DEFENDER,
    T_MARRIAGE,
    T_POINTS,
    T_WEIGHT,
    TABLE_WIDTH,
    search,
    shared_table,
)
from cardroom.games.cards import iter_indexes
from cardroom.games.thousand.deck import (
    MARRIAGE_POINTS,
    PACK_MASK,
    POINTS,
    STRENGTH,
    SUIT_IN_PACK,
    SUIT_SUBSETS,
    is_marriage_card,
    playable,
    points_of,
    trick_winner,
)
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.scoring import score_deal

ENGINE_CARD: tuple[int, ...] = tuple(sorted(iter_indexes(PACK_MASK),
                                            key=lambda i: ((i >> 4), STRENGTH[i])))
"""Engine card index by compact card (``suit * 6 + order``, the nine lowest)."""
COMPACT_CARD: dict[int, int] = {card: pos for pos, card in enumerate(ENGINE_CARD)}
"""Compact card by engine card index."""

Move = tuple[int, bool]
"""A play: the engine card index and whether it declares its marriage."""


class SolverTimeout(Exception):
    """The search passed its node limit; the caller should fall back to something cheaper."""


_COMPACT_BY_SUIT: dict[int, int] = {
    mask: sum(1 << COMPACT_CARD[card] for card in iter_indexes(mask)) for mask in SUIT_SUBSETS}


def to_compact(mask: int) -> int:
    """An engine mask of pack cards in the compact numbering (a suit at a time)."""
    table = _COMPACT_BY_SUIT
    s0, s1, s2, s3 = SUIT_IN_PACK
    return table[mask & s0] | table[mask & s1] | table[mask & s2] | table[mask & s3]


@dataclass(frozen=True)
class Deal:
    """What scoring a deal needs besides the play: the arguments of
    :func:`~cardroom.games.thousand.score_deal` that the cards do not decide."""

    rules: Rules
    contractor: int
    bet: int
    blind: bool
    discard_points: int
    active: tuple[int, ...]
    on_barrel: tuple[bool, ...]

    def score(self, card_points: Sequence[int], marriage_points: Sequence[int]) -> tuple[int, ...]:
        """Every seat's points of the deal, by :func:`score_deal`."""
        return score_deal(self.rules, self.contractor, self.bet, self.blind, card_points,
                          marriage_points, self.discard_points, self.active,
                          self.on_barrel).points

    def margin(self, card_points: Sequence[int], marriage_points: Sequence[int]) -> int:
        """Twice the contractor's points less the defenders' (what the solver answers)."""
        points = self.score(card_points, marriage_points)
        return 2 * points[self.contractor] - sum(points[s] for s in self.active
                                                 if s != self.contractor)


@lru_cache(maxsize=256)
def score_tables(deal: Deal) -> np.ndarray:
    """The kernel's score tables of a deal (rows ``T_*`` of the kernel), each entry read off
    :meth:`Deal.score`, so the kernel's leaves score exactly as the engine: it relies only on
    each seat's points depending on its own card and marriage points."""
    players = deal.rules.players
    tables = np.zeros((T_WEIGHT + 1, TABLE_WIDTH), dtype=np.int64)
    for card in range(len(ENGINE_CARD)):
        tables[T_POINTS, card] = POINTS[ENGINE_CARD[card]]
    tables[T_MARRIAGE, :4] = MARRIAGE_POINTS
    zero = [0] * players
    contractor = deal.contractor
    for taken in range(TABLE_WIDTH):
        points = list(zero)
        points[contractor] = taken
        tables[T_CONTRACTOR, taken] = deal.score(points, zero)[contractor]
    for place, seat in enumerate(deal.active):
        if seat == contractor:
            continue
        for taken in range(121):
            points = list(zero)
            points[seat] = taken
            tables[T_DEFENDER + place, taken] = deal.score(points, zero)[seat]
        married = list(zero)
        married[seat] = 1
        base = deal.score(zero, zero)[seat]
        tables[T_WEIGHT, place] = deal.score(zero, married)[seat] - base
    tables.setflags(write=False)
    return tables


@lru_cache(maxsize=256)
def contractor_cap(deal: Deal) -> int:
    """The least total of the contractor's past which its score of the deal no longer
    changes (the kernel's ``P_CAP``), read off its score table once per deal: every solve of
    a sampled deal asks for it, and scanning the table took about a sixth of the search
    bot's time."""
    row = score_tables(deal)[T_CONTRACTOR]
    return next(t for t in range(TABLE_WIDTH) if (row[t:] == row[t]).all())


@dataclass(frozen=True)
class Position:
    """A moment of the play with every hand known (engine masks by seat, as long as the
    table has seats; a seat sitting out holds nothing)."""

    deal: Deal
    hands: tuple[int, ...]
    to_play: int
    trump: int | None
    card_points: tuple[int, ...]
    marriage_points: tuple[int, ...]
    tricks_done: int
    trick: tuple[tuple[int, int], ...] = ()
    """The trick so far as ``(seat, card index)`` in play order."""

    @property
    def must_trump(self) -> bool:
        return self.deal.rules.must_trump

    def may_declare(self) -> bool:
        """Whether the seat to play, leading, may declare a marriage (the engine's
        :func:`~cardroom.games.thousand.play.may_declare`)."""
        return not self.trick and (self.deal.rules.marriage_timing == "when_leading"
                                   or self.tricks_done > 0)

    def legal_moves(self) -> list[Move]:
        """The seat to play's legal plays, as the engine lists them."""
        hand = self.hands[self.to_play]
        led = self.trick[0][1] >> 4 if self.trick else None
        mask = playable(hand, led, self.trump, self.must_trump)
        moves = [(card, False) for card in iter_indexes(mask)]
        if self.may_declare():
            for card in iter_indexes(mask):
                pair = mask_pair(card)
                if is_marriage_card(card) and hand & pair == pair:
                    moves.append((card, True))
        return moves

    def after(self, move: Move) -> Position:
        """The position once the seat to play makes ``move`` (the trick scored when full)."""
        card, declare = move
        seat = self.to_play
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trump = self.trump
        marriages = list(self.marriage_points)
        if declare:
            trump = card >> 4
            marriages[seat] += MARRIAGE_POINTS[trump]
        trick = (*self.trick, (seat, card))
        active = self.deal.active
        if len(trick) < len(active):
            following = active[(active.index(seat) + 1) % len(active)]
            return Position(self.deal, tuple(hands), following, trump, self.card_points,
                            tuple(marriages), self.tricks_done, trick)
        winner = trick[trick_winner([c for _, c in trick], trump)][0]
        points = list(self.card_points)
        points[winner] += sum(POINTS[c] for _, c in trick)
        return Position(self.deal, tuple(hands), winner, trump, tuple(points),
                        tuple(marriages), self.tricks_done + 1)

    @classmethod
    def from_game(cls, game: object) -> Position:
        """The position of a 1000 game in its play phase (reads hidden hands: for tests
        and benchmarks, never for a bot)."""
        g = game  # the engine's Game; typed loosely to keep this module free of it
        deal = Deal(g.rules, g.contractor, g.bet, g.blind,  # type: ignore[attr-defined]
                    points_of(g.discards), tuple(g.active),  # type: ignore[attr-defined]
                    tuple(g.on_barrel))  # type: ignore[attr-defined]
        return cls(deal, tuple(g.hands), g.to_act, g.trump,  # type: ignore[attr-defined]
                   tuple(g.card_points), tuple(g.marriage_points),  # type: ignore[attr-defined]
                   len(g.completed),  # type: ignore[attr-defined]
                   tuple(zip(g.trick_seats, g.trick, strict=True)))  # type: ignore[attr-defined]


def mask_pair(card: int) -> int:
    """The engine mask of the king and queen of ``card``'s suit."""
    from cardroom.games.thousand.deck import KING_QUEEN

    return KING_QUEEN[card >> 4]


class Solver:
    """One search of one position: :meth:`value` and :meth:`move_values` share a
    transposition table, so asking about every move costs little more than one value.

    ``node_limit`` bounds the positions searched by all its calls together
    (:class:`SolverTimeout` past it); :attr:`nodes` counts them.
    """

    def __init__(self, position: Position, node_limit: int | None = None) -> None:
        deal = position.deal
        self.position = position
        self.active = deal.active
        if len(self.active) != 3:
            raise ValueError("1000 is played by three seats")
        self.place = {seat: i for i, seat in enumerate(self.active)}
        self.tables = score_tables(deal)
        self.tt_keys, self.tt_values, generation = shared_table()
        self.params = np.zeros(PARAM_FIELDS, dtype=np.int64)
        self.params[P_CONTRACTOR] = self.place[deal.contractor]
        self.params[P_MUST_TRUMP] = deal.rules.must_trump
        self.params[P_ANY_LEAD_DECLARES] = deal.rules.marriage_timing == "when_leading"
        self.params[P_GENERATION] = generation
        self.params[P_LIMIT] = node_limit if node_limit is not None else 1 << 62
        self.params[P_CAP] = contractor_cap(deal)
        self.moves = np.zeros((MAX_DEPTH, MAX_MOVES, 3), dtype=np.int64)
        self.nodes = 0

    def value(self, guess: int = 0) -> int:
        """The margin with best play by all from the position (``guess``, a likely value,
        only saves work when close)."""
        return self._mtd(self.position, guess)

    def move_values(self, guess: int = 0) -> dict[Move, int]:
        """The margin after each legal move of the seat to play."""
        values: dict[Move, int] = {}
        for move in self.position.legal_moves():
            guess = values[move] = self._mtd(self.position.after(move), guess)
        return values

    def at_least(self, threshold: int) -> bool:
        """Whether the margin with best play by all from the position is ``threshold`` or
        more: one null-window probe, a fraction of the work of :meth:`value` when only a
        yes or no is wanted."""
        return self._search(self.position, threshold - 1, threshold) >= threshold

    def _mtd(self, position: Position, guess: int) -> int:
        """The exact margin by null-window probes (MTD(f)): each probe asks whether the
        margin is above a value and answers with a bound; the transposition table keeps
        what each probe learnt for the next."""
        lo, hi = -INF, INF
        value = guess
        while lo < hi:
            beta = value + 1 if value == lo else value
            value = self._search(position, beta - 1, beta)
            if value < beta:
                hi = value
            else:
                lo = value
        return value

    def _search(self, position: Position, alpha: int = -INF, beta: int = INF) -> int:
        place = self.place
        hands = np.array([to_compact(position.hands[s]) for s in self.active], dtype=np.int64)
        cp = np.array([position.card_points[s] for s in self.active], dtype=np.int64)
        mp = np.array([position.marriage_points[s] for s in self.active], dtype=np.int64)
        trick = np.zeros((MAX_TRICKS, 3), dtype=np.int64)
        done = position.tricks_done
        for i, (_, card) in enumerate(position.trick):
            trick[done, i] = COMPACT_CARD[card]
        leader = place[position.trick[0][0] if position.trick else position.to_play]
        trump = -1 if position.trump is None else position.trump
        params = self.params
        held = 0
        for seat in self.active:
            held |= position.hands[seat]
        # The points still out: in the hands, and in the trick (its winner takes them too).
        left = points_of(held) + sum(POINTS[c] for _, c in position.trick)
        result = search(hands, cp, mp, left, trick, len(position.trick), leader, trump, done,
                        alpha, beta, params, self.tables, self.tt_keys, self.tt_values,
                        self.moves)
        self.nodes = int(params[P_NODES])
        if result == ABORTED:
            raise SolverTimeout
        return int(result)


def solve(position: Position, node_limit: int | None = None) -> int:
    """The margin of ``position`` with best play by all."""
    return Solver(position, node_limit).value()


def move_values(position: Position, node_limit: int | None = None) -> dict[Move, int]:
    """The margin after each legal move of the seat to play."""
    return Solver(position, node_limit).move_values()


def makes(position: Position, node_limit: int | None = None) -> bool:
    """Whether the contractor reaches its bet with best play by all from ``position``.

    The deal is searched as if both defenders were on the barrel (scoring nothing), so that
    the margin is only the contractor's bet won or lost, and one null-window probe asks
    whether it is won: whether the contractor can force its bet, whatever the defenders'
    own points."""
    deal = replace(position.deal, on_barrel=(True,) * len(position.deal.on_barrel))
    return Solver(replace(position, deal=deal), node_limit).at_least(1)
