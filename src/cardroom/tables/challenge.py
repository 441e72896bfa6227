"""The daily challenge: the same deals for everybody each day, scored by duplicate.

Each game's registry entry names its day's deals (:class:`~cardroom.games.registry.DailySet`:
500 plays eight single deals of ``online``). A player's entry is a private table of theirs
(:class:`~cardroom.tables.model.ChallengeTable`): match ``n`` of it is deal ``n``, a match of
one deal (the ``deals`` house option), with the room's challenge bot in the other seats. What
keeps it fair:

- the deals come from a random secret the day's row keeps (made when the day's first player
  starts), never from the date alone, and a table's deals reach only its player;
- one entry per player and day (the store's unique key decides, in every process);
- the bots reply alike to everybody: the challenge bot (``search:steady``) has no clock (its
  sample caps end its decisions), is seeded by the deal, the actions so far and a salt of the
  day's secret (:func:`cardroom.tables.driver.bot_seed`: nobody can replay them at home), and
  makes no claims there; a player's claim is proved or refused, never put to the bots;
- a challenge table is never left, played by a bot for its player, opened to others or
  changed (:mod:`cardroom.tables.seating`); it waits for its player until the day is over,
  then takes no more actions and closes; only deals finished within the day count;
- nobody else may replay an entry's deals until they have finished the day's challenge
  themselves, or the day is over (:meth:`DailyChallenge.replay_allowed`), and nobody sees
  another player's points before that (:meth:`DayBoard.to_dict`).

Results are the finished matches' scores, written with each deal's last action; the
standings are worked out when asked for (:mod:`cardroom.tables.matchpoints`), against every
other entry and the bots' own result on each deal (every seat a bot, played in the bot
workers once the day's first entry starts, or when the standings find it missing).
"""

from __future__ import annotations

import asyncio
import calendar
import hashlib
import hmac
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardroom.games.registry import GAMES, GameSpec
from cardroom.store.data import ChallengeScores
from cardroom.tables.core import Core, first_dealer
from cardroom.tables.driver import Driver, bot_seed
from cardroom.tables.matchpoints import BOTS, Entrant, Standing, deal_points, standings
from cardroom.tables.model import ChallengeTable, Player, Table
from cardroom.tables.workers import BotWorkers

log = logging.getLogger(__name__)

PLAYER_SEAT = 0
"""Where every entry's player sits: the same cards for everybody."""
DAY_SECONDS = 86_400
SWEEP_EVERY = 20.0
"""Seconds between looks for challenge tables whose day is over (they close)."""
BOARD_FRESH = 2.0
"""Seconds today's standings are served as worked out (one computation however many ask)."""
PAST_BOARDS_KEPT = 8
"""Past days' whole standings kept worked out (they no longer change)."""
SUMMARIES_KEPT = 2 * 60 + 8
"""Past days' summaries kept (winners, each player's rank): the archive and histories."""
ARCHIVE_DAYS = 60
"""The most past days the archive and a player's history list."""
PAGE_ROWS = 100
"""The most rows of standings one leaderboard answer holds."""
DEAL_OPTIONS: dict[str, Any] = {"deals": 1}
"""The house options of a challenge's matches, on the game's daily preset: one deal each."""


def utc_day(at: float) -> str:
    """The day (UTC, ``YYYY-MM-DD``) of the unix time ``at``."""
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def day_end(day: str) -> float:
    """The unix time a day (UTC, ``YYYY-MM-DD``) ends; ``ValueError`` for no such day."""
    return calendar.timegm(time.strptime(day, "%Y-%m-%d")) + DAY_SECONDS


def _keyed(secret: str, text: str) -> bytes:
    return hmac.digest(secret.encode(), text.encode(), hashlib.sha256)


def day_deals(secret: str, game: str, day: str, deals: int) -> tuple[tuple[int, ...], str]:
    """The seeds of a day's deals and the salt of its bots' seeds: keyed hashes of the day's
    secret, so that knowing the date, the game and the engine tells nothing of the cards,
    and a deal's seed (in its record, once played) nothing of the bots' replies."""
    seeds = tuple(int.from_bytes(_keyed(secret, f"{game}:{day}:{n}")[:8], "big") >> 2
                  for n in range(1, deals + 1))
    return seeds, _keyed(secret, f"{game}:{day}:bots").hex()[:32]


