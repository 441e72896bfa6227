"""The WebSocket endpoint: one connection per browser tab, speaking :mod:`cardroom.protocol`.

Each connection reads messages, checks their size, rate and shape, hands them to the room,
and answers every one with an ``ack`` or a typed ``error``. An outgoing message is written
to the socket at once when nothing waits before it and the client reads (the server's
protocol offers :data:`SEND_NOW`); otherwise it goes through a bounded queue drained by a
writer task, so a slow client never stalls a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardroom.protocol import (
    CLIENT_TYPES,
    MAX_MESSAGE_BYTES,
    Act,
    AddBot,
    AskHint,
    ChangePassword,
    Chat,
    Claim,
    CreateTable,
    DailyChallengeMessage,
    DeleteAccount,
    Error,
    ErrorCode,
    Hello,
    Hint,
    Invite,
    Join,
    Leave,
    Open,
    PasskeyBegin,
    PasskeyFinish,
    PlayNow,
    Quota,
    Register,
    ReportBug,
    ReserveSeat,
    ServerMessage,
    SignIn,
    SignOut,
    StartWithBots,
    TableSettingsMessage,
    WatchLobby,
    Welcome,
    describe_problem,
    read_message,
)
from cardroom.tables.accounts import Ceremony, SignedIn
from cardroom.tables.model import Relayed, hash_token
from cardroom.tables.room import Player, Room, RoomError
from cardroom.web.addresses import client_key
from cardroom.web.security import BadMessage, decode_message

log = logging.getLogger(__name__)

_ENCODER = msgspec.json.Encoder()
"""Views go out after every action to every seat: msgspec encodes them several times faster."""

OUTBOX_LIMIT = 256
"""Messages queued for one client before it is judged too slow and disconnected (a client
that reads keeps a few at most: views are sent whole, lobby changes in coalesced bursts)."""
READ_PAUSE = OUTBOX_LIMIT // 2
"""Queued messages past which the connection stops reading the client's requests until its
answers have gone out: a burst of requests never overflows the client's own outbox."""
CLOSE_TIMEOUT = 10.0
"""Seconds a close frame may take to go out before the connection is dropped anyway."""
FLOOD_CLOSE = 2000
"""Rate-limited messages in a row after which the connection is closed."""
SEND_NOW = "cardroom.send_text_now"
"""The ASGI scope extension under which the server's WebSocket protocol offers a function
that writes a text message (its UTF-8 bytes) at once, if the connection is open and its
client reads (true), or does nothing (false): each message skips the writer task's wake-up
and the ASGI send chain (bench/RESULTS.md, 2026-12-03)."""

SendNow = Callable[[bytes], bool]


def _text_of(message: ServerMessage | Relayed) -> str:
    """A message's JSON as it goes on the socket (a relayed one arrives encoded)."""
    return message.text if isinstance(message, Relayed) else _ENCODER.encode(message).decode()


def _bytes_of(message: ServerMessage | Relayed) -> bytes:
    """A message's JSON in UTF-8, as a direct write takes it."""
    return message.text.encode() if isinstance(message, Relayed) else _ENCODER.encode(message)


