"""Ratings and players' figures, updated at every finished rated match.

OpenSkill's Plackett–Luce model (Weng–Lin) rates sides of any size and any number of sides,
ranked by how the match ended: the winner first, then the others by their final scores. Each
player and each bot level (``bot:NAME``) has a rating per game. A rating is shown as
``round(60 × μ)``: a newcomer's 25 shows as 1500.

The match is written with its players and ``pending`` by the commit that finishes it; rating
it is a second transaction here, run once by whichever process gets to it first (see
:mod:`cardroom.store.standings`), so a crash in between loses nothing: the next start rates it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from cardroom.bus import Bus
from cardroom.games.registry import GAMES
from cardroom.store.data import FinishedMatch, MatchSeat, Standing, bot_of
from cardroom.store.db import Store

log = logging.getLogger(__name__)
RATING_SCALE = 60
"""Shown rating per unit of μ."""
PROVISIONAL_MATCHES = 10
"""A rating is provisional, and off the leaderboard, until this many rated matches."""
MODEL = PlackettLuce()
RATINGS_CHANNEL = "ratings"
"""The bus channel of new ratings, so every process's seats show them."""


def shown(mu: float) -> int:
    """The rating players see for a skill estimate ``mu``."""
    return round(RATING_SCALE * mu)


def newcomer(entity: str, game: str) -> Standing:
    """The standing of somebody with no rated match of ``game`` yet."""
    rating = MODEL.rating()
    return Standing(entity, game, rating.mu, rating.sigma, shown(rating.mu))


def side_ranks(match: FinishedMatch, sides: int) -> list[int]:
    """Each side's place (0 first): the winner, then the others by final score (equal
    scores share a place)."""
    scores = [match.scores[side] if side < len(match.scores) else 0 for side in range(sides)]
    order = sorted((side for side in range(sides) if side != match.winner),
                   key=lambda side: -scores[side])
    ranks = {match.winner: 0}
    for place, side in enumerate(order, start=1):
        earlier = order[place - 2] if place > 1 else None
        same = earlier is not None and scores[earlier] == scores[side]
        ranks[side] = ranks[earlier] if same and earlier is not None else place
    return [ranks[side] for side in range(sides)]


def rate_match(match: FinishedMatch, current: dict[str, Standing]) -> dict[str, Standing]:
    """Everybody's standing after ``match``, from their standings before it (a newcomer is
    missing from ``current``). Pure: the store calls it inside the match's transaction."""
    sides = max(seat.side for seat in match.seats) + 1
    before = {seat.entity: current.get(seat.entity)
              or newcomer(seat.entity, match.game) for seat in match.seats}
    teams: list[list[tuple[str, PlackettLuceRating]]] = [[] for _ in range(sides)]
    for seat in match.seats:
        entity = seat.entity
        teams[seat.side].append((entity, MODEL.rating(mu=before[entity].mu,
                                                       sigma=before[entity].sigma)))
    rated = MODEL.rate([[rating for _, rating in team] for team in teams],
                       ranks=[float(rank) for rank in side_ranks(match, sides)])
    moved: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for team, after in zip(teams, rated, strict=True):
        for (entity, _), rating in zip(team, after, strict=True):
            moved[entity].append((rating.mu, rating.sigma))
    return {entity: _with_match(before[entity], match, _seats_of(match, entity),
                                _mean(moved[entity]))
            for entity in before}


def _seats_of(match: FinishedMatch, entity: str) -> list[MatchSeat]:
    return [seat for seat in match.seats if seat.entity == entity]


