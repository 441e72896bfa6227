"""No trumps: lead from the long suit rather than a singleton; with two cards left, lead the
joker naming the suit that draws out the card standing over the other one."""

from __future__ import annotations

from tests.bots.scenarios.scenario import ending

LONG = "no trumps: lead the long suit"
JOKER = "no trumps: lead the joker with two cards left"

CLASSIC_NT = ("bid 7NT", "pass", "pass", "pass")
ONLINE_NT = ("bid 7NT", "pass", "pass", "pass")

POSITIONS = [
    ending("call clubs to draw the king over the queen", JOKER, ["JK:C"],
           "led naming clubs, the joker makes the king fall, and the queen takes the last "
           "trick; played first, the queen loses to the king",
           preset="classic", bids=CLASSIC_NT, active=(0, 1, 2, 3), first=0,
           cards={0: "JK QC", 1: "KC AH", 2: "5D 6S", 3: "7D 8S"},
           winners=(0, 0, 0, 0, 0, 0, 0, 0)),
    ending("defender calls hearts to draw the ace over the king", JOKER, ["JK:H"],
           "the joker naming hearts draws the contractor's ace, and the king takes the last "
           "trick; naming another suit lets the contractor keep the ace over it",
           preset="classic", bids=CLASSIC_NT, active=(0, 1, 2, 3), first=0,
           cards={1: "JK KH", 0: "AH 5S", 2: "6D 7C", 3: "8D 9C"},
           winners=(0, 1, 1, 0, 1, 0, 1, 1)),
    ending("call spades to draw the ace over the nine", JOKER, ["JK:S"],
           "the joker naming spades makes the ace fall, so the 9S wins the last trick",
           bids=ONLINE_NT, active=(0, 1, 2, 3), first=0,
           cards={0: "JK 9S", 1: "AS 4H", 2: "5C 6D", 3: "7C 8D"},
           winners=(0, 0, 0, 0, 0, 0, 0, 0)),
    ending("defender calls hearts to draw the jack over the ten", JOKER, ["JK:H"],
           "the joker naming hearts makes the contractor's jack fall, so the 10H takes the "
           "last trick",
           bids=ONLINE_NT, active=(0, 1, 2, 3), first=0,
           cards={1: "JK 10H", 0: "JH 5C", 2: "4S 6D", 3: "6S 7D"},
           winners=(1, 0, 1, 0, 1, 0, 1, 1)),
]

EIGHT_NT = ("bid 8NT", "pass", "pass", "pass")

POSITIONS += [
    ending("lead the long spades, not the singleton club", LONG,
           ["KS", "QS", "JS", "10S", "9S", "AH", "KH", "AD"],
           "the spades, once the ace is out, are four tricks and the joker stops the clubs "
           "(cashing a red ace first costs nothing); the singleton club gives the defenders "
           "the lead in their long suit, and the joker led is wasted",
           preset="classic", bids=EIGHT_NT, active=(0, 1, 2, 3), first=0,
           cards={0: "JK KS QS JS 10S 9S AH KH AD 5C",
                  1: "AS 7S AC KC QC JC 4H 5H 6D 7D",
                  2: "6S 5S 10C 9C 8C 7C 6C 8D 9D 10D",
                  3: "8S QH JH 10H 9H 8H 7H JD QD KD"},
           winners=()),
]

SEVEN_NT = ("bid 7NT", "pass", "pass", "pass")

POSITIONS += [
    ending("lead the long hearts, not the singleton spade", LONG, ["AH", "KH", "QH"],
           "the hearts from the top draw the defenders' four and leave two more winners, "
           "six tricks with the joker; the 4S hands the defence the lead in its spades",
           bids=EIGHT_NT, active=(0, 1, 2, 3), first=0,
           cards={0: "AH KH QH 6H 5H 4H 4S", 1: "AS KS QS JS 9H 8H 7S",
                  2: "JK 5C 6C 7C 5D 6D 9D", 3: "JH 10H 10S 9S 8S 7D 8D"},
           winners=(0, 0, 0)),
    ending("lead the long diamonds, not the singleton club", LONG,
           ["KD", "QD", "JD", "10D", "AS"],
           "the diamonds, once the ace is out, are four tricks and the joker and the AS "
           "are entries (cashing the AS first costs nothing); the 6C lets the defence run "
           "its clubs before the diamonds are set up",
           bids=SEVEN_NT, active=(0, 1, 2, 3), first=0,
           cards={0: "JK KD QD JD 10D 9D AS 6C", 1: "AD 5D AC KC QC JC 10C 4H",
                  2: "KS QS JS 10S 9S 8S 7S 5H", 3: "4D 6D 8D AH KH QH JH 9C"},
           winners=(0, 0)),
    ending("defender cashes the long clubs, not the singleton heart", LONG,
           ["AC", "KC", "QC", "JC"],
           "the clubs from the top are five tricks for the defence unless the joker stops "
           "them; the 5H hands the contractor the lead, and the defender must then throw "
           "its clubs on the contractor's winners",
           bids=SEVEN_NT, active=(0, 1, 2, 3), first=0,
           cards={1: "AC KC QC JC 9C 5H", 0: "10C AH KH QH JH 4D",
                  2: "AD KD QD AS KS 9H", 3: "6D 7D 8D 5S 6S 8C"},
           winners=(0, 0, 2, 1)),
]

# The same position with hearts and diamonds, spades and clubs exchanged.
POSITIONS += [
    ending("lead the long diamonds from the top, not the singleton club", LONG, ["AD", "KD", "QD"],
           "the diamonds from the top draw the defenders' four and leave two more winners, "
           "six tricks with the joker; the 4C hands the defence the lead in its clubs",
           bids=("bid 8NT", "pass", "pass", "pass"), active=(0, 1, 2, 3), first=0,
           cards={0: "AD KD QD 6D 5D 4D 4C",
                  1: "AC KC QC JC 9D 8D 7C",
                  2: "JK 5S 6S 7S 5H 6H 9H",
                  3: "JD 10D 10C 9C 8C 7H 8H"},
           winners=(0, 0, 0)),
]
