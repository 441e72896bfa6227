"""The shape of what a seat of a 500 table sees: one typed structure the engine returns
(:func:`cardroom.games.five_hundred.view.view`), the bots read, the server sends inside its
``table`` messages and the tests check every message against. Plain dicts at run time (a view
is built for every seat after every action), checked by the type checker and, in the tests,
by msgspec.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class SeatBid(TypedDict):
    """One call of the auction: a bid's text (``7S``, ``MIS`` …) or ``pass``."""

    seat: int
    bid: str


class HighBid(TypedDict):
    """The highest bid so far and who made it."""

    seat: int
    bid: str


class LadderRung(TypedDict):
    """A bid the rules allow, with its name and value, lowest first."""

    bid: str
    name: str
    value: int


class ContractView(TypedDict):
    """The contract once the auction is over (``bid`` ``None``: nobody bid, played in no
    trumps)."""

    bid: str | None
    name: str
    contractor: int | None
    trump: str | None
    """The trump suit's letter, ``None`` in no trumps and misère."""
    value: int | None
    playing: list[int]
    """The seats still in the hand (a lone misère or open misère sits the partner out)."""
    opponent: int | None
    """Three-handed corner play: the seat the contractor's points are compared against."""
    slam: bool
    joker_suit: str | None
    """The suit the joker was given in no trumps, once named."""


class PlayedCard(TypedDict):
    """A card in the trick on the table."""

    seat: int
    card: str


class TrickView(TypedDict):
    """A finished trick: who led, the seats and cards in order, who won."""

    leader: int
    seats: list[int]
    cards: list[str]
    winner: int
    nominated: NotRequired[str]
    """The suit the joker's leader named, when the joker was led in no trumps."""


class HandView(TypedDict):
    """A scored hand (``HandResult.to_dict``)."""

    number: int
    dealer: int
    contract: str | None
    contractor: int | None
    made: bool | None
    tricks: list[int]
    points: list[int]
    scores: list[int]
    summary: str
    contract_side: list[int]


class ClaimView(TypedDict):
    """A claim waiting for the opponents' answers."""

    seat: int
    tricks: int
    """The tricks of those left the claimant's side would take."""
    remaining: int
    accepted: list[int]
    """The opponents who accepted so far."""
    consent: str
    """``both`` opponents must accept, or ``one``."""


class FiveHundredPublicView(TypedDict):
    """The part of a 500 view that is the same for every seat and for spectators: built once
    per change and shared by every seat's view (:func:`.view.views`)."""

    game: str
    rules: dict[str, Any]
    """``Rules.to_dict``: the preset and every option."""
    preset: str | None
    players: int
    teams: list[list[int]]
    side_of: list[int]
    """Each seat's index into ``teams``."""
    phase: str
    hand_number: int
    dealer: int
    to_act: int | None
    hand_sizes: list[int]
    bidding: list[SeatBid]
    high_bid: HighBid | None
    ladder: list[LadderRung]
    passed: list[int]
    barred: int | None
    """The seat that may not bid this hand (ralphing), if any."""
    contract: ContractView | None
    called: list[str]
    kitty_size: int
    trick: list[PlayedCard]
    led: str | None
    tricks: list[TrickView]
    tricks_won: list[int]
    scores: list[int]
    history: list[HandView]
    winner: int | None
    claim: ClaimView | None
    """The claim waiting for the opponents' answers (:mod:`.claims`), if any."""


class FiveHundredView(FiveHundredPublicView):
    """Everything one seat (or a spectator) of a 500 table may see: the public part and the
    seat's own."""

    seat: int | None
    hand: list[str] | None
    """The viewer's own cards in display order (``None`` for a spectator)."""
    open_hands: dict[str, list[str]]
    """Other seats' hands played open (misère), by seat number as text."""
    contract_side: list[int]
    """The seats the viewer knows to play for the contract."""
    partners: list[int]
    exchange: list[str] | None
    """The cards the viewer may exchange (kitty and hand) while it is its turn to discard."""
    discards: list[str]
    handed_over: list[str]
    legal_actions: list[str]
    discard_count: int | None
    claims: list[int]
    """The trick counts the seat may claim now (``claim N``), empty when it may not."""
