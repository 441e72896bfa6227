"""What the room is made of: players, seats, tables and the room's settings.

Plain data with the few questions every part of the room asks of it (who sits where, the
lobby row, the table message a viewer gets). The parts that change tables live beside it:
:mod:`cardroom.tables.core` (the one path of a change), :mod:`~cardroom.tables.sync` (other
processes), :mod:`~cardroom.tables.followers` (connections and presence),
:mod:`~cardroom.tables.driver` (bots, timers, the next match) and :mod:`~cardroom.tables.room`
(the verbs a connection calls).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict, cast

from cardroom.bots.levels import CHALLENGE_BOT, DEFAULT_BOT, level_word
from cardroom.games.registry import DEFAULT_GAME, GAMES, GameSpec
from cardroom.protocol import (
    Clock,
    SeatInfo,
    ServerMessage,
    TableShared,
    TableSummary,
    TableUpdate,
)
from cardroom.store.data import StoredSeat, TableSettings, entity_of
from cardroom.tables.quotas import QuotaSettings

Game = Any
"""A match of any game of the registry (``cardroom.games.base.Game`` and its record)."""
Rules = Any
"""The rules of any game of the registry."""
MATCHES_SHOWN = 20
"""Finished matches a table message lists (their results; the last one's hands too)."""


@dataclass(frozen=True)
class Player:
    """A registered player, as proven by their token."""

    id: str
    name: str


class RatingLookup(Protocol):
    """Where a table finds the ratings its seats show."""

    def rating_of(self, player_id: str | None, bot: str | None, game: str) -> int | None:
        """A player's (or else a bot level's) rating in ``game``; ``None``: never rated."""
        ...


class TableRow(TypedDict):
    """What every process of a shared room knows of an open table, whoever owns it: its
    lobby row, and what the room decides by (who sits there, where play-now may seat
    somebody, the room's limits). Its owner sends it with each change of the lobby row."""

    version: int
    """The table's version when the row last changed (:attr:`Table.lobby_version`)."""
    summary: TableSummary
    private: bool
    closing: bool
    challenge: bool
    creator_id: str | None
    rules: dict[str, Any]
    players: list[str]
    """The ids of the people seated."""
    successors: list[str]
    """The ids of the people who take a bot's seat over at the next hand."""
    free_seat: int | None
    """The first seat anybody may take, at a table waiting for its first match."""
    bot_seat: int | None
    """The first bot's seat nobody is to take over yet, in the first hand of the first
    match (play-now offers it: the bot finishes the hand)."""


@dataclass(frozen=True, slots=True)
class Relayed:
    """A message built and encoded by the process that owns a table, relayed from it to a
    connection in this process: it is sent as it came (see :mod:`cardroom.tables.relay`)."""

    text: str
    """The message's JSON."""


class Listener(Protocol):
    """A connection following a table or the lobby (the web layer implements it). One that
    has a true ``patches`` attribute is sent each table's changes as patches
    (:func:`takes_patches`)."""

    def deliver(self, message: ServerMessage | Relayed) -> None:
        """Queue a message for sending; must not block."""
        ...


def takes_patches(listener: Listener) -> bool:
    """Whether a connection asked for ``table_patch`` messages after its first full one."""
    return bool(getattr(listener, "patches", False))


@dataclass
class RoomSettings:
    """Timings of the room (seconds). Tests shorten them; the defaults suit people."""

    disconnect_grace: float = 120.0
    """How long a disconnected player's seat waits before a bot plays it."""
    bot_delay: float = 0.8
    """Pause before a bot acts, so people can follow the play."""
    next_match_delay: float = 5.0
    """Pause between the end of a match and the next one at the same table."""
    bot_workers: int = 2
    """Worker processes that run bots' decisions, so a thinking bot never holds up the event
    loop (a thread would: bots are pure Python and hold the interpreter lock)."""
    lease_seconds: float = 4.0
    """With several processes: how long a process's ownership of a table lasts unless renewed
    (every third of it). A process that dies has its tables taken over by another within
    this and a third more (see :mod:`cardroom.tables.leases`); one whose event loop stalls
    for two thirds of it loses them. Four seconds (six before) took a killed process's
    tables' next change from 6.9 s to 5.1 s at the p99 of a fault run, with no table
    changing hands on four processes saturating two cores (``bench/RESULTS.md``)."""
    default_bot: str = DEFAULT_BOT
    """The bot of a table created without naming one (the load test and the tests' servers
    choose a quick one)."""
    bot_budget: float = 10.0
    """Seconds one bot decision may take: past it the worker is replaced and a quick bot
    decides instead."""
    resume_delay: float = 1.0
    """After a restart: how long the restored tables' bots wait for their players to
    reconnect before they play on (see :meth:`cardroom.tables.driver.Driver.resume`)."""
    min_turn_seconds: float = 5.0
    """The shortest turn timer a table may have (a shorter one only makes bots play for
    people who had no time to act, and keeps the bot workers busy)."""
    abandon_after: float = 600.0
    """A table where no seated human has been connected for this long finishes its hand
    and closes (bots do not play on for nobody, nor come back at every restart)."""
    quotas: QuotaSettings = field(default_factory=QuotaSettings)
    """What one player or address may do, and how many tables there may be."""
    leaderboard_min_matches: int = 10
    """Rated matches a player or bot needs to appear on a game's leaderboard."""
    challenge_bot: str = CHALLENGE_BOT
    """The bot in every seat of the daily challenge but its player's: one whose decisions
    depend on nothing but the view and the seed, so everybody meets the same replies (tests
    choose a quick one)."""


@dataclass(frozen=True)
class ChallengeTable:
    """What makes a table a daily challenge entry's: the entry, its game's day, the seed of
    each deal (match ``n`` of the table is deal ``n``, dealt from ``seeds[n - 1]``), the salt
    of its bots' seeds and when the day ends."""

    entry: str
    day: str
    """The day in UTC, ``YYYY-MM-DD``."""
    seeds: tuple[int, ...]
    salt: str
    """Mixed into the bots' seeds (:func:`cardroom.tables.driver.bot_seed`): derived from the
    day's secret, so that a deal's seed, in its record once played, does not tell anybody
    the bots' replies."""
    ends_at: float
    """When the day ends (unix seconds): the table takes no more actions from then."""

    @property
    def deals(self) -> int:
        """How many deals the entry plays."""
        return len(self.seeds)

    def to_dict(self) -> dict[str, Any]:
        """As the table's row keeps it."""
        return {"entry": self.entry, "day": self.day, "seeds": list(self.seeds),
                "salt": self.salt, "ends_at": self.ends_at}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> ChallengeTable | None:
        """From the table's row (``None``: an ordinary table)."""
        if data is None:
            return None
        return cls(str(data["entry"]), str(data["day"]), tuple(int(s) for s in data["seeds"]),
                   str(data["salt"]), float(data["ends_at"]))


@dataclass
class Seat:
    """A seat: a human player, a bot, or empty; plus the human's connection state."""

    player: Player | None = None
    bot: str | None = None
    listeners: int = 0
    """This process's connections following the table from this seat."""
    remote: bool = False
    """Another live process holds a connection for this seat."""
    away: bool = False
    reserved: bool = False
    """Kept for a friend: no bot and no stranger takes it (a holder of the invite link may)."""
    successor: Player | None = None
    """Who takes the seat over from its bot when the hand being played ends."""
    grace_task: asyncio.Task[None] | None = None

    @property
    def present(self) -> bool:
        """The seated human has a connection in some process."""
        return self.listeners > 0 or self.remote

    @property
    def empty(self) -> bool:
        """Nobody sits here."""
        return self.player is None and self.bot is None

    @property
    def open(self) -> bool:
        """Anyone may sit here: nobody does and it is not kept for a friend."""
        return self.empty and not self.reserved

    @property
    def entity(self) -> str | None:
        """Whose profile and rating the seat shows: its player's id, or ``bot:NAME`` for a
        bot's seat (``None``: empty)."""
        return entity_of(self.player.id if self.player is not None else None, self.bot)

    def info(self, number: int, rating: int | None = None) -> SeatInfo:
        """What everybody may know of this seat (``rating``: its player's or bot's in the
        table's game)."""
        return {"seat": number, "name": self.player.name if self.player else None,
                "bot": self.bot, "connected": self.present or self.bot is not None,
                "away": self.away, "reserved": self.reserved,
                "successor": self.successor.name if self.successor else None,
                "player_id": self.entity, "rating": rating}

    def stored(self) -> StoredSeat:
        """The seat as the store keeps it."""
        return StoredSeat(self.player.id if self.player else None, self.bot, self.away,
                          self.reserved, self.successor.id if self.successor else None)


@dataclass(frozen=True)
class Thinking:
    """A bot's decision being worked out for one position of one match: ``answer`` is its
    action, or ``None`` when the workers were asked for another one meanwhile."""

    game: Game
    actions: int
    """How many actions the match had: the position."""
    seat: int
    bot: str
    answer: asyncio.Future[str | None]

    def serves(self, game: Game, seat: int, bot: str) -> bool:
        """Whether it is the decision the seat's bot needs now (its answer may still come)."""
        return (self.game is game and self.actions == len(game.actions)
                and (self.seat, self.bot) == (seat, bot) and not self.answer.cancelled())


@dataclass
class Table:
    """A live table: seats, the current match, and who follows it."""

    id: str
    rules: Rules
    bot_level: str
    turn_seconds: float | None
    creator_id: str | None
    seats: list[Seat]
    updated_at: float
    game: Game | None = None
    match_number: int = 0
    version: int = field(default_factory=lambda: int(time.time() * 1000))
    lobby_version: int = 0
    """The version at which the table's lobby row last changed (:meth:`row`'s version: the
    other processes hear of a change only when it changes the row)."""
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: list[dict[str, Any]] = field(default_factory=list)
    """The latest finished matches (at most :data:`MATCHES_SHOWN`), the last one with its
    hands: a table message carries the current match's history, not every match's."""
    human_seen_at: float = field(default_factory=time.monotonic)
    """When a seated human was last seen connected (monotonic seconds)."""
    closing: bool = False
    """Abandoned: the table closes at the end of the hand being played."""
    listeners: dict[Listener, Player | None] = field(default_factory=dict)
    """This process's connections following the table, each with the player it proved (or
    ``None``). The seat a connection sees is looked up at every delivery, never stored: a
    player who leaves a seat stops seeing it at once, and its next occupant's cards reach
    nobody else."""
    invites: dict[Listener, str | None] = field(default_factory=dict)
    """The invite secret each following connection opened the table with: when the table
    turns private or its link changes, a connection that may no longer see it stops
    following it."""
    sent: dict[Listener, TableUpdate] = field(default_factory=dict)
    """The last ``table`` message each following connection that takes patches was sent:
    its next one is a patch against it (:mod:`cardroom.table_patches`)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_task: asyncio.Task[None] | None = None
    thinking: Thinking | None = None
    """The decision a bot of this table is working out, kept across a change of the table
    that leaves the game where it was (a player connecting during the bot's pause)."""
    deadline: float | None = None
    match_over_at: float | None = None
    """When the current match ended (the next one starts ``next_match_delay`` later)."""
    game_name: str = DEFAULT_GAME
    """Which game the table plays (a name of ``cardroom.games.registry.GAMES``)."""
    hints: bool = False
    """A casual table: its players may ask the search bot for a hint on their turn."""
    settings: TableSettings = field(default_factory=TableSettings)
    """Who may reach the table (private, its invite link) and its chat; the creator's to
    change."""
    rated: bool = True
    """Its finished matches change the ratings (when a person played)."""
    ratings: RatingLookup | None = None
    """Where the seats' ratings are looked up (the room's :class:`~cardroom.tables.ratings.
    Rater`; ``None``: shown as never rated)."""
    challenge: ChallengeTable | None = None
    """A daily challenge entry's table (``None``: an ordinary one): its matches are the day's
    deals, its seat is never played by a bot nor left, and it closes after the last deal."""

    @property
    def challenge_done(self) -> bool:
        """A challenge table whose last deal is over."""
        return (self.challenge is not None and self.game is not None and self.game.is_over
                and self.match_number >= self.challenge.deals)

    @property
    def spec(self) -> GameSpec:
        """The game the table plays."""
        return GAMES[self.game_name]

    @property
    def status(self) -> Literal["waiting", "playing"]:
        """``playing`` while a match is on, else ``waiting``."""
        return "playing" if self.game is not None and not self.game.is_over else "waiting"

    def seat_infos(self) -> list[SeatInfo]:
        """Every seat as everybody may see it, with the ratings in the table's game."""
        ratings = self.ratings
        return [seat.info(number, None if ratings is None else ratings.rating_of(
                    seat.player.id if seat.player else None, seat.bot, self.game_name))
                for number, seat in enumerate(self.seats)]

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds here, if any."""
        if player is None:
            return None
        return next((n for n, s in enumerate(self.seats)
                     if s.player is not None and s.player.id == player.id), None)

    def seats_by_player(self) -> dict[str, int]:
        """Each seated human's seat, by player id."""
        return {s.player.id: n for n, s in enumerate(self.seats) if s.player is not None}

    def connections_by_seat(self) -> list[int]:
        """How many of this process's connections follow the table as each seat's player."""
        seated = self.seats_by_player()
        counts = [0] * len(self.seats)
        for player in self.listeners.values():
            if player is not None and player.id in seated:
                counts[seated[player.id]] += 1
        return counts

    @property
    def bot_word(self) -> str:
        """The level of the table's bot as players call it ("Expert")."""
        return level_word(self.game_name, self.bot_level)

    def summary(self) -> TableSummary:
        """The lobby row of this table."""
        teams = self.spec.teams(self.rules)
        return {
            "table_id": self.id, "game": self.game_name, "preset": self.rules.preset_name,
            "status": self.status, "seats": self.seat_infos(),
            "teams": teams, "age_seconds": age_seconds(self.updated_at),
            "scores": list(self.game.scores) if self.game else [0] * len(teams),
            "target": self.rules.target, "hints": self.hints,
            "turn_seconds": self.turn_seconds, "bot": self.bot_level,
            "bot_word": self.bot_word, "rated": self.rated,
            "updated_at": self.updated_at}

    def remember_finished_match(self) -> None:
        """The match just ended: add its result to :attr:`finished`."""
        game = self.game
        assert game is not None and game.winner is not None
        remember_match(self.finished, match_summary(
            self.match_number, game.winner, list(game.scores),
            [h.to_dict() for h in game.history]))

    def row(self) -> TableRow:
        """What the other processes know of this table (see :class:`TableRow`)."""
        game, seats = self.game, self.seats
        first_hand = (self.match_number == 1 and game is not None and not game.history)
        return {
            "version": self.lobby_version, "summary": self.summary(),
            "private": self.settings.private, "closing": self.closing,
            "challenge": self.challenge is not None, "creator_id": self.creator_id,
            "rules": self.rules.to_dict(),
            "players": [s.player.id for s in seats if s.player is not None],
            "successors": [s.successor.id for s in seats if s.successor is not None],
            "free_seat": (next((n for n, s in enumerate(seats) if s.open), None)
                          if self.status == "waiting" and game is None else None),
            "bot_seat": (next((n for n, s in enumerate(seats) if s.player is None
                               and s.bot is not None and s.successor is None), None)
                         if first_hand else None)}

    def update_for(self, seat: int | None) -> TableUpdate:
        """The full ``table`` message for a viewer in ``seat`` (``None``: spectator)."""
        return self.updates_for((seat,))[seat]

    def updates_for(self, seats: Iterable[int | None]) -> dict[int | None, TableUpdate]:
        """The full ``table`` message for a viewer in each of ``seats`` (``None``: spectator):
        what they hold alike (the seats, the results, the view's public part) is built once,
        since this runs for every viewer after every action. The messages share those parts:
        they are sent, never changed."""
        wanted = tuple(dict.fromkeys(seats))
        if not wanted:  # nobody follows the table here: nothing to build
            return {}
        views = self.game.views(wanted) if self.game is not None else {}
        shared = self._shared_update()
        return {seat: {**shared, "seat": seat,
                       "view": cast("dict[str, Any] | None", views.get(seat)),
                       "invite": self.settings.invite if self.is_creators_seat(seat) else None}
                for seat in wanted}

    def _shared_update(self) -> TableShared:
        """The parts of this change's ``table`` message every viewer gets alike (plain dicts,
        typed as :class:`~cardroom.protocol.TableShared`; the server tests check every message
        they receive against the protocol)."""
        clock: Clock | None = None
        if self.deadline is not None and self.game is not None and self.game.to_act is not None:
            clock = {"seat": self.game.to_act, "deadline": self.deadline}
        return {
            "type": "table", "table_id": self.id, "game": self.game_name,
            "version": self.version, "status": self.status, "seats": self.seat_infos(),
            "match_number": self.match_number, "creator": self.creator_id,
            "events": self.events, "clock": clock, "matches": list(self.finished),
            "hints": self.hints, "turn_seconds": self.turn_seconds,
            "bot_word": self.bot_word, "teams": self.spec.teams(self.rules),
            "private": self.settings.private,
            "typed_chat": self.settings.typed_chat, "invite_side": self.settings.invite_side,
            "rated": self.rated,
            "challenge": None if self.challenge is None else {
                "game": self.game_name, "day": self.challenge.day,
                "deals": self.challenge.deals},
        }

    def is_creators_seat(self, seat: int | None) -> bool:
        """``seat`` is held by the table's creator."""
        if seat is None:
            return False
        player = self.seats[seat].player
        return player is not None and player.id == self.creator_id

    def reachable_by(self, player: Player | None, invite: str | None) -> bool:
        """Whether ``player`` may see this table, given the invite secret they bring: an open
        table anyone may, a private one its seated players, the player who takes a bot's
        seat over and holders of its invite link; a daily challenge's table, its player
        alone."""
        if self.challenge is not None:
            return player is not None and player.id == self.creator_id
        if not self.settings.private:
            return True
        if player is not None and (self.seat_of(player) is not None or any(
                s.successor is not None and s.successor.id == player.id for s in self.seats)):
            return True
        return invite_matches(self.settings.invite, invite)


def invite_matches(secret: str | None, offered: str | None) -> bool:
    """An offered invite secret is the table's (compared in constant time; no secret, or a
    revoked one, admits nobody)."""
    return secret is not None and offered is not None and hmac.compare_digest(
        secret.encode(), offered.encode())


def age_seconds(updated_at: float) -> float:
    """Seconds since ``updated_at`` (unix seconds), to a tenth, as a lobby row shows them."""
    return round(max(0.0, time.time() - updated_at), 1)


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def match_summary(number: int, winner: int | None, scores: list[int] | None,
                  history: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A finished match, for the score history across matches."""
    return {"match": number, "winner": winner, "scores": scores or [0, 0],
            "hands": history or []}


def remember_match(finished: list[dict[str, Any]], summary: dict[str, Any]) -> None:
    """Add a finished match to a table's list: earlier matches keep their result only, and
    only the latest :data:`MATCHES_SHOWN` are kept, so table messages stay small however
    long a table plays."""
    if finished:
        finished[-1] = {k: v for k, v in finished[-1].items() if k != "hands"}
    finished.append(summary)
    del finished[:-MATCHES_SHOWN]
