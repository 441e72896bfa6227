"""What one notice between two processes costs: CPU per hop over the room's Redis bus.

In a shared room every view for a player on another process, and every verb such a player
sends, crosses the bus once (a "hop"): the sender posts a notice (:meth:`RedisBus.post`), the
receiver's subscriber wakes, reads it and hands it to its handler. This measures that cost
alone, between two processes of the bus and nothing else: a sender posts notices of
``--size`` bytes to an echo process at ``--rate`` a second, the echo posts each one back, and
both processes' CPU time (user and system, from ``/proc``) is divided by the hops made (two a
round trip; the echo's CPU a round trip is one notice received and one sent, the whole
of a hop). ``--busy K`` runs K processes spinning in Python beside them, as the clients,
the database and the other servers of a load test keep the cores busy: a hop's cost depends
on whether the cores sit idle between notices (a virtual machine's idle core is put to sleep
and woken again for each one).

Run: ``python bench/bus_hop.py --redis-url redis://127.0.0.1:6379/9 --rates 100,1000
--busy 0,2``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import platform
import time

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bus.redis import RedisBus
from cardroom.tools.processes import cpu_seconds

PING, PONG = "bench-ping", "bench-pong"
"""The channels the two processes post to each other on."""


def spin() -> None:
    """Keep one core busy in Python, as a loaded machine's other processes do."""
    while True:
        pass


def echo(url: str, ready: multiprocessing.synchronize.Event) -> None:
    """Post every notice on :data:`PING` back on :data:`PONG`, until killed."""
    import uvloop

    async def main() -> None:
        bus = await RedisBus.connect(url, room="bench")

        async def back(data: bytes) -> None:
            bus.post(PONG, {"echo": len(data)})

        bus.subscribe_raw(PING, back)
        while not bus.joined:
            await asyncio.sleep(0.05)
        ready.set()
        await asyncio.Event().wait()

    uvloop.run(main())


async def round_trips(url: str, rate: float, seconds: float, size: int,
                      echo_pid: int) -> tuple[int, float, float]:
    """Send ``rate`` notices a second for ``seconds``; the round trips answered, and the
    CPU seconds this process and the echo spent meanwhile."""
    bus = await RedisBus.connect(url, room="bench")
    answered = 0

    async def count(data: bytes) -> None:
        nonlocal answered
        answered += 1

    bus.subscribe_raw(PONG, count)
    while not bus.joined:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # (both subscriptions settled)
    notice = {"items": ["x" * size]}
    mine, theirs = time.process_time(), cpu_seconds(echo_pid)
    start = time.monotonic()
    sent = 0
    while (now := time.monotonic()) < start + seconds:
        due = int((now - start) * rate) + 1
        while sent < due:
            bus.post(PING, notice)
            sent += 1
        await asyncio.sleep(1 / rate)
    await asyncio.sleep(0.5)  # (the last answers)
    spent = time.process_time() - mine, cpu_seconds(echo_pid) - theirs
    await bus.close()
    return answered, spent[0], spent[1]


def measure(url: str, rate: float, seconds: float, size: int, busy: int) -> dict[str, float]:
    """One run: CPU per hop of the sender and of the echo, and round trips a second."""
    import uvloop

    context = multiprocessing.get_context("spawn")
    spinners = [context.Process(target=spin, daemon=True) for _ in range(busy)]
    ready = context.Event()
    echoer = context.Process(target=echo, args=(url, ready), daemon=True)
    for process in [*spinners, echoer]:
        process.start()
    try:
        if not ready.wait(30):
            raise RuntimeError("the echo process did not join the bus")
        assert echoer.pid is not None
        answered, sender, echoed = uvloop.run(round_trips(url, rate, seconds, size,
                                                          echoer.pid))
    finally:
        for process in [*spinners, echoer]:
            process.kill()
            process.join()
    trips = max(answered, 1)
    return {"round trips/s": answered / seconds, "echo µs": echoed * 1e6 / trips,
            "sender µs": sender * 1e6 / trips,
            "µs a hop": (sender + echoed) * 1e6 / (2 * trips)}


def main(
    redis_url: str = typer.Option("redis://127.0.0.1:6379/9", help="A Redis to use."),
    rates: str = typer.Option("100,1000", help="Round trips a second, comma-separated."),
    busy: str = typer.Option("0,2", help="Spinning processes beside the two, comma-separated."),
    seconds: float = typer.Option(10.0, help="How long each run posts."),
    size: int = typer.Option(1500, help="Bytes of each notice (a view is one or two KB)."),
) -> None:
    """CPU per hop between two processes of the bus, at each rate and load."""
    console = Console()
    result = Table(title=f"one notice between two processes over Redis ({platform.node()}, "
                         f"{os.cpu_count()} cores, {size} bytes a notice, {seconds:g} s a run)")
    columns = {"round trips/s": "round trips/s",
               "echo µs": "echo's CPU a round trip, µs (one notice in, one out: a hop)",
               "sender µs": "sender's CPU a round trip, µs (its pacing clock too)",
               "µs a hop": "both, µs a hop"}
    for column in ("rate", "busy", *columns.values()):
        result.add_column(column, justify="right")
    for load in (int(part) for part in busy.split(",")):
        for rate in (float(part) for part in rates.split(",")):
            figures = measure(redis_url, rate, seconds, size, load)
            result.add_row(f"{rate:g}/s", str(load),
                           *(f"{figures[name]:,.0f}" for name in columns))
    console.print(result)


if __name__ == "__main__":
    typer.run(main)