def _mean(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """A bot level at several seats of one match moves by the average of its seats."""
    return (sum(mu for mu, _ in pairs) / len(pairs), sum(s for _, s in pairs) / len(pairs))


def _with_match(standing: Standing, match: FinishedMatch, seats: list[MatchSeat],
                skill: tuple[float, float]) -> Standing:
    """``standing`` after the match: its new skill and the match's figures added (hands,
    points and contracts once per seat it held; the match once)."""
    label = GAMES[match.game].contract_label
    contracts = {key: list(value) for key, value in standing.contracts.items()}
    hands = points = 0
    for seat in seats:
        for hand in match.history:
            hands += 1
            points += _points(hand.get("points"), seat.side)
            if hand.get("contractor") == seat.seat and hand.get("made") is not None:
                kind = label(hand)
                if kind is not None:
                    tally = contracts.setdefault(kind, [0, 0])
                    tally[0] += 1
                    tally[1] += 1 if hand["made"] else 0
    mu, sigma = skill
    return Standing(standing.player_id, standing.game, mu, sigma, shown(mu),
                    matches=standing.matches + 1,
                    wins=standing.wins + (1 if any(seat.won for seat in seats) else 0),
                    hands=standing.hands + hands, points=standing.points + points,
                    contracts=contracts)


def _points(points: object, side: int) -> int:
    """A hand's points for one side (0 when the line has none for it)."""
    if isinstance(points, list) and side < len(points) and isinstance(points[side], int):
        return points[side]
    return 0


class Rater:
    """Rates finished matches and keeps this process's shown ratings up to date."""

    def __init__(self, store: Store, bus: Bus | None = None, origin: str = "") -> None:
        self.store = store
        self.bus, self.origin = bus, origin
        if bus is not None:
            bus.subscribe(RATINGS_CHANNEL, self._on_notice)
        self.bots: dict[tuple[str, str], int] = {}
        """Bot levels' ratings by ``(bot name, game)`` (few: kept for every seat's line)."""
        self.players: dict[str, dict[str, int]] = {}
        """Known players' ratings by game, filled as players sign in or sit down."""
        self.matches_rated = 0
        """Matches this process rated (reported by /api/health)."""

    def rating_of(self, player_id: str | None, bot: str | None, game: str) -> int | None:
        """The rating to show beside a seat's name (``None``: never rated)."""
        if player_id is not None:
            return self.players.get(player_id, {}).get(game)
        if bot is not None:
            return self.bots.get((bot, game))
        return None

    async def load_bots(self) -> None:
        """Read every bot level's rating (at start)."""
        for (entity, game), rating in (await self.store.standings.bot_ratings()).items():
            self.bots[(bot_of(entity) or entity, game)] = rating

    async def load_players(self, ids: Iterable[str]) -> None:
        """Read these players' ratings, unless already known."""
        wanted = [pid for pid in set(ids) if pid not in self.players]
        if not wanted:
            return
        for pid in wanted:
            self.players[pid] = {}
        for (pid, game), rating in (await self.store.standings.ratings(wanted)).items():
            self.players[pid][game] = rating

    def forget(self, player_id: str) -> None:
        """Drop a player's ratings (a deleted account)."""
        self.players.pop(player_id, None)

    async def rate(self, table_id: str, number: int) -> None:
        """Rate one finished match (nothing if it is not pending) and show the new ratings."""
        after = await self.store.standings.rate(table_id, number, rate_match)
        if after is None:
            return
        self.matches_rated += 1
        ratings = [[entity, standing.game, standing.rating]
                   for entity, standing in after.items()]
        self._show(ratings, newcomers=True)
        if self.bus is not None:
            await self.bus.publish(RATINGS_CHANNEL, {"ratings": ratings,
                                                     "origin": self.origin})

    def _show(self, ratings: list[list[Any]], newcomers: bool) -> None:
        """Keep new ratings for the seats to show (``newcomers``: also of players this
        process has not read yet)."""
        for entity, game, rating in ratings:
            bot = bot_of(str(entity))
            if bot is not None:
                self.bots[(bot, str(game))] = int(rating)
            elif newcomers or entity in self.players:
                self.players.setdefault(str(entity), {})[str(game)] = int(rating)

    async def _on_notice(self, notice: dict[str, Any]) -> None:
        """Another process rated a match: show its players' and bots' new ratings here."""
        ratings = notice.get("ratings")
        if notice.get("origin") != self.origin and isinstance(ratings, list):
            self._show([r for r in ratings if isinstance(r, list) and len(r) == 3],
                       newcomers=False)

    async def rate_pending(self) -> None:
        """Rate the matches a crash or a stop left pending (at start)."""
        for table_id, number in await self.store.standings.pending():
            try:
                await self.rate(table_id, number)
            except Exception:
                log.exception("could not rate match %s of table %s", number, table_id)
