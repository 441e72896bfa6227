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
