"""Defending misère and open misère: lead the suits the maker has shown, not those it is
void in; duck under the maker's cards; never take a trick with the joker when that hands the
lead away from the partner who can set the maker."""

from __future__ import annotations

from tests.bots.scenarios.scenario import ending

ONLINE = ("bid misere", "pass", "pass", "pass")
"""Seat 0 bids No Tricks; seat 2 folds and seats 1 and 3 defend (seat 0 leads first)."""
AUSTRALIAN = ("bid 7S", "bid misere", "pass", "pass", "pass")
"""Seat 1 bids misère over a seven; seat 3 folds and seats 0 and 2 defend."""
ONLINE_OPEN = ("bid misere", "bid open-misere", "pass", "pass", "pass")
"""Seat 1 bids Spread, shown after the first trick; seats 0 and 2 defend."""
AUSTRALIAN_OPEN = ("bid open-misere", "pass", "pass", "pass")
"""Seat 0 bids open misère; seats 1 and 3 defend."""

LEAD = "misère: lead the maker's suits"
DUCK = "misère: duck under the maker"
JOKER = "misère: the joker keeps partner on lead"
OPEN = "open misère"

POSITIONS = [
    ending("no tricks, lead the suit the maker followed", LEAD, ["7D", "8D"],
           "the maker showed out of clubs and followed diamonds low: a diamond makes it play "
           "one, a club lets it throw its dangerous card",
           bids=ONLINE, active=(0, 1, 3), first=0,
           cards={0: "KD 4D 5H 6H 4S 5S", 1: "9C JC 8C 7D 8D 6D", 3: "10C 5D 9D 7S 8S QC"},
           winners=(3, 1, 3, 1), opening=["9C", "10C", "5H", "5D", "4D", "6D"]),
    ending("misère, lead the suit the maker followed", LEAD, ["6S"],
           "the maker threw a club on a heart and followed spades low: only a spade can catch "
           "it, a heart lets it throw its high spade",
           bids=AUSTRALIAN, active=(0, 1, 2), first=1, preset="australian",
           cards={0: "8H 7S 10S AD KC", 1: "10C 5S QS 9D 7C", 2: "9H 8S 10H JH 6S"},
           winners=(0, 2, 0, 2, 0), opening=["8H", "10C", "9H", "8S", "7S", "5S"]),
    ending("no tricks, lead hearts, not the spades it is void in", LEAD, ["6H"],
           "the maker threw a diamond on spades and followed hearts with its 4H: a spade lead "
           "lets it throw its high heart, the 6H makes it play that heart",
           bids=ONLINE, active=(0, 1, 3), first=0,
           cards={0: "10D 4H QH 5C 6C", 1: "10S 5H AS 4D 7C", 3: "9S 7H 8S JS 6H"},
           winners=(1, 3, 1, 1, 3), opening=["9S", "10D", "10S", "5H", "7H", "4H"]),
]
POSITIONS += [
    ending("no tricks, lead clubs, not the diamonds it is void in", LEAD, ["7C", "8C"],
           "the maker threw a heart on diamonds and followed clubs with its 4C: a club makes "
           "it follow again, a diamond lets it throw its high club",
           bids=ONLINE, active=(0, 1, 3), first=0,
           cards={0: "8H 4C QC 9H 10S 5S", 1: "9D 6C 7C 8C 6D 8D", 3: "10D 5C JC 7S 6S 4H"},
           winners=(3, 1, 3, 1), opening=["9D", "10D", "8H", "5C", "4C", "6C"]),
    ending("no tricks, third hand ducks under the maker's club", DUCK, ["7C"],
           "the maker's 9C beats the 6C led: the 7C ducks under it so that the maker takes "
           "the trick, the 10C would take it for the defence",
           bids=ONLINE, active=(0, 1, 3), first=0,
           cards={3: "6C JD 9H 6S", 0: "9C 4D 7H 8S", 1: "7C 10C 8H 5S"},
           winners=(1, 3, 1, 1, 1, 3), opening=["6C", "9C"]),
    ending("misère, third hand ducks under the maker's diamond", DUCK, ["6D"],
           "the maker's 8D beats the 5D led: only the 6D leaves it winning the trick",
           bids=AUSTRALIAN, active=(0, 1, 2), first=1, preset="australian",
           cards={0: "5D 9S KH 7C", 1: "8D 10S 6H 8C", 2: "6D QD 9H 5C"},
           winners=(0, 2, 2, 0, 2, 0), opening=["5D", "8D"]),
    ending("no tricks, first trick: second hand ducks under the maker's lead", DUCK, ["5S"],
           "the maker leads the 7S: the 5S ducks under it, so that the maker takes the "
           "trick unless its partner holds only higher spades; the JS or AS would win it",
           bids=ONLINE, active=(0, 1, 3), first=0,
           cards={0: "7S 4S 5C 4C 6D 5D 4D 6H 5H 4H",
                  1: "5S JS AS KC QC 9D AD 7H KH 8C",
                  3: "6S 9S QS JC 10C 8D KD JH 10H 9H"},
           winners=(), opening=["7S"]),
    ending("misère, do not take the partner's trick with the joker", JOKER, ["AS", "6S"],
           "the maker has shown out of spades and ducks the 9D: won with the joker, the "
           "trick leaves this hand on lead with nothing but spades the maker throws on; a "
           "spade thrown keeps the partner on lead to find the suit that sets it",
           bids=AUSTRALIAN, active=(0, 1, 2), first=1, preset="australian",
           cards={0: "QS 9D 4H 6C", 1: "9C 7D 8H 5C", 2: "10S JK AS 6S"},
           winners=(0, 2, 0, 2, 0, 0), opening=["QS", "9C", "10S", "9D", "7D"]),
    ending("misère, second hand keeps the joker under the partner's lead", JOKER,
           ["7H", "8H"],
           "the maker is out of hearts: won with the joker, the lead comes to hearts it throws "
           "on; a heart thrown under the partner's 10D leaves the partner on lead",
           bids=AUSTRALIAN, active=(0, 1, 2), first=1, preset="australian",
           cards={0: "6H JK 7H 8H", 1: "KC 8D 9S 9C", 2: "9H 10D 6S 7D"},
           winners=(0, 2, 0, 2, 0, 0), opening=["6H", "KC", "9H", "10D"]),
    ending("open misère, throw a club, not the joker, on the partner's heart", JOKER,
           ["KC", "QC"],
           "the partner's 8H holds the trick and its 8S then forces the maker's bare 9S; the "
           "joker would take the lead to clubs, under which the maker's 10C ducks",
           bids=AUSTRALIAN_OPEN, active=(0, 1, 3), first=0, preset="australian",
           cards={3: "8H 8S 5D", 0: "6H 9S 10C", 1: "JK KC QC"},
           winners=(3, 1, 3, 3, 1, 1, 3), opening=["8H", "6H"]),
    ending("open misère, lead the spade under the maker's", OPEN, ["6S", "4D"],
           "the maker's 7S is bare and the partner can duck under it with the 5S: the 6S "
           "sets it at once, the 4D to the partner's 10D lets the partner lead the 5S to it; "
           "the 8S lets it duck",
           bids=AUSTRALIAN_OPEN, active=(0, 1, 3), first=0, preset="australian",
           cards={0: "7S 5D 9H", 1: "8S 6S 4D", 3: "5S 10D JH"},
           winners=(1, 3, 1, 3, 1, 3, 1)),
    ending("Spread, duck under the maker's club", OPEN, ["6C"],
           "the maker's 8C beats the 5C led and nothing else of the maker's can be caught "
           "later: the 6C leaves the maker the trick",
           bids=ONLINE_OPEN, active=(0, 1, 2), first=1,
           cards={0: "5C 9S KH 7D", 1: "8C 10S 6H 9D", 2: "6C 9C QH 5S"},
           winners=(0, 2, 2, 0, 2, 0), opening=["5C", "8C"]),
    ending("Spread, lead the heart the maker must win", OPEN, ["5H"],
           "the maker's 6H is bare and the partner has no heart to beat it; the club lets the "
           "maker duck with its 5C and the spade lets it throw",
           bids=ONLINE_OPEN, active=(0, 1, 2), first=1,
           cards={0: "5H 8C QS", 1: "6H 5C 9D", 2: "7S 10C KD"},
           winners=(0, 2, 0, 2, 0, 2, 0)),
]

