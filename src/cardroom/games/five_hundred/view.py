"""What one seat of a 500 table may see: :func:`view`, JSON-ready, with its legal actions.

Hidden: the other hands (but hands played open), the kitty (but to the seat taking it),
others' discards, the holders of called cards until they play them, the seed and the deal of
later hands. The server sends each seat this and nothing else, and the leak tests check it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from cardroom.games.cards import CARDS, Card, indexes_of
from cardroom.games.five_hundred.claims import claim_counts, waiting_claim
from cardroom.games.five_hundred.exchange import may_call_slam
from cardroom.games.five_hundred.scoring import HandResult
from cardroom.games.five_hundred.shapes import (
    ContractView,
    FiveHundredPublicView,
    FiveHundredView,
)
from cardroom.games.five_hundred.state import (
    BIDDING,
    DISCARD_PHASE,
    NO_TRUMPS,
    PARTNER_DISCARD,
    State,
)
from cardroom.games.five_hundred.tricks import JOKER_SUIT, Strain
from cardroom.games.match import check_seat

GAME_NAME = "500"
CARD_TEXT = tuple(card.text for card in CARDS)
EXCHANGE_PHASES = (DISCARD_PHASE, PARTNER_DISCARD)


@cache
def display_keys(strain: Strain) -> tuple[tuple[int, int], ...]:
    """A sort key for every card index under ``strain``: grouped by effective suit (trumps
    first, then the joker's own suit, then hearts, diamonds, clubs, spades), highest first."""
    trump = strain.trump
    keys = strain.keys

    def key(index: int) -> tuple[int, int]:
        suit = strain.suit_of[index]
        group = 5 if suit == trump else (4 if suit == JOKER_SUIT else suit)
        return (-group, -keys[suit if suit != JOKER_SUIT else 0][index])

    return tuple(key(index) for index in range(len(CARDS)))


def display_strain(game: State) -> Strain:
    """The strain hands are sorted by: the contract's, once the bidding is over."""
    return game.strain if game._phase != BIDDING else NO_TRUMPS


def display_indexes(game: State, mask: int) -> list[int]:
    """The card indexes of ``mask`` in display order (see :func:`display_keys`)."""
    return sorted(indexes_of(mask), key=display_keys(display_strain(game)).__getitem__)


def sort_hand(game: State, mask: int) -> list[Card]:
    """Cards for display: grouped by effective suit (trumps first), highest first."""
    return [CARDS[i] for i in display_indexes(game, mask)]


def _hand_texts(game: State, mask: int) -> list[str]:
    return [CARD_TEXT[i] for i in display_indexes(game, mask)]


def visible_hand(game: State, viewer: int | None, seat: int) -> list[Card] | None:
    """The cards of ``seat`` that ``viewer`` may see: own hand, or a hand played open."""
    if viewer == seat or seat in game.open_seats:
        return sort_hand(game, game.hands[seat])
    return None


def known_side(game: State, viewer: int | None) -> list[int]:
    """The seats ``viewer`` knows to be playing for the contract: the contractor's team;
    with five players the contractor, the partners revealed so far and the viewer itself if
    it holds a called card."""
    if game.contractor is None:
        return []
    if game.players != 5:
        return list(game.contract_side)
    known = {game.contractor, *game.revealed}
    if viewer is not None and viewer in game.partners:
        known.add(viewer)
    return sorted(known)


def _texts(mask: int) -> list[str]:
    return [CARD_TEXT[i] for i in indexes_of(mask)]


def _contract(game: State) -> ContractView | None:
    contract = game.contract
    if contract is None and game._phase == BIDDING:
        return None
    trump = game.strain.trump
    return {
        "bid": contract.text if contract else None,
        "name": contract.name if contract else "no trumps (nobody bid)",
        "contractor": game.contractor,
        "trump": trump.letter if trump is not None else None,
        "value": contract.value if contract else None,
        "playing": list(game.active),
        "opponent": game.corner_opponent,
        "slam": game.slam,
        "joker_suit": game.joker_suit.letter if game.joker_suit is not None else None,
    }


def _own(game: State, seat: int | None) -> dict[str, Any]:
    """The parts of a view only ``seat`` sees: its exchange, discards, the cards handed over
    to its side, and its legal actions."""
    if seat is None:
        return {"exchange": None, "discards": [], "handed_over": [], "legal_actions": [],
                "discard_count": None}
    to_act = seat == game._to_act
    contractor = game.contractor
    own: dict[str, Any] = {
        "exchange": _texts(game.exchange) if to_act and game.exchange else None,
        "discards": _texts(game.discards[seat]),
        "handed_over": (_texts(game.handed_over) if contractor is not None
                        and game.team_of[seat] == game.team_of[contractor] else []),
        "legal_actions": [],
        "discard_count": None,
    }
    if to_act:
        if game._phase in EXCHANGE_PHASES:
            own["discard_count"] = game.exchange_count
            if may_call_slam(game):
                own["legal_actions"] = ["slam"]
        else:
            own["legal_actions"] = [action.text for action in game.legal_actions()]
    return own


def public_view(game: State) -> FiveHundredPublicView:
    """The part of every seat's view that does not depend on the seat (nor on whether it is a
    spectator's): built once per change, whatever the number of viewers (:func:`views`)."""
    n = game.players
    trick = game.trick
    return {
        "game": GAME_NAME,
        "rules": game.rules.shown_options,
        "preset": game.rules.preset_name,
        "players": n,
        "teams": list(map(list, game.teams)),
        "side_of": list(game.team_of),
        "phase": game._phase,
        "hand_number": game.hand_number,
        "dealer": game.dealer,
        "to_act": game._to_act,
        "hand_sizes": list(map(int.bit_count, game.hands)),
        "bidding": [{"seat": s, "bid": b.text if b is not None else "pass"}
                    for s, b in game.bids],
        "high_bid": (None if game.high_bid is None or game.high_bidder is None else
                     {"seat": game.high_bidder, "bid": game.high_bid.text}),
        "ladder": game.rules.shown_ladder,
        "passed": [s for s in range(n) if game.passed >> s & 1],
        "barred": game.barred,
        "contract": _contract(game),
        "called": [CARD_TEXT[i] for i in game.called],
        "kitty_size": game.kitty.bit_count(),
        "trick": [{"seat": s, "card": CARD_TEXT[i]}
                  for s, i in zip(game.trick_seats, trick, strict=True)],
        "led": (None if not trick else
                (game.nominated.letter if game.nominated is not None else "SCDHJ"[game.led])),
        "tricks": [{**t, "cards": list(t["cards"]), "seats": list(t["seats"])}
                   for t in game.completed],
        "tricks_won": list(game.tricks_won),
        "scores": list(game.scores),
        "history": list(map(HandResult.to_dict, game.history)),
        "winner": game.winner,
        "claim": waiting_claim(game),
    }


def view(game: State, seat: int | None,
         public: FiveHundredPublicView | None = None) -> FiveHundredView:
    """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions:
    the public part (``public``, when the caller built it already for this very state) and
    the seat's own. Views built from one public part share its lists: read them, never
    change them."""
    n = game.players
    seat = None if seat is None else check_seat(seat, n)
    hands = game.hands
    open_seats = game.open_seats
    known = known_side(game, seat)
    own = _own(game, seat)
    return {
        **(public_view(game) if public is None else public),
        "seat": seat,
        "hand": _hand_texts(game, hands[seat]) if seat is not None else None,
        "open_hands": {str(s): _hand_texts(game, hands[s])
                       for s in range(n) if s != seat and s in open_seats},
        "contract_side": known,
        "partners": [s for s in known if s != game.contractor] if n == 5 else [],
        "exchange": own["exchange"],
        "discards": own["discards"],
        "handed_over": own["handed_over"],
        "legal_actions": own["legal_actions"],
        "discard_count": own["discard_count"],
        "claims": list(claim_counts(game, seat)) if seat is not None else [],
    }


def views(game: State, seats: Iterable[int | None]) -> dict[int | None, FiveHundredView]:
    """The :func:`view` of each of ``seats``, their public part built once."""
    public = public_view(game)
    return {seat: view(game, seat, public) for seat in seats}
