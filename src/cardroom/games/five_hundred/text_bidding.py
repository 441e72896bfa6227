"""The bidding and the contracts of 500 in plain words: the bidding order, who may bid what,
the points of each bid and how each special contract is played.

Part of the rules pages' text (:mod:`cardroom.games.five_hundred.text` puts the sections
together); everything is read off the rules' bid ladder, so the page says what the engine does.
"""

from __future__ import annotations

from cardroom.games.five_hundred import Bid, Contract, Rules
from cardroom.games.text import (
    Block,
    Bullets,
    Paragraph,
    Row,
    Section,
    Table,
    cap,
    para,
)

SPECIAL_OPTIONS = ("misere", "open_misere", "nello", "across_the_corner", "across_the_table",
                   "blind_misere", "double_nullo", "shields_double", "patastrophe", "hi_lo")
"""The options that allow a special contract."""


def bid_label(bid: Bid) -> str:
    """A bid as people write it: ``7♥``, ``8NT``, ``misère (No Tricks)``."""
    if bid.contract is Contract.TRICKS:
        return f"{bid.tricks}{'NT' if bid.trump is None else bid.trump.symbol}"
    if bid.contract is Contract.J5:
        return f"{bid.tricks}J5"
    return bid.name


def special_bids(rules: Rules) -> list[Bid]:
    """The special contracts these rules allow, in bidding order."""
    return [bid for bid in rules.bid_ladder if not bid.is_trick_bid]


def has_no_tricks_contracts(rules: Rules) -> bool:
    """Whether any contract of these rules is won by taking no tricks."""
    return any(bid.is_misere_type for bid in rules.bid_ladder)



# -- bidding --------------------------------------------------------------------------------------


def _bidding_style(rules: Rules) -> list[Paragraph]:
    """How the bidding goes round and who may raise."""
    if rules.bidding == "single":
        return [para("There is one round of bidding: starting on the dealer's left, each player "
                     "either bids or passes, once, and the dealer speaks last. The highest bid "
                     "wins.", "bidding")]
    style = para("The bidding goes round the table, starting on the dealer's left, until all "
                 "but one player have passed. Passing (\"bye\") is final: a player who has "
                 "passed takes no further part in this hand's bidding.", "bidding")
    if rules.rebid == "any_time":
        rebid = para("While others are still bidding you may raise your own bid whenever your "
                     "turn comes round. Once everybody else has passed, the highest bidder is "
                     "asked again and may go on raising; passing then keeps the bid they "
                     "hold.", "rebid")
    else:
        rebid = para("You may raise your own bid only when your turn comes round with another "
                     "player still bidding; once everybody else has passed, the bidding is "
                     "over and the highest bid stands.", "rebid")
    return [style, rebid]


def _inkle_text(rules: Rules) -> Paragraph:
    """Who may bid at the six level."""
    if rules.inkle:
        return para("Six-level bids are inkles, a hint to partner: only the first two players "
                    "to speak may make one. An inkle that wins the bidding is played as a "
                    "normal six-trick contract.", "inkle")
    return para("Any player may bid at the six level when it beats the current bid.", "inkle")


def all_pass_text(rules: Rules) -> Paragraph:
    """What happens when nobody bids."""
    text = {
        "redeal": "If everybody passes, the hand is thrown in without any score and the same "
                  "dealer deals again.",
        "redeal_then_pass_deal": "If everybody passes, the hand is thrown in without any score "
                                 "and the same dealer deals again, up to twice in a row; when a "
                                 "third deal in a row is passed out, the deal moves to the left.",
        "next_dealer": "If everybody passes, the hand is thrown in without any score and the "
                       "deal moves to the player on the left.",
        "play_no_trump": "If everybody passes, the hand is still played, in no trumps, with "
                         "nobody's contract and nobody touching the kitty: the player on the "
                         "dealer's left leads, and each side scores 10 for every trick it "
                         "takes.",
        "dealer_must_bid": "Nobody may throw the hand in: if the first three players pass, the "
                           "dealer must bid.",
    }[rules.all_pass]
    return para(text, "all_pass")


def _strain_order(rules: Rules) -> str:
    """Seniority of the strains at one level, read off the ladder: "♠, ♣, ♦, ♥, NT"."""
    sevens = [b for b in rules.bid_ladder if b.contract is Contract.TRICKS and b.tricks == 7]
    return ", ".join(bid_label(b)[1:] for b in sevens)


def _ladder_text(rules: Rules) -> Paragraph:
    """The whole bidding order, lowest first."""
    bids = ", ".join(bid_label(b) for b in rules.bid_ladder)
    return para(f"The full bidding order, lowest first: {bids}.", *SPECIAL_OPTIONS,
                "misere_placement", "j5_no_trumps")


