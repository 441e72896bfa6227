"""The room's limits side by side, an older checkout of the code against this working tree.

Three measurements of what one client can cost everybody else, each run on the older code
(``--old-src``: the ``src`` folder of another checkout, e.g. a ``git worktree`` of an earlier
commit, put on the server's ``PYTHONPATH``) and then on this working tree, back to back in one
run. Every server gets a fresh SQLite file, ``--bot-delay 0`` and ``--log-level warning``. The
machine is shared and noisy, so the ratio new / old of one run means more than either figure,
and CPU time (from /proc/PID/stat) more than wall time.

1. **The lobby at ``--tables`` tables.** Twenty creators (each registered once) make the
   tables between them, stopping after ``--time-limit`` seconds, while one connection watches
   the lobby. (a) A watcher that reads everything: the bytes and messages it received, the
   server's CPU seconds and memory (its peak, sampled every second, and at the end). (b) A
   watcher that subscribes and then never reads (a raw ``websockets`` connection with
   ``max_queue=1`` that answers no keep-alive ping), kept at least :data:`SILENT_HOLD`
   seconds: the server's memory, whether and when the server let go of its socket, and what
   the watcher finally reads (the close code says why it was closed: 1008 for a client too
   slow, 1011 for an unanswered keep-alive ping). Both give the server's memory a few seconds
   after every client has left.
2. **A hammered ``/api/lobby``.** With ``--lobby-tables`` tables open, ``--http-clients`` HTTP
   clients (keep-alive connections, in a process of their own) fetch ``/api/lobby`` in a loop
   for ``--duration`` seconds while a WebSocket client sends ``ping`` every 50 ms: the pings'
   round trips (the event loop's latency), lobby requests served per second and the server's
   CPU per 1,000 of them.
3. **Bot fairness.** Ten tables of ``search:strong`` bots, with the shortest turn timer each
   server accepts, play on their own (their creators start them and leave). At an unrelated
   table a client plays one seat with the ``simple`` bot's choices against three ``simple``
   bots, for ``--play-seconds``: the wall time of each bot turn there, from the table message
   before it to the one that shows it.

Servers that have quotas (``cardroom serve`` options, found in each code's ``--help``) get
generous ones, so that both servers do the same work; part 3 keeps the newer server's
``--min-turn-seconds`` at its default on purpose, since that floor is one of the limits.

Run: ``python bench/limits.py [--only 1,2,3] [--tables 2000] [--duration 20]``. Prints the
figures; copy them to bench/RESULTS.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import msgspec
import typer
import websockets
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.exceptions import ConnectionClosed

from cardroom.bots import make_bot
from cardroom.tools.client import Client
from cardroom.tools.processes import ManagedServer, cpu_seconds, free_port, rss_kib
from limits_report import (
    Row,
    fairness_rows,
    hammer_rows,
    load_average,
    lobby_rows,
    machine,
)

NEW_SRC = Path(__file__).resolve().parents[1] / "src"
"""This working tree's code."""
CREATORS = 20
"""Connections that create the tables, each with a player of its own."""
STRONG_TABLES = 10
"""Tables of strong bots playing beside the measured one in part 3."""
SILENT_HOLD = 45.0
"""Seconds from its subscription the silent watcher is kept at least: past the servers'
keep-alive ping and its timeout (20 + 20 s), so that each server has had its chance to drop
it whether its tables were made quickly or not."""
PING_EVERY = 0.05
"""Seconds between two pings of the latency probe in part 2."""
OLD_SHORTEST_TURN = 0.001
"""The turn timer asked for at a server without ``--min-turn-seconds``."""
GENEROUS = {
    "--max-tables-per-player": "1000000",
    "--max-tables": "1000000",
    "--max-registrations-per-minute": "1000000",
    "--max-connections-per-address": "1000000",
    "--abandon-after": "86400",
}
"""Quotas raised wherever the server has them, so that both servers do the same work."""
PRESENCE = frozenset({"seats", "match_started", "offline", "away", "connected"})
"""Table events that change who is there, not the game: no seat acted."""
TCP_ESTABLISHED = "01"


# -- the two codes and their servers ---------------------------------------------------------


