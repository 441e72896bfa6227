"""How 500's cards and bids read for people in plain text: the joker and the left bower belong
to trumps and are marked, and bids have names (misère, open misère …)."""

from __future__ import annotations

from cardroom.games.cards import Card, Rank, Suit
from cardroom.games.five_hundred.bids import Bid
from cardroom.games.five_hundred.tricks import strain_for
from cardroom.games.text import CardWords


class FiveHundredCardWords(CardWords):
    """500: cards grouped by effective suit, the bowers marked ``(R)`` and ``(L)``."""

    def group_of(self, card: Card, trump: Suit | None) -> int:
        """The effective suit: the left bower is a trump, the joker too."""
        return int(strain_for(trump).suit_of[card.index])

    def mark(self, card: Card, trump: Suit | None) -> str:
        """``(R)`` on the jack of trumps, ``(L)`` on the other jack of its colour."""
        if trump is None or card.rank != Rank.JACK:
            return ""
        if card.suit == trump:
            return "(R)"
        return "(L)" if card.suit == trump.same_colour else ""

    def bid_words(self, bid: str) -> str:
        """``7H`` → ``7♥``, ``7NT``, ``misère (No Tricks)``."""
        parsed = Bid.parse(bid)
        if parsed.tricks and parsed.trump is not None:
            return f"{parsed.tricks}{parsed.trump.symbol}"
        return parsed.text if parsed.tricks else parsed.name
