"""The compiled kernel of the 500 double-dummy solver: its search proper, restated over plain
integer arrays so that numba can compile it (cached on disk), about a hundred times faster
than the same search in Python.

:class:`~cardroom.bots.five_hundred.solver.FastSearch` sets up the arrays (the compact
numbering of :class:`~cardroom.bots.five_hundred.solver.Layout`, the ``cfg`` slots below, a
transposition table from :func:`shared_table`) and runs :func:`search_kernel` from a node.
Each function says which step of the pure-Python reference search it restates: ``Search`` in
the tests' ``tests/bots/reference_solver.py``, written for reading, which the tests check
this kernel against move by move.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numba as _numba
import numba.extending  # loads _numba.extending, for its intrinsic decorator
import numpy as np

# Slots of the kernel's ``cfg`` array. ``_C_JOKER`` is the mask of every joker in play (one
# or two); ``_C_PAIRS`` is set when four seats play in two partnerships facing each other,
# the only table whose partner the move ordering and the entry bound look for.
_C_PLAYERS, _C_JOKER, _C_FORCED, _C_ANY_TIME, _C_SIDE, _C_MAX = 0, 1, 2, 3, 4, 5
_C_TRUMP, _C_TRUMP_MASK, _C_JOKER_WINS, _C_GENERATION, _C_PAIRS = 6, 7, 8, 9, 10
CFG_FIELDS = 11
MAX_SEATS = 6
"""The most seats at a table of 500: the arrays by seat (``hands``, the order table, a table
row's squeezed hands) are as long as the table has seats, from four (two and three players
keep empty hands up to four) to six."""
_HASH_FACTORS = np.array([0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F, 0x7FEB352D,
                          0x846CA68B, 0x165667B1], dtype=np.int64)
"""Odd factors mixing each squeezed hand into a table row's hash; the last one mixes the tag."""
_GENERATION_SHIFT = 40
"""Where a table row's tag keeps the generation (suit lengths and leader fit below)."""
_GENERATIONS = 1 << 20
"""Searches a shared table serves before it is cleared (the tag's room for generations)."""
# Slots of the kernel's ``stats`` array: nodes so far, node limit, aborted flag.
STAT_NODES, STAT_LIMIT, STAT_ABORTED = 0, 1, 2
MAX_MOVES = 32
"""Room for the moves of one node: at most one per card held plus four namings per joker."""


def _jit(function: Callable) -> Callable:
    """Compile with numba, cached on disk when a cache directory can be used (numba refuses
    to cache when it finds none; then the kernel is compiled afresh in each process)."""
    try:
        return _numba.njit(cache=True)(function)
    except RuntimeError:  # pragma: no cover - no writable cache location
        return _numba.njit(function)


def _popcount(x: int) -> int:
    """Set bits of a non-negative 64-bit integer (rebound below to the processor's own
    count)."""
    return int(x).bit_count()


def _highest(x: int) -> int:
    """Index of the highest set bit of a positive integer."""
    n = 0
    for step in (32, 16, 8, 4, 2, 1):
        if x >> step:
            x >>= step
            n += step
    return n


def _in_play_k(hands) -> int:
    """Every card still in a hand, whatever the number of seats (four spelt out: the usual
    table, and the kernel's most frequent question)."""
    if hands.shape[0] == 4:
        return hands[0] | hands[1] | hands[2] | hands[3]
    cards = 0
    for seat in range(hands.shape[0]):
        cards |= hands[seat]
    return cards


def _top_run_k(mine: int, suit_cards: int) -> int:
    """``Search``'s ``_top_run`` without a loop over the cards: how many of the top cards of
    a suit (its highest bits) are in ``mine`` in a row."""
    rest = suit_cards & ~mine
    if rest == 0:
        return _popcount(suit_cards)
    return _popcount(suit_cards >> (_highest(rest) + 1))


def _ruffers_k(cfg) -> int:
    """The cards that win a trick in a suit their holder lacks: trumps, or the winning
    no-trumps jokers."""
    if cfg[_C_TRUMP] >= 0:
        return cfg[_C_TRUMP_MASK]
    return cfg[_C_JOKER] if cfg[_C_JOKER_WINS] else 0


