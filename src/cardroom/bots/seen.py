"""Which cards a seat has seen, read from its view the same way in 500 and 1000.

Both games' views list the seat's hand, its own discards, the finished tricks and the trick
in progress with their cards written as text, so both games' bots count the cards still out
with these functions. What a game's bots make of those cards (500's effective suits and
sides, 1000's marriages and trumps by suit) stays in the game's own package.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardroom.games.cards import Card


def mask_of_texts(texts: Iterable[str]) -> int:
    """The mask of some card texts."""
    mask = 0
    for text in texts:
        mask |= Card.parse(text).mask
    return mask


def played_cards(view: dict[str, Any]) -> int:
    """The cards played this hand: those of the finished tricks and of the trick in
    progress."""
    played = mask_of_texts(play["card"] for play in view["trick"])
    for trick in view["tricks"]:
        played |= mask_of_texts(trick["cards"])
    return played


def unseen_cards(view: dict[str, Any], deck: int) -> int:
    """The cards of ``deck`` (a mask) the seat has not seen: not in its hand, not among its
    own discards, not played."""
    seen = mask_of_texts(view["hand"] or []) | mask_of_texts(view["discards"]) | played_cards(view)
    return deck & ~seen
