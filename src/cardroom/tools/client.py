"""A small asyncio client for the card room's WebSocket protocol.

Tests and load tools use it, and so can anyone writing their own bot::

    async with Client("ws://127.0.0.1:8500/ws") as client:
        token = await client.register("Alice")
        table = await client.create_table(preset="online")
        await client.start_with_bots(table)
        update = await client.wait_for(table, lambda u: u["view"]["to_act"] == u["seat"])
        await client.act(table, update["view"]["legal_actions"][0])

Every request waits for its ``ack`` and returns its ``result``, or raises :class:`ClientError`
with the server's error code and message. ``table`` updates are kept per table (the latest
wins) and can be awaited with :meth:`Client.wait_for`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from typing import Any, cast

import msgspec
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosedError

from cardroom.protocol import TablePatch, TableUpdate
from cardroom.table_patches import apply_table_patch

_DECODER = msgspec.json.Decoder()
"""A client reads a view after every action at its table: msgspec decodes them faster."""


def merge_lobby(lobby: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The ``lobby`` message brought up to date with a ``lobby_update``: changed rows
    replaced or added, closed tables dropped, most recently changed first."""
    rows = {row["table_id"]: row for row in lobby["tables"]}
    for table_id in update.get("removed", ()):
        rows.pop(table_id, None)
    rows.update((row["table_id"], row) for row in update["tables"])
    tables = sorted(rows.values(), key=lambda row: -row.get("updated_at", 0.0))
    return {**lobby, "tables": tables, "total": len(tables)}


def reconnect_delay(attempt: int, base: float = 0.25, cap: float = 5.0,
                    rng: random.Random | None = None) -> float:
    """Seconds to wait before reconnection attempt number ``attempt`` (0 first): "full
    jitter", a random part of ``min(cap, base * 2**attempt)``.

    :class:`Client` does not reconnect by itself; code that does (the load test, a bot's own
    loop) waits this long before each attempt, the first one included, so that the clients of
    a server that restarts come back spread out instead of all at the same moment.
    """
    return (rng or random).uniform(0.0, min(cap, base * 2.0 ** min(attempt, 32)))


