"""Table verbs run at the table's owner, and its views relayed to connections elsewhere.

In a shared room each open table has one owner (:mod:`cardroom.tables.leases`). A player's
connection may be on any process. Its table verbs (act, join, chat, open, …) run where the
table is owned: :meth:`Relay.run` runs one here when this process owns the table, and
otherwise sends it to the owner over the bus and waits for the answer (the verb's result or
its typed error). A connection that follows a table owned elsewhere follows it through a
:class:`Proxy` at the owner, which sends what the connection is to receive back already
encoded, to be handed to the socket as it is (:class:`~cardroom.tables.model.Relayed`): the
views, presence and chat stay the owner's, built once.

Each process has a bus channel of its own; what one process sends another goes in order, in
one batch per turn of the event loop (the answer to a verb after the views it caused).

When a table changes hands (its owner died, stopped, drained or shed load), the new owner says
so on :data:`MOVES_CHANNEL` and every process follows the table there again; a process that
let a table go holds its connections' follows until the new owner is known (looked for every
:data:`RECHECK` seconds too, in case the notice was lost). An owner drops the proxies of a
process taken for dead (:attr:`Followers.process_gone`), and a process that was off the bus
follows its tables again once it is back, for the views it missed.

A new table is made at the process that owns the fewest (:meth:`Relay.place`).

Alone (the in-process bus) every verb runs here and nothing is relayed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from cardroom.protocol import ErrorCode, ServerMessage
from cardroom.tables.core import Core
from cardroom.tables.errors import Moved, RoomError
from cardroom.tables.followers import Followers
from cardroom.tables.leases import Owner
from cardroom.tables.model import Listener, Player, Relayed, takes_patches

log = logging.getLogger(__name__)

MOVES_CHANNEL = "moves"
"""The bus channel on which a process says it has just taken tables."""
MAX_FOLLOWED = 8
"""Tables one connection may follow at once (a player at several tables, a spectator)."""
CALL_TIMEOUT = 5.0
"""Seconds a verb sent to another process may take before the player is told
``reconnecting`` (its owner may have died), unless the table's new owner says sooner that
it took the table."""
OWNER_WAIT = 15.0
"""Seconds a verb waits for a table whose owner is silent or that nobody owns for the moment
(handed over, or its owner died: its lease ends and another process takes it)."""
NEW_TABLE_EPOCH = 1
"""The epoch a new table is owned at: its maker takes it with its first write."""
REPEATABLE = frozenset({"open", "hint"})
"""Verbs that change nothing at the table: sent again when their owner did not answer."""
OWNERS_KEPT = 100_000
"""Tables whose owner (and newest epoch heard) is remembered at most: past it the table
heard of longest ago is forgotten (the owners of closed tables are never asked for again,
and one lookup in the store finds any owner)."""
REFOLLOW_BATCH = 500
"""Follows looked for again at most at each :data:`RECHECK` (the rest at the next ones): a
process back on the bus does not ask for thousands at once."""
RECHECK = 1.0
"""Seconds between two looks for the owners of tables followed here whose owner is not known."""

Verb = Callable[..., Awaitable[Any]]
"""A room verb as it runs at the table's owner: ``(player, table_id, listener, **args)``."""

_encode = msgspec.json.Encoder().encode


class _Notice(msgspec.Struct):
    """A notice on a process's channel, its items left encoded until each is looked at."""

    origin: str = msgspec.field(name="from")
    items: list[msgspec.Raw] = msgspec.field(default_factory=list)


class _Head(msgspec.Struct):
    """An item's kind, and what a ``view`` item carries: a message for a connection here
    (``to``), as its owner encoded it (``text``: the message's JSON itself; processes of the
    release before sent ``deliver`` items, the JSON as a string). A view is decoded once, as
    this; the rest of any other item is skipped here and decoded whole by its handler."""

    kind: str
    to: Any = None
    text: msgspec.Raw = msgspec.Raw()
    """Empty when the item has none (a view without one is skipped)."""


