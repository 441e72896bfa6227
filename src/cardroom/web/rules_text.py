"""The rules of 500 in plain words, generated from a :class:`Rules` value.

The rules pages render this structure and nothing else, so a page cannot disagree with the
engine: card orders come from the engine's trick tables, the bidding order and the points from
the rules' bid ladder, and every sentence is chosen by the option values it explains. Each item
names the options it depends on, so the page of a table whose options differ from the nearest
preset can mark those items "house rule". Pure functions only: no I/O, no HTML.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from cardroom.games.cards import CARDS, Card, Rank, Suit
from cardroom.games.five_hundred.bids import Bid, Contract
from cardroom.games.five_hundred.rules import DeckSpec, Rules
from cardroom.games.five_hundred.tricks import strain_for

# -- the structure the templates render -----------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    """A sentence or two; ``options`` are the rules options its wording depends on."""

    text: str
    options: tuple[str, ...] = ()
    house: bool = False
    kind: ClassVar[str] = "paragraph"


@dataclass(frozen=True)
class Bullets:
    """A list of short items, each marked separately."""

    items: tuple[Paragraph, ...]
    kind: ClassVar[str] = "bullets"


@dataclass(frozen=True)
class CardFace:
    """One card to draw: its notation (for the SVG), a text fallback and a spoken name."""

    code: str
    label: str
    name: str
    red: bool


@dataclass(frozen=True)
class CardRow:
    """Cards in order, highest first, with a caption; ``key`` names the row for tests and CSS."""

    key: str
    caption: str
    cards: tuple[CardFace, ...]
    options: tuple[str, ...] = ()
    house: bool = False
    kind: ClassVar[str] = "cards"


@dataclass(frozen=True)
class Row:
    """One row of a table, marked like a paragraph."""

    cells: tuple[str, ...]
    options: tuple[str, ...] = ()
    house: bool = False


@dataclass(frozen=True)
class Table:
    """A small table: caption, header cells and rows."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[Row, ...]
    kind: ClassVar[str] = "table"


Block = Paragraph | Bullets | CardRow | Table


@dataclass(frozen=True)
class Section:
    """A titled part of the rules; ``key`` is its anchor on the page."""

    key: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class HouseRule:
    """One option where a table departs from its nearest preset."""

    option: str
    label: str
    value: str
    preset_value: str
    matters: bool = True
    """False when no rule on the page depends on it (e.g. misère options without misère)."""


@dataclass(frozen=True)
class Explanation:
    """Everything a rules page shows."""

    title: str
    preset: str | None
    """The preset these rules are exactly, if any."""
    closest: str
    """The preset with the fewest differences (the rules themselves when they are a preset)."""
    house_rules: tuple[HouseRule, ...]
    sections: tuple[Section, ...]


PRESET_TITLES = {
    "classic": "Classic",
    "australian": "Australian",
    "american": "American",
    "online": "Online",
    "three-handed": "Three-handed",
    "five-handed": "Five-handed",
    "six-handed": "Six-handed",
}
"""Display names of the presets (the keys are the public preset names)."""

OPTION_LABELS = {
    "players": "Players",
    "deck": "Deck",
    "six_handed_teams": "Teams of six players",
    "bidding": "Bidding rounds",
    "rebid": "Raising your own bid",
    "inkle": "Inkles",
    "all_pass": "When everybody passes",
    "first_lead": "First lead",
    "misere": "Misère (No Tricks)",
    "misere_placement": "Place of misère in the bidding",
    "open_misere": "Open misère (Spread)",
    "open_misere_needs_misere": "Spread only after No Tricks",
    "across_the_corner": "Across The Corner",
    "across_the_table": "Across The Table",
    "nello": "Nello",
    "blind_misere": "Blind misère",
    "double_nullo": "Double nullo",
    "shields_double": "Shields double",
    "patastrophe": "Patastrophe",
    "wilkinson_misere": "Wilkinson misère (played open)",
    "hi_lo": "Hi/Lo (5 and 5)",
    "j5_no_trumps": "J5 no trumps",
    "slam_call": "Calling slam after the kitty",
    "ralphing": "Ralphing (set by three: no bid next hand)",
    "misdeal_no_face": "Misdeal with no face card",
    "joker_suit_nomination": "Naming the joker's suit in no trumps",
    "joker_lead_limits": "Limits on leading the joker",
    "misere_failure": "A failed no-tricks contract",
    "nt_joker": "Joker in no trumps",
    "misere_joker_forced": "Joker forced in no-tricks hands",
    "joker_low_in_misere": "Joker low in no-tricks hands",
    "all_tricks_bonus": "Bonus for all ten tricks",
    "defender_points": "Defenders' points",
    "target": "Winning score",
    "target_strict": "Must pass the winning score",
    "lose_at": "Losing score",
    "win_needs_bid": "Must win the bid to win the match",
    "both_reach_target": "Both sides reach the target",
    "both_at_lose_at": "Several sides at the losing score",
}
"""Short human names of the rules options, for the list of a table's house rules."""

