"""The card room's games by name: ``GAMES["500"]``, ``GAMES["1000"]``.

The room, the web pages, the lobby's rules catalogue, the hints and the CLI pick a game here by
the name records and views carry (``Record.game``, ``view["game"]``), so adding a game means
adding one entry, not an ``if`` in every layer. Each entry only points at the game's own
package: its engine and rules, and its words (``text``: rules pages, preset titles, the lobby's
descriptions, hint wording), so no layer above ``games/`` needs to know any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardroom.games import five_hundred, thousand
from cardroom.games.base import Game
from cardroom.games.five_hundred import text as five_hundred_text
from cardroom.games.five_hundred.card_words import FiveHundredCardWords
from cardroom.games.options import option_catalogue
from cardroom.games.record import Record
from cardroom.games.text import CardWords, GameText
from cardroom.games.thousand import text as thousand_text


@dataclass(frozen=True)
class DailySet:
    """What a game's daily challenge deals: ``deals`` single deals of ``preset``."""

    preset: str
    deals: int


@dataclass(frozen=True)
class GameSpec:
    """One game of the card room: its engine, rules, presets, defaults and words."""

    name: str
    """The name records, views and the protocol use (``"500"``)."""
    title: str
    """How people call it (``"500"``, ``"1000"``)."""
    module: Any
    """The game's package (``Game``, ``Rules``, ``RulesError``, ``PRESET_NAMES``)."""
    default_preset: str
    """The preset a new table gets when none is named."""
    dealer_keyword: str
    """The name of ``Game.new``'s first-dealer argument."""
    text: GameText
    """The game's words: rules pages, preset titles and descriptions, hint wording."""
    daily: DailySet
    """The deals of its daily challenge."""
    card_words: CardWords = field(default_factory=CardWords)
    """How its cards and bids read in plain text (the terminal game, replays)."""

    @property
    def game_class(self) -> Any:
        """The game's ``Game`` class."""
        return self.module.Game

    @property
    def view_shape(self) -> type:
        """The typed structure of the game's views (a TypedDict the tests check views by)."""
        return self.module.VIEW_SHAPE

    @property
    def rules_class(self) -> Any:
        """The game's ``Rules`` class."""
        return self.module.Rules

    @property
    def rules_error(self) -> type[Exception]:
        """The error its ``Rules`` raise on impossible house rules."""
        return self.module.RulesError

    @property
    def presets(self) -> tuple[str, ...]:
        """Every preset a table may be created with (for 500 the two-, three-, five- and six-handed
        ones too: ``ALL_PRESET_NAMES``), in the order the rules list them."""
        return tuple(getattr(self.module, "ALL_PRESET_NAMES", self.module.PRESET_NAMES))

    def rules(self, preset: str | None = None, options: dict[str, Any] | None = None) -> Any:
        """Rules from a preset and house options (``rules_error`` if impossible)."""
        return self.rules_class.from_dict({"preset": preset or self.default_preset,
                                           **(options or {})})

    def rules_from_dict(self, data: dict[str, Any]) -> Any:
        """Rules from their stored dict (``Rules.to_dict``)."""
        return self.rules_class.from_dict(data)

    def new(self, rules: Any, seed: int, first_dealer: int | None = None) -> Game:
        """A new match; ``first_dealer`` ``None`` leaves the choice to the rules."""
        return self.game_class.new(rules, seed=seed,
                                   **{self.dealer_keyword: first_dealer})

    def replay(self, record: Record) -> Game:
        """The match a record describes."""
        return self.game_class.replay(record)

    def players(self, rules: Any) -> int:
        """Seats at a table playing these rules."""
        return int(rules.players)

    def teams(self, rules: Any) -> list[list[int]]:
        """The sides that keep a score: partnerships, or one seat each."""
        teams = getattr(rules, "teams", None)
        if teams is None:
            return [[seat] for seat in range(rules.players)]
        return [list(team) for team in teams]

    def preset_title(self, preset: str) -> str:
        """A preset's display name ("Online", "Card site (seed)")."""
        return self.text.PRESET_TITLES.get(preset, preset)

    def preset_details(self, preset: str) -> dict[str, Any]:
        """What the lobby shows of a preset: its title, a line on what it plays like, its
        seats and the sides that keep a score."""
        rules = self.rules_class.preset(preset)
        return {"name": preset, "title": self.preset_title(preset),
                "blurb": self.text.PRESET_BLURBS.get(preset, ""),
                "players": self.players(rules), "teams": self.teams(rules)}

    def catalogue(self) -> dict[str, Any]:
        """The presets (every option's value, and each one's title, description, seats and
        sides in the order to offer them) and every house option with its label, its
        explanation and, for whole numbers, a form's step: all the lobby's New table form
        knows of a game (``/api/rules?game=…``)."""
        options = option_catalogue(self.rules_class)
        for option in options:
            option["label"] = self.text.OPTION_LABELS.get(option["name"], option["name"])
            if option["kind"] == "int":
                option["step"] = self.text.OPTION_STEPS.get(option["name"], 1)
        return {"game": self.name, "title": self.title, "default_preset": self.default_preset,
                "presets": {name: self.rules_class.preset(name).to_dict()
                            for name in self.presets},
                "preset_details": [self.preset_details(name) for name in self.presets],
                "options": options}

    def contract_label(self, hand: dict[str, Any]) -> str | None:
        """How a profile tallies a hand's contract (a line of a match's history): the
        level or kind of a 500 contract (``"8"``, ``"misere"``), 1000's bet (``"120"``);
        ``None`` when nobody bid."""
        label: str | None = self.module.contract_label(hand)
        return label

    def contract_kind(self, hand: dict[str, Any]) -> str | None:
        """The kind of a hand's contract, by which contracts made are tallied: a 500
        contract's (``"tricks"``, ``"misere"`` …), 1000's ``"bet"`` or ``"blind"``; ``None``
        when nobody bid."""
        kind: str | None = self.module.contract_kind(hand)
        return kind

    @property
    def contract_levels(self) -> tuple[str, ...]:
        """The contract levels a table of contracts by level always lists, bid or not (500's
        six to ten)."""
        return tuple(self.module.CONTRACT_LEVELS)

    def to_pbn(self, record: Record, names: list[str] | None = None, event: str = "",
               site: str = "", date: str = "") -> str:
        """The match as PBN-style text, a section per hand (``docs/pbn.md``)."""
        text: str = self.module.to_pbn(record, names, event=event, site=site, date=date)
        return text

    def hint(self, view: dict[str, Any], samples: int) -> str:
        """How the game's search bot chose its hint for this view (``samples``: the deals it
        reports having searched, 0 when it counted none)."""
        return self.text.hint(view, samples)


