"""A notice posted (``Bus.post``) is published without its sender waiting: in one process its
handlers run in a task of their own, between processes it joins the writer's queue, in order."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import pytest

from cardroom.bus.memory import InProcessBus
from cardroom.bus.redis import RedisBus
from tests.conftest import SHARED_REDIS, SHARED_REDIS_URL


async def test_a_posted_notice_reaches_its_handlers_after_the_sender_goes_on(caplog) -> None:
    bus = InProcessBus()
    heard: list[Any] = []

    async def failing(notice: dict[str, Any]) -> None:
        raise RuntimeError("a broken handler")

    async def keeping(notice: dict[str, Any]) -> None:
        heard.append(notice["n"])

    bus.subscribe("failing", failing)
    bus.subscribe("kept", keeping)
    with caplog.at_level(logging.ERROR, logger="cardroom.bus.memory"):
        bus.post("failing", {"n": 0})
        for n in range(1, 4):
            bus.post("kept", {"n": n})
        assert heard == []  # nothing ran in the sender's turn
        for _ in range(5):
            await asyncio.sleep(0)
    assert heard == [1, 2, 3]
    assert "a handler of a posted notice failed" in caplog.text


@SHARED_REDIS
async def test_notices_posted_over_redis_arrive_in_order() -> None:
    room = f"post-{uuid.uuid4().hex}"
    sender = await RedisBus.connect(SHARED_REDIS_URL, room)
    receiver = await RedisBus.connect(SHARED_REDIS_URL, room)
    heard: list[int] = []
    done = asyncio.Event()

    async def handler(notice: dict[str, Any]) -> None:
        heard.append(notice["n"])
        if len(heard) == 50:
            done.set()

    try:
        receiver.subscribe("posted", handler)
        for _ in range(100):  # until the receiver's subscription is in place
            if receiver.joined:
                break
            await asyncio.sleep(0.05)
        for n in range(50):
            sender.post("posted", {"n": n})
        await asyncio.wait_for(done.wait(), 10)
        assert heard == list(range(50))
    finally:
        await sender.close()
        await receiver.close()


@pytest.fixture(autouse=True)
def _quiet_redis_logs(caplog) -> None:
    caplog.set_level(logging.WARNING, logger="cardroom.bus.redis")