@dataclass
class Code:
    """A version of the card room: where its source is and which serve options it has."""

    label: str
    src: Path
    options: frozenset[str]
    min_turn_seconds: float | None
    """The default of ``--min-turn-seconds`` (``None``: the server has no floor)."""

    @property
    def shortest_turn(self) -> float:
        """The shortest turn timer this code's server accepts."""
        return OLD_SHORTEST_TURN if self.min_turn_seconds is None else self.min_turn_seconds


def server_environment(src: Path) -> dict[str, str]:
    """The environment a server of the code in ``src`` runs with: that code first on the
    path, and none of the variables that would override its options."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL") and not k.startswith("CARDROOM_")}
    env["PYTHONPATH"] = str(src)
    return env


def inspect_code(label: str, src: Path) -> Code:
    """Which options ``cardroom serve`` of this code has (read from its ``--help``, printed
    wide enough that no option's name is cut short)."""
    env = {**server_environment(src), "COLUMNS": "400", "NO_COLOR": "1"}
    text = subprocess.run([sys.executable, "-m", "cardroom", "serve", "--help"], env=env,
                          capture_output=True, text=True, check=True).stdout
    options = frozenset(re.findall(r"--[a-z][a-z-]*[a-z]", text))
    floor = None
    for line in text.splitlines():
        if "--min-turn-seconds" in line and (found := re.search(r"default: ([0-9.]+)", line)):
            floor = float(found.group(1))
    if "--min-turn-seconds" in options and floor is None:
        raise RuntimeError(f"cannot read the default of --min-turn-seconds in {src}")
    return Code(label, src, options, floor)


class BenchServer(ManagedServer):
    """`cardroom serve` of one code (its source on ``PYTHONPATH``), quick bots, the room's
    quotas raised where it has them."""

    def __init__(self, code: Code, folder: Path, name: str) -> None:
        super().__init__(free_port(), f"sqlite:///{folder / (name + '.sqlite3')}", None,
                         folder / f"{name}.log")
        self.code = code

    def command(self) -> list[str]:
        """The serve command: the same workload for both codes."""
        command = [sys.executable, "-m", "cardroom", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--database-url", self.database_url,
                   "--log-level", "warning", "--bot-delay", "0", "--message-rate", "1000",
                   "--message-burst", "2000", "--next-match-delay", "1",
                   "--disconnect-grace", "0.5"]
        for option, value in GENEROUS.items():
            if option in self.code.options:
                command += [option, value]
        return command

    def environment(self) -> dict[str, str]:
        """Its own code on the path."""
        return server_environment(self.code.src)


@contextlib.contextmanager
def serving(code: Code, name: str) -> Iterator[BenchServer]:
    """A server of ``code`` on a fresh SQLite file, stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="cardroom-limits-") as folder:
        server = BenchServer(code, Path(folder), name)
        server.start()
        try:
            yield server
        finally:
            server.stop()


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid`` (its bot workers), and theirs."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


async def settle(pid: int, cap: float = 60.0) -> None:
    """Wait until the server and its workers have (nearly) stopped using the CPU: a server
    just started is still loading the bots' code in its workers."""
    deadline = time.monotonic() + cap
    while time.monotonic() < deadline:
        pids = [pid, *descendants(pid)]
        before = sum(cpu_seconds(p) for p in pids)
        await asyncio.sleep(1.0)
        if sum(cpu_seconds(p) for p in pids) - before < 0.1:
            return


def server_holds(server_port: int, client_port: int) -> bool:
    """Whether the server still holds its end of a loopback TCP connection: established and
    owned by a socket (a socket the server closed with data unsent lingers in the kernel as an
    orphan, inode 0, and a reset one is gone)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            parts = line.split()
            local, remote = int(parts[1].split(":")[1], 16), int(parts[2].split(":")[1], 16)
            if (local, remote) == (server_port, client_port):
                return parts[3] == TCP_ESTABLISHED and parts[9] != "0"
    return False


class Sampler:
    """Reads the server's memory every second in a thread of its own (the measuring event
    loop may be busy), and notices when the server lets go of a watched connection."""

    def __init__(self, pid: int, every: float = 1.0) -> None:
        self.pid = pid
        self.every = every
        self.max_kib = rss_kib(pid)
        self.connection: tuple[int, int] | None = None
        self.since = time.perf_counter()
        self.dropped_after: float | None = None
        """Seconds from :meth:`watch` to the first sample without the connection."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sampler", daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def watch(self, server_port: int, client_port: int) -> None:
        """Notice when the server drops this connection."""
        self.connection = (server_port, client_port)
        self.since = time.perf_counter()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.max_kib = max(self.max_kib, rss_kib(self.pid))
            if self.connection is not None and self.dropped_after is None and not \
                    server_holds(*self.connection):
                self.dropped_after = time.perf_counter() - self.since


