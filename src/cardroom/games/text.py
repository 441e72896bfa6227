"""What every game's rules pages are made of, and the machinery they share.

A game's text module (``games/five_hundred/text.py``, ``games/thousand/text.py``) builds an
:class:`Explanation` of its ``Rules``: sections of paragraphs, lists, card rows and tables, each
naming the options its wording depends on, so a table's page can mark the items its house
rules change. The web layer renders this structure for any game through the registry entry
(:class:`cardroom.games.registry.GameSpec`), which is why the shape of a game's text module
is written down here as :class:`GameText`. Pure data and functions only: no I/O, no HTML.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from cardroom.games.cards import Card, Rank, Suit

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


class CardWords:
    """How a game's cards and bids read for people in plain text (the terminal game, replays):
    cards grouped by suit, no marks, bids as the engine writes them with suit symbols. A game
    whose cards rank otherwise (500's bowers) gives its registry entry a subclass."""

    def group_of(self, card: Card, trump: Suit | None) -> int:
        """The group a card is shown in under ``trump``: its suit (the joker apart)."""
        return -1 if card.suit is None else int(card.suit)

    def mark(self, card: Card, trump: Suit | None) -> str:
        """A mark for a card with a rank of its own under ``trump`` (``""`` for none)."""
        return ""

    def bid_words(self, bid: str) -> str:
        """A bid as people say it: the engine's text with suit symbols (``120``, ``7♥``)."""
        return suits_as_symbols(bid)


def suits_as_symbols(text: str) -> str:
    """Every card or bid of the engine's notation in a text with its suit symbol: ``6H`` →
    ``6♥``, ``7H`` → ``7♥``."""
    return _SUITED.sub(lambda found: found.group(1) + Suit.parse(found.group(2)).symbol, text)


_SUITED = re.compile(r"\b(10|[2-9AKQJ])([SCDH])\b")


class GameText(Protocol):
    """The words a game shows people, as its registry entry reaches them: the rules pages,
    the rules index, the lobby's New table form and the hints at casual tables."""

    INTRO: str
    """A sentence introducing the game on the rules index ("" for none)."""
    PRESET_TITLES: dict[str, str]
    """Display names of the presets, by preset name."""
    PRESET_BLURBS: dict[str, str]
    """One line per preset on what it plays like (the lobby's New table form)."""
    OPTION_LABELS: dict[str, str]
    """Short human names of the rules options (house-rule lists and forms)."""
    OPTION_STEPS: dict[str, int]
    """The step of whole-number options in a form, where it is not 1."""

    def explain(self, rules: Any, *, mark_house_rules: bool = False,
                title: str | None = None) -> Explanation:
        """The full explanation of ``rules`` (see :func:`explanation`)."""
        ...

    def summary(self, rules: Any) -> tuple[str, ...]:
        """A few short lines describing ``rules`` at a glance."""
        ...

    def hint(self, view: dict[str, Any], samples: int) -> str:
        """How the game's search bot chose its hint for the seat whose view this is;
        ``samples`` is the number of deals it reports having searched (0: none counted)."""
        ...


# -- small helpers shared by the games' wording ---------------------------------------------------


def suit_words(suit: Suit) -> str:
    """``hearts``."""
    return suit.name.lower()


def num(value: int) -> str:
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
                    f"{rank_name} of {suit_words(card.suit)}", card.suit.is_red)


def join_words(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def cap(text: str) -> str:
    """Capitalise the first letter only (names like "Across The Corner" keep their capitals)."""
    return text[:1].upper() + text[1:]


def para(text: str, *options: str) -> Paragraph:
    """A paragraph that depends on ``options`` (marked when one of them is a house rule)."""
    return Paragraph(text, options)


def card_row(key: str, caption: str, cards: list[Card], *options: str) -> CardRow:
    """A row of cards to draw, highest first."""
    return CardRow(key, caption, tuple(card_face(c) for c in cards), options)


# -- presets and house rules ----------------------------------------------------------------------


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
        return num(value)
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
