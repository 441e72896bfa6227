"""Claims at the room's tables: proved by the solver in the bot workers before they are applied.

A player's claim (one of ``Game.claim_options``) goes to a bot worker with a copy of the match,
every hand known there, and comes back in the form to apply: proven (the hand ends at once) or
as made (the opponents answer it). A text that says it is proven is refused: only the room
proves claims. Bots claim too (:meth:`TableClaims.bot_claim`): all the tricks left, when a
person sits at the table waiting and the solver proves the tricks are the bot's side's.
Everything game-specific is the game's :data:`~cardroom.bots.GAME_CLAIMS` entry.

A proof that cannot be had in time (workers busy, overrun, lost) is no proof: the claim is put
to the opponents, and a bot simply plays its card. A proof holds for the position it was made
on: the room applies the proven form only if the table is still at that version, else the claim
as made. Bots ask for a proof only when the game says a claim is worth trying (on lead, a few
tricks left) and the workers are not behind.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from cardroom.bots import GAME_CLAIMS
from cardroom.protocol import ErrorCode
from cardroom.tables.errors import RoomError
from cardroom.tables.model import Table
from cardroom.tables.workers import BotWorkers, Superseded, WorkerLost

log = logging.getLogger(__name__)

CLAIM_KEY = "claim"
"""The workers' fairness key suffix of a table's claim proofs (apart from its hints)."""


@dataclass(frozen=True)
class Judged:
    """What the room applies for a player's action: ``action`` (a claim's proven form when the
    solver proved it), the claim as made (``plain``, applied instead when the table moved on
    since the proof), and the table's ``version`` a proof holds at (``None``: no proof)."""

    action: str
    plain: str
    version: int | None = None


class TableClaims:
    """Claims proved in the bot workers for the tables of this process."""

    def __init__(self, workers: BotWorkers) -> None:
        self.workers = workers

    async def judged(self, table: Table, seat: int | None, action: str) -> Judged:
        """What to apply for ``seat``'s ``action``: a claim it may make now, proven when the
        solver proves it (with the table's version the proof holds at); a claim in the
        game's own spelling; anything else as it is. ``RoomError`` for a text that says it
        is a proven claim, whoever sends it."""
        judge = GAME_CLAIMS.get(table.game_name)
        game = table.game
        parsed = None if judge is None or game is None else judge.claim_text(action)
        if parsed is None:
            return Judged(action, action)
        plain, proven = parsed
        if proven:
            raise RoomError(ErrorCode.ILLEGAL_ACTION,
                            "Only the room proves a claim: claim e.g. 'claim 4'.")
        assert judge is not None and game is not None
        if seat is None or game.is_over or plain not in game.claim_options(seat):
            return Judged(plain, plain)
        version = table.version
        judged = await self._solve(table, judge.judged, game.copy(), seat, plain)
        if judged is None and table.challenge is not None:
            # A challenge's result may not hang on the workers' load: no proof, no claim.
            raise RoomError(ErrorCode.INTERNAL, "Your claim could not be checked just now; "
                                                "please claim again in a moment.")
        if judged is None or judged == plain:
            return Judged(plain, plain)
        return Judged(judged, plain, version)

    async def bot_claim(self, table: Table, seat: int) -> str | None:
        """The claim ``seat``'s bot makes now (proven), or ``None``: only while a person
        sits at the table waiting for the bot, and only a claim the solver proves. Never at
        a daily challenge's table, whose bots must reply alike to every player whatever the
        workers' load (a claim is tried only while they keep up)."""
        judge = GAME_CLAIMS.get(table.game_name)
        game = table.game
        if (judge is None or game is None or table.challenge is not None
                or not judge.bot_claim_due(game, seat)):
            return None
        if not any(other.player is not None and not other.away
                   for number, other in enumerate(table.seats) if number != seat):
            return None
        if self.workers.pending >= self.workers.workers:
            return None  # the workers are behind: the bot plays its card instead
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
