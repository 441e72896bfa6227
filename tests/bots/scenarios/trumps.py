"""Trumps in a suit contract: a contractor without the joker draws trumps from the top, not
with its lowest ones; the joker is held as the last trump."""

from __future__ import annotations

from tests.bots.scenarios.scenario import ending

DRAW = "draw trumps from the top"
LAST = "the joker as the last trump"

EIGHT_HEARTS = ("bid 8H", "pass", "pass", "pass")
EIGHT_SPADES = ("bid 8S", "pass", "pass", "pass")
SEVEN_DIAMONDS = ("bid 7D", "pass", "pass", "pass")

POSITIONS = [
    ending("hearts, draw with the right bower", DRAW, ["JH", "JD", "AH"],
           "without the joker the contractor leads its top trumps: the 9H would let a small "
           "trump win the trick and keep the joker besides",
           bids=EIGHT_HEARTS, active=(0, 1, 2, 3), first=0,
           cards={0: "JH JD AH 9H AS KS 4C", 1: "JK 10H 5H QS 7C 8C 4D",
                  2: "6H 4S 5S 6D 7D 8D 5C", 3: "QH 8H 9S 10S 9C 10C 5D"},
           winners=(0, 0, 0)),
    ending("spades, draw with the bowers", DRAW, ["JS", "JC", "AS"],
           "the joker is out against it: the bowers draw two trumps a round, the 6S lets the "
           "KS or 10S win cheaply",
           bids=EIGHT_SPADES, active=(0, 1, 2, 3), first=0,
           cards={0: "JS JC AS 8S 6S AD KD", 1: "JK QS 7S 5S 9D 8C 9C",
                  2: "4D 5D 7H 8H 9H 4C 5C", 3: "KS 10S 4S 10D JD 10C QC"},
           winners=(0, 0, 0)),
    ending("diamonds, draw from the top", DRAW, ["JD", "JH"],
           "the contractor holds the bowers without the joker: leading them draws the "
           "defenders' small trumps, a low diamond lets one win",
           bids=SEVEN_DIAMONDS, active=(0, 1, 2, 3), first=0,
           cards={0: "JD JH QD 7D 5D AC KC", 1: "JK AD 6D 4D 9S 10S JS",
                  2: "4C 5C 8H 9H 4H 5H 6H", 3: "KD 8D QS KS AS 9C 10C"},
           winners=(0, 0, 0)),
    ending("hearts, keep the joker behind the bowers", LAST, ["JH", "JD"],
           "the bowers draw as well as the joker: keep the joker as the last trump to "
           "take back the lead when the defenders' long suit comes",
           bids=EIGHT_HEARTS, active=(0, 1, 2, 3), first=0,
           cards={0: "JK JH JD AS KS QS 4C", 1: "AH KH 8C 9C 10C JC 4D",
                  2: "5H 6H 9H 6D 7D 4S 5S", 3: "QC KC AC 8D 9D 10D 6S"},
           winners=(0, 0, 0)),
    ending("spades, ruff with the small trump, not the joker", LAST, ["5S"],
           "the 5S takes the club as surely as the joker does; the joker stays as the last "
           "trump, to beat the defenders' bowers later",
           bids=EIGHT_SPADES, active=(0, 1, 2, 3), first=0,
           cards={0: "JK 5S AH KH QH", 1: "AC 9C JS 4H 5H", 2: "4C 6H 7H 8H 4D",
                  3: "KC 7C JC 9D 10D"},
           winners=(1, 1, 2, 2, 1), opening=["AC", "4C", "7C"]),
]

# The same positions with hearts and diamonds, spades and clubs exchanged (the bowers
# follow the trump colour): each is the same problem in other suits.
POSITIONS += [
    ending("diamonds, draw with the right bower", DRAW, ["AD", "JD", "JH"],
           "without the joker the contractor leads its top trumps: the 9D would let a small "
           "trump win the trick and keep the joker besides",
           bids=("bid 8D", "pass", "pass", "pass"), active=(0, 1, 2, 3), first=0,
           cards={0: "JD JH AD 9D AC KC 4S",
                  1: "JK 10D 5D QC 7S 8S 4H",
                  2: "6D 4C 5C 6H 7H 8H 5S",
                  3: "QD 8D 9C 10C 9S 10S 5H"},
           winners=(0, 0, 0)),
    ending("clubs, draw with the bowers", DRAW, ["AC", "JC", "JS"],
           "the joker is out against it: the bowers draw two trumps a round, the 6C lets the "
           "KC or 10C win cheaply",
           bids=("bid 8C", "pass", "pass", "pass"), active=(0, 1, 2, 3), first=0,
           cards={0: "JC JS AC 8C 6C AH KH",
                  1: "JK QC 7C 5C 9H 8S 9S",
                  2: "4H 5H 7D 8D 9D 4S 5S",
                  3: "KC 10C 4C 10H JH 10S QS"},
           winners=(0, 0, 0)),
    ending("diamonds, keep the joker behind the bowers", LAST, ["JD", "JH"],
           "the bowers draw as well as the joker: keep the joker as the last trump to take "
           "back the lead when the defenders' long suit comes",
           bids=("bid 8D", "pass", "pass", "pass"), active=(0, 1, 2, 3), first=0,
           cards={0: "JK JD JH AC KC QC 4S",
                  1: "AD KD 8S 9S 10S JS 4H",
                  2: "5D 6D 9D 6H 7H 4C 5C",
                  3: "QS KS AS 8H 9H 10H 6C"},
           winners=(0, 0, 0)),
    ending("clubs, ruff with the small trump, not the joker", LAST, ["5C"],
           "the 5C takes the spade as surely as the joker does; the joker stays as the last "
           "trump, to beat the defenders' bowers later",
           bids=("bid 8C", "pass", "pass", "pass"), active=(0, 1, 2, 3), first=0,
           cards={0: "JK 5C AD KD QD",
                  1: "AS 9S JC 4D 5D",
                  2: "4S 6D 7D 8D 4H",
                  3: "KS 7S JS 9H 10H"},
           winners=(1, 1, 2, 2, 1), opening=["AS", "4S", "7S"]),
]
