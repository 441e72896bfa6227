"""Private tables and seats kept for friends, tried as an attacker would: a private table is
not in the lobby, and without its invite secret it answers exactly as a table that does not
exist, to opening, joining a seat by id, taking a bot's seat over and its rules page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardroom.tables.room import Room, RoomError
from cardroom.web.app import ServerConfig, create_app
from tests.server.helpers import known_players
from tests.server.test_play_now import Tab


async def refused(code: str, call) -> RoomError:  # type: ignore[no-untyped-def]
    """The RoomError ``call()`` raises, checked to have ``code``."""
    with pytest.raises(RoomError) as error:
        await call()
    assert error.value.code == code, error.value.message
    return error.value


async def test_a_private_table_is_unlisted_and_reached_only_with_its_invite(room: Room) -> None:
    ann, bob, eve = known_players(room, "Ann", "Bob", "Eve")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    assert room.rows.summary(table.id) is not None
    await room.table_settings(ann, table.id, True, None, None)
    secret = table.settings.invite
    assert secret is not None and len(secret) >= 32  # 192 bits, URL-safe
    assert room.rows.summary(table.id) is None
    page = room.lobby()
    assert table.id not in {row["table_id"] for row in page["tables"]}

    nowhere = await refused("no_such_table", lambda: room.open(Tab(), eve, "f" * 12))
    for guess in (None, "", "x" * 32, secret[:-1], secret + "x", secret.upper()):
        error = await refused("no_such_table", lambda g=guess: room.open(Tab(), eve, table.id, g))
        assert error.message == nowhere.message  # the same answer as no table at all
        await refused("no_such_table", lambda g=guess: room.join(eve, table.id, 1, g))
    assert table.seat_of(eve) is None and not table.listeners

    tab = Tab()
    assert await room.open(tab, bob, table.id, secret) is None
    assert tab.received[0]["invite"] is None  # only the creator's messages carry it
    await room.join(bob, table.id, 1, secret)
    assert table.seat_of(bob) == 1
    creator = Tab()
    await room.open(creator, ann, table.id)
    assert creator.received[0]["invite"] == secret and creator.received[0]["private"]


async def test_only_the_creator_changes_the_settings_and_a_revoked_link_stops_working(
        room: Room) -> None:
    ann, bob, carl = known_players(room, "Ann", "Bob", "Carl")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    await room.join(bob, table.id, 1)
    for call in (lambda: room.table_settings(bob, table.id, True, None, None),
                 lambda: room.invite(bob, table.id, False),
                 lambda: room.reserve_seat(bob, table.id, 2, True)):
        await refused("not_creator", call)
    await room.table_settings(ann, table.id, True, None, None)
    old = table.settings.invite
    new = await room.invite(ann, table.id, False)
    assert new and new != old
    await refused("no_such_table", lambda: room.open(Tab(), carl, table.id, old))
    assert await room.invite(ann, table.id, True) is None
    await refused("no_such_table", lambda: room.open(Tab(), carl, table.id, new))
    await room.open(Tab(), bob, table.id)  # a seated player needs no link
    await refused("bad_message", lambda: room.table_settings(ann, table.id, None, None, 2))


async def test_an_invite_seats_its_holder_on_its_side(room: Room) -> None:
    ann, bob = known_players(room, "Ann", "Bob")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    await room.table_settings(ann, table.id, True, None, 0)  # Ann's side: seats 0 and 2
    secret = table.settings.invite
    await refused("seat_taken", lambda: room.join(bob, table.id, 1, secret))
    await room.join(bob, table.id, 2, secret)
    assert table.seat_of(bob) == 2


async def test_a_reserved_seat_waits_for_a_friend(room: Room) -> None:
    ann, bob, eve = known_players(room, "Ann", "Bob", "Eve")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    await room.reserve_seat(ann, table.id, 2, True)
    assert table.summary()["seats"][2]["reserved"]
    await refused("seat_taken", lambda: room.add_bot(ann, table.id, 2, None))
    await refused("seat_taken", lambda: room.join(eve, table.id, 2))
    await room.start_with_bots(ann, table.id, None)
    assert table.status == "waiting" and table.seats[2].empty  # waits for the friend
    secret = await room.invite(ann, table.id, False)
    await room.join(bob, table.id, 2, secret)
    assert table.status == "playing" and table.seat_of(bob) == 2


async def test_nobody_takes_a_bot_over_at_a_private_table_without_the_link(room: Room) -> None:
    ann, bob, eve = known_players(room, "Ann", "Bob", "Eve")
    table = room.tables[await room.play_now(ann, "500", "online")]
    await room.table_settings(ann, table.id, True, None, None)
    await refused("no_such_table", lambda: room.join(eve, table.id, 1))
    await room.join(bob, table.id, 1, table.settings.invite)
    assert table.seats[1].successor is bob


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app in process, its room on a SQLite file of its own."""
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'room.sqlite3'}"))
    with TestClient(app) as client:
        yield client