class TokenBucket:
    """Allow ``rate`` messages a second on average, in bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Spend a token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One client's socket: its player (once proven), its outbox and its handlers."""

    def __init__(self, websocket: WebSocket, room: Room, rate: float, burst: float) -> None:
        self.websocket = websocket
        self.room = room
        self.player: Player | None = None
        self.bucket = TokenBucket(rate, burst)
        self.outbox: asyncio.Queue[ServerMessage | Relayed | None] = asyncio.Queue()
        self.closing = False
        """The connection is being closed: nothing more is queued or handled."""
        self.address = client_key(websocket)
        """Who the per-address limits count the client as (IPv6: its /64)."""
        self.host = websocket.client.host if websocket.client else self.address
        """The client's own address, for the log."""
        self._writer: asyncio.Task[None] | None = None
        self._writing = False
        """The writer holds a message it took from the outbox and has not yet sent."""
        self._send_now: SendNow | None = websocket.scope.get("extensions", {}).get(SEND_NOW)
        self._closer: asyncio.Task[None] | None = None
        self._drained = asyncio.Event()
        self._drained.set()
        self.reported = False
        self.limited_in_a_row = 0
        self.token_hash: str | None = None
        """The hash of the token this connection proved itself with (signing out revokes
        it; a new sign-in replaces it)."""
        self.origin = websocket.headers.get("origin")
        """The page that opened the connection (a passkey's expected origin)."""
        self.ceremony: Ceremony | None = None
        """The passkey ceremony begun on this connection, if any."""
        self.proven_at: float | None = None
        """When this connection last proved its account with a password or a passkey."""
        self.patches = websocket.query_params.get("patches") == "1"
        """Asked for (``/ws?patches=1``): each table's changes after its first full message
        come as ``table_patch`` messages (:mod:`cardroom.table_patches`)."""
        self.handlers: dict[str, Callable[[Any], Awaitable[dict[str, Any]]]] = {
            "register": self._register, "hello": self._hello, "lobby": self._lobby,
            "create_table": self._create_table, "join": self._join, "leave": self._leave,
            "add_bot": self._add_bot, "start_with_bots": self._start_with_bots,
            "open": self._open, "act": self._act, "hint": self._hint,
            "play_now": self._play_now, "daily_challenge": self._daily_challenge,
            "table_settings": self._table_settings,
            "invite": self._invite, "reserve_seat": self._reserve_seat, "chat": self._chat,
            "report_bug": self._report_bug, "claim": self._claim, "sign_in": self._sign_in,
            "sign_out": self._sign_out, "change_password": self._change_password,
            "delete_account": self._delete_account, "passkey_begin": self._passkey_begin,
            "passkey_finish": self._passkey_finish,
            "ping": self._ping,
        }

    # Listener protocol
    def deliver(self, message: ServerMessage | Relayed) -> None:
        """Write a message at once when nothing waits before it (:data:`SEND_NOW`), else
        queue it; a client that falls :data:`OUTBOX_LIMIT` messages behind is disconnected
        (its queue dropped at once, so it holds no memory while it goes)."""
        if self.closing:
            return
        if (self._send_now is not None and not self._writing and self.outbox.empty()
                and self._writer is not None):
            try:
                data = _bytes_of(message)
            except Exception:  # never into the caller, which is telling other listeners too
                log.exception("a message for a connection from %s does not encode",
                              self.host)
                self.close("a message for it could not be encoded")
                return
            if self._send_now(data):
                return
            message = Relayed(data.decode())  # encoded once: the writer sends it when it can
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close("it does not read its messages")
            return
        self.outbox.put_nowait(message)

    def end(self, reason: str) -> None:
        """Its sign-in was revoked (:class:`cardroom.tables.accounts.Session`): close it."""
        self.close(reason)

    def close(self, reason: str) -> None:
        """Close the connection with a close frame (policy violation), dropping whatever is
        queued; said once in the log, however many messages were refused."""
        if self.closing:
            return
        self.closing = True
        log.info("closing a connection from %s: %s", self.host, reason)
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self._drained.set()
        if self._writer is not None:
            self._writer.cancel()  # it may wait on a client that never reads
        self._closer = asyncio.get_running_loop().create_task(self._send_close())

    def _gone(self) -> None:
        """The client went away while we wrote to it: handle and queue nothing more (the
        reader learns it is over from its next receive)."""
        self.closing = True
        while not self.outbox.empty():
            self.outbox.get_nowait()

    async def _send_close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1008), CLOSE_TIMEOUT)

    async def serve(self) -> None:
        """Run the connection until the client goes away (refused at once, with
        ``quota_exceeded``, if its address holds too many connections already)."""
        await self.websocket.accept()
        try:
            self.room.quotas.connect(self.address)
        except RoomError as refused:
            await self.websocket.send_text(_ENCODER.encode(self._refusal(None, refused))
                                           .decode())
            await self.websocket.close(code=1008)
            return
        self._writer = asyncio.create_task(self._write())
        try:
            while True:
                text = await self._receive()
                if text is None:
                    break
                if not self.closing:
                    await self._handle(text)
                if self.outbox.qsize() >= READ_PAUSE and not self._writer.done():
                    # The writer sets the event as the queue drains, or when it ends.
                    self._drained.clear()
                    await self._drained.wait()
        finally:
            self.room.quotas.disconnect(self.address)
            self._nobody()
            for task in (self._writer, self._closer):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task

    async def _receive(self) -> str | None:
        try:
            message = await self.websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return None
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("text") is not None:
            return message["text"]
        data = message.get("bytes") or b""
        return data.decode("utf-8", errors="replace")

    async def _write(self) -> None:
        """Send what is queued, in order, until the connection ends."""
        try:
            while True:
                message = await self.outbox.get()
                if message is None:
                    return
                self._writing = True
                try:
                    await self.websocket.send_text(_text_of(message))
                except (WebSocketDisconnect, RuntimeError, OSError):
                    self._gone()
                    return
                finally:
                    self._writing = False
                if self.outbox.qsize() < READ_PAUSE // 2:
                    self._drained.set()
        finally:
            self._drained.set()  # the reader must not wait on a writer that has ended

    async def _handle(self, text: str) -> None:
        """Check and dispatch one message; answer with an ack or an error."""
        if len(text.encode()) > MAX_MESSAGE_BYTES:
            self._error(None, ErrorCode.TOO_LARGE,
                        f"Messages may be at most {MAX_MESSAGE_BYTES} bytes.")
            return
        if not self.bucket.allow():
            self.limited_in_a_row += 1
            if self.limited_in_a_row >= FLOOD_CLOSE:
                self.close("it floods the server with messages")
            self._error(_seq_of(text), ErrorCode.RATE_LIMITED,
                        "Too many messages: slow down a little.")
            return
        self.limited_in_a_row = 0
        try:
            raw = decode_message(text)
        except BadMessage as error:
            log.debug("refused a message: %s", error)
            self._error(None, ErrorCode.BAD_MESSAGE, str(error))
            return
        if not isinstance(raw, dict):
            self._error(None, ErrorCode.BAD_MESSAGE, "A message must be a JSON object.")
            return
        seq = _valid_seq(raw.get("seq"))
        if "seq" in raw and seq is None:
            self._error(None, ErrorCode.BAD_MESSAGE,
                        f"seq must be a whole number from 0 to {SEQ_MAX}.")
            return
        kind = raw.get("type")
        if not isinstance(kind, str):
            self._error(seq, ErrorCode.BAD_MESSAGE, "A message needs a type, a string.")
            return
        if kind not in CLIENT_TYPES:
            self._error(seq, ErrorCode.UNKNOWN_TYPE,
                        f"Unknown message type {kind[:40]!r}; known types: "
                        f"{', '.join(sorted(CLIENT_TYPES))}.")
            return
        try:
            message = read_message(raw)
        except msgspec.ValidationError as error:
            self._error(seq, ErrorCode.BAD_MESSAGE, describe_problem(error))
            return
        try:
            result = await self.handlers[kind](message)
        except RoomError as error:
            self.deliver(self._refusal(message.seq, error))
            return
        except Exception:
            log.exception("handling %s", kind)
            self._error(message.seq, ErrorCode.INTERNAL, "Something went wrong on our side; "
                                                         "the request changed nothing.")
            return
        self.deliver({"type": "ack", "seq": message.seq, "result": result})

    def _error(self, seq: int | None, code: ErrorCode, text: str,
               quota: Quota | None = None) -> None:
        self.room.metrics.rejected.labels(code.value).inc()
        self.deliver(_error_message(seq, code, text, quota))

    def _refusal(self, seq: int | None, error: RoomError) -> Error:
        """The ``error`` message answering a request the room refused."""
        self.room.metrics.rejected.labels(error.code.value).inc()
        return _error_message(seq, error.code, error.message, error.quota)

    def _need_player(self) -> Player:
        if self.player is None:
            raise RoomError(ErrorCode.NOT_REGISTERED,
                            "Say who you are first: register a name or send your token.")
        return self.player

    # -- handlers ---------------------------------------------------------------------------------

    async def _register(self, message: Register) -> dict[str, Any]:
        self.room.check_name(message.name)  # a refused name costs no registration
        self.room.quotas.check(self.room.quotas.registrations, self.address)
        player, token = await self.room.register(message.name)
        await self._welcome(player, token)
        return {"player_id": player.id, "name": player.name, "token": token}

    async def _hello(self, message: Hello) -> dict[str, Any]:
        player = await self.room.authenticate(message.token)
        await self._welcome(player, message.token)
        return {"player_id": player.id, "name": player.name,
                "tables": self.room.tables_of(player)}

    async def _welcome(self, player: Player, token: str, proven: bool = False
                       ) -> dict[str, Any]:
        """The connection is ``player``'s now, proven by ``token`` (``proven``: by a
        password or passkey just now, too): the ``welcome`` message (its fields are returned
        too, for the acks of sign-ins)."""
        account = await self.room.accounts.account(player)  # a deleted one: bad_token
        proven_at = self.proven_at if proven else None
        if self.player is not None and self.player.id != player.id:
            self._nobody()
        self.player, self.token_hash, self.proven_at = player, hash_token(token), proven_at
        self.room.accounts.attach(player.id, self)
        welcome: Welcome = {
            "type": "welcome", "player_id": player.id, "name": player.name,
            "tables": self.room.tables_of(player),
            "account": {"registered": account.registered,
                        "password": account.password_hash is not None,
                        "passkeys": account.passkeys}}
        self.deliver(welcome)
        return {key: value for key, value in welcome.items() if key != "type"}

    def _nobody(self) -> None:
        """The connection stops being anybody's (signed out, or the account deleted)."""
        if self.player is not None:
            self.room.accounts.detach(self.player.id, self)
        self.room.disconnect(self)
        self.player, self.token_hash, self.proven_at = None, None, None

    # -- accounts ---------------------------------------------------------------------------------

    async def _claim(self, message: Claim) -> dict[str, Any]:
        return {"token": await self.room.accounts.claim(self._need_player(), message.password,
                                                        self)}

    async def _sign_in(self, message: SignIn) -> dict[str, Any]:
        signed_in = await self.room.accounts.sign_in(message.name, message.password,
                                                     self.address, self)
        return await self._signed_in(signed_in)

    async def _signed_in(self, signed_in: SignedIn) -> dict[str, Any]:
        await self.room.core.rater.load_players([signed_in.player.id])
        return {**await self._welcome(signed_in.player, signed_in.token, proven=True),
                "token": signed_in.token}

    async def _sign_out(self, _message: SignOut) -> dict[str, Any]:
        await self.room.accounts.sign_out(self._need_player(), self)
        self._nobody()
        return {}

    async def _change_password(self, message: ChangePassword) -> dict[str, Any]:
        return {"token": await self.room.accounts.change_password(
            self._need_player(), message.old_password, message.new_password, self)}

    async def _delete_account(self, message: DeleteAccount) -> dict[str, Any]:
        await self.room.delete_account(self._need_player(), message.password,
                                       message.confirm_name, self)
        self._nobody()
        return {}

    async def _passkey_begin(self, message: PasskeyBegin) -> dict[str, Any]:
        self.ceremony, options = await self.room.accounts.begin_passkey(
            message.purpose, self, self.origin)
        return {"options": options}

    async def _passkey_finish(self, message: PasskeyFinish) -> dict[str, Any]:
        ceremony, self.ceremony = self.ceremony, None  # a challenge answers once
        if ceremony is None or ceremony.purpose != message.purpose:
            raise RoomError(ErrorCode.BAD_PASSKEY, "Begin the passkey ceremony first.")
        accounts = self.room.accounts
        if message.purpose == "sign_in":
            return await self._signed_in(await accounts.finish_sign_in(
                ceremony, message.credential, self))
        return {"token": await accounts.finish_registration(
            ceremony, self._need_player(), message.credential, self)}

    async def _lobby(self, message: WatchLobby) -> dict[str, Any]:
        self.room.watch_lobby(self, message.offset, message.limit)
        return {}

    async def _create_table(self, message: CreateTable) -> dict[str, Any]:
        player = self._need_player()
        table_id = await self.room.new_table(player, message.preset, message.rules,
                                             message.seat, message.turn_seconds, message.bot,
                                             game=message.game, hints=message.hints,
                                             private=message.private, rated=message.rated)
        seat = await self.room.open(self, player, table_id)
        return {"table_id": table_id, "seat": seat}

    async def _join(self, message: Join) -> dict[str, Any]:
        player = self._need_player()
        await self.room.join(player, message.table_id, message.seat, message.invite)
        return {"table_id": message.table_id,
                "seat": await self.room.open(self, player, message.table_id, message.invite)}

    async def _leave(self, message: Leave) -> dict[str, Any]:
        await self.room.leave(self._need_player(), message.table_id)
        return {"table_id": message.table_id}

    async def _add_bot(self, message: AddBot) -> dict[str, Any]:
        await self.room.add_bot(self._need_player(), message.table_id, message.seat,
                                message.bot)
        return {"table_id": message.table_id, "seat": message.seat}

    async def _start_with_bots(self, message: StartWithBots) -> dict[str, Any]:
        await self.room.start_with_bots(self._need_player(), message.table_id, message.bot)
        return {"table_id": message.table_id}

    async def _open(self, message: Open) -> dict[str, Any]:
        seat = await self.room.open(self, self.player, message.table_id, message.invite)
        return {"table_id": message.table_id, "seat": seat}

    async def _play_now(self, message: PlayNow) -> dict[str, Any]:
        player = self._need_player()
        table_id = await self.room.play_now(player, message.game, message.preset)
        seat = await self.room.open(self, player, table_id)
        return {"table_id": table_id, "seat": seat}

    async def _daily_challenge(self, message: DailyChallengeMessage) -> dict[str, Any]:
        player = self._need_player()
        table_id = await self.room.enter_challenge(player, message.game, self.address)
        seat = await self.room.open(self, player, table_id)
        return {"table_id": table_id, "seat": seat}

    async def _table_settings(self, message: TableSettingsMessage) -> dict[str, Any]:
        await self.room.table_settings(self._need_player(), message.table_id, message.private,
                                       message.typed_chat, message.invite_side)
        return {"table_id": message.table_id}

    async def _invite(self, message: Invite) -> dict[str, Any]:
        invite = await self.room.invite(self._need_player(), message.table_id, message.revoke)
        return {"table_id": message.table_id, "invite": invite}

    async def _reserve_seat(self, message: ReserveSeat) -> dict[str, Any]:
        await self.room.reserve_seat(self._need_player(), message.table_id, message.seat,
                                     message.reserved)
        return {"table_id": message.table_id, "seat": message.seat}

    async def _chat(self, message: Chat) -> dict[str, Any]:
        await self.room.say(self, self._need_player(), message.table_id, self.address,
                            message.text, message.phrase, message.reaction)
        return {"table_id": message.table_id}

    async def _act(self, message: Act) -> dict[str, Any]:
        return await self.room.act(self._need_player(), message.table_id, message.action)

    async def _hint(self, message: AskHint) -> dict[str, Any]:
        player = self._need_player()
        self.room.quotas.check_player(self.room.quotas.hints, player.id, self.address)
        hint = await self.room.hint(player, message.table_id)
        self.deliver(cast(Hint, {"type": "hint", **hint}))
        return hint

    async def _report_bug(self, message: ReportBug) -> dict[str, Any]:
        player = self._need_player()
        if self.reported:
            raise RoomError(ErrorCode.ALREADY_REPORTED,
                            "Thank you: one report per visit. Refresh the page to send another.")
        self.room.quotas.check_player(self.room.quotas.bug_reports, player.id, self.address)
        number = await self.room.report_bug(player, message.table_id, message.description,
                                            message.client_state)
        self.reported = True
        return {"bug": number}

    async def _ping(self, _message: Any) -> dict[str, Any]:
        return {}


SEQ_MAX = 2**53
"""The largest ``seq`` (JavaScript's largest exact integer), as the protocol's schemas say."""


def _valid_seq(seq: object) -> int | None:
    """``seq`` if it is a valid sequence number: an integer (not a boolean, not a float)
    from 0 to :data:`SEQ_MAX`."""
    return seq if type(seq) is int and 0 <= seq <= SEQ_MAX else None


def _seq_of(text: str) -> int | None:
    """The ``seq`` of a message being refused unread, if it can be read at all."""
    try:
        raw = decode_message(text)
    except BadMessage:
        return None
    return _valid_seq(raw.get("seq")) if isinstance(raw, dict) else None


def _error_message(seq: int | None, code: ErrorCode, text: str,
                   quota: Quota | None = None) -> Error:
    """The ``error`` message refusing the client message ``seq``."""
    return {"type": "error", "seq": seq, "code": code, "message": text, "quota": quota}
