"""Load and fault tests of a running card room: N tables of four WebSocket clients.

Each client plays its seat with a quick bot's choice, at a human pace (about one action every
two seconds per table) or at full speed, and the driver measures the time from sending an
action to the moment *every* seat of the table holds the view that shows it. It can start the
servers itself (one process on SQLite, or several sharing PostgreSQL and Redis), kill one of
them with SIGKILL every few seconds and start it again, stop the Redis they share for a few
seconds at a time (a Redis of its own, started for the run), and drop client connections at random;
clients then reconnect (to another server if there is one) with their token, as a browser
would. At the end it checks the database: every acknowledged action is in the record, every
match's record replays to the scores the players saw, and no table is stuck.

``cardroom loadtest`` and ``bench/server.py`` both drive this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed

from cardroom.bots import make_bot
from cardroom.bots.levels import DEFAULT_BOT
from cardroom.bus.redis import RETRY_CAP
from cardroom.tools.client import Client, ClientError, reconnect_delay
from cardroom.tools.processes import (
    ManagedRedis,
    ManagedServer,
    ask_health,
    cpu_seconds,
    free_port,
    percentile,
    rss_kib,
)

SEATS = 4
HUMAN_THINK = 2.0
"""Mean seconds between two actions at a table at a human pace."""
RELAY_ONLY_WAIT = 60.0
"""Seconds at most for a drained server to say it has heard the other's load (told every
third of a lease): until then it would place a new table at itself."""
STUCK_AFTER = 20.0
"""A playing table with no change for this long (past any restart) counts as stuck."""


# -- what the clients measure ---------------------------------------------------------------


@dataclass
class Stats:
    """Figures gathered by every client."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    reconnects: int = 0
    reconnecting: int = 0
    """Requests answered ``reconnecting`` (their table's owner was silent, e.g. killed:
    what a player sees for a moment while the table moves to another process)."""
    drops: int = 0
    unseen: int = 0
    """Acknowledged actions whose view had not reached all four seats 30 s later."""
    error_codes: dict[str, int] = field(default_factory=dict)
    chat_lines: int = 0
    """Chat lines said (each reaches every seat of its table)."""
    profile_times: list[float] = field(default_factory=list)
    """Seconds each profile request took (``--profile-every``)."""
    analyses: dict[str, int] = field(default_factory=dict)
    """Analysis asks (``--analysis-every``) by the state answered (``queued``, ``ready``,
    ``busy`` …)."""
    bot_turns: list[float] = field(default_factory=list)
    """Seconds from the first view where one of the server's bots is to act to the first
    that shows its move (as the first client sees both; changes of who is connected in
    between do not end the turn, and a turn a server kill fell in is left out): a bot's
    thinking and its move's way back, the wait a player has behind each bot
    (``--bot-seats``)."""
    redis_recoveries: list[float] = field(default_factory=list)
    """Seconds from Redis coming back after an outage to the next change at a table, one
    per table and outage (``--stop-redis-every``): how long the bus takes to carry the
    tables' views again."""
    recoveries: list[tuple[int, float]] = field(default_factory=list)
    """(kill number from 1, seconds from that kill of a server to the next change at a
    table), one per table and kill the table saw a change after (``--kill-every``): the
    tables whose players or bots were on it wait longest."""

    def error(self, code: str) -> None:
        """Count a refused or failed request."""
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1


@dataclass
class Acked:
    """An action the server acknowledged: it must be in the record."""

    table_id: str
    seat: int
    match: int | None
    number: int | None
    action: str


