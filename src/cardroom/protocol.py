"""The card room's WebSocket protocol: every message, as typed schemas (the single source).

One WebSocket per browser tab carries JSON objects with a ``type`` field. Every message a
client sends carries a client sequence number ``seq``; the server answers each with an
``ack`` (same ``seq``, plus a ``result``) or an ``error`` (same ``seq``, a ``code`` from
:class:`ErrorCode` and a human-readable ``message``). After every change at a table, each
seat and spectator gets a ``table`` message with its full view and a version number.
``docs/protocol.md`` describes the same messages with examples.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal, TypedDict, cast, get_args

import msgspec
from msgspec import Meta

MAX_MESSAGE_BYTES = 16 * 1024
"""Largest client message accepted; larger ones get ``too_large`` and are ignored."""

NAME_MAX = 24
DESCRIPTION_MAX = 4000
CLIENT_STATE_MAX = 4096
CHAT_MAX = 200
"""The longest typed chat line, in characters."""
PASSWORD_MIN = 8
PASSWORD_MAX = 128
"""A password's length in characters (longer ones cost the hashing more, and add nothing)."""
CREDENTIAL_MAX_KEYS = 16
"""A WebAuthn credential's JSON has a handful of keys; more is not a browser's."""


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
    CHAT_OFF = "chat_off"
    """The table's creator turned typed chat off: quick phrases and reactions still go."""
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
    BAD_CREDENTIALS = "bad_credentials"
    """Sign-in failed: the name and password match no account (the same answer whether the
    name is unknown, a guest's, or an account's with another password)."""
    BAD_PASSWORD = "bad_password"
    """A new password that breaks the rules (the message says which)."""
    ALREADY_REGISTERED = "already_registered"
    """``claim`` on an account that has a password already: use ``change_password``."""
    BAD_PASSKEY = "bad_passkey"
    """A passkey ceremony that did not verify, or none was begun on this connection."""
    CHALLENGE_TABLE = "challenge_table"
    """A daily challenge's table keeps its player, bots and settings: nobody leaves it,
    changes who may reach it or seats anybody there."""
    CHALLENGE_PLAYED = "challenge_played"
    """The player has played every deal of the day's challenge already (one entry a day)."""
    RECONNECTING = "reconnecting"
    """The table's server did not answer in time (it may be moving to another one): the
    request may or may not have been made, the table's next view says which."""
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
    CHAT = "chat"
    """Chat lines one player may send a minute (and a few seconds)."""
    SIGN_INS = "sign_ins"
    """Sign-in attempts per name and per client address a minute."""
    LOOKUPS = "lookups"
    """Profiles, leaderboard pages and match records one client address asks for a minute
    (HTTP: answered 429)."""
    CHALLENGE_ENTRIES = "challenge_entries"
    """New daily challenge entries of one game from one client address a day."""


MAX_SEAT = 5
"""The highest seat number of any table (six-handed 500); each table checks its own."""


TableId = Annotated[str, Meta(max_length=64)]
Seat = Annotated[int, Meta(ge=0, le=MAX_SEAT)]
BotName = Annotated[str, Meta(max_length=40)]


class _Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """A client message: its ``type`` is the tag, ``seq`` the client's own number for it."""

    seq: Annotated[int, Meta(ge=0, le=2**53)]


# -- client to server ------------------------------------------------------------------------
# msgspec Structs, one per ``type``, read strictly from the decoded JSON by :func:`read_message`.


class Register(_Message, frozen=True, tag="register"):
    """Register a display name; the answer's result holds ``player_id`` and the secret token."""

    name: Annotated[str, Meta(min_length=1, max_length=NAME_MAX)]


class Hello(_Message, frozen=True, tag="hello"):
    """Prove who you are with the token from ``register`` (on every new connection)."""

    token: Annotated[str, Meta(min_length=16, max_length=128)]


class WatchLobby(_Message, frozen=True, tag="lobby"):
    """Receive a page of the lobby now (a ``lobby`` message: up to ``limit`` tables from
    ``offset``, most recently changed first), then every change of any table as it comes
    (``lobby_update`` messages)."""

    offset: Annotated[int, Meta(ge=0, le=1_000_000)] = 0
    limit: Annotated[int, Meta(ge=1, le=200)] = 200