def _ralphing_text(rules: Rules) -> Paragraph | None:
    """Ralphing: a contractor set by three tricks or more sits out the next bidding."""
    if not rules.ralphing:
        return None
    return para("A contractor who falls three or more tricks short of the contract (or, in a "
                "no-tricks contract, takes three or more) may not bid in the next hand dealt: "
                "they may only pass.", "ralphing")


def bidding_section(rules: Rules) -> Section:
    """How bidding works under these rules."""
    low, high = rules.bid_ladder[0], rules.bid_ladder[-1]
    blocks: list[Block] = [*_bidding_style(rules)]
    blocks.append(para(f"A bid names a number of tricks from six to ten and a trump suit or no "
                       f"trumps, or a special contract. Each bid must come later in the "
                       f"bidding order than the bid before it: from {bid_label(low)} up to "
                       f"{bid_label(high)}. At the same number of tricks, the order is "
                       f"{_strain_order(rules)}."))
    blocks.append(_inkle_text(rules))
    blocks.append(all_pass_text(rules))
    ralph = _ralphing_text(rules)
    if ralph is not None:
        blocks.append(ralph)
    blocks.append(_ladder_text(rules))
    if rules.j5_no_trumps:
        blocks.append(para("J5 no trumps (7J5 …) is a no-trumps bid in which each jack ranks "
                           "above its own ace. It is worth no trumps of the same level and "
                           "comes just after it in the bidding order.", "j5_no_trumps"))
    return Section("bidding", "Bidding", tuple(blocks))


# -- bids, points and special contracts -----------------------------------------------------------


def _value_table(rules: Rules) -> Table:
    """The Avondale points of every trick bid, read from the ladder."""
    tricks = [b for b in rules.bid_ladder if b.contract is Contract.TRICKS]
    strains = sorted({b.trump for b in tricks}, key=lambda t: 4 if t is None else int(t))
    value = {(b.tricks, b.trump): b.value for b in tricks}
    levels = sorted({b.tricks for b in tricks})
    header = ("Tricks", *("NT" if t is None else t.symbol for t in strains))
    rows = tuple(Row((str(n), *(str(value[(n, t)]) for t in strains))) for n in levels)
    return Table("Points of each bid (the Avondale table)", header, rows)


def _neighbours(rules: Rules, bid: Bid) -> str:
    """Where a special contract sits in the bidding order: "between 7NT and 8♠"."""
    ladder = rules.bid_ladder
    at = rules.bid_rank[bid]
    below = [b for b in ladder[:at] if b.contract is Contract.TRICKS]
    above = [b for b in ladder[at + 1:] if b.contract is Contract.TRICKS]
    if not below:
        place = f"below {bid_label(above[0])}"
    elif not above:
        place = f"above {bid_label(below[-1])}"
    else:
        place = f"between {bid_label(below[-1])} and {bid_label(above[0])}"
    if at > 0 and ladder[at - 1].contract is not Contract.TRICKS:
        place += f", just above {bid_label(ladder[at - 1])}"
    return place


def _when_allowed(rules: Rules, bid: Bid) -> Paragraph:
    """When a special contract may be bid."""
    kind = bid.contract
    if kind is Contract.MISERE:
        if rules.misere_placement == "after_seven":
            return para("only once somebody has bid seven this hand", "misere_placement")
        return para("whenever it beats the current bid", "misere_placement")
    if kind is Contract.OPEN_MISERE:
        if rules.open_misere_needs_misere:
            return para("only after somebody has bid No Tricks this hand",
                        "open_misere_needs_misere")
        return para("whenever it beats the current bid", "open_misere_needs_misere")
    return para({
        Contract.BLIND_MISERE: "only as your first call of the hand, before you look at your "
                               "cards",
        Contract.DOUBLE_NULLO: "whenever it beats the current bid",
        Contract.SHIELDS_DOUBLE: "whenever it beats the current bid",
        Contract.PATASTROPHE: "whenever it beats the current bid",
        Contract.HI_LO: "whenever it beats the current bid",
        Contract.NELLO: "only by a side whose score is below zero (in the hole)",
        Contract.ACROSS_THE_CORNER: "only after an opponent has bid No Tricks; it beats that "
                                    "No Tricks bid although both are worth the same",
        Contract.ACROSS_THE_TABLE: "only after your partner has bid No Tricks",
    }[kind])


_FLAG_OF = {Contract.MISERE: "misere", Contract.OPEN_MISERE: "open_misere",
            Contract.NELLO: "nello", Contract.ACROSS_THE_CORNER: "across_the_corner",
            Contract.ACROSS_THE_TABLE: "across_the_table", Contract.BLIND_MISERE: "blind_misere",
            Contract.DOUBLE_NULLO: "double_nullo", Contract.SHIELDS_DOUBLE: "shields_double",
            Contract.PATASTROPHE: "patastrophe", Contract.HI_LO: "hi_lo"}
