"""A 1000 match as PBN-style text: one game section per deal, in the form 500's export uses.

:func:`to_pbn` replays a record with the engine and writes, for every deal that was dealt and
ended (passed-out deals included, as the score history counts them), a PBN game section like
500's, with the card, tag and layout helpers both share (:mod:`cardroom.games.pbn`), so that
both games write one format; ``docs/pbn.md`` describes every tag.

Three players sit at South, West and East (the terminal's places), North left empty; with
four, the dealer deals and sits the deal out, holding nothing. The 24-card pack (nine to ace)
is all in PBN's ranks, so the Deal, Auction and Play sections stay PBN; what bridge has no
field for goes in tags of its own: the bank (``Undealt``), bids and the final bet in points,
the cards taken in and put out, marriages, card points, the deal's points and penalties, the
match score and the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from cardroom.games.pbn import (
    TABLES,
    Notes,
    Section,
    Table,
    auction_rows,
    board_tags,
    card_token,
    cards_value,
    match_text,
    placed_cards,
    seats_value,
    sides_value,
    trick_lines,
)
from cardroom.games.record import Record
from cardroom.games.thousand.actions import BID, PASS, PLAY, Action
from cardroom.games.thousand.deck import MARRIAGE_POINTS
from cardroom.games.thousand.game import GAME_NAME, Game
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.scoring import HandResult
from cardroom.games.thousand.state import BIDDING, PLAYING


@dataclass
class Deal:
    """What one deal of 1000 did, gathered action by action: the deal and its bank, the
    calls, the cards each seat took in and put out before the play, the tricks (seat and
    card token of each card, a note where a marriage was declared) and the line of the
    score history that ended it."""

    dealer: int
    hands: list[int]
    bank: int
    players: int
    """Seats that play the deal (a fourth player deals and sits out)."""
    calls: list[tuple[int, str]] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    tricks: list[list[tuple[int, str]]] = field(default_factory=list)
    leader: int | None = None
    marriages: list[tuple[int, str]] = field(default_factory=list)
    notes: Notes = field(default_factory=Notes)
    result: HandResult | None = None

    @classmethod
    def dealt(cls, game: Game) -> Deal:
        """The deal just dealt."""
        n = game.players
        return cls(game.dealer, list(game.hands), game.bank, len(game.active),
                   added=[0] * n, removed=[0] * n)

    def note(self, game: Game, seat: int, phase: str, action: Action,
             before: list[int], ended: bool) -> None:
        """Note ``seat``'s ``action``, taken in ``phase`` with the hands ``before`` it
        (``ended``: the action ended the deal)."""
        if phase == BIDDING and action.kind in (PASS, BID):
            self.calls.append((seat, call_token(action)))
        if action.kind == PLAY:
            self.played(seat, action)
        elif phase != PLAYING and not ended:
            for each, (old, new) in enumerate(zip(before, game.hands, strict=True)):
                self.added[each] |= new & ~old
                self.removed[each] |= old & ~new

    def played(self, seat: int, action: Action) -> None:
        """A card played: a new trick when the last one is full, a note for a marriage
        declared."""
        if self.leader is None:
            self.leader = seat
        token = card_token(action.cards[0])
        if action.marriage:
            suit = action.cards[0].suit
            assert suit is not None
            self.marriages.append((seat, suit.letter))
            token += " " + self.notes.refer(
                f"{token} declares the marriage of {suit.name.lower()} "
                f"({MARRIAGE_POINTS[suit]})")
        if not self.tricks or len(self.tricks[-1]) == self.players:
            self.tricks.append([])
        self.tricks[-1].append((seat, token))


def call_token(action: Action) -> str:
    """A call of the auction as a PBN call token: ``Pass``, ``120``, or ``120-blind`` for a
    bid made before looking."""
    if action.kind == PASS:
        return "Pass"
    return f"{action.value}-blind" if action.blind else str(action.value)


def played_deals(record: Record) -> list[Deal]:
    """Replay ``record`` and gather every deal that was dealt and ended (``ValueError`` if
    the record is not of 1000 or does not replay)."""
    game = Game.replay(replace(record, actions=[], seats=[]))
    deals: list[Deal] = []
    deal = Deal.dealt(game)
    for text in record.actions:
        seat, phase, before, ended = game.to_act, game.phase, list(game.hands), len(game.history)
        if seat is None:
            raise ValueError(f"the record goes on after the match is over: {text}")
        game.apply(text)
        finished = len(game.history) > ended
        deal.note(game, seat, phase, game.actions[-1], before, finished)
        if finished:
            deal.result = game.history[-1]
            deals.append(deal)
            deal = Deal.dealt(game)
    return deals


def contract_tags(table: Table, result: HandResult) -> dict[str, str]:
    """Declarer, Contract and Result: every deal starts without trumps (marriages name them
    during the play), so the contract is ``NT``; the result is the contractor's tricks.
    ``Pass`` and empty values when nobody bid."""
    if result.contractor is None:
        return {"Declarer": "", "Contract": "Pass", "Result": ""}
    return {"Declarer": table.seats[result.contractor], "Contract": "NT",
            "Result": str(result.tricks[result.contractor])}


def points_tags(table: Table, result: HandResult) -> dict[str, str]:
    """The deal's numbers: card points won, the contractor's total, the deal's points, any
    penalty, the match score after it, tricks per seat."""
    players = [(seat,) for seat in range(len(table.seats))]
    tags = {"CardPoints": seats_value(table, result.card_points),
            "MatchScore": sides_value(table, players, result.scores),
            "Score": sides_value(table, players, result.points),
            "Tricks": seats_value(table, result.tricks)}
    if result.taken is not None:
        tags["Taken"] = str(result.taken)
    if result.penalties:
        tags["Penalties"] = " ".join(
            f"{table.seats[penalty['seat']]}:{penalty['kind']} {penalty['points']}"
            for penalty in result.penalties)
    return tags


def deal_section(record: Record, rules: Rules, deal: Deal, shared: dict[str, str]) -> Section:
    """The game section of one deal: ``shared`` holds the tags every deal has alike."""
    result = deal.result
    assert result is not None
    table = TABLES[rules.players]
    mandatory = {**shared, **board_tags(table, result.number, deal.dealer, deal.hands),
                 **contract_tags(table, result)}
    bid = "" if result.bid is None else f"{result.bid}{'-blind' if result.blind else ''}"
    extra = {"Bet": "" if result.bet is None else str(result.bet), "Bid": bid,
             "CardsAdded": placed_cards(table, deal.added),
             "CardsRemoved": placed_cards(table, deal.removed),
             "Description": result.summary, "GameCode": "Thousand",
             "Generator": f"cardroom, seed {record.seed}",
             "Marriages": " ".join(f"{table.seats[seat]}:{suit}"
                                   for seat, suit in deal.marriages),
             "Undealt": cards_value(deal.bank), **points_tags(table, result)}
    section = Section(mandatory, extra)
    section.auction = auction_rows(table, deal.calls)
    if deal.tricks and deal.leader is not None:
        leader, lines = trick_lines(table, deal.leader, deal.tricks)
        section.play = (leader, lines, list(deal.notes))
    return section


def to_pbn(record: Record, names: Sequence[str] | None = None, event: str = "",
           site: str = "", date: str = "") -> str:
    """The match of a 1000 ``record`` as PBN text: a game section per deal that was dealt
    and ended, in order (a match cut short leaves its unfinished deal out).

    ``names`` are the players by seat (``?`` when not given); ``event``, ``site`` and
    ``date`` (``YYYY.MM.DD`` or ``YYYY-MM-DD``) fill PBN's tags of the same names.
    ``ValueError`` if the record is not of 1000, does not replay, or the names or date do
    not fit.
    """
    if record.game != GAME_NAME:
        raise ValueError(f"not a 1000 record: game {record.game!r}")
    rules = Rules.from_dict(record.rules)
    return match_text(record, rules, names, event, site, date, lambda shared: (
        deal_section(record, rules, deal, shared) for deal in played_deals(record)))