class _CallId(msgspec.Struct):
    """A verb's call, by its id alone."""

    id: int


_decode_notice = msgspec.json.Decoder(_Notice).decode
_decode_call_id = msgspec.json.Decoder(_CallId).decode
_decode_head = msgspec.json.Decoder(_Head).decode
_decode_item = msgspec.json.Decoder(dict[str, Any]).decode


def _keep_bounded(memory: dict[str, Any], key: str, value: Any) -> None:
    """Remember ``value`` as the newest entry, forgetting the oldest past
    :data:`OWNERS_KEPT`."""
    memory.pop(key, None)
    if len(memory) >= OWNERS_KEPT:
        del memory[next(iter(memory))]
    memory[key] = value


def process_channel(origin: str) -> str:
    """The bus channel of one process."""
    return f"process:{origin}"


@dataclass(slots=True)
class _Pending:
    """A verb sent to another process, waiting for its answer."""

    answer: asyncio.Future[Any]
    owner: Owner
    """The process it was sent to, as the owner of the table at that epoch."""
    table_id: str


class Unreached(Exception):
    """A verb sent to a process that nobody listened for (its process is gone): it was not
    received, so it may be sent to the table's next owner."""


class _Unanswered(Exception):
    """A verb sent to another process that got no answer within :data:`CALL_TIMEOUT`."""


def _time_out(answer: asyncio.Future[Any]) -> None:
    """End the wait for a verb's answer (one that came meanwhile stands)."""
    if not answer.done():
        answer.set_exception(_Unanswered())


def reconnecting() -> RoomError:
    """The error of a verb whose table's owner did not answer in time."""
    return RoomError(ErrorCode.RECONNECTING, "Reconnecting to the table: it may be moving to "
                                             "another server. Try again in a moment.")


@dataclass
class Follow:
    """A connection here following a table owned by another process."""

    player: Player | None
    invite: str | None
    owner: str | None
    """The process following it there; ``None`` while the table's new owner is not known."""
    looking: bool = False
    """Being followed again now (one attempt at a time)."""


class Proxy:
    """A connection of another process, following tables owned here: what it is sent goes
    back to that process, encoded once."""

    __slots__ = ("key", "origin", "patches", "relay")

    def __init__(self, relay: Relay, origin: str, key: int, patches: bool) -> None:
        self.relay, self.origin, self.key = relay, origin, key
        self.patches = patches
        """The connection there asked for patches (:func:`~cardroom.tables.model.
        takes_patches`): the owner builds them, the other process hands them on."""

    def deliver(self, message: ServerMessage | Relayed) -> None:
        """Send the message to the connection's process (see :class:`Listener`), encoded
        once: its JSON goes inside the notice as it is (not as a string to escape there and
        unescape at the other end)."""
        text = message.text.encode() if isinstance(message, Relayed) else _encode(message)
        self.relay.send(self.origin, {"kind": "view", "to": self.key,
                                      "text": msgspec.Raw(text)})


