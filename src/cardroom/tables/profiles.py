"""Players' profiles and the leaderboards, as plain data for ``/api/players/{id}`` and
``/api/leaderboard`` (the web layer only routes; see docs/protocol.md for the shapes).

A profile is read from the store's standings (a row per player and game, kept up to date
by :mod:`cardroom.tables.ratings`) and the player's latest finished matches. A bot level has
a profile too (``bot:NAME``). A private table's match is listed without its table or record:
the table's id is not for strangers; the daily challenge's deals only on the player's own.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from cardroom.bots.levels import level_word
from cardroom.games.registry import DEFAULT_GAME, GAMES
from cardroom.store.data import FinishedMatch, MatchSeat, Ranked, Standing, bot_of
from cardroom.store.db import Store
from cardroom.tables.errors import RoomError
from cardroom.tables.ratings import PROVISIONAL_MATCHES
from cardroom.tables.seating import check_bot_name

RECENT_MATCHES = 20
"""Matches a profile lists."""
HISTORY_POINTS = 200
"""Ratings a profile's chart shows, per game."""
LEADERBOARD_PAGE = 100
"""The most lines one leaderboard page holds."""
OFFSET_MAX = 10**9
"""Past any leaderboard's end (a larger offset would overflow the database's integers)."""


async def profile(store: Store, entity: str, own: bool = False) -> dict[str, Any] | None:
    """The profile of a player or bot level (``bot:NAME``); ``None`` for nobody. ``own``:
    the player asks for their own, which names their private tables' matches (to replay them)
    where everyone else sees only that they were played."""
    bot = bot_of(entity)
    if bot is not None and not _known_bot(bot):
        return None
    standings = await store.standings.of_player(entity)
    recent = await store.standings.recent(entity, RECENT_MATCHES, challenges=own)
    if bot is not None:
        if not standings and not recent:
            return None
        game = next(iter(standings), DEFAULT_GAME)
        head: dict[str, Any] = {"name": level_word(game, bot), "bot": bot,
                                "registered": False, "deleted": False}
    else:
        account = await store.accounts.account(entity, deleted=True)
        if account is None:
            return None
        head = {"name": account.name, "bot": None, "registered": account.registered,
                "deleted": account.deleted}
    games = {game: {**_figures(standing),
                    "history": [{"at": point.at, "rating": point.rating} for point in
                                await store.standings.history(entity, game, HISTORY_POINTS)]}
             for game, standing in standings.items()}
    names = await store.players(sorted({seat.player_id for match in recent
                                        for seat in match.seats if seat.player_id}))
    return {"player_id": entity, **head, "games": games,
            "recent": [_recent(match, entity, {pid: p.name for pid, p in names.items()}, own)
                       for match in recent]}


def _figures(standing: Standing) -> dict[str, Any]:
    """A game's totals and rating as a profile shows them."""
    matches, hands = standing.matches, standing.hands
    return {
        "matches": matches, "wins": standing.wins,
        "win_rate": round(standing.wins / matches, 3) if matches else None,
        "hands": hands,
        "points_per_hand": round(standing.points / hands, 1) if hands else None,
        "contracts": [{"label": label, "bid": bid, "made": made}
                      for label, (bid, made) in sorted(standing.contracts.items(),
                                                       key=lambda item: _label_order(item[0]))],
        "rating": {"rating": standing.rating, "mu": round(standing.mu, 3),
                   "sigma": round(standing.sigma, 3), "matches": matches,
                   "provisional": matches < PROVISIONAL_MATCHES}}


def _label_order(label: str) -> tuple[int, str]:
    """Trick levels and bets by their number first, then the kinds of contract by name."""
    return (int(label), "") if label.isdigit() else (10**6, label)


def _recent(match: FinishedMatch, entity: str, names: dict[str, str],
            own: bool = False) -> dict[str, Any]:
    """One of a profile's recent matches, from the profile's owner's side (a private
    table's shown in full to its owner alone)."""
    mine = [seat for seat in match.seats if seat.entity == entity]
    side = mine[0].side if mine else None
    hidden = match.private and not own
    return {
        "game": match.game, "table_id": None if hidden else match.table_id,
        "match": match.number, "preset": _preset(match),
        "finished_at": match.finished_at, "won": any(seat.won for seat in mine),
        "side": side,
        "score": match.scores[side] if side is not None and side < len(match.scores) else None,
        "scores": match.scores,
        "players": [] if hidden else [_seat_line(seat, names, match.game)
                                      for seat in match.seats],
        "record": None if hidden else record_url(match.table_id, match.number)}


def _preset(match: FinishedMatch) -> str | None:
    """The preset the match's rules are (``None`` if house rules changed it)."""
    return _preset_of(match.game, json.dumps(match.rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _preset_of(game: str, rules: str) -> str | None:
    """:func:`_preset` by the rules' text: a table's matches share their rules, and telling
    the preset builds every preset's rules to compare."""
    try:
        name: str | None = GAMES[game].rules_from_dict(json.loads(rules)).preset_name
    except (KeyError, ValueError, TypeError):
        return None
    return name


def _seat_line(seat: MatchSeat, names: dict[str, str], game: str) -> dict[str, Any]:
    name = names.get(seat.player_id, "?") if seat.player_id else \
        level_word(game, seat.bot or "")
    return {"seat": seat.seat, "name": name, "player_id": seat.entity,
            "side": seat.side}


def record_url(table_id: str, number: int) -> str:
    """Where a finished match's record is downloaded."""
    return f"/api/matches/{table_id}/{number}/record"


async def leaderboard(store: Store, game: str, min_matches: int, offset: int,
                      limit: int) -> dict[str, Any]:
    """A page of a game's leaderboard: players and bot levels with ``min_matches`` rated
    matches, best first."""
    limit = max(1, min(limit, LEADERBOARD_PAGE))
    offset = max(0, min(offset, OFFSET_MAX))
    total, lines = await store.standings.leaderboard(game, min_matches, offset, limit)
    return {"game": game, "min_matches": min_matches, "total": total, "offset": offset,
            "limit": limit,
            "players": [_leader(game, offset + place, line)
                        for place, line in enumerate(lines, start=1)]}


def _leader(game: str, rank: int, line: Ranked) -> dict[str, Any]:
    """One leaderboard line: a player by name, a bot level by its player word."""
    bot = bot_of(line.player_id)
    name = line.name if line.name is not None else level_word(game, bot or line.player_id)
    return {"rank": rank, "player_id": line.player_id, "name": name, "bot": bot,
            "rating": line.rating, "matches": line.matches, "wins": line.wins}


def _known_bot(name: str) -> bool:
    """Whether the room has a bot of this name (others are answered at once, unread)."""
    try:
        check_bot_name(name)
    except RoomError:
        return False
    return True


def known_game(name: str) -> bool:
    """Whether the room plays a game of this name."""
    return name in GAMES
