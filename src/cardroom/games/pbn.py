"""PBN-style text for any game of the room: what 500's and 1000's exports share.

The Portable Bridge Notation (PBN 2.1) layout (lines, tags and their order, escaping, dates),
the table's seats at PBN's places (four-handed 500 onto South, West, North and East; other
sizes at extra places, see :data:`TABLES`), cards and hands in PBN's suit order, rows in table
order, and the identification section. Each game's ``pbn.py`` gathers its hands with its
engine and writes them with these, so both games write one format; ``docs/pbn.md`` describes
every tag.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.games.cards import (
    BLACK_JOKER_INDEX,
    CARDS,
    JOKER_INDEX,
    Card,
    Rank,
    Suit,
    indexes_of,
)
from cardroom.games.record import Record

# -- the table: seats and PBN's places --------------------------------------------------------

EOL = "\r\n"
"""PBN's end of line (export format: CR LF)."""
LINE_LIMIT = 255
"""Characters a PBN line may hold, the end of line included."""
MANDATORY_TAGS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                  "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
"""PBN's mandatory tag set, in the order export format writes it."""
PLACE_TAGS = {"S": "South", "W": "West", "N": "North", "E": "East", "NW": "NorthWest",
              "NE": "NorthEast", "SW": "SouthWest", "SE": "SouthEast"}
"""The tag naming the player at each place (the last four are this export's own)."""


@dataclass(frozen=True)
class Table:
    """Where the seats of a table of some size sit: ``places`` goes round the table
    clockwise from South (PBN's order of play, empty places included) and ``seats`` gives the
    place of each seat number."""

    places: tuple[str, ...]
    seats: tuple[str, ...]

    @property
    def plain(self) -> bool:
        """True when the places are PBN's four, so the sections are plain PBN."""
        return self.places == FOUR

    def seat_at(self, place: str) -> int | None:
        """The seat at ``place``, or ``None`` for an empty place."""
        return self.seats.index(place) if place in self.seats else None

    def round_from(self, place: str) -> tuple[str, ...]:
        """Every place once, clockwise, starting at ``place``."""
        start = self.places.index(place)
        return self.places[start:] + self.places[:start]


FOUR = ("S", "W", "N", "E")
TABLES: dict[int, Table] = {
    2: Table(FOUR, ("S", "N")),
    3: Table(FOUR, ("S", "W", "E")),
    4: Table(FOUR, FOUR),
    5: Table(("S", "W", "NW", "NE", "E"), ("S", "W", "NW", "NE", "E")),
    6: Table(("S", "SW", "NW", "N", "NE", "SE"), ("S", "SW", "NW", "N", "NE", "SE")),
}
"""Each table size's places, as the terminal names the seats: two face each other (South
and North), three leave North empty, five and six add places PBN has no letter for."""


def side_label(table: Table, seats: Iterable[int]) -> str:
    """A side as PBN's Score tag names it: ``NS`` or ``EW``; at other tables the places of
    its seats joined by ``+`` (``S``, ``SW+NE``)."""
    places = [table.seats[seat] for seat in seats]
    if sorted(places) == ["N", "S"]:
        return "NS"
    if sorted(places) == ["E", "W"]:
        return "EW"
    return "+".join(places)


def sides_value(table: Table, teams: Sequence[Sequence[int]], values: Sequence[int]) -> str:
    """``NS 520 EW 20``: a number for each side, in the form of PBN's Score tag."""
    return " ".join(f"{side_label(table, team)} {value}"
                    for team, value in zip(teams, values, strict=True))


def seats_value(table: Table, values: Sequence[object]) -> str:
    """``S:3 W:2 N:4 E:1``: a value for each seat, South first and clockwise."""
    return " ".join(f"{place}:{value}" for place, value in zip(table.seats, values, strict=True))


# -- cards ------------------------------------------------------------------------------------

PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""PBN's suit order (spades, hearts, diamonds, clubs)."""
RANK_LETTERS = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J",
                Rank.THIRTEEN: "R", Rank.TWELVE: "W", Rank.ELEVEN: "E", Rank.TEN: "T",
                **{Rank(value): str(value + 2) for value in range(8)}}
"""One letter per rank: PBN's ``A K Q J T 9 … 2``, and for the six-handed deck's 13, 12
and 11 the letters ``R``, ``W`` and ``E`` (thiRteen, tWelve, Eleven: not PBN)."""
JOKER_TOKENS = {JOKER_INDEX: "JH", BLACK_JOKER_INDEX: "J2"}
"""The jokers as card tokens: ``JH`` as the 500 app writes its joker (suit J, rank H), and
``J2`` for the second, black joker of the 46-card deck."""


def card_token(card: Card) -> str:
    """A card as PBN writes it, suit first: ``SA``, ``HT``, ``CE`` (an 11), ``JH`` (the
    joker)."""
    if card.suit is None:
        return JOKER_TOKENS[card.index]
    assert card.rank is not None
    return card.suit.letter + RANK_LETTERS[card.rank]


