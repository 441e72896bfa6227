"""The card room's WebSocket protocol: every message, as typed schemas (the single source).

One WebSocket per browser tab carries JSON objects with a ``type`` field. Every message a
client sends carries a client sequence number ``seq``; the server answers each with an
``ack`` (same ``seq``, plus a ``result``) or an ``error`` (same ``seq``, a ``code`` from
:class:`ErrorCode` and a human-readable ``message``). After every change at a table, each
seat and spectator gets a ``table`` message with its full view and a version number.
``docs/protocol.md`` describes the same messages with examples.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

MAX_MESSAGE_BYTES = 16 * 1024
"""Largest client message accepted; larger ones get ``too_large`` and are ignored."""

NAME_MAX = 24
DESCRIPTION_MAX = 4000
CLIENT_STATE_MAX = 4096


class ErrorCode(StrEnum):
    """Why a client message was refused. Nothing refused changes any state."""

    BAD_MESSAGE = "bad_message"
    """Not JSON, not an object, a missing or malformed field."""
    UNKNOWN_TYPE = "unknown_type"
    """A ``type`` the server does not know."""
    TOO_LARGE = "too_large"
    """Over :data:`MAX_MESSAGE_BYTES`."""
    RATE_LIMITED = "rate_limited"
    """Too many messages too fast on this connection; slow down."""
    NOT_REGISTERED = "not_registered"
    """The message needs a player: send ``register`` or ``hello`` first."""
    BAD_TOKEN = "bad_token"
    """The token proves no player (unknown, or not the seat's owner)."""
    NO_SUCH_TABLE = "no_such_table"
    SEAT_TAKEN = "seat_taken"
    NOT_AT_TABLE = "not_at_table"
    TABLE_STARTED = "table_started"
    """The table is playing: seats cannot change now."""
    NOT_CREATOR = "not_creator"
    """Only the table's creator may add bots or start with bots."""
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_ACTION = "illegal_action"
    """The rules do not allow that action now; the message says why."""
    BAD_RULES = "bad_rules"
    """House rules that cannot be played; the message says why."""
    HINTS_DISABLED = "hints_disabled"
    """This table was not created as a casual table: nobody may ask for hints."""
    ALREADY_REPORTED = "already_reported"
    """One bug report per connection (seed 004: refresh to send another)."""
    QUOTA_EXCEEDED = "quota_exceeded"
    """A limit of the room was reached (the error's ``quota`` names which, the message says
    how many are allowed); nothing changed. See :class:`Quota`."""
    BAD_NAME = "bad_name"
    """A name that cannot be shown as it is (empty once invisible characters are removed,
    control characters, direction overrides, or a bot's name)."""
    NAME_TAKEN = "name_taken"
    """Another player has this name, or one that looks the same (case and look-alike
    letters are folded)."""
    INTERNAL = "internal"


class Quota(StrEnum):
    """The room's limits, each a ``cardroom serve`` option, named in ``quota_exceeded``."""

    TABLES_PER_PLAYER = "tables_per_player"
    """Open tables one player created."""
    TABLES = "tables"
    """Open tables in the whole room."""
    REGISTRATIONS = "registrations"
    """Registrations from one client address per minute."""
    CONNECTIONS = "connections"
    """WebSocket connections from one client address at once."""
    BUG_REPORTS = "bug_reports"
    """Bug reports one player may send per hour."""
    HINTS = "hints"
    """Hint requests one player may send per minute."""


MAX_SEAT = 5
"""The highest seat number of any table (six-handed 500); each table checks its own."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = Field(ge=0, le=2**53)


# -- client to server ------------------------------------------------------------------------


class Register(_Message):
    """Register a display name; the answer's result holds ``player_id`` and the secret token."""

    type: Literal["register"]
    name: str = Field(min_length=1, max_length=NAME_MAX)


class Hello(_Message):
    """Prove who you are with the token from ``register`` (on every new connection)."""

    type: Literal["hello"]
    token: str = Field(min_length=16, max_length=128)


class WatchLobby(_Message):
    """Receive a page of the lobby now (a ``lobby`` message: up to ``limit`` tables from
    ``offset``, most recently changed first), then every change of any table as it comes
    (``lobby_update`` messages)."""

    type: Literal["lobby"]
    offset: int = Field(default=0, ge=0, le=1_000_000)
    limit: int = Field(default=200, ge=1, le=200)


class CreateTable(_Message):
    """Create a table of ``game`` (``500`` or ``1000``) and sit at ``seat``. ``preset``
    (``None``: the game's default, ``online`` for 500, ``seed`` for 1000) plus house options
    in ``rules``."""

    type: Literal["create_table"]
    game: str = Field(default="500", max_length=16)
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict)
    seat: int = Field(default=0, ge=0, le=MAX_SEAT)
    turn_seconds: float | None = Field(default=None, gt=0, le=3600)
    bot: str = "simple"
    hints: bool = False
    """A casual table: its players may ask for hints (``hint``). Off unless asked for."""


