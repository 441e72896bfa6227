"""The words 500 shows people: its rules in plain words, generated from a :class:`Rules`
value, the titles and one-line descriptions of its presets, and how its search bot's hints
were chosen. The registry entry (:data:`cardroom.games.registry.GAMES`) hands this module to
the rules pages, the lobby's catalogue and the hints, so none of them knows the game.

The rules pages render :class:`cardroom.games.text.Explanation` and nothing else, so a page
cannot disagree with the engine: card orders come from the engine's trick tables, the bidding
order and the points from the rules' bid ladder (:mod:`.text_bidding`), and every sentence is
chosen by the option values it explains. Each item names the options it depends on, so the
page of a table whose options differ from the nearest preset can mark those items "house
rule". Pure functions only: no I/O, no HTML.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.cards import CARDS, Card, Rank, Suit
from cardroom.games.five_hundred import Contract, Rules, strain_for
from cardroom.games.five_hundred.rules import DeckSpec
from cardroom.games.five_hundred.text_bidding import (
    SPECIAL_OPTIONS,
    all_pass_text,
    bidding_section,
    contracts_section,
    has_no_tricks_contracts,
    special_bids,
)
from cardroom.games.options import name_options
from cardroom.games.text import (
    Block,
    Bullets,
    Explanation,
    Paragraph,
    Section,
    cap,
    card_face,
    card_row,
    closest_preset,
    explanation,
    join_words,
    num,
    para,
    suit_words,
)

INTRO = ""
"""The rules index introduces 500 by its presets alone."""

PRESET_TITLES = {
    "classic": "Classic",
    "australian": "Australian",
    "american": "American",
    "online": "Online",
    "two-handed": "Two-handed",
    "three-handed": "Three-handed",
    "five-handed": "Five-handed",
    "six-handed": "Six-handed",
}
"""Display names of the presets (the keys are the public preset names)."""


PRESET_SOURCES = {
    "classic": "the README of a 500 program (43 cards, redeal when all pass, 500 to win, "
               "−500 to lose); where it is silent, the Australian rules",
    "australian": "the Australian rules of 500 as pagat.com gives them",
    "american": "an American page of 500 rules (45 cards, one round of bidding, inkles, "
                "Nello for a side in the hole)",
    "online": "the help page of the online 500 room this card room follows",
    "two-handed": "\u201cTwo-Hand Five Hundred\u201d of the US card makers (bicyclecards.com): "
                  "the three-hand pack and deal, with one hand dealt face down and dead; "
                  "bidding, play and scoring as the Australian rules",
    "three-handed": "the US rules for three players, each for themself; bidding, play and "
                    "scoring as the Australian rules",
    "five-handed": "the US rules for five players, the contractor calling partners by naming "
                   "a card; bidding, play and scoring as the Australian rules",
    "six-handed": "the 63-card game for six in two teams of three; bidding, play and scoring "
                  "as the Australian rules",
}
"""Where each preset's rules come from, as its rules page says at the end."""


PRESET_BLURBS = {
    "classic": "43 cards, kitty of 3; suit and no-trump bids only",
    "australian": "43 cards, kitty of 3; misère and open misère",
    "american": "45 cards; one round of bidding, inkles, Nello",
    "online": "45 cards, kitty of 5; No Tricks, Spread, Across the Corner and Table",
    "two-handed": "2 players face to face; 33 cards, a dead hand of 10 nobody sees",
    "three-handed": "3 players, each for themself; 33 cards, kitty of 3",
    "five-handed": "5 players, own scores; the contractor calls partners by naming a card",
    "six-handed": "6 players in two teams of three; 63 cards with 11s, 12s and red 13s",
}
"""What each preset plays like, in a line (the lobby's New table form)."""

OPTION_STEPS = {"target": 10, "lose_at": 10}
"""Scores go by tens in a form; counts (players) by ones."""

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
    "claims": "Claiming tricks",
    "claim_consent": "An unproven claim needs",
    "misere_failure": "A failed no-tricks contract",
    "misere_trick_points": "Defence paid for a failed no-tricks contract",
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
    "target_tie": "An exact tie at the winning score",
    "both_at_lose_at": "Several sides at the losing score",
    "deals": "Deals in a match",
}
"""Short human names of the rules options, for the list of a table's house rules."""

