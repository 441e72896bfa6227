"""The daily challenge through a real server: two players enter it over the WebSocket, get the
same first deal, one plays every deal and the other a few, and the HTTP leaderboard, archive
and history say what each of them may see."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from cardroom.tools.client import Client, ClientError
from tests.server.helpers import close_all, my_turn, register_clients

DEALS = 8
"""500's deals a day."""


def get(server: Any, path: str, token: str | None = None) -> tuple[int, Any]:
    """GET a JSON document as the player holding ``token``: the status and the body."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, None


async def aget(server: Any, path: str, token: str | None = None) -> tuple[int, Any]:
    return await asyncio.to_thread(get, server, path, token)


def deals_over(update: dict[str, Any], deals: int) -> bool:
    """The table's first ``deals`` deals are over (match ``n`` is deal ``n``)."""
    number = update.get("match_number") or 0
    return number > deals or (number == deals and update["status"] != "playing")


async def play_deals(client: Client, table_id: str, deals: int) -> None:
    """Play the first legal action on every turn until ``deals`` deals are over."""
    for _ in range(5000):
        update = await client.wait_for(
            table_id, lambda u: deals_over(u, deals) or my_turn(u), timeout=60)
        if deals_over(update, deals):
            return
        await client.act(table_id, update["view"]["legal_actions"][0])
    raise AssertionError("the deals never ended")


def row_of(board: dict[str, Any], player_id: str | None) -> dict[str, Any]:
    return next(row for row in board["rows"] if row["player_id"] == player_id)


@pytest.fixture
def server(server_factory: Any) -> Any:
    return server_factory(**{"challenge-bot": "random", "next-match-delay": 0, "bot-delay": 0,
                             "max-lookups-per-minute": 10_000})


async def test_two_players_play_the_same_deals_and_see_what_they_may(server: Any) -> None:
    clients, tokens = await register_clients(server.url, ["Ann", "Bob"])
    ann, bob = clients
    ann_token, bob_token = tokens
    try:
        assert ann.welcome and bob.welcome
        ann_id, bob_id = ann.welcome["player_id"], bob.welcome["player_id"]
        ann_entry = await ann.request("daily_challenge", game="500")
        bob_entry = await bob.request("daily_challenge", game="500")
        ann_table, bob_table = ann_entry["table_id"], bob_entry["table_id"]
        assert ann_table != bob_table and ann_entry["seat"] == bob_entry["seat"] == 0

        # The same first deal for both: seat 0's hand.
        def has_hand(update: dict[str, Any]) -> bool:
            return (bool(update.get("view")) and update["match_number"] == 1
                    and len(update["view"]["hand"]) >= 10)

        ann_first = await ann.wait_for(ann_table, has_hand)
        bob_first = await bob.wait_for(bob_table, has_hand)
        assert sorted(ann_first["view"]["hand"]) == sorted(bob_first["view"]["hand"])
        # The table message says it is a challenge's (a table screen hides Leave and Invite).
        assert ann_first["challenge"]["game"] == "500"
        assert ann_first["challenge"]["deals"] == DEALS

        # The table is the player's all day: no leaving, no sharing.
        for refused in (bob.leave(bob_table), bob.invite(bob_table),
                        bob.table_settings(bob_table, private=False)):
            with pytest.raises(ClientError) as error:
                await refused
            assert error.value.code == "challenge_table"
        # Entering again is the same entry.
        assert (await bob.request("daily_challenge", game="500"))["table_id"] == bob_table
        with pytest.raises(ClientError) as error:
            await bob.request("daily_challenge", game="bridge")
        assert error.value.code == "bad_rules"

        await play_deals(ann, ann_table, DEALS)
        await play_deals(bob, bob_table, 3)
        with pytest.raises(ClientError) as error:
            await ann.request("daily_challenge", game="500")
        assert error.value.code == "challenge_played"

        # The bots' own result comes in the background.
        for _ in range(300):
            status, board = await aget(server, "/api/challenge?game=500", ann_token)
            assert status == 200
            if board["bots_ready"]:
                break
            await asyncio.sleep(0.1)
        today = board["today"]
        assert board["day"] == today and board["game"] == "500" and board["deals"] == DEALS
        assert board["bots_ready"] and not board["over"] and board["entries"] == 2

        # Ann, who has played every deal, sees everybody's deals and entries' tables.
        assert board["deals_shown"]
        ann_row, bob_row = row_of(board, ann_id), row_of(board, bob_id)
        bots_row = row_of(board, None)
        assert bots_row["bots"] and bots_row["name"] == "The bots" and bots_row["played"] == DEALS
        assert bots_row["table_id"] is None
        assert ann_row["played"] == DEALS and bob_row["played"] == 3
        assert ann_row["table_id"] == ann_table and bob_row["table_id"] == bob_table
        assert len(ann_row["deals"]) == DEALS and all(ann_row["deals"])
        assert [deal is not None for deal in bob_row["deals"]] == [True] * 3 + [False] * 5
        for row in (ann_row, bob_row, bots_row):
            assert row["total"] == pytest.approx(sum(d[1] for d in row["deals"] if d), abs=0.05)
        # Ranks follow the totals (then the points), best first.
        ordered = sorted(board["rows"], key=lambda r: (-r["total"], -r["points"]))
        assert [row["rank"] for row in board["rows"]] == [row["rank"] for row in ordered]
        assert board["rows"][0]["rank"] == 1
        for better, worse in itertools.pairwise(ordered):
            tie = (better["total"], better["points"]) == (worse["total"], worse["points"])
            assert (worse["rank"] == better["rank"]) if tie else worse["rank"] > better["rank"]
        # Her own entry: every deal played, and the table closed after the last.
        assert board["you"] == {"played": DEALS, "rank": ann_row["rank"], "table_id": None}
        assert board["you_row"] == ann_row and board["total_rows"] == 3

        # Bob, who has not finished, sees who plays and how far they got, his own row whole,
        # but nobody else's rank, score, deals or table.
        status, seen = await aget(server, "/api/challenge?game=500", bob_token)
        assert status == 200 and not seen["deals_shown"] and seen["entries"] == 2
        hidden = row_of(seen, ann_id)
        assert hidden["played"] == DEALS and hidden["name"] == "Ann"
        assert all(hidden[key] is None for key in ("rank", "total", "points", "deals", "table_id"))
        assert row_of(seen, bob_id) == seen["you_row"] == bob_row
        assert seen["you"] == {"played": 3, "rank": bob_row["rank"], "table_id": bob_table}
        # A stranger sees no deals and has no entry.
        status, anonymous = await aget(server, "/api/challenge?game=500")
        assert status == 200 and anonymous["you"] is None and not anonymous["deals_shown"]

        # Replays: Ann may watch Bob's deals; Bob may not watch Ann's yet.
        assert (await aget(server, f"/api/replays/{bob_table}/1", ann_token))[0] == 200
        assert (await aget(server, f"/api/replays/{ann_table}/1", bob_token))[0] == 404
        assert (await aget(server, f"/api/replays/{ann_table}/{DEALS}", ann_token))[0] == 200

        # Today's day named, a future one, a bad one, an unknown game.
        tomorrow = (datetime.date.fromisoformat(today) + datetime.timedelta(days=1)).isoformat()
        assert (await aget(server, f"/api/challenge?game=500&day={today}", ann_token))[0] == 200
        assert (await aget(server, f"/api/challenge?game=500&day={tomorrow}"))[0] == 404
        assert (await aget(server, "/api/challenge?game=500&day=yesterday"))[0] == 404
        assert (await aget(server, "/api/challenge?game=bridge"))[0] == 404
        assert (await aget(server, "/api/challenge/days?game=bridge"))[0] == 404

        # The archive lists past days only: none yet.
        status, days = await aget(server, "/api/challenge/days?game=500")
        assert status == 200 and days == {"game": "500", "today": today, "days": []}

        # Each player's history lists today's entry: how far they got (the rank comes once
        # the day is over).
        for player_id, row in ((ann_id, ann_row), (bob_id, bob_row)):
            status, history = await aget(server, f"/api/challenge/players/{player_id}?game=500")
            assert status == 200 and history["player_id"] == player_id
            [entry] = history["days"]
            assert entry["day"] == today and entry["deals"] == DEALS
            assert entry["played"] == row["played"] and not entry["over"]
        status, history = await aget(server, f"/api/challenge/players/{ann_id}?game=1000")
        assert status == 200 and history["days"] == []
    finally:
        await close_all(clients)
