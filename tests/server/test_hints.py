"""Hints at casual tables: the search bot's suggestion for the seat to act, from its own view,
changing nothing; refused at other tables, out of turn and to spectators."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardroom.tools.client import Client, ClientError
from tests.server.helpers import close_all, my_turn, register_clients
from tests.shapes import check_message


def in_play(update: dict) -> bool:
    """My turn to play a card."""
    return my_turn(update) and update["view"]["phase"] == "play"


async def ask_and_check(client: Client, table: str, watcher: Client) -> dict:
    """Ask for a hint on my turn; check it is legal for my seat and changed nothing."""
    before = client.tables[table]
    view = before["view"]
    hint = await client.hint(table)
    assert hint["version"] == before["version"] and hint["seat"] == before["seat"]
    assert hint["explanation"]
    if view.get("discard_count"):
        put_back = hint["action"].split()[1:]
        assert hint["action"].startswith("discard ")
        assert len(put_back) == view["discard_count"]
        assert set(put_back) <= set(view["hand"])
    else:
        assert hint["action"] in view["legal_actions"]
    # The same answer went out as a ``hint`` message, before the ack.
    sent = [m for m in client.received if m.get("type") == "hint"]
    check_message(sent[-1])
    assert sent[-1]["action"] == hint["action"]
    # Nothing moved: asking again gives the same hint for the same version, and somebody
    # opening the table now sees the same version, still waiting for my seat.
    assert await client.hint(table) == hint
    assert await watcher.open(table) is None
    seen = watcher.tables[table]
    assert seen["version"] == before["version"]
    assert seen["view"]["to_act"] == before["seat"]
    assert client.tables[table]["version"] == before["version"]
    return hint


async def test_a_hint_at_a_casual_table_is_a_legal_action_that_changes_nothing(server) -> None:
    clients, _ = await register_clients(server.url, ["Hana", "Will"])
    hana, will = clients
    hana.keep_all = True
    try:
        table = await hana.create_table(preset="online", seat=0, hints=True)
        update = hana.tables[table]
        assert update["hints"] is True
        check_message(update)
        await hana.start_with_bots(table)
        kinds: set[str] = set()
        # Follow every hint to the first card play: bids, perhaps the kitty, then a card.
        while True:
            update = await hana.wait_for(table, my_turn, timeout=60)
            hint = await ask_and_check(hana, table, will)
            kinds.add(hint["action"].split()[0])
            if update["view"]["phase"] == "play":
                assert hint["action"].split()[1].split(":")[0] in update["view"]["hand"]
                result = await hana.act(table, hint["action"])
                assert result["action"] == hint["action"]
                assert result["version"] > update["version"]
                break
            await hana.act(table, hint["action"])
        assert "play" in kinds
    finally:
        await close_all(clients)


async def test_hints_are_refused_at_other_tables_out_of_turn_and_to_spectators(server) -> None:
    clients, _ = await register_clients(server.url, ["Ann", "Ben", "Cat"])
    ann, ben, cat = clients
    try:
        # A table that is not casual.
        plain = await ann.create_table(preset="online", seat=0)
        assert ann.tables[plain]["hints"] is False
        await ann.start_with_bots(plain)
        await ann.wait_for(plain, my_turn)
        with pytest.raises(ClientError) as refused:
            await ann.hint(plain)
        assert refused.value.code == "hints_disabled"

        # A casual table: the seat not to act, and a spectator, are refused.
        casual = await ann.create_table(preset="online", seat=0, hints=True)
        await ben.join(casual, 1)
        await ann.start_with_bots(casual)
        await cat.watch_lobby()
        lobby = await asyncio.wait_for(_lobby_with(cat, casual), 10)
        assert next(r for r in lobby["tables"] if r["table_id"] == casual)["hints"] is True
        await cat.open(casual)
        with pytest.raises(ClientError) as refused:
            await cat.hint(casual)
        assert refused.value.code == "not_at_table"
        for _ in range(40):
            update = await ann.wait_for(casual, lambda u: u["view"] is not None
                                        and u["view"]["to_act"] in (0, 1))
            waiting, acting = (ben, ann) if update["view"]["to_act"] == 0 else (ann, ben)
            with pytest.raises(ClientError) as refused:
                await waiting.hint(casual)
            assert refused.value.code == "not_your_turn"
            # Play on (with the hint) so both humans get turns.
            mine = await acting.wait_for(casual, my_turn)
            if mine["view"]["phase"] == "play":
                break
            await acting.act(casual, (await acting.hint(casual))["action"])
    finally:
        await close_all(clients)


async def _lobby_with(client: Client, table: str) -> dict[str, Any]:
    while True:
        if client.lobby and any(r["table_id"] == table for r in client.lobby["tables"]):
            check_message(client.lobby)
            return client.lobby
        await asyncio.sleep(0.05)
