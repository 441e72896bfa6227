"""Players that need no human, and the registry that names them.

``make_bot("simple", seed=3)`` builds a bot by its registry name; ``BOT_NAMES`` lists the
names, so the CLI, the arena and the tables offer the same choice without importing each bot.
A registry bot plays whichever game the view it is shown belongs to (the view's ``game`` key:
``500`` or ``1000``), each with that game's own bot of the same name.

Each game's bots live in a package of their own (:mod:`cardroom.bots.five_hundred`,
:mod:`cardroom.bots.thousand`); what both games share stays here: the :class:`Bot` protocol,
the random bot, this registry, the search levels (:mod:`cardroom.bots.levels`) and the
reading of which cards a seat has seen (:mod:`cardroom.bots.seen`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, cast, get_args

from cardroom.bots.base import AnyView, Bot
from cardroom.bots.five_hundred import RulesBot, SearchBot, SimpleBot
from cardroom.bots.five_hundred.analysis import MAX_SOLVED_PLAYERS, review_hand
from cardroom.bots.five_hundred.claims import bot_claim, bot_claim_due, claim_text, judged_claim
from cardroom.bots.five_hundred.reading import ReadingStyle
from cardroom.bots.five_hundred.search import LEVELS as FIVE_HUNDRED_LEVELS
from cardroom.bots.five_hundred.search import Bidding as FiveHundredBidding
from cardroom.bots.levels import LEVEL_NAMES, search_bot_name
from cardroom.bots.random_bot import RandomBot
from cardroom.bots.thousand import ThousandRulesBot, ThousandSearchBot
from cardroom.bots.thousand.analysis import review_deal
from cardroom.bots.thousand.reading import READINGS as THOUSAND_READINGS
from cardroom.bots.thousand.reading import Reading as ThousandReading
from cardroom.bots.thousand.search import BIDDINGS as THOUSAND_BIDDINGS
from cardroom.bots.thousand.search import DEFAULT_READING as DEFAULT_THOUSAND_READING
from cardroom.bots.thousand.search import LEVELS as THOUSAND_LEVELS
from cardroom.bots.thousand.search import Bidding as ThousandBidding


def _by_level(search_bot: Callable[..., Bot]) -> dict[str, Callable[[int], Bot]]:
    """A search bot's registry entries, one per level, weakest first (``search:fast``,
    ``search``, ``search:strong``)."""
    return {search_bot_name(level): partial(search_bot, level=level) for level in LEVEL_NAMES}


_FACTORIES: dict[str, Callable[[int], Bot]] = {
    RandomBot.name: RandomBot,
    SimpleBot.name: SimpleBot,
    RulesBot.name: RulesBot,
    **_by_level(SearchBot),
}

_THOUSAND_FACTORIES: dict[str, Callable[[int], Bot]] = {
    RandomBot.name: RandomBot,
    SimpleBot.name: ThousandRulesBot,  # 1000 has one heuristic bot; "simple" plays it too
    RulesBot.name: ThousandRulesBot,
    **_by_level(ThousandSearchBot),
}

GAME_FACTORIES: dict[str, dict[str, Callable[[int], Bot]]] = {
    "500": _FACTORIES, "1000": _THOUSAND_FACTORIES}
"""Each game's bot for every registry name, by the game name views carry."""

THOUSAND_PLAYERS = 4
"""1000's solver plays the three seats of a deal, at tables of three or four."""


@dataclass(frozen=True)
class Analyser:
    """A game's double-dummy analysis of a hand: ``review(record text, hand number)`` → the
    par table, what was made, every card's verdict and the bidding review; for tables of at
    most ``max_players`` (the solver plays no more hands)."""

    review: Callable[[str, int], dict[str, Any]]
    max_players: int


GAME_ANALYSERS: dict[str, Analyser] = {"500": Analyser(review_hand, MAX_SOLVED_PLAYERS),
                                        "1000": Analyser(review_deal, THOUSAND_PLAYERS)}
"""Each game's analysis, by game name: what replays show."""


@dataclass(frozen=True)
class ClaimJudge:
    """A game's proof of claims, run where every hand is known (a bot worker, or the terminal
    game): ``judged(game, seat, text)`` → the action to apply for a player's claim (one of
    ``game.claim_options(seat)``): its proven form when the solver proves it, else the text;
    ``bot_claim(game, seat)`` → the claim a bot makes now, proven, or ``None``, worth asking
    only when the cheap ``bot_claim_due(game, seat)`` says so; and ``claim_text(text)`` →
    a claim in the game's own spelling and whether it says it is proven (which only the room
    may apply), or ``None`` for any other text."""

    judged: Callable[[Any, int, str], str]
    bot_claim: Callable[[Any, int], str | None]
    bot_claim_due: Callable[[Any, int], bool]
    claim_text: Callable[[str], tuple[str, bool] | None]