GAMES: dict[str, GameSpec] = {
    "500": GameSpec("500", "500", five_hundred, default_preset="online",
                    dealer_keyword="dealer", text=five_hundred_text,
                    daily=DailySet("online", 8), card_words=FiveHundredCardWords()),
    "1000": GameSpec("1000", "1000", thousand, default_preset="seed",
                     dealer_keyword="first_dealer", text=thousand_text,
                     daily=DailySet("seed", 6)),
}
"""Every game, by its name."""

GAME_NAMES: tuple[str, ...] = tuple(GAMES)
DEFAULT_GAME = "500"


def game_spec(name: str) -> GameSpec:
    """The game of this name; ``KeyError`` with the choices otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None


def replay(record: Record) -> Game:
    """Rebuild any game's match from its record (the record names its game)."""
    return game_spec(record.game).replay(record)


def presets_by_game() -> str:
    """``500: online, australian …; 1000: seed, russian``: every preset, for a command's
    help and its errors."""
    return "; ".join(f"{spec.title}: {', '.join(spec.presets)}" for spec in GAMES.values())


def pick_game(game: str | None, preset: str | None) -> tuple[GameSpec, str]:
    """The game and preset to play: the named game (or the one offering ``preset``, else
    the default game) and its preset (its default when none is named); ``ValueError`` with
    the choices if there is no such game or it has no such preset."""
    if game is not None and game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    offering = [spec for spec in GAMES.values()
                if (game is None or spec.name == game) and (preset is None
                                                            or preset in spec.presets)]
    if not offering:
        raise ValueError(f"unknown preset {preset!r}; choose one of: {presets_by_game()}")
    spec = GAMES[game or DEFAULT_GAME] if preset is None else offering[0]
    return spec, preset or spec.default_preset


def spec_for_rules(rules: Any) -> GameSpec:
    """The game whose ``Rules`` these are (a table's rules name their game by their class);
    ``KeyError`` if no game of the registry plays them."""
    for spec in GAMES.values():
        if isinstance(rules, spec.rules_class):
            return spec
    raise KeyError(f"no game plays rules of type {type(rules).__name__}")
