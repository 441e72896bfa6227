"""Hints at casual tables: what the search bot would do in a seat, and how it chose.

:func:`suggest` runs in the room's bot worker processes (it is module-level, so it pickles),
like a bot's move. It is handed the seat's own view (``Game.view(seat)``) and nothing else, so
a hint can never reveal a hidden card; and it only reads, so it never changes a table.
"""

from __future__ import annotations

from typing import Any

from cardroom.bots import GAME_FACTORIES

HINT_BOT = "search"
"""The registry bot that gives hints (each game's own bot of that name)."""


def suggest(seed: int, view: dict[str, Any]) -> dict[str, str]:
    """The hint bot's action for the seat whose view this is, with a short explanation."""
    game = view.get("game", "500")
    factories = GAME_FACTORIES.get(game)
    if factories is None:
        raise ValueError(f"no hint bot for the game {game!r}")
    bot = factories[HINT_BOT](seed)
    action = bot.choose(view)
    return {"action": action, "explanation": explain(view, action, bot)}


def explain(view: dict[str, Any], action: str, bot: Any) -> str:
    """How the bot came to ``action``, in a sentence a player can check: it names the
    number of sampled deals only when the bot reports having searched them."""
    legal = view.get("legal_actions") or []
    if len(legal) == 1 and legal[0] == action and not view.get("discard_count"):
        return "It is your only legal move."
    phase = view.get("phase")
    if phase == "play":
        how = ("each solved exactly" if view.get("game", "500") == "500"
               else "each played out to the end")
        if view.get("game", "500") != "500":  # 1000's search does not count its deals
            return (f"The search bot's choice: the best average result over deals of the "
                    f"unseen cards that fit what you have seen, {how}.")
        samples = getattr(bot, "last_samples", 0) or 0  # set only when it searched
        if samples:
            deals = "deal" if samples == 1 else "deals"
            return (f"The search bot's choice: the best average result over {samples} {deals} "
                    f"of the unseen cards that fit what you have seen, {how}.")
        return ("The search bot's rule of thumb: too much is unknown yet to search the play "
                "in time.")
    if view.get("game", "500") != "500":
        return ("The search bot's choice by its rules of thumb (it searches sampled deals "
                "for card play only).")
    if view.get("discard_count"):
        return ("The search bot's choice of cards to put back, from your hand and the kitty "
                "(sampled deals where it has time, else its rule of thumb).")
    if phase == "bidding":
        return ("The search bot's bid for your hand (it tries its likeliest contracts on "
                "sampled deals where it has time, else bids by its hand evaluation).")
    return "The search bot's choice for your seat (by its rules of thumb at this point)."
