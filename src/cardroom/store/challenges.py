"""The daily challenge in the store: each day's secret, the players' entries and their results.

A day's row is made the first time anybody starts that day's challenge, with a random secret
the deals are derived from; an entry is unique per game, day and player, so a second entry
(from another tab or server process) finds the first. An entry's results are the final scores
of its table's matches (one deal each): they are written with the deal's last action, in the
same transaction, so a crash loses no result and nothing is written twice.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, cast

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store.data import ChallengeEntry, ChallengeScores
from cardroom.store.models import (
    CHALLENGE_DAYS,
    CHALLENGE_ENTRIES,
    MATCHES,
    PLAYERS,
)


class ChallengeStore:
    """The store's side of the daily challenge (``Store.challenges``)."""

    def __init__(self, engine: AsyncEngine,
                 writing: Callable[[], AbstractAsyncContextManager[None]]) -> None:
        self._engine = engine
        self._writing = writing

    async def day_secret(self, game: str, day: str) -> str:
        """The secret of a game's challenge on ``day``, made at random the first time it is
        asked for (of two processes asking at once, the first insert wins and both get its
        secret)."""
        found = await self._secret(game, day)
        if found is not None:
            return found
        try:
            async with self._writing(), self._engine.begin() as connection:
                await connection.execute(insert(CHALLENGE_DAYS).values(
                    game=game, day=day, secret=secrets.token_hex(32), created_at=time.time(),
                    bot_points=None))
        except IntegrityError:
            pass  # another process made it first: read theirs
        secret = await self._secret(game, day)
        assert secret is not None
        return secret

    async def _secret(self, game: str, day: str) -> str | None:
        async with self._engine.connect() as connection:
            return cast(str | None, (await connection.execute(
                select(CHALLENGE_DAYS.c.secret).where(CHALLENGE_DAYS.c.game == game,
                                                      CHALLENGE_DAYS.c.day == day)
            )).scalar_one_or_none())

    async def bot_points(self, game: str, day: str) -> list[float] | None:
        """The bots' own points on each of the day's deals (``None``: not worked out yet)."""
        async with self._engine.connect() as connection:
            found = (await connection.execute(
                select(CHALLENGE_DAYS.c.bot_points).where(CHALLENGE_DAYS.c.game == game,
                                                          CHALLENGE_DAYS.c.day == day)
            )).scalar_one_or_none()
        return None if found is None else [float(p) for p in found]

    async def set_bot_points(self, game: str, day: str, points: list[float]) -> None:
        """Keep the bots' points on the day's deals (the same, whichever process works them
        out: the bots are seeded by the deal)."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.execute(update(CHALLENGE_DAYS).where(
                CHALLENGE_DAYS.c.game == game, CHALLENGE_DAYS.c.day == day
            ).values(bot_points=points))

    async def entry(self, game: str, day: str, player_id: str) -> ChallengeEntry | None:
        """The player's entry of that day, if they have one."""
        async with self._engine.connect() as connection:
            row = (await connection.execute(select(CHALLENGE_ENTRIES).where(
                CHALLENGE_ENTRIES.c.game == game, CHALLENGE_ENTRIES.c.day == day,
                CHALLENGE_ENTRIES.c.player_id == player_id))).first()
        return None if row is None else _entry(row)

    async def entry_of_table(self, table_id: str) -> ChallengeEntry | None:
        """The entry whose deals a table plays, if it is a challenge table."""
        async with self._engine.connect() as connection:
            row = (await connection.execute(
                select(CHALLENGE_ENTRIES).where(CHALLENGE_ENTRIES.c.table_id == table_id))).first()
        return None if row is None else _entry(row)

    async def add_entry(self, entry: ChallengeEntry) -> ChallengeEntry:
        """Keep a new entry; if the player already has one that day (made meanwhile, in this
        process or another), that one is returned instead and ``entry`` is not kept."""
        try:
            async with self._writing(), self._engine.begin() as connection:
                await connection.execute(insert(CHALLENGE_ENTRIES).values(
                    id=entry.id, game=entry.game, day=entry.day, player_id=entry.player_id,
                    table_id=entry.table_id, started_at=entry.started_at))
        except IntegrityError:
            found = await self.entry(entry.game, entry.day, entry.player_id)
            if found is None:
                raise
            return found
        return entry

    async def day_scores(self, game: str, day: str, ends_at: float) -> list[ChallengeScores]:
        """Every entry of the day, with its player's name and the final scores of each deal
        finished before ``ends_at`` (the day's end): two queries, however many players."""
        async with self._engine.connect() as connection:
            entries = (await connection.execute(
                select(CHALLENGE_ENTRIES, PLAYERS.c.name)
                .join(PLAYERS, PLAYERS.c.id == CHALLENGE_ENTRIES.c.player_id)
                .where(CHALLENGE_ENTRIES.c.game == game, CHALLENGE_ENTRIES.c.day == day)
                .order_by(CHALLENGE_ENTRIES.c.started_at))).all()
            scores: dict[str, dict[int, list[int]]] = {row.table_id: {} for row in entries}
            deals = await connection.execute(
                select(MATCHES.c.table_id, MATCHES.c.number, MATCHES.c.scores)
                .join(CHALLENGE_ENTRIES, CHALLENGE_ENTRIES.c.table_id == MATCHES.c.table_id)
                .where(CHALLENGE_ENTRIES.c.game == game, CHALLENGE_ENTRIES.c.day == day,
                       MATCHES.c.finished_at < ends_at))
            for deal in deals:
                scores[deal.table_id][deal.number] = list(deal.scores or [])
        return [ChallengeScores(_entry(row), row.name, scores[row.table_id])
                for row in entries]

    async def deals_played(self, game: str, day: str, player_id: str, ends_at: float) -> int:
        """How many deals of the day the player's entry finished before ``ends_at``."""
        async with self._engine.connect() as connection:
            return int((await connection.execute(
                select(func.count()).select_from(MATCHES)
                .join(CHALLENGE_ENTRIES, CHALLENGE_ENTRIES.c.table_id == MATCHES.c.table_id)
                .where(CHALLENGE_ENTRIES.c.game == game, CHALLENGE_ENTRIES.c.day == day,
                       CHALLENGE_ENTRIES.c.player_id == player_id, MATCHES.c.finished_at < ends_at)
            )).scalar_one())

    async def days(self, game: str, before: str, limit: int) -> list[tuple[str, int]]:
        """The latest days before ``before`` that anybody played, newest first, each with its
        number of entries."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(
                select(CHALLENGE_ENTRIES.c.day, func.count()).where(
                    CHALLENGE_ENTRIES.c.game == game, CHALLENGE_ENTRIES.c.day < before)
                .group_by(CHALLENGE_ENTRIES.c.day).order_by(CHALLENGE_ENTRIES.c.day.desc()).limit(limit))
            return [(row[0], int(row[1])) for row in rows]

    async def player_days(self, player_id: str, game: str, limit: int) -> list[str]:
        """The latest days the player entered, newest first."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(
                select(CHALLENGE_ENTRIES.c.day).where(CHALLENGE_ENTRIES.c.player_id == player_id,
                                             CHALLENGE_ENTRIES.c.game == game)
                .order_by(CHALLENGE_ENTRIES.c.day.desc()).limit(limit))
            return [row[0] for row in rows]


def _entry(row: Any) -> ChallengeEntry:
    return ChallengeEntry(id=row.id, game=row.game, day=row.day, player_id=row.player_id,
                          table_id=row.table_id, started_at=row.started_at)
