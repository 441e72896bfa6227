"""Two rooms (as two server processes would) share one database over a bus that can lose
notices: each table's verbs run at its owner and its views are relayed to the other room's
connections; the compare-and-set on the table's version keeps one history, and a room that
missed a notice catches up from the action log."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cardroom.bus.memory import Handler, InProcessBus, RawHandler, Unheard
from cardroom.store.db import Store
from cardroom.tables import relay as relay_module
from cardroom.tables import replays
from cardroom.tables import rows as rows_module
from cardroom.tables import sync as sync_module
from cardroom.tables.core import TABLE_CHANNEL
from cardroom.tables.model import Relayed
from cardroom.tables.room import Player, Room, RoomError, RoomSettings


class Hub:
    """Pub/sub between rooms in one event loop; ``lose`` drops every notice meanwhile, and a
    bus in ``cut`` neither sends nor hears anything (its process is dead to the others)."""

    def __init__(self) -> None:
        self.handlers: dict[str, list[tuple[LinkedBus, Handler]]] = {}
        self.lose = False
        self.cut: set[LinkedBus] = set()

    def bus(self) -> LinkedBus:
        return LinkedBus(self)


class LinkedBus:
    """One room's end of the hub (not an InProcessBus: the room knows it is shared)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._joined = True
        self.joins = 1
        self.unheard: list[Unheard] = []
        self._posting: set[asyncio.Task[None]] = set()

    @property
    def joined(self) -> bool:
        return self._joined

    @joined.setter
    def joined(self, joined: bool) -> None:
        self.joins += joined and not self._joined
        self._joined = joined

    async def publish(self, channel: str, notice: dict[str, Any]) -> None:
        if not self.hub.lose and self not in self.hub.cut:
            heard = [handler for bus, handler in list(self.hub.handlers.get(channel, ()))
                     if bus not in self.hub.cut]
            if not heard:
                for unheard in self.unheard:
                    unheard(channel, msgspec.json.encode(notice))
            for handler in heard:
                await handler(notice)

    post = InProcessBus.post  # (its handlers in a task, as in one process)
    _posted = InProcessBus._posted

    def on_unheard(self, handler: Unheard) -> None:
        self.unheard.append(handler)

    def subscribe(self, channel: str, handler: Handler) -> None:
        self.hub.handlers.setdefault(channel, []).append((self, handler))

    def subscribe_raw(self, channel: str, handler: RawHandler) -> None:
        async def encoded(notice: dict[str, Any]) -> None:
            await handler(msgspec.json.encode(notice))

        self.subscribe(channel, encoded)

    async def close(self) -> None:
        pass


class Follower:
    """A connection following a table: keeps what it is sent (read as the socket would
    send it: a message relayed from another process comes encoded)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.relayed = 0

    def deliver(self, message: dict[str, Any] | Relayed) -> None:
        if isinstance(message, Relayed):
            self.relayed += 1
            message = json.loads(message.text)
        self.messages.append(message)

    @property
    def latest(self) -> dict[str, Any]:
        return [m for m in self.messages if m.get("type") == "table"][-1]


@pytest.fixture
async def rooms(tmp_path: Path, monkeypatch) -> AsyncIterator[tuple[Hub, Room, Room]]:
    monkeypatch.setattr(sync_module, "SWEEP", 0.2)
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    hub = Hub()
    settings = RoomSettings(bot_delay=0, bot_workers=1, lease_seconds=1.5,
                            disconnect_grace=60)
    made = []
    for _ in range(2):
        store = await Store.open(url)
        room = Room(store, settings, hub.bus())
        await room.start()
        made.append(room)
    yield hub, made[0], made[1]
    for room in made:
        await room.stop()
        await room.store.close()


async def seat_four(a: Room, b: Room, preset: str = "online") -> tuple[str, list[Player]]:
    players = [(await (a if n % 2 == 0 else b).register(f"P{n}"))[0] for n in range(4)]
    table = await a.create_table(players[0], preset, {}, 0, None, "simple")
    for n in range(1, 4):
        await (a if n % 2 == 0 else b).join(players[n], table.id, n)
    await settle(a, b, table.id)
    return table.id, players


def version_at(room: Room, table_id: str) -> int:
    """The version of the table's lobby row as ``room`` knows it: the table's where it holds
    it, else its row's (-1: it knows nothing of it)."""
    table = room.tables.get(table_id)
    if table is not None:
        return table.lobby_version
    row = room.rows.elsewhere.get(table_id)
    return -1 if row is None else row["version"]


