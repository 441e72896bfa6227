"""Small pieces of 500 know-how shared by the bots that play from a seat's view.

They read the legal actions a view offers and the sides of the hand; keeping them here lets
every bot parse the actions and count partners the same way, for every number of players,
without importing another bot's private helpers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.games.cards import Card, Suit
from cardroom.games.five_hundred import Bid, Contract, Strain, strain_for
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView

PAIR_NULLOS = frozenset({Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO,
                         Contract.SHIELDS_DOUBLE, Contract.PATASTROPHE})
"""No-tricks contracts both partners must play without taking a trick."""
TRICKS_PER_HAND = 10
"""Cards in a hand (a dead hand's too)."""
STRAINS: tuple[Suit | None, ...] = (*Suit, None)
"""The strains a trick bid may name: the four suits, then no trumps (``None``)."""


def legal_trick_bids(legal: list[str]) -> list[Bid]:
    """The legal six-to-ten trick bids in a suit or no trumps, in ladder order."""
    bids = [Bid.parse(text[4:]) for text in legal if text.startswith("bid ")]
    return [bid for bid in bids if bid.contract is Contract.TRICKS]


def plays_by_card(legal: list[str]) -> dict[Card, list[str]]:
    """Legal play actions grouped by card (a joker led in no trumps has one per suit)."""
    options: dict[Card, list[str]] = {}
    for text in legal:
        if not text.startswith("play "):
            continue
        card_text = text.split()[1].split(":")[0]
        options.setdefault(Card.parse(card_text), []).append(text)
    return options


def players_of(view: FiveHundredView) -> int:
    """Number of players at the table."""
    return int(view.get("players", 4))


def dead_cards(view: FiveHundredView) -> int:
    """How many cards are dealt to dead hands, out of play all hand, seen by nobody: two
    players get the deal of the players the deck is made for (three or four), and each empty
    seat's hand of ten is dead; none at other tables."""
    return TRICKS_PER_HAND * (DECKS[view["rules"]["deck"]].players - players_of(view))


def team_of(view: FiveHundredView, seat: int) -> list[int]:
    """The seats of ``seat``'s scoring side (just ``seat`` where players keep own scores)."""
    teams = view.get("teams") or [[0, 2], [1, 3]]
    side_of = view.get("side_of") or [s % 2 for s in range(players_of(view))]
    return list(teams[side_of[seat]])


def friends_of(view: FiveHundredView, seat: int) -> frozenset[int]:
    """The seats playing on ``seat``'s side this hand, ``seat`` included, as far as the view
    tells: the fixed team; without teams, the contractor and its known partners, or, for a
    defender, every seat not known to be with the contractor (three players defend together;
    with five, a partner not yet revealed is taken for a defender)."""
    team = team_of(view, seat)
    if len(team) > 1:
        return frozenset(team)
    contract = view.get("contract")
    contractor = contract.get("contractor") if contract else None
    if contractor is None:
        return frozenset({seat})
    side = view.get("contract_side") or [contractor]
    if seat in side:
        return frozenset(side)
    return frozenset(s for s in range(players_of(view)) if s not in side)


DEAD_HAND_PARTNERS = 1.0
"""What the dead hands are worth to a two-handed bidder, counted as partners: the opponent's
ten cards are drawn from twice as many unseen ones (three times with a deck for four), so a
missing top card is against the bidder only half the time or less. Without it the rules bot
valued its ten cards as against three opponents' and passed out about 70% of the deals,
making every trick contract it bid."""


@dataclass(frozen=True)
class PartnerWorth:
    """How many partners a bot counts each helper of its contracts as when it values its
    hand: a teammate in a team of three, and at five players the partners it calls, one
    below the level that calls two and two from it (the rules bot counts each as one; a
    lone teammate is always one)."""

    teammate_of_three: float = 1.0
    """Each of the two teammates of a team of three (six players), whose cards are spread
    over three hands."""
    called: float = 1.0
    """The one partner a five-player contract below eight calls."""
    two_called: float = 1.0
    """The two partners a five-player contract of eight or more calls, together."""


ONE_EACH = PartnerWorth()
"""Every helper counted as one partner (the rules bot's reckoning)."""


def expected_partners(view: FiveHundredView, seat: int, worth: PartnerWorth = ONE_EACH,
                      two_called: bool = False) -> float:
    """How many partners will help a contract ``seat`` wins, by ``worth``: its teammates;
    with five players the called partner, or both when ``two_called``; none with three; with
    two, the dead hands' worth (:data:`DEAD_HAND_PARTNERS`)."""
    mates = len(team_of(view, seat)) - 1
    if mates:
        return mates * (worth.teammate_of_three if mates == 2 else 1.0)
    players = players_of(view)
    if players == 2:
        return DEAD_HAND_PARTNERS
    if players != 5:
        return 0.0
    return worth.two_called if two_called else worth.called


def first_leader(view: FiveHundredView, contractor: int,
                 active: Sequence[int] | None = None) -> int:
    """Who leads the first trick when ``contractor`` wins the bidding: the contractor, or
    under ``dealer_left`` the first seat after the dealer that plays (of ``active``, when
    some sit the hand out)."""
    if view["rules"]["first_lead"] != "dealer_left":
        return contractor
    players = view["players"]
    return next(seat for step in range(1, players + 1)
                if (seat := (view["dealer"] + step) % players) in (active or range(players)))


def calls_of(view: FiveHundredView) -> list[tuple[int, Bid | None]]:
    """The auction so far: each call's seat and bid (``None``: a pass), in order."""
    return [(entry["seat"], None if entry["bid"] == "pass" else Bid.parse(entry["bid"]))
            for entry in view["bidding"]]


def holds_joker(view: FiveHundredView) -> bool:
    """Whether the seat's hand holds a joker."""
    return any(Card.parse(text).is_joker for text in view["hand"] or [])


def contract_bid(view: FiveHundredView) -> Bid | None:
    """The contract of the hand, if one was won."""
    contract = view.get("contract")
    text = contract.get("bid") if contract else None
    return Bid.parse(text) if text else None


def view_strain(view: FiveHundredView) -> Strain:
    """The trick tables the hand is played with: trumps, J5's high jacks, the red-trump-4
    deck's extra trump, a joker named into a suit, a low joker in misère."""
    contract = view.get("contract")
    bid = contract_bid(view)
    trump_text = contract.get("trump") if contract else None
    trump = Suit.parse(trump_text) if trump_text else None
    rules = view["rules"]
    joker_low = bid is not None and bid.is_misere_type and rules.get("joker_low_in_misere",
                                                                      False)
    joker_text = contract.get("joker_suit") if contract else None
    joker_suit = Suit.parse(joker_text) if joker_text else None
    deck = DECKS[rules["deck"]]
    return strain_for(trump, joker_low, jack_high=bid is not None and bid.contract is Contract.J5,
                      colour_four=deck.colour_four, joker_suit=joker_suit)


def makers_of(view: FiveHundredView) -> tuple[int, ...]:
    """Seats that must take no tricks in a no-tricks contract (empty otherwise)."""
    bid = contract_bid(view)
    contract = view.get("contract")
    contractor = contract.get("contractor") if contract else None
    if contract is None or bid is None or not bid.is_misere_type or contractor is None:
        return ()
    if bid.contract in PAIR_NULLOS:
        return tuple(team_of(view, contractor))
    if bid.contract is Contract.ACROSS_THE_CORNER:
        opponent = contract["opponent"]
        assert opponent is not None, "Across The Corner names the contractor's opponent"
        return (contractor, opponent)
    return (contractor,)


def card_to_call(view: FiveHundredView, strain: Strain) -> str:
    """Five players: the call naming the strongest card this seat does not hold and did not
    discard (the top trump missing, or the joker, else the best ace)."""
    discarded = set(view.get("discards") or [])
    calls = [text for text in view["legal_actions"] if text.startswith("call ")]
    wanted = [text for text in calls if text[5:] not in discarded] or calls

    def power(text: str) -> int:
        index = Card.parse(text[5:]).index
        return strain.keys[strain.suit_of[index]][index]

    return max(wanted, key=power)