SUIT_ORDER = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""Suits as the page lists them: highest bidding seniority first."""

# -- small helpers --------------------------------------------------------------------------------


def _words(suit: Suit) -> str:
    """``hearts``."""
    return suit.name.lower()


def _num(value: int) -> str:
    """A score with a real minus sign, as people write it."""
    return f"−{-value}" if value < 0 else str(value)


_RANK_NAMES = {Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack"}


def card_face(card: Card) -> CardFace:
    """How one card is drawn and named on a rules page."""
    if card.is_joker:
        return CardFace(card.text, "Joker", "the joker", False)
    assert card.rank is not None and card.suit is not None
    rank_name = _RANK_NAMES.get(card.rank, card.rank.label)
    return CardFace(card.text, card.rank.label + card.suit.symbol,
                    f"{rank_name} of {_words(card.suit)}", card.suit.is_red)


def bid_label(bid: Bid) -> str:
    """A bid as people write it: ``7♥``, ``8NT``, ``misère (No Tricks)``."""
    if bid.contract is Contract.TRICKS:
        return f"{bid.tricks}{'NT' if bid.trump is None else bid.trump.symbol}"
    if bid.contract is Contract.J5:
        return f"{bid.tricks}J5"
    return bid.name


def join_words(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _cap(text: str) -> str:
    """Capitalise the first letter only (names like "Across The Corner" keep their capitals)."""
    return text[:1].upper() + text[1:]


def _para(text: str, *options: str) -> Paragraph:
    """A paragraph that depends on ``options`` (marked when one of them is a house rule)."""
    return Paragraph(text, options)


def _row(key: str, caption: str, cards: list[Card], *options: str) -> CardRow:
    """A row of cards to draw, highest first."""
    return CardRow(key, caption, tuple(card_face(c) for c in cards), options)


def _specials(rules: Rules) -> list[Bid]:
    """The special contracts these rules allow, in bidding order."""
    return [bid for bid in rules.bid_ladder if not bid.is_trick_bid]


def _has_no_tricks_contracts(rules: Rules) -> bool:
    """Whether any contract of these rules is won by taking no tricks."""
    return any(bid.is_misere_type for bid in rules.bid_ladder)


_SPECIAL_OPTIONS = ("misere", "open_misere", "nello", "across_the_corner", "across_the_table",
                    "blind_misere", "double_nullo", "shields_double", "patastrophe", "hi_lo")

# -- cards ----------------------------------------------------------------------------------------


def deck_cards(spec: DeckSpec) -> list[Card]:
    """Every card of a deck."""
    return [card for card in CARDS if spec.mask >> card.index & 1]


def trump_order(rules: Rules, trump: Suit) -> list[Card]:
    """The trump suit's cards, highest first, as the engine ranks them (joker, bowers, A …)."""
    return _ranked(rules, int(trump), trump)


def plain_order(rules: Rules, suit: Suit, trump: Suit | None) -> list[Card]:
    """A non-trump suit's cards, highest first, when ``trump`` is trumps (``None``: no trumps)."""
    return _ranked(rules, int(suit), trump)


def _ranked(rules: Rules, suit: int, trump: Suit | None) -> list[Card]:
    """Cards of the deck whose effective suit is ``suit``, by the engine's winning keys."""
    strain = strain_for(trump)
    keys = strain.keys[suit]
    cards = [c for c in deck_cards(rules.deck_spec) if strain.suit_of[c.index] == suit]
    return sorted(cards, key=lambda c: -keys[c.index])


def _deck_contents(spec: DeckSpec) -> str:
    """Which cards a deck holds, e.g. "ace down to 5 in every suit, the 4♥ and 4♦ and a joker"."""
    ranks = spec.ranks_in
    common = set.intersection(*(set(r) for r in ranks.values()))
    lowest = min(common)
    extras = [Card.of(rank, suit) for suit in SUIT_ORDER for rank in ranks[suit]
              if rank not in common]
    parts = [f"ace down to {lowest.label} in every suit"]
    if spec.six_handed:
        parts[0] += " with a 13, 12 and 11 between the jack and the 10 where the suit has them"
    if extras:
        parts.append("the " + join_words([card_face(c).label for c in extras]))
    jokers = {0: "no joker", 1: "one joker",
              2: "two jokers, the black one (JK2) above the other"}[spec.jokers]
    return ", ".join(parts) + " and " + jokers