class SeatPlayer:
    """One seat's player: a token, a connection that comes back when it drops, a bot's mind."""

    def __init__(self, bench: LoadTable, seat: int) -> None:
        self.bench = bench
        self.seat = seat
        self.token = ""
        self.player_id = ""
        self.client: Client | None = None
        self.rng = random.Random(bench.rng.randrange(1 << 30))
        self.bot = make_bot(bench.run.bot, seed=self.rng.randrange(1 << 30))

    def _new_client(self, url: str) -> Client:
        return Client(url, timeout=self.bench.run.request_timeout,
                      on_table=self.bench.arrival(self.seat),
                      patches=not self.bench.run.full_views)

    async def connect(self, url: str) -> Client:
        """A fresh connection, not yet proven."""
        client = self._new_client(url)
        await client.connect()
        self.client = client
        return client

    async def reconnect(self, until: float) -> bool:
        """Come back on some server (the next one first), prove who we are, open the table.
        False if no server took us back before ``until``."""
        run = self.bench.run
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
        attempt = 0
        while time.perf_counter() < until and not run.stopping:
            # Jittered back-off before every attempt, the first too: the players of a killed
            # server do not all knock on the survivor at the same moment.
            await asyncio.sleep(reconnect_delay(attempt, base=0.1, cap=2.0, rng=self.rng))
            urls = run.client_urls
            url = urls[(self.bench.number + self.seat + attempt + 1) % len(urls)]
            attempt += 1
            try:
                client = await self.connect(url)
                await client.hello(self.token)
                await client.open(self.bench.table_id)
                run.stats.reconnects += 1
                return True
            except (OSError, ClientError, TimeoutError, Exception):
                continue
        return False

    async def look_again(self, client: Client) -> None:
        """An action answered ``reconnecting`` may or may not have been made: open the table
        again for a fresh view before acting again (as the browser does)."""
        self.bench.run.stats.reconnecting += 1
        with contextlib.suppress(ClientError, TimeoutError, ConnectionClosed):
            await client.open(self.bench.table_id)

    async def play(self, until: float) -> None:
        """Play this seat until the deadline, timing each action and surviving drops."""
        run, bench = self.bench.run, self.bench
        while time.perf_counter() < until and not run.stopping:
            client = self.client
            if client is None or not client.connected:
                if not await self.reconnect(until):
                    return
                continue
            try:
                update = await client.wait_for(
                    bench.table_id, lambda u: u["view"] is not None and u["status"] == "playing"
                    and u["view"]["to_act"] == self.seat,
                    timeout=max(0.1, min(5.0, until - time.perf_counter())))
            except TimeoutError:
                continue
            except ClientError:
                continue  # disconnected: reconnect at the top
            if run.think:
                await asyncio.sleep(run.think * self.rng.uniform(0.5, 1.5))
            if not client.connected:
                continue
            sent = time.perf_counter()
            try:
                result = await client.act(bench.table_id, self.bot.choose(update["view"]))
            except ClientError as error:
                if error.code == "reconnecting":
                    await self.look_again(client)
                elif error.code != "disconnected":
                    run.stats.error(error.code)
                continue
            except TimeoutError:
                run.stats.error("timeout")
                continue
            except Exception as error:  # a closed socket, or a view the bot cannot read
                if not isinstance(error, ConnectionClosed):
                    run.stats.error(f"{type(error).__name__}: {error}"[:100])
                with contextlib.suppress(Exception):
                    await client.close()
                continue
            run.acked.append(Acked(bench.table_id, self.seat, result.get("match"),
                                   result.get("number"), result["action"]))
            run.stats.actions += 1
            bench.progress = time.monotonic()
            bench.measure(result["version"], sent)


    async def chat(self, until: float) -> None:
        """Say a quick phrase at the table now and then (every ``chat_every`` seconds on
        average, the first one at a random moment), until the deadline."""
        run = self.bench.run

        async def pause(seconds: float) -> None:
            await asyncio.sleep(max(0.0, min(seconds, until - time.perf_counter())))

        await pause(self.rng.uniform(0, run.chat_every))
        while time.perf_counter() < until and not run.stopping:
            client = self.client
            if client is not None and client.connected:
                try:
                    await client.say(self.bench.table_id, phrase="good_luck")
                    run.stats.chat_lines += 1
                except ClientError as error:
                    if error.code == "reconnecting":
                        run.stats.reconnecting += 1
                    elif error.code != "disconnected":
                        run.stats.error(error.code)
                except (TimeoutError, ConnectionClosed):
                    pass
            await pause(run.chat_every * self.rng.uniform(0.5, 1.5))

    async def look_up(self, until: float) -> None:
        """Ask for this seat's player's profile now and then (every ``profile_every``
        seconds on average), over HTTP, until the deadline."""
        run = self.bench.run
        url = profile_url(run.urls[0], self.player_id)
        await asyncio.sleep(self.rng.uniform(0, run.profile_every))
        while time.perf_counter() < until and not run.stopping:
            started = time.perf_counter()
            try:
                await asyncio.to_thread(_fetch, url)
                run.stats.profile_times.append(time.perf_counter() - started)
            except OSError as error:
                run.stats.error(f"profile: {type(error).__name__}")
            await asyncio.sleep(max(0.0, min(run.profile_every * self.rng.uniform(0.5, 1.5),
                                             until - time.perf_counter())))


    async def analyse(self, until: float) -> None:
        """Ask for the analysis of the last hand over at this seat's table now and then (every
        ``analysis_every`` seconds on average), as a player replaying it, until the
        deadline; each answer's state is counted."""
        run = self.bench.run
        base = http_base(run.urls[0])
        await asyncio.sleep(self.rng.uniform(0, run.analysis_every))
        while time.perf_counter() < until and not run.stopping:
            state = "none yet"
            latest = self.client.tables.get(self.bench.table_id, {}) if self.client else {}
            view = latest.get("view") or {}
            if view.get("history"):
                url = (f"{base}/api/replays/{self.bench.table_id}/{latest['match_number']}"
                       f"/hands/{len(view['history'])}/analysis")
                state = await asyncio.to_thread(_analysis_state, url, self.token)
            run.stats.analyses[state] = run.stats.analyses.get(state, 0) + 1
            await asyncio.sleep(max(0.0, min(run.analysis_every * self.rng.uniform(0.5, 1.5),
                                             until - time.perf_counter())))


def _analysis_state(url: str, token: str) -> str:
    """The state an analysis ask is answered with (``busy`` for 503, ``error`` otherwise)."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return str(json.loads(answer.read())["state"])
    except urllib.error.HTTPError as error:
        return "busy" if error.code == 503 else f"error {error.code}"
    except OSError:
        return "error"


def http_base(ws_url: str) -> str:
    """The HTTP address of the server behind ``ws_url``."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}"


