"""A bot worker compiles the search as it starts, so no player's first hint waits for it."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
from numba.core.dispatcher import Dispatcher
import cardroom.bots.five_hundred.solver_kernel as kernel
def compiled():
    return sum(len(f.signatures) for f in vars(kernel).values() if isinstance(f, Dispatcher))
before = compiled()
from cardroom.tables.workers import warm_up
warm_up()
print(before, compiled())
"""


def test_a_workers_warm_up_compiles_the_search() -> None:
    """In a fresh process nothing is compiled until the warm-up; after it the kernel is."""
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            check=True, timeout=300)
    before, after = map(int, result.stdout.split())
    assert before == 0 and after >= 1