# -- part 1: the lobby at N tables -----------------------------------------------------------


class _Kind(msgspec.Struct):
    type: str = ""


_KIND = msgspec.json.Decoder(_Kind)
_TABLE_ID = re.compile(rb'"table_id":"([^"]+)"')
_REMOVED = re.compile(rb'"removed":\[([^\]]*)\]')


class LobbyWatcher:
    """One connection that subscribes to the lobby and then reads everything (counting bytes
    and messages, and which tables its lobby shows at the end) or nothing at all."""

    def __init__(self, url: str, reads: bool) -> None:
        self.url = url
        self.reads = reads
        self.socket: Any = None
        self.messages = 0
        self.bytes = 0
        self.last_at = time.perf_counter()
        self.close_code: int | None = None
        self._last_page = b""
        self._updated: dict[bytes, bool] = {}
        """Tables added (True) or removed (False) by ``lobby_update`` messages since the last
        whole page, in order."""
        self._reader: asyncio.Task[None] | None = None

    async def subscribe(self) -> None:
        """Connect and ask for the lobby (a non-reader's socket reads one message at most and
        answers no keep-alive ping: only the server may end it)."""
        if self.reads:
            self.socket = await websockets.connect(self.url, max_size=None)
            self._reader = asyncio.get_running_loop().create_task(self._read())
        else:
            self.socket = await websockets.connect(self.url, max_size=None, max_queue=1,
                                                   ping_interval=None)
        await self.socket.send('{"type":"lobby","seq":1}')

    @property
    def ports(self) -> tuple[int, int]:
        """The connection's ports: the server's, then ours."""
        return self.socket.remote_address[1], self.socket.local_address[1]

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                self._count(await self.socket.recv(decode=False))

    def _count(self, data: bytes) -> None:
        self.messages += 1
        self.bytes += len(data)
        self.last_at = time.perf_counter()
        kind = _KIND.decode(data).type
        if kind == "lobby":
            self._last_page = data
            self._updated.clear()
        elif kind == "lobby_update":
            for table_id in _TABLE_ID.findall(data):
                self._updated[table_id] = True
            if removed := _REMOVED.search(data):
                for table_id in re.findall(rb'"([^"]+)"', removed.group(1)):
                    self._updated[table_id] = False

    @property
    def tables_shown(self) -> int:
        """How many tables the watcher's lobby holds now (its last page and what came after;
        a page of a newer server holds at most 200 of them)."""
        shown = set(_TABLE_ID.findall(self._last_page))
        for table_id, present in self._updated.items():
            (shown.add if present else shown.discard)(table_id)
        return len(shown)

    async def quiet(self, gap: float, cap: float) -> None:
        """Wait until nothing has come for ``gap`` seconds (at most ``cap`` seconds)."""
        deadline = time.perf_counter() + cap
        while time.perf_counter() < deadline and time.perf_counter() - self.last_at < gap:
            await asyncio.sleep(0.2)

    async def drain(self, gap: float = 3.0, cap: float = 60.0) -> None:
        """Read, at last, whatever the server still sends, until it ends the connection (its
        close code is kept) or is quiet for ``gap`` seconds."""
        deadline = time.perf_counter() + cap
        with contextlib.suppress(TimeoutError):
            while time.perf_counter() < deadline:
                try:
                    self._count(await asyncio.wait_for(self.socket.recv(decode=False), gap))
                except ConnectionClosed as closed:
                    self.close_code = closed.rcvd.code if closed.rcvd else 1006
                    return

    async def close(self) -> None:
        """Close the connection (at once, however much is unread)."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.socket.close(), 5)


async def make_tables(url: str, tables: int, creators: int, until: float,
                      progress: Progress, task: Any) -> tuple[list[Client], int, float]:
    """``creators`` connections, each registered once, create ``tables`` tables between them
    (stopping at ``until``); returns the connections, how many tables were made and the
    seconds it took."""
    clients = [Client(url, timeout=300) for _ in range(creators)]
    await asyncio.gather(*(c.connect() for c in clients))
    for number, client in enumerate(clients):
        await client.register(f"Maker {number}")
    made = 0

    async def make(client: Client, count: int) -> None:
        nonlocal made
        for _ in range(count):
            if time.perf_counter() >= until:
                return
            await client.create_table()
            made += 1
            progress.advance(task)

    shares = [tables // creators + (n < tables % creators) for n in range(creators)]
    started = time.perf_counter()
    await asyncio.gather(*(make(c, k) for c, k in zip(clients, shares, strict=True)))
    return clients, made, time.perf_counter() - started


async def close_all(clients: list[Client]) -> None:
    """Close connections, a few at a time."""
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


async def lobby_run(server: BenchServer, tables: int, reads: bool, limit: float,
                    progress: Progress) -> dict[str, Any]:
    """Part 1 on one server: a watcher (reading or not) while ``tables`` tables are made."""
    assert server.pid is not None
    pid = server.pid
    await settle(pid)
    figures: dict[str, Any] = {"rss_idle": rss_kib(pid)}
    task = progress.add_task(f"{server.code.label}: {tables:,} tables, "
                             f"{'reading' if reads else 'silent'} watcher", total=tables)
    with Sampler(pid) as sampler:
        watcher = LobbyWatcher(server.url, reads)
        await watcher.subscribe()
        if not reads:
            sampler.watch(*watcher.ports)
        cpu = cpu_seconds(pid)
        clients, made, took = await make_tables(server.url, tables, CREATORS,
                                                time.perf_counter() + limit, progress, task)
        if reads:
            await watcher.quiet(gap=2.0, cap=120.0)
        else:
            hold = max(3.0, sampler.since + SILENT_HOLD - time.perf_counter())
            progress.update(task, description=f"{server.code.label}: holding the silent "
                                              f"watcher {hold:.0f} s more")
            await asyncio.sleep(hold)
        figures.update(made=made, make_seconds=took, cpu=cpu_seconds(pid) - cpu,
                       rss_end=rss_kib(pid))
        if reads:
            figures.update(messages=watcher.messages, bytes=watcher.bytes,
                           shown=watcher.tables_shown)
        else:
            figures["dropped_after"] = sampler.dropped_after
            await watcher.drain()
            figures.update(close_code=watcher.close_code, drained=watcher.bytes)
        figures["rss_max"] = max(sampler.max_kib, figures["rss_end"])
        await watcher.close()
        await close_all(clients)
        await asyncio.sleep(5.0)
        figures["rss_left"] = rss_kib(pid)
    progress.remove_task(task)
    return figures


# -- part 2: a hammered /api/lobby -----------------------------------------------------------


def hammer(port: int, clients: int, seconds: float, conn: Connection) -> None:
    """In a process of its own: ``clients`` keep-alive HTTP connections fetch /api/lobby in a
    loop for ``seconds``; sends back requests served, body bytes and request times."""
    conn.send(asyncio.run(_hammer(port, clients, seconds, conn)))


async def _hammer(port: int, clients: int, seconds: float, conn: Connection
                  ) -> dict[str, Any]:
    request = (f"GET /api/lobby HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").encode()
    done: list[float] = []
    body_bytes = 0
    errors = 0
    conn.send("started")
    deadline = time.perf_counter() + seconds

    async def fetch() -> None:
        nonlocal body_bytes, errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                writer.write(request)
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
                length = re.search(r"(?im)^content-length:\s*(\d+)", head)
                if length is None:
                    raise RuntimeError(f"no content length: {head[:200]}")
                body = await reader.readexactly(int(length.group(1)))
                if not head.startswith("HTTP/1.1 200"):
                    errors += 1
                    continue
                body_bytes += len(body)
                done.append(time.perf_counter() - sent)
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(fetch() for _ in range(clients)))
    return {"requests": len(done), "bytes": body_bytes, "errors": errors, "times": done,
            "seconds": time.perf_counter() - started}


async def ping_for(client: Client, seconds: float) -> list[float]:
    """Ping every :data:`PING_EVERY` seconds (at once after a slow answer) for ``seconds``;
    the round trips."""
    trips: list[float] = []
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        sent = time.perf_counter()
        await client.request("ping")
        trip = time.perf_counter() - sent
        trips.append(trip)
        await asyncio.sleep(max(0.0, PING_EVERY - trip))
    return trips


async def hammer_run(server: BenchServer, tables: int, clients: int, duration: float,
                     progress: Progress) -> dict[str, Any]:
    """Part 2 on one server: pings while ``clients`` HTTP clients fetch the lobby."""
    assert server.pid is not None
    pid = server.pid
    await settle(pid)
    task = progress.add_task(f"{server.code.label}: {tables:,} tables", total=tables)
    makers, made, _took = await make_tables(server.url, tables, CREATORS,
                                            time.perf_counter() + 600, progress, task)
    progress.remove_task(task)
    await settle(pid, cap=20)
    pinger = Client(server.url, timeout=120)
    await pinger.connect()
    idle = await ping_for(pinger, 5.0)
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=hammer, args=(server.port, clients, duration, theirs))
    process.start()
    try:
        await asyncio.to_thread(ours.recv)  # "started"
        cpu = cpu_seconds(pid)
        task = progress.add_task(f"{server.code.label}: /api/lobby × {clients}",
                                 total=duration)
        began = time.perf_counter()
        probe = asyncio.ensure_future(ping_for(pinger, duration))
        while not probe.done():
            await asyncio.wait([probe], timeout=1.0)
            progress.update(task, completed=min(duration, time.perf_counter() - began))
        trips = probe.result()
        result = await asyncio.to_thread(ours.recv)
        cpu = cpu_seconds(pid) - cpu
        progress.remove_task(task)
    finally:
        process.join(timeout=30)
        if process.is_alive():
            process.kill()
    await pinger.close()
    await close_all(makers)
    requests = result["requests"]
    return {"made": made, "idle": idle, "trips": trips, "requests": requests,
            "rate": requests / result["seconds"], "errors": result["errors"],
            "body": result["bytes"] / max(1, requests), "times": result["times"],
            "cpu": cpu, "cpu_per_1000": cpu / max(1, requests) * 1000}


# -- part 3: bot fairness --------------------------------------------------------------------


@dataclass
class Arrivals:
    """When each table message of the measured table arrived, and what it said."""

    table_id: str = ""
    log: list[tuple[float, int, list[dict[str, Any]]]] = field(default_factory=list)

    def record(self, message: dict[str, Any]) -> None:
        """The client's ``on_table`` hook."""
        if message["table_id"] == self.table_id:
            self.log.append((time.perf_counter(), message["version"], message["events"] or []))

    def bot_turns(self, seat: int, since: float) -> list[float]:
        """Seconds from each table message to the next one when that one shows a bot's action
        (not our seat's; not across the pause between two matches)."""
        turns = []
        for (before, _, earlier), (at, _, events) in zip(self.log, self.log[1:],
                                                         strict=False):
            if at < since or not events or events[0].get("type") in PRESENCE:
                continue
            if events[0].get("seat") == seat or any(
                    e.get("type") == "match_over" for e in earlier):
                continue
            turns.append(at - before)
        return turns


