"""Which cards a seat has seen, read from its view the same way in 500 and 1000.

Both games' views list the seat's hand, its own discards, the finished tricks and the trick
in progress with their cards written as text, so both games' bots count the cards still out
with these functions. What a game's bots make of those cards (500's effective suits and
sides, 1000's marriages and trumps by suit) stays in the game's own package.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.bots.base import AnyView
from cardroom.games.cards import Card


def seat_of(view: AnyView) -> int:
    """The seat whose view this is. Views leave it ``None`` only for a spectator, and a bot
    is only ever shown the view of the seat it plays."""
    seat = view["seat"]
    assert seat is not None, "a bot is shown its own seat's view, never a spectator's"
    return seat


def hand_of(view: AnyView) -> list[str]:
    """The viewer's own cards. Views leave them ``None`` for a spectator and, in 1000, for a
    seat that has not looked at its cards yet; the bots read them only in a seat's view once
    it holds them (500's always, 1000's after looking)."""
    hand = view["hand"]
    assert hand is not None, "the bot reads its hand only once the view shows it"
    return hand


def mask_of_texts(texts: Iterable[str]) -> int:
    """The mask of some card texts."""
    mask = 0
    for text in texts:
        mask |= Card.parse(text).mask
    return mask


def played_cards(view: AnyView) -> int:
    """The cards played this hand: those of the finished tricks and of the trick in
    progress."""
    played = mask_of_texts(play["card"] for play in view["trick"])
    for trick in view["tricks"]:
        played |= mask_of_texts(trick["cards"])
    return played


def unseen_cards(view: AnyView, deck: int) -> int:
    """The cards of ``deck`` (a mask) the seat has not seen: not in its hand, not among its
    own discards, not played."""
    seen = mask_of_texts(view["hand"] or []) | mask_of_texts(view["discards"]) | played_cards(view)
    return deck & ~seen