def profile_url(ws_url: str, player_id: str) -> str:
    """The HTTP address of a player's profile on the server behind ``ws_url``."""
    return f"{http_base(ws_url)}/api/players/{player_id}"


def _fetch(url: str) -> bytes:
    """GET ``url`` (``OSError`` for an answer other than 200)."""
    with urllib.request.urlopen(url, timeout=30) as answer:
        body: bytes = answer.read()
        return body


PRESENCE_EVENTS = frozenset({"offline", "connected", "away", "settings"})
"""Events of a table message that say who is connected or how the table is set, not a move."""


class LoadTable:
    """Four players at one table; notes when each of them first saw each version."""

    def __init__(self, run: LoadRun, number: int) -> None:
        self.run = run
        self.number = number
        self.rng = random.Random(run.seed * 100_003 + number)
        people = SEATS - run.bot_seats
        self.seen: list[dict[int, float]] = [{} for _ in range(people)]
        """Per seat a client holds: when it first held each recent version."""
        self.waiting: list[tuple[int, asyncio.Future[float]]] = []
        """Actions being timed: the version that shows each, and the future of its arrival."""
        self.players = [SeatPlayer(self, n) for n in range(people)]
        self.table_id = ""
        self.progress = time.monotonic()
        self.latest: dict[str, Any] | None = None
        self.latest_at = 0.0
        """When the latest version was first seen (``time.perf_counter()``)."""
        self.hit: tuple[int, float] | None = None
        """The kill (its number, when) that waits for the table's next change (``None``:
        none does)."""
        self.redis_back: float | None = None
        """When Redis came back from an outage that waits for the table's next change."""
        self.bot_turn: tuple[float, int] | None = None
        """A server bot's turn being timed: when it began, and the kills by then."""

    def arrival(self, seat: int) -> Callable[[dict[str, Any]], None]:
        """The ``on_table`` hook of this seat's clients. Timings resolve here, as views come
        in: a measuring client that polled would slow down under load and inflate what it
        measures."""
        def record(message: dict[str, Any]) -> None:
            if message["table_id"] != self.table_id:
                return
            version = message["version"]
            if self.latest is None or version > self.latest["version"]:
                now = time.perf_counter()
                self._time_bot_turn(message, now)
                self.latest, self.latest_at = message, now
                self.progress = time.monotonic()
                if self.hit is not None:
                    kill, at = self.hit
                    self.run.stats.recoveries.append((kill, self.progress - at))
                    self.hit = None
                if self.redis_back is not None:
                    self.run.stats.redis_recoveries.append(self.progress - self.redis_back)
                    self.redis_back = None
            self.seen[seat].setdefault(version, time.perf_counter())
            for target, done in list(self.waiting):
                self._settle(target, done)
        return record

    def _time_bot_turn(self, message: dict[str, Any], now: float) -> None:
        """A new version of the table came: end the server bot's turn being timed if it
        shows the bot's move (a turn a kill fell in is dropped), and start timing the next
        if a server bot is to act."""
        if self.bot_turn is not None:
            began, kills = self.bot_turn
            if not self._moved(message):
                return
            if self.run.kills == kills:
                self.run.stats.bot_turns.append(now - began)
            self.bot_turn = None
        if self._bot_to_act(message):
            self.bot_turn = (now, self.run.kills)

    def _bot_to_act(self, message: dict[str, Any]) -> bool:
        """Whether the table message shows a match being played with one of the server's
        bots to act (they hold the last seats)."""
        view = message.get("view")
        if message.get("status") != "playing" or not view:
            return False
        to_act = view.get("to_act")
        return isinstance(to_act, int) and to_act >= len(self.players)

    @staticmethod
    def _moved(message: dict[str, Any]) -> bool:
        """Whether the message shows the match moving on (the bot's move, or one made for
        it), not only a change of who is connected or of the table's settings."""
        events = message.get("events") or []
        return not events or any(e.get("type") not in PRESENCE_EVENTS for e in events)

    def _last_arrival(self, version: int) -> float | None:
        """When the last seat first held ``version`` or later (None: some seat has not)."""
        arrivals = [min((t for v, t in seen.items() if v >= version), default=None)
                    for seen in self.seen]
        if any(a is None for a in arrivals):
            return None
        return max(a for a in arrivals if a is not None)

    def _settle(self, version: int, done: asyncio.Future[float]) -> None:
        if not done.done() and (arrived := self._last_arrival(version)) is not None:
            done.set_result(arrived)

    async def seat_everybody(self) -> None:
        """Connect, register, create and join (each seat on a server in turn); the server's
        bots take the seats left (``bot_seats``)."""
        urls = self.run.client_urls
        for seat, player in enumerate(self.players):
            client = await player.connect(urls[(self.number + seat) % len(urls)])
            registered = await client.request("register", name=f"L{self.number}s{seat}")
            player.token, player.player_id = registered["token"], registered["player_id"]
        first = self.players[0].client
        assert first is not None
        self.table_id = await first.create_table(seat=0, rules=self.run.rules)
        for seat, player in enumerate(self.players[1:], start=1):
            assert player.client is not None
            await player.client.join(self.table_id, seat)
        if self.run.bot_seats:
            await first.start_with_bots(self.table_id, self.run.server_bot)

    def measure(self, version: int, sent: float) -> None:
        """Time, in the background, the action sent at ``sent`` and shown at ``version``."""
        async def timing() -> None:
            arrived = await self.everyone_saw(version)
            if arrived is not None:
                self.run.stats.latencies.append(arrived - sent)

        task = asyncio.get_running_loop().create_task(timing())
        self.run.timings.add(task)
        task.add_done_callback(self.run.timings.discard)

    async def everyone_saw(self, version: int, timeout: float = 30.0) -> float | None:
        """When the last of the clients' seats first held ``version`` or later (``None``: not
        all of them within ``timeout``, e.g. one was reconnecting)."""
        for seen in self.seen:
            for old in [v for v in seen if v < version - 50]:
                del seen[old]
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        entry = (version, done)
        self.waiting.append(entry)
        try:
            self._settle(version, done)
            return await asyncio.wait_for(done, timeout)
        except TimeoutError:
            self.run.stats.unseen += 1
            return None
        finally:
            self.waiting.remove(entry)

    async def close(self) -> None:
        """Disconnect every client of the table."""
        await asyncio.gather(*(p.client.close() for p in self.players if p.client),
                             return_exceptions=True)