async def fairness_run(server: BenchServer, seconds: float, progress: Progress
                       ) -> dict[str, Any]:
    """Part 3 on one server: ten strong-bot tables on their own, and one measured table."""
    assert server.pid is not None
    await settle(server.pid)
    turn = server.code.shortest_turn
    creators = [Client(server.url, timeout=120) for _ in range(STRONG_TABLES)]
    await asyncio.gather(*(c.connect() for c in creators))
    for number, creator in enumerate(creators):
        await creator.register(f"Strong {number}")
        table_id = await creator.create_table(bot="search:strong", turn_seconds=turn)
        await creator.start_with_bots(table_id, bot="search:strong")
    await close_all(creators)
    await asyncio.sleep(2.0)  # past the disconnect grace: bots play the creators' seats
    arrivals = Arrivals()
    player = Client(server.url, timeout=300, on_table=arrivals.record)
    await player.connect()
    await player.register("Measured")
    arrivals.table_id = table_id = await player.create_table(bot="simple")
    seat = 0
    bot = make_bot("simple", seed=1)
    await player.start_with_bots(table_id, bot="simple")
    started = time.perf_counter()
    until = started + seconds
    acted = -1
    ours = 0
    task = progress.add_task(f"{server.code.label}: a table beside {STRONG_TABLES} strong ones",
                             total=seconds)
    while time.perf_counter() < until:
        progress.update(task, completed=min(seconds, time.perf_counter() - started))
        try:
            update = await player.wait_for(
                table_id, lambda u, after=acted: u["view"] is not None
                and u["status"] == "playing" and u["view"]["to_act"] == seat
                and u["version"] > after,
                timeout=max(0.1, min(2.0, until - time.perf_counter())))
        except TimeoutError:
            continue
        acted = update["version"]
        await player.act(table_id, bot.choose(update["view"]))
        ours += 1
    progress.remove_task(task)
    await player.close()
    turns = arrivals.bot_turns(seat, started)
    return {"turn": turn, "turns": turns, "ours": ours}


