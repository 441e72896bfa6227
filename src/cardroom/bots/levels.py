"""How hard a search bot thinks, the same way in both games: a time budget per decision and a
cap on the deals it samples, at three levels the registry names ``search:fast``, ``search``
and ``search:strong``.

Each game's search bot keeps its own table of levels (the numbers differ, and 500's exact
solver adds settings of its own: :class:`~cardroom.bots.five_hundred.search.SolverLevel`).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVEL_NAMES: tuple[str, ...] = ("fast", "default", "strong")
"""The levels of every search bot, weakest first."""


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
