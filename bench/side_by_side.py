"""Side-by-side runs of a bench against another checkout's code (the code before a change).

A bench measures one thing in a fresh child process: the bench file itself, run again with a
hidden ``--child`` option, which prints one JSON line. :func:`run_child` starts that process
with another checkout's ``src`` first on ``PYTHONPATH`` (or none: this checkout), and
:func:`alternate` runs this checkout (``A``) and the other (``B``) in turn, A B then B A, so
that a change in the machine's load falls on both alike. The other checkout needs no copy of
the bench: the children run this checkout's bench file against its code.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

Key = TypeVar("Key")
SIDES = ("A", "B")
"""``A``: this checkout; ``B``: the other one."""


def run_child(script: str, src: str | None, args: list[str]) -> dict[str, Any]:
    """Run ``script --child args`` in a fresh process, with ``src`` first on ``PYTHONPATH``
    when given, and return the JSON of its last line of output."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, script, "--child", *args], env=env,
                          capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def alternate(rounds: int, keys: Iterable[Key],
              measure: Callable[[str, Key], float]) -> dict[Key, dict[str, list[float]]]:
    """``measure(side, key)`` for every key, ``rounds`` times for each side, A B in even rounds
    and B A in odd ones: the figures by key and side, in round order."""
    keys = list(keys)
    figures: dict[Key, dict[str, list[float]]] = {key: {side: [] for side in SIDES}
                                                  for key in keys}
    for number in range(rounds):
        for key in keys:
            for side in SIDES if number % 2 == 0 else SIDES[::-1]:
                figures[key][side].append(measure(side, key))
    return figures


def paired_ratios(runs: dict[str, list[float]]) -> list[float]:
    """A over B for each round."""
    return [a / b for a, b in zip(runs["A"], runs["B"], strict=True)]


def summary(runs: dict[str, list[float]]) -> tuple[float, float, float, float, float]:
    """Median of A, median of B, and the median, least and greatest of the paired ratios."""
    ratios = paired_ratios(runs)
    return (statistics.median(runs["A"]), statistics.median(runs["B"]),
            statistics.median(ratios), min(ratios), max(ratios))


def pin(core: int | None) -> None:
    """Keep this process on CPU ``core`` (nothing when ``None``)."""
    if core is not None:
        os.sched_setaffinity(0, {core})