class Relay:
    """Runs table verbs at their tables' owners and relays the owners' messages."""

    def __init__(self, core: Core, followers: Followers) -> None:
        self.core, self.followers = core, followers
        self.verbs: dict[str, Verb] = {}
        """The room's verbs by name, as they run at the table's owner (:meth:`handle`)."""
        self._calls: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._keys: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        """The key each connection here that sent a verb elsewhere goes by there."""
        self._by_key: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
        self._contacted: dict[Listener, set[str]] = {}
        """The processes each connection here sent a verb to: told when it closes."""
        self._closings: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        """How many times each connection here closed (or changed identity): a verb on its
        way meanwhile is not followed up."""
        self._followed: dict[Listener, dict[str, None]] = {}
        """Every table each connection here follows (here or elsewhere), oldest first."""
        self._remote: dict[Listener, dict[str, Follow]] = {}
        """The tables each connection here follows at other processes."""
        self._proxies: dict[tuple[str, int], Proxy] = {}
        """Other processes' connections following tables owned here."""
        self._owners: dict[str, Owner] = {}
        """The owner last known of tables owned elsewhere (forgotten when it does not
        answer, or says the table moved)."""
        self._newest: dict[str, int] = {}
        """The newest epoch heard of each table (kept when its owner is forgotten): a moves
        notice or a lookup older than it is old news."""
        self._outgoing: dict[str, list[dict[str, Any]]] = {}
        """What goes to each process at the end of this turn of the event loop."""
        self._kinds: dict[str, Callable[[dict[str, Any]], None]] = {}
        """Handlers of the other kinds of item a process may be sent (:meth:`on`)."""
        self._locating: dict[str, asyncio.Future[Owner | None]] = {}
        """Lookups of tables' owners in the store under way."""
        self._answered: dict[tuple[str, int], float] = {}
        """Calls from other processes taken here (by their process and id), until their
        deadline: a notice sent again (its first sending may have arrived) is not run
        twice."""
        self._silent: dict[str, float] = {}
        """Processes that did not answer a verb in time (since when), until they are heard
        from again."""
        self.relayed = 0
        """Verbs sent to another process (for /api/health)."""
        self.rejoined: Callable[[], Awaitable[None]] | None = None
        """Told when this process is back on the bus after a time off it (the room asks
        for the rows it may have missed)."""
        self.let_go_of: Callable[[list[str]], None] = self.lost
        """What is done with tables held here that another process has taken (the room
        sets it: their followers move, and only their rows stay)."""
        if core.shared:
            core.bus.subscribe_raw(process_channel(core.origin), self._on_message)
            core.bus.subscribe(MOVES_CHANNEL, self._on_moved)
            core.bus.on_unheard(self._unheard)
            followers.process_gone = self._process_gone

    def handle(self, verbs: dict[str, Verb]) -> None:
        """Name the verbs this process runs for its own tables (for itself and others)."""
        self.verbs.update(verbs)

    def on(self, kind: str, handler: Callable[[dict[str, Any]], None]) -> None:
        """Hand the items of another ``kind`` this process is sent (:meth:`send`) to
        ``handler``."""
        self._kinds[kind] = handler

    # -- running verbs ----------------------------------------------------------------------------

    async def run(self, verb: str, player: Player | None, table_id: str,
                  listener: Listener | None = None, **args: Any) -> Any:
        """Run a verb where the table is owned, and return its result (or raise its error):
        here, or at its owner, waiting up to :data:`OWNER_WAIT` for a table between owners
        or whose owner is silent. A verb sent elsewhere that is not answered within
        :data:`CALL_TIMEOUT` is ``reconnecting``: it is never sent twice, as it may have been
        made (but for the :data:`REPEATABLE` ones)."""
        return (await self._run(verb, player, table_id, listener, args))[1]

    async def _run(self, verb: str, player: Player | None, table_id: str,
                   listener: Listener | None, args: dict[str, Any]) -> tuple[str | None, Any]:
        """Where the verb ran (``None``: here) and its result."""
        if not self.core.shared:
            return None, await self.verbs[verb](player, table_id, listener, **args)
        deadline = time.monotonic() + OWNER_WAIT
        while True:
            here = self.core.leases.owns(table_id)  # (owned here: nothing to look up)
            owner = None if here else self._owners.get(table_id)
            if not here and (owner is None or not self._heard(owner.name)):
                owner = await self._locate(table_id)
                if owner is not None and owner.name != self.core.origin:
                    owner = self._remember_owner(table_id, owner)
            if here or (owner is not None and owner.name == self.core.origin):
                try:
                    return None, await self.verbs[verb](player, table_id, listener, **args)
                except Moved:  # taken by another process meanwhile: it runs there
                    self._owners.pop(table_id, None)
            elif owner is not None and self._heard(owner.name):
                closings = self._closings.get(listener, 0) if listener is not None else 0
                try:
                    return owner.name, await self._call(owner, verb, player, table_id,
                                                        listener, args)
                except (Moved, Unreached):
                    self._owners.pop(table_id, None)
                except RoomError as error:
                    if error.code != ErrorCode.RECONNECTING or verb not in REPEATABLE:
                        raise
                finally:
                    if listener is not None and self._closings.get(listener, 0) != closings:
                        self._send_gone(owner.name, listener)  # closed meanwhile
            if time.monotonic() >= deadline:
                raise reconnecting()
            await asyncio.sleep(RECHECK / 2)

    async def _locate(self, table_id: str) -> Owner | None:
        """The table's owner as the store says (:meth:`Leases.locate`), read once for all
        the verbs and follows that ask at the same time."""
        looking = self._locating.get(table_id)
        if looking is None:
            looking = self._locating[table_id] = asyncio.ensure_future(
                self.core.leases.locate(table_id))
            looking.add_done_callback(lambda _: self._locating.pop(table_id, None))
        return await asyncio.shield(looking)

    def _remember_owner(self, table_id: str, owner: Owner) -> Owner | None:
        """Send the table's verbs to ``owner`` from now on, unless a later owner was heard
        of (a lookup in the store that began before that owner's notice came); the owner
        to send them to (``None``: that later one is not known any more, look again)."""
        if owner.epoch < self._newest.get(table_id, -1):
            return self._owners.get(table_id)
        _keep_bounded(self._newest, table_id, owner.epoch)
        _keep_bounded(self._owners, table_id, owner)
        return owner

    def _heard(self, owner: str) -> bool:
        """Whether a process may be sent verbs: it answered the last one, or it has been
        heard from since (its load, at every renewal of its leases)."""
        since = self._silent.get(owner)
        if since is None:
            return True
        peer = self.core.leases.peers.get(owner)
        if peer is None or peer.heard <= since:
            return False
        del self._silent[owner]
        return True

    async def _call(self, owner: Owner, verb: str, player: Player | None, table_id: str,
                    listener: Listener | None, args: dict[str, Any]) -> Any:
        """Send a verb to the table's owner and wait for its answer."""
        call_id = next(self._ids)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._calls[call_id] = _Pending(answer, owner, table_id)
        self.relayed += 1
        self.send(owner.name, {
            "kind": "call", "id": call_id, "from": self.core.origin, "verb": verb,
            "table_id": table_id, "args": args, "until": time.time() + CALL_TIMEOUT,
            "player": None if player is None else [player.id, player.name],
            "conn": None if listener is None else self._key_of(listener, owner.name),
            "patches": listener is not None and takes_patches(listener)})
        deadline = loop.call_later(CALL_TIMEOUT, _time_out, answer)
        try:
            return await answer
        except _Unanswered:
            self._owners.pop(table_id, None)
            self._silent[owner.name] = time.monotonic()  # its tables' verbs wait to hear it
            raise reconnecting() from None
        finally:
            deadline.cancel()
            self._calls.pop(call_id, None)

    def _unheard(self, channel: str, data: bytes) -> None:
        """A notice sent to another process reached nobody: that process is gone (or, for
        a moment, not subscribed again after Redis came back). Its tables' verbs wait to
        hear from it or from their next owner, and the verbs this notice carried, never
        received, go there at once rather than time out as ``reconnecting``."""
        origin = channel.removeprefix("process:")
        if origin == channel or origin == self.core.origin:
            return
        self._silent.setdefault(origin, time.monotonic())
        try:
            items = _decode_notice(data).items
        except msgspec.ValidationError:
            return
        for raw in items:
            if _decode_head(raw).kind == "call":
                waiting = self._calls.get(_decode_call_id(raw).id)
                if waiting is not None and not waiting.answer.done():
                    waiting.answer.set_exception(Unreached())

    async def _answer(self, call: dict[str, Any]) -> None:
        """Run a verb another process sent, if this process owns its table (a new table's
        verb, ``create``, runs wherever it was placed), and send the answer back."""
        origin, table_id = call["from"], call["table_id"]
        answer: dict[str, Any] = {"kind": "answer", "id": call["id"]}
        verb = self.verbs.get(call["verb"])
        until, now = float(call.get("until", 0.0)), time.time()
        if now > until or self._taken_before((origin, call["id"]), until, now):
            return  # held up on the way (its sender gave up on it), or a second copy
        if verb is None:
            answer["error"] = [ErrorCode.INTERNAL, "This server does not know that request.",
                               None]
        elif call["verb"] != "create" and not self.core.leases.owns(table_id):
            answer["moved"] = True
        else:
            player = None
            if call["player"] is not None:
                player_id, name = call["player"]
                player = self.core.players.setdefault(player_id, Player(player_id, name))
            conn = call["conn"]
            listener = (None if conn is None
                        else self._proxy(origin, conn, bool(call.get("patches"))))
            try:
                answer["result"] = await verb(player, table_id, listener, **call["args"])
            except Moved:
                answer["moved"] = True
            except RoomError as error:
                answer["error"] = [error.code, error.message, error.quota]
            except Exception:
                log.exception("a %s sent by another process", call["verb"])
                answer["error"] = [ErrorCode.INTERNAL, "Something went wrong on our side; "
                                   "the request changed nothing.", None]
        self.send(origin, answer)

    def _taken_before(self, key: tuple[str, int], until: float, now: float) -> bool:
        """Whether this call was taken here already; it is remembered until ``until`` from
        now on (those whose deadline passed are forgotten, oldest first)."""
        answered = self._answered
        while answered:
            oldest = next(iter(answered))
            if answered[oldest] >= now:
                break
            del answered[oldest]
        if key in answered:
            return True
        answered[key] = until
        return False

    def _settle(self, answer: dict[str, Any]) -> None:
        """The answer to a verb this process sent."""
        pending = self._calls.get(answer["id"])
        if pending is None or pending.answer.done():
            return  # too late: the player was told ``reconnecting``
        waiting = pending.answer
        if answer.get("moved"):
            waiting.set_exception(Moved())
        elif "error" in answer:
            code, message, quota = answer["error"]
            waiting.set_exception(RoomError(ErrorCode(code), message, quota))
        else:
            waiting.set_result(answer.get("result"))

    # -- placing new tables -----------------------------------------------------------------------

    async def place(self, player: Player, **args: Any) -> str:
        """Make a new table (the room's ``create`` verb) at the live process that owns the
        fewest tables (here when alone); its id."""
        owner = self.core.leases.place() if self.core.shared else self.core.origin
        if not self._heard(owner):
            owner = self.core.origin  # a process that did not answer lately: not there
        verb = self.verbs["create"]
        if owner != self.core.origin:
            placed = Owner(owner, NEW_TABLE_EPOCH)
            try:
                table_id: str = await self._call(placed, "create", player, "", None, args)
            except Unreached:
                pass  # that process is gone: the table is made here
            else:
                self._remember_owner(table_id, placed)
                return table_id
        return await verb(player, "", None, **args)

    # -- following tables -------------------------------------------------------------------------

    async def open(self, listener: Listener, player: Player | None, table_id: str,
                   invite: str | None = None) -> int | None:
        """Follow a table where it is owned (the room's ``open`` verb): the seat followed.
        A connection follows at most :data:`MAX_FOLLOWED` tables; opening another stops
        following the one it opened longest ago."""
        closings = self._closings.get(listener, 0)
        owner, seat = await self._run("open", player, table_id, listener, {"invite": invite})
        if self._closings.get(listener, 0) != closings:  # closed while being followed
            if owner is None:
                self.followers.unfollow(listener, table_id)
            return seat
        remote = self._remote.setdefault(listener, {})
        held = remote.pop(table_id, None)
        if held is not None and held.owner not in (None, owner):
            self._send_unfollow(held.owner, listener, table_id)
        if owner is not None:
            remote[table_id] = Follow(player, invite, owner)
        elif not remote:
            del self._remote[listener]
        followed = self._followed.setdefault(listener, {})
        followed.pop(table_id, None)
        followed[table_id] = None
        while len(followed) > MAX_FOLLOWED:
            self.unfollow(listener, next(iter(followed)))
        return seat

    def unfollow(self, listener: Listener, table_id: str) -> None:
        """Stop following one table, here or where it is owned."""
        self._followed.get(listener, {}).pop(table_id, None)
        held = self._remote.get(listener, {}).pop(table_id, None)
        if held is None:
            self.followers.unfollow(listener, table_id)
        elif held.owner is not None:
            self._send_unfollow(held.owner, listener, table_id)

    def disconnect(self, listener: Listener) -> None:
        """A connection closed (or changed identity): stop following everything, here and
        at every process it sent a verb to (which drops its proxy there)."""
        self.followers.disconnect(listener)
        self._followed.pop(listener, None)
        self._remote.pop(listener, None)
        self._closings[listener] = self._closings.get(listener, 0) + 1
        for owner in self._contacted.pop(listener, set()):
            self._send_gone(owner, listener)

    def _send_gone(self, owner: str, listener: Listener) -> None:
        """Tell ``owner`` that a connection here follows nothing there any more."""
        key = self._keys.get(listener)
        if key is not None:
            self.send(owner, {"kind": "gone", "from": self.core.origin, "conn": key})

    def _send_unfollow(self, owner: str, listener: Listener, table_id: str) -> None:
        self.send(owner, {"kind": "unfollow", "from": self.core.origin,
                          "conn": self._key_of(listener, owner), "table_id": table_id})

    def _key_of(self, listener: Listener, owner: str) -> int:
        """The key a connection goes by at ``owner`` (which is remembered, to be told when
        the connection closes)."""
        key = self._keys.get(listener)
        if key is None:
            key = self._keys[listener] = next(self._ids)
            self._by_key[key] = listener
        self._contacted.setdefault(listener, set()).add(owner)
        return key

    def _proxy(self, origin: str, key: int, patches: bool) -> Proxy:
        proxy = self._proxies.get((origin, key))
        if proxy is None:
            proxy = self._proxies[origin, key] = Proxy(self, origin, key, patches)
        return proxy

    def _drop_proxy(self, origin: str, key: int) -> None:
        proxy = self._proxies.pop((origin, key), None)
        if proxy is not None:
            self.followers.disconnect(proxy)

    def _process_gone(self, origin: str) -> None:
        """Another process was taken for dead: its connections no longer follow anything,
        and the tables followed there are followed wherever they go next."""
        self._silent.pop(origin, None)  # (a process gone is not remembered for ever)
        for gone_origin, key in [k for k in self._proxies if k[0] == origin]:
            self._drop_proxy(gone_origin, key)
        for listener, follows in self._remote.items():
            self._owner_unknown(listener, {t for t, f in follows.items() if f.owner == origin})

    def _owner_unknown(self, listener: Listener | None, table_ids: set[str]) -> None:
        """These tables a connection here follows are no longer where it followed them:
        they are followed again once their owner is known (:meth:`keep`)."""
        if listener is None:
            return
        for table_id, held in self._remote.get(listener, {}).items():
            if table_id in table_ids:
                held.owner = None

    # -- tables changing hands --------------------------------------------------------------------

    async def taken(self, table_ids: list[str]) -> None:
        """This process has just taken these tables (loaded and driven from now on): every
        process's connections follow them here from now on. Each one's epoch goes with it,
        so that a process this notice reaches late can tell it is old news."""
        epochs = self.core.leases.epochs
        held = [table_id for table_id in table_ids if table_id in epochs]  # (not lost since)
        if held:
            await self.core.bus.publish(MOVES_CHANNEL, {
                "origin": self.core.origin, "tables": held,
                "epochs": [epochs[table_id] for table_id in held]})

    def lost(self, table_ids: list[str]) -> None:
        """Tables this process no longer owns: its followers of them (its own connections,
        and other processes') stop following them here; its own follow them at the new
        owner once it is known."""
        for table_id in table_ids:
            self._owners.pop(table_id, None)
            table = self.core.tables.get(table_id)
            if table is None:
                continue
            for listener, player in list(table.listeners.items()):
                invite = table.invites.get(listener)
                self.followers.unfollow(listener, table_id)
                if isinstance(listener, Proxy):  # its process follows it at the new owner
                    self.send(listener.origin, {"kind": "left", "to": listener.key,
                                                "table_id": table_id})
                else:
                    self._remote.setdefault(listener, {})[table_id] = Follow(player, invite,
                                                                             None)

    async def _on_moved(self, notice: dict[str, Any]) -> None:
        """Another process (or this one) took tables: they are followed and sent verbs
        there from now on, but for those known here at a later epoch (a notice held up in a
        backlog through an outage can come after the table moved on again)."""
        moved = self._moves_news(notice)
        if not moved:
            return
        owner = next(iter(moved.values())).name
        for table_id, taker in moved.items():
            self._remember_owner(table_id, taker)
        self._give_up_calls_to_former_owners(moved)
        if owner != self.core.origin:
            self.let_go_of([t for t in moved if t in self.core.tables
                            and not self.core.leases.owns(t)])
        for listener, follows in list(self._remote.items()):
            for table_id, held in list(follows.items()):
                if table_id in moved and held.owner != owner:
                    self.core.spawn(self._follow_again(listener, table_id, held))

    def _moves_news(self, notice: dict[str, Any]) -> dict[str, Owner]:
        """The tables a moves notice says were taken, by their new owner, leaving out those
        known here at a later epoch, and this process's own notices of tables it has lost
        since: old news. (At the same epoch it tells of the owner known: it is taken again,
        for the verbs sent to an owner before that one.) A notice of a process of an
        earlier version has no epochs: it is taken as news at the epoch known, as it was
        then."""
        origin, table_ids = notice.get("origin"), notice.get("tables")
        if not isinstance(origin, str) or not isinstance(table_ids, list):
            return {}
        epochs = notice.get("epochs")
        if not isinstance(epochs, list) or len(epochs) != len(table_ids):
            epochs = [None] * len(table_ids)
        news: dict[str, Owner] = {}
        for table_id, epoch in zip(table_ids, epochs, strict=True):
            if not isinstance(table_id, str) or (origin == self.core.origin
                                                 and not self.core.leases.owns(table_id)):
                continue
            known = self._known_epoch(table_id)
            if type(epoch) is not int:
                news[table_id] = Owner(origin, max(known, 0))
            elif epoch >= known:
                news[table_id] = Owner(origin, epoch)
        return news

    def _known_epoch(self, table_id: str) -> int:
        """The epoch of the table's owner as known here (-1: not known)."""
        newest = self._newest.get(table_id, -1)
        if self.core.leases.owns(table_id):  # (a later owner may be heard of before the
            return max(newest, self.core.leases.epochs.get(table_id, 0))  # loss is seen)
        return newest

    def _give_up_calls_to_former_owners(self, moved: dict[str, Owner]) -> None:
        """Verbs sent to these tables' former owners (other processes, at an epoch no later
        than the new owner's) are answered ``reconnecting`` now rather than at
        :data:`CALL_TIMEOUT`: their new owner took each one from the stored record, fencing
        the former owner's writes (chat lines too) off, so a verb it had not made by then is
        never made, and one it made is in the record the new owner plays on (a repeatable
        verb goes to the new owner at once). A verb sent to the new owner itself is
        answered by it."""
        for pending in self._calls.values():
            taker = moved.get(pending.table_id)
            if (taker is not None and pending.owner.name != taker.name
                    and pending.owner.epoch <= taker.epoch and not pending.answer.done()):
                pending.answer.set_exception(reconnecting())

    async def _follow_again(self, listener: Listener, table_id: str, held: Follow) -> None:
        """Follow a table again where it is owned now. A table that closed or may no longer
        be seen is gone for the connection, as if it had been sent away; one still between
        owners is looked for again later."""
        if self._remote.get(listener, {}).get(table_id) is not held or held.looking:
            return  # unfollowed, followed again meanwhile, or being followed again now
        held.looking = True
        try:
            await self.open(listener, held.player, table_id, held.invite)
        except RoomError as error:
            if error.code == ErrorCode.RECONNECTING:
                held.owner = None
                return
            self._remote.get(listener, {}).pop(table_id, None)
            self._followed.get(listener, {}).pop(table_id, None)
            listener.deliver({"type": "error", "seq": None, "code": error.code,
                              "message": error.message, "quota": None})
        finally:
            held.looking = False

    async def keep(self) -> None:
        """Every :data:`RECHECK` seconds: follow again the tables whose new owner is not yet
        known (the notice of their move was lost), and, back on the bus after a time off
        it, every table followed elsewhere (what was sent meanwhile was lost)."""
        bus = self.core.bus
        joins = bus.joins
        while True:
            await asyncio.sleep(RECHECK)
            if bus.joined and bus.joins != joins:
                joins = bus.joins
                if self.rejoined is not None:
                    self.core.spawn(self.rejoined())
                for follows in self._remote.values():
                    for held in follows.values():
                        held.owner = None  # what it was sent meanwhile was lost
            due = [(listener, table_id, held) for listener, follows in self._remote.items()
                   for table_id, held in follows.items()
                   if held.owner is None or not self._heard(held.owner)]
            for listener, table_id, held in due[:REFOLLOW_BATCH]:
                self.core.spawn(self._follow_again(listener, table_id, held))

    # -- the process channel ----------------------------------------------------------------------

    def send(self, origin: str, item: dict[str, Any]) -> None:
        """Queue an item for another process; what is queued in one turn of the event loop
        goes in one notice, in order."""
        batch = self._outgoing.get(origin)
        if batch is None:
            batch = self._outgoing[origin] = []
            asyncio.get_running_loop().call_soon(self._flush, origin)
        batch.append(item)

    async def send_alone(self, origin: str, item: dict[str, Any]) -> None:
        """Send an item to another process in a notice of its own (a big one)."""
        await self.core.bus.publish(process_channel(origin), {"from": self.core.origin,
                                                              "items": [item]})

    def _flush(self, origin: str) -> None:
        items = self._outgoing.pop(origin, [])
        if items:
            self.core.bus.post(process_channel(origin), {"from": self.core.origin,
                                                         "items": items})

    async def _on_message(self, data: bytes) -> None:
        """A notice on this process's channel: its items in order. A delivery's message is
        handed on as its owner encoded it, never decoded here."""
        try:
            notice = _decode_notice(data)
        except msgspec.ValidationError:
            log.warning("ignored a notice on this process's channel that is not one")
            return
        self._silent.pop(notice.origin, None)
        for raw in notice.items:
            head = _decode_head(raw)
            if head.kind == "view":
                listener = (self._by_key.get(head.to) if type(head.to) is int and head.text
                            else None)
                if listener is not None:
                    listener.deliver(Relayed(bytes(head.text).decode()))
            else:
                self._handle_item(_decode_item(raw))

    def _handle_item(self, item: dict[str, Any]) -> None:
        kind = item.get("kind")
        if kind == "deliver":  # a view as a string: from a process of the release before
            listener = self._by_key.get(item["to"])
            if listener is not None:
                listener.deliver(Relayed(item["text"]))
        elif kind == "answer":
            self._settle(item)
        elif kind == "call":
            self.core.spawn(self._answer(item))
        elif kind == "unfollow":
            proxy = self._proxies.get((item["from"], item["conn"]))
            if proxy is not None:
                self.followers.unfollow(proxy, item["table_id"])
        elif kind == "gone":
            self._drop_proxy(item["from"], item["conn"])
        elif kind == "left":
            self._owner_unknown(self._by_key.get(item["to"]), {item["table_id"]})
        elif isinstance(kind, str) and kind in self._kinds:
            self._kinds[kind](item)