# -- the command -----------------------------------------------------------------------------


async def run_parts(codes: list[Code], parts: set[int], tables: int, lobby_tables: int,
                    duration: float, play_seconds: float, limit: float, http_clients: int,
                    console: Console) -> list[Row]:
    """Every part asked for, old then new, back to back; the rows of the report."""
    rows: list[Row] = []
    results: dict[tuple[str, str], dict[str, Any]] = {}
    loads: list[str] = []
    with Progress(console=console, transient=True) as progress:
        for part, reads in (("1a", True), ("1b", False)):
            if 1 not in parts:
                break
            for code in codes:
                loads.append(load_average())
                with serving(code, f"{code.label}-{part}") as server:
                    results[part, code.label] = await lobby_run(server, tables, reads, limit,
                                                                progress)
            rows += lobby_rows(part, results[part, "old"], results[part, "new"], tables)
        if 2 in parts:
            for code in codes:
                loads.append(load_average())
                with serving(code, f"{code.label}-2") as server:
                    results["2", code.label] = await hammer_run(server, lobby_tables,
                                                                http_clients, duration,
                                                                progress)
            rows += hammer_rows(results["2", "old"], results["2", "new"])
        if 3 in parts:
            for code in codes:
                loads.append(load_average())
                with serving(code, f"{code.label}-3") as server:
                    results["3", code.label] = await fairness_run(server, play_seconds,
                                                                  progress)
            rows += fairness_rows(results["3", "old"], results["3", "new"])
    loads.append(load_average())
    console.print(f"load average at each server's start and at the end: {', '.join(loads)}")
    return rows