# The same positions with hearts and diamonds, spades and clubs exchanged (the bowers
# follow the trump colour): each is the same problem in other suits.
POSITIONS += [
    ending("no tricks, lead the suit the maker followed, in other suits", LEAD, ["7H", "8H"],
           "the maker showed out of spades and followed hearts low: a heart makes it play "
           "one, a spade lets it throw its dangerous card",
           bids=("bid misere", "pass", "pass", "pass"), active=(0, 1, 3), first=0,
           cards={0: "KH 4H 5D 6D 4C 5C",
                  1: "9S JS 8S 7H 8H 6H",
                  3: "10S 5H 9H 7C 8C QS"},
           winners=(3, 1, 3, 1), opening=["9S", "10S", "5D", "5H", "4H", "6H"]),
    ending("no tricks, lead diamonds, not the clubs it is void in", LEAD, ["6D"],
           "the maker threw a heart on clubs and followed diamonds with its 4D: a club lead "
           "lets it throw its high diamond, the 6D makes it play that diamond",
           bids=("bid misere", "pass", "pass", "pass"), active=(0, 1, 3), first=0,
           cards={0: "10H 4D QD 5S 6S",
                  1: "10C 5D AC 4H 7S",
                  3: "9C 7D 8C JC 6D"},
           winners=(1, 3, 1, 1, 3), opening=["9C", "10H", "10C", "5D", "7D", "4D"]),
    ending("no tricks, third hand ducks under the maker's spade", DUCK, ["7S"],
           "the maker's 9S beats the 6S led: the 7S ducks under it so that the maker takes "
           "the trick, the 10S would take it for the defence",
           bids=("bid misere", "pass", "pass", "pass"), active=(0, 1, 3), first=0,
           cards={3: "6S JH 9D 6C",
                  0: "9S 4H 7D 8C",
                  1: "7S 10S 8D 5C"},
           winners=(1, 3, 1, 1, 1, 3), opening=["6S", "9S"]),
    ending("misère, third hand ducks under the maker's heart", DUCK, ["6H"],
           "the maker's 8H beats the 5H led: only the 6H leaves it winning the trick",
           bids=("bid 7C", "bid misere", "pass", "pass", "pass"),
           active=(0, 1, 2), first=1, preset="australian",
           cards={0: "5H 9C KD 7S",
                  1: "8H 10C 6D 8S",
                  2: "6H QH 9D 5S"},
           winners=(0, 2, 2, 0, 2, 0), opening=["5H", "8H"]),
    ending("misère, do not take the partner's club trick with the joker", JOKER, ["6C", "AC"],
           "the maker has shown out of clubs and ducks the 9H: won with the joker, the trick "
           "leaves this hand on lead with nothing but clubs the maker throws on; a club "
           "thrown keeps the partner on lead to find the suit that sets it",
           bids=("bid 7C", "bid misere", "pass", "pass", "pass"),
           active=(0, 1, 2), first=1, preset="australian",
           cards={0: "QC 9H 4D 6S",
                  1: "9S 7H 8D 5S",
                  2: "10C JK AC 6C"},
           winners=(0, 2, 0, 2, 0, 0), opening=["QC", "9S", "10C", "9H", "7H"]),
    ending("Spread, duck under the maker's spade", OPEN, ["6S"],
           "the maker's 8S beats the 5S led and nothing else of the maker's can be caught "
           "later: the 6S leaves the maker the trick",
           bids=ONLINE_OPEN, active=(0, 1, 2), first=1,
           cards={0: "5S 9C KD 7H",
                  1: "8S 10C 6D 9H",
                  2: "6S 9S QD 5C"},
           winners=(0, 2, 2, 0, 2, 0), opening=["5S", "8S"]),
    ending("misère, lead the suit the maker followed, in other suits", LEAD, ["6C"],
           "the maker threw a spade on a diamond and followed clubs low: only a club can "
           "catch it, a diamond lets it throw its high club",
           bids=("bid 7C", "bid misere", "pass", "pass", "pass"),
           active=(0, 1, 2), first=1, preset="australian",
           cards={0: "8D 7C 10C AH KS",
                  1: "10S 5C QC 9H 7S",
                  2: "9D 8C 10D JD 6C"},
           winners=(0, 2, 0, 2, 0), opening=["8D", "10S", "9D", "8C", "7C", "5C"]),
]
