"""A game's phases as a table: each phase's legal actions and the effect of an action in it.

A game's engine is a set of modules of functions of its match state (bidding, the exchange,
play, scoring, the view), and its ``Game`` finds what to do in the table of its phases
(``PHASES``: the phase's name to a :class:`Phase`) instead of a chain of tests. The seats'
order around the table, which every phase asks about, is here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Generic, NamedTuple, TypeVar

from cardroom.games.match import Match

StateT = TypeVar("StateT", bound=Match, contravariant=True)
"""A game's match state; a phase of a state's functions serves any subclass (the ``Game``)."""
ActionT = TypeVar("ActionT")
Events = list[dict[str, Any]]
"""The public events an action caused, JSON-ready."""


class Phase(NamedTuple, Generic[StateT, ActionT]):
    """What a phase of a hand does: its legal actions, and an action's effect (the events),
    which raises :class:`~cardroom.games.base.IllegalAction` before changing anything if the
    action is not legal."""

    legal: Callable[[StateT], Sequence[ActionT]]
    apply: Callable[[StateT, int, ActionT], Events]


def legal_in_phase(phases: Mapping[str, Phase[StateT, ActionT]],
                   game: StateT) -> Sequence[ActionT]:
    """The legal actions of the seat to act in ``game``'s phase (none once the match is
    over, a phase without an entry)."""
    phase = phases.get(game._phase)
    return phase.legal(game) if phase is not None else []


# -- seats ----------------------------------------------------------------------------------------


def next_seat(seat: int, seats: Sequence[int], players: int) -> int:
    """The first of ``seats`` clockwise after ``seat`` at a table of ``players``."""
    for offset in range(1, players + 1):
        candidate = (seat + offset) % players
        if candidate in seats:
            return candidate
    raise AssertionError("no seat to move to")


@cache
def next_seats(active: tuple[int, ...], players: int) -> tuple[int, ...]:
    """For each seat, the first seat of ``active`` clockwise after it."""
    return tuple(next_seat(seat, active, players) for seat in range(players))


def seat_mask(seats: Iterable[int]) -> int:
    """The bit mask of a set of seats (bit ``seat`` set for each)."""
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask
