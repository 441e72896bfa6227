"""`cardroom loadtest`: a few tables for a few seconds, one server killed and restarted on the
way, and the record checked at the end."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from unittest import mock

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.tools import loadtest as loadtest_module
from cardroom.tools.loadtest import LoadRun, LoadTable, run_load, start_servers
from tests.conftest import SHARED_REDIS, SHARED_REDIS_URL
from tests.server.pg import fresh_schema


def _figure(output: str, name: str) -> str:
    """The value of the report's first row naming ``name``, its wrapped lines joined."""
    lines = output.splitlines()
    first = next(index for index, line in enumerate(lines) if name in line)
    value = [lines[first].split("│")[2].strip()]
    for line in lines[first + 1:]:
        cells = line.split("│")
        if len(cells) < 4 or cells[1].strip():
            break
        value.append(cells[2].strip())
    return " ".join(value)


def test_loadtest_with_a_kill_loses_nothing_and_reports_its_figures() -> None:
    result = CliRunner().invoke(app, ["loadtest", "--tables", "3", "--duration", "15",
                                      "--pace", "full", "--kill-every", "3",
                                      "--drop-rate", "0.05"])
    assert result.exit_code == 0, result.output
    output = result.output
    assert int(_figure(output, "servers killed")) >= 1
    assert int(_figure(output, "reconnects")) >= 1
    assert _figure(output, "kill → each table's next change").startswith("p50 ")
    assert re.match(r"0 of [\d,]+$", _figure(output, "acknowledged actions missing"))
    assert _figure(output, "stuck tables") == "0"
    assert re.match(r"0 of \d+$", _figure(output, "matches replaying to other scores"))
    assert int(_figure(output, "actions").split()[0].replace(",", "")) > 0
    assert "p99" in output and "MiB" in output


def test_the_servers_bots_turns_are_timed_with_the_rooms_default_bot() -> None:
    """Two seats of each table played by the server's `search` bots (thinking in the bot
    workers, after a pause of 50 ms): the report says how long a player waits behind each
    bot's turn, and how many of their decisions ran lighter."""
    result = CliRunner().invoke(app, ["loadtest", "--tables", "2", "--duration", "12",
                                      "--pace", "full", "--bot-seats", "2",
                                      "--server-bot", "search", "--bot-delay", "0.05"])
    assert result.exit_code == 0, result.output
    assert _figure(result.output, "tables").endswith("2 server bots each, search)")
    turns = re.match(r"([\d,]+) turns: p50 (\d+) ms, p99 \d+ ms, max \d+ ms$",
                     _figure(result.output, "server bots' turns → next change"))
    assert turns is not None and int(turns.group(1).replace(",", "")) >= 4
    assert int(turns.group(2)) >= 50  # the pause comes first
    decided = re.match(r"([\d,]+): \d+% run lighter \(\d+% two levels lighter\)$",
                       _figure(result.output, "server bots' decisions"))
    assert decided is not None and int(decided.group(1).replace(",", "")) >= 4
    assert re.match(r"0 of [\d,]+$", _figure(result.output, "acknowledged actions missing"))


def test_loadtest_refuses_an_unknown_server_bot() -> None:
    result = CliRunner().invoke(app, ["loadtest", "--bot-seats", "1", "--server-bot", "nobody"])
    assert result.exit_code != 0 and "unknown bot 'nobody'" in result.output


def test_loadtest_refuses_to_kill_servers_it_did_not_start() -> None:
    result = CliRunner().invoke(app, ["loadtest", "--url", "ws://127.0.0.1:1/ws",
                                      "--kill-every", "5"])
    assert result.exit_code == 1
    assert "--kill-every" in result.output


def test_two_servers_ride_out_redis_being_killed_and_restarted() -> None:
    """Notices sent while Redis is down are lost: the servers must catch up from the database
    so that no table sticks and nothing acknowledged is missing. Redis stays up for 4 s
    between outages, twice the bus's longest wait before it tries again (``RETRY_CAP``), so
    that the tables can move between two outages on a loaded machine too."""
    with fresh_schema() as database_url:
        result = CliRunner().invoke(app, ["loadtest", "--tables", "2", "--duration", "14",
                                          "--pace", "full", "--servers", "2",
                                          "--database-url", database_url,
                                          "--stop-redis-every", "4", "--stop-redis-for", "1"])
    assert result.exit_code == 0, result.output
    output = result.output
    assert int(_figure(output, "Redis stopped").split()[0]) >= 2
    # Both tables moved again after the first outage at least.
    waits = re.search(r"max [\d.]+ s \((\d+) waits\)$",
                      _figure(output, "Redis back → next change"))
    assert waits is not None and int(waits.group(1)) >= 2
    assert re.match(r"0 of [\d,]+$", _figure(output, "acknowledged actions missing"))
    assert _figure(output, "stuck tables") == "0"
    assert int(_figure(output, "actions").split()[0].replace(",", "")) > 0


