"""Claims at the room's tables: proved by the solver in the bot workers before they are applied.

A player's claim (one of ``Game.claim_options``) goes to a bot worker with a copy of the match,
every hand known there, and comes back in the form to apply: proven (the hand ends at once) or
as made (the opponents answer it). A text that says it is proven is refused: only the room
proves claims. Bots claim too (:meth:`TableClaims.bot_claim`): all the tricks left, when a
person sits at the table waiting and the solver proves the tricks are the bot's side's.
Everything game-specific is the game's :data:`~cardroom.bots.GAME_CLAIMS` entry.

A proof that cannot be had in time (workers busy, overrun, lost) is no proof: the claim is put
to the opponents, and a bot simply plays its card.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from cardroom.bots import GAME_CLAIMS
from cardroom.protocol import ErrorCode
from cardroom.tables.errors import RoomError
from cardroom.tables.model import Table
from cardroom.tables.workers import BotWorkers, Superseded, WorkerLost

log = logging.getLogger(__name__)

CLAIM_KEY = "claim"
"""The workers' fairness key suffix of a table's claim proofs (apart from its hints)."""


class TableClaims:
    """Claims proved in the bot workers for the tables of this process."""

    def __init__(self, workers: BotWorkers) -> None:
        self.workers = workers

    async def judged(self, table: Table, seat: int, action: str) -> str:
        """The action to apply for ``seat``'s ``action``: a claim it may make now, proven
        when the solver proves it; anything else as it is. ``RoomError`` for a text that
        says it is a proven claim."""
        judge = GAME_CLAIMS.get(table.game_name)
        game = table.game
        if judge is None or game is None:
            return action
        if judge.says_proven(action):
            raise RoomError(ErrorCode.ILLEGAL_ACTION,
                            "Only the room proves a claim: claim e.g. 'claim 4'.")
        if game.is_over or action not in game.claim_options(seat):
            return action
        version = table.version
        judged = await self._solve(table, judge.judged, game.copy(), seat, action)
        if judged is None or table.version != version:
            return action  # no proof, or the table moved on meanwhile: put it to the others
        return judged

    async def bot_claim(self, table: Table, seat: int) -> str | None:
        """The claim ``seat``'s bot makes now (proven), or ``None``: only while a person
        sits at the table waiting for the bot, and only a claim the solver proves."""
        judge = GAME_CLAIMS.get(table.game_name)
        game = table.game
        if judge is None or game is None or not game.claim_options(seat):
            return None
        if not any(other.player is not None and not other.away
                   for number, other in enumerate(table.seats) if number != seat):
            return None
        return await self._solve(table, judge.bot_claim, game.copy(), seat)

    async def _solve(self, table: Table, function: Callable[..., str | None],
                     *args: object) -> str | None:
        """``function(*args)`` in a bot worker; ``None`` when it could not be had (a failed
        proof must never stop a table: the claim is put to the others, the bot plays)."""
        try:
            result = await self.workers.run(f"{table.id}:{CLAIM_KEY}", function, *args)
        except (Superseded, TimeoutError, WorkerLost) as failure:
            log.info("no claim proof at table %s: %s", table.id, type(failure).__name__)
            return None
        except Exception:
            log.exception("claim proof at table %s", table.id)
            return None
        return result if isinstance(result, str) else None
