"""What a seat at a 1000 table knows, read from its view alone: shared by the 1000 bots.

The view lists the seat's hand, the tricks played (with the trump in force), the bank when it
was shown, the seat's own discards and gifts. From these :class:`Seen` works out which cards
are still out, who has shown out of which suit (and, under must-trump, of trumps), and which
unplayed cards sit in a known hand, so the bots can count cards and the search can deal the
unseen ones consistently.
"""

from __future__ import annotations

from typing import Any

from cardroom.bots.seen import mask_of_texts, played_cards, seat_of, unseen_cards
from cardroom.games.cards import Card, Suit, iter_indexes
from cardroom.games.thousand.deck import (
    KING_QUEEN,
    PACK_MASK,
    STRENGTH,
    SUIT_IN_PACK,
    card_key,
    marriages_in,
)
from cardroom.games.thousand.shapes import ThousandView

PILE = -1
"""The place of the contractor's unseen discards in a sampled deal (unseen by the others):
where the search bot deals them and its reading of the calls finds them."""


def suit_letter(letter: str | None) -> int | None:
    """A suit letter of the view as a suit number (``None`` stays ``None``)."""
    return None if letter is None else int(Suit.parse(letter))


class Seen:
    """Card knowledge of the seat to act at a 1000 table: its cards as masks, the trump in
    force, the cards still out (counted as 500's bots count them: :mod:`cardroom.bots.seen`),
    the suits each seat showed out of and the cards known to sit in another hand. 500's bots
    read views into :class:`~cardroom.bots.five_hundred.simple.SeatView` instead, for 500's
    effective suits (bowers, the joker) and sides."""

    def __init__(self, view: ThousandView) -> None:
        self.view = view
        self.rules: dict[str, Any] = view["rules"]
        self.seat = seat_of(view)
        self.active: list[int] = view["active"]
        self.hand = mask_of_texts(view["hand"] or [])
        self.trump = suit_letter(view["trump"])
        contract = view["contract"]
        self.contractor: int | None = contract["contractor"] if contract else None
        self.bet: int | None = contract["bet"] if contract else None
        self.blind: bool = bool(contract and contract["blind"])
        self.trick = [(entry["seat"], Card.parse(entry["card"]).index)
                      for entry in view["trick"]]
        self.played = played_cards(view)
        self.voids = {seat: 0 for seat in self.active}  # bit per suit shown out of
        for trick in view["tricks"]:
            self._note_trick([Card.parse(c).index for c in trick["cards"]], trick["seats"],
                             suit_letter(trick.get("trump")))
        if self.trick:
            self._note_trick([i for _, i in self.trick], [s for s, _ in self.trick],
                             self.trump)
        self.discards = mask_of_texts(view["discards"])
        self.bank = mask_of_texts(view["bank"] or [])
        self.known: dict[int, int] = self._known_holdings()
        self.unseen = unseen_cards(view, PACK_MASK)

    def _note_trick(self, cards: list[int], seats: list[int], trump: int | None) -> None:
        led = cards[0] >> 4
        for seat, index in zip(seats, cards, strict=True):
            suit = index >> 4
            if suit != led:
                self.voids[seat] |= 1 << led
                if trump is not None and suit != trump and self.rules.get("must_trump"):
                    self.voids[seat] |= 1 << trump

    def _known_holdings(self) -> dict[int, int]:
        """Unplayed cards known to sit in another hand: the gifts this seat gave as contractor.
        (A shown bank's cards are not fixed: discarded ones may be in the pile, given ones in
        either defender's hand.)"""
        known: dict[int, int] = {}
        for gift in self.view["gifts"]:
            if gift["to"] != self.seat:
                known[gift["to"]] = known.get(gift["to"], 0) | Card.parse(gift["card"]).mask
        return {seat: mask & ~self.played for seat, mask in known.items()}

    # -- questions the bots ask ------------------------------------------------------------------

    @property
    def is_contractor(self) -> bool:
        """True when this seat plays the contract."""
        return self.seat == self.contractor

    def friend(self, seat: int) -> bool:
        """True for the other defender, when this seat defends."""
        return seat != self.seat and self.contractor not in (None, self.seat, seat)

    def higher_out(self, index: int) -> int:
        """Unseen cards of ``index``'s suit that rank above it."""
        strength = STRENGTH[index]
        return sum(1 for i in iter_indexes(self.unseen & SUIT_IN_PACK[index >> 4])
                   if STRENGTH[i] > strength)

    def is_boss(self, index: int) -> bool:
        """No unseen card of the same suit ranks above this one."""
        return self.higher_out(index) == 0

    def may_be_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has shown out of ``suit`` (so it may ruff or discard)."""
        return bool(self.voids.get(seat, 0) >> suit & 1)

    def unseen_in(self, suit: int) -> int:
        """How many unseen cards of ``suit`` are out."""
        return (self.unseen & SUIT_IN_PACK[suit]).bit_count()

    def marriage_cards(self) -> int:
        """Mask of this seat's kings and queens that still form a marriage in hand."""
        mask = 0
        for suit in marriages_in(self.hand):
            mask |= KING_QUEEN[suit]
        return mask

    def current_winner(self) -> tuple[int, int] | None:
        """The seat winning the trick so far and its card, or ``None`` before the lead."""
        if not self.trick:
            return None
        led = self.trick[0][1] >> 4
        return max(self.trick, key=lambda entry: card_key(entry[1], led, self.trump))

    def seats_after(self) -> list[int]:
        """Seats still to play to the current trick after this one."""
        count = len(self.active) - len(self.trick) - 1
        order = self.active
        start = order.index(self.seat)
        return [order[(start + k) % len(order)] for k in range(1, count + 1)]
