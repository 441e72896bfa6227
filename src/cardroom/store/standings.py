"""Ratings, profiles and the leaderboard in the store.

A finished match is written with its players (``match_seats``) and ``matches.rating =
'pending'`` in the same transaction as its last action (:meth:`Store.commit`). Rating it is a
second transaction (:meth:`Standings.rate`) that claims it (``pending`` → ``done``), reads the
players' standings, lets the caller compute the new ones, and writes them with a point of
each one's rating history: it happens once per match, in whichever process gets there first,
and a match whose rating a crash interrupted is still ``pending`` for the next start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardroom.games.record import Record
from cardroom.store.data import (
    BOT_ENTITY_PREFIX,
    FinishedMatch,
    MatchSeat,
    Ranked,
    RatingPoint,
    Standing,
    bot_of,
)
from cardroom.store.models import (
    ACTIONS,
    CHALLENGE_ENTRIES,
    MATCH_SEATS,
    MATCHES,
    PLAYER_GAMES,
    PLAYERS,
    RATING_POINTS,
    TABLES,
)

RATE_ATTEMPTS = 3
"""Tries of one match's rating when two processes first rate the same newcomer at once
(one insert of its standing loses, and its whole transaction is tried again)."""

Compute = Callable[[FinishedMatch, dict[str, Standing]], dict[str, Standing]]
"""Given a match and the current standings of its players (by id; a newcomer is missing),
their standings after it."""


class Standings:
    """The store's side of ratings and profiles (``Store.standings``)."""

    def __init__(self, engine: AsyncEngine,
                 writing: Callable[[], AbstractAsyncContextManager[None]]) -> None:
        self._engine = engine
        self._writing = writing

    async def pending(self, limit: int = 1000) -> list[tuple[str, int]]:
        """Finished matches still to be rated, oldest first: ``(table id, match number)``."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(
                select(MATCHES.c.table_id, MATCHES.c.number)
                .where(MATCHES.c.rating == "pending")
                .order_by(MATCHES.c.finished_at).limit(limit))
            return [(row.table_id, row.number) for row in rows]

    async def rate(self, table_id: str, number: int,
                   compute: Compute) -> dict[str, Standing] | None:
        """Rate a pending match once: the new standings written, or ``None`` if it is not
        pending (rated already, here or in another process, or unrated)."""
        for attempt in range(RATE_ATTEMPTS):
            try:
                async with self._writing(), self._engine.begin() as connection:
                    return await connection.run_sync(_rate, table_id, number, compute)
            except IntegrityError:
                if attempt == RATE_ATTEMPTS - 1:
                    raise
        return None

    async def of_player(self, player_id: str) -> dict[str, Standing]:
        """A player's standing in each game they have a rated match of."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(select(PLAYER_GAMES)
                                            .where(PLAYER_GAMES.c.player_id == player_id))
            return {row.game: _standing(row) for row in rows}

    async def ratings(self, ids: Sequence[str]) -> dict[tuple[str, str], int]:
        """Ratings by ``(player id, game)`` for these players and bot levels."""
        if not ids:
            return {}
        async with self._engine.connect() as connection:
            rows = await connection.execute(
                select(PLAYER_GAMES.c.player_id, PLAYER_GAMES.c.game, PLAYER_GAMES.c.rating)
                .where(PLAYER_GAMES.c.player_id.in_(list(ids))))
            return {(row.player_id, row.game): row.rating for row in rows}

    async def bot_ratings(self) -> dict[tuple[str, str], int]:
        """Every bot level's rating by ``(bot:NAME, game)``."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(
                select(PLAYER_GAMES.c.player_id, PLAYER_GAMES.c.game, PLAYER_GAMES.c.rating)
                .where(PLAYER_GAMES.c.player_id.startswith(BOT_ENTITY_PREFIX)))
            return {(row.player_id, row.game): row.rating for row in rows}

    async def history(self, player_id: str, game: str, limit: int = 200) -> list[RatingPoint]:
        """The last ``limit`` ratings after rated matches, oldest first."""
        async with self._engine.connect() as connection:
            rows = (await connection.execute(
                select(RATING_POINTS.c.at, RATING_POINTS.c.rating)
                .where(RATING_POINTS.c.player_id == player_id, RATING_POINTS.c.game == game)
                .order_by(RATING_POINTS.c.id.desc()).limit(limit))).all()
        return [RatingPoint(row.at, row.rating) for row in reversed(rows)]

    async def recent(self, player_id: str, limit: int = 20,
                     challenges: bool = True) -> list[FinishedMatch]:
        """A player's (or bot level's) latest finished matches, newest first; without the
        daily challenge's deals unless ``challenges`` (a deal's score would tell others which
        of the day's deals are big ones)."""
        bot = bot_of(player_id)
        mine = (MATCH_SEATS.c.bot == bot) if bot is not None \
            else (MATCH_SEATS.c.player_id == player_id)
        if not challenges:
            mine = and_(mine, MATCH_SEATS.c.table_id.not_in(select(CHALLENGE_ENTRIES.c.table_id)))
        async with self._engine.connect() as connection:
            keys = [(key.table_id, key.match_number) for key in await connection.execute(
                select(MATCH_SEATS.c.table_id, MATCH_SEATS.c.match_number,
                       MATCH_SEATS.c.finished_at)
                .where(mine).distinct()  # a bot level holds several seats of a match
                .order_by(MATCH_SEATS.c.finished_at.desc()).limit(limit))]
            found = await _finished_many(connection, keys)
        return [found[key] for key in keys if key in found]

    async def leaderboard(self, game: str, min_matches: int, offset: int,
                          limit: int) -> tuple[int, list[Ranked]]:
        """Players and bot levels with at least ``min_matches`` rated matches of ``game``,
        best first (ties: more matches first): how many in all, and one page."""
        where = and_(PLAYER_GAMES.c.game == game, PLAYER_GAMES.c.matches >= min_matches,
                     PLAYERS.c.deleted_at.is_(None))
        joined = PLAYER_GAMES.outerjoin(PLAYERS, PLAYERS.c.id == PLAYER_GAMES.c.player_id)
        async with self._engine.connect() as connection:
            total = (await connection.execute(
                select(func.count()).select_from(joined).where(where))).scalar_one()
            rows = await connection.execute(
                select(PLAYER_GAMES.c.player_id, PLAYER_GAMES.c.rating, PLAYER_GAMES.c.matches,
                       PLAYER_GAMES.c.wins, PLAYERS.c.name)
                .select_from(joined)
                .where(where)
                .order_by(PLAYER_GAMES.c.rating.desc(), PLAYER_GAMES.c.matches.desc(),
                          PLAYER_GAMES.c.player_id)
                .offset(offset).limit(limit))
            return int(total), [Ranked(row.player_id, row.name, row.rating, row.matches,
                                       row.wins) for row in rows]

    async def finished(self, table_id: str, number: int) -> FinishedMatch | None:
        """A finished match with its seats, without its actions (``None``: no such finished
        match): what deciding who may see it needs."""
        async with self._engine.connect() as connection:
            found = (await _finished_many(connection, [(table_id, number)])).get(
                (table_id, number))
        return found if found is not None and found.finished_at is not None else None

    async def match_record(self, table_id: str,
                           number: int) -> tuple[FinishedMatch, Record] | None:
        """A finished match with its record (``None``: no such finished match)."""
        async with self._engine.connect() as connection:
            row = (await connection.execute(
                select(MATCHES.c.seed, MATCHES.c.dealer, MATCHES.c.finished_at)
                .where(MATCHES.c.table_id == table_id, MATCHES.c.number == number))).first()
            if row is None or row.finished_at is None:
                return None
            match = await _finished(connection, table_id, number)
            actions = (await connection.execute(
                select(ACTIONS.c.seat, ACTIONS.c.action)
                .where(ACTIONS.c.table_id == table_id, ACTIONS.c.match_number == number)
                .order_by(ACTIONS.c.number))).all()
        return match, Record(game=match.game, rules=match.rules, seed=row.seed,
                             dealer=row.dealer, actions=[a.action for a in actions],
                             seats=[a.seat for a in actions])


