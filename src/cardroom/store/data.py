"""What the store takes and gives: plain, frozen dataclasses and game records.

These are the store's whole vocabulary towards the layers above it. Its SQLAlchemy models
(:mod:`cardroom.store.models`) and sessions stay inside ``store/``, so the schema can change
without the room, the CLI or the load test noticing, and nothing above can write a row
behind the compare-and-set of :meth:`cardroom.store.db.Store.commit`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardroom.games.record import Record


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A registered player as the room knows them (the token's hash stays in the store)."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What a table's creator may change while it is open: who may reach it and its chat."""

    private: bool = False
    """Not listed in the lobby: only holders of the invite link may see, sit or watch."""
    invite: str | None = None
    """The invite link's secret (``None``: no link, or revoked)."""
    invite_side: int | None = None
    """The side an invite seats its holder on (``None``: any free seat)."""
    typed_chat: bool = True
    """Players may type in the chat (else only quick phrases and reactions)."""


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table about to be created (:meth:`Store.add_table`), with ``seats`` empty seats."""

    id: str
    game: str
    """The registry's name of the game (``"500"``)."""
    rules: dict[str, Any]
    """The table's rules as their dict (``Rules.to_dict``)."""
    seats: int
    bot: str
    """The bot level that fills seats."""
    turn_seconds: float | None
    hints: bool
    creator_id: str | None
    created_at: float
    version: int = 0
    settings: TableSettings = TableSettings()
    rated: bool = True
    """Its finished matches change the ratings."""
    challenge: dict[str, Any] | None = None
    """A daily challenge entry's table: ``ChallengeTable.to_dict`` (``None``: ordinary)."""
    owner: str | None = None
    """In a shared room, the process that makes it, which owns it from the start (epoch 1)
    until ``lease_until``: no other process's look can take it before its creator sits."""
    lease_until: float = 0.0


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """Who holds a seat: a player, a bot, or nobody; ``away``: a bot plays for the player;
    ``reserved``: kept for a friend; ``successor_id``: the player who takes the seat over
    from its bot when the hand ends."""

    player_id: str | None = None
    bot: str | None = None
    away: bool = False
    reserved: bool = False
    successor_id: str | None = None


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """One match of a table: what its record needs besides the actions, and how it ended
    (``finished_at`` is ``None`` while it is being played)."""

    number: int
    seed: int
    dealer: int
    """The match's first dealer."""
    rules: dict[str, Any]
    started_at: float
    winner: int | None = None
    scores: list[int] | None = None
    history: list[dict[str, Any]] | None = None
    finished_at: float | None = None


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One accepted action of a match, numbered from 0 within the match."""

    number: int
    seat: int
    action: str
    created_at: float


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as read from the store: enough to rebuild it and its current match.

    When read to catch up a table already held (:meth:`Store.load_table` with the match it
    holds), ``actions`` are only the later ones and ``finished`` is empty.
    """

    id: str
    game: str
    rules: dict[str, Any]
    bot: str
    turn_seconds: float | None
    hints: bool
    creator_id: str | None
    created_at: float
    updated_at: float
    """When the table last changed (its last action's time if that is later)."""
    match_number: int
    closed: bool
    version: int
    seats: tuple[StoredSeat, ...]
    """One per seat, in seat order."""
    match: StoredMatch | None = None
    """The current match (``None`` before the first)."""
    actions: tuple[StoredAction, ...] = ()
    """The current match's actions, in order."""
    finished: tuple[StoredMatch, ...] = ()
    """The table's finished matches, oldest first."""
    settings: TableSettings = TableSettings()
    rated: bool = True
    challenge: dict[str, Any] | None = None
    """A daily challenge entry's table: its entry, day and deal seeds (``None``: ordinary)."""
    owner: str | None = None
    """The process that owns the table in a shared room (see :mod:`cardroom.store.leases`)."""
    owner_epoch: int = 0
    """Its owner's fencing token."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match of a table with its whole record so far (:meth:`Store.match_records`):
    replaying ``record`` rebuilds the match, ``match`` says how it ended."""

    match: StoredMatch
    record: Record