class CreateTable(_Message, frozen=True, tag="create_table"):
    """Create a table of ``game`` (``500`` or ``1000``) and sit at ``seat``. ``preset``
    (``None``: the game's default, ``online`` for 500, ``seed`` for 1000) plus house options
    in ``rules``."""

    game: Annotated[str, Meta(max_length=16)] = "500"
    preset: Annotated[str, Meta(max_length=40)] | None = None
    rules: dict[str, Any] = {}
    seat: Seat = 0
    turn_seconds: Annotated[float, Meta(gt=0, le=3600)] | None = None
    bot: BotName | None = None
    """The bot for empty seats and absent players (``None``: the room's default bot)."""
    hints: bool = False
    """A casual table: its players may ask for hints (``hint``). Off unless asked for."""
    private: bool = False
    """Friends only from the start: never listed, reached only through its invite link."""
    rated: bool = True
    """Its finished matches change the players' and bots' ratings."""


InviteSecret = Annotated[str, Meta(min_length=1, max_length=64)]
"""The secret of a private table's invite link (the ``invite`` of the link's address)."""


class Join(_Message, frozen=True, tag="join"):
    """Take a free seat at a table that has not started, or, at an open table being played,
    take a bot's seat over at the next hand. A private table, or a seat kept for a friend,
    needs the table's ``invite``."""

    table_id: TableId
    seat: Seat
    invite: InviteSecret | None = None


class PlayNow(_Message, frozen=True, tag="play_now"):
    """Sit down at once: a free seat at an open table of ``game`` with ``preset``'s rules
    that is waiting or in its first hand, else a new table with bots in the other seats."""

    game: Annotated[str, Meta(max_length=16)] = "500"
    preset: Annotated[str, Meta(max_length=40)] | None = None


class DailyChallengeMessage(_Message, frozen=True, tag="daily_challenge"):
    """Play today's challenge of ``game``: your entry's table, where you stopped, or a new
    entry's with its first deal dealt (``challenge_played`` once every deal is played)."""

    game: Annotated[str, Meta(max_length=16)] = "500"


class TableSettingsMessage(_Message, frozen=True, tag="table_settings"):
    """The creator changes who may reach the table and its chat (fields left out stay)."""

    table_id: TableId
    private: bool | None = None
    """Friends only: not in the lobby, reached only through the invite link, and no stranger
    takes a bot's seat over."""
    typed_chat: bool | None = None
    """Players may type in the chat (else only quick phrases and reactions)."""
    invite_side: Annotated[int, Meta(ge=-1, le=MAX_SEAT)] | None = None
    """The side the invite link seats its holder on; -1: any free seat."""


class Invite(_Message, frozen=True, tag="invite"):
    """The creator makes a new invite link (the old one stops working), or revokes it."""

    table_id: TableId
    revoke: bool = False


class ReserveSeat(_Message, frozen=True, tag="reserve_seat"):
    """The creator keeps an empty seat for a friend (no bot or stranger takes it), or frees
    it again."""

    table_id: TableId
    seat: Seat
    reserved: bool = True


class Leave(_Message, frozen=True, tag="leave"):
    """Leave a table: before a match the seat is free again; during one you keep the seat
    but a bot plays it (``away``) until you ``open`` the table again."""

    table_id: TableId


class AddBot(_Message, frozen=True, tag="add_bot"):
    """The creator puts a bot in an empty seat before the start."""

    table_id: TableId
    seat: Seat
    bot: BotName | None = None
    """``None``: the table's bot."""


class StartWithBots(_Message, frozen=True, tag="start_with_bots"):
    """The creator fills every empty seat with bots and the match starts."""

    table_id: TableId
    bot: BotName | None = None
    """``None``: the table's bot."""


class Open(_Message, frozen=True, tag="open"):
    """Follow a table: your seat's view if you sit there (reconnecting), else a spectator's.
    A private table needs its ``invite`` unless you sit there."""

    table_id: TableId
    invite: InviteSecret | None = None


class Act(_Message, frozen=True, tag="act"):
    """Take an action at your seat, in the engine's notation (``bid 7H``, ``play JK:H`` …)."""

    table_id: TableId
    action: Annotated[str, Meta(min_length=1, max_length=200)]