GAME_CLAIMS: dict[str, ClaimJudge] = {
    "500": ClaimJudge(judged_claim, bot_claim, bot_claim_due, claim_text)}
"""Each game's claim judge, by game name. 1000 has no claims."""

@dataclass(frozen=True)
class StyledSearch:
    """A game's search bot built with a bidding style and a style of reading the calls, for
    comparing bidding or reading with the same card play: ``make(level, bidding, reading)``
    (``reading`` ``None``: the bot's own)."""

    levels: tuple[str, ...]
    biddings: tuple[str, ...]
    readings: tuple[str, ...]
    """The ways its sampled deals may read the other seats' calls."""
    make: Callable[[str, str, str | None], Callable[[int], Bot]]


def _five_hundred_styled(level: str, bidding: str, reading: str | None) -> Callable[[int], Bot]:
    return partial(SearchBot, level=level, bidding=cast(FiveHundredBidding, bidding),
                   reading=cast(ReadingStyle, reading or "learned"))


def _thousand_styled(level: str, bidding: str, reading: str | None) -> Callable[[int], Bot]:
    return partial(ThousandSearchBot, level=level, bidding=cast(ThousandBidding, bidding),
                   reading=cast(ThousandReading, reading or DEFAULT_THOUSAND_READING))


GAME_STYLED_SEARCH: dict[str, StyledSearch] = {
    "500": StyledSearch(tuple(FIVE_HUNDRED_LEVELS), get_args(FiveHundredBidding),
                        get_args(ReadingStyle), _five_hundred_styled),
    "1000": StyledSearch(tuple(THOUSAND_LEVELS), THOUSAND_BIDDINGS, THOUSAND_READINGS,
                         _thousand_styled)}
"""Each game's search bot in a bidding style, by game name (the arena's ``search@rules``)."""

REFUSE = "refuse"
"""The answer a bot gives every claim put to it: a claim the solver proved ended the hand
before anyone was asked, so one that reaches a bot is not proven."""

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""Registry names of every bot, weakest first."""
QUICK_BOTS: tuple[str, ...] = ("random", "simple", "rules")
"""Bots that decide in about a millisecond (the search levels think for up to a second)."""


class GameBot:
    """A registry bot for any game: hands each view to that game's bot of the same name
    (built on first use; a view without a ``game`` key is a 500 view)."""

    def __init__(self, name: str, seed: int = 0) -> None:
        self.name = name
        self.seed = seed
        self._bots: dict[str, Bot] = {"500": _FACTORIES[name](seed)}
        self._last: Bot | None = None
        """The game's bot that made the last choice."""

    @property
    def call_tactic(self) -> str | None:
        """The match tactic behind the last call of the bot that made the last choice
        (``None``: the hand's worth, or a bot that does not say): what the arena tallies
        contracts by, whichever game's bot made the call."""
        return getattr(self._last, "call_tactic", None)

    def choose(self, view: AnyView) -> str:
        """The action of the game's own bot (see :class:`cardroom.bots.base.Bot`), chosen by
        the view's ``game``. A claim put to the bot is refused (:data:`REFUSE`)."""
        if view.get("claim") is not None and REFUSE in view.get("legal_actions", ()):
            return REFUSE
        game = view.get("game", "500")
        bot = self._bots.get(game)
        if bot is None:
            if game not in GAME_FACTORIES:
                raise ValueError(f"no bots for the game {game!r}")
            bot = self._bots[game] = GAME_FACTORIES[game][self.name](self.seed)
        self._last = bot
        return bot.choose(view)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot of the given registry name; ``ValueError`` naming the choices otherwise."""
    if name not in _FACTORIES:
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")
    return GameBot(name, seed)


__all__ = [
    "BOT_NAMES",
    "GAME_ANALYSERS",
    "GAME_CLAIMS",
    "GAME_FACTORIES",
    "GAME_STYLED_SEARCH",
    "QUICK_BOTS",
    "Analyser",
    "Bot",
    "ClaimJudge",
    "GameBot",
    "RandomBot",
    "RulesBot",
    "SearchBot",
    "SimpleBot",
    "StyledSearch",
    "ThousandRulesBot",
    "ThousandSearchBot",
    "make_bot",
]