def main(
    only: str = typer.Option("1,2,3", help="Which parts to run (1: lobby, 2: /api/lobby, "
                                           "3: bot fairness)."),
    tables: int = typer.Option(2000, help="Part 1: tables made while the lobby is watched."),
    lobby_tables: int = typer.Option(1400, help="Part 2: tables open while /api/lobby is "
                                                "hammered."),
    duration: float = typer.Option(20.0, help="Part 2: seconds of hammering."),
    play_seconds: float = typer.Option(60.0, help="Part 3: seconds of play at the measured "
                                                  "table."),
    time_limit: float = typer.Option(240.0, help="Part 1: seconds after which no more "
                                                 "tables are made."),
    http_clients: int = typer.Option(8, help="Part 2: concurrent HTTP clients."),
    old_src: str = typer.Option("/work/start/src", help="The src folder of the older code "
                                                        "(a git worktree)."),
) -> None:
    """Measure the lobby, /api/lobby and bot fairness on the older code and on this tree."""
    parts = {int(p) for p in only.split(",") if p.strip()}
    console = Console()
    codes = [inspect_code("old", Path(old_src).resolve()), inspect_code("new", NEW_SRC)]
    for code in codes:
        quotas = sorted(set(GENEROUS) & code.options)
        console.print(f"{code.label}: {code.src} (raised: {', '.join(quotas) or 'no quotas'}; "
                      f"shortest turn timer {code.shortest_turn:g} s)")
    started = time.perf_counter()
    rows = asyncio.run(run_parts(codes, parts, tables, lobby_tables, duration, play_seconds,
                                 time_limit, http_clients, console))
    report = Table(title=f"Limits, old vs new ({machine()}; "
                         f"{time.perf_counter() - started:,.0f} s)")
    report.add_column("figure")
    report.add_column("old", justify="right")
    report.add_column("new", justify="right")
    report.add_column("new / old", justify="right")
    for row in rows:
        report.add_row(*row)
    console.print(report)


if __name__ == "__main__":
    typer.run(main)