class AskHint(_Message, frozen=True, tag="hint"):
    """Ask the search bot what it would do in your seat now (casual tables only). It reads
    your seat's view alone and changes nothing; the answer is a ``hint`` message."""

    table_id: TableId


class ReportBug(_Message, frozen=True, tag="report_bug"):
    """Send a bug report with the table and the client's own state (seed 004 section 5)."""

    description: Annotated[str, Meta(min_length=1, max_length=DESCRIPTION_MAX)]
    table_id: TableId | None = None
    client_state: dict[str, Any] = {}
    """The page's own state, at most :data:`CLIENT_STATE_MAX` bytes as JSON."""

    def __post_init__(self) -> None:
        if len(msgspec.json.encode(self.client_state)) > CLIENT_STATE_MAX:
            raise ValueError(f"at most {CLIENT_STATE_MAX} bytes of client state")


class Chat(_Message, frozen=True, tag="chat"):
    """Say something at a table you follow: typed ``text``, a quick ``phrase`` or a
    ``reaction`` (exactly one). Seated players speak on the players' line, others on the
    spectators'."""

    table_id: TableId
    text: Annotated[str, Meta(min_length=1, max_length=CHAT_MAX)] | None = None
    phrase: Annotated[str, Meta(max_length=32)] | None = None
    reaction: Annotated[str, Meta(max_length=32)] | None = None

    def __post_init__(self) -> None:
        if sum(part is not None for part in (self.text, self.phrase, self.reaction)) != 1:
            raise ValueError("say exactly one of text, phrase or reaction")


Password = Annotated[str, Meta(max_length=PASSWORD_MAX * 4)]
"""A password as sent: its length is judged after it is read (``bad_password``); the
bound only keeps a huge one from being hashed."""


class Claim(_Message, frozen=True, tag="claim"):
    """Make the connection's guest name the player's own, with a password."""

    password: Password


class SignIn(_Message, frozen=True, tag="sign_in"):
    """Sign in to an account by name and password (on this device, with a new token)."""

    name: Annotated[str, Meta(min_length=1, max_length=NAME_MAX * 4)]
    password: Password


class SignOut(_Message, frozen=True, tag="sign_out"):
    """Sign this device out: its token stops working."""


class ChangePassword(_Message, frozen=True, tag="change_password"):
    """Change the account's password (every other device is signed out)."""

    old_password: Password
    new_password: Password


class DeleteAccount(_Message, frozen=True, tag="delete_account"):
    """Delete the account: ``password`` if it has one, and its name typed as it shows."""

    confirm_name: Annotated[str, Meta(max_length=NAME_MAX * 4)]
    password: Password | None = None


class PasskeyBegin(_Message, frozen=True, tag="passkey_begin"):
    """Start a passkey ceremony: ``register`` (add a passkey) or ``sign_in``."""

    purpose: Literal["register", "sign_in"]


class PasskeyFinish(_Message, frozen=True, tag="passkey_finish"):
    """The browser's answer to the ceremony begun on this connection."""

    purpose: Literal["register", "sign_in"]
    credential: Annotated[dict[str, Any], Meta(max_length=CREDENTIAL_MAX_KEYS)]


class Ping(_Message, frozen=True, tag="ping"):
    """Keep-alive; answered with an ack."""


ClientMessage = (Register | Hello | WatchLobby | CreateTable | Join | PlayNow
                 | DailyChallengeMessage | Leave | AddBot
                 | StartWithBots | TableSettingsMessage | Invite | ReserveSeat | Open | Act
                 | AskHint | Chat | ReportBug | Claim | SignIn | SignOut | ChangePassword
                 | DeleteAccount | PasskeyBegin | PasskeyFinish | Ping)
CLIENT_MESSAGES: tuple[type[_Message], ...] = get_args(ClientMessage)
"""Every client message's Struct."""
CLIENT_TYPES: frozenset[str] = frozenset(
    str(model.__struct_config__.tag) for model in CLIENT_MESSAGES)
"""Every ``type`` a client may send."""


_MESSAGE_OF_TYPE: dict[str, type[_Message]] = {
    str(model.__struct_config__.tag): model for model in CLIENT_MESSAGES}