VALUE_LABELS = {
    "deck": {"43": "43 cards (kitty 3)", "45": "45 cards (kitty 5)",
             "46": "46 cards, two jokers", "43-red-trump-4": "43 cards, trump-colour 4",
             "42": "42 cards, no joker", "33": "33 cards (2 or 3 players)",
             "53": "53 cards (5 players)", "63": "63 cards (6 players)"},
    "six_handed_teams": {"two_teams_of_three": "Two teams of three",
                         "three_teams_of_two": "Three teams of two"},
    "bidding": {"until_passed": "Until all but one pass", "single": "One round"},
    "rebid": {"after_intervening_bid": "After another bid", "any_time": "Any time"},
    "all_pass": {"redeal": "Deal again", "redeal_then_pass_deal": "Deal again, then pass the deal",
                 "next_dealer": "Next dealer deals", "play_no_trump": "Play in no trumps",
                 "dealer_must_bid": "Dealer must bid"},
    "first_lead": {"contractor": "The contractor", "dealer_left": "Left of the dealer"},
    "misere_placement": {"after_seven": "After a seven", "by_value": "By its value"},
    "claims": {"off": "Nobody claims", "lead": "The player on lead",
               "turn": "Any player at their turn"},
    "claim_consent": {"both": "Both opponents to accept", "one": "One opponent to accept"},
    "misere_failure": {"stop": "Stop the hand", "play_on": "Play on"},
    "nt_joker": {"play_any_time": "Any time", "only_when_void": "Only when void"},
    "all_tricks_bonus": {"none": "None", "slam_250": "At least 250",
                         "sweep_plus_50": "Plus 50 for 6–9 bids"},
    "defender_points": {"always": "Always", "none": "Never", "not_over_490": "Up to 490",
                        "not_over_400": "Up to 400"},
    "both_reach_target": {"contractor": "Contractor's side", "higher_score": "Higher score"},
    "target_tie": {"contractor": "Contractor's side", "play_on": "Another hand"},
    "both_at_lose_at": {"higher_score": "Higher score wins",
                        "contractor_loses": "Contractor's side loses"},
}
"""Short human names of the choice options' values, for the New table form."""
name_options(Rules, OPTION_LABELS, VALUE_LABELS)

