"""Players that need no human, and the registry that names them.

``make_bot("simple", seed=3)`` builds a bot by its registry name; ``BOT_NAMES`` lists the
names, so the CLI, the arena and the tables offer the same choice without importing each bot.
"""

from __future__ import annotations

from collections.abc import Callable

from cardroom.bots.base import Bot
from cardroom.bots.random_bot import RandomBot
from cardroom.bots.simple import SimpleBot

_FACTORIES: dict[str, Callable[[int], Bot]] = {
    RandomBot.name: RandomBot,
    SimpleBot.name: SimpleBot,
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""Registry names of every bot, weakest first."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot of the given registry name; ``ValueError`` naming the choices otherwise."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}") from None
    return factory(seed)


__all__ = ["BOT_NAMES", "Bot", "RandomBot", "SimpleBot", "make_bot"]
