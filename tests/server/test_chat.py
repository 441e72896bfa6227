"""Table chat: the players' line and the spectators', quick phrases and reactions, typed chat
the creator may turn off, history on opening, lines kept with the table, and the limits, tried
as a flooder and a forger would: nothing said is trusted, and a refused line is neither kept
nor sent."""

from __future__ import annotations

import pytest

from cardroom.protocol import CHAT_MAX
from cardroom.tables.chat import PHRASES, REACTIONS, clean_text
from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.room import Room, RoomError, RoomSettings
from cardroom.tools.client import ClientError
from tests.server.helpers import known_players, registered_clients
from tests.server.test_play_now import Tab
from tests.shapes import check_message


@pytest.fixture
def room_settings() -> RoomSettings:
    """Bots that wait (no test here needs their moves); the default chat limits."""
    return RoomSettings(bot_workers=1, disconnect_grace=3600, default_bot="simple", bot_delay=60,
                        quotas=QuotaSettings(tables_per_player=100))


def chat_lines(tab: Tab) -> list[dict]:
    """Every chat line a connection was sent, in order."""
    return [line for message in tab.received if message["type"] == "chat"
            for line in message["lines"]]


async def test_players_and_spectators_speak_on_their_own_lines_to_everyone_following(
        room: Room) -> None:
    ann, bob, sue = known_players(room, "Ann", "Bob", "Sue")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    await room.join(bob, table.id, 1)
    tabs = {name: Tab() for name in ("ann", "bob", "sue")}
    for player in (ann, bob, sue):
        await room.open(tabs[player.id], player, table.id)
    await room.say(tabs["ann"], ann, table.id, "1.2.3.4", "Good  luck\u202e all\n", None, None)
    await room.say(tabs["sue"], sue, table.id, "1.2.3.5", None, "well_played", None)
    await room.say(tabs["bob"], bob, table.id, "1.2.3.6", None, None, "thumbs_up")
    for tab in tabs.values():
        lines = chat_lines(tab)
        assert [(line["name"], line["seat"], line["channel"], line["kind"], line["text"])
                for line in lines] == [
            ("Ann", 0, "players", "text", "Good luck all"),
            ("Sue", None, "spectators", "phrase", PHRASES["well_played"]),
            ("Bob", 1, "players", "reaction", REACTIONS["thumbs_up"])]
        for message in tab.received:
            check_message(message)
    kept = await room.store.chat_lines(table.id)
    assert [line.text for line in kept] == ["Good luck all", "Well played!", "👍"]

    late = Tab()
    await room.open(late, bob, table.id)  # a refresh: the history comes with the table
    assert [line["text"] for line in chat_lines(late)] == [line.text for line in kept]


async def test_refused_lines_are_neither_kept_nor_sent(room: Room) -> None:
    ann, eve = known_players(room, "Ann", "Eve")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    tab = Tab()
    await room.open(tab, ann, table.id)
    cases = [
        (Tab(), eve, ("hi", None, None), "not_at_table"),  # follows nothing
        (tab, ann, ("\u200b\u202e\n\t ", None, None), "bad_message"),  # nothing visible
        (tab, ann, (None, "I hold the joker", None), "bad_message"),  # no free-form phrase
        (tab, ann, (None, None, "<script>"), "bad_message"),
    ]
    for listener, player, (text, phrase, reaction), code in cases:
        with pytest.raises(RoomError) as refused:
            await room.say(listener, player, table.id, "1.2.3.4", text, phrase, reaction)
        assert refused.value.code == code
    await room.table_settings(ann, table.id, None, False, None)
    with pytest.raises(RoomError) as refused:
        await room.say(tab, ann, table.id, "1.2.3.4", "my partner has the joker", None, None)
    assert refused.value.code == "chat_off"
    await room.say(tab, ann, table.id, "1.2.3.4", None, "good_luck", None)
    assert [line["text"] for line in chat_lines(tab)] == ["Good luck!"]
    assert len(await room.store.chat_lines(table.id)) == 1


async def test_a_flood_is_cut_off_with_a_typed_error(room: Room) -> None:
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    tab = Tab()
    await room.open(tab, ann, table.id)
    said = 0
    with pytest.raises(RoomError) as refused:
        for said in range(100):
            await room.say(tab, ann, table.id, "1.2.3.4", f"line {said}", None, None)
    assert refused.value.code == "quota_exceeded" and refused.value.quota == "chat"
    assert said == 5  # a quarter of the minute's 20 in ten seconds
    assert len(chat_lines(tab)) == 5


def test_clean_text_keeps_words_and_drops_what_could_disguise_them() -> None:
    assert clean_text("  Nice\thand,\r\npartner  ") == "Nice hand, partner"
    assert clean_text("a\u202eb\u200bc\u0007d\ue000e") == "abcde"
    assert clean_text("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # joiners stay
    assert clean_text("\u3164 \u2800\u200d") == ""  # fillers that draw nothing
    assert clean_text("x" + "\u0301" * 150) == "x\u0301\u0301"
    assert clean_text("Müller 🂡 ♠") == "Müller 🂡 ♠"
    assert clean_text("<b>bold</b>") == "<b>bold</b>"  # shown as text by the clients


async def test_malformed_and_oversized_chat_get_bad_message_over_the_socket(server) -> None:
    async with registered_clients(server.url, "Ann") as (ann,):
        table = await ann.create_table(seat=0)
        await ann.open(table)
        for fields in ({"text": "x" * (CHAT_MAX + 1)}, {}, {"text": "a", "phrase": "thanks"},
                       {"text": 7}, {"phrase": ["thanks"]}, {"text": "", "reaction": None}):
            with pytest.raises(ClientError) as refused:
                await ann.request("chat", table_id=table, **fields)
            assert refused.value.code == "bad_message", fields
        await ann.say(table, text="x" * CHAT_MAX)
        await ann.say(table, phrase="thanks")
        await ann.request("ping")  # the lines were sent before this answer
        assert [line["text"] for line in ann.chat[table]] == ["x" * CHAT_MAX, "Thanks!"]


async def test_the_chat_is_replayed_with_the_tables_matches(room: Room, tmp_path) -> None:
    """`cardroom history` replays a table's matches from the database, each with what was
    said during it, player text shown as plain text."""
    import asyncio

    from typer.testing import CliRunner

    from cardroom.cli import app

    ann, sue = known_players(room, "Ann", "Sue")
    table = await room.create_table(ann, "online", {}, 0, None, None)
    ann_tab, sue_tab = Tab(), Tab()
    await room.open(ann_tab, ann, table.id)
    await room.say(ann_tab, ann, table.id, "1.2.3.4", "Shall we?", None, None)
    await room.start_with_bots(ann, table.id, None)
    await room.open(sue_tab, sue, table.id)
    await room.say(sue_tab, sue, table.id, "1.2.3.5", "[bold]hi[/bold]", None, None)
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    result = await asyncio.to_thread(CliRunner().invoke, app, ["history", table.id,
                                                                "--database-url", url])
    assert result.exit_code == 0, result.output
    output = result.output
    assert output.index("Chat before the first match") < output.index("Ann: Shall we?")
    assert output.index("Match 1") < output.index("Chat during match 1")
    assert "Sue (watching): [bold]hi[/bold]" in output  # shown as typed, not as markup
    missing = await asyncio.to_thread(CliRunner().invoke, app, ["history", "nowhere",
                                                                 "--database-url", url])
    assert missing.exit_code != 0 and "no matches and no chat" in missing.output