SUIT_ORDER = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""Suits as the page lists them: highest bidding seniority first."""
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
    """Cards dealt to each player (and each dead hand): what the kitty leaves, shared out."""
    return (rules.deck_spec.size - rules.kitty_size) // (rules.players + rules.dead_hands)


def _dead_hands_text(rules: Rules) -> Paragraph:
    """Two players: the hands dealt to the empty seats, out of play."""
    spec = rules.deck_spec
    size = _hand_size(rules)
    if rules.dead_hands == 1:
        dealt = (f"The deck is dealt as for {spec.players} players, but the hand of {size} "
                 "cards on the dealer's left is dealt face down to an empty seat: it is a dead "
                 "hand, out of play for the whole hand. Nobody looks at it, nobody plays from "
                 "it, and nobody is shown it")
    else:
        dealt = (f"The deck is dealt as for {spec.players} players, but the {rules.dead_hands} "
                 f"hands of {size} cards dealt to the empty seats (the dealer's left and "
                 "right) are dead hands, out of play for the whole hand. Nobody looks at them, "
                 "nobody plays from them, and nobody is shown them")
    return para(dealt + ", not even at the end of the hand: bidding is partly guesswork.",
                "deck", "players")


def _deck_section(rules: Rules) -> Section:
    """Deck, deal, kitty size and partnerships."""
    spec = rules.deck_spec
    k = rules.kitty_size
    blocks: list[Block] = [
        para(f"The deck has {spec.size} cards: {_deck_contents(spec)}.", "deck"),
        para(f"Each of the {rules.players} players is dealt {_hand_size(rules)} cards and the "
             f"other {k} go face down to the middle as the kitty.", "deck", "players")
        if not rules.dead_hands else
        para(f"Each of the 2 players is dealt {_hand_size(rules)} cards and {k} go face down "
             "to the middle as the kitty.", "deck", "players"),
        *([_dead_hands_text(rules)] if rules.dead_hands else []),
        _sides_text(rules),
        para("Dealing, bidding and play go clockwise. The player on the dealer's left speaks "
             "first, and the deal moves one seat to the left after every hand played.")
        if rules.players != 2 else
        para("The dealer's opponent speaks first, and the two players take turns to deal. "
             "Wherever these rules speak of the player on the dealer's left, read the dealer's "
             "opponent: the dead hands have no turn.", "players"),
    ]
    if rules.misdeal_no_face:
        blocks.append(para("A player whose hand holds no face card (no jack, queen, king or "
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
    if n == 2:
        return para("Two players sit face to face and play against each other, each keeping "
                    "their own score: the winner of the bidding plays alone against the other, "
                    "who scores the tricks they take. Every trick has two cards.", "players")
    if n == 3:
        return para("Three players play cut-throat: each keeps their own score. In each hand "
                    "the two players who did not win the bidding play together against the "
                    "contractor, and each of them scores the tricks they take.", "players")
    if n == 5:
        return para("Five players each keep their own score. In each hand the contractor of a "
                    "trick bid calls partners for that hand by naming a card (see the kitty "
                    "below); the other players defend, each scoring the tricks they take.",
                    "players")
    if n == 6 and len(teams) == 2:
        return para(f"Six players make two teams of three who sit alternately "
                    f"({_seats(teams[0])} against {_seats(teams[1])}).",
                    "players", "six_handed_teams")
    if n == 6:
        return para("Six players make three partnerships of two; partners sit opposite each "
                    "other (" + ", ".join(_seats(t) for t in teams) + ").",
                    "players", "six_handed_teams")
    (a, b), (c, d) = teams
    return para(f"{n} players make two partnerships; partners sit opposite each "
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
                        f"{join_words([suit_words(s) for s in g])}" for g in groups)


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
        para(f"{top}, then the other jack of the same colour (the left bower), then ace, "
             f"king, queen, {middle}10 and on down to {_lowest_cards(spec)}. The left bower is "
             "a trump in every way: it follows trumps, not its printed suit.", "deck"),
    ]
    if spec.colour_four:
        blocks.append(para("The 4 of the other suit of the trump colour (the 4♥ or the 4♣) "
                           "is also a trump, the lowest one.", "deck"))
    blocks += [card_row(f"trump-{s.letter}", f"{suit_words(s).capitalize()} trumps",
                        trump_order(rules, s), "deck") for s in SUIT_ORDER]
    red, black = Suit.HEARTS, Suit.SPADES
    blocks.append(para(f"A suit that is not trumps runs ace, king, queen, jack, {middle}10 and "
                       "down. The suit of the same colour as trumps has lost its jack to the "
                       "trumps.", "deck"))
    for group in _suit_groups(spec):
        suit = group[0]
        other = black if suit.is_red else red
        names = ("Any suit" if len(group) == len(Suit)
                 else cap(join_words([suit_words(s) for s in group])))
        caption = f"{names} when not trumps, and in no trumps ({suit_words(suit)} shown)"
        blocks.append(card_row(f"plain-{suit.letter}", caption,
                               plain_order(rules, suit, other), "deck"))
    blocks.append(card_row(f"plain-{Suit.DIAMONDS.letter}-{Suit.HEARTS.letter}",
                           "Diamonds when hearts are trumps",
                           plain_order(rules, Suit.DIAMONDS, Suit.HEARTS), "deck"))
    blocks.append(para("In no trumps there are no bowers: each jack ranks between its queen "
                       "and its 10, and the joker is the only trump (see the joker below)."))
    if rules.j5_no_trumps:
        blocks.append(para("In J5 no trumps each jack ranks above its own ace instead; "
                           "otherwise it is played as no trumps.", "j5_no_trumps"))
    return Section("card-order", "The order of the cards", tuple(blocks))


# -- kitty and play -------------------------------------------------------------------------------


def _kitty_section(rules: Rules) -> Section:
    """The contractor's exchange with the kitty."""
    k = rules.kitty_size
    blocks: list[Block] = [para(
        f"The winner of the bidding becomes the contractor: they pick up the {k} kitty cards "
        f"without showing them, then put {k} cards back face down, any {k} they like, including "
        f"cards just picked up. The discards take no further part in the hand.", "deck")]
    changed = [b.name for b in special_bids(rules)
               if b.contract in (Contract.NELLO, Contract.ACROSS_THE_CORNER,
                                 Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO,
                                 Contract.SHIELDS_DOUBLE, Contract.PATASTROPHE)
               or (b.contract is Contract.OPEN_MISERE and rules.wilkinson_misere)]
    if changed:
        blocks.append(para(f"{join_words(changed)} change this, as described with the "
                           f"special contracts.", *SPECIAL_OPTIONS, "wilkinson_misere"))
    if rules.slam_call:
        blocks.append(para(
            "Instead of putting cards back, the contractor of a seven-trick bid in a suit or no "
            "trumps may call slam: partner passes them one card and sits the hand out, the "
            f"contractor puts {k + 1} cards back and must take all ten tricks. Made, it scores "
            "the eight bid of the same strain; failed, it loses the seven bid's value plus "
            "100.", "slam_call"))
    if rules.players == 5:
        blocks.append(para(
            "With five players the contractor of a trick bid then calls a partner by naming a "
            "card they do not hold (two cards, so two partners, on a bid of eight or more). "
            "Whoever holds a named card plays for the contract this hand and scores what the "
            "contractor scores; nobody says so, and the others find out when that card is "
            "played. Naming a card that went into the kitty means playing alone. No-tricks "
            "contracts are played alone, without a call.", "players"))
    if rules.all_pass == "play_no_trump":
        blocks.append(para("A hand that everybody passed is played without any exchange: the "
                           "kitty stays where it is.", "all_pass"))
    return Section("kitty", "The kitty", tuple(blocks))