class ClientError(Exception):
    """The server refused a request: ``code`` is the protocol's error code (and ``quota``
    the limit reached, with ``quota_exceeded``)."""

    def __init__(self, code: str, message: str, quota: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.quota = quota


class Client:
    """One connection to the card room."""

    def __init__(self, url: str, timeout: float = 30.0,
                 on_table: Callable[[dict[str, Any]], None] | None = None,
                 patches: bool = False) -> None:
        """``on_table``, if given, is called with every ``table`` message as it arrives.
        With ``patches`` the server sends each table's changes as ``table_patch`` messages
        after the first full one; they are applied here, so that :attr:`tables` and
        ``on_table`` see full messages either way, and a patch that does not fit the
        message held (one lost between the server's processes) opens the table again."""
        self.url = url
        if patches:
            self.url += ("&" if "?" in url else "?") + "patches=1"
        self.patches_refused = 0
        """Patches that did not fit the message held (the first of a run is followed by a
        new ``open``; those already on their way meanwhile do not fit either)."""
        self.reopened = 0
        """Tables opened again after a patch that did not fit."""
        self._invites: dict[str, str | None] = {}
        self.timeout = timeout
        self.on_table = on_table
        self.socket: ClientConnection | None = None
        self.tables: dict[str, dict[str, Any]] = {}
        self.lobby: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.chat: dict[str, list[dict[str, Any]]] = {}
        """Each followed table's chat lines, in the order they came."""
        self.received: list[dict[str, Any]] = []
        self.keep_all = False
        self._seq = 0
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None
        self._reopening: dict[str, asyncio.Task[None]] = {}
        """The tables being opened again after a patch that did not fit."""

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Open the socket and start reading."""
        self.socket = await websockets.connect(self.url, max_size=2**22)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def close(self) -> None:
        """Close the socket."""
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    @property
    def connected(self) -> bool:
        """True while the reader runs."""
        return self._reader is not None and not self._reader.done()

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for text in self.socket:
                message = _DECODER.decode(text)
                if self.keep_all:
                    self.received.append(message)
                await self._dispatch(message)
        except ConnectionClosedError:
            pass  # the server went away without a goodbye (a crash): the same end of reading
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ClientError("disconnected", "connection closed"))
                    future.exception()  # a request that gave up waiting must not warn later
            async with self._changed:
                self._changed.notify_all()

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        seq = message.get("seq")
        if kind in ("ack", "error") and seq in self._pending:
            self._pending.pop(seq).set_result(message)
        elif kind == "error":
            self.errors.append(message)
        if kind == "table_patch":
            merged = apply_table_patch(cast("TableUpdate | None", self.tables.get(
                message["table_id"])), cast("TablePatch", message))
            if merged is None:
                self.patches_refused += 1
                self._reopen(message["table_id"])
                return
            message, kind = cast("dict[str, Any]", merged), "table"
        if kind == "table" and self.on_table is not None:
            self.on_table(message)
        async with self._changed:
            if kind == "table":
                current = self.tables.get(message["table_id"])
                if current is None or message["version"] >= current["version"]:
                    self.tables[message["table_id"]] = message
            elif kind == "lobby":
                self.lobby = message
            elif kind == "lobby_update" and self.lobby is not None:
                self.lobby = merge_lobby(self.lobby, message)
            elif kind == "welcome":
                self.welcome = message
            elif kind == "chat":
                self.chat.setdefault(message["table_id"], []).extend(message["lines"])
            self._changed.notify_all()

    def _reopen(self, table_id: str) -> None:
        """Open a table again for a full message (a patch did not fit), once: the patches
        already on their way do not fit either."""
        if table_id in self._reopening:
            return

        async def reopen() -> None:
            with contextlib.suppress(ClientError, TimeoutError):
                await self.open(table_id, self._invites.get(table_id))

        self.reopened += 1
        task = self._reopening[table_id] = asyncio.get_running_loop().create_task(reopen())
        task.add_done_callback(lambda _: self._reopening.pop(table_id, None))

    async def send_raw(self, text: str | bytes) -> None:
        """Send anything at all (for tests of bad input)."""
        assert self.socket is not None
        await self.socket.send(text)

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a message and wait for its ack (returns ``result``) or error (raises)."""
        self._seq += 1
        seq = self._seq
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[seq] = future
        assert self.socket is not None
        await self.socket.send(json.dumps({"type": kind, "seq": seq, **fields}))
        answer = await asyncio.wait_for(future, self.timeout)
        if answer["type"] == "error":
            raise ClientError(answer["code"], answer["message"], answer.get("quota"))
        return answer.get("result", {})

    async def wait_for(self, table_id: str, condition: Callable[[dict[str, Any]], bool],
                       timeout: float | None = None) -> dict[str, Any]:
        """Wait until the latest update of ``table_id`` satisfies ``condition``; return it."""

        def ready() -> bool:
            update = self.tables.get(table_id)
            return update is not None and condition(update)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(
                lambda: ready() or not self.connected), timeout or self.timeout)
        if not ready():
            raise ClientError("disconnected", "connection closed while waiting")
        return self.tables[table_id]

    # -- the protocol's requests --------------------------------------------------------------

    async def register(self, name: str) -> str:
        """Register a name; returns the secret token to keep."""
        return (await self.request("register", name=name))["token"]

    async def hello(self, token: str) -> dict[str, Any]:
        """Prove who we are on this connection; returns the player and their tables."""
        return await self.request("hello", token=token)

    async def watch_lobby(self) -> None:
        """Receive lobby updates."""
        await self.request("lobby")

    async def create_table(self, preset: str | None = None, seat: int = 0, game: str = "500",
                           **options: Any) -> str:
        """Create a table of ``game`` and sit at ``seat``; returns its id. ``preset`` ``None``
        is the game's default (``online`` for 500, ``seed`` for 1000)."""
        return (await self.request("create_table", game=game, preset=preset, seat=seat,
                                   **options))["table_id"]

    async def join(self, table_id: str, seat: int, invite: str | None = None) -> None:
        """Take a seat (a bot's, at an open table being played: at the next hand); a private
        table's needs its ``invite``."""
        await self.request("join", table_id=table_id, seat=seat, invite=invite)

    async def play_now(self, game: str = "500", preset: str | None = None) -> dict[str, Any]:
        """Sit down at once (a free seat with these rules, or a new table with bots):
        ``table_id`` and ``seat``."""
        return await self.request("play_now", game=game, preset=preset)

    async def table_settings(self, table_id: str, **settings: Any) -> None:
        """Change the table's ``private``, ``typed_chat`` or ``invite_side`` (creator)."""
        await self.request("table_settings", table_id=table_id, **settings)

    async def invite(self, table_id: str, revoke: bool = False) -> str | None:
        """A new invite link secret for the table (creator), or ``None`` once revoked."""
        return (await self.request("invite", table_id=table_id, revoke=revoke))["invite"]

    async def reserve_seat(self, table_id: str, seat: int, reserved: bool = True) -> None:
        """Keep an empty seat for a friend, or free it (creator)."""
        await self.request("reserve_seat", table_id=table_id, seat=seat, reserved=reserved)

    async def say(self, table_id: str, **line: str) -> None:
        """Chat at the table: ``text=...``, ``phrase=...`` or ``reaction=...``."""
        await self.request("chat", table_id=table_id, **line)

    async def leave(self, table_id: str) -> None:
        """Give up our seat."""
        await self.request("leave", table_id=table_id)

    async def add_bot(self, table_id: str, seat: int, bot: str = "simple") -> None:
        """Seat a bot (creator only)."""
        await self.request("add_bot", table_id=table_id, seat=seat, bot=bot)

    async def start_with_bots(self, table_id: str, bot: str = "simple") -> None:
        """Fill the empty seats with bots (creator only)."""
        await self.request("start_with_bots", table_id=table_id, bot=bot)

    async def open(self, table_id: str, invite: str | None = None) -> int | None:
        """Follow a table (a private one with its ``invite``); returns our seat, or ``None``
        as a spectator."""
        self._invites[table_id] = invite
        return (await self.request("open", table_id=table_id, invite=invite))["seat"]

    async def act(self, table_id: str, action: str) -> dict[str, Any]:
        """Take an action at our seat."""
        return await self.request("act", table_id=table_id, action=action)

    async def hint(self, table_id: str) -> dict[str, Any]:
        """Ask what the search bot would do in our seat now (casual tables only): the
        suggested ``action``, an ``explanation`` and the ``version`` it is for."""
        return await self.request("hint", table_id=table_id)

    async def report_bug(self, description: str, table_id: str | None = None,
                         client_state: dict[str, Any] | None = None) -> int:
        """Send a bug report; returns its number."""
        return (await self.request("report_bug", table_id=table_id, description=description,
                                   client_state=client_state or {}))["bug"]