class Join(_Message):
    """Take a free seat at a table that has not started."""

    type: Literal["join"]
    table_id: str = Field(max_length=64)
    seat: int = Field(ge=0, le=MAX_SEAT)


class Leave(_Message):
    """Give up your seat before the match starts (or once a match is over)."""

    type: Literal["leave"]
    table_id: str = Field(max_length=64)


class AddBot(_Message):
    """The creator puts a bot in an empty seat before the start."""

    type: Literal["add_bot"]
    table_id: str = Field(max_length=64)
    seat: int = Field(ge=0, le=MAX_SEAT)
    bot: str = "simple"


class StartWithBots(_Message):
    """The creator fills every empty seat with bots and the match starts."""

    type: Literal["start_with_bots"]
    table_id: str = Field(max_length=64)
    bot: str = "simple"


class Open(_Message):
    """Follow a table: your seat's view if you sit there (reconnecting), else a spectator's."""

    type: Literal["open"]
    table_id: str = Field(max_length=64)


class Act(_Message):
    """Take an action at your seat, in the engine's notation (``bid 7H``, ``play JK:H`` …)."""

    type: Literal["act"]
    table_id: str = Field(max_length=64)
    action: str = Field(min_length=1, max_length=200)


class AskHint(_Message):
    """Ask the search bot what it would do in your seat now (casual tables only). It reads
    your seat's view alone and changes nothing; the answer is a ``hint`` message."""

    type: Literal["hint"]
    table_id: str = Field(max_length=64)