def _first_lead(rules: Rules) -> Paragraph:
    """Who leads to the first trick."""
    if rules.first_lead == "contractor":
        return para("The contractor leads to the first trick.", "first_lead")
    return para("The player on the dealer's left leads to the first trick (or the next player "
                "round, if that player sits the hand out).", "first_lead")


def _play_section(rules: Rules) -> Section:
    """Following suit and winning tricks."""
    blocks: list[Block] = [_first_lead(rules), Bullets((
        para("You must follow the suit led if you can; if you cannot, you may play any card "
             "(but see the joker below)."),
        para("The left bower counts as a trump: when trumps are led it must follow, and when "
             "its printed suit is led it does not count as that suit."),
        para("A trick is won by the highest trump in it; with no trump in it, by the highest "
             "card of the suit led. Cards of other suits never win."),
        para("The winner of a trick leads to the next one."),
    ))]
    if has_no_tricks_contracts(rules) or rules.hi_lo or rules.slam_call:
        blocks.append(para("When a player sits a hand out, tricks have one card fewer for "
                           "each such player and play simply skips the empty seats.",
                           *SPECIAL_OPTIONS, "slam_call"))
    if rules.players == 4 and len(rules.teams) == 2:
        blocks.append(_claims_text(rules))
    return Section("play", "Playing the tricks", tuple(blocks))


def _claims_text(rules: Rules) -> Paragraph:
    """Who may claim tricks, and what makes a claim stand."""
    if rules.claims == "off":
        return para("Nobody claims: every trick is played out.", "claims")
    who = ("The player on lead, before the first card of a trick," if rules.claims == "lead"
           else "Any player, at their turn to play,")
    consent = ("both opponents accept it" if rules.claim_consent == "both"
               else "either opponent accepts it")
    return para(f"{who} may claim: say how many of the tricks left their side takes (in a "
                "no-tricks contract, its player claims that it takes no more) and show their "
                "hand. If the solver proves the claim holds however the others play, the hand "
                f"ends there; otherwise it stands only if {consent}, and play goes on if not.",
                "claims", "claim_consent")