async def settle(a: Room, b: Room, table_id: str) -> None:
    """Wait until one room holds the table and the other knows its row at the same version
    (notices are handled in tasks)."""
    for _ in range(100):
        held = [room for room in (a, b) if table_id in room.tables]
        if len(held) == 1 and version_at(a, table_id) == version_at(b, table_id):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the rooms did not agree")


async def test_a_verb_sent_to_a_process_that_does_not_own_the_table_runs_at_its_owner(
        rooms, monkeypatch) -> None:
    hub, a, b = rooms
    monkeypatch.setattr(relay_module, "CALL_TIMEOUT", 0.3)
    table_id, players = await seat_four(a, b)
    assert a.core.leases.owns(table_id) and not b.core.leases.owns(table_id)
    game = a.tables[table_id].game
    seat = game.to_act
    action = game.legal_actions()[0].text
    sent = b.relay.relayed
    result = await b.act(players[seat], table_id, action)
    assert result["number"] == 0 and b.relay.relayed == sent + 1
    assert [x.text for x in a.tables[table_id].game.actions] == [action]
    # A refusal at the owner comes back as the same typed error, changing nothing.
    with pytest.raises(RoomError) as refused:
        await b.act(players[seat], table_id, action)
    assert refused.value.code == "not_your_turn"
    # The owner cannot be reached: "reconnecting", and nothing is made.
    hub.lose = True
    now = a.tables[table_id].game.to_act
    with pytest.raises(RoomError) as lost:
        await b.act(players[now], table_id, a.tables[table_id].game.legal_actions()[0].text)
    assert lost.value.code == "reconnecting"
    stored = await a.store.load_table(table_id)
    assert [x.number for x in stored.actions] == [0]


async def test_a_verb_sent_to_a_dead_owner_runs_at_the_next_one(rooms, monkeypatch) -> None:
    """Nobody listens on a killed process's channel: a verb sent there was not received, so
    it waits for the table's next owner and runs there, rather than being answered
    ``reconnecting`` once the call times out."""
    hub, a, b = rooms
    monkeypatch.setattr(relay_module, "CALL_TIMEOUT", 0.5)
    table_id, players = await seat_four(a, b)
    hub.cut.add(a.bus)  # A dies to the others
    await a.core.cancel_tasks()
    game = a.tables[table_id].game
    result = await b.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    assert result["number"] == 0 and b.core.leases.owns(table_id)
    stored = await b.store.load_table(table_id)
    assert [x.number for x in stored.actions] == [0]


@pytest.mark.parametrize("verb", ["act", "say"])
async def test_a_verb_its_owner_took_and_never_answered_is_given_up_when_the_table_moves(
        rooms, monkeypatch, verb: str) -> None:
    """An owner that stalls after receiving a verb does not answer it. When another process
    takes the table over, the verb's sender says ``reconnecting`` at once rather than at the
    call's timeout, and the former owner, waking to run the verb after all, keeps nothing
    (its writes, chat lines too, are fenced off), so the player looks again and plays on at
    the new owner."""
    _hub, a, b = rooms
    monkeypatch.setattr(relay_module, "CALL_TIMEOUT", 600.0)
    table_id, players = await seat_four(a, b)
    await a.core.cancel_tasks()  # A renews no lease from now on ...
    held: list[dict[str, Any]] = []
    answer = a.relay._answer

    async def stall(call: dict[str, Any]) -> None:
        held.append(call)  # ... and answers nothing it receives, for now

    monkeypatch.setattr(a.relay, "_answer", stall)
    game = a.tables[table_id].game
    player, action = players[game.to_act], game.legal_actions()[0].text
    if verb == "act":
        sent = b.act(player, table_id, action)
    else:
        sent = b.say(Follower(), player, table_id, "1.2.3.4", "well played", None, None)
    with pytest.raises(RoomError) as moving:
        await asyncio.wait_for(sent, 30)
    assert moving.value.code == "reconnecting" and len(held) == 1
    assert b.core.leases.owns(table_id)
    await answer(held[0])  # A wakes and runs the verb it held
    stored = await b.store.load_table(table_id)
    assert not stored.actions and not await b.store.chat_lines(table_id)
    result = await b.act(player, table_id, action)  # looked again: it plays on at B
    assert result["number"] == 0