def challenge_rules(spec: GameSpec) -> Any:
    """The rules of the game's daily deals: its daily preset, each match one deal."""
    return spec.rules(spec.daily.preset, DEAL_OPTIONS)


def entry_points(scores: ChallengeScores) -> dict[int, float]:
    """An entry's result on each deal it finished (its player's side is seat 0's, side 0)."""
    return {deal: deal_points(final, PLAYER_SEAT) for deal, final in scores.scores.items()}


@dataclass(frozen=True, slots=True)
class DayBoard:
    """A game's challenge on one day: the standings (the bots' row among them once their
    results are in), and whether the day is over."""

    game: str
    day: str
    deals: int
    rows: list[Standing]
    over: bool
    bots_ready: bool
    tables: dict[str, str]
    """Each player's entry's table, by player id (its match ``n`` is deal ``n``)."""

    def row_of(self, entrant: str) -> Standing | None:
        """An entrant's row (a player id, or :data:`BOTS`)."""
        return next((row for row in self.rows if row.id == entrant), None)

    def finished(self, entrant: str) -> bool:
        """Whether the entrant has played every deal."""
        row = self.row_of(entrant)
        return row is not None and row.played == self.deals

    def to_dict(self, asker: str | None, bots_name: str, offset: int = 0,
                limit: int = PAGE_ROWS) -> dict[str, Any]:
        """A page of the leaderboard as the page shows it, with the asker's own row apart
        (``you_row``). Until the day is over or the asker has played every deal, the others'
        results stay hidden (their points and ranks as deals finish would say which deals are
        big ones): their rows say only who plays and how far they have got, most deals
        first. After, every row has its rank, totals, each deal's points and matchpoints and
        the entry's table, whose deals the asker may then replay."""
        open_book = self.over or (asker is not None and self.finished(asker))
        rows = self.rows if open_book else sorted(
            self.rows, key=lambda row: (-row.played, row.name.casefold(), row.id))
        mine = self.row_of(asker) if asker is not None else None
        return {
            "game": self.game, "day": self.day, "deals": self.deals, "over": self.over,
            "entries": sum(row.id != BOTS for row in self.rows), "bots_ready": self.bots_ready,
            "deals_shown": open_book, "offset": offset, "total_rows": len(rows),
            "rows": [self._row(row, bots_name, open_book or row.id == asker)
                     for row in rows[offset:offset + limit]],
            "you_row": None if mine is None else self._row(mine, bots_name, True),
        }

    def _row(self, row: Standing, bots_name: str, shown: bool) -> dict[str, Any]:
        bots = row.id == BOTS
        return {"rank": row.rank if shown else None, "player_id": None if bots else row.id,
                "bots": bots, "name": bots_name if bots else row.name,
                "total": row.total if shown else None, "points": row.points if shown else None,
                "played": row.played, "deals": row.deals if shown else None,
                "table_id": self.tables.get(row.id) if shown else None}


@dataclass(frozen=True, slots=True)
class DaySummary:
    """What the archive and players' histories show of a day that is over."""

    entries: int
    winners: list[str]
    places: dict[str, tuple[int, float, int]]
    """Each player's rank (among every row, the bots' included), total and deals played."""
    rows: int


