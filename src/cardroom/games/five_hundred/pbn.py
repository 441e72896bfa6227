"""A 500 match as PBN-style text: one game section per hand, to take a match elsewhere.

:func:`to_pbn` replays a record with the engine and writes, for every hand that was dealt and
ended (misdeals and passed-out deals included, as the score history counts them), a game
section of the Portable Bridge Notation (PBN 2.1): the fifteen mandatory tags, then the
supplemental tags in alphabetical order, the ``Auction`` section, the ``Play`` section and a
``RulesTable`` section. What bridge has no field for (the joker, the kitty, the exchange, the
500 bid itself, points and the match score) goes in tags of its own, so that a bridge program
still reads the standard part; ``docs/pbn.md`` describes every tag.

Four-handed 500 maps onto North, East, South and West exactly (seat 0 is South, clockwise).
Two and three players sit at the same four places with the others empty; five and six
players need places PBN does not have (``NW``, ``NE``, ``SW``, ``SE``), so such files are
not plain PBN (see :data:`TABLES`).

The layout, cards, tags and rows in table order come from :mod:`cardroom.games.pbn`, which
1000's export (:mod:`cardroom.games.thousand.pbn`) shares, so both games write one format.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardroom.games.cards import (
    CARDS,
    JOKERS_MASK,
    Card,
    Suit,
)
from cardroom.games.five_hundred.actions import BID, CALL, JOKER, MISDEAL, PASS, SLAM, Action
from cardroom.games.five_hundred.bids import Bid
from cardroom.games.five_hundred.game import GAME_NAME, Game
from cardroom.games.five_hundred.rules import Rules
from cardroom.games.five_hundred.scoring import HandResult
from cardroom.games.five_hundred.state import BIDDING, PLAYING
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

# -- a 500 hand, as the replay sees it ------------------------------------------------------


@dataclass
class Hand:
    """What one hand of 500 did, gathered action by action: the deal, the calls, the cards
    each seat took in and put out between the bidding and the play, the exchange's other
    choices, the tricks, and the line of the score history that ended it."""

    dealer: int
    hands: list[int]
    kitty: int
    dead: int
    calls: list[tuple[int, str]] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    slam: bool = False
    joker_suit: str | None = None
    called: int = 0
    tricks: list[dict[str, Any]] = field(default_factory=list)
    claim: dict[str, Any] | None = None
    """The ``claim_settled`` event of a hand that ended on a claim."""
    result: HandResult | None = None

    @classmethod
    def dealt(cls, game: Game) -> Hand:
        """The hand just dealt."""
        n = game.players
        return cls(game.dealer, list(game.hands), game.kitty, game.dead,
                   added=[0] * n, removed=[0] * n)

    def note(self, game: Game, seat: int, phase: str, action: Action,
             before: list[int]) -> None:
        """Note ``seat``'s ``action``, taken in ``phase`` with the hands ``before`` it, of a
        hand that goes on after it."""
        if phase == BIDDING and action.kind in (PASS, BID, MISDEAL):
            self.calls.append((seat, call_token(action)))
        self.slam |= action.kind == SLAM
        if action.kind == JOKER and action.nominated is not None:
            self.joker_suit = action.nominated.letter
        if action.kind == CALL:
            self.called |= action.mask
        if phase != PLAYING:
            for each, (old, new) in enumerate(zip(before, game.hands, strict=True)):
                self.added[each] |= new & ~old
                self.removed[each] |= old & ~new


def bid_token(bid: str) -> str:
    """A bid as the auction and the Bid tag write it: ``7H``, ``10NT``, ``7J5``,
    ``Misere``, ``Open-misere`` (500's notation, capitalised: a PBN call token)."""
    return bid[0].upper() + bid[1:]


def call_token(action: Action) -> str:
    """A call of the auction: ``Pass``, a bid (:func:`bid_token`) or ``Misdeal``."""
    return bid_token(action.bid.text) if action.bid is not None else action.kind.capitalize()


def trick_in_progress(game: Game) -> dict[str, Any] | None:
    """The trick being played, as a trick event has it (without a winner), or ``None``: the
    cards a claim made in the middle of a trick leaves on the table belong to the play."""
    if not game.trick:
        return None
    trick: dict[str, Any] = {"leader": game.trick_seats[0], "seats": list(game.trick_seats),
                             "cards": [CARDS[index].text for index in game.trick]}
    if game.nominated is not None:
        trick["nominated"] = game.nominated.letter
    return trick


def played_hands(record: Record) -> list[Hand]:
    """Replay ``record`` and gather every hand that was dealt and ended (``ValueError`` if
    the record is not of 500 or does not replay)."""
    game = Game.replay(replace(record, actions=[], seats=[]))
    hands: list[Hand] = []
    hand = Hand.dealt(game)
    for text in record.actions:
        seat, phase, before, ended = game.to_act, game.phase, list(game.hands), len(game.history)
        if seat is None:
            raise ValueError(f"the record goes on after the match is over: {text}")
        in_progress = trick_in_progress(game)
        events = game.apply(text)
        hand.tricks += [event for event in events if event["type"] == "trick"]
        settled = next((e for e in events if e["type"] == "claim_settled"), None)
        if settled is not None:
            hand.claim = settled
            hand.tricks += [in_progress] if in_progress is not None else []
        if len(game.history) == ended:
            hand.note(game, seat, phase, game.actions[-1], before)
            continue
        if phase == BIDDING:
            hand.calls.append((seat, call_token(game.actions[-1])))
        hand.result = game.history[-1]
        hands.append(hand)
        hand = Hand.dealt(game)
    return hands


# -- a 500 hand as a PBN section --------------------------------------------------------------


def contract_tags(table: Table, hand: Hand) -> dict[str, str]:
    """Declarer, Contract and Result: the contract's denomination alone (the form PBN gives
    deals of fewer than thirteen cards; misère and the like are played in no trumps) and the
    tricks the contract's side took; ``Pass`` and empty values when nobody bid, all empty
    after a misdeal."""
    result = hand.result
    assert result is not None
    if result.contract is None or result.contractor is None:
        misdealt = bool(hand.calls) and hand.calls[-1][1] == "Misdeal"
        return {"Declarer": "", "Contract": "" if misdealt else "Pass", "Result": ""}
    trump = Bid.parse(result.contract).trump
    taken = sum(result.tricks[seat] for seat in result.contract_side)
    return {"Declarer": table.seats[result.contractor],
            "Contract": "NT" if trump is None else trump.letter, "Result": str(taken)}


def play_section(table: Table, tricks: Sequence[dict[str, Any]]) -> tuple[str, list[str],
                                                                            list[str]]:
    """The Play section of a hand's tricks (events of the engine), with a note wherever
    the joker was led in no trumps naming a suit."""
    notes = Notes()
    played = []
    for trick in tricks:
        cards = []
        for seat, text in zip(trick["seats"], trick["cards"], strict=True):
            token = card_token(Card.parse(text))
            if seat == trick["leader"] and "nominated" in trick:
                suit = Suit.parse(trick["nominated"]).name.lower()
                token += " " + notes.refer(f"{token} led naming {suit}")
            cards.append((seat, token))
        played.append(cards)
    leader, lines = trick_lines(table, tricks[0]["leader"], played)
    return leader, lines, list(notes)


def exchange_tags(table: Table, hand: Hand) -> dict[str, str]:
    """The cards each seat took in and put out between the bidding and the play (the 500
    app's CardsAdded and CardsRemoved), and what else the exchange settled: a slam call, the
    joker's suit in no trumps."""
    tags = {"CardsAdded": placed_cards(table, hand.added),
            "CardsRemoved": placed_cards(table, hand.removed)}
    if hand.slam:
        tags["Slam"] = "Yes"
    if hand.joker_suit is not None:
        tags["JokerSuit"] = hand.joker_suit
    return tags


def hand_section(record: Record, rules: Rules, hand: Hand, shared: dict[str, str]) -> Section:
    """The game section of one hand: ``shared`` holds the tags every hand has alike."""
    result = hand.result
    assert result is not None
    table = TABLES[rules.players]
    mandatory = {**shared, **board_tags(table, result.number, hand.dealer, hand.hands),
                 **contract_tags(table, hand)}
    extra = {"Bid": bid_token(result.contract) if result.contract else "",
             "Description": result.summary,
             "GameCode": "FiveHundred", "Generator": f"cardroom, seed {record.seed}",
             "MatchScore": sides_value(table, rules.teams, result.scores),
             "Score": sides_value(table, rules.teams, result.points),
             "Tricks": seats_value(table, result.tricks),
             "Undealt": cards_value(hand.kitty), **exchange_tags(table, hand)}
    if rules.deck_spec.jokers:
        extra["Joker"] = placed_cards(table, hand.hands, JOKERS_MASK)
    if hand.dead:
        extra["Dead"] = cards_value(hand.dead)
    if hand.claim is not None:
        claim = hand.claim
        extra["Claim"] = (f"{table.seats[claim['seat']]}:{claim['tricks']} of "
                          f"{claim['tricks'] + claim['conceded']}")
    if hand.called:
        extra["Called"] = cards_value(hand.called)
        extra["Side"] = " ".join(table.seats[seat] for seat in result.contract_side)
    section = Section(mandatory, extra)
    section.auction = auction_rows(table, hand.calls)
    if hand.tricks:
        section.play = play_section(table, hand.tricks)
    return section


def to_pbn(record: Record, names: Sequence[str] | None = None, event: str = "",
           site: str = "", date: str = "") -> str:
    """The match of a 500 ``record`` as PBN text: a game section per hand that was dealt and
    ended, in order (a match cut short leaves its unfinished hand out).

    ``names`` are the players by seat (``?`` when not given); ``event``, ``site`` and
    ``date`` (``YYYY.MM.DD`` or ``YYYY-MM-DD``) fill PBN's tags of the same names.
    ``ValueError`` if the record is not of 500, does not replay, or the names or date do
    not fit.
    """
    if record.game != GAME_NAME:
        raise ValueError(f"not a 500 record: game {record.game!r}")
    rules = Rules.from_dict(record.rules)
    return match_text(record, rules, names, event, site, date, lambda shared: (
        hand_section(record, rules, hand, shared) for hand in played_hands(record)))
