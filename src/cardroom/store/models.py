"""Database tables of the card room (SQLAlchemy 2 declarative models).

A game is stored as its record: the match row holds the rules, seed and first dealer, and the
``actions`` table is an append-only log of every accepted action, numbered per match. The
primary key (table, match, number) makes a second writer of the same action number fail, so
the log can never fork. The schema is made and upgraded by the Alembic migrations in
``store/migrations`` (``cardroom db upgrade``); a change here needs a migration there.
"""

from __future__ import annotations

import secrets
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of every model."""


class PlayerRow(Base):
    """A player: a guest (a name and the browser's token) or, once the name is theirs with a
    password or a passkey, an account. Tokens live in ``sessions``, hashed."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str | None] = mapped_column(Text, nullable=True, unique=True, index=True)
    """The name folded to what it looks like (:func:`cardroom.tables.names.name_key`). Unique,
    so two players cannot have names that look alike; the database decides, so two servers
    registering one name at once cannot both succeed. NULL only for a player registered
    before names had keys whose name an older player already had (migration 0004)."""
    created_at: Mapped[float] = mapped_column(Float)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The password's argon2id hash (NULL: none; a guest, or an account with passkeys only)."""
    registered_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the name was made the player's own (NULL: a guest)."""
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the account was deleted: its name is then "Deleted player" and free again."""


class SessionRow(Base):
    """A device signed in as a player: only the SHA-256 of its secret token is kept. Signing
    out deletes the row; a new sign-in, a claimed name or a changed password makes a new
    one (tokens rotate)."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its public key and signature count."""

    __tablename__ = "passkeys"
    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    """The credential's id, base64url."""
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[float] = mapped_column(Float)


class TableRow(Base):
    """A table: its game, house rules and options, and which match it is on."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    bot: Mapped[str] = mapped_column(String(32))
    hints: Mapped[bool] = mapped_column(default=False)
    """A casual table: its players may ask the search bot for a suggested action."""
    creator_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    match_number: Mapped[int] = mapped_column(Integer, default=0)
    closed: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(BigInteger, default=0)
    """Bumped by every change with a compare-and-set: two processes cannot both make change N.
    Clients see it as the ``version`` of ``table`` messages."""
    private: Mapped[bool] = mapped_column(default=False)
    """Not listed in the lobby: only holders of the invite link may see, sit or watch."""
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The invite link's secret (NULL: no link, or revoked). Kept as it is, not hashed: the
    creator copies the link again from the table, and it gives a seat at one table, not an
    identity."""
    invite_side: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The side the invite link seats its holder on (NULL: any free seat)."""
    typed_chat: Mapped[bool] = mapped_column(default=True)
    """Players may type in the chat (else only quick phrases and reactions)."""
    rated: Mapped[bool] = mapped_column(default=True)
    """Its finished matches change the players' and bots' ratings."""
    challenge: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True),
                                                             nullable=True)
    """A daily challenge entry's table: the entry, its day and the seeds of its deals
    (SQL NULL, not JSON's ``null``, at an ordinary table: queries tell the two kinds of
    table apart with ``IS NULL``)."""
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The server process that owns the open table (its bots, timers and writes) while its
    lease lasts; NULL: nobody, and no process takes it over unasked (see
    :mod:`cardroom.tables.leases`). Only shared rooms (several processes) use the lease."""
    owner_epoch: Mapped[int] = mapped_column(BigInteger, default=0)
    """Goes up by one each time a process takes the table: the fencing token its owner's
    writes carry, so that an owner that lost its lease without knowing cannot write again."""
    lease_until: Mapped[float] = mapped_column(Float, default=0.0)
    """When the owner's lease ends unless renewed (seconds since the epoch)."""


class SeatRow(Base):
    """Who holds a seat: a player, a bot, or nobody."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    away: Mapped[bool] = mapped_column(default=False)
    """A bot plays for the absent player (kept here so every server process agrees)."""
    reserved: Mapped[bool] = mapped_column(default=False)
    """Kept for a friend: no bot and no stranger takes it (a holder of the invite link may)."""
    successor_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The player who takes the seat over from its bot when the hand being played ends."""


class MatchRow(Base):
    """One match at a table: what its record needs besides the actions, and how it ended."""

    __tablename__ = "matches"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    dealer: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    history: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating: Mapped[str | None] = mapped_column(String(8), nullable=True, index=True)
    """Where the finished match stands with the ratings: ``pending`` (to be rated: written
    with the finish, so a crash before the rating loses nothing), ``done``, or ``unrated``."""
    private: Mapped[bool] = mapped_column(default=False)
    """Played at a private table (as it was when the match ended): its record and players
    are not shown to strangers, even if the table opens later."""


class MatchSeatRow(Base):
    """Who played a seat of a finished match (the seat's holder when it ended) and how the
    seat's side did: what profiles and ratings are made of."""

    __tablename__ = "match_seats"
    __table_args__ = (Index("ix_match_seats_bot", "bot", "finished_at"),)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    side: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column()
    finished_at: Mapped[float] = mapped_column(Float, index=True)


class PlayerGameRow(Base):
    """A player's (or a bot level's, ``bot:NAME``) figures in one game: rating and totals,
    updated with each rated match."""

    __tablename__ = "player_games"
    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[int] = mapped_column(Integer, index=True)
    """The rating as shown (``round(60 * mu)``), kept for the leaderboard's order."""
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    """The points its sides scored in those hands."""
    contracts: Mapped[dict[str, list[int]]] = mapped_column(JSON)
    """Contracts it won in the bidding, by label ("7", "misere", "120"): [bid, made]."""
    updated_at: Mapped[float] = mapped_column(Float)


class RatingPointRow(Base):
    """A rating after one rated match: the profile's chart."""

    __tablename__ = "rating_points"
    __table_args__ = (Index("ix_rating_points_player", "player_id", "game", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    rating: Mapped[int] = mapped_column(Integer)


class ActionRow(Base):
    """One accepted action: written before the action is acknowledged to anybody."""

    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class RoomRow(Base):
    """The room's own key, one row made with the schema: every process that shares the
    database reads the same key and names its bus channels by it, so two rooms on one Redis
    never hear each other (:meth:`cardroom.store.db.Store.room_key`)."""

    __tablename__ = "room"
    key: Mapped[str] = mapped_column(String(32), primary_key=True)


def new_room_key() -> str:
    """A fresh room key (a restored copy of a room gets one: ``cardroom db restore``)."""
    return secrets.token_hex(8)


class BugRow(Base):
    """A player's bug report with the table's record and the client's state (seed 004 §5)."""

    __tablename__ = "bugs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    player_id: Mapped[str] = mapped_column(String(32))
    player_name: Mapped[str] = mapped_column(String(64))
    description: Mapped[str] = mapped_column(Text)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    client_state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class HandAnalysisRow(Base):
    """The double-dummy analysis of one hand of a table's match, worked out once."""

    __tablename__ = "hand_analyses"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The hand's place in the match (from 1), as replays count hands."""
    analysis: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class ChatLineRow(Base):
    """One line of a table's chat: typed text, a quick phrase or a reaction."""

    __tablename__ = "chat_lines"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    match_number: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    channel: Mapped[str] = mapped_column(String(16))
    """``players`` (the seated players' line) or ``spectators``."""
    kind: Mapped[str] = mapped_column(String(16))
    """``text``, ``phrase`` or ``reaction``."""
    text: Mapped[str] = mapped_column(Text)


class ChallengeDayRow(Base):
    """A day of a game's daily challenge: the secret its deals are derived from (made at
    random the first time anybody starts that day's challenge, so nobody can work the deals
    out from the date) and the bots' own result on each deal, once they have played them."""

    __tablename__ = "challenge_days"
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """The day in UTC, ``YYYY-MM-DD``."""
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    bot_points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    """The bots' points on each deal, with every seat a bot (NULL: not worked out yet)."""


class ChallengeEntryRow(Base):
    """A player's one entry in a day's challenge: the table where they play its deals (each
    deal is a match of that table, numbered from 1, so the results are the matches' scores)."""

    __tablename__ = "challenge_entries"
    __table_args__ = (UniqueConstraint("game", "day", "player_id",
                                       name="uq_challenge_entries_player"),
                      Index("ix_challenge_entries_day", "game", "day"))
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    day: Mapped[str] = mapped_column(String(10))
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)
    started_at: Mapped[float] = mapped_column(Float)


# The models' tables as SQLAlchemy Core sees them, for the store's select, insert, update and
# delete statements (an ORM class's ``__table__`` is typed loosely): one name each, for
# every module of the store.
TABLES = cast(Table, TableRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
PLAYERS = cast(Table, PlayerRow.__table__)
SESSIONS = cast(Table, SessionRow.__table__)
PASSKEYS = cast(Table, PasskeyRow.__table__)
MATCHES = cast(Table, MatchRow.__table__)
MATCH_SEATS = cast(Table, MatchSeatRow.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
CHAT_LINES = cast(Table, ChatLineRow.__table__)
HAND_ANALYSES = cast(Table, HandAnalysisRow.__table__)
PLAYER_GAMES = cast(Table, PlayerGameRow.__table__)
RATING_POINTS = cast(Table, RatingPointRow.__table__)
CHALLENGE_DAYS = cast(Table, ChallengeDayRow.__table__)
CHALLENGE_ENTRIES = cast(Table, ChallengeEntryRow.__table__)
