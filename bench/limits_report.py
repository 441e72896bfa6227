"""The report of ``bench/limits.py``: each part's figures as (figure, old, new, ratio) rows,
and the machine they were measured on."""

from __future__ import annotations

import contextlib
import os
import platform
import statistics
import subprocess
import time
from typing import Any

from cardroom.tools.processes import percentile


def mib(kib: float | None) -> str:
    """KiB as MiB."""
    return "—" if kib is None else f"{kib / 1024:,.0f} MiB"


def ms(seconds: float) -> str:
    """Seconds as milliseconds."""
    return f"{seconds * 1000:,.1f} ms"


def ratio(old: float | None, new: float | None) -> str:
    """new / old."""
    if old is None or new is None or not old:
        return "—"
    return f"{new / old:.2f}×" if new / old >= 0.01 else f"{new / old:.4f}×"


Row = tuple[str, str, str, str]


def lobby_rows(part: str, old: dict[str, Any], new: dict[str, Any], tables: int
               ) -> list[Row]:
    """Part 1's figures as (figure, old, new, ratio) rows."""
    rows: list[Row] = []

    def add(name: str, key: str, show: Any, compare: bool = True) -> None:
        a, b = old.get(key), new.get(key)
        rows.append((f"{part}: {name}", show(a), show(b),
                     ratio(a, b) if compare and a is not None and b is not None else ""))

    add("tables made", "made", lambda v: f"{v:,} of {tables:,}", compare=False)
    add("seconds to make them", "make_seconds", lambda v: f"{v:,.1f} s")
    if "messages" in old:
        add("watcher received", "bytes", lambda v: f"{v / 1e6:,.1f} MB")
        add("watcher messages", "messages", lambda v: f"{v:,}")
        add("tables in the watcher's lobby at the end", "shown", lambda v: f"{v:,}",
            compare=False)
    add("server CPU", "cpu", lambda v: f"{v:,.1f} s")
    add("server RSS idle", "rss_idle", mib)
    add("server RSS max", "rss_max", mib)
    add("server RSS at the end", "rss_end", mib)
    if "dropped_after" in old:
        add("server let go of the silent watcher's socket", "dropped_after",
            lambda v: "no" if v is None else f"after {v:,.0f} s", compare=False)
        rows.append((f"{part}: the silent watcher reads at last", _closed(old), _closed(new),
                     ""))
    add("server RSS 5 s after every client left", "rss_left", mib)
    return rows


CLOSE_REASONS = {1008: "too slow", 1011: "keep-alive ping unanswered"}


def _closed(figures: dict[str, Any]) -> str:
    """What a silent watcher got when it read at last: the bytes, then the server's close."""
    code = figures.get("close_code")
    end = "still open" if code is None else f"close {code} ({CLOSE_REASONS.get(code, '?')})"
    return f"{figures.get('drained', 0) / 1e6:,.1f} MB, {end}"


def hammer_rows(old: dict[str, Any], new: dict[str, Any]) -> list[Row]:
    """Part 2's figures."""
    rows: list[Row] = []

    def add(name: str, get: Any, show: Any) -> None:
        a, b = get(old), get(new)
        rows.append((f"2: {name}", show(a), show(b), ratio(a, b)))

    add("tables", lambda f: f["made"], lambda v: f"{v:,}")
    add("ping RTT idle, p50", lambda f: percentile(f["idle"], 0.5), ms)
    add("ping RTT, p50", lambda f: percentile(f["trips"], 0.5), ms)
    add("ping RTT, p99", lambda f: percentile(f["trips"], 0.99), ms)
    add("ping RTT, max", lambda f: max(f["trips"]), ms)
    add("pings answered", lambda f: len(f["trips"]), lambda v: f"{v:,}")
    add("lobby requests/s", lambda f: f["rate"], lambda v: f"{v:,.1f}")
    add("lobby request time, p50", lambda f: percentile(f["times"], 0.5), ms)
    add("lobby response body", lambda f: f["body"], lambda v: f"{v / 1000:,.1f} kB")
    add("server CPU", lambda f: f["cpu"], lambda v: f"{v:,.1f} s")
    add("server CPU per 1,000 requests", lambda f: f["cpu_per_1000"], lambda v: f"{v:,.2f} s")
    return rows


def fairness_rows(old: dict[str, Any], new: dict[str, Any]) -> list[Row]:
    """Part 3's figures."""
    rows: list[Row] = []

    def add(name: str, get: Any, show: Any, compare: bool = True) -> None:
        a, b = get(old), get(new)
        rows.append((f"3: {name}", show(a), show(b), ratio(a, b) if compare else ""))

    def seconds(v: float) -> str:
        return f"{v:,.2f} s"

    add("strong tables' turn timer", lambda f: f["turn"], lambda v: f"{v:g} s", compare=False)
    add("bot turns measured", lambda f: len(f["turns"]), lambda v: f"{v:,}")
    add("our seat's actions", lambda f: f["ours"], lambda v: f"{v:,}")
    add("bot turn, median", lambda f: statistics.median(f["turns"]) if f["turns"] else None,
        lambda v: "—" if v is None else seconds(v))
    add("bot turn, p90", lambda f: percentile(f["turns"], 0.9) if f["turns"] else None,
        lambda v: "—" if v is None else seconds(v))
    add("bot turn, max", lambda f: max(f["turns"], default=None),
        lambda v: "—" if v is None else seconds(v))
    return rows


def machine() -> str:
    """The CPU model, cores and the date."""
    model = platform.processor() or "unknown CPU"
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    return f"{time.strftime('%Y-%m-%d')}, {model}, {os.cpu_count()} cores"


def load_average() -> str:
    """The 1-minute load average now."""
    return f"{os.getloadavg()[0]:.1f}"