# -- the run ---------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What the end-of-run checks found in the database."""

    checked: bool = False
    acked: int = 0
    missing: list[str] = field(default_factory=list)
    matches: int = 0
    mismatched: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    note: str = ""

    @property
    def ok(self) -> bool:
        """Nothing missing, no score differs, nothing stuck."""
        return not (self.missing or self.mismatched or self.stuck)


@dataclass
class LoadRun:
    """Everything one load test needs and measures."""

    urls: list[str]
    tables: int
    duration: float
    think: float = HUMAN_THINK
    """Mean seconds a seat waits before acting (0: full speed)."""
    bot: str = "simple"
    bot_seats: int = 0
    """Seats of each table the server's bots play (the last ones); clients hold the rest."""
    server_bot: str = DEFAULT_BOT
    """The bot the server plays those seats with: the room's own default (it thinks in the
    bot workers) unless another is named (``simple``: a light load of bots)."""
    chat_every: float = 0.0
    """Mean seconds between two chat lines at each table (0: no chat)."""
    profile_every: float = 0.0
    """Mean seconds between two profile requests at each table (0: none): a player looking
    at their profile now and then, as after a match."""
    analysis_every: float = 0.0
    """Mean seconds between two asks for a hand's analysis at each table (0: none): a player
    replaying the hand just over with the solver's analysis, asking again until it is
    ready."""
    drop_rate: float = 0.0
    """Share of connections dropped each second."""
    full_views: bool = False
    """The clients take every table message whole, as before ``table_patch`` (the browser
    and, by default, these clients take patches: each change's message is what changed)."""
    relay_only: bool = False
    """Two servers, the second drained before the tables are made and every client
    connected to it: the first owns every table, the second only relays (their CPU is
    reported apart)."""
    kill_every: float | None = None
    redis: ManagedRedis | None = None
    """The load test's own Redis, when it is to be stopped now and then."""
    stop_redis_every: float | None = None
    stop_redis_for: float = 3.0
    """Seconds each Redis outage lasts."""
    servers: list[ManagedServer] = field(default_factory=list)
    server_pids: list[int] = field(default_factory=list)
    database_url: str | None = None
    seed: int = 1
    request_timeout: float = 30.0
    rules: dict[str, Any] = field(default_factory=lambda: {"target": 500, "lose_at": -500})
    stats: Stats = field(default_factory=Stats)
    acked: list[Acked] = field(default_factory=list)
    benches: list[LoadTable] = field(default_factory=list)
    stopping: bool = False
    timings: set[asyncio.Task[None]] = field(default_factory=set)
    started: float = 0.0
    elapsed: float = 0.0
    memory: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Server → (RSS KiB before the tables sat down, RSS KiB at the end of the load)."""
    memory_timeline: list[tuple[float, int]] = field(default_factory=list)
    """(seconds into the play, RSS KiB of all servers together), once a minute: a long run's
    memory should stay flat."""
    kills: int = 0
    kill_times: list[float] = field(default_factory=list)
    """When each server was killed (``time.monotonic()``), by kill number less one."""
    redis_outages: list[tuple[float, float | None]] = field(default_factory=list)
    """When each Redis outage began and ended (``None``: not yet), ``time.monotonic()``."""
    failed_restarts: int = 0
    health: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What each server said about itself at the end of the load."""
    cpu_used: float | None = None
    """CPU seconds the servers used while the clients played (not measured across kills)."""
    cpu_by_server: dict[str, float] = field(default_factory=dict)
    """The same, each server's (servers this run started)."""
    verdict: Verdict = field(default_factory=Verdict)

    @property
    def client_urls(self) -> list[str]:
        """The servers the clients connect to (with :attr:`relay_only`, the second alone)."""
        return self.urls[1:2] if self.relay_only else self.urls

    def cpu_of_each(self) -> dict[str, float]:
        """CPU seconds used so far by each server this run started."""
        return {s.url: cpu_seconds(s.pid) for s in self.servers if s.pid is not None}

    def server_cpu(self) -> float | None:
        """CPU seconds used so far by the servers this run knows the pids of (None: none)."""
        pids = [s.pid for s in self.servers if s.pid is not None] or self.server_pids
        return sum(cpu_seconds(pid) for pid in pids) if pids else None

    def server_memory(self) -> dict[str, int]:
        """Each server's resident memory in KiB, read from /proc or asked over HTTP."""
        found: dict[str, int] = {}
        if self.servers:
            for server in self.servers:
                if server.pid is not None:
                    found[server.url] = rss_kib(server.pid)
            return found
        if self.server_pids:
            return {f"pid {pid}": rss_kib(pid) for pid in self.server_pids}
        for url in self.urls:
            answer = ask_health(url)
            if answer and answer.get("rss_kib"):
                found[url] = int(answer["rss_kib"])
            elif answer and answer.get("pid") and urlsplit(url).hostname in (
                    "127.0.0.1", "localhost"):
                found[url] = rss_kib(int(answer["pid"]))
        return found

    def _sample_memory(self, every: float = 60.0) -> None:
        """Add to the memory timeline if a minute has passed since the last sample."""
        elapsed = time.perf_counter() - self.started
        last = self.memory_timeline[-1][0] if self.memory_timeline else -every
        if elapsed - last >= every:
            self.memory_timeline.append((elapsed, sum(self.server_memory().values())))

    async def seat(self, on_progress: Callable[[int], None] | None = None) -> None:
        """Seat every table, twenty at a time."""
        self.memory_before = self.server_memory()
        if self.relay_only:
            relaying = self.servers[1].pid if len(self.servers) == 2 else None
            if relaying is None:
                raise ValueError("relay-only takes two servers this load test starts")
            os.kill(relaying, signal.SIGUSR1)  # drained: it makes no table of its own
            await self._until_placing_elsewhere(self.servers[1].url)
        self.benches = [LoadTable(self, n) for n in range(self.tables)]
        for start in range(0, self.tables, 20):
            await asyncio.gather(*(b.seat_everybody() for b in self.benches[start:start + 20]))
            if on_progress:
                on_progress(min(self.tables, start + 20))

    @staticmethod
    async def _until_placing_elsewhere(url: str) -> None:
        """Wait until the server at ``url`` drains and has heard another take new tables,
        so that every table it is asked for goes there."""
        deadline = time.monotonic() + RELAY_ONLY_WAIT
        while time.monotonic() < deadline:
            health = await asyncio.to_thread(ask_health, url) or {}
            if health.get("draining") and health.get("peers_placing", 0) > 0:
                return
            await asyncio.sleep(0.25)
        raise TimeoutError(f"{url} did not drain and hear another server within "
                           f"{RELAY_ONLY_WAIT:g} s")

    async def _killer(self) -> None:
        """Every ``kill_every`` seconds: SIGKILL one of our servers (in turn), restart it."""
        assert self.kill_every
        turn = 0
        while not self.stopping:
            await asyncio.sleep(self.kill_every)
            if self.stopping or not self.servers:
                return
            server = self.servers[turn % len(self.servers)]
            turn += 1
            server.kill()
            self.kills += 1
            killed_at = time.monotonic()
            self.kill_times.append(killed_at)
            for bench in self.benches:  # its players' server, or its bots' owner: any table
                if bench.hit is None:
                    bench.hit = (self.kills, killed_at)
            while not self.stopping:
                try:
                    await asyncio.to_thread(server.start)
                    break
                except RuntimeError:  # e.g. the code on disk is being edited: try again
                    self.failed_restarts += 1
                    await asyncio.sleep(1.0)

    async def _redis_stopper(self) -> None:
        """Every ``stop_redis_every`` seconds: kill the servers' Redis, and start it again
        ``stop_redis_for`` seconds later. Notices sent meanwhile are lost; the servers must
        catch up from the database."""
        assert self.stop_redis_every and self.redis is not None
        while not self.stopping:
            await asyncio.sleep(self.stop_redis_every)
            if self.stopping:
                return
            self.redis_outages.append((time.monotonic(), None))
            self.redis.kill()
            await asyncio.sleep(self.stop_redis_for)
            await asyncio.to_thread(self.redis.start)
            back = time.monotonic()
            self.redis_outages[-1] = (self.redis_outages[-1][0], back)
            for bench in self.benches:
                if bench.redis_back is None:
                    bench.redis_back = back

    async def _dropper(self) -> None:
        """Every second, close a ``drop_rate`` share of the connections (clients come back)."""
        rng = random.Random(self.seed)
        while not self.stopping:
            await asyncio.sleep(1.0)
            for bench in self.benches:
                for player in bench.players:
                    if player.client is not None and rng.random() < self.drop_rate:
                        self.stats.drops += 1
                        asyncio.get_running_loop().create_task(player.client.close())

    async def play(self, on_tick: Callable[[LoadRun], None] | None = None) -> None:
        """Play for ``duration`` seconds, then check the record."""
        before = getattr(self, "memory_before", None) or self.server_memory()
        # The clients are the measuring instrument: keep their garbage collector's pauses out
        # of the figures (the servers collect as usual).
        gc.freeze()
        gc.disable()
        try:
            self.started = time.perf_counter()
            cpu_before = self.server_cpu()
            each_before = self.cpu_of_each()
            until = self.started + self.duration
            for bench in self.benches:
                bench.progress = time.monotonic()
            tasks = [asyncio.create_task(p.play(until)) for b in self.benches
                     for p in b.players]
            if self.chat_every > 0:
                tasks += [asyncio.create_task(b.players[0].chat(until)) for b in self.benches]
            if self.profile_every > 0:
                tasks += [asyncio.create_task(b.players[1].look_up(until))
                          for b in self.benches]
            if self.analysis_every > 0:
                tasks += [asyncio.create_task(b.players[2].analyse(until))
                          for b in self.benches]
            helpers = []
            if self.kill_every:
                helpers.append(asyncio.create_task(self._killer()))
            if self.drop_rate > 0:
                helpers.append(asyncio.create_task(self._dropper()))
            if self.stop_redis_every:
                helpers.append(asyncio.create_task(self._redis_stopper()))
            while time.perf_counter() < until:
                await asyncio.sleep(min(1.0, max(0.0, until - time.perf_counter())))
                self._sample_memory()
                if on_tick:
                    on_tick(self)
            after = self.server_memory()
            self.health = {url: ask_health(url) or {} for url in self.urls}
            cpu_after = self.server_cpu()
            if cpu_before is not None and cpu_after is not None and not self.kills:
                self.cpu_used = cpu_after - cpu_before
                self.cpu_by_server = {url: used - each_before.get(url, 0.0)
                                      for url, used in self.cpu_of_each().items()}
            self.stuck_check_at = time.monotonic()
            self.stopping = True
            for helper in helpers:
                helper.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            if self.redis is not None and not self.redis.running:
                await asyncio.to_thread(self.redis.start)  # stopped mid-outage: back for the end
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
            await asyncio.gather(*list(self.timings), return_exceptions=True)
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    self.stats.error(f"player crashed: {type(outcome).__name__}: {outcome}"[:120])
            self.elapsed = time.perf_counter() - self.started
        finally:
            gc.enable()
            gc.unfreeze()
        self.memory = {url: (before.get(url, 0), after.get(url, 0)) for url in after}

    async def check(self) -> Verdict:
        """Compare the record with what the clients were told."""
        verdict = Verdict()
        now = getattr(self, "stuck_check_at", time.monotonic())
        # A kill costs a restart, or a lease running out elsewhere: allow for one.
        allowance = STUCK_AFTER + (self.kill_every or 0) + 3 * self.think
        for bench in self.benches:
            latest = bench.latest
            if latest and latest["status"] == "playing" and now - bench.progress > allowance:
                verdict.stuck.append(bench.table_id)
        if not self.database_url:
            verdict.note = "no database URL: the record was not checked"
            self.verdict = verdict
            return verdict
        verdict.checked = True
        from cardroom.games.registry import replay
        from cardroom.store.db import Store

        store = await Store.open(self.database_url, migrate=False)
        try:
            by_table: dict[str, list[Acked]] = {}
            for acked in self.acked:
                by_table.setdefault(acked.table_id, []).append(acked)
            verdict.acked = len(self.acked)
            for bench in self.benches:
                table_id = bench.table_id
                played = await store.match_records(table_id)
                stored: dict[tuple[int | None, int | None], tuple[int | None, str]] = {
                    (m.match.number, n): (seat, action) for m in played
                          for n, (seat, action) in enumerate(zip(m.record.seats,
                                                                 m.record.actions,
                                                                 strict=True))}
                for acked in by_table.get(table_id, []):
                    if stored.get((acked.match, acked.number)) != (acked.seat, acked.action):
                        verdict.missing.append(f"{table_id} match {acked.match} "
                                               f"#{acked.number} {acked.action}")
                seen = {m["match"]: m for m in (bench.latest or {}).get("matches", [])}
                for m in played:
                    match, number = m.match, m.match.number
                    try:
                        game = replay(m.record)
                    except ValueError as error:
                        verdict.mismatched.append(f"{table_id} match {number} (its record "
                                                  f"does not replay: {error})")
                        continue
                    if match.finished_at is None:
                        view = (bench.latest or {}).get("view")
                        if (bench.latest and bench.latest["match_number"] == number and view
                                and len(view.get("history", [])) == len(game.history)
                                and list(view["scores"]) != list(game.scores)):
                            verdict.mismatched.append(f"{table_id} match {number} (current)")
                        continue
                    verdict.matches += 1
                    if list(game.scores) != list(match.scores or []) or (
                            number in seen and list(seen[number]["scores"])
                            != list(game.scores)):
                        verdict.mismatched.append(f"{table_id} match {number}")
        finally:
            await store.close()
        self.verdict = verdict
        return verdict


