"""The reference the compiled 500 solver is checked against: the same double-dummy search
written plainly in Python (:class:`Search`), and plain minimax (:func:`brute_force`).

The shipped solver (:mod:`cardroom.bots.five_hundred.solver`) runs its tree search as a
numba-compiled kernel over integer arrays, which is fast but hard to read. :class:`Search`
states the same search, step by step, over Python integers (the kernel's docstrings name the
method of it each function restates), and shares the root with the compiled search
(:class:`~cardroom.bots.five_hundred.solver.SearchRoot`); :func:`brute_force` tries every
legal card. The tests compare the kernel with both on many random endings; the solver
benchmark (bench/solver.py) times the two searches side by side.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from cardroom.bots.five_hundred.solver import (
    JOKERS,
    SUITS,
    Move,
    Position,
    SearchRoot,
    SolverTimeout,
    equivalent_groups,
    next_seats,
    playable,
    side_of,
)
from cardroom.games.cards import Suit, iter_indexes
from cardroom.games.five_hundred.tricks import JOKER_SUIT, Strain

# -- plain minimax --------------------------------------------------------------------------------


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
        mask = playable(hands[seat], not trick, led, follow, JOKERS,
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


# -- the search, in plain Python ------------------------------------------------------------------


class Search(SearchRoot):
    """The double-dummy search with its tree searched in plain Python: a null-window
    alpha-beta over single card plays, with a transposition table at trick boundaries (a
    dict kept between calls), equivalent-card merging, cheap move ordering and quick-trick
    bounds. It gives the compiled search's answers, about a hundred times slower."""

    CHECK_EVERY = 1024
    """Trick-boundary nodes between two looks at the clock."""

    def __init__(self, position: Position, side: int | Iterable[int],
                 deadline: float | None = None,
                 maximisers: int | Iterable[int] | None = None) -> None:
        super().__init__(position, side, deadline, maximisers)
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        """Bounds on the side's tricks by trick-boundary position (hands and leader)."""

    def reaches(self, target: int) -> bool:
        """Can the side take at least ``target`` of the remaining tricks?"""
        trick = self._trick_state()
        if trick is None:
            return self._reach(self.hands, self.position.to_play, target)
        order, pos, led, best_key, best_seat, trick_mask = trick
        return self._play(self.hands, order, pos, led, best_key, best_seat, trick_mask, target)

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
        key = (*hands, leader)
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
        in_play = self.in_play(hands) | trick_mask
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
        reps = [rep for rep, _ in equivalent_groups(mask, in_play, layout.suit)]
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
        if pos != 2 or not self.partnered:
            return -1
        suited = hands[(seat + 1) % 4] & self.layout.follow[led]
        return self.layout.keys[led][suited.bit_length() - 1] if suited else -1

    def _partner_covers(self, pos: int, seat: int, led: int, hands: list[int],
                        in_play: int) -> bool:
        """Second to play, with partner (fourth) holding the top card of the suit led: low
        cards are tried before the winners (a fifth fewer positions in no trumps)."""
        if pos != 1 or not self.partnered:
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
        if not self.partnered:
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
        if not self.partnered:
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
        if (lo < target <= hi and self.partnered
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
        """The seat holding the card nothing can beat (the top trump, or in no trumps the
        higher joker when the jokers win), and the tricks it takes whatever anyone does: that
        card must be played some time and wins its trick, and so does each trump (or joker)
        just below it in the same hand, since a hand plays one card a trick."""
        ruffers = self.in_play(hands) & self._ruffers()
        if not ruffers:
            return None, 0
        top = 1 << (ruffers.bit_length() - 1)
        for seat in self.active:
            if hands[seat] & top:
                return seat, _top_run(hands[seat], ruffers)
        return None, 0


    def _ruffers(self) -> int:
        """The cards that win a trick in a suit their holder lacks: trumps, or the winning
        no-trumps jokers."""
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
        in_play = self.in_play(hands)
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
        if trump is not None or not self.forced:  # top trumps, or top no-trumps jokers
            count = _top_run(mine, in_play & ruffers)
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
