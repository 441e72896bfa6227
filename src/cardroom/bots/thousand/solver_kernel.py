"""The compiled kernel of the 1000 double-dummy solver: alpha-beta over single card plays,
written over plain integers and arrays so that numba can compile it (cached on disk).

:class:`~cardroom.bots.thousand.solver.Solver` sets the arrays up and calls
:func:`search`. Cards are numbered compactly, ``suit * 6 + order`` with the order 0 (nine)
to 5 (ace), so a suit is a run of six bits and a higher bit beats a lower one. The three
seats are numbered 0, 1, 2 in the order they play.

A node is a position with ``pos`` cards of the current trick played; its value is the
*margin*: twice the contractor's points of the deal less both defenders' points (twice the
contractor's aim of the search bot), which the contractor maximises and the defenders
minimise. Points come from tables built by :func:`cardroom.games.thousand.score_deal`,
so a leaf scores exactly as the engine does.

``params`` holds the deal's fixed facts (slots ``P_*``); ``tables`` the score tables
(rows ``T_*``). Trick boundaries are memoised in a transposition table keyed on the hands,
the leader, the trump and the points taken so far (the score is not additive: a contract is
made or not, opponents' points are rounded), holding bounds and the move that settled them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numba as _numba
import numba.extending  # loads _numba.extending, for its intrinsic decorator
import numpy as np

P_CONTRACTOR, P_MUST_TRUMP, P_ANY_LEAD_DECLARES, P_GENERATION, P_NODES, P_LIMIT, P_CAP = range(7)
PARAM_FIELDS = 7
"""Slots of ``params``: the contractor (0-2), whether a void player must trump, whether a
marriage may be declared on the first trick, the table generation, the node count, the
node limit past which the search gives up (returning :data:`ABORTED`), and the total (card
points and marriages) from which the contractor's score no longer grows: totals above it
are one and the same to the transposition table."""

T_POINTS, T_MARRIAGE, T_CONTRACTOR, T_DEFENDER, T_WEIGHT = 0, 1, 2, 3, 6
"""Rows of ``tables``: card points by compact card; marriage value by suit; the contractor's
score by card points plus marriages taken; each seat's defender score by card points (rows
``T_DEFENDER + seat``); in row ``T_WEIGHT`` what a marriage point is worth to each seat as a
defender (0 on the barrel)."""
TABLE_WIDTH = 512
"""Columns of ``tables``: room for every total a contractor can take."""

SUIT_BITS = 0x3F
NONE = -1
INF = 1 << 40
ABORTED = -(1 << 50)
"""The value returned once the node limit is passed (the search's work is then lost)."""
_TT_KEYS = 3
MAX_DEPTH = 32
MAX_TRICKS = 10
MAX_MOVES = 16


def _jit(function: Callable) -> Callable:
    """Compile with numba, cached on disk when a cache directory can be used."""
    try:
        return _numba.njit(cache=True)(function)
    except RuntimeError:  # pragma: no cover - no writable cache location
        return _numba.njit(function)


def _lowest(x: int) -> int:
    """Index of the lowest set bit of a positive integer (rebound below to the processor's
    own count of trailing zeros)."""
    n = 0
    while not (x >> n) & 1:
        n += 1
    return n


def _intrinsic_lowest() -> Callable:
    """A compiled ``_lowest``: LLVM's count of trailing zeros, one instruction."""
    from llvmlite import ir

    @_numba.extending.intrinsic
    def cttz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
        return x(x), codegen

    def lowest(x: int) -> int:
        return cttz(x)  # type: ignore[call-arg]  # numba passes the typing context

    return _jit(lowest)


def playable_k(hand: int, led: int, trump: int, must_trump: int) -> int:
    """The engine's :func:`~cardroom.games.thousand.deck.playable` on compact masks
    (``led`` and ``trump`` are -1 for none)."""
    if led < 0:
        return hand
    follow = hand & (SUIT_BITS << (6 * led))
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & (SUIT_BITS << (6 * trump))
        if trumps:
            return trumps
    return hand


def card_key_k(card: int, led: int, trump: int) -> int:
    """The engine's :func:`~cardroom.games.thousand.deck.card_key` on compact cards."""
    suit = card // 6
    if suit == trump:
        return 20 + card % 6
    if suit == led:
        return 10 + card % 6
    return 0


def margin_k(cp, mp, params, tables) -> int:
    """The margin of a finished deal: twice the contractor's score less the defenders'."""
    contractor = params[P_CONTRACTOR]
    taken = min(cp[contractor] + mp[contractor], TABLE_WIDTH - 1)
    value = 2 * tables[T_CONTRACTOR, taken]
    for seat in range(3):
        if seat != contractor:
            value -= tables[T_DEFENDER + seat, cp[seat]] + tables[T_WEIGHT, seat] * mp[seat]
    return value


def _marriages_k(hand: int, tables) -> int:
    """What the marriages still whole in ``hand`` are worth."""
    value = 0
    for suit in range(4):
        pair = 0b1100 << (6 * suit)  # king (order 3) and queen (order 2)
        if hand & pair == pair:
            value += tables[T_MARRIAGE, suit]
    return value


def _bounds_k(hands, cp, mp, left, params, tables) -> tuple[int, int]:
    """Lowest and highest margin the deal can still end with: every card point ``left``
    (and every whole marriage) to one party or the other."""
    contractor = params[P_CONTRACTOR]
    taken = cp[contractor] + mp[contractor]
    most = min(taken + left + _marriages_k(hands[contractor], tables), TABLE_WIDTH - 1)
    lo = 2 * tables[T_CONTRACTOR, min(taken, TABLE_WIDTH - 1)]
    hi = 2 * tables[T_CONTRACTOR, most]
    for seat in range(3):
        if seat != contractor:
            weight = tables[T_WEIGHT, seat]
            least = tables[T_DEFENDER + seat, cp[seat]] + weight * mp[seat]
            extra = weight * _marriages_k(hands[seat], tables)
            hi -= least
            lo -= tables[T_DEFENDER + seat, min(cp[seat] + left, 120)] + weight * mp[seat] + extra
    return lo, hi


def _slot_k(tt_keys, k0: int, k1: int, k2: int) -> tuple[int, bool]:
    """The table slot of a key and whether it holds it (else a slot to write it to)."""
    h = (k0 * 0x9E3779B1) ^ (k1 * 0x85EBCA77) ^ (k2 * 0xC2B2AE3D)
    h ^= h >> 29
    mask = tt_keys.shape[0] - 1
    first = h & mask
    for probe in range(4):
        slot = (first + probe) & mask
        if tt_keys[slot, 0] == k0 and tt_keys[slot, 1] == k1 and tt_keys[slot, 2] == k2:
            return slot, True
        if tt_keys[slot, 1] >> 29 != k1 >> 29:  # another generation's row: free
            return slot, False
    return first, False


def _moves_k(hands, trick, pos, leader, trump, tricks_done, params, tables, row) -> int:
    """The moves of the seat to play into ``row`` (card, and 1 to declare its marriage),
    best first by a cheap guess; returns how many. A lead of a king or queen of a whole
    marriage is two moves, with and without declaring it (when declaring is allowed)."""
    seat = (leader + pos) % 3
    hand = hands[seat]
    contractor = params[P_CONTRACTOR]
    led = -1 if pos == 0 else trick[0] // 6
    mask = playable_k(hand, led, trump, params[P_MUST_TRUMP])
    count = 0
    best_key, best_seat = -1, -1
    for i in range(pos):
        key = card_key_k(trick[i], led, trump)
        if key > best_key:
            best_key, best_seat = key, (leader + i) % 3
    friend_wins = pos > 0 and (best_seat == seat or (best_seat != contractor
                                                     and seat != contractor))
    in_play = hands[0] | hands[1] | hands[2]
    declares = pos == 0 and (params[P_ANY_LEAD_DECLARES] != 0 or tricks_done > 0)
    rest = mask
    while rest:
        card = _lowest(rest)
        rest &= rest - 1
        points = tables[T_POINTS, card]
        suit = card // 6
        if pos == 0:
            above = in_play & ~hand & (SUIT_BITS << (6 * suit)) & ~((2 << card) - 1)
            key = -points - 100 if above == 0 else card % 6
            order = card % 6
            if declares and (order == 2 or order == 3):
                pair = 0b1100 << (6 * suit)
                if hand & pair == pair:
                    row[count, 0], row[count, 1] = card, 1
                    row[count, 2] = -1000 - tables[T_MARRIAGE, suit] - order
                    count += 1
        else:
            new_key = card_key_k(card, led, trump if trump >= 0 else -1)
            wins = new_key > best_key
            if friend_wins and not wins:
                key = -200 - points  # let a friend's trick have our points
            elif wins:
                key = -100 - points if pos == 2 else new_key
            else:
                key = 100 + points
        row[count, 0], row[count, 1], row[count, 2] = card, 0, key
        count += 1
    # insertion sort by key
    for i in range(1, count):
        c, d, k = row[i, 0], row[i, 1], row[i, 2]
        j = i
        while j > 0 and row[j - 1, 2] > k:
            row[j, 0], row[j, 1], row[j, 2] = row[j - 1, 0], row[j - 1, 1], row[j - 1, 2]
            j -= 1
        row[j, 0], row[j, 1], row[j, 2] = c, d, k
    return count


def search(hands, cp, mp, left, trick, pos, leader, trump, tricks_done, alpha, beta, params,
           tables, tt_keys, tt_values, moves) -> int:
    """The margin of the node with best play by all (``left``: the card points still in
    the hands) (within ``alpha``/``beta`` as
    alpha-beta's fail-soft bounds), or :data:`ABORTED` past the node limit. The arrays are
    changed while searching and put back before returning."""
    if pos == 0:
        if hands[leader] == 0:
            return margin_k(cp, mp, params, tables)
        if hands[leader] & (hands[leader] - 1) == 0:
            # the last trick: every card is forced
            c0, c1, c2 = hands[leader], hands[(leader + 1) % 3], hands[(leader + 2) % 3]
            cards = (_lowest(c0), _lowest(c1), _lowest(c2))
            led = cards[0] // 6
            win, win_key, points = 0, -1, 0
            for i in range(3):
                key = card_key_k(cards[i], led, trump)
                points += tables[T_POINTS, cards[i]]
                if key > win_key:
                    win, win_key = i, key
            winner = (leader + win) % 3
            cp[winner] += points
            value = margin_k(cp, mp, params, tables)
            cp[winner] -= points
            return value
    params[P_NODES] += 1
    if params[P_NODES] > params[P_LIMIT]:
        return ABORTED
    depth = tricks_done * 3 + pos
    row = moves[depth]
    seat = (leader + pos) % 3
    maximising = seat == params[P_CONTRACTOR]
    slot, first = -1, -1
    k0, k1, k2 = 0, 0, 0
    if pos == 0:
        lo, hi = _bounds_k(hands, cp, mp, left, params, tables)
        if lo == hi:
            return lo
        k0 = hands[0] | (hands[1] << 24)
        k1 = hands[2] | (leader << 24) | ((trump + 1) << 26) | (params[P_GENERATION] << 29)
        k2 = 0
        shift = 0
        contractor = params[P_CONTRACTOR]
        for s in range(3):
            if s == contractor:
                k2 |= min(cp[s] + mp[s], params[P_CAP]) << 46
            else:
                k2 |= (cp[s] | (mp[s] << 7)) << shift
                shift += 16
        slot, found = _slot_k(tt_keys, k0, k1, k2)
        if found:
            lo, hi = max(lo, tt_values[slot, 0]), min(hi, tt_values[slot, 1])
            first = tt_values[slot, 2]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
    alpha0, beta0 = alpha, beta
    current = trick[tricks_done]
    count = _moves_k(hands, current, pos, leader, trump, tricks_done, params, tables, row)
    if first >= 0:
        for i in range(count):
            if row[i, 0] * 2 + row[i, 1] == first:
                c, d, k = row[i, 0], row[i, 1], row[i, 2]
                for j in range(i, 0, -1):
                    row[j, 0], row[j, 1], row[j, 2] = row[j - 1, 0], row[j - 1, 1], row[j - 1, 2]
                row[0, 0], row[0, 1], row[0, 2] = c, d, k
                break
    best = -INF if maximising else INF
    best_move = -1
    for i in range(count):
        card, declare = row[i, 0], row[i, 1]
        bit = 1 << card
        new_trump = trump
        hands[seat] ^= bit
        if declare:
            new_trump = card // 6
            mp[seat] += tables[T_MARRIAGE, new_trump]
        current[pos] = card
        if pos < 2:
            value = search(hands, cp, mp, left, trick, pos + 1, leader, new_trump, tricks_done,
                           alpha, beta, params, tables, tt_keys, tt_values, moves)
        else:
            led = current[0] // 6
            win, win_key, points = 0, -1, 0
            for j in range(3):
                key = card_key_k(current[j], led, new_trump)
                points += tables[T_POINTS, current[j]]
                if key > win_key:
                    win, win_key = j, key
            winner = (leader + win) % 3
            cp[winner] += points
            value = search(hands, cp, mp, left - points, trick, 0, winner, new_trump,
                           tricks_done + 1,
                           alpha, beta, params, tables, tt_keys, tt_values, moves)
            cp[winner] -= points
        if declare:
            mp[seat] -= tables[T_MARRIAGE, new_trump]
        hands[seat] ^= bit
        if value == ABORTED:
            return ABORTED
        if maximising:
            if value > best:
                best, best_move = value, card * 2 + declare
                alpha = max(alpha, value)
        elif value < best:
            best, best_move = value, card * 2 + declare
            beta = min(beta, value)
        if alpha >= beta:
            break
    if slot >= 0:
        lo, hi = -INF, INF
        if best <= alpha0:
            hi = best
        elif best >= beta0:
            lo = best
        else:
            lo = hi = best
        slot, found = _slot_k(tt_keys, k0, k1, k2)
        if found:
            lo, hi = max(lo, tt_values[slot, 0]), min(hi, tt_values[slot, 1])
        tt_keys[slot, 0], tt_keys[slot, 1], tt_keys[slot, 2] = k0, k1, k2
        tt_values[slot, 0], tt_values[slot, 1], tt_values[slot, 2] = lo, hi, best_move
    return best


_lowest = _intrinsic_lowest()
playable_k = _jit(playable_k)
card_key_k = _jit(card_key_k)
margin_k = _jit(margin_k)
_marriages_k = _jit(_marriages_k)
_bounds_k = _jit(_bounds_k)
_slot_k = _jit(_slot_k)
_moves_k = _jit(_moves_k)
search = _numba.njit(search)
# Not cached on disk: numba's cache mislinks a recursive function (numba issue 6061; loading
# it crashes the process), so the search proper is compiled once in each process (about
# three seconds, paid by the bot worker's warm-up) while the functions it calls are cached.

TABLE_BITS = 17
"""Rows of the transposition table, as a power of two."""
_GENERATIONS = 1 << 30
_tables = threading.local()


def shared_table() -> tuple[Any, Any, int]:
    """This thread's transposition table (keys, values) and the next generation of it: rows
    of earlier generations count as empty, so a new search need not clear it."""
    entry = getattr(_tables, "entry", None)
    if entry is None or entry[2] + 1 >= _GENERATIONS:
        size = 1 << TABLE_BITS
        entry = [np.zeros((size, _TT_KEYS), dtype=np.int64), np.zeros((size, 3), dtype=np.int64), 0]
        _tables.entry = entry
    entry[2] += 1
    return entry[0], entry[1], entry[2]
