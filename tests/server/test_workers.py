"""The bot workers, with real worker processes: tables share them fairly, a table's waiting
decision is replaced by its newer one, an overrun is cut short by a quick bot's move and a
fresh worker, strong levels step down under a backlog, and workers end with their pool or its
server. No test compares a duration with a fixed threshold: they compare orders and counts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.games.five_hundred import Game
from cardroom.tables.workers import DEEP_BACKLOG, STEADY_TRIES, BotWorkers, Superseded
from cardroom.tools.processes import process_stat

WORKERS = 2


def nap(seconds: float, tag: str) -> str:
    """Sleep in a worker, then name the request (module-level, so it pickles)."""
    time.sleep(seconds)
    return tag


def hold(flag: str, tag: str) -> str:
    """Keep a worker busy until the test creates the file ``flag``, then name the request."""
    while not os.path.exists(flag):
        time.sleep(0.01)
    return tag


def nap_pid(seconds: float) -> int:
    """Sleep in a worker, then say which worker it was."""
    time.sleep(seconds)
    return os.getpid()


def opening_view() -> dict[str, Any]:
    """The first bidder's view of a 500 match (every bot decides this at once)."""
    game = Game.new("online", seed=1)
    return game.view(game.to_act)


def play_view() -> dict[str, Any]:
    """The first card player's view of a 500 match: the search bots think here."""
    game = Game.new("online", seed=1)
    bot = make_bot("rules", seed=1)
    while game.phase != "play":
        game.apply(bot.choose(game.view(game.to_act)), game.to_act)
    return game.view(game.to_act)


def alive(pid: int) -> bool:
    """Running: not gone, and not a zombie waiting to be reaped."""
    state = process_stat(pid)[:1]
    return bool(state) and state != ["Z"]


async def until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait for a condition (the timeout only keeps a broken pool from hanging the run)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


async def worker_pids(pool: BotWorkers, timeout: float = 60.0) -> set[int]:
    """The process ids of every worker, once all are up (a replacement may still be warming
    up: pairs of overlapping requests are sent until as many pids as workers were seen)."""
    deadline = time.monotonic() + timeout
    seen: set[int] = set()
    while len(seen) < WORKERS:
        assert time.monotonic() < deadline, f"only these workers answered: {seen}"
        seen.update(await asyncio.gather(pool.run("x", nap_pid, 0.1),
                                         pool.run("y", nap_pid, 0.1)))
    assert len(seen) == WORKERS
    return seen


@pytest.fixture
async def pool() -> AsyncIterator[BotWorkers]:
    """Two started workers with the default budget; stopped at the end."""
    workers = BotWorkers(WORKERS)
    await workers.start()
    yield workers
    await workers.stop()


async def test_a_flood_from_ten_tables_does_not_hold_up_another_table(pool) -> None:
    """Ten keys keep asking for slow work, several times over; a key that asks once is served
    as soon as a worker is free, not after the ten (a first-come first-served pool would have
    finished every key's queued request first)."""
    finished: list[str] = []
    flooding = [f"flood{n}" for n in range(10)]
    spam: list[asyncio.Task[None]] = []

    async def ask(key: str) -> None:
        with contextlib.suppress(Superseded):
            finished.append(await pool.run(key, nap, 0.3, key))

    async def flood(key: str) -> None:
        while True:
            spam.extend(asyncio.create_task(ask(key)) for _ in range(3))
            await asyncio.sleep(0.05)

    floods = [asyncio.create_task(flood(key)) for key in flooding]
    try:
        await until(lambda: set(flooding) <= set(finished))  # every key served at least once
        assert pool.pending <= len(flooding)  # one waiting request per key, whatever it sent
        before = len(finished)
        finished.append(await pool.run("quiet", nap, 0.0, "quiet"))
        overtaken = finished[before:finished.index("quiet")]
        # Only work already in hand when it asked (one per worker, with one to spare for a
        # slow machine) finished first; the ten keys waiting in line did not.
        assert len(overtaken) <= WORKERS + 1, overtaken
        assert pool.counters["superseded"] > 0
    finally:
        for task in floods + spam:
            task.cancel()
        await asyncio.gather(*floods, *spam, return_exceptions=True)


