"""Hands' analyses for replays: the solver's verdict on every card, worked out on request.

A replay asks for a hand's analysis; the first ask queues it and every later one says how
far along it is, until it is ready. The work is done in the bot workers, one hand at a time,
under a single key of the workers' round-robin: however many hands wait, they take one turn
among the live tables, never a turn from each (live tables come first). At most
:data:`QUEUE_MAX` hands wait; past that the ask is refused with :class:`AnalysisBusy`.

A finished analysis is kept with its match in the store (``hand_analyses``), so it is worked
out once for everybody; an imported record's is kept in this process only (nothing of an
import is stored). A game without an analyser (see
:data:`cardroom.bots.GAME_ANALYSERS`) and tables the solver cannot play (five or six hands)
answer ``unavailable`` with the reason.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardroom.bots import GAME_ANALYSERS
from cardroom.games.registry import GAMES
from cardroom.store.db import Store
from cardroom.tables.replays import IMPORTED, ReplayMatch
from cardroom.tables.workers import BotWorkers, WorkerLost

log = logging.getLogger(__name__)

QUEUE_MAX = 16
"""Hands that may wait for an analysis at once in this process."""
PER_CLIENT_MAX = 2
"""Hands one client (address) may have waiting at once: nobody fills the queue alone."""
WORKER_KEY = "analysis"
"""The analyses' one place in the bot workers' round-robin."""
BUDGETS = 3.0
"""Worker budgets one hand's analysis may take: nobody waits on it at a table, and a fresh
worker's first hand of 1000 compiles the solver first (seconds, many more on a busy
machine), which within one budget had the worker killed and the next one start over."""
KEPT_IN_MEMORY = 256
"""Analyses (and reasons there is none) this process remembers besides the store."""
TOO_LONG = "The solver could not finish this hand in time."

Key = tuple[str, str, int]
"""(table id or ``import``, match number or the record's digest, hand)."""


class AnalysisBusy(Exception):
    """Too many hands wait for their analysis: ask again in a while."""


@dataclass(frozen=True, slots=True)
class _Job:
    record: str
    number: int
    """The hand's number in the engine (``HandResult.number``)."""
    review: Callable[[str, int], dict[str, Any]]
    client: str
    """Who asked first (the address): how many of the waiting hands are theirs."""


class Analyses:
    """The queue of hands to analyse and what is ready (see the module's docstring)."""

    def __init__(self, store: Store, workers: BotWorkers,
                 spawn: Callable[[Any], asyncio.Task[Any]]) -> None:
        self.store = store
        self.workers = workers
        self.spawn = spawn
        self.waiting: OrderedDict[Key, _Job] = OrderedDict()
        self.working: Key | None = None
        self.known: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        """Answers this process remembers: ``ready`` ones and ``unavailable`` ones."""
        self._task: asyncio.Task[Any] | None = None

    async def status(self, match: ReplayMatch, hand: int, client: str) -> dict[str, Any]:
        """Where the analysis of a hand that is over stands: ``{"state": "ready",
        "analysis": …}``, ``queued`` (with ``ahead``: hands before it), ``working`` or
        ``unavailable`` (with ``reason``); queues it on the first ask. :class:`AnalysisBusy`
        if the queue is full, or ``client`` already has :data:`PER_CLIENT_MAX` hands waiting;
        ``ValueError`` if the match has no such hand."""
        if not 1 <= hand <= len(match.history):
            raise ValueError(f"there is no hand {hand} to analyse")
        analyser = GAME_ANALYSERS.get(match.record.game)
        if analyser is None:
            return {"state": "unavailable",
                    "reason": "The solver does not analyse this game's hands yet."}
        spec = GAMES[match.record.game]
        players = spec.players(spec.rules_from_dict(match.record.rules))
        if players > analyser.max_players:
            return {"state": "unavailable", "reason": f"The solver plays at most "
                                                      f"{analyser.max_players} hands."}
        key = _key(match, hand)
        known = self.known.get(key) or await self._stored(key)
        if known is not None:
            return known
        if key == self.working:
            return {"state": "working", "ahead": 0}
        if key in self.waiting:
            return {"state": "queued", "ahead": list(self.waiting).index(key) + 1}
        mine = sum(job.client == client for job in self.waiting.values())
        if len(self.waiting) >= QUEUE_MAX or mine >= PER_CLIENT_MAX:
            raise AnalysisBusy("Many hands are being analysed: ask again in a minute.")
        number = int(match.history[hand - 1]["number"])
        self.waiting[key] = _Job(match.record.to_text(), number, analyser.review, client)
        if self._task is None or self._task.done():
            self._task = self.spawn(self._drain())
        return {"state": "queued", "ahead": len(self.waiting) - 1 + (self.working is not None)}

    async def _stored(self, key: Key) -> dict[str, Any] | None:
        """A room match's analysis kept in the store."""
        table_id, match, hand = key
        if table_id == IMPORTED:
            return None
        found = await self.store.hand_analysis(table_id, int(match), hand)
        return None if found is None else {"state": "ready", "analysis": found}

    async def _drain(self) -> None:
        """Work the queue out, oldest first, one hand at a time."""
        while self.waiting:
            key, job = self.waiting.popitem(last=False)
            self.working = key
            try:
                answer, lasting = await self._work(key, job)
                if lasting:
                    self._remember(key, answer)
            finally:
                self.working = None

    async def _work(self, key: Key, job: _Job) -> tuple[dict[str, Any], bool]:
        """One hand's analysis from a worker, kept; or why there is none. The flag says
        whether the answer lasts: a hand that overran the workers' budget (maybe only because
        the machine was busy) or met a failure is worked out again when next asked."""
        try:
            analysis = await self.workers.run(WORKER_KEY, job.review, job.record, job.number,
                                              budget_share=BUDGETS)
        except (TimeoutError, WorkerLost):
            return {"state": "unavailable", "reason": TOO_LONG}, False
        except ValueError as error:
            return {"state": "unavailable", "reason": f"No analysis: {error}."}, True
        except Exception:  # a bug in the analysis: the room goes on
            log.exception("analysis of hand %s of %s", key[2], key)
            return {"state": "unavailable", "reason": "The analysis failed."}, False
        if key[0] != IMPORTED:
            await self.store.add_hand_analysis(key[0], int(key[1]), key[2], analysis)
        return {"state": "ready", "analysis": analysis}, True

    def _remember(self, key: Key, answer: dict[str, Any]) -> None:
        self.known[key] = answer
        self.known.move_to_end(key)
        while len(self.known) > KEPT_IN_MEMORY:
            self.known.popitem(last=False)


def _key(match: ReplayMatch, hand: int) -> Key:
    """Where a hand's analysis is kept: by table, match and hand; an import's by a digest of
    its record."""
    if match.table_id == IMPORTED:
        digest = hashlib.sha256(match.record.to_text().encode()).hexdigest()
        return (IMPORTED, digest, hand)
    return (match.table_id, str(match.number), hand)
