"""What one seat of a 1000 table may see: :func:`view`, JSON-ready, with its legal actions.

Hidden: the other hands, one's own hand until looked at (blind bidding), the bank (unless
shown, or to its taker), the discards and gifts (but to those who handled them), the seed and
the deals to come. The server sends each seat this and nothing else, and the leak tests check
it. Its shape is :class:`~.shapes.ThousandView`.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.games.cards import CARDS, Card, Suit, indexes_of
from cardroom.games.match import check_seat
from cardroom.games.thousand.deck import CARD_TEXT, MARRIAGE_POINTS, STRENGTH, SUIT_LETTERS
from cardroom.games.thousand.shapes import (
    BidRange,
    ContractView,
    GiftView,
    HighBid,
    ThousandPublicView,
    ThousandView,
)
from cardroom.games.thousand.state import BANK_SIZE, DISCARD_PHASE, State

__all__ = ["GAME_NAME", "ThousandView", "public_view", "sort_hand", "view", "views",
           "visible_bank"]

GAME_NAME = "1000"
_HAND_ORDER: dict[int | None, tuple[tuple[bool, int, int], ...]] = {
    trump: tuple((suit != trump, -suit, -STRENGTH[suit * 16 + rank])
                 for suit in range(len(Suit)) for rank in range(16))
    for trump in (None, *Suit)}
"""Where each card index stands in a sorted hand, by trump (see :func:`sort_hand`)."""


def sorted_indexes(game: State, mask: int) -> list[int]:
    """The card indexes of ``mask`` for display: trumps first, then by suit, highest first."""
    return sorted(indexes_of(mask), key=_HAND_ORDER[game.trump].__getitem__)


def sort_hand(game: State, mask: int) -> list[Card]:
    """Cards for display: trumps first, then by suit, highest first."""
    return [CARDS[index] for index in sorted_indexes(game, mask)]


def texts_of(mask: int) -> list[str]:
    """The notation of each card of ``mask``, in index order."""
    return [CARD_TEXT[index] for index in indexes_of(mask)]


def visible_bank(game: State, seat: int | None) -> list[str] | None:
    """The bank as dealt, if ``seat`` may see it: everyone once shown, the contractor once
    taken; ``None`` otherwise."""
    shown = game.bank_public or (seat is not None and seat == game.contractor)
    return texts_of(game.dealt_bank) if shown else None


def own_discards(game: State, seat: int | None) -> list[str]:
    """The discards, to the contractor who made them (nobody else sees them)."""
    if seat is None or seat != game.contractor:
        return []
    return texts_of(game.discards)


def own_gifts(game: State, seat: int | None) -> list[GiftView]:
    """The gifts ``seat`` gave (as contractor) or received, each ``{to, card}``."""
    if seat is None:
        return []
    return [{"to": to, "card": CARD_TEXT[index]} for to, index in game.gifts
            if seat in (to, game.contractor)]


def _high_bid(game: State) -> HighBid | None:
    if game.high_bid is None or game.high_bidder is None:
        return None
    return {"seat": game.high_bidder, "bid": game.high_bid, "blind": game.high_blind}


def _contract(game: State) -> ContractView | None:
    if game.contractor is None:
        return None
    return {"contractor": game.contractor, "bid": game.bid, "bet": game.bet,
            "blind": game.blind, "doubled": game.blind}


def _bid_range(game: State) -> BidRange:
    rules = game.rules
    return {"min": rules.min_bid, "max": rules.max_bid, "step": rules.bid_step,
            "cap_without_marriage": rules.marriage_cap}


def public_view(game: State) -> ThousandPublicView:
    """The part of every seat's view that does not depend on the seat (nor on whether it is a
    spectator's): built once per change, whatever the number of viewers (:func:`views`)."""
    players = game.players
    rules = game.rules
    return {
        "game": GAME_NAME,
        "rules": rules.shown_options,
        "preset": rules.preset_name,
        "players": players,
        "phase": game._phase,
        "hand_number": game.hand_number,
        "dealer": game.dealer,
        "sitting_out": game.sitting_out,
        "active": list(game.active),
        "to_act": game._to_act,
        "looked": [s for s in game.active if game.looked >> s & 1],
        "hand_sizes": [game.hands[s].bit_count() for s in range(players)],
        "bidding": [{"seat": s, "bid": "pass" if v is None else v, "blind": b}
                    for s, v, b in game.bids],
        "high_bid": _high_bid(game),
        "bid_range": _bid_range(game),
        "passed": [s for s in game.active if game.passed >> s & 1],
        "contract": _contract(game),
        "bank_size": game.bank.bit_count(),
        "trump": None if game.trump is None else SUIT_LETTERS[game.trump],
        "marriages": [{"seat": s, "suit": SUIT_LETTERS[suit], "points": MARRIAGE_POINTS[suit]}
                      for s, suit in game.marriages],
        "card_points": list(game.card_points),
        "marriage_points": list(game.marriage_points),
        "trick": [{"seat": s, "card": CARD_TEXT[i]}
                  for s, i in zip(game.trick_seats, game.trick, strict=True)],
        "led": SUIT_LETTERS[game.trick[0] >> 4] if game.trick else None,
        "tricks": [{**t, "cards": list(t["cards"]), "seats": list(t["seats"])}
                   for t in game.completed],
        "tricks_won": list(game.tricks_won),
        "scores": list(game.scores),
        "barrel": [{"on": game.on_barrel[s], "deals": game.barrel_deals[s]}
                   for s in range(players)],
        "bolts": list(game.bolts),
        "history": [result.to_dict() for result in game.history],
        "winner": game.winner,
    }


def view(game: State, seat: int | None,
         public: ThousandPublicView | None = None) -> ThousandView:
    """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions:
    the public part (``public``, when the caller built it already for this very state) and
    the seat's own. Views built from one public part share its lists: read them, never
    change them."""
    seat = None if seat is None else check_seat(seat, game.players)
    looked = seat is not None and bool(game.looked >> seat & 1)
    to_act = seat is not None and seat == game._to_act
    return {
        **(public_view(game) if public is None else public),
        "seat": seat,
        "hand": ([CARD_TEXT[index] for index in sorted_indexes(game, game.hands[seat])]
                 if looked and seat is not None else None),
        "bank": visible_bank(game, seat),
        "discards": own_discards(game, seat),
        "discard_count": BANK_SIZE if game._phase == DISCARD_PHASE and to_act else None,
        "gifts": own_gifts(game, seat),
        "legal_actions": [a.text for a in game.legal_actions()] if to_act else [],
    }


def views(game: State, seats: Iterable[int | None]) -> dict[int | None, ThousandView]:
    """The :func:`view` of each of ``seats``, their public part built once."""
    public = public_view(game)
    return {seat: view(game, seat, public) for seat in seats}