_PLACED_BY_MISERE = (Contract.MISERE, Contract.ACROSS_THE_CORNER)
_PLAY_OPTIONS = {Contract.MISERE: ("wilkinson_misere", "players", "six_handed_teams"),
                 Contract.OPEN_MISERE: ("wilkinson_misere",),
                 Contract.HI_LO: ("players", "six_handed_teams")}
"""Options besides its own flag that change how a special contract is described."""


def _special_table(rules: Rules, specials: list[Bid]) -> Table:
    """Each special contract: points, place in the bidding, and when it may be bid."""
    rows = []
    for bid in specials:
        when = _when_allowed(rules, bid)
        placed = ("misere_placement",) if bid.contract in _PLACED_BY_MISERE else ()
        rows.append(Row((bid.name, str(bid.value), _neighbours(rules, bid), when.text),
                        (_FLAG_OF[bid.contract], *placed, *when.options)))
    return Table("Special contracts", ("Contract", "Points", "Place in the bidding",
                                       "May be bid"), tuple(rows))


def alone_text(rules: Rules) -> str:
    """How the bidder's partners sit out a contract the bidder plays alone."""
    mates = len(rules.teams[0]) - 1
    if mates == 0:
        return "against all the other players"
    if mates == 1:
        return "while partner lays their cards face down and sits the hand out"
    return "while both teammates lay their cards face down and sit the hand out"


def _contract_play(rules: Rules, bid: Bid) -> str:
    """How a special contract is played."""
    k = rules.kitty_size
    alone = alone_text(rules)
    if rules.wilkinson_misere:
        misere = (f"the bidder must lose every trick, playing alone without trumps {alone}. "
                  "The bidder exchanges with the kitty as usual, and after the first trick "
                  "lays their hand face up for everyone to see (Wilkinson misère).")
        open_misere = ("played like No Tricks, hand laid face up after the first trick, but "
                       "without touching the kitty (Wilkinson misère).")
    else:
        misere = (f"the bidder must lose every trick, playing alone without trumps {alone}. "
                  "The bidder exchanges with the kitty as usual.")
        open_misere = ("played like No Tricks, except that after the first trick the bidder's "
                       "hand is laid face up for everyone to see.")
    pair = (f"both partners play, without trumps, and neither may take a trick. The bidder "
            f"exchanges with the kitty and passes the {k} discards to partner, who keeps what "
            f"they like and puts {k} back")
    return {
        Contract.MISERE: misere,
        Contract.OPEN_MISERE: open_misere,
        Contract.BLIND_MISERE: "played as No Tricks (kitty exchange included), but bid "
                               "before looking at your cards.",
        Contract.DOUBLE_NULLO: pair + ".",
        Contract.SHIELDS_DOUBLE: pair + "; after the first trick the bidder's partner lays "
                                        "their hand face up for everyone to see.",
        Contract.PATASTROPHE: pair + "; after the first trick both partners lay their hands "
                                     "face up for everyone to see.",
        Contract.HI_LO: f"the bidder plays alone {alone}, in no trumps with the joker played "
                        "only when void, and must take exactly five tricks, no more and no "
                        "fewer.",
        Contract.NELLO: f"partner adds one card to the kitty and sits the hand out; the bidder "
                        f"picks up all {k + 1} cards, puts {k + 1} back, then plays alone "
                        f"without trumps and must lose every trick.",
        Contract.ACROSS_THE_CORNER: "only the bidder and the opponent who bid No Tricks play, "
                                    "without trumps and without the kitty. Whoever takes fewer "
                                    f"tricks scores {bid.value} for their side; with five tricks "
                                    "each, nobody scores. Nobody loses points.",
        Contract.ACROSS_THE_TABLE: f"all four play without trumps. The bidder exchanges with the "
                                   f"kitty and passes the {k} discards to partner, who "
                                   f"exchanges with them in turn; then neither partner may take "
                                   f"a trick.",
    }[bid.contract]


def contracts_section(rules: Rules) -> Section:
    """Point values, and the special contracts these rules allow."""
    blocks: list[Block] = [_value_table(rules)]
    specials = special_bids(rules)
    if not specials:
        blocks.append(para("There are no special contracts: every bid names a number of tricks "
                           "and a trump suit or no trumps.", *SPECIAL_OPTIONS))
        return Section("contracts", "Bids and their points", tuple(blocks))
    blocks.append(_special_table(rules, specials))
    blocks.append(Bullets(tuple(
        para(f"{cap(bid.name)} ({bid.value}): {_contract_play(rules, bid)}",
             _FLAG_OF[bid.contract], *_PLAY_OPTIONS.get(bid.contract, ()))
        for bid in specials)))
    return Section("contracts", "Bids and their points", tuple(blocks))
