"""The shape of what a seat of a 1000 table sees: one typed structure the engine returns
(:func:`cardroom.games.thousand.view.view`), which the bots read and the server sends. Plain
dicts at run time (a view is built for every seat after every action), checked by the type
checker.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class SeatBid(TypedDict):
    """One call of the bidding: a bid's points, or ``"pass"``; ``blind`` for a bid made
    before looking."""

    seat: int
    bid: int | Literal["pass"]
    blind: bool


class HighBid(TypedDict):
    """The highest bid so far and who made it."""

    seat: int
    bid: int
    blind: bool


class BidRange(TypedDict):
    """The bids the rules allow: from ``min`` to ``max`` in steps of ``step``, nothing above
    ``cap_without_marriage`` (when set) without a marriage in hand."""

    min: int
    max: int
    step: int
    cap_without_marriage: int | None


class ContractView(TypedDict):
    """The contract once the bidding is won: the winning bid, the final bet, and whether it
    was bid blind (then every player's points are doubled)."""

    contractor: int
    bid: int | None
    bet: int | None
    blind: bool
    doubled: bool


class GiftView(TypedDict):
    """A card the contractor gave from the bank, as its giver and receiver see it."""

    to: int
    card: str


class MarriageView(TypedDict):
    """A marriage declared: by whom, its suit's letter and what it scored."""

    seat: int
    suit: str
    points: int


class PlayedCard(TypedDict):
    """A card in the trick on the table."""

    seat: int
    card: str


class TrickView(TypedDict):
    """A finished trick: who led, the seats and cards in order, who won it, its card points
    and the trump it was played under (a suit's letter, ``None`` before any marriage)."""

    leader: int
    seats: list[int]
    cards: list[str]
    winner: int
    points: int
    trump: str | None


class BarrelView(TypedDict):
    """A player's place on the barrel: on it or not, and the deals counted there so far."""

    on: bool
    deals: int


class Penalty(TypedDict):
    """Points a deal cost a player beyond its score: a full set of ``bolts`` or running out
    of ``barrel`` deals."""

    seat: int
    kind: Literal["bolts", "barrel"]
    points: int


class HandView(TypedDict):
    """A scored deal (``HandResult.to_dict``)."""

    number: int
    dealer: int
    contractor: int | None
    bid: int | None
    bet: int | None
    blind: bool
    made: bool | None
    taken: int | None
    card_points: list[int]
    marriages: list[int]
    discard_points: int
    tricks: list[int]
    points: list[int]
    scores: list[int]
    summary: str
    penalties: list[Penalty]


class ThousandPublicView(TypedDict):
    """The part of a 1000 view that is the same for every seat and for spectators: built once
    per change and shared by every seat's view (:func:`.view.views`)."""

    game: str
    rules: dict[str, Any]
    """``Rules.to_dict``: the preset and every option."""
    preset: str | None
    players: int
    phase: str
    hand_number: int
    dealer: int
    sitting_out: int | None
    """The dealer of a four-player table, who takes no part in the deal."""
    active: list[int]
    """The seats that play this deal."""
    to_act: int | None
    looked: list[int]
    hand_sizes: list[int]
    bidding: list[SeatBid]
    high_bid: HighBid | None
    bid_range: BidRange
    passed: list[int]
    contract: ContractView | None
    bank_size: int
    """The cards still in the bank on the table."""
    trump: str | None
    marriages: list[MarriageView]
    card_points: list[int]
    marriage_points: list[int]
    trick: list[PlayedCard]
    led: str | None
    tricks: list[TrickView]
    tricks_won: list[int]
    scores: list[int]
    barrel: list[BarrelView]
    bolts: list[int]
    history: list[HandView]
    winner: int | None


class ThousandView(ThousandPublicView):
    """Everything one seat (or a spectator) of a 1000 table may see: the public part and the
    seat's own."""

    seat: int | None
    hand: list[str] | None
    """The viewer's own cards, trumps first, once it has looked at them (else ``None``)."""
    bank: list[str] | None
    """The bank as dealt, to those who may see it (all once shown, its taker), else ``None``."""
    discards: list[str]
    """The contractor's own discards (empty for everyone else)."""
    discard_count: int | None
    """The number of cards to discard, for the contractor while it is to discard."""
    gifts: list[GiftView]
    """The gifts the viewer gave (as contractor) or received."""
    legal_actions: list[str]