async def _finished(connection: AsyncConnection, table_id: str, number: int) -> FinishedMatch:
    """A finished match with its seats, read inside the caller's transaction."""
    return (await _finished_many(connection, [(table_id, number)]))[(table_id, number)]


async def _finished_many(connection: AsyncConnection, keys: list[tuple[str, int]]
                         ) -> dict[tuple[str, int], FinishedMatch]:
    """Finished matches with their seats, by (table id, match number): two queries however
    many (a profile lists twenty)."""
    return await connection.run_sync(_read_finished, keys)


def _read_finished(connection: Connection, keys: list[tuple[str, int]]
                   ) -> dict[tuple[str, int], FinishedMatch]:
    """:func:`_finished_many` on the driver's side (in one hop, however many queries)."""
    if not keys:
        return {}
    wanted = tuple_(MATCHES.c.table_id, MATCHES.c.number).in_(keys)
    seats: dict[tuple[str, int], list[MatchSeat]] = {key: [] for key in keys}
    for s in connection.execute(
            select(MATCH_SEATS)
            .where(tuple_(MATCH_SEATS.c.table_id, MATCH_SEATS.c.match_number).in_(keys))
            .order_by(MATCH_SEATS.c.seat)):
        seats[(s.table_id, s.match_number)].append(
            MatchSeat(s.seat, s.player_id, s.bot, s.side, bool(s.won)))
    rows = connection.execute(
        select(MATCHES.c.table_id, MATCHES.c.number, MATCHES.c.rules, MATCHES.c.winner,
               MATCHES.c.scores, MATCHES.c.history, MATCHES.c.finished_at,
               MATCHES.c.private, TABLES.c.game)
        .join(TABLES, TABLES.c.id == MATCHES.c.table_id).where(wanted))
    return {(row.table_id, row.number): FinishedMatch(
        table_id=row.table_id, number=row.number, game=row.game, rules=row.rules,
        winner=row.winner, scores=list(row.scores or []), history=list(row.history or []),
        finished_at=row.finished_at, seats=tuple(seats[(row.table_id, row.number)]),
        private=bool(row.private)) for row in rows}


