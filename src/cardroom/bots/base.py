"""The one interface every bot implements: a seat's view in, an action's text out.

A bot sees exactly what a human in its seat sees (``Game.view(seat)``), never hidden cards,
so the same bot can fill an empty seat at a live table, play in the arena or suggest a move.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """A player that needs no human."""

    name: str
    """The registry name (``random``, ``simple`` …)."""

    def choose(self, view: dict[str, Any]) -> str:
        """The action to take, in the game's notation, given the view of the seat to act.

        ``view["legal_actions"]`` lists the legal actions, except in a kitty exchange, where
        ``view["discard_count"]`` says how many of ``view["hand"]`` to put back.
        """
        ...
