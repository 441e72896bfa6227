"""Bug reports keep the player's words, the table's record and the client's state."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cardroom.tools.client import Client, ClientError
from tests.server.helpers import my_turn


async def test_bug_report_is_stored_and_listed(server) -> None:
    async with Client(server.url) as client:
        await client.register("Reporter")
        table = await client.create_table(seat=0)
        await client.start_with_bots(table)
        await client.wait_for(table, my_turn)
        number = await client.report_bug("The joker vanished", table_id=table,
                                          client_state={"screen": "bidding"})
        assert number >= 1
        with pytest.raises(ClientError) as refused:
            await client.report_bug("again")
        assert refused.value.code == "already_reported"
    listing = subprocess.run(
        [sys.executable, "-m", "cardroom", "bugs", "--database-url",
         f"sqlite:///{server.database}"], capture_output=True, text=True, check=True,
        env={**os.environ, "COLUMNS": "200"})
    assert "The joker vanished" in listing.stdout
    assert "Reporter" in listing.stdout
    assert table in listing.stdout


HOSTILE = ["[/nope]", "[link=http://x]y[/link]", "[bold red]loud", "\x1b[31mred",
           "\x1b]8;;http://x\x07click\x1b]8;;\x07", "\u202eright-to-left", "back\\slash",
           "carriage\rreturn", "C1\x9bcsi"]
"""Player text that Rich markup or a terminal would act on."""


def test_bug_listing_shows_player_text_as_plain_visible_text(tmp_path) -> None:
    """Markup is printed as written, control characters as escapes, and a report after the
    hostile ones is still listed: no report can hide the others or reach the terminal."""
    import asyncio

    from cardroom.games.record import Record
    from cardroom.store.data import NewBugReport
    from cardroom.store.db import Store

    url = f"sqlite:///{tmp_path / 'bugs.sqlite3'}"

    async def fill() -> None:
        store = await Store.open(url)
        try:
            for n, text in enumerate(HOSTILE):
                await store.add_bug(NewBugReport(
                    table_id=f"t{n}{text}", player_id=f"p{n}", player_name=f"n{n}{text}",
                    description=f"d{n}{text}", record=None,
                    client_state={"screen": f"s{n}{text}"}, created_at=1_700_000_000.0))
            await store.add_bug(NewBugReport(
                table_id="plain-table", player_id="p", player_name="Plain Reporter",
                description="The joker vanished",
                record=Record(game="500", rules={}, seed=1, dealer=0, actions=["pass", "pass"],
                              seats=[1, 2]),
                client_state={"screen": "bidding"}, created_at=1_700_000_100.0))
        finally:
            await store.close()

    asyncio.run(fill())
    listing = subprocess.run(
        [sys.executable, "-m", "cardroom", "bugs", "--database-url", url],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "1000",
                                             "FORCE_COLOR": "1", "TERM": "xterm-256color"})
    assert listing.returncode == 0, listing.stderr
    out = listing.stdout
    assert "The joker vanished" in out and "Plain Reporter" in out and "plain-table" in out
    for shown in ("[/nope]", "[link=http://x]y[/link]", "[bold red]loud", "\\x1b[31mred",
                  "\\x1b]8;;http://x\\x07click\\x1b]8;;\\x07", "\\u202eright-to-left",
                  "back\\\\slash", "carriage\\rreturn", "C1\\x9bcsi"):
        assert out.count(shown) >= 3, shown  # as the name, the description and the table
    # The client state is shown as JSON, with JSON's escapes.
    assert '{"screen":"s3\\u001b[31mred"}' in out
    assert '{"screen":"s5\\u202eright-to-left"}' in out
    # Nothing of the players' reaches the terminal as a control sequence: no hyperlink, no
    # colour they chose, no bell, carriage return, C1 control or direction override.
    assert "\x1b]8" not in out and "\x07" not in out and "\r" not in out
    assert "\x1b[31m" not in out and "\x9b" not in out and "\u202e" not in out