def _rate(connection: Connection, table_id: str, number: int,
          compute: Compute) -> dict[str, Standing] | None:
    """One match's rating inside the caller's transaction (see :meth:`Standings.rate`), on
    the driver's side: the whole transaction runs in one hop, so on SQLite it holds the
    write lock for milliseconds, not for as many trips through a busy event loop as it has
    statements (the tables' own writes wait for that lock)."""
    claimed = connection.execute(
        update(MATCHES).where(MATCHES.c.table_id == table_id, MATCHES.c.number == number,
                               MATCHES.c.rating == "pending").values(rating="done"))
    if claimed.rowcount != 1:
        return None
    match = _read_finished(connection, [(table_id, number)])[(table_id, number)]
    ids = sorted({seat.entity for seat in match.seats})
    current = {row.player_id: _standing(row) for row in connection.execute(
        select(PLAYER_GAMES).where(PLAYER_GAMES.c.player_id.in_(ids),
                                   PLAYER_GAMES.c.game == match.game)
        .order_by(PLAYER_GAMES.c.player_id).with_for_update())}
    deleted = {row.id for row in connection.execute(
        select(PLAYERS.c.id).where(PLAYERS.c.id.in_(ids), PLAYERS.c.deleted_at.isnot(None)))}
    after = {entity: standing for entity, standing in compute(match, current).items()
             if entity not in deleted}  # a deleted account keeps no rating
    now = time.time()
    for entity, standing in after.items():
        values = _columns(standing, now)
        if entity in current:
            connection.execute(update(PLAYER_GAMES).where(
                PLAYER_GAMES.c.player_id == entity, PLAYER_GAMES.c.game == match.game
            ).values(**values))
        else:
            connection.execute(insert(PLAYER_GAMES).values(
                player_id=entity, game=match.game, **values))
    if after:
        connection.execute(insert(RATING_POINTS), [
            {"player_id": entity, "game": match.game, "at": match.finished_at,
             "rating": standing.rating} for entity, standing in after.items()])
    return after


def _standing(row: Any) -> Standing:
    return Standing(player_id=row.player_id, game=row.game, mu=row.mu, sigma=row.sigma,
                    rating=row.rating, matches=row.matches, wins=row.wins, hands=row.hands,
                    points=row.points, contracts=dict(row.contracts or {}))


def _columns(standing: Standing, now: float) -> dict[str, Any]:
    return {"mu": standing.mu, "sigma": standing.sigma, "rating": standing.rating,
            "matches": standing.matches, "wins": standing.wins, "hands": standing.hands,
            "points": standing.points, "contracts": standing.contracts, "updated_at": now}
