"""Bids of 500 and their point values (the Avondale schedule).

A :class:`Bid` is interned and immutable: a number of tricks with a trump suit or no trumps,
or one of the special contracts. Its *value* is fixed by the schedule; its *place in the
bidding order* depends on the rules (misère may sit after the sevens or at its value), so the
order lives in :meth:`cardroom.games.five_hundred.rules.Rules.bid_ladder`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import cast

from cardroom.games.cards import Suit, parsed_already


class Contract(StrEnum):
    """The kinds of contract a bid can make."""

    TRICKS = "tricks"
    """Six to ten tricks with a trump suit or in no trumps."""
    MISERE = "misere"
    """Misère / No Tricks / Nullo: the bidder alone tries to take no trick; partner folds."""
    OPEN_MISERE = "open-misere"
    """Open misère / Spread: misère with the bidder's hand shown after the first trick."""
    NELLO = "nello"
    """Seed 000's Nello: only a side in the hole; partner adds a card to the widow and folds."""
    ACROSS_THE_CORNER = "across-the-corner"
    """Seed 004: a No Tricks duel between the bidder and the opponent who bid No Tricks."""
    ACROSS_THE_TABLE = "across-the-table"
    """Seed 004: both partners play and neither may take a trick; partner picks from discards."""
    BLIND_MISERE = "blind-misere"
    """Misère bid before looking at one's cards (seed 001): only as the bidder's first call."""
    DOUBLE_NULLO = "double-nullo"
    """Double (grand) nullo: both partners play and neither may take a trick (seed 001)."""
    SHIELDS_DOUBLE = "shields-double"
    """Double nullo with the bidder's partner playing open after the first trick (seed 001)."""
    PATASTROPHE = "patastrophe"
    """Open misère for both partners: both play, both hands open after the first trick."""
    HI_LO = "hi-lo"
    """Hi/Lo (5 and 5): the bidder alone must take exactly five tricks; partner folds."""
    J5 = "j5"
    """J5 no trumps: six to ten tricks in no trumps with each jack above its ace."""


MISERE_TYPES = frozenset({Contract.MISERE, Contract.OPEN_MISERE, Contract.NELLO,
                          Contract.ACROSS_THE_CORNER, Contract.ACROSS_THE_TABLE,
                          Contract.BLIND_MISERE, Contract.DOUBLE_NULLO,
                          Contract.SHIELDS_DOUBLE, Contract.PATASTROPHE})
"""Contracts whose makers try to take no tricks (played in no trumps, joker the only trump)."""

SPECIAL_VALUES = {
    Contract.MISERE: 250,
    Contract.OPEN_MISERE: 500,
    Contract.NELLO: 250,
    Contract.ACROSS_THE_CORNER: 250,
    Contract.ACROSS_THE_TABLE: 500,
    Contract.BLIND_MISERE: 1000,
    Contract.DOUBLE_NULLO: 500,
    Contract.SHIELDS_DOUBLE: 750,
    Contract.PATASTROPHE: 1000,
    Contract.HI_LO: 350,
}
"""Point values of the special contracts (RULES.md 1.5). Where the sources give none the
value is decided here: blind misère 1000 (twice open misère: the bidder has not seen the
cards), Shields double 750 (between double nullo, 500, and patastrophe, 1000, since one of
its two hands plays open)."""

SPECIAL_NAMES = {
    Contract.MISERE: "misère (No Tricks)",
    Contract.OPEN_MISERE: "open misère (Spread)",
    Contract.NELLO: "Nello",
    Contract.ACROSS_THE_CORNER: "Across The Corner",
    Contract.ACROSS_THE_TABLE: "Across The Table",
    Contract.BLIND_MISERE: "blind misère",
    Contract.DOUBLE_NULLO: "double nullo",
    Contract.SHIELDS_DOUBLE: "Shields double",
    Contract.PATASTROPHE: "patastrophe",
    Contract.HI_LO: "Hi/Lo (5 and 5)",
}