def _nt_joker_text(rules: Rules) -> list[Paragraph]:
    """The joker in no trumps: leading it, and playing it to someone else's lead."""
    when = "In no trumps"
    if rules.all_pass == "play_no_trump":
        when = "In no trumps (including a hand that everybody passed)"
    lead = para(f"{when} the joker belongs to no suit and is the only trump. If you lead it, "
                "you name a suit: the others must follow that suit if they can, and the joker "
                "wins the trick.", "all_pass")
    if rules.nt_joker == "play_any_time":
        follow = para("When someone else led, you may play the joker at any time, even if you "
                      "could follow suit, and it wins the trick.", "nt_joker")
    else:
        follow = para("When someone else led, you may play the joker only if you cannot follow "
                      "the suit led; it then wins the trick.", "nt_joker")
    texts = [lead, follow]
    if rules.joker_lead_limits:
        texts.append(para("A joker led in no trumps may not name a suit that has already been "
                          "led this hand, and once all four suits have been led the joker may "
                          "not be led except to the last trick.", "joker_lead_limits"))
    if rules.joker_suit_nomination:
        texts.append(para("In a no-trumps contract the contractor may, before the first lead, "
                          "name a suit for the joker: it then belongs to that suit as its "
                          "highest card, and is no longer a trump.",
                          "joker_suit_nomination"))
    return texts


def _no_tricks_joker_text(rules: Rules) -> list[Paragraph]:
    """The joker in contracts whose makers must take no tricks."""
    texts: list[Paragraph] = []
    if rules.misere_joker_forced:
        texts.append(para("In no-tricks contracts the joker must be played as soon as its "
                          "holder cannot follow suit, and it may not be led except to the last "
                          "trick.", "misere_joker_forced"))
    else:
        texts.append(para("In no-tricks contracts the joker may be played only when its holder "
                          "cannot follow suit (another card will do then too), and it may be "
                          "led, naming a suit, as in no trumps.", "misere_joker_forced"))
    if rules.nt_joker == "play_any_time":
        texts.append(para("The no-trumps freedom to play the joker at any time does not apply "
                          "to no-tricks contracts.", "nt_joker"))
    if rules.joker_low_in_misere:
        texts.append(para("There the joker is low: it wins a trick only when it was led and "
                          "nobody could follow the suit it named.", "joker_low_in_misere"))
    else:
        texts.append(para("There too the joker wins every trick it is played to.",
                          "joker_low_in_misere"))
    return texts


def _joker_section(rules: Rules) -> Section:
    """Every joker rule that applies under these rules."""
    if rules.deck_spec.jokers == 0:
        return Section("joker", "The joker", (para(
            "This deck has no joker: in no trumps there are no trumps at all.", "deck"),))
    blocks: list[Block] = [para(
        "With a trump suit, the joker is simply the highest trump: it may be played when trumps "
        "are led or when you cannot follow the suit led, but never while you hold a card of "
        "the suit led.")]
    blocks += _nt_joker_text(rules)
    if has_no_tricks_contracts(rules):
        blocks += _no_tricks_joker_text(rules)
    return Section("joker", "The joker", tuple(blocks))


# -- scoring and the end of the match -------------------------------------------------------------


def _bonus_text(rules: Rules) -> Paragraph:
    """What taking all ten tricks is worth."""
    return para({
        "none": "Extra tricks earn nothing, not even taking all ten.",
        "slam_250": "Extra tricks earn nothing, except that taking all ten tricks on a contract "
                    "worth less than 250 scores 250 instead (a slam).",
        "sweep_plus_50": "Extra tricks earn nothing, except that taking all ten tricks on a bid "
                         "of six to nine tricks adds 50 (a sweep).",
    }[rules.all_tricks_bonus], "all_tricks_bonus")


def _defender_text(rules: Rules) -> Paragraph:
    """What the defenders score for their tricks."""
    if rules.defender_points == "always":
        return para("The defenders score 10 for every trick they take, whether the contract is "
                    "made or not.", "defender_points")
    if rules.defender_points in ("not_over_490", "not_over_400"):
        cap = 490 if rules.defender_points == "not_over_490" else 400
        return para(f"The defenders score 10 for every trick they take, but only up to a score "
                    f"of {cap}: points won defending never take a side past {cap}.",
                    "defender_points")
    return para("The defenders score nothing for their tricks: only the contractor's side "
                "scores in a hand.", "defender_points")