def _hand_size(rules: Rules) -> int:
    """Cards dealt to each player: what the kitty leaves, shared out."""
    return (rules.deck_spec.size - rules.kitty_size) // rules.players


def _deck_section(rules: Rules) -> Section:
    """Deck, deal, kitty size and partnerships."""
    spec = rules.deck_spec
    k = rules.kitty_size
    blocks: list[Block] = [
        _para(f"The deck has {spec.size} cards: {_deck_contents(spec)}.", "deck"),
        _para(f"Each of the {rules.players} players is dealt {_hand_size(rules)} cards and the "
              f"other {k} go face down to the middle as the kitty.", "deck", "players"),
        _sides_text(rules),
        _para("Dealing, bidding and play go clockwise. The player on the dealer's left speaks "
              "first, and the deal moves one seat to the left after every hand played."),
    ]
    if rules.misdeal_no_face:
        blocks.append(_para("A player whose hand holds no face card (no jack, queen, king or "
                            "ace; the joker counts as one) may call a misdeal instead of their "
                            "first call of the hand: the same dealer deals again.",
                            "misdeal_no_face"))
    return Section("deck", "Cards, players and the deal", tuple(blocks))


def _seats(seats: tuple[int, ...]) -> str:
    """``seats 1, 3 and 5``."""
    return "seats " + join_words([str(s + 1) for s in seats])


def _sides_text(rules: Rules) -> Paragraph:
    """Who plays with whom: partnerships, teams, or everybody for themselves."""
    n, teams = rules.players, rules.teams
    if n == 3:
        return _para("Three players play cut-throat: each keeps their own score. In each hand "
                     "the two players who did not win the bidding play together against the "
                     "contractor, and each of them scores the tricks they take.", "players")
    if n == 5:
        return _para("Five players each keep their own score. In each hand the contractor of a "
                     "trick bid calls partners for that hand by naming a card (see the kitty "
                     "below); the other players defend, each scoring the tricks they take.",
                     "players")
    if n == 6 and len(teams) == 2:
        return _para(f"Six players make two teams of three who sit alternately "
                     f"({_seats(teams[0])} against {_seats(teams[1])}).",
                     "players", "six_handed_teams")
    if n == 6:
        return _para("Six players make three partnerships of two; partners sit opposite each "
                     "other (" + ", ".join(_seats(t) for t in teams) + ").",
                     "players", "six_handed_teams")
    (a, b), (c, d) = teams
    return _para(f"{n} players make two partnerships; partners sit opposite each "
                 f"other (seats {a + 1} and {b + 1} against seats {c + 1} and {d + 1}).",
                 "players")


def _suit_groups(spec: DeckSpec) -> list[list[Suit]]:
    """Suits grouped by the ranks they hold (the 43-card deck's black suits stop at the 5)."""
    groups: dict[tuple[Rank, ...], list[Suit]] = {}
    for suit in SUIT_ORDER:
        groups.setdefault(tuple(spec.ranks_in[suit]), []).append(suit)
    return list(groups.values())


def _lowest_cards(spec: DeckSpec) -> str:
    """The lowest rank of each suit: "the 4", or "the 4 in hearts and diamonds and the 5 in …"."""
    groups = _suit_groups(spec)
    if len(groups) == 1:
        return f"the {min(spec.ranks_in[groups[0][0]]).label}"
    return " and ".join(f"the {min(spec.ranks_in[g[0]]).label} in "
                        f"{join_words([_words(s) for s in g])}" for g in groups)