async def test_a_moves_notice_of_an_earlier_owner_gives_up_no_verb(rooms, monkeypatch) -> None:
    """A moves notice held up in a backlog through a Redis outage can come after its table
    moved on again. Its epoch is older than the owner's known here, so a verb waiting at
    the owner of now is not given up, the table is still sent verbs there, and the verb's
    answer comes as usual. A notice of a process of an earlier version, which has no
    epochs, is taken as news: the verb is given up, as before epochs, unless the notice
    comes from the process the verb went to."""
    _hub, a, b = rooms
    monkeypatch.setattr(relay_module, "CALL_TIMEOUT", 600.0)
    table_id, players = await seat_four(a, b)
    owner_epoch = a.core.leases.epoch(table_id)
    assert owner_epoch is not None
    held: list[dict[str, Any]] = []
    answer = a.relay._answer

    async def stall(call: dict[str, Any]) -> None:
        held.append(call)

    monkeypatch.setattr(a.relay, "_answer", stall)
    game = a.tables[table_id].game
    player, action = players[game.to_act], game.legal_actions()[0].text
    sent = asyncio.ensure_future(b.act(player, table_id, action))
    for _ in range(100):
        if held:
            break
        await asyncio.sleep(0.02)
    old_news = {"origin": "an-earlier-owner", "tables": [table_id],
                "epochs": [owner_epoch - 1]}
    await b.bus.publish(relay_module.MOVES_CHANNEL, old_news)
    await asyncio.sleep(0.1)
    assert not sent.done() and len(held) == 1
    assert b.relay._owners[table_id].name == a.core.origin
    assert table_id in a.tables and a.core.leases.owns(table_id)
    await answer(held[0])
    assert (await asyncio.wait_for(sent, 5))["number"] == 0
    # The same notice from a process of an earlier version (no epochs): news.
    game = a.tables[table_id].game
    sent = asyncio.ensure_future(b.act(players[game.to_act], table_id,
                                       game.legal_actions()[0].text))
    for _ in range(100):
        if len(held) == 2:
            break
        await asyncio.sleep(0.02)
    await b.bus.publish(relay_module.MOVES_CHANNEL, {"origin": a.core.origin,
                                                     "tables": [table_id]})
    await asyncio.sleep(0.1)
    assert not sent.done()  # from the owner the verb went to: it answers it
    await b.bus.publish(relay_module.MOVES_CHANNEL, {"origin": "an-earlier-owner",
                                                     "tables": [table_id]})
    with pytest.raises(RoomError) as given_up:
        await asyncio.wait_for(sent, 5)
    assert given_up.value.code == "reconnecting"


async def test_a_process_s_own_old_notice_does_not_point_a_lost_table_back_at_it(
        rooms, monkeypatch) -> None:
    """A process off the bus hands its table over (draining), and its own moves notice of
    that table, held in its backlog, goes out once it is back: the table stays with its new
    owner there, and its verbs from the first process run at the new owner."""
    hub, a, b = rooms
    monkeypatch.setattr(relay_module, "OWNER_WAIT", 3.0)
    table_id, players = await seat_four(a, b)
    epoch = a.core.leases.epoch(table_id)
    hub.cut.add(a.bus)  # A hears nothing of B's taking
    a.core.leases.drain()  # A hands its table over at its next renewal
    for _ in range(200):  # until B has said it took the table (A did not hear it)
        if b.relay._newest.get(table_id) == b.core.leases.epoch(table_id):
            break
        await asyncio.sleep(0.05)
    assert b.core.leases.owns(table_id) and not a.core.leases.owns(table_id)
    hub.cut.discard(a.bus)
    await a.bus.publish(relay_module.MOVES_CHANNEL, {"origin": a.core.origin,
                                                     "tables": [table_id], "epochs": [epoch]})
    await asyncio.sleep(0.1)
    assert table_id not in a.relay._owners or a.relay._owners[table_id].name != a.core.origin
    await settle(a, b, table_id)
    game = b.tables[table_id].game
    result = await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    assert result["number"] == 0 and b.core.leases.owns(table_id)


