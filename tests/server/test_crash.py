"""Nothing acknowledged is lost: SIGKILL the server anywhere, restart, play on."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cardroom.tools.client import Client
from cardroom.tools.processes import process_stat
from tests.server.helpers import STOP_POINTS, act_until, alone_with_bots, survives_a_kill


def _same_bidding(before: dict[str, Any], after: dict[str, Any]) -> None:
    view = after["view"]
    if view["hand_number"] == before["hand_number"]:
        assert view["bidding"][:len(before["bidding"])] == before["bidding"]


@pytest.mark.parametrize("point", STOP_POINTS)
async def test_sigkill_and_restart_keeps_every_acknowledged_action(server, point) -> None:
    # Bots hold seats 1-3; the kill comes at the point, or after six hands if it never shows.
    await survives_a_kill(
        server, lambda client: client.create_table(seat=0, rules={"target": 2000,
                                                                  "lose_at": -2000}),
        seat=0, point=point, hands=6, check=_same_bidding)


async def test_a_server_killed_between_matches_starts_the_next_one_after_restart(
        server_factory) -> None:
    server = server_factory(**{"next-match-delay": 2})
    client, token, table = await alone_with_bots(server.url, "Between", seat=0,
                                                 rules={"target": 50, "lose_at": -50})
    await act_until(client, table, lambda u: len(u["matches"]) >= 1, [])
    server.kill()
    await client.close()
    server.start()
    async with Client(server.url) as again:
        await again.hello(token)
        await again.open(table)
        update = await again.wait_for(table, lambda u: u["match_number"] == 2, timeout=20)
        assert update["status"] == "playing"
        assert update["matches"][0]["winner"] in (0, 1)


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (read from /proc)."""
    return {int(entry.name) for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and process_stat(int(entry.name))[1:2] == [str(pid)]}


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    found = _children(pid)
    for child in set(found):
        found |= _descendants(child)
    return found


def _alive(pid: int) -> bool:
    """Running, not gone and not a zombie waiting to be reaped."""
    state = process_stat(pid)[:1]
    return bool(state) and state != ["Z"]


def test_a_killed_servers_bot_workers_end_with_it(server) -> None:
    """A server killed outright cannot shut its bot workers down; they must notice and end,
    or a hundred crashes leave hundreds of idle workers holding memory."""
    deadline = time.monotonic() + 30  # they start beside the server's own start
    while len(workers := _descendants(server.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)  # (the workers' fork server, then the workers it forks)
    assert len(workers) >= 3, "the server runs its bots in worker processes"
    server.kill()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.2)
    assert not [w for w in workers if _alive(w)]