class DailyChallenge:
    """The day's challenge of every game: entries' tables, the bots' results, standings."""

    def __init__(self, core: Core, driver: Driver, workers: BotWorkers, bot: str) -> None:
        self.core, self.driver, self.workers = core, driver, workers
        self.bot = bot
        """The registry bot every challenge seat but the player's gets."""
        self._bot_runs: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._past: OrderedDict[tuple[str, str], DayBoard] = OrderedDict()
        self._summaries: OrderedDict[tuple[str, str], DaySummary] = OrderedDict()
        self._today: dict[str, tuple[float, asyncio.Future[DayBoard]]] = {}
        self.fresh = BOARD_FRESH
        """Seconds today's standings are served as worked out (tests make it 0)."""

    @property
    def clock(self) -> Callable[[], float]:
        """The room's clock of days (the driver's: it stops a table whose day is over)."""
        return self.driver.now

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.driver.now = clock

    def today(self) -> str:
        """The challenge's day now (UTC)."""
        return utc_day(self.clock())

    async def deals(self, spec: GameSpec, day: str) -> ChallengeTable:
        """The game's deals on ``day`` (its secret made on first use), for an entry."""
        secret = await self.core.store.challenges.day_secret(spec.name, day)
        seeds, salt = day_deals(secret, spec.name, day, spec.daily.deals)
        return ChallengeTable("", day, seeds, salt, day_end(day))

    # -- the bots' own results --------------------------------------------------------------------

    def ensure_bot_results(self, spec: GameSpec, deals: ChallengeTable) -> None:
        """Have the bots play the day's deals in every seat, once, if nobody has yet: their
        results are on the day's leaderboard, one more to beat on each deal."""
        key = (spec.name, deals.day)
        running = self._bot_runs.get(key)
        if running is None or running.done():
            self._bot_runs[key] = self.core.spawn(self._bot_results(spec, deals))

    async def _bot_results(self, spec: GameSpec, deals: ChallengeTable) -> None:
        store = self.core.store.challenges
        if await store.bot_points(spec.name, deals.day) is not None:
            return
        rules = challenge_rules(spec)
        key = f"challenge:{spec.name}:{deals.day}"
        points = [await self._bots_play(spec, rules, seed, deals.salt, key)
                  for seed in deals.seeds]
        await store.set_bot_points(spec.name, deals.day, points)
        self._today.pop(spec.name, None)

    async def _bots_play(self, spec: GameSpec, rules: Any, seed: int, salt: str,
                         key: str) -> float:
        """A deal played by the challenge bot in every seat, each decision in the workers as
        at a table; the points of the player's seat's side."""
        game = spec.new(rules, seed, first_dealer(rules, PLAYER_SEAT))
        while not game.is_over:
            seat = game.to_act
            action = await self.workers.decide(key, self.bot, bot_seed(game, salt),
                                               dict(game.view(seat)), steady=True)
            game.apply(action, seat=seat)
        return deal_points(list(game.scores), PLAYER_SEAT)

    # -- standings --------------------------------------------------------------------------------

    async def board(self, spec: GameSpec, day: str) -> DayBoard:
        """The standings of ``day``: today's as worked out at most :data:`BOARD_FRESH` seconds
        ago (one computation for everybody asking meanwhile), a past day's kept once its
        bots' results are in (it no longer changes)."""
        if day >= self.today():
            cached = self._today.get(spec.name)
            if cached is None or cached[0] + self.fresh <= time.monotonic() \
                    or (cached[1].done() and cached[1].result().day != day):
                future = asyncio.ensure_future(self._work_out(spec, day))
                cached = self._today[spec.name] = (time.monotonic(), future)
            return await asyncio.shield(cached[1])
        key = (spec.name, day)
        past = self._past.get(key)
        if past is not None:
            self._past.move_to_end(key)
            return past
        board = await self._work_out(spec, day)
        if board.bots_ready:
            _remember(self._past, key, board, PAST_BOARDS_KEPT)
        return board

    async def _work_out(self, spec: GameSpec, day: str) -> DayBoard:
        """The standings of ``day`` from the store (deals finished within the day only), the
        scoring done beside the event loop; the bots set to play the deals if their results
        are missing."""
        store = self.core.store.challenges
        entries = await store.day_scores(spec.name, day, day_end(day))
        bot_points = await store.bot_points(spec.name, day)
        entrants = [Entrant(e.entry.player_id, e.name, entry_points(e)) for e in entries]
        if bot_points is not None:
            entrants.append(Entrant(BOTS, BOTS, dict(enumerate(bot_points, start=1))))
        elif entries:
            self.ensure_bot_results(spec, await self.deals(spec, day))
        rows = await asyncio.to_thread(standings, entrants, spec.daily.deals)
        return DayBoard(spec.name, day, spec.daily.deals, rows, day < self.today(),
                        bot_points is not None,
                        {e.entry.player_id: e.entry.table_id for e in entries})

    async def summary(self, spec: GameSpec, day: str) -> DaySummary:
        """A past day's winners and each player's place, kept once final."""
        key = (spec.name, day)
        found = self._summaries.get(key)
        if found is not None:
            return found
        board = await self.board(spec, day)
        people = [row for row in board.rows if row.id != BOTS]
        best = min((row.rank for row in people), default=0)
        summary = DaySummary(len(people), [row.name for row in people if row.rank == best],
                             {row.id: (row.rank, row.total, row.played) for row in people},
                             len(board.rows))
        if board.over and board.bots_ready:
            _remember(self._summaries, key, summary, SUMMARIES_KEPT)
        return summary

    async def archive(self, spec: GameSpec) -> list[dict[str, Any]]:
        """The past days anybody played, newest first, with how many did and the winners."""
        days = await self.core.store.challenges.days(spec.name, self.today(), ARCHIVE_DAYS)
        listed = []
        for day, entries in days:
            summary = await self.summary(spec, day)
            listed.append({"day": day, "entries": entries, "winners": summary.winners})
        return listed

    async def history(self, spec: GameSpec, player_id: str) -> list[dict[str, Any]]:
        """A player's days, newest first: their rank on the day's leaderboard (of how many
        rows, the bots' included), their total and how many deals they played. Today's, while
        it is being played, says only how many."""
        days = await self.core.store.challenges.player_days(player_id, spec.name, ARCHIVE_DAYS)
        history: list[dict[str, Any]] = []
        today = self.today()
        for day in days:
            if day >= today:
                played = await self.core.store.challenges.deals_played(
                    spec.name, day, player_id, day_end(day))
                history.append({"day": day, "rank": None, "of": None, "total": None,
                                "played": played, "deals": spec.daily.deals, "over": False})
                continue
            summary = await self.summary(spec, day)
            place = summary.places.get(player_id)
            if place is not None:
                rank, total, played = place
                history.append({"day": day, "rank": rank, "of": summary.rows, "total": total,
                                "played": played, "deals": spec.daily.deals, "over": True})
        return history

    # -- who may see what -------------------------------------------------------------------------

    async def replay_allowed(self, player: Player | None, table_id: str) -> bool:
        """Whether ``player`` may replay the deals of a challenge entry's table that is not
        theirs: once its day is over, anybody; before, only a player who has played every
        deal of that day's challenge (their own are over, so nothing is given away)."""
        store = self.core.store.challenges
        entry = await store.entry_of_table(table_id)
        if entry is None:
            return False
        if entry.day < self.today():
            return True
        if player is None:
            return False
        played = await store.deals_played(entry.game, entry.day, player.id, day_end(entry.day))
        return played >= GAMES[entry.game].daily.deals

    # -- the day's end ----------------------------------------------------------------------------

    def day_over(self, table: Table) -> bool:
        """A challenge table whose day is over (it takes no more actions)."""
        return table.challenge is not None and table.challenge.ends_at <= self.clock()

    async def sweep(self) -> None:
        """Every little while: close the challenge tables whose day is over (an entry left
        half played keeps the deals it finished within the day)."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            await self.close_past_days()

    async def close_past_days(self) -> None:
        """Close now every challenge table of a day that is over (a shared room's owner
        closes it; one that nobody owns, its player gone, is taken here first)."""
        past = [table for table in self.core.tables.values() if self.day_over(table)]
        past += await self._left_past_tables()
        leases = self.core.leases
        await leases.take([table.id for table in past if not leases.owns(table.id)])
        for table in past:
            self.close(table)

    async def _left_past_tables(self) -> list[Table]:
        """The challenge tables of days that are over that no process holds (their players
        left them): loaded here, taken first in a shared room, to be closed."""
        core, now = self.core, self.clock()
        left = await core.store.leases.let_go_challenges()
        found = []
        for table_id in [t for t, ends_at in left.items() if ends_at <= now]:
            if table_id in core.tables or (core.shared and not await core.leases.take([table_id])):
                continue
            table = await self.driver.sync.load(table_id)
            if table is not None:
                found.append(table)
        return found

    def close(self, table: Table) -> None:
        """Close a challenge table (its day is over, or its last deal)."""
        table.closing = True
        self.driver.changed(table)


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any, keep: int) -> None:
    """Keep ``value`` under ``key``, forgetting the least recently kept past ``keep``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > keep:
        cache.popitem(last=False)