def _quick_k(hands, seat: int, follow, cfg) -> int:
    """:meth:`Search._quick_tricks` of ``seat``."""
    mine = hands[seat]
    others = 0
    for other in range(hands.shape[0]):
        if other != seat:
            others |= hands[other]
    in_play = mine | others
    trump = cfg[_C_TRUMP]
    ruffers = _ruffers_k(cfg)
    count = 0
    if trump >= 0 or not cfg[_C_FORCED]:
        count = _top_run_k(mine, in_play & ruffers)
    if not (cfg[_C_ANY_TIME] and others & ruffers & cfg[_C_JOKER]):
        for suit in range(4):
            if suit != trump:
                run = _top_run_k(mine, in_play & follow[suit])
                if run and others & ruffers:
                    for other in range(hands.shape[0]):
                        if other != seat and hands[other] & ruffers:
                            run = min(run, _popcount(hands[other] & follow[suit]))
                count += run
    return min(count, _popcount(mine))


def _entry_k(hands, leader: int, partner: int, follow, cfg) -> bool:
    """:meth:`Search._entry`."""
    ruffers = _ruffers_k(cfg)
    in_play = _in_play_k(hands)
    if cfg[_C_ANY_TIME] and (in_play & ~hands[partner]) & ruffers & cfg[_C_JOKER]:
        return False
    for suit in range(4):
        cards = in_play & follow[suit]
        if not (hands[leader] & cards) or not ((hands[partner] >> _highest(cards)) & 1):
            continue
        if suit == cfg[_C_TRUMP]:
            return True
        safe = True
        for other in range(hands.shape[0]):
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
    in_play = _in_play_k(hands)
    quick = _quick_k(hands, leader, follow, cfg)
    lo, hi = (quick, left) if counted else (0, left - quick)
    # as :meth:`Search._top_trump_tricks`
    ruffers = in_play & _ruffers_k(cfg)
    if ruffers:
        top = 1 << _highest(ruffers)
        for seat in range(hands.shape[0]):
            if hands[seat] & top:
                sure = _top_run_k(hands[seat], ruffers)
                if (cfg[_C_SIDE] >> seat) & 1:
                    lo = max(lo, sure)
                else:
                    hi = min(hi, left - sure)
    partner = (leader + 2) & 3
    if (lo < target <= hi and cfg[_C_PAIRS]
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
    rest = _in_play_k(hands)
    lengths = 0
    for seat in range(hands.shape[0]):
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
    squeezed hands (one per seat) and a tag after them: the suit lengths, the leader plus one
    and the search's generation (see :func:`shared_table`); a row of another generation
    counts as empty."""
    squeezed[hands.shape[0]] = (_squeeze_k(hands, follow, squeezed) + leader + 1
                   + (generation << _GENERATION_SHIFT))
    return _find_k(tt_keys, squeezed, generation)


def _find_k(tt_keys, squeezed, generation: int) -> tuple[int, bool]:
    """:func:`_slot_k` once the position is squeezed."""
    seats = squeezed.shape[0] - 1
    tag = squeezed[seats]
    if seats == 4:  # the usual table, spelt out
        h = (squeezed[0] * 0x9E3779B1 ^ squeezed[1] * 0x85EBCA77 ^ squeezed[2] * 0xC2B2AE3D
             ^ squeezed[3] * 0x27D4EB2F ^ tag * 0x165667B1)
    else:
        h = tag * _HASH_FACTORS[MAX_SEATS]
        for seat in range(seats):
            h ^= squeezed[seat] * _HASH_FACTORS[seat]
    h ^= h >> 29
    size_mask = tt_keys.shape[0] - 1
    first = h & size_mask
    for probe in range(4):
        slot = (first + probe) & size_mask
        row = tt_keys[slot]
        if row[seats] >> _GENERATION_SHIFT != generation:
            return slot, False
        if row[seats] == tag:
            same = True
            for seat in range(seats):
                if row[seat] != squeezed[seat]:
                    same = False
                    break
            if same:
                return slot, True
    return first, False


# Fields of a frame of the kernel's explicit stack (one row per card played below the root).
(_F_POS, _F_LEADER, _F_LED, _F_BEST, _F_BEST_SEAT, _F_TRICK, _F_TARGET, _F_NEXT, _F_TOTAL,
 _F_SEAT, _F_MAX, _F_BIT, _F_BOUNDARY, _F_LO, _F_HI, _F_FIRST, _F_KEY) = range(17)
FRAME_KEY = _F_KEY
"""A frame ends with the squeezed position of a trick boundary: from ``FRAME_KEY``, one field
per seat and the tag (so a frame has ``FRAME_KEY + seats + 1`` fields)."""


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


def search_kernel(hands, pos, leader, led, best_key, best_seat, trick_mask, target,
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
    width = hands.shape[0] + 1  # a squeezed position: the hands and the tag
    squeezed = np.zeros(width, dtype=np.int64)
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
                        stats[STAT_NODES] += 1
                        if stats[STAT_NODES] > stats[STAT_LIMIT]:
                            stats[STAT_ABORTED] = 1
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
                frame[_F_KEY:_F_KEY + width] = squeezed
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
                squeezed[:] = frame[_F_KEY:_F_KEY + width]
                slot, found = _find_k(tt_keys, squeezed, cfg[_C_GENERATION])
                for i in range(width):
                    tt_keys[slot, i] = squeezed[i]
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
    for other in range(hands.shape[0]):
        if (other != seat and other != partner and (hands[other] & follow[suit]) == 0
                and hands[other] & cfg[_C_TRUMP_MASK]):
            return True
    return False


def _moves_k(hands, pos, led, best_key, best_seat, trick_mask, seat, maximising, suit_of,
             follow, keys, cfg, row) -> int:
    """The ordered moves of ``seat`` into ``row`` (cards in ``row[2]``, named suits or -1 in
    ``row[3]``; ``row[0]`` and ``row[1]`` are scratch); returns how many. As
    :func:`~cardroom.bots.five_hundred.solver.playable`,
    :func:`~cardroom.bots.five_hundred.solver.equivalent_groups`, :meth:`Search._ordered_moves` and
    :meth:`Search._nominations`."""
    hand = hands[seat]
    joker = cfg[_C_JOKER]
    if pos == 0:
        mask = hand & ~joker if cfg[_C_FORCED] and hand & joker and hand & ~joker else hand
    else:
        mask = hand & follow[led]
        if mask:
            if cfg[_C_ANY_TIME]:
                mask |= hand & joker
        elif cfg[_C_FORCED] and hand & joker:
            mask = hand & joker
        else:
            mask = hand
    in_play = _in_play_k(hands) | trick_mask
    partner = (seat + 2) & 3 if cfg[_C_PAIRS] else -1
    fourth_top = -1  # as :meth:`Search._fourth_top`
    if pos == 2 and partner >= 0 and led < 4:
        fourth = hands[(seat + 1) & 3]
        if fourth & follow[led]:
            fourth_top = keys[led, _highest(fourth & follow[led])]
    # second to play with partner holding the suit's top card: low cards first (as
    # :meth:`Search._partner_covers`)
    partner_covers = (pos == 1 and partner >= 0 and led < 4 and (in_play & follow[led]) != 0
                      and ((hands[partner] >> _highest(in_play & follow[led])) & 1) == 1)
    # one representative per run of equivalent cards (as ``equivalent_groups``), with its sort key
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
            for other in range(hands.shape[0]):
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
    def ctpop(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return x(x), codegen

    def popcount(x: int) -> int:
        return ctpop(x)  # type: ignore[call-arg]  # numba passes the typing context

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
    def ctlz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return x(x), codegen

    def highest(x: int) -> int:
        return 63 - ctlz(x)  # type: ignore[call-arg]  # numba passes the typing context

    return _jit(highest)


# Compile the kernel: each function above is rebound to its compiled form.
_popcount = _intrinsic_popcount()
_highest = _intrinsic_highest()
_in_play_k = _jit(_in_play_k)
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
search_kernel = _jit(search_kernel)


_tables = threading.local()


def shared_table(size: int, seats: int = 4) -> tuple[Any, Any, Any, int]:
    """A transposition table of ``size`` rows for a new search at a table of ``seats``
    seats (a row holds one squeezed hand per seat and a tag), and its generation.

    Allocating and first touching a full-size table costs as much as solving a deal, so each
    thread keeps one table per size and shape and every search takes the next generation of it: rows
    written by earlier searches no longer match (they answer other questions) and count as
    empty. After :data:`_GENERATIONS` searches the table is cleared and counting restarts.
    """
    tables = _tables.__dict__.setdefault("by_size", {})
    entry = tables.get((size, seats))
    if entry is None or entry[3] + 1 >= _GENERATIONS:
        entry = [np.zeros((size, seats + 1), dtype=np.int64), np.zeros((size, 2), dtype=np.int8),
                 np.zeros(size, dtype=np.int8), 0]
        tables[(size, seats)] = entry
    entry[3] += 1
    return entry[0], entry[1], entry[2], entry[3]

