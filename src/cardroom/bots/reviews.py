"""A bidding review: each call of a hand beside the one a bot makes in the same seat, with
what that seat knew (its own view), for both games' analyses."""

from __future__ import annotations

from typing import Any

from cardroom.bots.base import Bot


def call_review(bot: Bot, game: Any, call: str, index: int) -> dict[str, Any]:
    """The call ``call`` (the record's action ``index``) of the seat to act in ``game``,
    beside ``bot``'s choice from that seat's view."""
    seat = game.to_act
    assert seat is not None
    return {"action": index, "seat": seat, "call": call, "bot": bot.choose(game.view(seat))}
