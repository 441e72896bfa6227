"""Memory per idle connection: N clients connect, register and then just stay connected.

Starts `cardroom serve` on a fresh SQLite file, reads its resident memory (VmRSS), connects
``--clients`` WebSocket clients in batches (each registers a name, as a browser tab does on its
first visit), waits a few seconds for the server to settle, reads the memory again, and prints
the difference per connection.

Run: ``python bench/idle.py --clients 5000``.
"""

from __future__ import annotations

import asyncio
import resource
import time
from pathlib import Path

import typer
from rich.console import Console

from cardroom.tools.client import Client
from cardroom.tools.loadtest import default_folder, start_servers
from cardroom.tools.processes import rss_kib


async def _hold(url: str, clients: int, batch: int, console: Console, pid: int) -> None:
    before = rss_kib(pid)
    held: list[Client] = []
    started = time.perf_counter()
    with console.status("connecting") as status:
        for first in range(0, clients, batch):
            group = [Client(url, timeout=60) for _ in range(min(batch, clients - first))]
            await asyncio.gather(*(c.connect() for c in group))
            await asyncio.gather(*(c.register(f"idle{first + n}") for n, c in enumerate(group)))
            held += group
            status.update(f"connected {len(held):,} of {clients:,}")
    took = time.perf_counter() - started
    await asyncio.sleep(5)
    after = rss_kib(pid)
    alive = sum(c.connected for c in held)
    console.print(f"{alive:,} idle connections held (connected in {took:.0f} s)")
    console.print(f"server RSS: {before / 1024:.0f} MiB before, {after / 1024:.0f} MiB after")
    console.print(f"memory per idle connection: {(after - before) / max(alive, 1):.1f} KiB")
    await asyncio.gather(*(c.close() for c in held), return_exceptions=True)


def main(
    clients: int = typer.Option(5000, help="Idle connections to hold."),
    batch: int = typer.Option(100, help="Connections opened at once."),
) -> None:
    """Measure the server's memory per idle connection."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, clients + 1000)), hard))
    console = Console()
    with default_folder() as folder:
        server = start_servers(1, None, None, Path(folder))[0]
        try:
            assert server.pid is not None
            asyncio.run(_hold(server.url, clients, batch, console, server.pid))
        finally:
            server.stop()


if __name__ == "__main__":
    typer.run(main)
