"""The room's own CPU per action, without sockets: the figure to watch while cutting it.

N tables of four registered players, each player following its table through a listener that
encodes every message it receives as the WebSocket would (msgspec), on a fresh SQLite file;
random legal actions go through ``Room.act`` one after another, as fast as the room takes
them. Prints the process's CPU per action (user and system, every thread: SQLite's included),
the bytes of a table message and the messages per action. Sockets, uvicorn and the clients
are left out, so the figure moves with the room's own code and little else: a change to the
views, the commit or the action's path shows here first, and ``bench/server.py`` then says
what it is worth behind real sockets.

``--vs CHECKOUT`` measures another checkout's room in the same run (its ``src`` first on the
path, in a process of its own), the two in turn for ``--rounds`` rounds, and prints the
medians side by side with their ratio.

``--store-only`` measures the store alone: the CPU time of writing plain actions one after
another through its group commit (each a group of its own, as at a human pace).

Run: ``python bench/room.py [--tables 50] [--actions 6000] [--vs ../start --rounds 3]``, or
``python bench/room.py --store-only --tables 10 --actions 3000 --vs ../start --rounds 5``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
import typer
from rich.console import Console
from rich.table import Table

WARM_UP = 500
"""Actions played before the measurement (the tables' first deals, the caches)."""
FIGURES = ("CPU per action ms", "bytes a message", "messages an action")
STORE_FIGURE = "CPU per stored action µs"


class EncodingListener:
    """A follower that encodes what it receives, as a connection's writer does; with
    ``patches``, one that takes ``table_patch`` messages, as the browser's does."""

    def __init__(self, patches: bool) -> None:
        self.patches = patches
        self.encoder = msgspec.json.Encoder()
        self.messages = 0
        self.bytes = 0

    def deliver(self, message: Any) -> None:
        """Encode the message and count it."""
        self.messages += 1
        self.bytes += len(self.encoder.encode(message))


async def measure(tables: int, actions: int, seed: int, patches: bool) -> dict[str, float]:
    """One run on a fresh SQLite file: the figures of :data:`FIGURES`."""
    from cardroom.store.db import Store
    from cardroom.tables.quotas import QuotaSettings
    from cardroom.tables.room import Room, RoomSettings

    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite:///{Path(folder) / 'room.sqlite3'}")
        room = Room(store, RoomSettings(
            bot_workers=1, disconnect_grace=3600, default_bot="simple",
            quotas=QuotaSettings(tables_per_player=10_000, tables=100_000)))
        await room.start()
        try:
            seated, listeners = [], []
            for number in range(tables):
                players = [(await room.register(f"p{number}x{seat}"))[0] for seat in range(4)]
                table = await room.create_table(players[0], "online",
                                                {"target": 100_000, "lose_at": -100_000},
                                                0, None, None)
                for seat in range(1, 4):
                    await room.join(players[seat], table.id, seat)
                for player in players:
                    listener = EncodingListener(patches)
                    await room.open(listener, player, table.id)
                    listeners.append(listener)
                seated.append((table, players))
            rng = random.Random(seed)

            async def act() -> float:
                """One random legal action: the CPU time the room took over it (choosing it,
                all the discard choices of an exchange listed, is left out)."""
                table, players = rng.choice(seated)
                game = table.game
                action = rng.choice(list(game.legal_actions()))
                before = time.process_time()
                await room.act(players[game.to_act], table.id, action.text)
                return time.process_time() - before

            for _ in range(WARM_UP):
                await act()
            used = 0.0
            for _ in range(actions):
                used += await act()
        finally:
            await room.stop()
            await store.close()
    messages = sum(listener.messages for listener in listeners)
    return {"CPU per action ms": used * 1000 / actions,
            "bytes a message": sum(listener.bytes for listener in listeners) / messages,
            "messages an action": messages / (actions + WARM_UP)}


async def measure_store(tables: int, actions: int) -> dict[str, float]:
    """The store alone on a fresh SQLite file: the CPU time of writing ``actions`` plain
    actions one after another through its group commit (each a group of its own, as at a
    human pace), spread over ``tables`` tables."""
    from cardroom.store.data import NewTable
    from cardroom.store.db import Change, Store

    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite:///{Path(folder) / 'store.sqlite3'}")
        try:
            versions = {}
            for number in range(tables):
                table_id = f"t{number}"
                await store.add_table(NewTable(id=table_id, game="500", rules={}, seats=4,
                                               bot="simple", turn_seconds=None, hints=False,
                                               creator_id=None, created_at=0.0))
                await store.commit(Change(table_id, 0, 0.5, match=(1, 42, 0, {})))
                versions[table_id] = 1

            async def write(number: int) -> None:
                table_id = f"t{number % tables}"
                version = versions[table_id]
                assert await store.commit(Change(table_id, version, 1.0 + number,
                                                 action=(1, version - 1, 0, "pass")))
                versions[table_id] = version + 1

            for number in range(WARM_UP):
                await write(number)
            before = time.process_time()
            for number in range(WARM_UP, WARM_UP + actions):
                await write(number)
            used = time.process_time() - before
        finally:
            await store.close()
    return {STORE_FIGURE: used * 1e6 / actions}


def measure_checkout(source: Path, tables: int, actions: int, seed: int,
                     patches: bool, store_only: bool = False) -> dict[str, float]:
    """The figures of another checkout's room, measured by this script in a process whose
    path puts that checkout's ``src`` first."""
    environment = {**os.environ, "PYTHONPATH": str(source.resolve() / "src")}
    finished = subprocess.run(
        [sys.executable, __file__, "--tables", str(tables), "--actions", str(actions),
         "--seed", str(seed), "--json", *([] if patches else ["--full-views"]),
         *(["--store-only"] if store_only else [])],
        env=environment, check=True, capture_output=True, text=True)
    figures: dict[str, float] = json.loads(finished.stdout.strip().splitlines()[-1])
    return figures


def main(tables: int = typer.Option(50, help="Tables of four players."),
         actions: int = typer.Option(6000, help="Actions measured (after the warm-up)."),
         seed: int = typer.Option(1, help="Seed of the actions chosen."),
         full_views: bool = typer.Option(False, help="Listeners that take every message "
                                                     "whole rather than as patches."),
         vs: str = typer.Option(None, help="Another checkout whose room to measure in turn."),
         rounds: int = typer.Option(3, help="Runs of each room with --vs (order alternating)."),
         store_only: bool = typer.Option(False, help="Measure the store's writing of plain "
                                                     "actions alone."),
         as_json: bool = typer.Option(False, "--json", help="Print one run's figures as JSON.")
         ) -> None:
    """Measure the room's CPU per action without sockets (and another checkout's beside it)."""
    if as_json:
        print(json.dumps(asyncio.run(measure_store(tables, actions) if store_only
                                     else measure(tables, actions, seed, not full_views))))
        return
    here = Path(__file__).resolve().parent.parent
    contenders = [("this checkout", here)] + ([(vs, Path(vs))] if vs is not None else [])
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in contenders}
    for number in range(rounds if vs is not None else 1):
        order = contenders if number % 2 == 0 else contenders[::-1]
        for name, source in order:
            runs[name].append(measure_checkout(source, tables, actions, seed, not full_views,
                                               store_only))
    result = Table(title=f"the room without sockets: {tables} tables, {actions} actions, "
                         f"medians of {len(runs[contenders[0][0]])} run(s), {os.cpu_count()} "
                         "cores")
    result.add_column("figure")
    for name, _ in contenders:
        result.add_column(name, justify="right")
    if vs is not None:
        result.add_column("ratio", justify="right")
    for figure in (STORE_FIGURE,) if store_only else FIGURES:
        medians = [statistics.median(run[figure] for run in runs[name])
                   for name, _ in contenders]
        ratio = [f"{medians[0] / medians[1]:.2f}"] if vs is not None and medians[1] else []
        result.add_row(figure, *(f"{value:,.3f}" for value in medians), *ratio)
    Console().print(result)


if __name__ == "__main__":
    typer.run(main)