STRAIN_NAMES = {None: "no trumps", Suit.SPADES: "spades", Suit.CLUBS: "clubs",
                Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts"}


class Bid:
    """One bid. Interned: compare with ``==`` or ``is``; hashable; ``str`` gives its notation.

    ``Bid.parse("7H")``, ``Bid.parse("8NT")``, ``Bid.parse("misere")``. For trick bids
    ``tricks`` is 6…10 and ``trump`` the suit or ``None`` for no trumps (J5 bids, ``7J5``, are
    trick bids in no trumps with the jacks on top, valued as no trumps); for special contracts
    ``tricks`` is 0 (Hi/Lo's five is in its scoring) and ``trump`` is ``None``.
    """

    __slots__ = ("contract", "is_misere_type", "is_trick_bid", "name", "text", "tricks",
                 "trump", "value")

    contract: Contract
    tricks: int
    trump: Suit | None
    value: int
    text: str
    name: str
    is_misere_type: bool
    """True for contracts whose makers must take no tricks."""
    is_trick_bid: bool
    """True for six-to-ten trick bids (suits, no trumps and J5 no trumps)."""

    def __init__(self, contract: Contract, tricks: int = 0, trump: Suit | None = None) -> None:
        self.contract = contract
        self.tricks = tricks
        self.trump = trump
        self.is_misere_type = contract in MISERE_TYPES
        self.is_trick_bid = contract is Contract.TRICKS or contract is Contract.J5
        if contract is Contract.TRICKS:
            strain_rank = 4 if trump is None else int(trump)
            self.value = 40 + 100 * (tricks - 6) + 20 * strain_rank
            self.text = f"{tricks}{'NT' if trump is None else trump.letter}"
            self.name = f"{tricks} {STRAIN_NAMES[trump]}"
        elif contract is Contract.J5:
            self.value = 120 + 100 * (tricks - 6)
            self.text = f"{tricks}J5"
            self.name = f"{tricks} J5 no trumps"
        else:
            self.value = SPECIAL_VALUES[contract]
            self.text = contract.value
            self.name = SPECIAL_NAMES[contract]

    @staticmethod
    def parse(text: str | Bid) -> Bid:
        """Parse ``7H``, ``7♥``, ``7 hearts``, ``8NT``, ``misere``, ``spread`` …; ``ValueError``."""
        done = parsed_already(text, Bid, "a bid")
        if done is not None:
            return done
        key = re.sub(r"[\s_]+", "-", cast(str, text).strip().lower()).replace("è", "e")
        if key in _SPECIAL_WORDS:
            return _SPECIAL_WORDS[key]
        match = re.fullmatch(r"(6|7|8|9|10)-?(.+)", key)
        if match:
            strain = match[2]
            if strain in ("nt", "no-trumps", "no-trump", "notrumps", "n"):
                return TRICK_BIDS[(int(match[1]), None)]
            if strain in ("j5", "j5nt", "j5-no-trumps"):
                return J5_BIDS[int(match[1])]
            try:
                return TRICK_BIDS[(int(match[1]), Suit.parse(strain))]
            except ValueError:
                pass
        raise ValueError(f"not a bid: {text!r} (e.g. 7H, 8NT, misere, open-misere)")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Bid({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Bid.parse, (self.text,))


TRICK_BIDS: dict[tuple[int, Suit | None], Bid] = {
    (tricks, trump): Bid(Contract.TRICKS, tricks, trump)
    for tricks in range(6, 11)
    for trump in (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)
}
"""Every trick bid, by (tricks, trump or None)."""

J5_BIDS: dict[int, Bid] = {tricks: Bid(Contract.J5, tricks) for tricks in range(6, 11)}
"""The J5 no-trumps bids, by tricks."""

SPECIAL_BIDS: dict[Contract, Bid] = {kind: Bid(kind) for kind in SPECIAL_VALUES}
"""Every special-contract bid, by contract kind."""

_SPECIAL_WORDS = {
    "misere": SPECIAL_BIDS[Contract.MISERE],
    "no-tricks": SPECIAL_BIDS[Contract.MISERE],
    "nullo": SPECIAL_BIDS[Contract.MISERE],
    "open-misere": SPECIAL_BIDS[Contract.OPEN_MISERE],
    "spread": SPECIAL_BIDS[Contract.OPEN_MISERE],
    "lay-down-misere": SPECIAL_BIDS[Contract.OPEN_MISERE],
    "nello": SPECIAL_BIDS[Contract.NELLO],
    "across-the-corner": SPECIAL_BIDS[Contract.ACROSS_THE_CORNER],
    "across-the-table": SPECIAL_BIDS[Contract.ACROSS_THE_TABLE],
    "blind-misere": SPECIAL_BIDS[Contract.BLIND_MISERE],
    "double-nullo": SPECIAL_BIDS[Contract.DOUBLE_NULLO],
    "grand-nullo": SPECIAL_BIDS[Contract.DOUBLE_NULLO],
    "shields-double": SPECIAL_BIDS[Contract.SHIELDS_DOUBLE],
    "patastrophe": SPECIAL_BIDS[Contract.PATASTROPHE],
    "hi-lo": SPECIAL_BIDS[Contract.HI_LO],
    "hi/lo": SPECIAL_BIDS[Contract.HI_LO],
    "5-and-5": SPECIAL_BIDS[Contract.HI_LO],
}


def bid_value(bid: Bid | str) -> int:
    """The Avondale point value of a bid: ``bid_value("7S") == 140``."""
    return Bid.parse(bid).value


def level_of(bid: Bid) -> str:
    """A contract's level as tallies show it (the arena, players' profiles): a trick bid's
    number of tricks (``"6"`` … ``"10"``, whatever the strain), else the kind of contract
    (``"misere"`` …)."""
    return str(bid.tricks) if bid.is_trick_bid else bid.contract.value
