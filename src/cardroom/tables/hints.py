"""Hints at casual tables: what the search bot would do in a seat, and how it chose.

:func:`suggest` runs in the room's bot worker processes (it is module-level, so it pickles),
like a bot's move. It is handed the seat's own view (``Game.view(seat)``) and nothing else, so
a hint can never reveal a hidden card; and it only reads, so it never changes a table. The
wording of how the bot chose is the game's own (its registry entry's ``hint``), so nothing here
knows which game it is.
"""

from __future__ import annotations

from typing import Any

from cardroom.bots import GAME_FACTORIES
from cardroom.games.registry import DEFAULT_GAME, GAMES

CLAIM_ANSWER = "refuse"
CLAIM_EXPLANATION = ("The solver could not prove this claim (a proven one ends the hand by "
                     "itself): play on, unless you can see it holds.")
"""A hint's answer to a claim put to the seat, and why."""
HINT_BOT = "search"
"""The registry bot that gives hints (each game's own bot of that name)."""


def suggest(seed: int, view: dict[str, Any]) -> dict[str, str]:
    """The hint bot's action for the seat whose view this is, with a short explanation."""
    if view.get("claim") is not None and CLAIM_ANSWER in view.get("legal_actions", ()):
        return {"action": CLAIM_ANSWER, "explanation": CLAIM_EXPLANATION}
    game = view.get("game", DEFAULT_GAME)
    factories = GAME_FACTORIES.get(game)
    if factories is None:
        raise ValueError(f"no hint bot for the game {game!r}")
    bot = factories[HINT_BOT](seed)
    action = bot.choose(view)
    return {"action": action, "explanation": explain(view, action, bot)}


def explain(view: dict[str, Any], action: str, bot: Any) -> str:
    """How the bot came to ``action``, in a sentence a player can check: the only legal move
    says so, anything else is told in the game's own words, naming the number of sampled
    deals only when the bot reports having searched them."""
    legal = view.get("legal_actions") or []
    if len(legal) == 1 and legal[0] == action and not view.get("discard_count"):
        return "It is your only legal move."
    samples = getattr(bot, "last_samples", 0) or 0  # set only when it searched
    return GAMES[view.get("game", DEFAULT_GAME)].hint(view, samples)
