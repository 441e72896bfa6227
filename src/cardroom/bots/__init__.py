"""Players that need no human, and the registry that names them.

``make_bot("simple", seed=3)`` builds a bot by its registry name; ``BOT_NAMES`` lists the
names, so the CLI, the arena and the tables offer the same choice without importing each bot.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from cardroom.bots.base import Bot
from cardroom.bots.random_bot import RandomBot
from cardroom.bots.rules_bot import RulesBot
from cardroom.bots.search import SearchBot
from cardroom.bots.simple import SimpleBot

_FACTORIES: dict[str, Callable[[int], Bot]] = {
    RandomBot.name: RandomBot,
    SimpleBot.name: SimpleBot,
    RulesBot.name: RulesBot,
    "search:fast": partial(SearchBot, level="fast"),
    SearchBot.name: SearchBot,
    "search:strong": partial(SearchBot, level="strong"),
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""Registry names of every bot, weakest first."""
QUICK_BOTS: tuple[str, ...] = ("random", "simple", "rules")
"""Bots that decide in about a millisecond (the search levels think for up to a second)."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot of the given registry name; ``ValueError`` naming the choices otherwise."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}") from None
    return factory(seed)


__all__ = ["BOT_NAMES", "QUICK_BOTS", "Bot", "RandomBot", "RulesBot", "SearchBot", "SimpleBot",
           "make_bot"]