async def test_a_call_that_arrives_twice_is_run_once(rooms, monkeypatch) -> None:
    """A batch of notices Redis may have delivered before it failed is sent again in full:
    the owner takes each call once, so a chat line is not said twice."""
    _hub, a, b = rooms
    table_id, players = await seat_four(a, b)
    publish = LinkedBus.publish

    async def twice(bus: LinkedBus, channel: str, notice: dict[str, Any]) -> None:
        await publish(bus, channel, notice)
        if bus is b.bus and channel.startswith("process:"):
            await publish(bus, channel, notice)

    monkeypatch.setattr(LinkedBus, "publish", twice)
    await b.say(Follower(), players[1], table_id, "1.2.3.4", "only once", None, None)
    lines = await a.store.chat_lines(table_id, 10)
    assert [line.text for line in lines] == ["only once"]


async def test_a_row_that_comes_while_the_table_is_let_go_of_is_kept(rooms) -> None:
    """A notice of the new owner's row, waiting for the table while this process lets it go,
    leaves that row known here, not the row this process had."""
    _hub, a, b = rooms
    table_id, _players = await seat_four(a, b)
    table = a.tables[table_id]
    newer = copy.deepcopy(table.row())
    newer["version"] = table.version + 1
    newer["summary"]["bot_word"] = "the new owner's"
    notice = {"table_id": table_id, "origin": b.core.origin, "version": table.version + 1,
              "closed": False, "row": newer}
    async with table.lock:  # a verb under way at the old owner
        waiting = asyncio.ensure_future(a.sync.apply_notice(notice))
        await asyncio.sleep(0.05)
        a.core.leases.epochs.pop(table_id, None)  # meanwhile taken by B: let go of here
        a.relay.let_go_of([table_id])
    await waiting
    assert table_id not in a.tables
    assert a.rows.elsewhere[table_id]["summary"]["bot_word"] == "the new owner's"


async def test_a_deal_everybody_passed_reaches_the_other_process_row(rooms) -> None:
    """A deal thrown in (everybody passed) scores nothing yet ends a hand: the table is past
    its first hand, which play-now elsewhere must know (no bot's seat to take over then)."""
    _hub, a, b = rooms
    table_id, players = await seat_four(a, b, "australian")  # everybody passed: a new deal
    for _ in range(4):
        game = a.tables[table_id].game
        await a.act(players[game.to_act], table_id, "pass")
    table = a.tables[table_id]
    assert len(table.game.history) == 1
    await settle(a, b, table_id)
    assert version_at(b, table_id) == table.version


async def test_rows_asked_for_again_and_unchanged_leave_the_lobby_alone(rooms,
                                                                       monkeypatch) -> None:
    """The minute's look for stale rows asks for every table in play (its row's version is
    that of its last lobby change): an answer with a row as known changes nothing."""
    _hub, a, b = rooms
    table_id, players = await seat_four(a, b)
    game = a.tables[table_id].game
    await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    await settle(a, b, table_id)
    changed: list[str] = []
    b.core.on_lobby_change(changed.append)
    monkeypatch.setattr(rows_module, "STALE_CHECK", 0.1)
    asked = 0
    ask = b.rows.ask

    async def counted(table_ids: Any = None) -> None:
        nonlocal asked
        asked += 1
        await ask(table_ids)

    monkeypatch.setattr(b.rows, "ask", counted)
    for _ in range(100):
        if asked >= 2:
            break
        await asyncio.sleep(0.05)
    assert asked >= 2 and changed == []


async def test_every_follow_is_followed_again_after_time_off_the_bus(rooms,
                                                                    monkeypatch) -> None:
    """Back on the bus, every table followed elsewhere is followed again, a batch at a time:
    the owner may have dropped this process's connections meanwhile."""
    hub, a, b = rooms
    monkeypatch.setattr(relay_module, "REFOLLOW_BATCH", 1)
    table_id, players = await seat_four(a, b)
    followers = [Follower(), Follower()]
    for follower in followers:
        await b.open(follower, None, table_id)
    hub.lose, b.bus.joined = True, False
    a.relay._process_gone(b.core.origin)  # B was silent past the presence timeout
    hub.lose, b.bus.joined = False, True
    await asyncio.sleep(3 * relay_module.RECHECK)
    game = a.tables[table_id].game
    await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    target = a.tables[table_id].version
    for _ in range(100):
        if all(f.latest["version"] == target for f in followers):
            break
        await asyncio.sleep(0.05)
    assert [f.latest["version"] for f in followers] == [target, target]


