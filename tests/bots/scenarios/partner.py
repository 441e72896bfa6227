"""Not overtaking a partner's sure winner: the trick is the side's already, and the card
saved takes a trick later."""

from __future__ import annotations

from tests.bots.scenarios.scenario import ending

OVERTAKE = "do not overtake the partner"

POSITIONS = [
    ending("fourth hand keeps the ace under the partner's king", OVERTAKE, ["7D"],
           "the partner's KD already wins the trick; the 7D keeps the AD to beat the "
           "contractor's QD later",
           bids=("bid 7NT", "pass", "pass", "pass"), active=(0, 1, 2, 3), first=0,
           cards={2: "5D 8D 9C", 3: "KD 4S 5H", 0: "6D QD AS", 1: "AD 7D 6S"},
           winners=(0, 2, 0, 2, 0, 2, 2), opening=["5D", "KD", "6D"]),
]

EIGHT_SPADES = ("bid 8S", "pass", "pass", "pass")
SEVEN_NT = ("bid 7NT", "pass", "pass", "pass")

POSITIONS += [
    ending("contractor keeps the ace under the partner's king", OVERTAKE, ["7D"],
           "the joker and the AD are in this hand, so the partner's KD cannot be beaten: the "
           "7D lets it win, and the AD takes the next diamond",
           bids=SEVEN_NT, active=(0, 1, 2, 3), first=0,
           cards={2: "KD 9D QC JC 10C", 3: "10D 6D KH QH JH", 0: "JK AD 7D AS 5H",
                  1: "QD JD 4H 6H 7H"},
           winners=(0, 2, 0, 2, 2), opening=["KD", "10D"]),
    ending("fourth hand keeps the ace under the partner's heart king", OVERTAKE, ["8H"],
           "fourth to play, the defender sees the partner's KH win the trick: the 8H keeps "
           "the AH to beat the QH the contractor must lead at the end; the AH would take the "
           "lead to a hand with only losing spades to lead",
           bids=SEVEN_NT, active=(0, 1, 2, 3), first=0,
           cards={0: "6H QH AS KS", 1: "KH 5S 6S 9D", 2: "7H 4D 8C 8S", 3: "AH 8H 7C 7S"},
           winners=(0, 1, 0, 1, 0, 0), opening=["6H", "KH", "7H"]),
    ending("contractor keeps the heart ace under the partner's king", OVERTAKE, ["7H"],
           "with the suits exchanged: the joker and the AH are in this hand, so the "
           "partner's KH cannot be beaten; the 7H lets it win, and the AH takes the next "
           "heart",
           bids=SEVEN_NT, active=(0, 1, 2, 3), first=0,
           cards={2: "KH 9H QS JS 10S", 3: "10H 6H KD QD JD", 0: "JK AH 7H AC 5D",
                  1: "QH JH 4D 6D 7D"},
           winners=(0, 2, 0, 2, 2), opening=["KH", "10H"]),
]
