"""The one interface every bot implements: a seat's view in, an action's text out.

A bot sees exactly what a human in its seat sees (``Game.view(seat)``), never hidden cards,
so the same bot can fill an empty seat at a live table, play in the arena or suggest a move.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeAlias, runtime_checkable

from cardroom.games.five_hundred.shapes import FiveHundredView
from cardroom.games.thousand.shapes import ThousandView

AnyView: TypeAlias = FiveHundredView | ThousandView
"""A seat's view of either game, for the code that reads both: the random bot, the registry's
:class:`~cardroom.bots.GameBot` and the counting of seen cards (:mod:`cardroom.bots.seen`)."""


@runtime_checkable
class Bot(Protocol):
    """A player that needs no human."""

    name: str
    """The registry name (``random``, ``simple`` …)."""

    def choose(self, view: Any) -> str:
        """The action to take, in the game's notation, given the view of the seat to act.

        ``view`` is a view of the game the bot plays: a
        :class:`~cardroom.games.five_hundred.shapes.FiveHundredView` or a
        :class:`~cardroom.games.thousand.shapes.ThousandView`. Each game's bots annotate it
        with their own game's shape, the random bot and the registry's
        :class:`~cardroom.bots.GameBot` with :data:`AnyView`. The protocol itself says
        ``Any``: a parameter here must accept what every implementation accepts, and no one
        view type does (a 500 bot cannot read a 1000 view), while a generic ``Bot[View]``
        would still need ``Bot[Any]`` wherever bots of both games sit together (the
        registry, the tables, the tools, which hold views as ``Game.view`` returns them).
        Which game's bot gets a view is the registry's job, by the view's ``game``.

        ``view["legal_actions"]`` lists the legal actions, except in a kitty exchange, where
        ``view["discard_count"]`` says how many of ``view["hand"]`` to put back.
        """
        ...
