"""What every game of the card room shares: the Game protocol and the illegal-action error.

The server, the bots, the arena and the terminal client talk to a game only through this
protocol, so a second game (1000) plugs in beside 500 without any of them changing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from cardroom.games.record import Record

GameView = Mapping[str, Any]
"""A view of any game, as layers that serve every game read it; each game's own view is a
TypedDict of this shape (``FiveHundredView``, ``ThousandView``: the registry's ``view_shape``)."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The message says why, for a human."""


@runtime_checkable
class Game(Protocol):
    """A whole match of one game: deal after deal until somebody wins.

    A game is a pure state machine: ``apply`` of an action gives the next state,
    deterministically; randomness comes only from the seed it was created with.
    """

    players: int
    dealer: int
    """The seat dealing the current hand."""
    hand_number: int
    """The current hand's number, from 1."""
    scores: list[int]
    """Each side's score (an index into the game's sides)."""
    history: list[Any]
    """Every scored hand so far (each game's ``HandResult``, with ``to_dict``)."""
    winner: int | None
    """The winning side once the match is over."""
    actions: list[Any]
    """Every action taken so far, in order (each with its ``text``)."""

    @property
    def record(self) -> Record:
        """The record of the match so far: rules, seed or first deal, every action."""
        ...

    @property
    def phase(self) -> str:
        """The name of the current phase (``bidding``, ``discard``, ``play``, ``over`` …)."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the match is over."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the match has a winner."""
        ...

    def legal_actions(self) -> Sequence[Any]:
        """Every action the seat to act may take now (empty only when the match is over)."""
        ...

    def apply(self, action: Any, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply an action of the seat to act and return the public events it caused.

        ``seat``, when given, is who tries to act. Raises :class:`IllegalAction` and leaves the
        game unchanged if the action is not legal (or not that seat's to take).
        """
        ...

    def view(self, seat: int | None) -> GameView:
        """Everything ``seat`` may see (``None``: a spectator), as JSON-ready data."""
        ...

    def views(self, seats: Iterable[int | None]) -> Mapping[int | None, GameView]:
        """The :meth:`view` of each of ``seats``, exactly as :meth:`view` gives it, only
        built together (what every seat sees alike is built once)."""
        ...

    def claim_options(self, seat: int) -> list[str]:
        """The claims ``seat`` may make now (offered beside the legal actions)."""
        ...