def read_message(raw: dict[str, Any]) -> ClientMessage:
    """The client message a decoded JSON object holds; ``msgspec.ValidationError`` saying
    what is wrong (strictly: no number in a string, no field the message does not have).

    The object is converted to the Struct its ``type`` names rather than to the union of
    them all: msgspec keeps a Struct's type information but works a union's out at every
    call (30 µs a message against 0.3 µs), and the errors read the same."""
    kind = raw.get("type")
    model = _MESSAGE_OF_TYPE.get(kind) if isinstance(kind, str) else None
    if model is None:  # no type, or an unknown one: the union says what is wrong
        return msgspec.convert(raw, ClientMessage)
    return cast(ClientMessage, msgspec.convert(raw, model))


def describe_problem(error: msgspec.ValidationError) -> str:
    """A short human summary of what is wrong with a message (a client's unknown keys may be
    long: the summary is cut short)."""
    text = str(error)
    return "Malformed message: " + (text if len(text) <= 240 else text[:237] + "…")


# -- server to client ------------------------------------------------------------------------
# TypedDicts: the server builds plain dicts (a table message goes to every viewer after every
# action) that the type checker follows; the tests check every message they receive against
# these with msgspec, and the one encoder (msgspec's) writes them.


class Ack(TypedDict):
    """The client message ``seq`` was accepted; ``result`` says what came of it."""

    type: Literal["ack"]
    seq: int
    result: dict[str, Any]


class Error(TypedDict):
    """The client message ``seq`` (``None`` if it could not be read) was refused."""

    type: Literal["error"]
    seq: int | None
    code: ErrorCode
    message: str
    quota: Quota | None
    """With ``quota_exceeded``: which limit was reached."""


class SeatInfo(TypedDict):
    """Who sits in a seat, as everybody may see it."""

    seat: int
    name: str | None
    bot: str | None
    connected: bool
    away: bool
    """A human whose seat a bot is playing until they come back."""
    reserved: bool
    """Kept by the creator for a friend: no bot or stranger takes it."""
    successor: str | None
    """The name of the player who takes the seat over from its bot when the hand ends."""
    player_id: str | None
    """Whose profile the name links to: the player's id, or ``bot:NAME`` for a bot's seat
    (``None``: empty)."""
    rating: int | None
    """That player's or bot's rating in the table's game (``None``: never rated)."""


class TableSummary(TypedDict):
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
    hints: bool
    """A casual table: players may ask for hints."""
    turn_seconds: float | None
    """The turn timer (``None``: no timer), shown before anyone sits."""
    bot: str
    """The registry name of the table's bot (empty seats, absent players, timers)."""
    bot_word: str
    """How players call its level ("Expert")."""
    updated_at: float
    """When the table last changed (unix seconds; ``age_seconds`` counts from it)."""
    rated: bool
    """Its finished matches change the players' and bots' ratings."""


class Lobby(TypedDict):
    """A page of the open and running tables, most recently changed first."""

    type: Literal["lobby"]
    tables: list[TableSummary]
    total: int
    """How many tables there are in all (pages hold at most 200)."""
    offset: int
    limit: int


class LobbyUpdate(TypedDict):
    """Lobby changes since the last ``lobby`` or ``lobby_update`` message: the new rows of
    tables that changed or opened, and the ids of tables that closed."""

    type: Literal["lobby_update"]
    tables: list[TableSummary]
    removed: list[str]


class Clock(TypedDict):
    """A running turn timer: whose turn, and when it runs out (unix seconds)."""

    seat: int
    deadline: float


