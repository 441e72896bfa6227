"""Table changes sent as patches (``table_patch``): a connection that asks for them gets one
whole ``table`` message when it opens a table, then each change as what changed; applied in
order they rebuild exactly the messages a connection without patches receives, in one
process, across processes, and after a message lost on the way (the client opens the table
again)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, cast

import msgspec
import pytest

from cardroom.protocol import TableUpdate
from cardroom.table_patches import apply_table_patch, table_patch
from cardroom.tables.model import Relayed, RoomSettings
from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.room import Room
from cardroom.tools.client import Client
from tests.server.helpers import QUICK, HeldTables, close_all, known_players, register_clients
from tests.server.test_shared_room import rooms, seat_four  # noqa: F401 (the fixture)
from tests.shapes import check_message


@pytest.fixture
def room_settings() -> RoomSettings:
    """Bots that play at once, and the next match dealt at once."""
    return RoomSettings(bot_workers=1, disconnect_grace=3600, default_bot="simple",
                        bot_delay=0, next_match_delay=0,
                        quotas=QuotaSettings(tables_per_player=10_000, tables=100_000))


class Tab:
    """A connection as a browser tab holds a table: the whole messages it was sent, and with
    ``patches`` each patch applied to the message before it (one that does not fit is
    counted, as the client would open the table again)."""

    def __init__(self, patches: bool) -> None:
        self.patches = patches
        self.whole: list[dict[str, Any]] = []
        """Each table message as the tab holds it after it came (patches applied)."""
        self.sent_bytes = 0
        self.tables = HeldTables()

    def deliver(self, message: dict[str, Any] | Relayed) -> None:
        text = message.text.encode() if isinstance(message, Relayed) else msgspec.json.encode(
            message)
        self.sent_bytes += len(text)
        decoded = json.loads(text)  # as the socket sends it
        check_message(decoded)
        whole = self.tables.take(decoded)
        if whole is not None:
            self.whole.append(whole)

    @property
    def patched(self) -> int:
        return self.tables.patched

    @property
    def misfits(self) -> int:
        return self.tables.misfits

    @property
    def latest(self) -> dict[str, Any]:
        return self.whole[-1]


def _as_sent(message: Any) -> Any:
    return json.loads(msgspec.json.encode(message))


async def _play_out(room: Room, table_id: str, player: Any, seat: int, rng: random.Random,
                    matches: int) -> None:
    """Play the player's seat at random beside the table's bots until ``matches`` matches
    have ended."""
    table = room.tables[table_id]
    for _ in range(20_000):
        game = table.game
        if game is not None and game.is_over and table.match_number >= matches:
            return
        if game is not None and not game.is_over and game.to_act == seat:
            await room.act(player, table_id, rng.choice(game.legal_actions()).text)
        else:
            await asyncio.sleep(0.005)
    raise AssertionError("the matches did not end")


@pytest.mark.parametrize(("game", "preset", "options"), [
    ("500", "online", QUICK), ("1000", "seed", {"target": 200, "barrel": 80})])
async def test_patches_rebuild_every_message_of_whole_matches(room: Room, game: str,
                                                              preset: str,
                                                              options: dict[str, Any]) -> None:
    """A seated player and a spectator, each on two tabs (one taking patches), through two
    matches with their deals, bids, tricks, scores and the next match's start: after every
    change both tabs hold the same message, and the patches are a small part of the bytes."""
    rng = random.Random(7)
    player, watcher = known_players(room, "Seated", "Watcher")
    table = await room.create_table(player, preset, options, 0, None, "simple", game=game)
    tabs = {(who, patches): Tab(patches) for who in ("seated", "watcher")
            for patches in (False, True)}
    for (who, _), tab in tabs.items():
        await room.open(tab, player if who == "seated" else watcher, table.id)
    await room.start_with_bots(player, table.id, None)
    await _play_out(room, table.id, player, 0, rng, matches=2)
    for who in ("seated", "watcher"):
        whole, patched = tabs[who, False], tabs[who, True]
        assert patched.misfits == 0
        opened = patched.whole[0]["version"]  # the tabs opened one after the other
        assert patched.whole == [m for m in whole.whole if m["version"] >= opened]
        # every change after the opening came as a patch; how many changes there were depends
        # on how the bots' moves fell into batches, but the player alone made one per card
        assert patched.patched == len(patched.whole) - 1 > 20
        assert patched.latest == _as_sent(table.update_for(0 if who == "seated" else None))
        assert patched.sent_bytes * 3 < whole.sent_bytes  # what changed is a small part


def test_a_patch_names_the_message_it_builds_on() -> None:
    """A patch fits only the version it was built against; an older or newer message held
    (one lost on the way) gets ``None``, and a version that did not move on gets no patch."""
    before = cast("TableUpdate", {"type": "table", "table_id": "t", "version": 3,
                                  "seats": [], "view": {"hand": ["AS"], "phase": "bidding"}})
    after = cast("TableUpdate", {**before, "version": 5,
                                 "view": {"phase": "play", "trick": []}})
    patch = table_patch(before, after)
    assert patch is not None
    assert patch["set"] == {} and patch["view_unset"] == ["hand"]
    assert patch["view_set"] == {"phase": "play", "trick": []}
    assert apply_table_patch(before, patch) == after
    assert apply_table_patch(cast("TableUpdate", {**before, "version": 4}), patch) is None
    assert apply_table_patch(None, patch) is None
    assert table_patch(after, cast("TableUpdate", {**after, "seats": [1]})) is None
    waiting = cast("TableUpdate", {**after, "version": 6, "view": None})
    gone = table_patch(after, waiting)
    assert gone is not None and gone["set"] == {"view": None}
    assert apply_table_patch(after, gone) == waiting


async def test_a_follower_on_another_process_rebuilds_the_owners_messages(rooms) -> None:  # noqa: F811
    """The owner builds the patches of a connection on the other process; a patch lost with
    the bus does not fit the message held, and opening the table again brings a whole one
    that the next patches fit."""
    hub, a, b = rooms
    table_id, players = await seat_four(a, b)
    tab = Tab(patches=True)
    assert await b.open(tab, players[1], table_id) == 1

    async def act_and_wait(times: int) -> None:
        for _ in range(times):
            game = a.tables[table_id].game
            await a.act(players[game.to_act], table_id, game.legal_actions()[0].text)
        target = a.tables[table_id].version
        for _ in range(100):
            if tab.whole[-1]["version"] >= target or hub.lose:
                return
            await asyncio.sleep(0.02)

    await act_and_wait(3)
    assert tab.patched >= 3 and tab.misfits == 0
    assert tab.latest == _as_sent(a.tables[table_id].update_for(1))
    hub.lose = True
    await act_and_wait(1)
    await asyncio.sleep(0.2)  # (notices go out in tasks of their own)
    hub.lose = False
    await act_and_wait(1)
    for _ in range(50):
        if tab.misfits:
            break
        await asyncio.sleep(0.02)
    assert tab.misfits >= 1  # built on the message that was lost
    await b.open(tab, players[1], table_id)
    await act_and_wait(2)
    assert tab.latest == _as_sent(a.tables[table_id].update_for(1))


async def test_a_client_whose_message_was_lost_opens_the_table_again(server) -> None:
    """Over real sockets: the client that takes patches holds the same messages as one that
    does not; when what it holds is not what the next patch was built on, it opens the table
    again by itself and is whole once more."""
    clients, tokens = await register_clients(server.url, ["Host"])
    host = clients[0]
    patched = Client(server.url, patches=True)
    patched.keep_all = True
    await patched.connect()
    await patched.hello(tokens[0])
    try:
        table = await host.create_table(seat=0)
        await patched.open(table)
        await host.start_with_bots(table)

        def my_turn(update: dict[str, Any]) -> bool:
            view = update["view"]
            return view is not None and view["to_act"] == 0 and bool(view["legal_actions"])

        acted = 0
        for turn in range(6):
            update = await patched.wait_for(
                table, lambda u: my_turn(u) and u["version"] > acted)  # noqa: B023
            acted = update["version"]
            if turn == 3:  # as if the message before had been lost between the servers
                patched.tables[table] = {**update, "version": update["version"] - 1}
            await patched.act(table, update["view"]["legal_actions"][0])
        update = await patched.wait_for(table, lambda u: my_turn(u) and u["version"] > acted)
        await host.wait_for(table, lambda u: u["version"] == update["version"])
        assert patched.reopened == 1 and patched.patches_refused >= 1
        assert patched.tables[table] == host.tables[table]
        assert any(m["type"] == "table_patch" for m in patched.received)
    finally:
        await close_all([*clients, patched])
