"""500 at tables of two, three, five and six: seats and sides from the rules, bots in every empty
seat, whole hands over real WebSockets (the five-handed partner call included), the lobby's
rows and presets, and a six-seat table killed mid-trick that comes back with every action."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.games.five_hundred import ALL_PRESET_NAMES
from cardroom.tools.client import ClientError
from tests.server.helpers import (
    hand_scored,
    lobby_row,
    play_seat,
    registered_client,
    survives_a_kill,
)
from tests.shapes import check_message

SIDES = {
    "two-handed": [[0], [1]],
    "three-handed": [[0], [1], [2]],
    "five-handed": [[0], [1], [2], [3], [4]],
    "six-handed": [[0, 2, 4], [1, 3, 5]],
}


def called(update: dict) -> bool:
    """Five players: the contractor has called its partners."""
    view = update.get("view")
    return bool(view) and bool(view["called"]) and view["phase"] != "call"


class Opener:
    """Opens the bidding with the cheapest trick bid, so the first hand has a contract (and a
    partner call) whatever the bots hold; a simple bot's choices after that."""

    def __init__(self) -> None:
        self.simple = make_bot("simple")

    def choose(self, view: dict[str, Any]) -> str:
        if view["phase"] == "bidding" and not any(
                entry["seat"] == view["seat"] for entry in view["bidding"]):
            trick_bids = [a for a in view["legal_actions"] if a[4:5].isdigit()]
            if trick_bids:
                return trick_bids[0]
        return self.simple.choose(view)


@pytest.mark.parametrize("preset", list(SIDES))
async def test_one_player_and_bots_play_a_hand_at_every_table_size(server, preset) -> None:
    async with registered_client(server.url, "Pat") as client:
        await client.watch_lobby()
        table = await client.create_table(preset=preset, seat=1)
        row = await lobby_row(client, table)
        players = len(SIDES[preset]) if preset != "six-handed" else 6
        assert row["game"] == "500" and row["preset"] == preset
        assert len(row["seats"]) == players and row["teams"] == SIDES[preset]
        assert row["scores"] == [0] * len(SIDES[preset])
        await client.start_with_bots(table)
        await play_seat(client, table, hand_scored, timeout=90)
        update = client.tables[table]
        check_message(update)
        view = update["view"]
        assert view["players"] == players and len(view["hand_sizes"]) == players
        assert view["teams"] == SIDES[preset]
        assert [s["bot"] for s in update["seats"]] == [
            None if seat == 1 else "simple" for seat in range(players)]
        hand = view["history"][0]
        assert len(hand["scores"]) == len(SIDES[preset]) == len(view["scores"])
        assert len(hand["tricks"]) == players
        if hand["contract"] is not None:
            assert sum(hand["tricks"]) == 10 or hand["made"] is not None


async def test_five_handed_contractor_calls_a_partner(server) -> None:
    """Whoever wins the bidding at a five-seat table names a card; everyone sees the call."""
    async with registered_client(server.url, "Caller") as client:
        table = await client.create_table(preset="five-handed", seat=0,
                                          rules={"misere": False, "open_misere": False})
        await client.start_with_bots(table)
        await play_seat(client, table, called, timeout=90, bot=Opener())
        view = client.tables[table]["view"]
        bid = view["contract"]["bid"]
        assert len(view["called"]) == (2 if int(bid.rstrip("SCDHNT")) >= 8 else 1)
        assert view["contract"]["contractor"] in view["contract_side"]
        assert set(view["partners"]) <= set(range(5)) - {view["contract"]["contractor"]}


async def test_presets_offered_and_impossible_rules_refused(server) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/rules",
                                timeout=10) as response:
        catalogue = json.load(response)
    assert list(catalogue["presets"]) == list(ALL_PRESET_NAMES)
    assert catalogue["presets"]["six-handed"]["players"] == 6
    names = {option["name"] for option in catalogue["options"]}
    assert {"players", "six_handed_teams", "hi_lo", "slam_call", "joker_suit_nomination"} \
        <= names
    async with registered_client(server.url, "Picky") as client:
        for preset, rules, words in [
                ("online", {"players": 6}, "63"),
                ("three-handed", {"nello": True}, "partner"),
                ("six-handed", {"six_handed_teams": "three_teams_of_two", "deck": "45"}, "45")]:
            with pytest.raises(ClientError) as refused:
                await client.create_table(preset=preset, rules=rules)
            assert refused.value.code == "bad_rules" and words in str(refused.value), rules
        table = await client.create_table(
            preset="six-handed", rules={"six_handed_teams": "three_teams_of_two"}, seat=5)
        await client.watch_lobby()
        row = await lobby_row(client, table)
        assert row["teams"] == [[0, 3], [1, 4], [2, 5]] and row["preset"] is None


async def test_a_six_seat_table_killed_mid_trick_comes_back(server) -> None:
    def same_hand(before: dict[str, Any], after: dict[str, Any]) -> None:
        view = after["view"]
        assert view["players"] == 6 and len(after["seats"]) == 6
        if view["hand_number"] == before["hand_number"]:
            assert view["hand"] == before["hand"] or view["tricks"]

    await survives_a_kill(
        server, lambda client: client.create_table(preset="six-handed", seat=3,
                                                   rules={"target": 2000, "lose_at": -2000}),
        seat=3, point="mid-trick", hands=3, check=same_hand)
