"""A hand of a match step by step, as a replay shows it, for any game of the registry.

A replay rebuilds the match from its record and keeps, for one hand, what a seat saw at every
step (its own ``view``, with nothing left to choose), what each action's events were, and
every other seat's cards at that moment. Whether those cards may be shown is the caller's
question (:mod:`cardroom.tables.replays` answers it: only hands that are over); nothing here
looks past the end of the hand asked for, so the next deal never reaches a replay of the
hand before it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardroom.games.record import Record
from cardroom.games.registry import game_spec

NEXT_DEAL = "deal"
"""The event that deals the next hand: it and the events after it are not this hand's."""


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One position of a hand: the deal (``action`` ``None``) or the position after an
    action. The step of the action that ends the hand keeps the position before it (its
    ``view`` and ``hands``) with the action's events, so a table draws the last trick and
    the result from them without ever holding the next deal."""

    seat: int | None
    """Who acted to reach this step (``None``: the deal)."""
    action: str | None
    """The action in the engine's notation (``bid 7H``, ``play JS`` …)."""
    view: dict[str, Any]
    """The viewer's view at this step, with no legal actions."""
    hands: dict[str, list[str]]
    """Every other seat's cards at this step, by seat, as each seat's own view shows them."""
    events: list[dict[str, Any]]
    """The events of the action (none for the deal), up to the end of the hand."""
    ended: bool = False
    """The hand ended with this action."""
    index: int | None = None
    """The action's place among the record's actions (from 0; ``None`` for the deal)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"seat": self.seat, "action": self.action, "index": self.index,
                "view": self.view, "hands": self.hands, "events": self.events,
                "ended": self.ended}


def finished_hands(game: Any) -> int:
    """How many hands of a match are over (scored)."""
    return len(game.history)


def _start(record: Record) -> Any:
    """The match as dealt, before any action of the record."""
    return game_spec(record.game).replay(replace(record, actions=[], seats=[]))


def _position(game: Any, viewer: int) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The viewer's view with nothing to choose and without the match's history (a replay
    has it once, not at every step), and the other seats' cards."""
    view = {**game.view(viewer), "legal_actions": [], "discard_count": None, "history": []}
    hands = {str(seat): list(game.view(seat)["hand"] or [])
             for seat in range(game.players) if seat != viewer}
    return view, hands


def _until_end(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events before the next deal's (a replay of this hand never shows that deal)."""
    for index, event in enumerate(events):
        if event.get("type") == NEXT_DEAL:
            return events[:index]
    return events


def hand_steps(record: Record, hand: int, viewer: int) -> list[ReplayStep]:
    """Every step of the ``hand``-th hand (1 for the first) of the record's match, from
    ``viewer``'s seat: the deal, then one step per action until the hand is scored (a deal
    everybody passed and dealt again stays in the same hand). ``ValueError`` if there is no
    such seat, or the record does not reach the end of that hand."""
    game = _start(record)
    if not 0 <= viewer < game.players:
        raise ValueError(f"there is no seat {viewer}")
    if hand < 1:
        raise ValueError(f"there is no hand {hand}")
    actions = iter(enumerate(record.actions))
    while finished_hands(game) < hand - 1:
        _, text = next(actions, (None, None))
        if text is None:
            raise ValueError(f"the match has no hand {hand}")
        game.apply(text)
    if game.is_over:
        raise ValueError(f"the match has no hand {hand}")
    steps = [ReplayStep(None, None, *_position(game, viewer), events=[])]
    for index, text in actions:
        seat = game.to_act
        before = _position(game, viewer)
        events = game.apply(text)
        if finished_hands(game) == hand:
            steps.append(ReplayStep(seat, text, *before, events=_until_end(events),
                                    ended=True, index=index))
            return steps
        steps.append(ReplayStep(seat, text, *_position(game, viewer), events=events,
                                index=index))
    raise ValueError(f"hand {hand} is not over")