@dataclass(frozen=True, slots=True, kw_only=True)
class NewBugReport:
    """A player's bug report about to be stored (:meth:`Store.add_bug`)."""

    player_id: str
    player_name: str
    description: str
    client_state: dict[str, Any]
    created_at: float
    table_id: str | None = None
    record: Record | None = None
    """The match it was about: the reporter's table's match so far, if they sat at one
    (read back, ``None`` also when what was kept is no record)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BugReport(NewBugReport):
    """A stored bug report (:meth:`Store.bugs`), numbered in the order reports came."""

    id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatLine:
    """One line of a table's chat, as stored and as sent (:meth:`Store.add_chat_line`)."""

    table_id: str
    match_number: int
    created_at: float
    player_id: str
    name: str
    seat: int | None
    """The speaker's seat (``None``: a spectator)."""
    channel: str
    """``players`` or ``spectators``."""
    kind: str
    """``text``, ``phrase`` or ``reaction``."""
    text: str


# -- accounts -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Account:
    """What signing in and the account's settings need to know of a player."""

    player_id: str
    name: str
    password_hash: str | None
    """The argon2id hash of its password (``None``: no password)."""
    passkeys: int
    """How many passkeys it has."""
    registered: bool
    """The name is the player's own (a password or a passkey), not a guest's."""
    deleted: bool = False
    """The account was deleted (its name is then "Deleted player")."""


@dataclass(frozen=True, slots=True)
class Passkey:
    """A stored WebAuthn credential."""

    credential_id: str
    """base64url."""
    player_id: str
    public_key: bytes
    sign_count: int


# -- matches, ratings and profiles --------------------------------------------------------------


BOT_ENTITY_PREFIX = "bot:"
"""How a bot level is named where a player's id would be (ratings, profiles): ``bot:NAME``."""


def entity_of(player_id: str | None, bot: str | None) -> str | None:
    """Who a rating and a profile belong to: the player's id, else ``bot:NAME`` for a bot
    level (``None``: neither)."""
    if player_id is not None:
        return player_id
    return BOT_ENTITY_PREFIX + bot if bot is not None else None


def bot_of(entity: str) -> str | None:
    """The bot level an entity names (``bot:NAME``), or ``None`` for a player's id."""
    return entity.removeprefix(BOT_ENTITY_PREFIX) if entity.startswith(BOT_ENTITY_PREFIX) \
        else None


@dataclass(frozen=True, slots=True)
class MatchSeat:
    """Who held a seat when a match ended, and how the seat's side did."""

    seat: int
    player_id: str | None
    bot: str | None
    side: int
    won: bool

    @property
    def entity(self) -> str:
        """Who the seat's rating belongs to: its player, or its bot level."""
        entity = entity_of(self.player_id, self.bot)
        assert entity is not None, "a finished match's seat had a player or a bot"
        return entity


@dataclass(frozen=True, slots=True)
class MatchPlayers:
    """The players of a match that just finished, written with its finish (so a crash
    between the finish and the rating loses neither): ``rated`` says whether it counts."""

    seats: tuple[MatchSeat, ...]
    rated: bool
    private: bool = False
    """Played at a private table."""


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished match as the ratings and profiles read it."""

    table_id: str
    number: int
    game: str
    rules: dict[str, Any]
    winner: int
    scores: list[int]
    history: list[dict[str, Any]]
    finished_at: float
    seats: tuple[MatchSeat, ...]
    private: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's or a bot level's rating and totals in one game."""

    player_id: str
    """A player's id, or ``bot:NAME``."""
    game: str
    mu: float
    sigma: float
    rating: int
    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    contracts: dict[str, list[int]] = field(default_factory=dict)
    """Contracts won in the bidding, by label: ``[bid, made]``."""


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating after a rated match (unix seconds)."""

    at: float
    rating: int


@dataclass(frozen=True, slots=True)
class Ranked:
    """A leaderboard line."""

    player_id: str
    name: str | None
    """The player's name (``None`` for a bot level)."""
    rating: int
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class ChallengeEntry:
    """A player's entry in a day's challenge, and the table its deals are played at."""

    id: str
    game: str
    day: str
    """The day in UTC, ``YYYY-MM-DD``."""
    player_id: str
    table_id: str
    started_at: float


@dataclass(frozen=True, slots=True)
class ChallengeScores:
    """An entry with its player's name and the final scores of each deal it finished (the
    table's matches, by number from 1; a deal being played is missing)."""

    entry: ChallengeEntry
    name: str
    scores: dict[int, list[int]]