def test_a_private_tables_rules_page_and_lobby_row_are_not_served(web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]
    (ann,) = known_players(room, "Ann")

    async def make() -> str:
        table = await room.create_table(ann, "online", {}, 0, None, None)
        await room.table_settings(ann, table.id, True, None, None)
        return table.id

    table_id = web.portal.call(make)  # type: ignore[attr-defined]
    assert web.get(f"/rules/table/{table_id}").status_code == 404
    assert web.get(f"/rules/table/{table_id}?invite=guess").status_code == 404
    secret = room.tables[table_id].settings.invite
    assert web.get(f"/rules/table/{table_id}", params={"invite": secret}).status_code == 200
    rows = web.get("/api/lobby").json()["tables"]
    assert table_id not in {row["table_id"] for row in rows}


async def test_a_table_made_private_or_with_a_new_link_sends_strangers_away(room: Room) -> None:
    """Whoever followed a table while it was open, or with a link since renewed or
    revoked, stops following it (told it is gone) and hears none of its chat."""
    ann, spy, bob = known_players(room, "Ann", "Spy", "Bob")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    spying, ann_tab = Tab(), Tab()
    await room.open(spying, spy, table.id)
    await room.open(ann_tab, ann, table.id)
    await room.table_settings(ann, table.id, True, None, None)
    assert spying not in table.listeners and ann_tab in table.listeners
    assert spying.received[-1]["type"] == "error"
    assert spying.received[-1]["code"] == "no_such_table"
    await refused("no_such_table",
                  lambda: room.say(spying, spy, table.id, "9.9.9.9", "hi", None, None))
    friend = Tab()
    await room.open(friend, bob, table.id, table.settings.invite)
    await room.say(ann_tab, ann, table.id, "1.2.3.4", "meet at nine", None, None)
    assert any(m["type"] == "chat" for m in friend.received)
    assert not any(m["type"] == "chat" for m in spying.received)
    renewed = await room.invite(ann, table.id, False)
    assert friend not in table.listeners  # the old link no longer admits him
    again = Tab()
    await room.open(again, bob, table.id, renewed)
    assert again in table.listeners


async def test_a_stranger_gets_no_such_table_from_every_request_at_a_private_table(
        room: Room) -> None:
    ann, eve = known_players(room, "Ann", "Eve")
    table = await room.create_table(ann, "online", {}, 0, None, None, private=True)
    assert table.settings.private and table.settings.invite
    calls = [lambda: room.leave(eve, table.id),
             lambda: room.act(eve, table.id, "pass"),
             lambda: room.hint(eve, table.id),
             lambda: room.say(Tab(), eve, table.id, "9.9.9.9", "hi", None, None),
             lambda: room.invite(eve, table.id, False),
             lambda: room.reserve_seat(eve, table.id, 1, True),
             lambda: room.add_bot(eve, table.id, 1, None),
             lambda: room.start_with_bots(eve, table.id, None),
             lambda: room.table_settings(eve, table.id, None, None, 5)]
    for call in calls:
        await refused("no_such_table", call)


async def test_the_lobby_names_only_tables_it_listed_as_removed(room: Room) -> None:
    """A private table never had a row, so no watcher ever learns its id; a table made
    private is removed once."""
    import asyncio

    ann, bob = known_players(room, "Ann", "Bob")
    watcher = Tab()
    room.watch_lobby(watcher)
    hidden = await room.create_table(ann, "online", {}, 0, None, None, private=True)
    listed = await room.create_table(bob, "online", {}, 0, None, None)
    await asyncio.sleep(0.4)
    await room.table_settings(bob, listed.id, True, None, None)
    await room.join(ann, listed.id, 1, listed.settings.invite)
    await asyncio.sleep(0.4)
    said = str(watcher.received)
    assert hidden.id not in said
    removed = [t for m in watcher.received if m["type"] == "lobby_update" for t in m["removed"]]
    assert removed == [listed.id]


async def test_an_invite_for_one_side_cannot_take_over_the_other_sides_bot(room: Room) -> None:
    ann, bob = known_players(room, "Ann", "Bob")
    table = room.tables[await room.play_now(ann, "500", "online")]
    await room.table_settings(ann, table.id, True, None, 0)
    await refused("seat_taken", lambda: room.join(bob, table.id, 1, table.settings.invite))
    await room.join(bob, table.id, 2, table.settings.invite)
    assert table.seats[2].successor is bob


def test_the_access_log_never_holds_an_invite_secret() -> None:
    """The rules page of a private table is asked for with ``?invite=SECRET``; uvicorn's
    access log line keeps the path and drops the secret."""
    import logging

    from cardroom.web.server import HideInviteSecrets, log_config

    config = log_config()
    assert "hide_invites" in config["handlers"]["access"]["filters"]
    assert config["filters"]["hide_invites"]["()"] is HideInviteSecrets
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", "/rules/table/ab12?invite=s3cr3t-X_&x=1",
                                "1.1", 200), None)
    assert HideInviteSecrets().filter(record)
    line = record.getMessage()
    assert "s3cr3t" not in line and "/rules/table/ab12?invite=…&x=1" in line