class ReportBug(_Message):
    """Send a bug report with the table and the client's own state (seed 004 section 5)."""

    type: Literal["report_bug"]
    table_id: str | None = Field(default=None, max_length=64)
    description: str = Field(min_length=1, max_length=DESCRIPTION_MAX)
    client_state: dict[str, Any] = Field(default_factory=dict)
    """The page's own state, at most :data:`CLIENT_STATE_MAX` bytes as JSON."""

    @field_validator("client_state")
    @classmethod
    def _small_state(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(json.dumps(value, separators=(",", ":"))) > CLIENT_STATE_MAX:
            raise ValueError(f"at most {CLIENT_STATE_MAX} bytes of client state")
        return value


class Ping(_Message):
    """Keep-alive; answered with an ack."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Register | Hello | WatchLobby | CreateTable | Join | Leave | AddBot | StartWithBots | Open
    | Act | AskHint | ReportBug | Ping,
    Field(discriminator="type"),
]
CLIENT_MESSAGE = TypeAdapter(ClientMessage)
CLIENT_TYPES = frozenset(
    model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    for model in (Register, Hello, WatchLobby, CreateTable, Join, Leave, AddBot,
                  StartWithBots, Open, Act, AskHint, ReportBug, Ping)
)


# -- server to client ------------------------------------------------------------------------


class Ack(BaseModel):
    """The client message ``seq`` was accepted; ``result`` says what came of it."""

    type: Literal["ack"] = "ack"
    seq: int
    result: dict[str, Any] = Field(default_factory=dict)


class Error(BaseModel):
    """The client message ``seq`` (``None`` if it could not be read) was refused."""

    type: Literal["error"] = "error"
    seq: int | None
    code: ErrorCode
    message: str
    quota: Quota | None = None
    """With ``quota_exceeded``: which limit was reached."""


class SeatInfo(BaseModel):
    """Who sits in a seat, as everybody may see it."""

    seat: int
    name: str | None
    bot: str | None = None
    connected: bool = False
    away: bool = False
    """A human whose seat a bot is playing until they come back."""


class TableSummary(BaseModel):
    """A lobby row (seed 004 section 2)."""

    table_id: str
    game: str
    preset: str | None
    status: Literal["waiting", "playing"]
    seats: list[SeatInfo]
    teams: list[list[int]]
    age_seconds: float
    scores: list[int]
    target: int
    hints: bool = False
    """A casual table: players may ask for hints."""
    turn_seconds: float | None = None
    """The turn timer (``None``: no timer), shown before anyone sits."""
    updated_at: float = 0.0
    """When the table last changed (unix seconds; ``age_seconds`` counts from it)."""


class Lobby(BaseModel):
    """A page of the open and running tables, most recently changed first."""

    type: Literal["lobby"] = "lobby"
    tables: list[TableSummary]
    total: int = 0
    """How many tables there are in all (pages hold at most 200)."""
    offset: int = 0
    limit: int = 200


class LobbyUpdate(BaseModel):
    """Lobby changes since the last ``lobby`` or ``lobby_update`` message: the new rows of
    tables that changed or opened, and the ids of tables that closed."""

    type: Literal["lobby_update"] = "lobby_update"
    tables: list[TableSummary]
    removed: list[str] = Field(default_factory=list)


class TableUpdate(BaseModel):
    """A table's state for one viewer after a change: the full view, not a diff."""

    type: Literal["table"] = "table"
    table_id: str
    game: str = "500"
    """The game the table plays: ``500`` or ``1000`` (the view's ``game`` says it too)."""
    version: int
    seat: int | None
    """The viewer's seat, or ``None`` for a spectator."""
    status: Literal["waiting", "playing"]
    seats: list[SeatInfo]
    match_number: int
    creator: str | None
    view: dict[str, Any] | None
    """``Game.view(seat)`` of the current match (``None`` while waiting for players)."""
    events: list[dict[str, Any]] = Field(default_factory=list)
    """What caused this update (card played, trick won, hand scored …), for animation."""
    clock: dict[str, Any] | None = None
    """``{"seat": s, "deadline": unix_seconds}`` when a turn timer runs."""
    matches: list[dict[str, Any]] = Field(default_factory=list)
    """Results of the matches finished at this table (score history across matches)."""
    hints: bool = False
    """A casual table: its players may ask for hints."""
    turn_seconds: float | None = None
    """The turn timer (``None``: no timer)."""


class Hint(BaseModel):
    """The answer to ``hint``: what the search bot would do in the asker's seat at
    ``version``, and a short honest account of how it chose. It is sent to the asker
    alone, never changes the table, and was worked out from the asker's own view."""

    type: Literal["hint"] = "hint"
    table_id: str
    version: int
    """The table's version the hint is for (a later version makes it stale)."""
    seat: int
    action: str
    """A legal action in the engine's notation (``play QH``, ``bid 7S``, ``discard …``)."""
    explanation: str


class Welcome(BaseModel):
    """Who this connection is (after ``register`` or ``hello``)."""

    type: Literal["welcome"] = "welcome"
    player_id: str
    name: str
    tables: list[str]
    """Tables where this player sits (to reconnect)."""


ServerMessage = Ack | Error | Lobby | LobbyUpdate | TableUpdate | Hint | Welcome
