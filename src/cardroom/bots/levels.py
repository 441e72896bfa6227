"""How hard a search bot thinks, the same way in both games: a time budget per decision and a
cap on the deals it samples, at three levels the registry names ``search:fast``, ``search``
and ``search:strong``.

Each game's search bot keeps its own table of levels (the numbers differ, and 500's exact
solver adds settings of its own: :class:`~cardroom.bots.five_hundred.search.SolverLevel`).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVEL_NAMES: tuple[str, ...] = ("fast", "default", "steady", "strong")
"""The levels of every search bot, weakest first. ``steady`` is the default level with the
clock taken out: its sample caps alone end a decision, so the same view and seed give the same
action whatever the machine's load (the daily challenge's bots, who must reply alike to every
player who plays the same cards)."""


@dataclass(frozen=True)
class Level:
    """A time budget per decision and a cap on sampled deals."""

    budget: float
    """Seconds a decision may take; the bot stops sampling when they run out."""
    samples: int
    """Most deals sampled for one decision."""


def search_bot_name(level: str) -> str:
    """The registry name of the search bot at ``level``: ``search`` for the default level,
    ``search:fast`` and ``search:strong`` for the others."""
    return "search" if level == "default" else f"search:{level}"


@dataclass(frozen=True)
class PlayerLevel:
    """A bot as the room offers it to players: a word a card player uses, the registry bot it
    stands for, and one honest line on how it plays."""

    word: str
    """What the New table form and the lobby call it ("Expert")."""
    bot: str
    """The registry name of the bot (``search``)."""
    description: str
    """One line on how it bids and plays, and how long it thinks."""


DEFAULT_BOT = "search"
"""The bot that fills empty seats unless a table asks for another: the strongest whose
decisions stay within half a second (the workers let it think less while they are backlogged,
see :mod:`cardroom.tables.workers`)."""

CHALLENGE_BOT = "search:steady"
"""The daily challenge's bot: the default level's search with its sample caps, not the clock,
ending each decision, so that every player who plays the same cards meets the same replies."""

_BEGINNER = PlayerLevel(
    "Beginner", "simple",
    "Counts its high cards, nearly always bids six and plays the obvious card.")
_CASUAL = PlayerLevel(
    "Casual", "rules",
    "Values its hand, remembers the cards played and follows sound rules of thumb; quick.")
_CLUB = PlayerLevel(
    "Club player", "search:fast",
    "Bids what its hand is worth; solves ten possible deals before each card, a tenth of a "
    "second.")
_EXPERT = PlayerLevel(
    "Expert", "search",
    "Bids what its hand is worth; solves two dozen possible deals a card, up to half a "
    "second.")
_MASTER = PlayerLevel(
    "Master", "search:strong",
    "Bids what its hand is worth; the deepest search, up to a second and a half a card.")

PLAYER_LEVELS: dict[str, tuple[PlayerLevel, ...]] = {
    "500": (_BEGINNER, _CASUAL, _CLUB, _EXPERT, _MASTER),
    "1000": (PlayerLevel("Casual", "rules", "Bids its sure points, remembers the cards played "
                         "and follows sound rules of thumb; quick."),
             PlayerLevel("Club player", "search:fast", "Solves the last tricks of possible "
                         "deals exactly before each card; a tenth of a second a card."),
             PlayerLevel("Expert", "search", "Solves as many possible deals exactly as half a "
                         "second allows before each card."),
             PlayerLevel("Master", "search:strong", "The deepest search, up to a second a "
                         "card: for patient players.")),
}
"""The levels each game offers players, weakest first, by the game name views carry. 1000 has
one heuristic bot (``simple`` and ``rules`` play the same), so it starts at Casual."""


def level_word(game: str, bot: str) -> str:
    """The player word of ``bot`` at ``game`` ("Expert"), or the registry name itself for a
    bot the game offers no level for (``random``)."""
    return next((level.word for level in PLAYER_LEVELS.get(game, ()) if level.bot == bot), bot)


def bot_levels(game: str) -> list[dict[str, str]]:
    """The levels ``game`` offers, weakest first, as the New table form lists them: each
    level's ``word``, registry ``bot`` and ``description``."""
    return [{"word": level.word, "bot": level.bot, "description": level.description}
            for level in PLAYER_LEVELS.get(game, ())]