def _no_tricks_scoring(rules: Rules) -> Paragraph:
    """Scoring a no-tricks contract, and what happens when its makers take a trick."""
    pays = rules.defender_points == "always" and rules.misere_trick_points
    if rules.misere_failure == "stop":
        tail = ", and the defenders score 10 for that trick" if pays else ""
        text = f"The hand stops at the first trick the makers take{tail}."
    else:
        tail = (", and the defenders score 10 for every trick the makers take" if pays else "")
        text = f"The hand is played to the end even after the makers take a trick{tail}."
    return para("A no-tricks contract is made if its makers take no trick: they score its "
                "value; otherwise they lose it. " + text, "misere_failure", "defender_points",
                "misere_trick_points")


def _scoring_section(rules: Rules) -> Section:
    """Points for made and failed contracts, defenders and bonuses."""
    blocks: list[Block] = [
        para("If the contractor's side takes at least the tricks bid, it scores the value of "
             "the bid; if not, it loses that value. Scores may go below zero."),
        _bonus_text(rules),
        _defender_text(rules),
    ]
    if has_no_tricks_contracts(rules):
        blocks.append(_no_tricks_scoring(rules))
    return Section("scoring", "Scoring a hand", tuple(blocks))


def _target_text(rules: Rules) -> Paragraph:
    """The winning score and whether it must be won as contractor."""
    reach = (f"more than {rules.target}" if rules.target_strict else f"{rules.target} or more")
    if rules.win_needs_bid:
        return para(f"A side wins the match when it has {reach} at the end of a hand in which "
                    "it won the bidding and made its contract; points won defending cannot "
                    "carry a side over the line.", "target", "target_strict", "win_needs_bid")
    return para(f"A side wins the match as soon as it has {reach} at the end of a hand, "
                "however the points were won.", "target", "target_strict", "win_needs_bid")


def _both_reach_text(rules: Rules) -> Paragraph:
    """Who wins when both sides reach the target together."""
    if rules.win_needs_bid:
        return para("Since only the contractor's side can win on a hand, the two sides never "
                    "win together.", "win_needs_bid")
    both = "both sides get" if len(rules.teams) == 2 else "several sides get"
    if rules.both_reach_target == "contractor":
        text = f"If {both} there on the same hand, the contractor's side wins."
    else:
        text = f"If {both} there on the same hand, the higher score wins."
    if rules.target_tie == "contractor":
        text += (" An exact tie for the highest score goes to the contractor's side; if the "
                 "contractor's side is not one of the tied sides, another hand is dealt.")
    else:
        text += " An exact tie for the highest score is settled by another hand."
    if rules.all_pass == "play_no_trump":
        text += " After a hand everybody passed, the higher score wins, and a tie plays on."
    return para(text, "both_reach_target", "win_needs_bid", "all_pass", "target_tie")


def _losing_text(rules: Rules) -> Paragraph:
    """The losing score, if any."""
    if rules.lose_at is None:
        return para("There is no losing score: a side may sink as far below zero as it likes.",
                    "lose_at")
    return para(f"A side whose score falls to {num(rules.lose_at)} or below loses the match "
                "(it has gone out the back door), unless a side has just won it. "
                + _several_losers_text(rules), "lose_at", "both_at_lose_at")


def _several_losers_text(rules: Rules) -> str:
    """Who wins when more than one side falls to the losing score on the same hand."""
    if rules.both_at_lose_at == "contractor_loses":
        return ("If every side falls that low on the same hand, the contractor's side loses and "
                "the best of the others wins.")
    return "If every side falls that low on the same hand, the highest score wins."


def _deals_text(rules: Rules, deals: int) -> Paragraph:
    """How a match of ``deals`` deals (the ``deals`` option) ends."""
    length, last = ("a single deal", "its end") if deals == 1 else (
        f"{deals} deals", "the end of the last one")
    counted = ("a deal everybody passed, or thrown in for a misdeal, counts"
               if rules.misdeal_no_face else "a deal everybody passed counts")
    ended = "won or lost the match" if rules.lose_at is not None else "won the match"
    return para(f"The match is {length} ({counted}): if no side has {ended} by {last}, the "
                "highest score wins. An exact tie goes to the contractor's side of the last "
                "deal if it is one of the tied sides, else to the tied side with the "
                "lowest-numbered seat.", "deals", "lose_at", "misdeal_no_face")