class TableShared(TypedDict):
    """What every viewer's ``table`` message of one change holds alike (built once per change,
    see :class:`TableUpdate`)."""

    type: Literal["table"]
    table_id: str
    game: str
    """The game the table plays: ``500`` or ``1000`` (the view's ``game`` says it too)."""
    version: int
    status: Literal["waiting", "playing"]
    seats: list[SeatInfo]
    match_number: int
    creator: str | None
    events: list[dict[str, Any]]
    """What caused this update (card played, trick won, hand scored …), for animation."""
    clock: Clock | None
    matches: list[dict[str, Any]]
    """Results of the matches finished at this table (score history across matches)."""
    hints: bool
    """A casual table: its players may ask for hints."""
    turn_seconds: float | None
    """The turn timer (``None``: no timer)."""
    bot_word: str
    """The level of the table's bots, in players' words ("Expert")."""
    teams: list[list[int]]
    """The sides that keep a score, as in the lobby."""
    private: bool
    """Friends only: not in the lobby, reached through the invite link."""
    typed_chat: bool
    """Players may type in the chat (else quick phrases and reactions only)."""
    invite_side: int | None
    """The side the invite link seats its holder on (``None``: any free seat)."""
    rated: bool
    """Its finished matches change the players' and bots' ratings."""
    challenge: ChallengeInfo | None
    """A daily challenge entry's table (``None``: an ordinary one)."""


class TableUpdate(TableShared):
    """A table's state for one viewer after a change: the full view, not a diff."""

    seat: int | None
    """The viewer's seat, or ``None`` for a spectator."""
    view: dict[str, Any] | None
    """``Game.view(seat)`` of the current match (``None`` while waiting for players): the
    game's own typed view (its registry entry's ``view_shape``)."""
    invite: str | None
    """The invite link's secret: only in the creator's own messages (``None`` for others,
    and when revoked)."""


class TablePatch(TypedDict):
    """A ``table`` message sent as what changed since the one before it, to a connection that
    asked for patches (``/ws?patches=1``; see :mod:`cardroom.table_patches`)."""

    type: Literal["table_patch"]
    table_id: str
    version: int
    """The version of the message it leads to."""
    base: int
    """The version of the message it was built against: a client holding another one opens
    the table again (``open``) for a full message."""
    set: dict[str, Any]
    """The message's top-level parts that changed (``view`` among them when the view came
    or went)."""
    view_set: dict[str, Any]
    """The view's parts that changed or are new."""
    view_unset: list[str]
    """The view's parts that are gone."""


class ChallengeInfo(TypedDict):
    """What a challenge table's message says of it: its day and how many deals it plays (the
    match number is the deal's)."""

    game: str
    day: str
    deals: int


class ChatLineInfo(TypedDict):
    """One line of a table's chat as everybody following the table sees it."""

    at: float
    """When it was said (unix seconds)."""
    player_id: str
    name: str
    seat: int | None
    """The speaker's seat (``None``: a spectator)."""
    channel: Literal["players", "spectators"]
    kind: Literal["text", "phrase", "reaction"]
    text: str
    """What was said: the typed text (plain text, never markup), or the phrase's or the
    reaction's own words."""


class ChatMessage(TypedDict):
    """New lines of a table's chat; on ``open``, its latest lines."""

    type: Literal["chat"]
    table_id: str
    lines: list[ChatLineInfo]


class Hint(TypedDict):
    """The answer to ``hint``: what the search bot would do in the asker's seat at
    ``version``, and a short honest account of how it chose. It is sent to the asker
    alone, never changes the table, and was worked out from the asker's own view."""

    type: Literal["hint"]
    table_id: str
    version: int
    """The table's version the hint is for (a later version makes it stale)."""
    seat: int
    action: str
    """A legal action in the engine's notation (``play QH``, ``bid 7S``, ``discard …``)."""
    explanation: str


class AccountInfo(TypedDict):
    """What a player's own account is made of."""

    registered: bool
    """The name is theirs (a password or a passkey), not a guest's."""
    password: bool
    passkeys: int


class Welcome(TypedDict):
    """Who this connection is (after ``register``, ``hello`` or a sign-in)."""

    type: Literal["welcome"]
    player_id: str
    name: str
    tables: list[str]
    """Tables where this player sits (to reconnect)."""
    account: AccountInfo


ServerMessage = (Ack | Error | Lobby | LobbyUpdate | TableUpdate | TablePatch | Hint | Welcome
                 | ChatMessage)
SERVER_MESSAGES: dict[str, Any] = {
    "ack": Ack, "error": Error, "lobby": Lobby, "lobby_update": LobbyUpdate,
    "table": TableUpdate, "table_patch": TablePatch, "hint": Hint, "welcome": Welcome,
    "chat": ChatMessage}
"""Each server message's shape by its ``type``."""