def pbn_order(mask: int) -> list[Card]:
    """The cards of ``mask`` in PBN's order: spades, hearts, diamonds, clubs, each highest
    first, then the jokers."""
    cards = [CARDS[index] for index in indexes_of(mask)]
    return sorted(cards, key=lambda card: (PBN_SUITS.index(card.suit), -card.index)
                  if card.suit is not None else (4, card.index))


def cards_value(mask: int) -> str:
    """Cards run together as the 500 app writes a kitty: ``C8HQS5``."""
    return "".join(card_token(card) for card in pbn_order(mask))


def hand_value(mask: int) -> str:
    """A hand as the Deal tag writes it, ``KQ4.T.A98.J765``: each suit's ranks, highest
    first, spades to clubs; jokers left out (bridge has none)."""
    ranks: dict[Suit, str] = {suit: "" for suit in PBN_SUITS}
    for card in pbn_order(mask):
        if card.suit is not None and card.rank is not None:
            ranks[card.suit] += RANK_LETTERS[card.rank]
    return ".".join(ranks[suit] for suit in PBN_SUITS)


def placed_cards(table: Table, masks: Sequence[int], only: int = -1) -> str:
    """``N:JH E:J2``: the cards among ``only`` that each seat holds, seats without any left
    out (the form of the 500 app's CardsAdded tag)."""
    return " ".join(f"{place}:{cards_value(mask & only)}"
                    for place, mask in zip(table.seats, masks, strict=False) if mask & only)


# -- tags, sections, the file -----------------------------------------------------------------


def escape(value: str) -> str:
    """A tag value as a PBN string: backslashes and quotes escaped; tabs and line breaks,
    which a string may not hold, become spaces."""
    value = re.sub(r"[\x00-\x1f\x7f]", " ", value)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def tag(name: str, value: str) -> str:
    """One tag pair on its line. A value too long for a PBN line (a long name or event) is
    cut short, never in the middle of an escape."""
    room = LINE_LIMIT - len(EOL) - len(name) - len('[ ""]')
    text = escape(value)
    if len(text) > room:
        text = text[:room]
        if (len(text) - len(text.rstrip("\\"))) % 2:
            text = text[:-1]
    return f'[{name} "{text}"]'


def pbn_date(date: str) -> str:
    """``YYYY.MM.DD`` from ``YYYY.MM.DD`` or ``YYYY-MM-DD``; ``????.??.??`` when unknown.
    ``ValueError`` for anything else."""
    if not date:
        return "????.??.??"
    text = date.replace("-", ".")
    if not re.fullmatch(r"[\d?]{4}\.[\d?]{2}\.[\d?]{2}", text):
        raise ValueError(f"a PBN date is YYYY.MM.DD, not {date!r}")
    return text


def rows_in_order(round_: Sequence[str], entries: Iterable[tuple[str, str]]) -> list[str]:
    """Calls laid out as PBN's auction lines: one column per place of ``round_``, in its
    order, a line per round; ``-`` where a place has no call at its turn (an empty place, a
    player who has passed for good)."""
    cells: list[str] = []
    for place, text in entries:
        while round_[len(cells) % len(round_)] != place:
            cells.append("-")
        cells.append(text)
    size = len(round_)
    return [" ".join(cells[start:start + size]) for start in range(0, len(cells), size)]


def trick_lines(table: Table, leader: int,
                tricks: Iterable[Sequence[tuple[int, str]]]) -> tuple[str, list[str]]:
    """PBN's play lines: the opening ``leader``'s place, and a line per trick of (seat,
    card token) pairs with each card in its player's column, the columns clockwise from the
    opening leader whoever leads the trick; ``-`` for a place out of the trick."""
    first = table.seats[leader]
    round_ = table.round_from(first)
    lines = []
    for trick in tricks:
        cells = {table.seats[seat]: token for seat, token in trick}
        lines.append(" ".join(cells.get(place, "-") for place in round_))
    return first, lines


class Notes(list[str]):
    """The notes of a play section: each text once, referred to by its number."""

    def refer(self, text: str) -> str:
        """The note token (``=1=``) of ``text``, adding it if new."""
        if text not in self:
            self.append(text)
        return f"={self.index(text) + 1}="


