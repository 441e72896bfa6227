"""The words 1000 shows people: its rules in plain words, generated from a :class:`Rules`
value, the titles and one-line descriptions of its presets, and how its search bot's hints
were chosen. The registry entry (:data:`cardroom.games.registry.GAMES`) hands this module to
the rules pages, the lobby's catalogue and the hints, so none of them knows the game.

The same structure as the 500 pages (:mod:`cardroom.games.text`): sections of paragraphs,
lists, card rows and tables, each naming the options its wording depends on, so a table's page
marks its house rules. The card order, card points and marriage values come from the engine's
own tables; every sentence is chosen by the option it explains. Pure functions only.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.cards import Card, Rank, Suit
from cardroom.games.options import name_options
from cardroom.games.text import (
    Explanation,
    Paragraph,
    Row,
    Section,
    Table,
    card_row,
    explanation,
    num,
    para,
)
from cardroom.games.thousand.deck import CARD_POINTS_BY_RANK, MARRIAGE_POINTS, PACK_POINTS, RANKS
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.state import BANK_SIZE, HAND_SIZE

INTRO = ("Thousand, the three-player game of Eastern Europe: bid for the bank, declare "
         "marriages, be first to 1000.")
"""How the rules index introduces the game."""

PRESET_TITLES = {"seed": "Card site (seed)", "russian": "Russian"}
"""Display names of the 1000 presets (the keys are the public preset names)."""

PRESET_BLURBS = {
    "seed": "3 players; bids 100–300 by tens, blind bids double the deal; discard 3; "
            "barrel at 880",
    "russian": "3 players; bids by fives, over 120 only with a marriage; give a card to each "
               "opponent; must trump; bolts",
}
"""What each preset plays like, in a line (the lobby's New table form)."""

OPTION_STEPS: dict[str, int] = {}
"""Every whole-number option goes by ones in a form: bids may go by fives, counts by ones."""

OPTION_LABELS = {
    "players": "Players",
    "bid_step": "Bid step",
    "min_bid": "Lowest bid",
    "max_bid": "Highest bid",
    "first_bidder_must_bid": "First bidder must bid",
    "marriage_cap": "Highest bid without a marriage",
    "blind_bidding": "Blind bidding",
    "bank_shown": "Bank shown to all",
    "bank_use": "Use of the bank",
    "raise_after_bank": "Final bet after the bank",
    "must_trump": "Must trump when void",
    "marriage_timing": "When marriages are declared",
    "count_discards": "Discards count for the contractor",
    "opponent_rounding": "Rounding of opponents' points",
    "barrel": "Barrel at",
    "barrel_hold": "Score held at the barrel",
    "barrel_deals": "Deals on the barrel",
    "barrel_count": "Which barrel deals count",
    "barrel_penalty": "Barrel penalty",
    "bolts": "Bolts",
    "bolt_penalty": "Bolt penalty",
    "target": "Winning score",
    "first_dealer": "First dealer",
    "deals": "Deals in a match",
}
"""Short human names of the 1000 options, for the list of a table's house rules."""

VALUE_LABELS = {
    "bank_use": {"discard": "Discard three", "give": "Give one to each"},
    "marriage_timing": {"when_leading": "When leading", "after_first_trick": "After a trick won"},
    "opponent_rounding": {"tens": "To tens", "fives": "To fives", "none": "Not rounded"},
    "barrel_count": {"without_bank": "Without the bank", "on_barrel": "All on the barrel"},
    "first_dealer": {"host": "The host", "random": "A random player"},
}
"""Short human names of the choice options' values, for the New table form."""
name_options(Rules, OPTION_LABELS, VALUE_LABELS)

SUITS_BY_VALUE = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""Suits as the page lists them: the most valuable marriage first."""

_RANK_WORDS = {Rank.ACE: "Ace", Rank.TEN: "Ten", Rank.KING: "King", Rank.QUEEN: "Queen",
               Rank.JACK: "Jack", Rank.NINE: "Nine"}


# -- sections -------------------------------------------------------------------------------------


def _players_section(rules: Rules) -> Section:
    players = (para("1000 is played by three players, each for themself.", "players")
               if rules.players == 3 else
               para("Four sit at the table; each deal the dealer sits it out (dealing only) and "
                    "the other three play, each for themself.", "players"))
    points = Table("Card points", ("Card", "Points"), tuple(
        Row((_RANK_WORDS[rank], str(CARD_POINTS_BY_RANK[rank]))) for rank in RANKS))
    order = card_row("order-H", "Order within every suit, highest first (hearts shown)",
                     [Card.of(rank, Suit.HEARTS) for rank in RANKS])
    return Section("players", "Players and cards", (
        players,
        para(f"The pack has 24 cards: ace, ten, king, queen, jack and nine of each suit. "
             f"The ten ranks just below the ace. The goal is to be first to "
             f"{rules.target} points, from the tricks you win and the marriages you "
             f"declare.", "target"),
        order,
        points,
        para(f"The whole pack is worth {PACK_POINTS} card points."),
    ))


def _marriage_section(rules: Rules) -> Section:
    values = Table("Marriages", ("Marriage", "Points"), tuple(
        Row((f"King and queen of {suit.name.lower()} {suit.symbol}", str(MARRIAGE_POINTS[suit])))
        for suit in SUITS_BY_VALUE))
    rows = tuple(card_row(f"marriage-{suit.letter}", f"{suit.name.capitalize()} marriage: "
                          f"{MARRIAGE_POINTS[suit]}", [Card.of(Rank.KING, suit),
                                                   Card.of(Rank.QUEEN, suit)])
                 for suit in SUITS_BY_VALUE)
    if rules.marriage_timing == "when_leading":
        when = para("You declare a marriage by leading its king or queen, on any trick you "
                    "lead (the first included).", "marriage_timing")
    else:
        when = para("You declare a marriage by leading its king or queen, but only after you "
                    "have won a trick: never on the first trick of the deal.", "marriage_timing")
    return Section("marriages", "Marriages", (
        para("Holding the king and queen of one suit is a marriage. Declaring it scores its "
             "points for you at once and makes its suit trumps until another marriage is "
             "declared. Until then there are no trumps."),
        values,
        *rows,
        when,
    ))


def _dealing_section(rules: Rules) -> Section:
    first = (para("The player who opened the table deals first.", "first_dealer")
             if rules.first_dealer == "host" else
             para("The first dealer is drawn at random.", "first_dealer"))
    return Section("dealing", "Dealing", (
        first,
        para("The deal then passes clockwise."),
        para(f"Each player gets {HAND_SIZE} cards; the {BANK_SIZE} cards left face down are "
             f"the bank. Bidding decides who takes it."),
    ))


def _bidding_section(rules: Rules) -> Section:
    items = [
        para(f"The player after the dealer bids first. Bids go from {rules.min_bid} to "
             f"{rules.max_bid} in steps of {rules.bid_step}: each bid must be higher than "
             f"the last, or you pass. Once you pass you are out of the bidding for this deal.",
             "min_bid", "max_bid", "bid_step"),
    ]
    if rules.first_bidder_must_bid:
        items.append(para(f"The first bidder must bid at least {rules.min_bid}; so someone "
                          f"always plays the deal.", "first_bidder_must_bid", "min_bid"))
    else:
        items.append(para("The first bidder may pass too; if everybody passes the deal is "
                          "void and passes to the left.", "first_bidder_must_bid"))
    if rules.marriage_cap is not None:
        items.append(para(f"Nobody may bid (or bet) above {rules.marriage_cap} without "
                          f"holding a marriage.", "marriage_cap"))
    if rules.blind_bidding:
        cap = (f" A blind bid never goes above {rules.marriage_cap}."
               if rules.marriage_cap is not None else "")
        items.append(para("You may bid blind, before looking at your cards: if the winning bid "
                          "was blind, every player's points of the deal are doubled, and the "
                          "bank is shown to nobody." + cap, "blind_bidding", "marriage_cap"))
    else:
        items.append(para("Everyone looks at their cards before bidding (no blind bids).",
                          "blind_bidding"))
    items.append(para("The highest bidder takes the bank and plays the deal as the "
                      "contractor."))
    return Section("bidding", "Bidding", tuple(items))


def _bank_section(rules: Rules) -> Section:
    shown = (para("Unless the winning bid was blind, the bank is turned face up for everybody "
                  "to see before the contractor takes it.", "bank_shown")
             if rules.bank_shown else
             para("Only the contractor sees the bank.", "bank_shown"))
    if rules.bank_use == "discard":
        use = para(f"The contractor adds the {BANK_SIZE} cards to their hand, then discards "
                   f"{BANK_SIZE} cards face down (any of them, those just taken included).",
                   "bank_use")
    else:
        use = para("The contractor adds the bank to their hand, then gives one card face down "
                   "to each opponent, so that everyone holds eight.", "bank_use")
    bet = (para("Then the contractor names the final bet: the winning bid or more, never "
                "less. The bet is what they must make.", "raise_after_bank")
           if rules.raise_after_bank else
           para("The winning bid is what the contractor must make (no final bet).",
                "raise_after_bank"))
    return Section("bank", "The bank and the final bet", (shown, use, bet))


def _play_section(rules: Rules) -> Section:
    not_following = (para("If you cannot follow suit you must play a trump if you hold one; "
                          "otherwise any card.", "must_trump")
                     if rules.must_trump else
                     para("If you cannot follow suit you may play any card.", "must_trump"))
    return Section("play", "Playing the cards", (
        para("The contractor leads the first trick; then the winner of each trick leads the "
             "next. Play goes clockwise."),
        para("You must follow the suit led if you can."),
        not_following,
        para("The highest trump wins the trick; without trumps in it, the highest card of the "
             "suit led."),
    ))


def _scoring_section(rules: Rules) -> Section:
    discards = (para("The card points of the contractor's discards count for the contractor.",
                     "count_discards", "bank_use")
                if rules.count_discards and rules.bank_use == "discard" else
                para("Only the cards won in tricks count (the discards do not).",
                     "count_discards", "bank_use")
                if rules.bank_use == "discard" else None)
    rounding = {
        "tens": "rounded to the nearest ten (36 makes 40, 34 makes 30)",
        "fives": "rounded to the nearest five (51 makes 50, 53 makes 55)",
        "none": "as they are",
    }[rules.opponent_rounding]
    blocks: list[Any] = [
        para("After the last trick, each player counts the card points of the tricks they won "
             "and adds their marriages."),
    ]
    if discards is not None:
        blocks.append(discards)
    blocks += [
        para("The contractor who reaches the bet scores the bet (not what they took); one "
             "point short and they lose the bet instead. For example, a bet of 160 with 158 "
             "taken scores −160."),
        para(f"The opponents score their card points, {rounding}, plus their marriages.",
             "opponent_rounding"),
    ]
    if rules.blind_bidding:
        blocks.append(para("After a blind winning bid, all these points are doubled, gains "
                           "and losses alike.", "blind_bidding"))
    return Section("scoring", "Scoring a deal", tuple(blocks))


def _barrel_section(rules: Rules) -> Section | None:
    items: list[Paragraph] = []
    if rules.barrel is not None:
        items.append(para(f"With {rules.barrel} points or more you sit on the barrel: you "
                          f"score nothing as an opponent, only by making a contract.",
                          "barrel"))
        if rules.barrel_hold:
            items.append(para(f"A score that passes {rules.barrel} is held at "
                              f"{rules.barrel} until a contract made takes it to "
                              f"{rules.target}.", "barrel_hold", "barrel", "target"))
        counted = ("without taking the bank" if rules.barrel_count == "without_bank"
                   else "on the barrel")
        items.append(para(f"After {rules.barrel_deals} deals {counted}, you lose "
                          f"{rules.barrel_penalty} points and come off the barrel.",
                          "barrel_deals", "barrel_count", "barrel_penalty"))
    if rules.bolts is not None:
        items.append(para(f"A deal in which you win no trick is a bolt; every {rules.bolts} "
                          f"bolts cost {rules.bolt_penalty} points.", "bolts", "bolt_penalty"))
    if not items:
        return None
    return Section("barrel", "The barrel" + (" and bolts" if rules.bolts is not None else ""),
                   tuple(items))


def _winning_section(rules: Rules) -> Section:
    items = [para(f"The first player to reach {rules.target} points or more wins the game. If "
                  f"several reach it in the same deal, the contractor wins if among them, else "
                  f"the highest score.", "target")]
    if rules.deals is not None:
        items.append(para(_deals_text(rules.deals), "deals", "target"))
    return Section("winning", "Winning", tuple(items))


def _deals_text(deals: int) -> str:
    """How a match of a fixed number of deals ends."""
    length, last = ("a single deal", "its end") if deals == 1 else (
        f"{deals} deals", "the end of the last one")
    return (f"The match is {length} (a deal everybody passed counts): if nobody has reached "
            f"the target by {last}, the highest score wins. An exact tie goes to the "
            "contractor of the last deal if among the tied players, else to the tied player "
            "in the lowest-numbered seat.")


def _sections(rules: Rules) -> tuple[Section, ...]:
    """Every section, in reading order (the barrel only where there is one)."""
    sections = [_players_section(rules), _marriage_section(rules), _dealing_section(rules),
                _bidding_section(rules), _bank_section(rules), _play_section(rules),
                _scoring_section(rules), _barrel_section(rules), _winning_section(rules)]
    return tuple(s for s in sections if s is not None)


# -- presets and house rules ----------------------------------------------------------------------


def explain(rules: Rules, *, mark_house_rules: bool = False, title: str | None = None
            ) -> Explanation:
    """The full explanation of 1000 ``rules``; with ``mark_house_rules`` (a table's page), the
    options that differ from the nearest preset are listed and what they change is marked."""
    return explanation(rules, _sections(rules), OPTION_LABELS,
                       lambda preset: f"1000: {PRESET_TITLES.get(preset, preset)}",
                       mark_house_rules=mark_house_rules, title=title)


def summary(rules: Rules) -> tuple[str, ...]:
    """A few short lines describing 1000 rules at a glance (the rules index uses them)."""
    players = "3 players" if rules.players == 3 else "4 players, the dealer sitting out"
    bids = f"bids {rules.min_bid}–{rules.max_bid} by {rules.bid_step}"
    if rules.marriage_cap is not None:
        bids += f", above {rules.marriage_cap} only with a marriage"
    if rules.blind_bidding:
        bids += "; blind bids double the deal"
    bank = ("contractor discards 3" if rules.bank_use == "discard"
            else "contractor gives a card to each opponent")
    extras = []
    if rules.barrel is not None:
        extras.append(f"barrel at {rules.barrel}")
    if rules.bolts is not None:
        extras.append(f"{rules.bolts} bolts cost {num(rules.bolt_penalty)}")
    return (players, bids, f"the bank: {bank}",
            "must trump when void" if rules.must_trump else "any card when void",
            ", ".join(extras) or "no barrel", f"first to {rules.target}" + (
                f", or the best after {rules.deals} deal{'s' * (rules.deals != 1)}"
                if rules.deals is not None else ""))


def hint(view: dict[str, Any], samples: int) -> str:
    """How 1000's search bot chose its hint: it searches the card play over deals of the
    unseen cards, played out to the end (it does not count them there, so ``samples`` is not
    named), and its final bet over ``samples`` deals solved for the highest bet made; it
    bids and handles the bank by rules of thumb, and bets by them when too few deals were
    solved in time (``samples`` is then 0)."""
    phase = view.get("phase")
    if phase == "play":
        return ("The search bot's choice: the best average result over deals of the unseen "
                "cards that fit what you have seen, each played out to the end.")
    if phase == "bet" and samples:
        return (f"The search bot's choice: the final bet with the best average score over "
                f"{samples} deals of the unseen cards, each played out to the end.")
    return "The search bot's choice by its rules of thumb."