async def test_a_second_decision_for_a_table_replaces_its_waiting_one(pool, tmp_path) -> None:
    """While the workers are busy, a table's newer decision takes the place of its waiting
    one (whose caller hears it was superseded); a hint for the table waits beside it."""
    view = opening_view()
    flag = tmp_path / "go"
    busy = [asyncio.create_task(pool.run(key, hold, str(flag), key)) for key in ("a", "b")]
    first = asyncio.create_task(pool.decide("t", "rules", 1, view))
    hint = asyncio.create_task(pool.run("t", nap, 0.0, "hint"))
    await until(lambda: pool.pending == 2)
    second = asyncio.create_task(pool.decide("t", "rules", 2, view))
    with pytest.raises(Superseded):
        await first
    assert pool.pending == 2
    flag.touch()
    assert await second == make_bot("rules", seed=2).choose(view)
    assert await second in view["legal_actions"]
    assert await hint == "hint"
    assert await asyncio.gather(*busy) == ["a", "b"]
    assert pool.counters["superseded"] == 1


async def test_an_overrun_gets_a_quick_move_and_a_fresh_worker(caplog) -> None:
    """Past the budget the worker is killed and replaced: a decision gets the quick bot's legal
    move, other work a TimeoutError, and later requests go to fresh workers."""
    view = play_view()
    decisions: list[float] = []
    pool = BotWorkers(WORKERS, on_decision=decisions.append)
    await pool.start()
    try:
        before = await worker_pids(pool)
        pool.budget = 0.05
        with pytest.raises(TimeoutError):
            await pool.run("hints", nap, 600.0, "never")
        with caplog.at_level(logging.WARNING, logger="cardroom.tables.workers"):
            action = await pool.decide("t1", "search:strong", 7, view)
        assert action == make_bot("rules", seed=7).choose(view)
        assert action in view["legal_actions"]
        [warning] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert "search:strong" in warning and "t1" in warning
        assert pool.counters["overran"] == 2
        pool.budget = 600.0  # the bots may take their time again
        after = await worker_pids(pool)
        assert not after & before  # both overran: both were replaced
        await until(lambda: not any(alive(pid) for pid in before))
        assert await pool.decide("t1", "search:fast", 7, view) in view["legal_actions"]
        assert pool.counters["overran"] == 2
        assert len(decisions) == 2 and decisions[0] >= 0.04  # the overrun counts its wait
    finally:
        await pool.stop()


async def test_a_steady_decision_is_asked_of_fresh_workers_before_a_quick_move(caplog) -> None:
    """A steady decision (the daily challenge's bots: the same replies for everybody) that
    overruns is asked again of fresh workers, STEADY_TRIES times in all, before the quick bot
    decides; an ordinary one gets the quick move at its first overrun."""
    view = play_view()
    pool = BotWorkers(WORKERS)
    await pool.start()
    try:
        pool.budget = 0.001  # no search answers within three of these
        with caplog.at_level(logging.WARNING, logger="cardroom.tables.workers"):
            action = await pool.decide("t1", "search:strong", 7, view, steady=True)
        assert action == make_bot("rules", seed=7).choose(view)
        assert pool.counters["overran"] == STEADY_TRIES
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert sum("asking a fresh worker again" in w for w in warnings) == STEADY_TRIES - 1
        assert "the rules bot decided instead" in warnings[-1]
        await pool.decide("t2", "search:strong", 7, view)
        assert pool.counters["overran"] == STEADY_TRIES + 1
    finally:
        await pool.stop()


async def test_strong_levels_step_down_only_under_a_backlog(pool, caplog, tmp_path) -> None:
    """A strong decision that starts while as many requests wait as there are workers runs a
    level lighter; a quick bot runs as asked; without a backlog nothing steps down."""
    view = opening_view()
    caplog.set_level(logging.DEBUG, logger="cardroom.tables.workers")
    assert await pool.decide("t", "search:strong", 1, view) in view["legal_actions"]
    assert pool.counters["downgraded"] == 0
    await asyncio.gather(pool.run("c", nap, 0.0, "c"), pool.run("d", nap, 0.0, "d"))
    # Both workers busy; c and d (served before) wait behind u and v (never served).
    flag = tmp_path / "go"
    tasks = [asyncio.create_task(pool.run(key, hold, str(flag), key)) for key in ("a", "b")]
    tasks += [asyncio.create_task(pool.run(key, nap, 0.0, key)) for key in ("c", "d")]
    tasks += [asyncio.create_task(pool.decide("u", "search:strong", 1, view)),
              asyncio.create_task(pool.decide("v", "rules", 1, view)),
              asyncio.create_task(pool.decide("w", "search:strong", 1, view, steady=True))]
    await until(lambda: pool.pending == 5)
    flag.touch()
    results = await asyncio.gather(*tasks)
    assert results[:4] == ["a", "b", "c", "d"]
    assert all(action in view["legal_actions"] for action in results[4:])
    # u stepped down; v is quick; w is steady (the daily challenge's), never run lighter.
    assert pool.counters["downgraded"] == 1
    [stepped] = [r.getMessage() for r in caplog.records if "runs as" in r.getMessage()]
    assert "search:strong" in stepped and stepped.endswith("runs as search")