def start_servers(count: int, database_url: str | None, redis_url: str | None,
                  folder: Path, extra: list[str] | None = None,
                  source: Path | None = None) -> list[ManagedServer]:
    """Start ``count`` servers. Without a database URL: a SQLite file in ``folder`` (one
    server only: several need PostgreSQL and Redis). ``source``: run another checkout's
    server (see :attr:`ManagedServer.source`)."""
    if count > 1 and not (database_url and redis_url):
        raise ValueError("several servers need --database-url (PostgreSQL) and --redis-url")
    url = database_url or f"sqlite:///{folder / 'loadtest.sqlite3'}"
    if count > 2:
        # Their pools together stay under PostgreSQL's default of 100 connections, with a
        # fifth of them left for the load test's own check and anyone else.
        extra = [*(extra or []), "--database-pool", str(max(2, 80 // count))]
    servers = [ManagedServer(free_port(), url, redis_url, folder / f"server{n}.log", extra,
                             source) for n in range(count)]
    try:
        for server in servers:
            server.start()
    except BaseException:
        for server in servers:  # none may outlive a load test that could not start
            server.stop()
        raise
    return servers


def memory_trend(timeline: list[tuple[float, int]], points: int = 7) -> str:
    """A long run's memory in a few evenly spaced samples: "0 min 300, 5 min 310, … MiB"."""
    step = max(1, (len(timeline) - 1) // (points - 1))
    chosen = timeline[::step]
    if chosen[-1] is not timeline[-1]:
        chosen.append(timeline[-1])
    return ", ".join(f"{at / 60:.0f} min {kib / 1024:.0f}" for at, kib in chosen) + " MiB"


def bot_rows(run: LoadRun) -> list[tuple[str, str]]:
    """The server bots' turns (:attr:`Stats.bot_turns`) and the servers' count of their
    decisions run lighter under a backlog, as rows, if there were any."""
    if not run.stats.bot_turns:
        return []
    ms = [x * 1000 for x in run.stats.bot_turns]
    rows = [("server bots' turns → next change",
             f"{len(ms):,} turns: p50 {percentile(ms, 0.5):.0f} ms, "
             f"p99 {percentile(ms, 0.99):.0f} ms, max {max(ms):.0f} ms")]
    decided, lighter, twice = (sum(int(answer.get(f"bot_{event}", 0))
                                   for answer in run.health.values())
                               for event in ("decided", "downgraded", "downgraded_twice"))
    if decided:
        rows.append(("server bots' decisions",
                     f"{decided:,}: {lighter / decided:.0%} run lighter "
                     f"({twice / decided:.0%} two levels lighter)"))
    return rows


def _spread(seconds: list[float]) -> str:
    """The median, p99 and longest of some waits."""
    return (f"p50 {percentile(seconds, 0.5):.1f} s, p99 {percentile(seconds, 0.99):.1f} s, "
            f"max {max(seconds):.1f} s")


def recoveries_by_redis(run: LoadRun) -> tuple[list[float], list[float]]:
    """The kill → next change waits split in two: those during which Redis stayed up (a
    table's failover alone) and those that a Redis outage overlapped (the outage held every
    relayed view back as well, so the wait measures the outage more than the kill). An
    outage lasts, for this, until the servers may all have tried Redis again
    (:data:`~cardroom.bus.redis.RETRY_CAP` after it answers)."""
    clear: list[float] = []
    crossed: list[float] = []
    for kill, seconds in run.stats.recoveries:
        start = run.kill_times[kill - 1]
        end = start + seconds
        overlapped = any(began < end and (ended is None or ended + RETRY_CAP > start)
                         for began, ended in run.redis_outages)
        (crossed if overlapped else clear).append(seconds)
    return clear, crossed


def figures(run: LoadRun) -> list[tuple[str, str]]:
    """The results as (figure, value) rows."""
    ms = [x * 1000 for x in run.stats.latencies]
    profile_ms = [x * 1000 for x in run.stats.profile_times]
    rated = sum(int(health.get("matches_rated", 0)) for health in run.health.values())
    elapsed = run.elapsed or max(1e-9, time.perf_counter() - run.started)
    rows = [
        ("tables", f"{run.tables} ({run.tables * (SEATS - run.bot_seats)} WebSocket clients"
                   + (f", {run.bot_seats} server bots each, {run.server_bot})"
                      if run.bot_seats else ")")),
        ("servers", str(len(run.servers) or len(run.urls))),
        ("pace", "full speed" if not run.think else f"one action per ~{run.think:.1f} s "
                                                     "per table"),
        ("actions", f"{run.stats.actions:,} in {elapsed:.0f} s"),
        ("actions/s", f"{run.stats.actions / max(elapsed, 1e-9):,.1f}"),
        ("action → every seat's view p50", f"{percentile(ms, 0.5):.1f} ms"),
        ("action → every seat's view p99", f"{percentile(ms, 0.99):.1f} ms"),
        ("action → every seat's view max", f"{max(ms, default=float('nan')):.1f} ms"),
        *bot_rows(run),
        ("errors", f"{run.stats.errors}" + (f" {run.stats.error_codes}"
                                            if run.stats.error_codes else "")),
        ("reconnects", str(run.stats.reconnects)),
        ("answered reconnecting (a table moving)", str(run.stats.reconnecting)),
        *([("chat lines", f"{run.stats.chat_lines:,} (one a table every ~{run.chat_every:g} s)")]
          if run.chat_every else []),
        *([("profiles asked for", f"{len(run.stats.profile_times):,}, p50 "
            f"{percentile(profile_ms, 0.5):.1f} ms, p99 {percentile(profile_ms, 0.99):.1f} ms")]
          if run.profile_every else []),
        *([("analyses asked for", ", ".join(f"{state} {count:,}" for state, count in
                                            sorted(run.stats.analyses.items())))]
          if run.analysis_every else []),
        *([("matches rated", str(rated))] if rated else []),
        ("views not at every seat within 30 s", str(run.stats.unseen)),
    ]
    if run.kill_every:
        rows.append(("servers killed (SIGKILL)", str(run.kills)))
        waits = [seconds for _, seconds in run.stats.recoveries]
        waiting = sum(bench.hit is not None for bench in run.benches)
        if waits:
            rows.append(("kill → each table's next change",
                         f"{_spread(waits)} ({len(waits):,} waits; {waiting} still waiting "
                         "at the end)"))
        if waits and run.redis_outages:
            clear, crossed = recoveries_by_redis(run)
            rows.append(("… Redis up throughout the wait",
                         f"{_spread(clear)} ({len(clear):,} waits)" if clear else "none"))
            rows.append(("… Redis down during the wait",
                         f"{_spread(crossed)} ({len(crossed):,} waits)" if crossed else "none"))
        if run.failed_restarts:
            rows.append(("restarts that failed (retried)", str(run.failed_restarts)))
    if run.drop_rate:
        rows.append(("connections dropped", str(run.stats.drops)))
    if run.redis is not None and run.stop_redis_every:
        rows.append(("Redis stopped (SIGKILL)", f"{run.redis.kills} times, "
                                                f"{run.stop_redis_for:g} s each"))
        if run.stats.redis_recoveries:
            rows.append(("Redis back → next change",
                         f"{_spread(run.stats.redis_recoveries)} "
                         f"({len(run.stats.redis_recoveries):,} waits)"))
    if run.cpu_used is not None and run.stats.actions:
        per_action = run.cpu_used * 1000 / run.stats.actions
        rows.append(("server CPU per action", f"{per_action:.2f} ms "
                     f"(≈ {1000 / per_action:,.0f} actions/s per busy core)"))
        if run.relay_only and len(run.cpu_by_server) == 2:
            owner, relay = (used * 1000 / run.stats.actions
                            for used in run.cpu_by_server.values())
            rows.append(("CPU per action: owner, relay", f"{owner:.2f} ms, "
                         f"{relay:.2f} ms ({relay / owner:.0%} of the owner's)"))
    for url, answer in run.health.items():
        counts = {k: answer[k] for k in ("changes", "conflicts", "rows_noticed", "catch_ups",
                                         "tables_owned", "tables_taken_over", "verbs_relayed")
                  if k in answer}
        if counts and len(run.health) > 1:
            rows.append((f"server {url}", ", ".join(f"{k} {v:,}" for k, v in counts.items())))
    for url, (before, after) in run.memory.items():
        rows.append((f"server RSS {url}", f"{before / 1024:.0f} → {after / 1024:.0f} MiB"))
    if len(run.memory_timeline) >= 3:
        rows.append(("servers' RSS over the run", memory_trend(run.memory_timeline)))
    verdict = run.verdict
    if verdict.checked:
        rows.append(("acknowledged actions missing",
                     f"{len(verdict.missing)} of {verdict.acked:,}"))
        rows.append(("matches replaying to other scores",
                     f"{len(verdict.mismatched)} of {verdict.matches}"))
    elif verdict.note:
        rows.append(("record", verdict.note))
    rows.append(("stuck tables", str(len(verdict.stuck))))
    return rows


async def run_load(run: LoadRun, console: Any = None) -> LoadRun:
    """Seat, play, check; with a live display on ``console`` (a rich Console) if given."""
    from rich.live import Live
    from rich.table import Table

    def render(current: LoadRun) -> Table:
        elapsed = max(1e-9, time.perf_counter() - current.started)
        ms = [x * 1000 for x in current.stats.latencies[-5000:]]
        table = Table(title=f"cardroom load: {current.tables} tables, "
                            f"{max(0.0, current.duration - elapsed):.0f} s left")
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_row("actions", f"{current.stats.actions:,}")
        table.add_row("actions/s", f"{current.stats.actions / elapsed:,.1f}")
        table.add_row("p50 / p99 (recent)", f"{percentile(ms, 0.5):.1f} / "
                                            f"{percentile(ms, 0.99):.1f} ms")
        table.add_row("errors", str(current.stats.errors))
        table.add_row("reconnects", str(current.stats.reconnects))
        if current.kill_every:
            table.add_row("kills", str(current.kills))
        return table

    if console is None:
        await run.seat()
        await run.play()
    else:
        with console.status("seating players") as status:
            await run.seat(lambda n: status.update(f"seating players: {n} tables"))
        with Live(console=console, refresh_per_second=2, transient=True) as live:
            await run.play(lambda r: live.update(render(r)))
    await run.check()
    await asyncio.gather(*(b.close() for b in run.benches))
    return run


def default_folder() -> tempfile.TemporaryDirectory[str]:
    """A scratch folder for servers' databases and logs."""
    return tempfile.TemporaryDirectory(prefix="cardroom-load-")