def _match_section(rules: Rules) -> Section:
    """How the match is won and lost."""
    blocks = [_target_text(rules), _both_reach_text(rules), _losing_text(rules)]
    if rules.deals is not None:
        blocks.append(_deals_text(rules, rules.deals))
    return Section("match", "Winning and losing the match", tuple(blocks))


# -- the whole explanation ------------------------------------------------------------------------


def _sections(rules: Rules) -> tuple[Section, ...]:
    """Every section, in reading order."""
    return (
        _deck_section(rules),
        _card_order_section(rules),
        bidding_section(rules),
        contracts_section(rules),
        _kitty_section(rules),
        _play_section(rules),
        _joker_section(rules),
        _scoring_section(rules),
        _match_section(rules),
        _source_section(rules),
    )


def _source_section(rules: Rules) -> Section:
    """Where the rules of the nearest preset come from (house rules aside)."""
    preset = closest_preset(rules)
    return Section("source", "Where these rules come from", (para(
        f"The {PRESET_TITLES[preset]} rules follow {PRESET_SOURCES[preset]}."),))


def explain(rules: Rules, *, mark_house_rules: bool = False, title: str | None = None
            ) -> Explanation:
    """The full explanation of ``rules``.

    With ``mark_house_rules`` (a table's page), every item whose wording depends on an option
    that differs from the nearest preset is marked, and those options are listed.
    """
    return explanation(rules, _sections(rules), OPTION_LABELS,
                       lambda preset: PRESET_TITLES.get(preset, preset),
                       mark_house_rules=mark_house_rules, title=title)


def summary(rules: Rules) -> tuple[str, ...]:
    """A few short lines describing the rules at a glance (the rules index uses them)."""
    spec = rules.deck_spec
    bidding = ("one round of bidding, dealer last" if rules.bidding == "single"
               else "bidding until all but one pass")
    if rules.inkle:
        bidding += ", with inkles"
    specials = special_bids(rules)
    special_text = ("special contracts: " + ", ".join(f"{b.name} {b.value}" for b in specials)
                    if specials else "no special contracts")
    reach = f"over {rules.target}" if rules.target_strict else f"{rules.target} or more"
    win = f"win with {reach}" + (" on your own contract" if rules.win_needs_bid else "")
    if rules.lose_at is not None:
        win += f", lose at {num(rules.lose_at)}"
    if rules.deals is not None:
        win += f"; the best after {rules.deals} deal{'s' * (rules.deals != 1)}"
    dead = (f", {rules.dead_hands * 10} cards dead" if rules.dead_hands else "")
    return (
        f"{rules.players} players, {spec.size} cards, kitty of {spec.kitty}{dead}",
        bidding,
        special_text,
        all_pass_text(rules).text,
        _bonus_text(rules).text,
        win,
    )


# -- hints ----------------------------------------------------------------------------------------


def hint(view: dict[str, Any], samples: int) -> str:
    """How 500's search bot chose its hint for the seat whose view this is, in a sentence a
    player can check: it names the number of sampled deals only when the bot reports having
    searched them (``samples``), each solved exactly; too early in the hand it plays by rule
    of thumb."""
    if view.get("phase") == "play":
        if samples:
            deals = "deal" if samples == 1 else "deals"
            return (f"The search bot's choice: the best average result over {samples} {deals} "
                    "of the unseen cards that fit what you have seen, each solved exactly.")
        return ("The search bot's rule of thumb: too much is unknown yet to search the play "
                "in time.")
    if view.get("discard_count"):
        return ("The search bot's choice of cards to put back, from your hand and the kitty "
                "(sampled deals where it has time, else its rule of thumb).")
    if view.get("phase") == "bidding":
        return ("The search bot's bid for your hand (it tries its likeliest contracts on "
                "sampled deals where it has time, else bids by its hand evaluation).")
    return "The search bot's choice for your seat (by its rules of thumb at this point)."