async def test_a_deep_backlog_steps_the_default_bot_down_to_the_rules_bot(pool, caplog,
                                                                          tmp_path) -> None:
    """A decision of the default ``search`` that starts while eight times as many requests
    wait as there are workers runs two levels lighter: as the rules bot."""
    view = opening_view()
    caplog.set_level(logging.DEBUG, logger="cardroom.tables.workers")
    # One worker's more than the depth: both workers free at once and one takes a request.
    waiting = [f"k{n}" for n in range((DEEP_BACKLOG + 1) * WORKERS)]
    await asyncio.gather(*(pool.run(key, nap, 0.0, key) for key in waiting))  # served once
    flag = tmp_path / "go"
    tasks = [asyncio.create_task(pool.run(key, hold, str(flag), key)) for key in ("a", "b")]
    tasks += [asyncio.create_task(pool.run(key, nap, 0.0, key)) for key in waiting]
    tasks.append(asyncio.create_task(pool.decide("u", "search", 1, view)))  # never served
    await until(lambda: pool.pending == len(waiting) + 1)
    flag.touch()
    results = await asyncio.gather(*tasks)
    assert results[-1] == make_bot("rules", seed=1).choose(view)
    [stepped] = [r.getMessage() for r in caplog.records if "runs as" in r.getMessage()]
    assert "bot search at table u" in stepped and stepped.endswith("runs as rules")


async def test_stopping_ends_idle_and_busy_workers() -> None:
    """Stop cancels the work in hand and leaves no worker process behind."""
    pool = BotWorkers(WORKERS)
    await pool.start()
    pids = await worker_pids(pool)
    assert all(alive(pid) for pid in pids)
    busy = asyncio.create_task(pool.run("x", nap, 600.0, "never"))
    await asyncio.sleep(0.1)  # a worker has taken it
    assert pool.pending == 0 and not busy.done()
    await asyncio.wait_for(pool.stop(), 60)  # far short of the busy worker's nap
    with pytest.raises(asyncio.CancelledError):
        await busy
    assert not any(alive(pid) for pid in pids)
    with pytest.raises(RuntimeError):
        await pool.run("x", nap, 0.0, "late")


SERVER = textwrap.dedent("""
    import asyncio, os, sys, time
    from cardroom.tables.workers import BotWorkers

    async def stop_after_an_overrun() -> None:
        pool = BotWorkers(1, budget=0.5)
        await pool.start()
        try:
            await pool.run("a", time.sleep, 600)  # its worker is killed and replaced
        except TimeoutError:
            pass
        await pool.run("a", os.getpid)
        await pool.stop()
        print("stopped", flush=True)

    async def die_with_a_busy_worker() -> None:
        pool = BotWorkers(2)
        await pool.start()
        asyncio.get_running_loop().create_task(pool.run("a", time.sleep, 600))
        await asyncio.sleep(0.5)
        print("busy", flush=True)
        await asyncio.sleep(600)

    asyncio.run(stop_after_an_overrun() if sys.argv[1] == "stop" else die_with_a_busy_worker())
""")


def test_a_pool_that_overran_stops_without_warnings() -> None:
    """Killing an overrunning worker and stopping the pool leave nothing for multiprocessing's
    resource tracker to complain about (no leaked semaphores) and no traceback."""
    done = subprocess.run([sys.executable, "-c", SERVER, "stop"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped"
    assert "leaked" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_workers_end_with_a_killed_server() -> None:
    """A server killed outright cannot stop its workers: they notice and end, the idle one
    and the one busy with a long request alike."""
    server = subprocess.Popen([sys.executable, "-c", SERVER, "kill"], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        assert server.stdout.readline().strip() == "busy"
        workers = _children(server.pid)
        assert len(workers) >= WORKERS  # and multiprocessing's resource tracker
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (read from /proc)."""
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and process_stat(int(entry))[1:2] == [str(pid)]]