async def test_a_connection_follows_a_table_owned_elsewhere_through_its_owner(rooms) -> None:
    """The views are built at the owner and come to the other process already encoded; a
    process that was off the bus follows its tables again once it is back."""
    hub, a, b = rooms
    table_id, players = await seat_four(a, b)
    follower = Follower()
    assert await b.open(follower, players[1], table_id) == 1
    assert follower.relayed and follower.latest["seat"] == 1
    assert follower in b.relay._remote and table_id not in b.tables  # B holds its row
    assert a.tables[table_id].seats[1].listeners == 1  # present, at the owner
    game = a.tables[table_id].game
    await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    for _ in range(50):
        if follower.latest["version"] == a.tables[table_id].version:
            break
        await asyncio.sleep(0.02)
    assert follower.latest["version"] == a.tables[table_id].version
    hub.lose, b.bus.joined = True, False
    for _ in range(3):
        game = a.tables[table_id].game
        await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    target = a.tables[table_id].version
    assert follower.latest["version"] < target
    hub.lose, b.bus.joined = False, True
    for _ in range(100):
        if follower.latest["version"] >= target and version_at(b, table_id) == version_at(
                a, table_id):
            break
        await asyncio.sleep(0.05)
    assert follower.latest["version"] == target
    assert version_at(b, table_id) == version_at(a, table_id)
    assert follower.latest["view"]["bidding"] == a.tables[table_id].update_for(1)["view"][
        "bidding"]
    # Closing the connection ends its follow at the owner: the seat is offline there.
    b.disconnect(follower)
    for _ in range(50):
        if a.tables[table_id].seats[1].listeners == 0:
            break
        await asyncio.sleep(0.02)
    assert a.tables[table_id].seats[1].listeners == 0


async def test_two_rooms_racing_for_the_same_turn_store_it_once(rooms) -> None:
    _, a, b = rooms
    table_id, players = await seat_four(a, b)
    game = a.tables[table_id].game
    seat = game.to_act
    action = game.legal_actions()[0].text
    outcomes = await asyncio.gather(a.act(players[seat], table_id, action),
                                    b.act(players[seat], table_id, action),
                                    return_exceptions=True)
    won = [o for o in outcomes if isinstance(o, dict)]
    assert len(won) == 1
    assert isinstance(next(o for o in outcomes if not isinstance(o, dict)), RoomError)
    stored = await a.store.load_table(table_id)
    assert [(x.number, x.seat) for x in stored.actions] == [(0, seat)]


async def test_a_table_loaded_twice_at_once_is_held_once(rooms) -> None:
    """Two verbs for a table just taken over, before its load is done, and a notice: one
    object, or a connection would follow a copy that never changes again."""
    hub, a, b = rooms
    hub.lose = True
    player = (await a.register("Maker"))[0]
    table = await a.create_table(player, "online", {}, 0, None, "simple")
    held = await asyncio.gather(
        b.sync.get_table(table.id), b.sync.get_table(table.id),
        b.sync.apply_notice({"table_id": table.id, "origin": "elsewhere",
                            "version": table.version}))
    assert held[0] is held[1] is b.tables[table.id]


async def test_chat_and_privacy_reach_the_other_process(rooms) -> None:
    """A line said in one process reaches the other's followers, and a table made private
    in one is private in the other (out of its lobby; its link works there, and only it)."""
    _hub, a, b = rooms
    ann = (await a.register("Ann"))[0]
    bob = (await b.register("Bob"))[0]
    table = await a.create_table(ann, "online", {}, 0, None, "simple")
    await settle(a, b, table.id)
    await a.table_settings(ann, table.id, True, None, None)
    await settle(a, b, table.id)
    assert b.rows.elsewhere[table.id]["private"] and b.rows.summary(table.id) is None
    with pytest.raises(RoomError):
        await b.open(Follower(), bob, table.id, "guess")
    tab = Follower()
    await b.open(tab, bob, table.id, table.settings.invite)
    await a.say(Follower(), ann, table.id, "1.2.3.4", "hello from A", None, None)
    for _ in range(100):
        if any(m.get("type") == "chat" for m in tab.messages):
            break
        await asyncio.sleep(0.02)
    assert [line["text"] for m in tab.messages if m.get("type") == "chat"
            for line in m["lines"]] == ["hello from A"]


