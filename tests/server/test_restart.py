"""After a restart, a restored table's seated player is served before its bots play on."""

from __future__ import annotations

import asyncio

from cardroom.tools.client import Client
from tests.server.helpers import alone_with_bots, my_turn


async def test_restored_tables_wait_for_their_player_before_the_bots_play_on(
        server_factory) -> None:
    server = server_factory(**{"bot-delay": 3})
    client, token, table = await alone_with_bots(server.url, "Back", seat=0)
    update = await client.wait_for(table, my_turn)
    acted = await client.act(table, update["view"]["legal_actions"][0])
    # Killed while the bots wait to answer; back with bots that act at once, but only once
    # the players of restored tables have had their moment to come back.
    server.kill()
    await client.close()
    server.extra += ["--bot-delay", "0", "--resume-delay", "30"]
    server.start()
    async with Client(server.url) as watcher:
        await watcher.register("Watcher")
        await asyncio.sleep(3)
        assert await watcher.open(table) is None
        assert watcher.tables[table]["version"] == acted["version"]
    async with Client(server.url) as again:
        await again.hello(token)
        assert await again.open(table) == 0
        # The player is back: the bots play on at once, well before the resume delay ends.
        await again.wait_for(table, lambda u: u["version"] > acted["version"], timeout=20)