@dataclass
class Section:
    """One game section: the mandatory tags (every one of :data:`MANDATORY_TAGS`), the
    supplemental tags, the auction (first caller's place, lines), the play (opening leader's
    place, lines, note texts) and supplemental tables (columns, rows)."""

    mandatory: dict[str, str]
    extra: dict[str, str] = field(default_factory=dict)
    auction: tuple[str, list[str]] | None = None
    play: tuple[str, list[str], list[str]] | None = None
    tables: dict[str, tuple[str, list[str]]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The section's lines in export order: the mandatory tags in their order, the
        others alphabetically, the auction, the play, the tables alphabetically; both
        sections close with ``*`` (a 500 auction does not end as bridge's does, and a hand
        of ten tricks is not bridge's thirteen)."""
        lines = [tag(name, self.mandatory[name]) for name in MANDATORY_TAGS]
        lines += [tag(name, self.extra[name]) for name in sorted(self.extra)]
        if self.auction is not None:
            first, calls = self.auction
            lines += [tag("Auction", first), *calls, "*"]
        if self.play is not None:
            leader, cards, notes = self.play
            lines += [tag("Play", leader), *cards, "*"]
            lines += [tag("Note", f"{number}:{text}") for number, text in enumerate(notes, 1)]
        for name in sorted(self.tables):
            columns, rows = self.tables[name]
            lines += [tag(name, columns), *rows]
        return lines


def pbn_file(sections: Sequence[Section], table: Table, game: str) -> str:
    """The whole text: PBN's version line and a character set line, a line saying when the
    file is not plain PBN, then the game sections, each but the first after an empty line;
    CR LF line ends."""
    lines = ["% PBN 2.1", "%Content-type: text/x-pbn; charset=UTF-8"]
    if not table.plain:
        lines.append(f"% {game} for {len(table.seats)} players: not plain PBN (places "
                     f"{' '.join(table.places)}, see the cardroom docs)")
    for number, section in enumerate(sections):
        if number:
            lines.append("")
        lines += section.lines()
    return EOL.join(lines) + EOL


def board_tags(table: Table, number: int, dealer: int, hands: Sequence[int]) -> dict[str, str]:
    """A hand's mandatory tags of its own: its number, its dealer and the deal."""
    return {"Board": str(number), "Dealer": table.seats[dealer],
            "Deal": deal_value(table, dealer, hands)}


def auction_rows(table: Table, calls: Sequence[tuple[int, str]]) -> tuple[str, list[str]] | None:
    """The ``Auction`` section of a hand's calls ((seat, call token) in order): the first
    caller's place and the calls in rows in table order; ``None`` for a hand without calls."""
    if not calls:
        return None
    first = table.seats[calls[0][0]]
    return first, rows_in_order(table.round_from(first),
                                [(table.seats[seat], call) for seat, call in calls])


def match_text(record: Record, rules: Any, names: Sequence[str] | None, event: str, site: str,
               date: str, sections: Callable[[dict[str, str]], Iterable[Section]]) -> str:
    """A match as PBN text, for any game: the identification every section shares, the
    players' names, the rules (the preset's name and a ``RulesTable`` of the options that
    differ) and the file's layout around the game's own sections (``sections(shared)``, one
    per hand, built on the shared identification tags)."""
    table = TABLES[rules.players]
    shared = identification(record, table, names, event, site, date)
    preset, changes = rules_rows(rules)
    written = []
    for section in sections(shared):
        section.extra.update(extra_names(table, names))
        section.extra["Rules"] = preset
        if changes:
            section.tables["RulesTable"] = ("Option;Value", changes)
        written.append(section)
    return pbn_file(written, table, record.game)


def identification(record: Record, table: Table, names: Sequence[str] | None, event: str,
                   site: str, date: str) -> dict[str, str]:
    """The mandatory tags every hand of a match shares (unknown ones ``?`` as PBN asks; the
    players of empty places empty). ``ValueError`` for a date PBN cannot hold or a list of
    names that is not one per seat."""
    if names is not None and len(names) != len(table.seats):
        raise ValueError(f"{len(names)} names for {len(table.seats)} seats")
    tags = {"Event": event or "?", "Site": site or "?", "Date": pbn_date(date),
            "Vulnerable": "None", "Scoring": record.game}
    for place in FOUR:
        seat = table.seat_at(place)
        tags[PLACE_TAGS[place]] = "" if seat is None else (names[seat] if names else "?")
    return tags


def extra_names(table: Table, names: Sequence[str] | None) -> dict[str, str]:
    """The name tags of the places PBN lacks (``NorthWest`` …: five and six players)."""
    return {PLACE_TAGS[place]: names[seat] if names else "?"
            for seat, place in enumerate(table.seats) if place not in FOUR}


def deal_value(table: Table, dealer: int, hands: Sequence[int]) -> str:
    """The Deal tag: the dealer's place, then every place's hand clockwise from it (``-``
    for an empty place)."""
    place = table.seats[dealer]
    parts = []
    for each in table.round_from(place):
        seat = table.seat_at(each)
        parts.append("-" if seat is None or seat >= len(hands) else hand_value(hands[seat]))
    return f"{place}:{' '.join(parts)}"


def rules_rows(rules: Any) -> tuple[str, list[str]]:
    """The preset the rules are, or are closest to, and a table row (option, value as JSON)
    for each option that differs from it, so that another program can rebuild them."""
    options = rules.to_dict()
    nearest = min(rules.PRESETS, key=lambda name: sum(
        value != options[key] for key, value in type(rules).preset(name).to_dict().items()))
    preset = type(rules).preset(nearest).to_dict()
    rows = [f'{key} "{escape(json.dumps(value))}"'
            for key, value in options.items() if preset[key] != value]
    return nearest, rows