@SHARED_REDIS
def test_relay_only_puts_every_table_at_the_first_server_and_every_client_on_the_second(
        ) -> None:
    """The measure of what relaying costs: the second server owns nothing, and its CPU per
    action is reported beside the owner's."""
    with fresh_schema() as database_url:
        result = CliRunner().invoke(app, ["loadtest", "--tables", "2", "--duration", "5",
                                          "--pace", "full", "--servers", "2",
                                          "--database-url", database_url,
                                          "--redis-url", SHARED_REDIS_URL, "--relay-only"])
    assert result.exit_code == 0, result.output
    output = result.output
    owned = re.findall(r"tables_owned (\d+)", output)
    assert sorted(owned) == ["0", "2"], output
    assert re.match(r"[\d.]+ ms, [\d.]+ ms \(\d+% of the owner's\)",
                    _figure(output, "CPU per action: owner, relay"))
    assert re.match(r"0 of [\d,]+$", _figure(output, "acknowledged actions missing"))
    refused = CliRunner().invoke(app, ["loadtest", "--relay-only"])
    assert refused.exit_code == 1 and "--relay-only" in refused.output


def test_a_long_runs_memory_is_shown_at_evenly_spaced_minutes_ending_with_the_last() -> None:
    from cardroom.tools.loadtest import memory_trend

    half_hour = [(minute * 60.0, (300 + minute) * 1024) for minute in range(31)]
    assert memory_trend(half_hour) == ("0 min 300, 5 min 305, 10 min 310, 15 min 315, "
                                       "20 min 320, 25 min 325, 30 min 330 MiB")
    odd = [(minute * 60.0, 200 * 1024) for minute in range(9)]
    assert memory_trend(odd).endswith("8 min 200 MiB")


@SHARED_REDIS
async def test_bots_at_a_killed_owners_tables_play_on_from_another_process(
        shared_database, tmp_path: Path) -> None:
    """Two servers, tables with the server's bots in two seats: the first kill takes the
    tables the killed server owned to the other when their leases end (or to itself, back
    from its restart), and every table plays on; nothing acknowledged is lost."""
    servers = start_servers(2, shared_database, SHARED_REDIS_URL, tmp_path)
    try:
        run = LoadRun(urls=[s.url for s in servers], tables=4, duration=20, think=0.0,
                      bot_seats=2, server_bot="simple", kill_every=5, servers=servers,
                      database_url=shared_database)
        await run_load(run)
    except BaseException:
        for server in servers:  # shown with the failure: what the servers said meanwhile
            print(f"--- {server.log.name}:\n{server.log.read_text()[-4000:]}")
        raise
    finally:
        for server in servers:
            server.stop()
    assert run.kills >= 1
    # Every table moved again after the first kill (the last kill's may still wait).
    assert sorted(kill for kill, _ in run.stats.recoveries).count(1) == run.tables
    assert run.verdict.checked and not run.verdict.missing and not run.verdict.mismatched
    assert run.verdict.matches >= 1 and not run.verdict.stuck
    assert all(len(bench.players) == 2 for bench in run.benches)


def test_a_bots_turn_is_timed_to_its_move_and_left_out_when_a_kill_fell_in_it() -> None:
    """A change of who is connected during a bot's turn does not end it; its move does; a
    turn during which a server was killed is not counted."""
    run = LoadRun(urls=[], tables=1, duration=1.0, bot_seats=3)
    table = LoadTable(run, 0)

    def message(version: int, to_act: int, *events: str) -> dict[str, Any]:
        return {"table_id": "", "version": version, "status": "playing",
                "view": {"to_act": to_act}, "events": [{"type": e, "seat": 2} for e in events]}

    record = table.arrival(0)
    clock = [0.0]
    with mock.patch.object(loadtest_module.time, "perf_counter", lambda: clock[0]):
        for at, update in ((10.0, message(1, 1, "play")),  # seat 1's bot is to act
                           (10.5, message(2, 1, "offline")),  # still its turn
                           (11.25, message(3, 2, "play"))):  # it played; seat 2's is to act
            clock[0] = at
            record(update)
        run.kills += 1
        clock[0] = 12.0
        record(message(4, 3, "play"))  # a kill fell in seat 2's turn: not counted
    assert run.stats.bot_turns == [1.25]


def test_kill_waits_that_a_redis_outage_overlapped_are_told_apart() -> None:
    """A kill's wait counts as Redis-crossed when an outage overlaps it at all (one still
    going counts until the end, one over until the servers may all have tried Redis again),
    and as a failover alone otherwise."""
    from cardroom.bus.redis import RETRY_CAP
    from cardroom.tools.loadtest import figures, recoveries_by_redis

    run = LoadRun(urls=[], tables=1, duration=1.0, kill_every=10.0)
    run.kills = 4
    back = 109.0 + RETRY_CAP  # when every server may have joined the bus again
    run.kill_times = [100.0, back - 0.5, back + 1.0, 130.0]
    run.redis_outages = [(104.0, 109.0), (135.0, None)]
    run.stats.recoveries = [
        (1, 3.0),   # 100–103: before the first outage
        (1, 4.5),   # 100–104.5: the outage began meanwhile
        (2, 0.2),   # just after Redis answered, before every server may have joined again
        (3, 2.0),   # after the servers came back
        (4, 4.0),   # 130–134: before the second
        (4, 6.0),   # 130–136: the second, never ended, began meanwhile
    ]
    assert recoveries_by_redis(run) == ([3.0, 2.0, 4.0], [4.5, 0.2, 6.0])
    rows = dict(figures(run))
    assert rows["… Redis up throughout the wait"].endswith("max 4.0 s (3 waits)")
    assert rows["… Redis down during the wait"].endswith("max 6.0 s (3 waits)")
