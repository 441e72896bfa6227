"""PostgreSQL for tests: the machine's server (CI runs one too), a fresh schema per test."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
from collections.abc import Coroutine, Iterator
from typing import Any
from urllib.parse import quote

import asyncpg

POSTGRES_URL = os.environ.get("CARDROOM_TEST_POSTGRES_URL",
                              "postgresql://postgres@127.0.0.1:5432/test")


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to the end on a thread of its own (works inside a running loop too)."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


async def _execute(sql: str) -> None:
    connection = await asyncpg.connect(POSTGRES_URL)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """A URL whose connections work in a new, empty schema; dropped afterwards.

    PostgreSQL's absence is a failure, not a skip.
    """
    name = f"t_{secrets.token_hex(6)}"
    with _made(f"CREATE SCHEMA {name}", f"DROP SCHEMA {name} CASCADE"):
        yield f"{POSTGRES_URL}?options={quote(f'-csearch_path={name}')}"


@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of a new, empty database on the machine's server; dropped afterwards (with
    any connection still open to it). For what a schema of its own cannot hold: a dump and
    restore of a whole database."""
    name = f"t_{secrets.token_hex(6)}"
    with _made(f"CREATE DATABASE {name}", f"DROP DATABASE {name} WITH (FORCE)"):
        yield f"{POSTGRES_URL.rsplit('/', 1)[0]}/{name}"


@contextlib.contextmanager
def _made(create: str, drop: str) -> Iterator[None]:
    """Run ``create`` on the machine's server, then ``drop`` however the block ends."""
    _run(_execute(create))
    try:
        yield
    finally:
        _run(_execute(drop))