async def test_a_room_knows_the_tables_it_does_not_hold_by_their_rows(rooms) -> None:
    """B holds none of A's tables, yet its lobby lists them, play-now seats B's player at A's
    waiting table, a player reconnecting through B finds their table, the room's limits count
    every table, and a row B lost is asked for again at its next sweep."""
    _, a, b = rooms
    ann = (await a.register("Ann"))[0]
    bob = (await b.register("Bob"))[0]
    table = await a.create_table(ann, "online", {}, 0, None, "simple")
    await settle(a, b, table.id)
    assert table.id not in b.tables
    lobby = b.lobby_feed.page(fresh=True)
    assert [(row["table_id"], row["seats"][0]["name"]) for row in lobby["tables"]] == [
        (table.id, "Ann")]
    assert await b.play_now(bob, "500", "online") == table.id
    assert table.seat_of(bob) == 1  # seated at A, where the table is
    await settle(a, b, table.id)
    assert b.tables_of(ann) == b.tables_of(bob) == [table.id]
    assert b.rows.counts(ann.id) == (1, 1) and b.rows.counts(bob.id) == (1, 0)
    del b.rows.elsewhere[table.id]
    for _ in range(100):
        if table.id in b.rows.elsewhere:
            break
        await asyncio.sleep(0.02)
    assert b.rows.elsewhere[table.id]["players"] == [ann.id, bob.id]


async def test_only_changes_of_the_lobby_row_reach_the_other_process(rooms) -> None:
    """A bid changes nothing the other process keeps of a table it does not own: nothing is
    published for it. A seat taken while that process was off the bus reaches its row once
    it is back, well before the minute after which it looks for stale rows."""
    hub, a, b = rooms
    table_id, players = await seat_four(a, b)
    published: list[dict[str, Any]] = []
    hub.handlers.setdefault(TABLE_CHANNEL, []).append((a.bus, _keep_in(published)))
    game = a.tables[table_id].game
    await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    await asyncio.sleep(0.1)
    assert published == []
    assert version_at(b, table_id) == version_at(a, table_id) < a.tables[table_id].version
    # B is away while a player leaves A's table (a bot takes the seat): B's row is stale
    # until B is back on the bus.
    hub.lose, b.bus.joined = True, False
    await a.leave(players[2], table_id)
    row_at_a = a.tables[table_id].row()
    assert b.rows.elsewhere[table_id]["summary"]["seats"] != row_at_a["summary"]["seats"]
    await asyncio.sleep(0.3)  # a sweep or more: a stale row is not asked for yet
    assert b.rows.elsewhere[table_id]["summary"]["seats"] != row_at_a["summary"]["seats"]
    hub.lose, b.bus.joined = False, True
    for _ in range(100):
        if b.rows.elsewhere[table_id]["summary"]["seats"] == row_at_a["summary"]["seats"]:
            break
        await asyncio.sleep(0.05)
    assert b.rows.elsewhere[table_id]["summary"]["seats"] == row_at_a["summary"]["seats"]
    assert version_at(b, table_id) == version_at(a, table_id)


def _keep_in(kept: list[dict[str, Any]]) -> Handler:
    async def keep(notice: dict[str, Any]) -> None:
        kept.append(notice)
    return keep


async def test_a_live_match_replayed_through_another_room_is_read_not_held(rooms) -> None:
    """A seated player's replay of the match being played, asked of a room that does not
    own the table, reads it back from the store: that room holds no copy afterwards."""
    _, a, b = rooms
    table_id, players = await seat_four(a, b)
    game = a.tables[table_id].game
    await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    found = await replays.find(b, players[1], table_id, 1, None)
    assert found is not None and found.seat == 1
    assert table_id not in b.tables


async def test_malformed_items_on_a_process_channel_are_skipped_and_the_rest_delivered(
        rooms) -> None:
    """A notice's items from another process are trusted no further than their shape: a
    view with no text, or addressed to no connection here (a key of another type, one
    unknown), is skipped, and the views after it still reach their connections."""
    _, a, _ = rooms
    follower = Follower()
    key = a.relay._key_of(follower, "elsewhere")
    items = [{"kind": "view", "to": key},  # no text
             {"kind": "view", "to": str(key), "text": {"type": "x"}},
             {"kind": "view", "to": True, "text": {"type": "x"}},
             {"kind": "view", "to": key + 1000, "text": {"type": "x"}},
             {"kind": "view", "to": key, "text": {"type": "pong", "n": 1}}]
    await a.relay._on_message(msgspec.json.encode({"from": "elsewhere", "items": items}))
    assert follower.messages == [{"type": "pong", "n": 1}] and follower.relayed == 1