def _card_order_section(rules: Rules) -> Section:
    """The order of the cards in a trump suit, in plain suits and in no trumps, drawn."""
    spec = rules.deck_spec
    top = {0: "In the trump suit the jack of trumps (the right bower) is highest",
           1: "In the trump suit the joker is highest, then the jack of trumps (the right "
              "bower)",
           2: "In the trump suit the black joker (JK2) is highest, then the other joker, then "
              "the jack of trumps (the right bower)"}[spec.jokers]
    middle = "13, 12, 11 (where the suit has them), " if spec.six_handed else ""
    blocks: list[Block] = [
        _para(f"{top}, then the other jack of the same colour (the left bower), then ace, "
              f"king, queen, {middle}10 and on down to {_lowest_cards(spec)}. The left bower is "
              "a trump in every way: it follows trumps, not its printed suit.", "deck"),
    ]
    if spec.colour_four:
        blocks.append(_para("The 4 of the other suit of the trump colour (the 4♥ or the 4♣) "
                            "is also a trump, the lowest one.", "deck"))
    blocks += [_row(f"trump-{s.letter}", f"{_words(s).capitalize()} trumps",
                    trump_order(rules, s), "deck") for s in SUIT_ORDER]
    red, black = Suit.HEARTS, Suit.SPADES
    blocks.append(_para(f"A suit that is not trumps runs ace, king, queen, jack, {middle}10 and "
                        "down. The suit of the same colour as trumps has lost its jack to the "
                        "trumps.", "deck"))
    for group in _suit_groups(spec):
        suit = group[0]
        other = black if suit.is_red else red
        names = ("Any suit" if len(group) == len(Suit)
                 else _cap(join_words([_words(s) for s in group])))
        blocks.append(_row(f"plain-{suit.letter}",
                           f"{names} when not trumps, and in no trumps ({_words(suit)} shown)",
                           plain_order(rules, suit, other), "deck"))
    blocks.append(_row(f"plain-{Suit.DIAMONDS.letter}-{Suit.HEARTS.letter}",
                       "Diamonds when hearts are trumps",
                       plain_order(rules, Suit.DIAMONDS, Suit.HEARTS), "deck"))
    blocks.append(_para("In no trumps there are no bowers: each jack ranks between its queen "
                        "and its 10, and the joker is the only trump (see the joker below)."))
    if rules.j5_no_trumps:
        blocks.append(_para("In J5 no trumps each jack ranks above its own ace instead; "
                            "otherwise it is played as no trumps.", "j5_no_trumps"))
    return Section("card-order", "The order of the cards", tuple(blocks))


# -- bidding --------------------------------------------------------------------------------------


def _bidding_style(rules: Rules) -> list[Paragraph]:
    """How the bidding goes round and who may raise."""
    if rules.bidding == "single":
        return [_para("There is one round of bidding: starting on the dealer's left, each player "
                      "either bids or passes, once, and the dealer speaks last. The highest bid "
                      "wins.", "bidding")]
    style = _para("The bidding goes round the table, starting on the dealer's left, until all "
                  "but one player have passed. Passing (\"bye\") is final: a player who has "
                  "passed takes no further part in this hand's bidding.", "bidding")
    if rules.rebid == "any_time":
        rebid = _para("While others are still bidding you may raise your own bid whenever your "
                      "turn comes round. Once everybody else has passed, the highest bidder is "
                      "asked again and may go on raising; passing then keeps the bid they "
                      "hold.", "rebid")
    else:
        rebid = _para("You may raise your own bid only when your turn comes round with another "
                      "player still bidding; once everybody else has passed, the bidding is "
                      "over and the highest bid stands.", "rebid")
    return [style, rebid]


def _inkle_text(rules: Rules) -> Paragraph:
    """Who may bid at the six level."""
    if rules.inkle:
        return _para("Six-level bids are inkles, a hint to partner: only the first two players "
                     "to speak may make one. An inkle that wins the bidding is played as a "
                     "normal six-trick contract.", "inkle")
    return _para("Any player may bid at the six level when it beats the current bid.", "inkle")


def _all_pass_text(rules: Rules) -> Paragraph:
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
    return _para(text, "all_pass")


def _strain_order(rules: Rules) -> str:
    """Seniority of the strains at one level, read off the ladder: "♠, ♣, ♦, ♥, NT"."""
    sevens = [b for b in rules.bid_ladder if b.contract is Contract.TRICKS and b.tricks == 7]
    return ", ".join(bid_label(b)[1:] for b in sevens)


def _ladder_text(rules: Rules) -> Paragraph:
    """The whole bidding order, lowest first."""
    bids = ", ".join(bid_label(b) for b in rules.bid_ladder)
    return _para(f"The full bidding order, lowest first: {bids}.", *_SPECIAL_OPTIONS,
                 "misere_placement", "j5_no_trumps")


def _ralphing_text(rules: Rules) -> Paragraph | None:
    """Ralphing: a contractor set by three tricks or more sits out the next bidding."""
    if not rules.ralphing:
        return None
    return _para("A contractor who falls three or more tricks short of the contract (or, in a "
                 "no-tricks contract, takes three or more) may not bid in the next hand dealt: "
                 "they may only pass.", "ralphing")


