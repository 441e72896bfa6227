"""Bug reports keep the player's words, the table's record and the client's state."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cardroom.client import Client, ClientError
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
