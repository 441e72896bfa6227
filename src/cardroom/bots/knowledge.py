"""Small pieces of 500 know-how shared by the bots that play from a seat's view.

They read the legal actions a view offers; keeping them here lets every bot parse the
actions the same way without importing another bot's private helpers.
"""

from __future__ import annotations

from cardroom.games.cards import Card
from cardroom.games.five_hundred import Bid, Contract


def legal_trick_bids(legal: list[str]) -> list[Bid]:
    """The legal six-to-ten trick bids, in ladder order."""
    bids = [Bid.parse(text[4:]) for text in legal if text.startswith("bid ")]
    return [bid for bid in bids if bid.contract is Contract.TRICKS]


def plays_by_card(legal: list[str]) -> dict[Card, list[str]]:
    """Legal play actions grouped by card (a joker led in no trumps has one per suit)."""
    options: dict[Card, list[str]] = {}
    for text in legal:
        card_text = text.split()[1].split(":")[0]
        options.setdefault(Card.parse(card_text), []).append(text)
    return options