def _bidding_section(rules: Rules) -> Section:
    """How bidding works under these rules."""
    low, high = rules.bid_ladder[0], rules.bid_ladder[-1]
    blocks: list[Block] = [*_bidding_style(rules)]
    blocks.append(_para(f"A bid names a number of tricks from six to ten and a trump suit or no "
                        f"trumps, or a special contract. Each bid must come later in the "
                        f"bidding order than the bid before it: from {bid_label(low)} up to "
                        f"{bid_label(high)}. At the same number of tricks, the order is "
                        f"{_strain_order(rules)}."))
    blocks.append(_inkle_text(rules))
    blocks.append(_all_pass_text(rules))
    ralph = _ralphing_text(rules)
    if ralph is not None:
        blocks.append(ralph)
    blocks.append(_ladder_text(rules))
    if rules.j5_no_trumps:
        blocks.append(_para("J5 no trumps (7J5 …) is a no-trumps bid in which each jack ranks "
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
            return _para("only once somebody has bid seven this hand", "misere_placement")
        return _para("whenever it beats the current bid", "misere_placement")
    if kind is Contract.OPEN_MISERE:
        if rules.open_misere_needs_misere:
            return _para("only after somebody has bid No Tricks this hand",
                         "open_misere_needs_misere")
        return _para("whenever it beats the current bid", "open_misere_needs_misere")
    return _para({
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


def _alone(rules: Rules) -> str:
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
    alone = _alone(rules)
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


def _contracts_section(rules: Rules) -> Section:
    """Point values, and the special contracts these rules allow."""
    blocks: list[Block] = [_value_table(rules)]
    specials = _specials(rules)
    if not specials:
        blocks.append(_para("There are no special contracts: every bid names a number of tricks "
                            "and a trump suit or no trumps.", *_SPECIAL_OPTIONS))
        return Section("contracts", "Bids and their points", tuple(blocks))
    blocks.append(_special_table(rules, specials))
    blocks.append(Bullets(tuple(
        _para(f"{_cap(bid.name)} ({bid.value}): {_contract_play(rules, bid)}",
              _FLAG_OF[bid.contract], *_PLAY_OPTIONS.get(bid.contract, ()))
        for bid in specials)))
    return Section("contracts", "Bids and their points", tuple(blocks))


# -- kitty and play -------------------------------------------------------------------------------


def _kitty_section(rules: Rules) -> Section:
    """The contractor's exchange with the kitty."""
    k = rules.kitty_size
    blocks: list[Block] = [_para(
        f"The winner of the bidding becomes the contractor: they pick up the {k} kitty cards "
        f"without showing them, then put {k} cards back face down, any {k} they like, including "
        f"cards just picked up. The discards take no further part in the hand.", "deck")]
    changed = [b.name for b in _specials(rules)
               if b.contract in (Contract.NELLO, Contract.ACROSS_THE_CORNER,
                                 Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO,
                                 Contract.SHIELDS_DOUBLE, Contract.PATASTROPHE)
               or (b.contract is Contract.OPEN_MISERE and rules.wilkinson_misere)]
    if changed:
        blocks.append(_para(f"{join_words(changed)} change this, as described with the "
                            f"special contracts.", *_SPECIAL_OPTIONS, "wilkinson_misere"))
    if rules.slam_call:
        blocks.append(_para(
            "Instead of putting cards back, the contractor of a seven-trick bid in a suit or no "
            "trumps may call slam: partner passes them one card and sits the hand out, the "
            f"contractor puts {k + 1} cards back and must take all ten tricks. Made, it scores "
            "the eight bid of the same strain; failed, it loses the seven bid's value plus "
            "100.", "slam_call"))
    if rules.players == 5:
        blocks.append(_para(
            "With five players the contractor of a trick bid then calls a partner by naming a "
            "card they do not hold (two cards, so two partners, on a bid of eight or more). "
            "Whoever holds a named card plays for the contract this hand and scores what the "
            "contractor scores; nobody says so, and the others find out when that card is "
            "played. Naming a card that went into the kitty means playing alone. No-tricks "
            "contracts are played alone, without a call.", "players"))
    if rules.all_pass == "play_no_trump":
        blocks.append(_para("A hand that everybody passed is played without any exchange: the "
                            "kitty stays where it is.", "all_pass"))
    return Section("kitty", "The kitty", tuple(blocks))


def _first_lead(rules: Rules) -> Paragraph:
    """Who leads to the first trick."""
    if rules.first_lead == "contractor":
        return _para("The contractor leads to the first trick.", "first_lead")
    return _para("The player on the dealer's left leads to the first trick (or the next player "
                 "round, if that player sits the hand out).", "first_lead")


def _play_section(rules: Rules) -> Section:
    """Following suit and winning tricks."""
    blocks: list[Block] = [_first_lead(rules), Bullets((
        _para("You must follow the suit led if you can; if you cannot, you may play any card "
              "(but see the joker below)."),
        _para("The left bower counts as a trump: when trumps are led it must follow, and when "
              "its printed suit is led it does not count as that suit."),
        _para("A trick is won by the highest trump in it; with no trump in it, by the highest "
              "card of the suit led. Cards of other suits never win."),
        _para("The winner of a trick leads to the next one."),
    ))]
    if _has_no_tricks_contracts(rules) or rules.hi_lo or rules.slam_call:
        blocks.append(_para("When a player sits a hand out, tricks have one card fewer for "
                            "each such player and play simply skips the empty seats.",
                            *_SPECIAL_OPTIONS, "slam_call"))
    return Section("play", "Playing the tricks", tuple(blocks))


def _nt_joker_text(rules: Rules) -> list[Paragraph]:
    """The joker in no trumps: leading it, and playing it to someone else's lead."""
    when = "In no trumps"
    if rules.all_pass == "play_no_trump":
        when = "In no trumps (including a hand that everybody passed)"
    lead = _para(f"{when} the joker belongs to no suit and is the only trump. If you lead it, "
                 "you name a suit: the others must follow that suit if they can, and the joker "
                 "wins the trick.", "all_pass")
    if rules.nt_joker == "play_any_time":
        follow = _para("When someone else led, you may play the joker at any time, even if you "
                       "could follow suit, and it wins the trick.", "nt_joker")
    else:
        follow = _para("When someone else led, you may play the joker only if you cannot follow "
                       "the suit led; it then wins the trick.", "nt_joker")
    texts = [lead, follow]
    if rules.joker_lead_limits:
        texts.append(_para("A joker led in no trumps may not name a suit that has already been "
                           "led this hand, and once all four suits have been led the joker may "
                           "not be led except to the last trick.", "joker_lead_limits"))
    if rules.joker_suit_nomination:
        texts.append(_para("In a no-trumps contract the contractor may, before the first lead, "
                           "name a suit for the joker: it then belongs to that suit as its "
                           "highest card, and is no longer a trump.",
                           "joker_suit_nomination"))
    return texts


def _no_tricks_joker_text(rules: Rules) -> list[Paragraph]:
    """The joker in contracts whose makers must take no tricks."""
    texts: list[Paragraph] = []
    if rules.misere_joker_forced:
        texts.append(_para("In no-tricks contracts the joker must be played as soon as its "
                           "holder cannot follow suit, and it may not be led except to the last "
                           "trick.", "misere_joker_forced"))
    else:
        texts.append(_para("In no-tricks contracts the joker may be played only when its holder "
                           "cannot follow suit (another card will do then too), and it may be "
                           "led, naming a suit, as in no trumps.", "misere_joker_forced"))
    if rules.nt_joker == "play_any_time":
        texts.append(_para("The no-trumps freedom to play the joker at any time does not apply "
                           "to no-tricks contracts.", "nt_joker"))
    if rules.joker_low_in_misere:
        texts.append(_para("There the joker is low: it wins a trick only when it was led and "
                           "nobody could follow the suit it named.", "joker_low_in_misere"))
    else:
        texts.append(_para("There too the joker wins every trick it is played to.",
                           "joker_low_in_misere"))
    return texts


def _joker_section(rules: Rules) -> Section:
    """Every joker rule that applies under these rules."""
    if rules.deck_spec.jokers == 0:
        return Section("joker", "The joker", (_para(
            "This deck has no joker: in no trumps there are no trumps at all.", "deck"),))
    blocks: list[Block] = [_para(
        "With a trump suit, the joker is simply the highest trump: it may be played when trumps "
        "are led or when you cannot follow the suit led, but never while you hold a card of "
        "the suit led.")]
    blocks += _nt_joker_text(rules)
    if _has_no_tricks_contracts(rules):
        blocks += _no_tricks_joker_text(rules)
    return Section("joker", "The joker", tuple(blocks))


# -- scoring and the end of the match -------------------------------------------------------------


def _bonus_text(rules: Rules) -> Paragraph:
    """What taking all ten tricks is worth."""
    return _para({
        "none": "Extra tricks earn nothing, not even taking all ten.",
        "slam_250": "Extra tricks earn nothing, except that taking all ten tricks on a contract "
                    "worth less than 250 scores 250 instead (a slam).",
        "sweep_plus_50": "Extra tricks earn nothing, except that taking all ten tricks on a bid "
                         "of six to nine tricks adds 50 (a sweep).",
    }[rules.all_tricks_bonus], "all_tricks_bonus")


def _defender_text(rules: Rules) -> Paragraph:
    """What the defenders score for their tricks."""
    if rules.defender_points == "always":
        return _para("The defenders score 10 for every trick they take, whether the contract is "
                     "made or not.", "defender_points")
    if rules.defender_points in ("not_over_490", "not_over_400"):
        cap = 490 if rules.defender_points == "not_over_490" else 400
        return _para(f"The defenders score 10 for every trick they take, but only up to a score "
                     f"of {cap}: points won defending never take a side past {cap}.",
                     "defender_points")
    return _para("The defenders score nothing for their tricks: only the contractor's side "
                 "scores in a hand.", "defender_points")


def _no_tricks_scoring(rules: Rules) -> Paragraph:
    """Scoring a no-tricks contract, and what happens when its makers take a trick."""
    pays = rules.defender_points == "always"
    if rules.misere_failure == "stop":
        tail = ", and the defenders score 10 for that trick" if pays else ""
        text = f"The hand stops at the first trick the makers take{tail}."
    else:
        tail = (", and the defenders score 10 for every trick the makers take" if pays else "")
        text = f"The hand is played to the end even after the makers take a trick{tail}."
    return _para("A no-tricks contract is made if its makers take no trick: they score its "
                 "value; otherwise they lose it. " + text, "misere_failure", "defender_points")


def _scoring_section(rules: Rules) -> Section:
    """Points for made and failed contracts, defenders and bonuses."""
    blocks: list[Block] = [
        _para("If the contractor's side takes at least the tricks bid, it scores the value of "
              "the bid; if not, it loses that value. Scores may go below zero."),
        _bonus_text(rules),
        _defender_text(rules),
    ]
    if _has_no_tricks_contracts(rules):
        blocks.append(_no_tricks_scoring(rules))
    return Section("scoring", "Scoring a hand", tuple(blocks))


def _target_text(rules: Rules) -> Paragraph:
    """The winning score and whether it must be won as contractor."""
    reach = (f"more than {rules.target}" if rules.target_strict else f"{rules.target} or more")
    if rules.win_needs_bid:
        return _para(f"A side wins the match when it has {reach} at the end of a hand in which "
                     "it won the bidding and made its contract; points won defending cannot "
                     "carry a side over the line.", "target", "target_strict", "win_needs_bid")
    return _para(f"A side wins the match as soon as it has {reach} at the end of a hand, "
                 "however the points were won.", "target", "target_strict", "win_needs_bid")


def _both_reach_text(rules: Rules) -> Paragraph:
    """Who wins when both sides reach the target together."""
    if rules.win_needs_bid:
        return _para("Since only the contractor's side can win on a hand, the two sides never "
                     "win together.", "win_needs_bid")
    both = "both sides get" if len(rules.teams) == 2 else "several sides get"
    if rules.both_reach_target == "contractor":
        text = f"If {both} there on the same hand, the contractor's side wins."
    else:
        text = (f"If {both} there on the same hand, the higher score wins; a tie goes to "
                "the contractor's side.")
    if rules.all_pass == "play_no_trump":
        text += (" After a hand everybody passed, the higher score wins, and a tie plays on.")
    return _para(text, "both_reach_target", "win_needs_bid", "all_pass")


def _losing_text(rules: Rules) -> Paragraph:
    """The losing score, if any."""
    if rules.lose_at is None:
        return _para("There is no losing score: a side may sink as far below zero as it likes.",
                     "lose_at")
    return _para(f"A side whose score falls to {_num(rules.lose_at)} or below loses the match "
                 "(it has gone out the back door), unless a side has just won it. "
                 + _several_losers_text(rules), "lose_at", "both_at_lose_at")


def _several_losers_text(rules: Rules) -> str:
    """Who wins when more than one side falls to the losing score on the same hand."""
    if rules.both_at_lose_at == "contractor_loses":
        return ("If every side falls that low on the same hand, the contractor's side loses and "
                "the best of the others wins.")
    return "If every side falls that low on the same hand, the highest score wins."


def _match_section(rules: Rules) -> Section:
    """How the match is won and lost."""
    return Section("match", "Winning and losing the match", (
        _target_text(rules),
        _both_reach_text(rules),
        _losing_text(rules),
    ))


# -- the whole explanation ------------------------------------------------------------------------


def _sections(rules: Rules) -> tuple[Section, ...]:
    """Every section, in reading order."""
    return (
        _deck_section(rules),
        _card_order_section(rules),
        _bidding_section(rules),
        _contracts_section(rules),
        _kitty_section(rules),
        _play_section(rules),
        _joker_section(rules),
        _scoring_section(rules),
        _match_section(rules),
    )


def differences(rules: Any, preset: str) -> tuple[str, ...]:
    """Names of the options where ``rules`` (of any game) differ from a preset of theirs, in
    option order."""
    mine, base = rules.to_dict(), type(rules).preset(preset).to_dict()
    return tuple(key for key in mine if mine[key] != base[key])


def closest_preset(rules: Any) -> str:
    """The preset of their game with the fewest options different from ``rules`` (the first,
    on a tie)."""
    return min(type(rules).PRESETS, key=lambda name: len(differences(rules, name)))


def _value_text(value: Any) -> str:
    """An option value in words: ``yes``, ``no``, ``never``, ``play no trump``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "never"
    if isinstance(value, int):
        return _num(value)
    return str(value).replace("_", " ")


def _house_rules(rules: Any, preset: str, labels: dict[str, str]) -> tuple[HouseRule, ...]:
    """The options where a table departs from ``preset`` (``labels``: the options' names)."""
    mine, base = rules.to_dict(), type(rules).preset(preset).to_dict()
    return tuple(HouseRule(key, labels.get(key, key), _value_text(mine[key]),
                           _value_text(base[key])) for key in differences(rules, preset))


def _options_used(block: Block) -> set[str]:
    """Every option some item of the block depends on."""
    if isinstance(block, Bullets):
        return set().union(*(item.options for item in block.items))
    if isinstance(block, Table):
        return set().union(*(row.options for row in block.rows))
    return set(block.options)


def _mark(block: Block, house: frozenset[str]) -> Block:
    """The block with ``house`` set on every item that depends on a house-rule option."""
    if isinstance(block, Bullets):
        return Bullets(tuple(_mark(item, house) for item in block.items))  # type: ignore[misc]
    if isinstance(block, Table):
        return dataclasses.replace(block, rows=tuple(
            dataclasses.replace(row, house=bool(house.intersection(row.options)))
            for row in block.rows))
    return dataclasses.replace(block, house=bool(house.intersection(block.options)))


def explain(rules: Rules, *, mark_house_rules: bool = False, title: str | None = None
            ) -> Explanation:
    """The full explanation of ``rules``.

    With ``mark_house_rules`` (a table's page), every item whose wording depends on an option
    that differs from the nearest preset is marked, and those options are listed.
    """
    return explanation(rules, _sections(rules), OPTION_LABELS,
                       lambda preset: PRESET_TITLES.get(preset, preset),
                       mark_house_rules=mark_house_rules, title=title)


def explanation(rules: Any, sections: tuple[Section, ...], labels: dict[str, str],
                preset_title: Callable[[str], str], *, mark_house_rules: bool,
                title: str | None) -> Explanation:
    """The explanation of any game's ``rules`` from their ``sections``: with
    ``mark_house_rules``, the options that differ from the nearest preset are listed (named by
    ``labels``) and the items they change marked. The title, unless given, is the nearest
    preset's ``preset_title`` and "rules"."""
    preset = rules.preset_name
    closest = preset or closest_preset(rules)
    house_rules: tuple[HouseRule, ...] = ()
    if mark_house_rules and preset is None:
        used = set().union(*(_options_used(b) for s in sections for b in s.blocks))
        house_rules = tuple(dataclasses.replace(h, matters=h.option in used)
                            for h in _house_rules(rules, closest, labels))
        house = frozenset(h.option for h in house_rules)
        sections = tuple(dataclasses.replace(s, blocks=tuple(_mark(b, house) for b in s.blocks))
                         for s in sections)
    if title is None:
        title = f"{preset_title(closest)} rules"
        if preset is None:
            title += " with house rules"
    return Explanation(title, preset, closest, house_rules, sections)


def summary(rules: Rules) -> tuple[str, ...]:
    """A few short lines describing the rules at a glance (the rules index uses them)."""
    spec = rules.deck_spec
    bidding = ("one round of bidding, dealer last" if rules.bidding == "single"
               else "bidding until all but one pass")
    if rules.inkle:
        bidding += ", with inkles"
    specials = _specials(rules)
    special_text = ("special contracts: " + ", ".join(f"{b.name} {b.value}" for b in specials)
                    if specials else "no special contracts")
    reach = f"over {rules.target}" if rules.target_strict else f"{rules.target} or more"
    win = f"win with {reach}" + (" on your own contract" if rules.win_needs_bid else "")
    if rules.lose_at is not None:
        win += f", lose at {_num(rules.lose_at)}"
    return (
        f"{rules.players} players, {spec.size} cards, kitty of {spec.kitty}",
        bidding,
        special_text,
        _all_pass_text(rules).text,
        _bonus_text(rules).text,
        win,
    )
